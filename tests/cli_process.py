"""`gpu-stacks` as a separate process, forked from a zygote that has already imported it.

A fresh `python -m azure_gpu_stacks.engine` spends about 3 CPU-seconds importing the engine, the SDK and the
catalog before it reads its command line (docs/testing.md). A test that needs only what a separate process
gives (its exit status, its stdout and stderr as pipes, its own working directory, environment and stdin,
its pid to signal) gets the same from a fork of one process per test worker that imported all of it once
(`parallel.preload`, what `gpu-stacks check` loads before it forks several plans). The forked child takes the
request's argv, cwd, environment and standard streams, then runs the console script's own `run()`.

What a fork cannot stand in for stays a fresh interpreter in its test: the installed console script, the
`python -m` entry point itself (tests/e2e/test_cli.py), a process started under `ulimit`, a project's own
virtual environment, and a check whose every fork is recorded from the first (test_runner_processes.py). A
command Ctrl-C reaches as a terminal's job does is a fork too (`terminal_job`: its own session, SIGINT handled).

The zygote is started with `subprocess` (no `preexec_fn`, no fork of the pytest worker, which may hold gRPC
threads) and refuses to serve if its preload left a thread running: a fork of a threaded process is what
the engine itself never does.
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

# The zygote's code, run with `python -c` so that nothing of the test tree is imported into it. Once it has preloaded
# (and moved what it loaded into huge pages: tests/huge_pages.py, its second argument), it answers
# {"ready": true, "threads": [its OS threads before the preload, after it]}. Then it reads requests on the socket whose
# descriptor is its first argument: a JSON document (argv, cwd, env) with the child's
# stdin, stdout and stderr as passed descriptors; it answers {"pid": N}, then {"status": S} once that child
# ended.
ZYGOTE = r"""
import json, os, signal, socket, sys, threading, traceback

control = socket.socket(fileno=int(sys.argv[1]))
from azure_gpu_stacks.engine.run.parallel import preload
from azure_gpu_stacks.engine.run import children
from azure_gpu_stacks.engine import cli


def os_threads():
    return len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else threading.active_count()


before = os_threads()
preload()
if len(sys.argv) > 2:  # tests/huge_pages.py, run from its path: nothing of the test tree is imported here
    import runpy
    runpy.run_path(sys.argv[2])["collapse_into_huge_pages"]()
cli._parser()  # built once here (5 ms) for every child, as a process that parses many command lines keeps it
threads = os_threads()
if threading.active_count() != 1 or threads != 1:
    control.send(json.dumps({"error": f"the preload left {threads} threads running; a fork would copy them"}).encode())
    sys.exit(1)
control.send(json.dumps({"ready": True, "threads": [before, threads]}).encode())


def child(request, fds):
    control.close()
    if "serve_plans" in request:  # tests/plan_server.py: a grandchild, so that this request ends at once
        if children.fork():  # the server owns the children it forks (their SIGTERM cleanup), not this child
            os._exit(0)
        sys.path.insert(0, request["serve_plans"])
        from tests.plan_server import serve
        serve(fds[0])  # ends the process itself
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    if request["terminal_job"]:
        os.setsid()  # its own session and process group, as a terminal's job is (Popen's start_new_session)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as Python sets it up when a terminal starts it
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    import tempfile
    tempfile.tempdir = None  # TMPDIR as the request's environment says, not as the zygote found it
    sys.path[0] = os.getcwd()  # what `python -m` puts first
    sys.argv = [cli.__file__.replace("cli.py", "__main__.py"), *request["argv"]]
    # streams as a fresh interpreter makes them for these descriptors (a pipe: block-buffered stdout)
    sys.stdin = sys.__stdin__ = open(0, encoding=sys.stdin.encoding, errors=sys.stdin.errors, closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", encoding=sys.stdout.encoding, errors=sys.stdout.errors, closefd=False)
    sys.stderr = sys.__stderr__ = open(
        2, "w", encoding=sys.stderr.encoding, errors="backslashreplace", closefd=False, buffering=1
    )
    code = 1
    try:
        cli.run()  # ends the process itself (os._exit)
    except SystemExit as exc:  # argparse's exits
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


while True:
    try:
        message, fds, _, _ = socket.recv_fds(control, 1 << 20, 3)
    except OSError:
        break
    if not message:  # the test process is gone
        break
    request = json.loads(message)
    # the engine's own fork, so that the child owns its children as a fresh process does: its SIGTERM cleanup
    # ends them (it ended none while it took the zygote's pid for its owner's)
    pid = children.fork()
    if pid == 0:
        child(request, fds)
    for fd in fds:
        os.close(fd)
    control.send(json.dumps({"pid": pid}).encode())
    status = children.reap(pid, kill=False)
    control.send(json.dumps({"status": status}).encode())
# Nothing to tidy: ended at once rather than by the interpreter's finalization of everything the preload made, which
# the test process waits for at its own exit (about 1.2 s).
os._exit(0)
"""


class _Zygote:
    """The one zygote of this test process, started on first use and ended when the process ends."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE, str(theirs.fileno()), str(Path(__file__).with_name("huge_pages.py"))],
            stdin=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),),
            cwd="/",
        )
        theirs.close()
        self.control = ours
        answer = json.loads(self._receive(timeout=300))
        if "error" in answer:
            raise RuntimeError(f"the gpu-stacks zygote cannot fork: {answer['error']}")
        self.preload_threads: tuple[int, int] = tuple(answer["threads"])
        atexit.register(self.close)

    def _receive(self, timeout: float | None) -> bytes:
        self.control.settimeout(timeout)
        try:
            data = self.control.recv(1 << 16)
        finally:
            self.control.settimeout(None)
        if not data:
            raise RuntimeError(f"the gpu-stacks zygote ended (exit status {self.process.poll()})")
        return data

    def close(self) -> None:
        self.control.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_zygote: _Zygote | None = None
_running: CliProcess | None = None


def _the_zygote() -> _Zygote:
    global _zygote
    if _zygote is not None and _zygote.process.poll() is not None:
        # Started again, at about 5 CPU-seconds; said, so that a run's warnings show how the last one ended (in one
        # whole-suite profile a worker's zygote ended between two of its tests, cause unknown: docs/testing.md).
        warnings.warn(f"the gpu-stacks zygote had ended (exit status {_zygote.process.returncode}); starting another")
        _zygote = None
    if _zygote is None:
        _zygote = _Zygote()
    return _zygote


def zygote_busy() -> bool:
    """Whether the zygote is serving a command now (it serves one at a time)."""
    return _running is not None and _running.returncode is None


def start_beside_the_zygote(request: Mapping[str, str], fd: int) -> None:
    """A process forked from the zygote for `request` (`serve_plans`: tests/plan_server.py), handed `fd`, left
    running on its own (its parent, forked for it, has ended once this returns)."""
    zygote = _the_zygote()
    socket.send_fds(zygote.control, [json.dumps(request).encode()], [fd])
    zygote._receive(timeout=60)  # {"pid": N}: the parent forked for it
    status = json.loads(zygote._receive(timeout=60))["status"]
    if status != 0:
        raise RuntimeError(f"the process forked from the zygote for {sorted(request)} failed (wait status {status})")


def zygote_preload_threads() -> tuple[int, int]:
    """The OS threads of the zygote, a new interpreter that imported gpu-stacks' CLI, before and after the preload
    `gpu-stacks check` makes before it forks (`parallel.preload`). A zygote whose preload left a thread running
    refuses to start (RuntimeError naming the count)."""
    return _the_zygote().preload_threads


class CliProcess:
    """A running `gpu-stacks ARGV` forked from the zygote, with `subprocess.Popen`'s reading of it: `pid`,
    `poll()`, `send_signal()`, `kill()`, `wait(timeout)`, `communicate(timeout)` and `returncode` (negative:
    the signal that ended it). stdout and stderr are pipes read as text, as with `text=True`.

    `terminal_job`: started as a terminal starts a job, in its own session and process group (its pid is the group
    to signal, as with `start_new_session=True`), SIGINT raising KeyboardInterrupt even where the test run was
    started with SIGINT ignored (a background shell's `&`)."""

    def __init__(
        self,
        argv: Sequence[str | os.PathLike[str]],
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        stdin: int | None = None,
        terminal_job: bool = False,
    ) -> None:
        self.args = ["gpu-stacks", *map(str, argv)]
        self.returncode: int | None = None
        global _running
        if _running is not None and _running.returncode is None:
            # the zygote serves one child at a time: one a failed test left running is ended first
            _running.kill()
            _running.wait(60)
        self.zygote = _the_zygote()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        stdin_fd = stdin if stdin is not None else os.open(os.devnull, os.O_RDONLY)
        request = {
            "argv": [str(a) for a in argv],
            "cwd": str(Path(cwd if cwd is not None else os.getcwd()).absolute()),
            "env": dict(os.environ if env is None else env),
            "terminal_job": terminal_job,
        }
        try:
            socket.send_fds(self.zygote.control, [json.dumps(request).encode()], [stdin_fd, out_write, err_write])
        finally:
            for fd in (out_write, err_write):
                os.close(fd)
            if stdin is None:
                os.close(stdin_fd)
        self._out, self._err = out_read, err_read
        self.pid: int = json.loads(self.zygote._receive(timeout=60))["pid"]
        _running = self

    def poll(self) -> int | None:
        if self.returncode is None:
            self.zygote.control.setblocking(False)
            try:
                data = self.zygote.control.recv(1 << 16)
            except BlockingIOError:
                return None
            finally:
                self.zygote.control.setblocking(True)
            self._ended(data)
        return self.returncode

    def _ended(self, data: bytes) -> None:
        if not data:
            raise RuntimeError("the gpu-stacks zygote ended while its child ran")
        self.returncode = os.waitstatus_to_exitcode(json.loads(data)["status"])

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            try:
                self._ended(self.zygote._receive(timeout))
            except TimeoutError:
                raise subprocess.TimeoutExpired(self.args, timeout or 0) from None
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """Everything the process wrote to stdout and stderr, once both pipes close and it has ended
        (`subprocess.TimeoutExpired` past `timeout`, the process left running, as Popen's)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        chunks: dict[int, list[bytes]] = {self._out: [], self._err: []}
        with selectors.DefaultSelector() as selector:
            for fd in chunks:
                if fd >= 0:
                    selector.register(fd, selectors.EVENT_READ)
            while selector.get_map():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise subprocess.TimeoutExpired(self.args, timeout or 0)
                for key, _ in selector.select(left):
                    data = os.read(key.fd, 1 << 16)
                    if data:
                        chunks[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
                        os.close(key.fd)
        self._out = self._err = -1
        self.wait(None if deadline is None else max(deadline - time.monotonic(), 0.001))
        return _text(b"".join(chunks[list(chunks)[0]])), _text(b"".join(chunks[list(chunks)[1]]))


def _text(data: bytes) -> str:
    """As `subprocess` decodes a pipe with `text=True`: the locale's encoding, universal newlines."""
    import locale

    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


def gpu_stacks_process(
    argv: Sequence[str | os.PathLike[str]],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    stdin: int | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run(["gpu-stacks", *argv], capture_output=True, text=True, ...)`, from a fork of the
    zygote; past `timeout` the process is killed and `subprocess.TimeoutExpired` raised, as `run` does."""
    process = CliProcess(argv, cwd=cwd, env=env, stdin=stdin)
    try:
        out, err = process.communicate(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise
    return subprocess.CompletedProcess(process.args, process.wait(), out, err)
