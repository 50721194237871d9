"""What several commands share: their option groups, how they print, and the settings read from options."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import resource
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...inputs.files import escaped, shown
from ..errors import InputError

if TYPE_CHECKING:
    from ..fleet.render import Affected, Entries
    from ..run.isolation import Limits
    from ..run.outcome import Outcome
    from ..run.plan import ReferenceFiles
    from ..run.policy_config import PolicySettings
    from ..run.project import Project
    from .said import Said

FORMATS = ("text", "json", "markdown", "sarif")
REPORT_FORMATS = (*FORMATS, "junit")  # what check and merge write, each to stdout or a file
FORMATS_HELP = (
    "text; json (one document); markdown (a pull-request comment); sarif (GitHub code scanning); junit (JUnit "
    "XML for GitLab, Azure Pipelines, Jenkins). FORMAT=FILE writes that format to FILE; repeatable, so one run "
    "writes several (one of them may go to stdout, text when none does)"
)
PROJECT_HELP = (
    "Pulumi project directory (default: the nearest Pulumi.yaml from the current directory upward, "
    "as `pulumi` finds it)"
)
STACK_HELP = "stack name, or a path to a Pulumi.<stack>.yaml"
STACK_FLAG = "stack_flags"  # where -s/--stack goes, beside the positional STACK arguments (`stacks_given`)


def add_stack(p: argparse.ArgumentParser) -> None:
    """The one stack a command plans: `STACK`, or `-s/--stack STACK` as `pulumi up --stack` takes it."""
    p.add_argument("stack", metavar="STACK", nargs="?", help=f"{STACK_HELP} (or -s STACK)")
    _add_stack_flag(p, "same as STACK, as `pulumi preview --stack NAME` takes it")


def add_stacks(p: argparse.ArgumentParser, help: str) -> None:
    """The stacks a command plans: `STACK...`, or `-s/--stack STACK` (repeatable), as Pulumi spells it."""
    p.add_argument("stacks", metavar="STACK", nargs="*", help=help)
    _add_stack_flag(p, "same as a STACK argument, as `pulumi preview --stack NAME` takes it; repeatable")


def _add_stack_flag(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("-s", "--stack", action="append", dest=STACK_FLAG, metavar="STACK", help=help)


def stacks_given(args: argparse.Namespace) -> str | None:
    """Fold `-s/--stack` into the STACK arguments (`args.stacks`, or `args.stack` for a command of one stack);
    the error line when the two name different stacks, or a command of one stack gets none or several."""
    flags: list[str] | None = getattr(args, STACK_FLAG, None)
    if not hasattr(args, STACK_FLAG):
        return None
    delattr(args, STACK_FLAG)
    if hasattr(args, "stacks"):
        if flags and args.stacks and list(dict.fromkeys(args.stacks)) != list(dict.fromkeys(flags)):
            return (
                f"STACK {' '.join(args.stacks)} and --stack {' '.join(flags)} name different stacks; "
                "allowed: the stacks as arguments or as -s/--stack, or the same in both"
            )
        args.stacks = args.stacks or flags or []
        return None
    named = list(dict.fromkeys([*([args.stack] if args.stack is not None else []), *(flags or [])]))
    if len(named) > 1:
        return f"{', '.join(named)}: several stacks; allowed: one, as STACK or -s/--stack STACK"
    if not named:
        return "the following arguments are required: STACK (or -s/--stack STACK)"
    args.stack = named[0]
    return None


def add_project(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--project", type=Path, metavar="DIR", help=PROJECT_HELP)
    group.add_argument(
        "-C",
        "--cwd",
        type=_project_from,
        metavar="DIR",
        dest="project",
        help="as `pulumi -C DIR`: the nearest Pulumi.yaml from DIR upward",
    )


def _project_from(text: str) -> Path:
    """`-C DIR`: the project `pulumi -C DIR` would run (the nearest project file from DIR upward); DIR itself when
    there is none, so that the error names it."""
    from ..run.project import find_project_root

    start = Path(text)
    return find_project_root(start.absolute()) or start if start.is_dir() else start


def add_common(p: argparse.ArgumentParser) -> None:
    """The options of every command that plans: the project, the files that stand in for Azure, the limits."""
    add_project(p)
    p.add_argument("--usage", type=Path, help="quota file saved by `az vm list-usage -l REGION -o json`")
    p.add_argument(
        "--aml-usage",
        type=Path,
        metavar="FILE",
        help="Azure ML's own quota file, for Azure ML clusters: the "
        "JSON of `az ml compute list-usage --resource-group RG --workspace-name WS -o json`",
    )
    p.add_argument("--skus", type=Path, help="availability file saved by `az vm list-skus --all -o json`")
    p.add_argument(
        "--identity",
        choices=("user", "service-principal"),
        help="what runs `pulumi up`, for the role assignments made to it (default: service-principal when "
        "ARM_CLIENT_ID is set, else user)",
    )
    p.add_argument(
        "--policy-config",
        type=Path,
        metavar="FILE",
        help="policy pack config, JSON as for `pulumi preview --policy-pack-config` (levels and settings)",
    )
    from ..run.isolation import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_S, positive_number

    p.add_argument(
        "--timeout",
        type=positive_number,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"stop a program that runs longer than this, per stack (default: {DEFAULT_TIMEOUT_S:g})",
    )
    p.add_argument(
        "--memory-limit",
        type=memory_limit,
        default=DEFAULT_MEMORY_MIB,
        metavar="MIB",
        help=f"memory a program may take beyond the SDK's imports, per stack (default: {DEFAULT_MEMORY_MIB})",
    )
    p.add_argument(
        "--create-venv",
        action="store_true",
        help="when the Python environment Pulumi.yaml names (runtime.options.virtualenv, toolchain uv or "
        "poetry) does not exist, create it as `pulumi install` would (python3 -m venv and pip install -r "
        "requirements.txt, uv sync, poetry install) instead of running the program with gpu-stacks' own "
        "environment; this reaches the package index",
    )
    p.add_argument(
        "--stack-outputs",
        action="append",
        default=[],
        metavar="ORG/PROJECT/STACK=FILE",
        help="outputs of a stack the program references (pulumi.StackReference), as `pulumi stack output --json` "
        "writes them; default: stack-outputs/ORG/PROJECT/STACK.json in the project; repeatable",
    )
    p.add_argument(
        "--existing",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="Azure resources the program looks up or joins (get_*, <Resource>.get), as `az resource show --ids ID "
        "-o json` prints them (or a list, or a type's own `show`); repeatable",
    )
    p.add_argument(
        "--organization",
        type=organization,
        default="organization",
        metavar="ORG",
        help="what pulumi.get_organization() answers (default: organization, as for a DIY backend); "
        "named as Pulumi Cloud names organizations: 3 to 40 letters, digits, '-' and '_', "
        "starting and ending with a letter or digit",
    )
    add_progress(p)


def add_format(p: argparse.ArgumentParser, choices: Sequence[str], help: str) -> None:
    """`--format` of a command that writes one report, and `--json` for `--format json`, as on check and merge."""
    p.add_argument("--format", choices=choices, default="text", help=help)
    p.add_argument("--json", action="store_const", const="json", dest="format", help="same as --format json")


def add_report_formats(p: argparse.ArgumentParser) -> None:
    """`--format FORMAT[=FILE]` (repeatable), `-o/--output FORMAT=FILE` and `--json`: check's and merge's."""
    p.add_argument(
        "--format",
        action="append",
        type=_format_target,
        metavar="FORMAT[=FILE]",
        dest="formats",
        help=FORMATS_HELP,
    )
    p.add_argument(
        "-o",
        "--output",
        action="append",
        type=_file_target,
        metavar="FORMAT=FILE",
        dest="formats",
        help="same as --format FORMAT=FILE",
    )
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument(
        "--sarif-category",
        metavar="CATEGORY",
        help="the SARIF run's automationDetails.id, GitHub code scanning's category: alerts of one category are "
        "replaced only by another upload of it (default: gpu-stacks/check/; a fleet's or another job's SARIF "
        "needs its own). upload-sarif's own `category` input does not replace it",
    )


Target = tuple[str, "Path | None"]  # a format, and the file it goes to (None: stdout)


def _format_target(text: str) -> Target:
    name, sep, file = text.partition("=")
    if name not in REPORT_FORMATS:
        raise argparse.ArgumentTypeError(
            f"{shown(name)}; allowed: {', '.join(REPORT_FORMATS)}, each as FORMAT or FORMAT=FILE"
        )
    if sep and not file:
        raise argparse.ArgumentTypeError(f"{shown(text)}: no file after '='; allowed: FORMAT or FORMAT=FILE")
    return name, Path(file) if sep else None


def _file_target(text: str) -> Target:
    if "=" not in text:
        raise argparse.ArgumentTypeError(
            f"{shown(text)}; allowed: FORMAT=FILE, FORMAT one of {', '.join(REPORT_FORMATS)}"
        )
    return _format_target(text)


def wants_json(args: argparse.Namespace) -> bool:
    """Whether the command line asks for JSON on stdout (`--json`, `--format json`), where an error is JSON too."""
    formats = getattr(args, "formats", None) or []
    return bool(getattr(args, "json", False)) or getattr(args, "format", None) == "json" or ("json", None) in formats


def asks_json(argv: Sequence[str]) -> bool:
    """Whether a command line argparse refused asked for JSON on stdout (`--json`, `--format json`,
    `--format=json`), so that its error is a JSON document there too."""
    words = list(argv)
    return (
        "--json" in words
        or "--format=json" in words
        or any(a == "--format" and b == "json" for a, b in zip(words, words[1:]))
    )


def report_targets(args: argparse.Namespace) -> list[Target]:
    """Where each format of the report goes, in the order given; one at most on stdout (text when none is), and
    each file refused before any work when it cannot be written (`said.refuse_unwritable_target`)."""
    from .said import refuse_unwritable_target

    given: list[Target] = list(args.formats or [])
    if args.json:
        given.append(("json", None))
    on_stdout = list(dict.fromkeys(name for name, file in given if file is None))
    if len(on_stdout) > 1:
        raise InputError(
            f"--format {' and '.join(on_stdout)}: two formats on stdout; allowed: one, the others as FORMAT=FILE"
        )
    files = [file for _, file in given if file is not None]
    for file in files:
        if files.count(file) > 1:
            raise InputError(f"--format ...={file}: two formats to one file; allowed: one file per format")
        refuse_unwritable_target(file, "--format")
    targets = list(dict.fromkeys(given))
    if not on_stdout:
        targets.insert(0, ("text", None))
    return targets


FAIL_LEVELS = ("mandatory", "advisory", "none")


def add_fail_level(p: argparse.ArgumentParser) -> None:
    """`--fail-level` and `--soft-fail`: what makes check's and merge's exit code 1; the report is the same."""
    p.add_argument(
        "--fail-level",
        choices=FAIL_LEVELS,
        default="mandatory",
        help="what makes the exit code 1: mandatory (the default: anything Azure would refuse, a mandatory policy "
        "violation, a program's error); advisory (an advisory note too); none (exit 0 with every finding still "
        "reported; a stack that cannot be planned still exits 2)",
    )
    p.add_argument(
        "--soft-fail",
        action="store_const",
        const="none",
        dest="fail_level",
        help="same as --fail-level none (checkov's name for it)",
    )


def judged(exit_code: int, advisory: int, level: str) -> int:
    """The exit code at `--fail-level`: the findings' code (0 or 1) raised by advisory notes or lowered to 0; any
    other code (2: a stack not planned) as it is."""
    if exit_code > 1:
        return exit_code
    if level == "none":
        return 0
    if level == "advisory" and advisory:
        return 1
    return exit_code


def reported(
    said: Said,
    targets: Sequence[tuple[str, Path | None]],
    entries: Entries,
    pack_rules: Callable[[], dict[str, dict[str, Any]]],
    affected: Affected | None,
    fail_level: str = "mandatory",
    sarif_category: str | None = None,
) -> Said:
    """`said` with the report in each format of `targets` (stdout or a file), streamed from the records, and
    its exit code (the worst stack's, at `fail_level`: `judged`)."""
    from ..fleet.render import report_chunks
    from .said import Streamed

    for fmt, file in targets:
        code, advisory, chunks = report_chunks(fmt, entries, pack_rules, affected, sarif_category)
        said.exit_code = judged(code, advisory, fail_level)
        if file is None:
            said.stdout.append(Streamed(chunks))
        else:
            said.file(file, Streamed(chunks), "--format")
    return said


def add_as_of(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--as-of",
        type=_day,
        metavar="YYYY-MM-DD",
        dest="as_of",
        help="judge sizes (retired, capacity-restricted, retiring) as of this day; default: today in UTC",
    )


def add_jobs(p: argparse.ArgumentParser) -> None:
    from ..run.parallel import default_jobs

    p.add_argument(
        "--jobs",
        "-j",
        type=jobs,
        default=default_jobs(),
        metavar="N",
        help="plan N stacks at a time in forked workers (default: the number of cores); output is the same for any N",
    )


# --- flags, validated where they are read ------------------------------------------------------

# Pulumi Cloud's rule for an organization (a stack's owner): pulumi/pulumi pkg/backend/httpstate/backend.go,
# `stackOwnerRegexp` ("Name validation rules enforced by the Pulumi Service"), read 2026-11-25. The DIY
# backend's one organization, "organization", follows it too.
ORGANIZATION = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9_-]{1,38}[a-zA-Z0-9]")
# The parent holds per worker a process sentinel and a spare (pool pipes are shared), and keeps this
# many descriptors for itself (its files, the program child's pipes); more workers than 4 per core only
# add switching (our rule, no published source).
FDS_PER_WORKER = 2
FDS_KEPT = 32
WORKERS_PER_CORE = 4


def organization(text: str) -> str:
    """argparse type for --organization."""
    if not ORGANIZATION.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{shown(text)}; allowed: an organization as Pulumi names them: 3 to 40 letters, digits, '-' and '_', "
            "starting and ending with a letter or digit"
        )
    return text


def machine_memory_mib() -> int | None:
    """The machine's physical memory in MiB; None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    except (ValueError, OSError, AttributeError):
        return None


def memory_limit(text: str) -> float:
    """argparse type for --memory-limit: whole MiB from 1 to the machine's memory (a limit past it limits
    nothing, and past 2^63 bytes the kernel's own limit overflows)."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    most = machine_memory_mib() or 2**43  # 2^63 bytes
    if not 1 <= value <= most:
        said = f"{shown(text)} MiB is more than this machine's memory" if value > most else shown(text)
        raise argparse.ArgumentTypeError(f"{said}; allowed: a number of MiB from 1 to {most:,}")
    return value


def max_jobs() -> tuple[int, str]:
    """The most workers this machine allows, and why: open files (RLIMIT_NOFILE) and cores."""
    from ..run.parallel import default_jobs

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    cores = default_jobs()
    by_cores = WORKERS_PER_CORE * cores
    if soft == resource.RLIM_INFINITY or (soft - FDS_KEPT) // FDS_PER_WORKER >= by_cores:
        return by_cores, f"{WORKERS_PER_CORE} per core, {cores} cores"
    return max(1, (soft - FDS_KEPT) // FDS_PER_WORKER), f"open files limited to {soft} (ulimit -n)"


def jobs(text: str) -> int:
    """argparse type for --jobs: a whole number from 1 to what the machine allows (`max_jobs`)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    most, why = max_jobs()
    if not 1 <= value <= most:
        raise argparse.ArgumentTypeError(
            f"{shown(text)}; allowed: a whole number of worker processes from 1 to {most} ({why})"
        )
    return value


PROGRESS = ("auto", "always", "never")


def add_progress(p: argparse.ArgumentParser) -> None:
    """`--progress`: whether a line per stack goes to stderr while stacks are planned."""
    p.add_argument(
        "--progress",
        choices=PROGRESS,
        default="auto",
        help="a line on stderr as each stack is planned: auto (the default: when stderr is a terminal), always "
        "(in CI logs too; plain text, no escape codes), never",
    )


def progress(args: argparse.Namespace) -> Callable[[str], None]:
    """What says a progress line for this command line (`--progress`): one line on stderr per step (a stack's
    name: no secret), escaped as every output is; nothing at `never`, or at `auto` when stderr is no terminal,
    so that a pipe, a test's captured stderr or a CI log without `--progress always` stays as it was."""
    wanted = getattr(args, "progress", "auto")
    if wanted == "never" or (wanted == "auto" and not sys.stderr.isatty()):
        return _quiet
    return _say_progress


def _quiet(message: str) -> None:
    del message


def _say_progress(message: str) -> None:
    print(f"gpu-stacks: {escaped(message)}", file=sys.stderr, flush=True)


def declared_secrets(args: Any) -> set[str]:
    """The secret values the stack files this command line names declare (`secure:` values, keys declared
    `secret: true`), or every stack file of the project when it names none: known before any program starts,
    so that whatever a program does with them (an exception, a log line) no output shows them. None where the
    command reads no project, or the project cannot be read (the command says why itself)."""
    from ..run.project import declared_secrets as of_stack
    from ..run.project import load_project

    if not hasattr(args, "project") or getattr(args, "root", None) is not None:
        return set()
    named = getattr(args, "stacks", None) or ([args.stack] if isinstance(getattr(args, "stack", None), str) else [])
    try:
        project = load_project(project_dir(args.project))
        stacks = named or project.stacks()
    except (InputError, OSError):
        return set()
    return {secret for stack in stacks for secret in of_stack(project, stack)}


def project_dir(given: Path | None) -> Path:
    """--project, or the nearest directory upward from here with a project file (`DetectProjectPathFrom`)."""
    if given is not None:
        return given
    from ..run.project import find_project_root

    here = Path.cwd()
    found = find_project_root(here)
    if found is None:
        raise InputError(
            f"no Pulumi.yaml project file found (searching upwards from {here}); allowed: run inside a Pulumi project, "
            "or name one with --project DIR"
        )
    return found


def reference(args: argparse.Namespace) -> ReferenceFiles:
    """What plan, check, cost and diff are told beyond the project, from the common options."""
    from ..run.plan import IDENTITIES, ReferenceFiles
    from ..run.stack_references import parse_option

    return ReferenceFiles(
        usage=args.usage,
        aml_usage=args.aml_usage,
        skus=args.skus,
        stack_outputs=parse_option(args.stack_outputs),
        organization=args.organization,
        existing=tuple(args.existing),
        deployer=IDENTITIES[args.identity] if args.identity else None,
    )


def planned_project(args: argparse.Namespace) -> Project:
    """The project `--project` names, with the Python environment its Pulumi.yaml names made first when
    `--create-venv` asks (once, before any stack runs; `engine.run.interpreter`)."""
    from ..run.interpreter import PROBE_TIMEOUT_S, python_for
    from ..run.project import load_project

    project = load_project(project_dir(args.project))
    if args.create_venv:  # its probe bounded by the run's --timeout, as the plan's is
        python_for(project, create=True, timeout_s=getattr(args, "timeout", None) or PROBE_TIMEOUT_S)
    return project


def limits(args: argparse.Namespace) -> Limits:
    from ..run.isolation import Limits

    return Limits(timeout_s=args.timeout, memory_mib=int(args.memory_limit))


def _day(text: str) -> dt.date:
    from ...catalog.clock import parse_day

    try:
        return parse_day(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_settings(args: argparse.Namespace) -> tuple[dict[str, PolicySettings], dt.date]:
    """The checked `--policy-config` file (else the pack's defaults) and the run's one day, resolved here once:
    `--as-of`, else the file's `asOf`, else today in UTC. Every plan of the command is judged on that day
    (`plan_stack(day=...)`); a bad `asOf` in the file is one error line, exit 2, even under `--as-of`."""
    from ..run.policy_config import configure, run_day
    from ..run.policy_run import pack_policies

    path = args.policy_config
    settings = configure(list(pack_policies()), path)
    return settings, run_day(settings, getattr(args, "as_of", None), source=str(path or "policy config"))


def plan_many(args: argparse.Namespace, said: Said) -> list[Outcome]:
    """A plan or a failure for each stack named, or every stack of the project, on `--jobs` workers; `said`
    learns their secrets.

    Every stack is planned whatever another's fate (`engine.run.outcome`); each failure is also said on
    stderr, one line each, as it would be alone. A single stack that fails fails the command as before."""
    from ..run.outcome import StackFailure, plan_outcomes

    project = planned_project(args)
    settings, day = run_settings(args)
    names = args.stacks or project.stacks()
    if not names:
        raise InputError(f"{project.relative(project.stack_dir) or '.'}/: no stack files to {args.command}")
    outcomes = plan_outcomes(
        project, names, reference(args), settings, args.jobs, progress(args), limits(args), day=day
    )
    said.learn(o for o in outcomes if not isinstance(o, StackFailure))
    failures = [o for o in outcomes if isinstance(o, StackFailure)]
    if len(outcomes) == 1 and failures:
        raise InputError(failures[0].message)
    for failure in failures:
        said.error(f"{failure.stack}: {failure.message}")
    return outcomes
