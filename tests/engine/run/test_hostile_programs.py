"""Programs that misbehave: each run in a child process, under a wall-clock and a memory limit,
with what it printed kept out of the report's own output. Whatever the program does, the command
ends with exit 2 and one line saying what the program did, or with a report; never a false OK,
a traceback or a hang; and Ctrl-C at any moment ends everything with "interrupted" and exit 130."""

from __future__ import annotations

import json
import os
import signal
import sys
import textwrap
import time
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.cli_process import CliProcess
from tests.e2e.test_bad_input import assert_failed_stacks, assert_one_clean_error, snapshot

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="programs run in forked children on Linux")

# case -> (__main__.py, what the one line says). Run with --timeout 3 --memory-limit 200.
MISBEHAVING: dict[str, tuple[str, str]] = {
    "sys-exit": ("import sys\nsys.exit(3)\n", "Pulumi.dev.yaml: the program called sys.exit(3) before it finished"),
    "sys-exit-zero": (
        "import sys\nsys.exit(0)\n",
        "Pulumi.dev.yaml: the program called sys.exit(0) before it finished",
    ),
    "os-exit-zero": (
        "import os\nos._exit(0)\n",
        "Pulumi.dev.yaml: the program ended its process with status 0 (os._exit or a crash) before it finished",
    ),
    "interpreter-crash": (
        "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
        "Pulumi.dev.yaml: the program died of signal SIGSEGV (its Python interpreter crashed or was killed) "
        "before it finished",
    ),
    "keyboard-interrupt": ("raise KeyboardInterrupt\n", "the program raised KeyboardInterrupt (at __main__.py:1)"),
    "base-exception": (
        "class Halt(BaseException):\n    pass\nraise Halt('stop here')\n",
        "the program raised Halt: stop here (at __main__.py:3)",
    ),
    "export-a-set": (
        "import pulumi\npulumi.export('zones', {'1', '2'})\n",
        "the program exported 'zones': a set, which Pulumi cannot send to the engine; allowed: strings, numbers",
    ),
    "export-nan": (
        "import pulumi\npulumi.export('ratio', {'x': [float('nan')]})\n",
        "the program exported 'ratio'.x[0]: nan; allowed: finite numbers",
    ),
    "thread-left-running": (
        "import threading, time\nthreading.Thread(target=time.sleep, args=(3600,), name='poller').start()\n",
        "Pulumi.dev.yaml: the program returned, but left threads running (poller) that did not end within 1 s "
        "(--timeout); "
        "Pulumi waits for them, so `pulumi up` would hang",
    ),
    "endless-loop": (
        "while True:\n    pass\n",
        "Pulumi.dev.yaml: the program did not finish within 0.5 s (--timeout); it was stopped",
    ),
    "runaway-memory": (
        "hoard = []\nwhile True:\n    hoard.append(bytearray(10**6))\n",
        "Pulumi.dev.yaml: the program ran out of memory: it needed more than 200 MiB (--memory-limit)",
    ),
}
LIMITS = ["--timeout", "3", "--memory-limit", "200"]
# A busy loop burns a core until its --timeout stops it, so it gets a short one (the flag takes any number above 0:
# a loop that never ends is stopped the same way after 0.5 s as after 3). A thread left running is waited for until
# the deadline, a core left idle meanwhile: 1 s, which a forked program's start and return fit well within. The
# other cases keep 3 s: they must start, then return, exit or fill their memory before it.
CASE_LIMITS = {
    "endless-loop": ["--timeout", "0.5", "--memory-limit", "200"],
    "thread-left-running": ["--timeout", "1", "--memory-limit", "200"],
}
COMMANDS = (["plan", "dev"], ["check"], ["cost"], ["quota", "dev"], ["check", "--jobs", "2", "--format", "sarif"])


def write_program(root: Path, program: str, stacks: tuple[str, ...] = ("dev",)) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "Pulumi.yaml").write_text("name: hostile\nruntime: python\n")
    (root / "__main__.py").write_text(textwrap.dedent(program))
    for stack in stacks:
        (root / f"Pulumi.{stack}.yaml").write_text("config: {}\n")
    return root


@pytest.mark.parametrize("case", sorted(MISBEHAVING))
def test_program_misbehaving_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    program, expected = MISBEHAVING[case]
    root = write_program(tmp_path / "p", program)
    before = snapshot(tmp_path)

    limits = CASE_LIMITS.get(case, LIMITS)
    assert_one_clean_error(capsys, ["plan", "dev", "--project", str(root), *limits], "", expected)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("case", ["os-exit-zero", "sys-exit-zero", "export-a-set"])
def test_program_misbehaving_fails_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, command: list[str]
) -> None:
    """Never a false OK: the exits a CI gate would read as success, in every command, with --jobs; a command over
    both stacks reports each as not planned (issue 40), one naming a stack fails as before."""
    program, expected = MISBEHAVING[case]
    root = write_program(tmp_path / "p", program, stacks=("dev", "prod"))
    argv = [*command, "--project", str(root), *LIMITS]
    said = expected.replace("Pulumi.dev.yaml: ", "")

    if command[0] in ("plan", "quota"):
        assert_one_clean_error(capsys, argv, "", said)
    else:
        assert_failed_stacks(capsys, argv, {"dev": said, "prod": said})


PRINTING = """
import sys
import pulumi
from pulumi_azure_native import resources
print("{\\"not\\": \\"the report\\"}")
print("progress \\x1b[31mred\\x1b[0m", file=sys.stderr)
resources.ResourceGroup("rg", location="eastus")
pulumi.export("name", "rg")
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["plan", "dev", "--json"],
        ["check", "--json"],
        ["check", "--format", "sarif"],
        ["check", "--jobs", "2", "--json"],
    ],
    ids=" ".join,
)
def test_program_output_never_mixes_into_json_or_sarif(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    root = write_program(tmp_path / "p", PRINTING, stacks=("dev", "prod"))

    code = main([*argv, "--project", str(root)])
    out, err = capsys.readouterr()

    assert code == 0 and err == ""
    document = json.loads(out)  # the whole of stdout is one document
    if "--json" in argv:
        plans = [document] if argv[0] == "plan" else document["stacks"]
        assert {p["programOutput"] for p in plans} == {'{"not": "the report"}\nprogress \x1b[31mred\x1b[0m\n'}


def test_program_output_is_shown_as_the_programs_in_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_program(tmp_path / "p", PRINTING)

    assert main(["plan", "dev", "--project", str(root)]) == 0
    out = capsys.readouterr().out

    assert 'Program output (stdout and stderr):\n  | {"not": "the report"}\n  | progress \\x1b[31mred\\x1b[0m\n' in out
    assert "\x1b" not in out


def test_program_limits_are_flags_with_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["plan", "--help"])
    help_text = capsys.readouterr().out

    assert "stop a program that runs longer than this, per stack (default: 120)" in " ".join(help_text.split())
    with pytest.raises(SystemExit) as exit_:
        main(["plan", "inference-t4", "--timeout", "0"])
    assert exit_.value.code == 2
    assert "argument --timeout: '0'; allowed: a number greater than 0" in capsys.readouterr().err


# --- Ctrl-C --------------------------------------------------------------------------------------

SLOW = """
import os, time
import pulumi
if pulumi.get_stack() != "a":  # the first stack is quick, so that `check --jobs` starts its workers
    open(os.environ["PIDS"] + "/" + str(os.getpid()), "w").close()
    time.sleep(600)
"""


def _group_alive(pgid: int) -> list[int]:
    """Processes of the process group still running (zombies are gone for this purpose)."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry))
    return alive


@pytest.mark.parametrize("argv", [["plan", "dev"], ["check", "--jobs", "3"], ["check", "--jobs", "1"]], ids=" ".join)
def test_ctrl_c_ends_everything_with_interrupted_and_130(tmp_path: Path, argv: list[str]) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    root = write_program(tmp_path / "p", SLOW, stacks=("a", "dev", "c", "d"))
    # The console script as a terminal's job: its own session and process group, SIGINT handled as Python handles it
    # when a terminal starts it (a test run started with `&` from a non-interactive shell inherits SIGINT ignored,
    # and this test then waited 30 s and failed). Forked from the zygote that imported gpu-stacks
    # (tests/cli_process.py): a fresh interpreter's imports are not what Ctrl-C is about.
    run = CliProcess([*argv, "--project", str(root)], env={**os.environ, "PIDS": str(pids)}, terminal_job=True)
    expected_programs = 1 if argv[0] == "plan" else int(argv[-1])  # sleeping at once
    deadline = time.monotonic() + 120
    while len(os.listdir(pids)) < expected_programs and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.1)
    assert len(os.listdir(pids)) == expected_programs, run.communicate()

    os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C does: the signal goes to the whole foreground group
    interrupted = time.monotonic()
    out, err = run.communicate(timeout=30)
    while _group_alive(run.pid) and time.monotonic() - interrupted < 5:
        time.sleep(0.05)
    gone_after = time.monotonic() - interrupted

    assert run.returncode == 130
    assert err == "gpu-stacks: interrupted\n" and out == ""
    assert _group_alive(run.pid) == []
    assert gone_after < 2, f"workers and programs took {gone_after:.1f} s to go"
