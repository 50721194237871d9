"""What several commands share: their option groups, how they print, and the settings read from options."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import resource
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...inputs.files import escaped, shown
from ..errors import InputError
from ..secrets import EDGE

if TYPE_CHECKING:
    from ..run.isolation import Limits
    from ..run.outcome import Outcome
    from ..run.plan import Plan, ReferenceFiles
    from ..run.policy_config import PolicySettings
    from ..run.project import Project

FORMATS = ("text", "json", "markdown", "sarif")
PROJECT_HELP = (
    "Pulumi project directory (default: the nearest Pulumi.yaml from the current directory upward, "
    "as `pulumi` finds it)"
)
STACK_HELP = "stack name, or a path to a Pulumi.<stack>.yaml"


def add_project(p: argparse.ArgumentParser) -> None:
    p.add_argument("--project", type=Path, metavar="DIR", help=PROJECT_HELP)


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


def out(text: str, end: str = "\n") -> None:
    """Print part of the report: every secret the run knows of masked (`engine.secrets.EDGE`), control
    characters from the input (NUL, terminal escapes) escaped."""
    sys.stdout.write(escaped(EDGE(text), keep_newlines=True) + end)


def out_json(document: Any) -> None:
    """Print a JSON report: secrets masked in its values (a secret number too) before it is written."""
    sys.stdout.write(json.dumps(EDGE.values(document), indent=2) + "\n")


def learn_secrets(plans: Iterable[Plan]) -> None:
    """Teach the output edge the secrets of plans made here or in workers (a plan carries its own)."""
    for plan in plans:
        EDGE.add(plan.secret_values)


def progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"gpu-stacks: {EDGE(message)}", file=sys.stderr, flush=True)


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


def plan_many(args: argparse.Namespace) -> list[Outcome]:
    """A plan or a failure for each stack named, or every stack of the project, on `--jobs` workers.

    Every stack is planned whatever another's fate (`engine.run.outcome`); each failure is also said on
    stderr, one line each, as it would be alone. A single stack that fails fails the command as before."""
    from ..run.outcome import StackFailure, plan_outcomes

    project = planned_project(args)
    settings, day = run_settings(args)
    names = args.stacks or project.stacks()
    if not names:
        raise InputError(f"{project.relative(project.stack_dir) or '.'}/: no stack files to {args.command}")
    outcomes = plan_outcomes(project, names, reference(args), settings, args.jobs, progress, limits(args), day=day)
    learn_secrets(o for o in outcomes if not isinstance(o, StackFailure))
    failures = [o for o in outcomes if isinstance(o, StackFailure)]
    if len(outcomes) == 1 and failures:
        raise InputError(failures[0].message)
    for failure in failures:
        say_failure(failure.stack, failure.message)
    return outcomes


def say_failure(stack: str, message: str) -> None:
    """One stack's failure on stderr, as the CLI says an error, naming the stack, while the report of the others
    goes on."""
    print(f"gpu-stacks: error: {escaped(EDGE(f'{stack}: {message}'))}", file=sys.stderr, flush=True)
