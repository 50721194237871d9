"""`gpu-stacks export-arm STACK`: the plan as an ARM deployment template, offline."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError
from ..secrets import EDGE
from . import options

if TYPE_CHECKING:
    from ..arm.template import Template
    from ..run.plan import Plan
    from ..run.project import Project

NAME = "export-arm"
HELP = "the plan as an ARM deployment template for `az deployment sub validate` / `what-if`, offline"
DESCRIPTION = (
    "Write the plan of one stack as a subscription-scope ARM deployment template: the resource groups it "
    "creates, and per group a nested deployment of its resources. Secrets are secureString parameters whose "
    "values are never written; resources that are not Azure's, azure-native resources that are no ARM resource "
    "(a storage blob) and those of types the type registry cannot place are listed under "
    "metadata.outsideTemplate with why (a warning counts the azure-native ones).\n"
    "Then: az deployment sub validate --location LOCATION --template-file FILE --parameters NAME=VALUE ..."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("stack", metavar="STACK", help=options.STACK_HELP)
    p.add_argument("--output", "-o", type=Path, metavar="FILE", help="write the template here (default: stdout)")
    options.add_common(p)
    options.add_as_of(p)


def template_of(args: argparse.Namespace) -> tuple[Project, Plan, Template]:
    """The plan of `args.stack` and its template (shared with `preflight`)."""
    from ..arm.template import export
    from ..run.plan import plan_stack

    project = options.planned_project(args)
    settings, day = options.run_settings(args)
    options.progress(f"planning {args.stack} offline…")
    plan = plan_stack(
        project, args.stack, options.reference(args), day=day, policy_settings=settings, limits=options.limits(args)
    )
    options.learn_secrets([plan])  # what this command prints or writes passes the one edge (engine.secrets)
    template = export(
        plan.resources, project=plan.project, stack=plan.stack, secrets=plan.secret_values, identity=plan.identity
    )
    return project, plan, template


def refuse_unwritable_target(path: Path, option: str = "--output") -> None:
    """An output (`export-arm -o`, `preflight --record`) goes only to a new path in an existing directory or over a
    regular file: a directory, FIFO, device node or socket there (or a symlink to one) is refused in one line,
    before any work, and left as it is."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if not path.absolute().parent.is_dir():
            raise InputError(f"{option} {path}: its directory does not exist; allowed: a file in an existing directory")
        return
    except OSError as exc:
        raise InputError(f"{option} {path}: cannot write: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{option} {path}: is a directory; allowed: a file path")
    if not stat.S_ISREG(mode):
        raise InputError(
            f"{option} {path}: not a regular file (a FIFO, device or socket); allowed: a new or regular file"
        )


def run(args: argparse.Namespace) -> int:
    if args.output is not None:
        refuse_unwritable_target(args.output)
    _, _, template = template_of(args)
    left_out = [urn for urn, kind in template.outside if kind.startswith("azure-native:")]
    if left_out:
        print(
            f"gpu-stacks: warning: {len(left_out)} azure-native resource(s) are not in the template (data-plane "
            "types, or types the type registry cannot place), so Validate and What-If do not see them "
            "(metadata.outsideTemplate says why for each)",
            file=sys.stderr,
        )
    text = json.dumps(template.document, indent=2) + "\n"
    if args.output is None:
        options.out(text, end="")
    else:
        write_file(args.output, text)
    return 0


def write_file(path: Path, text: str) -> None:
    """Write `text` whole or not at all (a temporary file beside it, renamed), through the same edge as stdout:
    every secret the run knows of masked (`engine.secrets.EDGE`), so the file is what stdout would get."""
    refuse_unwritable_target(path)
    text = EDGE(text)
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.")
    except OSError as exc:
        raise InputError(f"--output {path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
