"""`gpu-stacks preflight STACK --subscription ID`: Azure's own Validate (and What-If) of the plan's template."""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
from typing import Any

from ..arm.clouds import CLOUDS, DEFAULT_CLOUD
from ..errors import InputError
from ..report import versioned
from ..secrets import Mask
from . import export_arm, options
from .said import Document, Part, Said, Text, refuse_unwritable_target

NAME = "preflight"
HELP = "Azure's own verdict on the plan: Deployments Validate (and What-If), nothing created"
DESCRIPTION = (
    "Send the template of `export-arm` to Azure's Deployments Validate API at subscription scope (and What-If "
    "with --what-if), signed in with azure-identity's DefaultAzureCredential (`az login`, a service principal, "
    "workload identity). Nothing is created. Needs the `azure` extra: pip install 'azure-gpu-stacks[azure]'."
)
RULE_PREFIX = "azure-preflight/"


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_stack(p)
    p.add_argument("--subscription", required=True, metavar="ID", help="the subscription id to validate in")
    p.add_argument("--what-if", action="store_true", help="also ask What-If which resources would change")
    p.add_argument(
        "--cloud", choices=tuple(CLOUDS), default=DEFAULT_CLOUD, help="the Azure cloud, as `az cloud list` names it"
    )
    p.add_argument(
        "--location", metavar="REGION", help="where the deployment's metadata is kept (default: the stack's)"
    )
    p.add_argument(
        "--record",
        type=export_arm.Path,
        metavar="FILE",
        help="write the fidelity record: per resource the offline verdict beside Azure's, body hashes, no secret",
    )
    options.add_format(p, options.FORMATS, "text; json; markdown; sarif")
    options.add_common(p)
    options.add_as_of(p)


AZURE_MODULES = ("azure.core", "azure.identity", "azure.mgmt.resource")  # what the `azure` extra installs


def azure_installed() -> bool:
    """Whether every module of the `azure` extra can be imported. `find_spec("azure.mgmt.resource")` itself
    raises ModuleNotFoundError when its parent package `azure` is absent, so a missing parent is "no" too."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in AZURE_MODULES)
    except (ImportError, ValueError):  # a parent missing, or a module set to None in sys.modules
        return False


def make_connection(args: argparse.Namespace) -> Any:
    """How to reach Azure (tests replace it with recorded responses)."""
    from ..arm.client import Connection

    return Connection(subscription=args.subscription, cloud=args.cloud)


def run(args: argparse.Namespace) -> Said:
    from ..arm.client import INSTALL_HINT

    if not azure_installed():
        raise InputError(INSTALL_HINT)
    from ..arm.clouds import SUBSCRIPTION_ID

    if not SUBSCRIPTION_ID.match(args.subscription):
        raise InputError(
            f"--subscription {args.subscription!r}: not a subscription id; "
            "allowed: a GUID as `az account show --query id` prints it"
        )
    if args.record is not None:
        refuse_unwritable_target(args.record, "--record")
    from ..arm.client import AzureRequestFailed, AzureUnavailable, ask_azure
    from ..arm.template import deployment_name
    from ..arm.verdict import fidelity, findings, resource_by_id

    project, plan, template = export_arm.template_of(args)
    location = args.location or _location(template.document)
    if location is None:
        raise InputError(f"{plan.stack_file}: no location in the stack; allowed: name one with --location REGION")
    options.progress(args)(f"asking Azure ({args.cloud}) to validate {plan.stack}…")
    quoted_mask = Mask(plan.secret_values, ignore_case=True)  # Azure may quote a request value in any case
    try:
        answer = ask_azure(
            template,
            make_connection(args),
            location=location,
            deployment=deployment_name("gpu-stacks-preflight", plan.stack),
            what_if=args.what_if,
            timeout_s=args.timeout,
        )
    except AzureRequestFailed as exc:
        raise InputError(exc.line(quoted_mask)) from None
    except AzureUnavailable as exc:
        raise InputError(str(exc)) from None
    try:
        lines = (project.root / plan.stack_file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    found = findings(answer, template, lines, plan.secret_values)
    code = 1 if found or not answer.accepted else 0
    said = Said(code)
    said.learn([plan])

    def _urn(resource_id: str) -> str | None:
        changed = resource_by_id(resource_id, template)
        return changed.urn if changed else None

    report = {
        "project": plan.project,
        "stack": plan.stack,
        "stackFile": plan.stack_file,
        "cloud": answer.cloud,
        "azure": {
            "verdict": "accepted" if code == 0 else "refused",
            "findings": [f.to_json() for f in found],
            "validated": list(answer.validated),
            "changes": None
            if answer.changes is None
            else [
                {
                    "resourceId": c.resource_id,
                    "urn": _urn(c.resource_id),
                    "changeType": c.change_type,
                    "paths": list(c.paths),
                }
                for c in answer.changes
            ],
        },
        "offline": {"verdict": "clean" if plan.exit_code == 0 else "refused", "exitCode": plan.exit_code},
        "exitCode": code,
    }
    if args.record is not None:
        record = fidelity(plan, template, found, answer)
        # where the project and its --existing files are, from the directory preflight ran in (the repository
        # root in CI), so that tests/engine/arm/test_fidelity_records.py can plan the same stack again
        record["projectDir"] = _relative(project.root)
        record["references"] = {
            "usage": _relative(args.usage) if args.usage else None,
            "amlUsage": _relative(args.aml_usage) if args.aml_usage else None,
            "skus": _relative(args.skus) if args.skus else None,
            "existing": [_relative(path) for path in args.existing],
        }
        record["source"] = (
            f"Azure Deployments Validate, {answer.cloud}, {dt.datetime.now(dt.timezone.utc):%Y-%m-%dT%H:%MZ}"
        )
        said.file(args.record, Text(json.dumps(record, indent=2)), "--record")
    said.stdout.append(_report(report, args.format))
    return said


def _relative(path: export_arm.Path) -> str:
    return os.path.relpath(path.resolve(), export_arm.Path.cwd().resolve()).replace(os.sep, "/")


def _location(document: dict[str, Any]) -> str | None:
    for entry in document.get("resources", []):
        if isinstance(entry.get("location"), str) and not entry["location"].startswith("["):
            return str(entry["location"])
    return None


def _report(report: dict[str, Any], fmt: str) -> Part:
    """The report in `fmt`, for the CLI to mask (every secret of the plan) and print."""
    if fmt == "json":
        return Document(versioned(report))
    if fmt == "markdown":
        return Text(render_markdown(report), end="")
    if fmt == "sarif":
        return Document(render_sarif(report))
    return Text(render_text(report), end="")


def _where(f: dict[str, Any]) -> str:
    where = f"{f['resource']}" if f["resource"] else "the deployment"
    if f["line"]:
        where += f" ({f['stackKey']} at line {f['line']})"
    return where


def render_text(report: dict[str, Any]) -> str:
    azure = report["azure"]
    lines = [
        f"{report['stack']}: Azure ({report['cloud']}) {azure['verdict']} the template; "
        f"offline: {report['offline']['verdict']}"
    ]
    lines += [f"  - {_where(f)}: {f['code']}: {f['message']}" for f in azure["findings"]]
    for change in azure["changes"] or []:
        lines.append(f"  {change['changeType']}: {change['resourceId']}")
    return "\n".join(lines) + "\n"


def render_markdown(report: dict[str, Any]) -> str:
    from ..report.markdown import cell

    azure = report["azure"]
    lines = [
        f"#### Azure preflight of `{report['stack']}` ({report['cloud']})",
        "",
        "| offline | Azure |",
        "|---|---|",
        f"| {report['offline']['verdict']} | {azure['verdict']} |",
        "",
    ]
    if azure["findings"]:
        lines += ["| resource | code | message |", "|---|---|---|"]
        lines += [f"| {cell(_where(f))} | {cell(f['code'])} | {cell(f['message'])} |" for f in azure["findings"]]
        lines.append("")
    if azure["changes"]:
        lines += ["| change | resource |", "|---|---|"]
        lines += [f"| {c['changeType']} | {cell(c['resourceId'])} |" for c in azure["changes"]]
        lines.append("")
    return "\n".join(lines)


def render_sarif(report: dict[str, Any]) -> dict[str, Any]:
    from ...policies.registry import PACK_VERSION
    from ..report.sarif import PREFLIGHT_AUTOMATION_ID, SARIF_SCHEMA, fingerprinted

    results = []
    codes = sorted({f["code"] for f in report["azure"]["findings"]})
    for f in report["azure"]["findings"]:
        results.append(
            {
                "ruleId": f"{RULE_PREFIX}{f['code']}",
                "level": "error",
                "message": {"text": f"{report['stack']}: {_where(f)}: {f['message']}"},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": report["stackFile"], "uriBaseId": "%SRCROOT%"},
                            "region": {"startLine": f["line"] or 1},
                        },
                        "logicalLocations": [
                            {
                                "name": f["resource"] or report["stack"],
                                "fullyQualifiedName": f["urn"] or report["stack"],
                            }
                        ],
                    }
                ],
            }
        )
    rules = [
        {"id": f"{RULE_PREFIX}{c}", "shortDescription": {"text": f"Azure's preflight refuses: {c}"}} for c in codes
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "gpu-stacks preflight", "version": PACK_VERSION, "rules": rules}},
                "automationDetails": {"id": PREFLIGHT_AUTOMATION_ID},
                "results": fingerprinted(results, report["stack"]),
            }
        ],
    }
