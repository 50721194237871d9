"""`gpu-stacks`: offline plans and checks of Pulumi GPU stacks, with no cloud credentials.

Exit codes: 0 clean; 1 the infrastructure has problems (Azure would refuse a resource, a mandatory
policy fails, the program logged an error, or quota is short); 2 the input cannot be evaluated (bad
flags, project, stack file or program); 130 interrupted; 141 the output pipe closed. Each
command's --help lists its own. `gpu-stacks -C DIR COMMAND ...` is `gpu-stacks COMMAND -C DIR ...`,
as Pulumi users write it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import json
import os
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..components.version import __version__
from ..inputs.files import elided, escaped
from .commands.options import asks_json, declared_secrets, wants_json
from .commands.parser import CommandLineError, parser
from .commands.said import Said
from .errors import InputError
from .report import JSON_FORMAT_VERSION
from .secrets import Mask


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """Built once per process: about 5 ms of CPU (argparse makes a help formatter for each option it adds, to check
    its metavar), which a process that runs many command lines (a test session: 1,183 of them) paid each time.
    Parsing leaves a parser as it was, and the commands read the defaults it hands them (the `[]` of a repeatable
    option is copied before argparse appends to it) without changing them."""
    return parser(__doc__, version=f"gpu-stacks {__version__}")


# `pulumi -C DIR COMMAND`: Pulumi's -C/--cwd is a global flag, written before the command (pulumi/pulumi
# `pkg/cmd/pulumi/pulumi.go`, the root command's persistent flag "cwd", observed 2026-11-27).
GLOBAL_CWD = ("-C", "--cwd")


def command_first(argv: Sequence[str]) -> list[str]:
    """`argv` with a leading `-C DIR` / `--cwd DIR` (or `--cwd=DIR`, `-CDIR`) moved after the command, where each
    command that reads a project takes it: `gpu-stacks -C infra check` is `gpu-stacks check -C infra`."""
    words = list(argv)
    if len(words) >= 3 and words[0] in GLOBAL_CWD:
        return [words[2], words[0], words[1], *words[3:]]
    if len(words) >= 2 and (words[0].startswith("--cwd=") or (words[0].startswith("-C") and len(words[0]) > 2)):
        return [words[1], words[0], *words[2:]]
    return words


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line. The one output edge: the command returns what it says (`Said`), and it is masked
    here, once, with the secrets the stack files declare (read before any program starts) and those its plans
    learned, after each format's escaping; an error line is masked with all that is known by then."""
    mask = Mask()
    args: argparse.Namespace | None = None
    try:
        try:
            args = _parser().parse_args(command_first(sys.argv[1:] if argv is None else argv))
        except CommandLineError as exc:  # said on stderr; a reader of the JSON asked for gets it as JSON too
            if asks_json(sys.argv[1:] if argv is None else argv):
                _json_error(exc.line, exc.code)
            raise
        mask.add(declared_secrets(args))
        said: Said = args.run(args)
        mask.add(said.secrets)
        code = said.write(mask)
        sys.stdout.flush()  # a closed pipe or a full disk is met here, not at interpreter exit
        return code
    except InputError as exc:
        line = mask(escaped(elided(str(exc)), keep_newlines=True))
        print(f"gpu-stacks: error: {line}", file=sys.stderr)
        if args is not None and wants_json(args):  # a reader of the JSON gets the error as JSON too
            _json_error(line, exc.exit_code)
        return exc.exit_code
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while leaving prints no traceback
        print("gpu-stacks: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`gpu-stacks check | head -1`): nothing more to say
        _drop_stdout()
        return 141  # what a shell reports for a command ended by SIGPIPE
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT):
            raise
        _drop_stdout()
        print(f"gpu-stacks: error: cannot write the report: {exc.strerror}", file=sys.stderr)
        return 2


def run() -> NoReturn:
    """The `gpu-stacks` command: `main`, then leave at once.

    Tearing down the interpreter frees every object the SDKs created, seconds on a busy machine, and
    after Ctrl-C it would keep the prompt waiting; workers and programs are already gone by then
    (killed, or dying with their parent), and the output is flushed here.
    """
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _json_error(line: str, code: object) -> None:
    """The error document on stdout (docs/schemas/error.schema.json)."""
    error = {"formatVersion": JSON_FORMAT_VERSION, "error": line, "exitCode": code}
    sys.stdout.write(json.dumps(error, indent=2) + "\n")


def _drop_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush does not fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


if __name__ == "__main__":  # pragma: no cover
    run()
