"""`gpu-stacks`: offline plans and checks of Pulumi GPU stacks, with no cloud credentials.

Exit codes: 0 clean; 1 the infrastructure has problems (Azure would refuse a resource, a mandatory
policy fails, the program logged an error, or quota is short); 2 the input cannot be evaluated (bad
flags, project, stack file or program); 130 interrupted; 141 the output pipe closed. Each
command's --help lists its own.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import errno
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.exit_codes import epilog
from azure_gpu_stacks.inputs.files import elided, escaped

if TYPE_CHECKING:
    from azure_gpu_stacks.engine.run.isolation import Limits
    from azure_gpu_stacks.engine.run.plan import Plan, ReferenceFiles
    from azure_gpu_stacks.engine.run.policy_config import PolicySettings
    from azure_gpu_stacks.engine.run.project import Project

FORMATS = ("text", "json", "markdown", "sarif")
PROJECT_HELP = "Pulumi project directory (default: the nearest Pulumi.yaml from the current directory upward, as `pulumi` finds it)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse exits 2 already; keep its one-line form
        self.print_usage(sys.stderr)
        self.exit(2, f"gpu-stacks: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gpu-stacks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--project", type=Path, metavar="DIR", help=PROJECT_HELP)
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
        from azure_gpu_stacks.engine.run.isolation import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_S, positive_number

        p.add_argument(
            "--timeout",
            type=positive_number,
            default=DEFAULT_TIMEOUT_S,
            metavar="SECONDS",
            help=f"stop a program that runs longer than this, per stack (default: {DEFAULT_TIMEOUT_S:g})",
        )
        p.add_argument(
            "--memory-limit",
            type=positive_number,
            default=DEFAULT_MEMORY_MIB,
            metavar="MIB",
            help=f"memory a program may take beyond the SDK's imports, per stack (default: {DEFAULT_MEMORY_MIB})",
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
            default="organization",
            metavar="ORG",
            help="what pulumi.get_organization() answers (default: organization, as for a DIY backend)",
        )

    def as_of(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--as-of",
            type=_day,
            metavar="YYYY-MM-DD",
            dest="as_of",
            help="judge sizes (retired, capacity-restricted, retiring) as of this day; default: today in UTC",
        )

    def jobs(p: argparse.ArgumentParser) -> None:
        from azure_gpu_stacks.engine.run.parallel import default_jobs, positive_jobs

        p.add_argument(
            "--jobs",
            "-j",
            type=positive_jobs,
            default=default_jobs(),
            metavar="N",
            help="plan N stacks at a time in forked workers (default: the number of cores); output is the same for any N",
        )

    def command(name: str, **kwargs: Any) -> argparse.ArgumentParser:
        return sub.add_parser(name, epilog=epilog(name), formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)

    plan = command("plan", help="what `pulumi up` would create, offline", description="Plan one stack offline.")
    plan.add_argument("stack", metavar="STACK", help="stack name, or a path to a Pulumi.<stack>.yaml")
    plan.add_argument("--json", action="store_true", help="print one JSON document")
    plan.add_argument(
        "--preview", action="store_true", help="answer as `pulumi preview` does: ids and computed outputs unknown"
    )
    common(plan)
    as_of(plan)

    check = command("check", help="plan every stack (or those named) and give one verdict")
    check.add_argument("stacks", metavar="STACK", nargs="*", help="stacks to check (default: all in the project)")
    check.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text; json (one document); markdown (a pull-request comment); sarif (GitHub code scanning)",
    )
    check.add_argument("--json", action="store_true", help="same as --format json")
    common(check)
    as_of(check)
    jobs(check)

    cost = command(
        "cost", help="busy and idle cost of stacks, as a table", description="Cost of stacks from the catalog's prices."
    )
    cost.add_argument("stacks", metavar="STACK", nargs="*", help="stacks to price (default: all in the project)")
    cost.add_argument(
        "--format", choices=("text", "markdown", "json"), default="text", help="markdown for pull-request comments"
    )
    common(cost)
    as_of(cost)
    jobs(cost)

    quota = command(
        "quota",
        help="vCPU quota a stack needs at full scale, against the subscription's limits",
        description="Quota a stack needs, per counter and region, against `az vm list-usage` (or --live) and "
        "`az ml compute list-usage` limits.",
    )
    quota.add_argument("stack", metavar="STACK", help="stack name, or a path to a Pulumi.<stack>.yaml")
    quota.add_argument(
        "--live", action="store_true", help="read the limits from Azure (needs the [azure] extra and a login)"
    )
    quota.add_argument("--subscription", help="subscription id for --live (default: $AZURE_SUBSCRIPTION_ID)")
    quota.add_argument("--format", choices=("text", "markdown", "json"), default="text", help="output format")
    common(quota)

    diff = command(
        "diff",
        help="what a change does to each stack, against a git revision (pull-request review)",
        description="Plan each stack at BASE (a temporary git worktree) and in the working tree, and compare.",
    )
    diff.add_argument("base", metavar="BASE", help="git revision to compare with: origin/main, a tag or a commit")
    diff.add_argument("stacks", metavar="STACK", nargs="*", help="stacks to compare (default: all, at either revision)")
    diff.add_argument(
        "--format", choices=("text", "json", "markdown"), default="text", help="markdown for pull-request comments"
    )
    diff.add_argument(
        "--allow-replace",
        action="append",
        default=[],
        metavar="URN",
        help="acknowledge the replacement of this GPU pool or cluster (repeatable); "
        "or put `# gpu-stacks: allow-replace URN` in the stack file",
    )
    common(diff)
    as_of(diff)
    jobs(diff)

    stacks = command("stacks", help="list the project's stacks")
    stacks.add_argument("--project", type=Path, metavar="DIR", help=PROJECT_HELP)

    pack = command("policy-pack", help="the installed policy pack: its directory, or a copy to publish")
    pack_actions = pack.add_subparsers(dest="pack_action", required=True, metavar="ACTION")
    pack_actions.add_parser(
        "path", help='print the pack\'s directory: pulumi preview --policy-pack "$(gpu-stacks policy-pack path)"'
    )
    export = pack_actions.add_parser("export", help="write the pack into DIR, ready for `pulumi policy publish`")
    export.add_argument("dir", type=Path, metavar="DIR", help="a new or empty directory")
    export.add_argument(
        "--requirement",
        metavar="SPEC",
        help="the distribution line of the copy's requirements.txt (default: azure-gpu-stacks==<this version>), "
        "e.g. 'azure-gpu-stacks @ git+https://github.com/<org>/azure-gpu-stacks@v<version>'",
    )
    return parser


def _out(text: str, end: str = "\n") -> None:
    """Print part of the report, with control characters from the input (NUL, terminal escapes) escaped."""
    sys.stdout.write(escaped(text, keep_newlines=True) + end)


def _progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"gpu-stacks: {message}", file=sys.stderr, flush=True)


def _project_dir(given: Path | None) -> Path:
    """--project, or the nearest directory upward from here with a project file (`DetectProjectPathFrom`)."""
    if given is not None:
        return given
    from azure_gpu_stacks.engine.run.project import find_project_root

    here = Path.cwd()
    found = find_project_root(here)
    if found is None:
        raise InputError(
            f"no Pulumi.yaml project file found (searching upwards from {here}); allowed: run inside a Pulumi project, "
            "or name one with --project DIR"
        )
    return found


def _run(args: argparse.Namespace) -> int:
    if args.command == "policy-pack":
        return _policy_pack(args)

    from azure_gpu_stacks.engine.run.project import load_project

    if args.command == "diff":
        from azure_gpu_stacks.engine.diff.command import diff_report

        text, code = diff_report(
            args,
            _project_dir(args.project),
            _policy_settings(args.policy_config, args.as_of),
            _progress,
            _reference(args),
            _limits(args),
        )
        _out(text, end="")
        return code
    project = load_project(_project_dir(args.project))
    if args.command == "stacks":
        _out("\n".join(project.stacks()))
        return 0

    if args.command == "quota":
        _policy_settings(args.policy_config, None)  # checked like every command's, though quota applies no policy
        return _print_quota(project, args)

    from azure_gpu_stacks.engine.report.text import render_text, verdict
    from azure_gpu_stacks.engine.run.plan import plan_stack

    reference = _reference(args)
    policy_settings = _policy_settings(args.policy_config, args.as_of)
    if args.command == "plan":
        _progress(f"planning {args.stack} offline…")
        plan = plan_stack(
            project, args.stack, reference, preview=args.preview, policy_settings=policy_settings, limits=_limits(args)
        )
        _out(json.dumps(plan.to_json(), indent=2) if args.json else render_text(plan))
        return plan.exit_code

    names = args.stacks or project.stacks()
    if not names:
        raise InputError(f"{project.relative(project.stack_dir) or '.'}/: no stack files to {args.command}")
    from azure_gpu_stacks.engine.run.parallel import plan_stacks

    plans = plan_stacks(project, names, reference, policy_settings, args.jobs, _progress, _limits(args))
    if args.command == "cost":
        return _print_cost(plans, args.format)
    worst = max(p.exit_code for p in plans)
    fmt = "json" if args.json else args.format
    if fmt == "json":
        from azure_gpu_stacks.engine.report.verdicts import summary

        _out(
            json.dumps({"stacks": [p.to_json() for p in plans], "summary": summary(plans), "exitCode": worst}, indent=2)
        )
    elif fmt == "markdown":
        from azure_gpu_stacks.engine.report.markdown import render_markdown

        _out(render_markdown(plans), end="")
    elif fmt == "sarif":
        from azure_gpu_stacks.engine.report.sarif import render_sarif

        _out(json.dumps(render_sarif(plans, root=args.project), indent=2))
    else:
        from azure_gpu_stacks.engine.report.text import violation_line

        for p in plans:
            _out(verdict(p))
            for r in p.refusals:
                _out(f"  - {r.resource} [{r.type}]: {r.code}: {r.message}")
            for v in p.violations:
                _out(f"  - {violation_line(v)}")
    return worst


def _policy_pack(args: argparse.Namespace) -> int:
    from azure_gpu_stacks.engine.run import policy_pack

    if args.pack_action == "path":
        print(policy_pack.ready_pack_dir())
    else:
        print(policy_pack.export(args.dir, args.requirement))
    return 0


def _print_quota(project: Project, args: argparse.Namespace) -> int:
    from azure_gpu_stacks.engine.estimate.quota import quota_report, render

    _progress(f"planning {args.stack} offline…")
    from azure_gpu_stacks.engine.run.plan import ReferenceFiles
    from azure_gpu_stacks.engine.run.stack_references import parse_option

    reference = ReferenceFiles(
        stack_outputs=parse_option(args.stack_outputs), organization=args.organization, existing=tuple(args.existing)
    )
    report = quota_report(
        project,
        args.stack,
        usage_file=args.usage,
        aml_usage_file=args.aml_usage,
        skus_file=args.skus,
        live=args.live,
        subscription_id=args.subscription,
        run_limits=_limits(args),
        reference=reference,
    )
    _out(json.dumps(report.to_json(), indent=2) if args.format == "json" else render(report, args.format))
    return report.exit_code


def _reference(args: argparse.Namespace) -> ReferenceFiles:
    """What plan, check, cost and diff are told beyond the project, from the common options."""
    from azure_gpu_stacks.engine.run.plan import IDENTITIES, ReferenceFiles
    from azure_gpu_stacks.engine.run.stack_references import parse_option

    return ReferenceFiles(
        usage=args.usage,
        aml_usage=args.aml_usage,
        skus=args.skus,
        stack_outputs=parse_option(args.stack_outputs),
        organization=args.organization,
        existing=tuple(args.existing),
        deployer=IDENTITIES[args.identity] if args.identity else None,
    )


def _limits(args: argparse.Namespace) -> Limits:
    from azure_gpu_stacks.engine.run.isolation import Limits

    return Limits(timeout_s=args.timeout, memory_mib=int(args.memory_limit))


def _print_cost(plans: list[Plan], fmt: str) -> int:
    """Cost is information, not a verdict: exit 0 whatever the stacks cost."""
    from azure_gpu_stacks.engine.report.cost import cost_table

    if fmt == "json":
        _out(json.dumps({"stacks": [{"stack": p.stack, "cost": p.cost.to_json()} for p in plans]}, indent=2))
    else:
        _out(cost_table(plans, "markdown" if fmt == "markdown" else "text"))
    return 0


def _day(text: str) -> dt.date:
    from azure_gpu_stacks.catalog.clock import parse_day

    try:
        return parse_day(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _policy_settings(path: Path | None, as_of: dt.date | None) -> dict[str, PolicySettings] | None:
    """The checked `--policy-config` file with `--as-of` as every size policy's day; None for the pack's defaults."""
    if path is None and as_of is None:
        return None
    from azure_gpu_stacks.engine.run.policy_config import load, resolve, with_day
    from azure_gpu_stacks.engine.run.policy_run import pack_policies

    pack = list(pack_policies())
    settings = load(path, pack) if path is not None else resolve(pack)
    return with_day(pack, settings, as_of) if as_of is not None else settings


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = _run(_parser().parse_args(argv))
        sys.stdout.flush()  # a closed pipe or a full disk is met here, not at interpreter exit
        return code
    except InputError as exc:
        print(f"gpu-stacks: error: {escaped(elided(str(exc)), keep_newlines=True)}", file=sys.stderr)
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


def _drop_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush does not fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


if __name__ == "__main__":  # pragma: no cover
    run()
