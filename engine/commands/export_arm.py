"""`gpu-stacks export-arm STACK`: the plan as an ARM deployment template, offline."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ...catalog.words import counted
from . import options
from .said import Said, Text, refuse_unwritable_target

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
    options.add_stack(p)
    p.add_argument("--output", "-o", type=Path, metavar="FILE", help="write the template here (default: stdout)")
    options.add_common(p)
    options.add_as_of(p)


def template_of(args: argparse.Namespace) -> tuple[Project, Plan, Template]:
    """The plan of `args.stack` and its template (shared with `preflight`); what the command says learns the
    plan's secrets from the plan (`Said.learn`)."""
    from ..arm.template import export
    from ..run.plan import plan_stack

    project = options.planned_project(args)
    settings, day = options.run_settings(args)
    options.progress(args)(f"planning {args.stack} offline…")
    plan = plan_stack(
        project, args.stack, options.reference(args), day=day, policy_settings=settings, limits=options.limits(args)
    )
    template = export(
        plan.resources, project=plan.project, stack=plan.stack, secrets=plan.secret_values, identity=plan.identity
    )
    return project, plan, template


def run(args: argparse.Namespace) -> Said:
    if args.output is not None:
        refuse_unwritable_target(args.output)
    _, plan, template = template_of(args)
    said = Said()
    said.learn([plan])
    left_out = [urn for urn, kind in template.outside if kind.startswith("azure-native:")]
    if left_out:
        print(
            f"gpu-stacks: warning: {counted(len(left_out), 'azure-native resource')} "
            f"{'is' if len(left_out) == 1 else 'are'} not in the template (data-plane "
            "types, or types the type registry cannot place), so Validate and What-If do not see them "
            "(metadata.outsideTemplate says why for each)",
            file=sys.stderr,
        )
    from ..arm.template import CLASSIC_AZURE_PREFIX

    classic = [urn for urn, kind in template.outside if kind.startswith(CLASSIC_AZURE_PREFIX)]
    if classic:
        print(
            f"gpu-stacks: warning: {counted(len(classic), 'resource')} of the classic azure provider "
            f"{'is' if len(classic) == 1 else 'are'} Azure's but not in the template (Terraform's inputs, not "
            "ARM's), so Validate and What-If do not see them",
            file=sys.stderr,
        )
    text = Text(json.dumps(template.document, indent=2))
    if args.output is None:
        said.stdout.append(text)
    else:
        said.file(args.output, text)
    return said
