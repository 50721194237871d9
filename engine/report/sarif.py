"""`gpu-stacks check --format sarif`: the findings as SARIF 2.1.0, which GitHub code scanning reads.

One rule per policy of the pack (with its description, remediation and Azure link) plus one per ARM
error code; one result per violation or refusal. Each result points at a line GitHub can annotate,
with a path relative to the repository (the directory `check` runs in, as a workflow does): the line
of the stack file whose value the finding quotes (`vmSize: Standard_NC6` for "'Standard_NC6' ..."),
else the program line that registered the resource when the engine reports one (Pulumi's
`sourcePosition`, pulumi/pulumi `sdk/proto/resource.proto`), else the stack file's first line. The
resource is named as a logical location too.
Source: https://docs.github.com/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning
(observed 2026-11-22: `artifactLocation.uri` relative to the repository root, `uriBaseId` %SRCROOT%).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from azure_gpu_stacks.engine.run.outcome import Outcome, StackFailure
from azure_gpu_stacks.engine.run.plan import Plan
from azure_gpu_stacks.engine.run.policy_run import pack_policies
from azure_gpu_stacks.inputs.files import InputFileError, read_text
from azure_gpu_stacks.policies.registry import PACK_VERSION

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"mandatory": "error", "advisory": "warning", "remediate": "error"}
REFUSAL_RULE_PREFIX = "azure/"
NOT_CHECKED_RULE = "gpu-stacks/not-checked-offline"  # a resource whose type the offline engine does not model
QUOTED = re.compile(r"'([^'\n]{1,200})'")
# `key: value` in a YAML mapping (a list item's first key too), value quoted or not, comment dropped.
KEY_VALUE = re.compile(r"""^\s*(?:-\s+)?[^\s#][^#]*?:\s+(?P<q>['"]?)(?P<value>[^'"#]*?)(?P=q)\s*(?:#.*)?$""")


def render_sarif(plans: Sequence[Outcome], *, version: str = PACK_VERSION, root: Path | None = None) -> dict[str, Any]:
    """SARIF for `plans`; `root` is the project directory the stack files are relative to."""
    rules = pack_rules()
    results: list[dict[str, Any]] = []
    for plan in plans:
        plan_rules, plan_results = findings(plan, root or Path.cwd())
        for rule in plan_rules:
            rules.setdefault(rule["id"], rule)
        results += plan_results
    return sarif_document(rules, results, version)


def pack_rules() -> dict[str, dict[str, Any]]:
    """One rule per policy of the pack, by name."""
    return {
        policy.name: {
            "id": policy.name,
            "shortDescription": {"text": policy.description},
            "help": {"text": policy.remediation_steps or policy.description},
            "helpUri": policy.url,
            "properties": {"severity": policy.severity.value if policy.severity else "unspecified"},
        }
        for policy in pack_policies()
    }


NOT_PLANNED_RULE = {
    "id": "gpu-stacks/not-planned",
    "shortDescription": {"text": "The stack could not be planned: its stack file or program is in error"},
}


def findings(plan: Outcome, root: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rules of the ARM error codes one plan's refusals name, and its results (violations, then refusals);
    for a stack not planned, one error on its stack file."""
    if isinstance(plan, StackFailure):
        uri = (_repository_path(root / plan.stack_file) or plan.stack_file) if plan.stack_file else "Pulumi.yaml"
        result = {
            "ruleId": NOT_PLANNED_RULE["id"],
            "level": "error",
            "message": {"text": f"{plan.stack}: {plan.message}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 1},
                    }
                }
            ],
        }
        return [dict(NOT_PLANNED_RULE)], [result]
    locate = _Locator(plan, root)
    rules: list[dict[str, Any]] = []
    results = [
        _result(v.policy, LEVELS.get(v.level, "note"), v.message, plan, v.resource, locate) for v in plan.violations
    ]
    for r in plan.refusals:
        rule = f"{REFUSAL_RULE_PREFIX}{r.code}"
        rules.append({"id": rule, "shortDescription": {"text": f"Azure Resource Manager refuses: {r.code}"}})
        results.append(_result(rule, "error", r.message, plan, r.resource, locate))
    if plan.not_checked:
        rules.append({"id": NOT_CHECKED_RULE, "shortDescription": {"text": "Not checked offline"}})
    for urn in plan.not_checked:
        _, _, kind, name = urn.rsplit("::", 3)
        message = f"{kind.split('$')[-1]}: not checked offline (the offline engine does not model this type)"
        results.append(_result(NOT_CHECKED_RULE, "note", message, plan, name, locate))
    return rules, results


def sarif_document(rules: dict[str, dict[str, Any]], results: Any, version: str = PACK_VERSION) -> dict[str, Any]:
    """The SARIF log of one run: `rules` by id (listed sorted), and `results`."""
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {"name": "gpu-stacks", "version": version, "rules": [rules[k] for k in sorted(rules)]}
                },
                "results": results,
            }
        ],
    }


def _repository_path(path: Path) -> str | None:
    """`path` relative to the directory `check` runs in (the repository root in a workflow); None outside it."""
    try:
        relative = os.path.relpath(path.resolve(), Path.cwd().resolve())
    except ValueError:  # another drive
        return None
    return None if relative.startswith("..") else Path(relative).as_posix()


class _Locator:
    """Where a finding about a resource of one plan points: (repository-relative path, line)."""

    def __init__(self, plan: Plan, root: Path):
        self.plan = plan
        stack_path = root / plan.stack_file
        self.stack_uri = _repository_path(stack_path) or plan.stack_file
        try:  # read as the plan read it (a regular file, capped); gone or changed since: no lines to point at
            self.stack_lines = read_text(stack_path, "stack").splitlines()
        except InputFileError:
            self.stack_lines = []
        self.sources = {r.name: r.source for r in plan.resources if r.source is not None}

    def __call__(self, message: str, resource: str) -> tuple[str, int]:
        for value in QUOTED.findall(message):
            for number, line in enumerate(self.stack_lines, start=1):
                match = KEY_VALUE.match(line)
                if match and match["value"].strip() == value:
                    return self.stack_uri, number
        source = self.sources.get(resource)
        if source is not None:
            uri, line = source
            path = _repository_path(Path(unquote(urlparse(uri).path)))
            if path is not None and line > 0:
                return path, line
        return self.stack_uri, 1


def _result(rule: str, level: str, message: str, plan: Plan, resource: str, locate: _Locator) -> dict[str, Any]:
    uri, line = locate(message, resource)
    return {
        "ruleId": rule,
        "level": level,
        "message": {"text": f"{plan.stack}: {resource}: {message}"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                    "region": {"startLine": line},
                },
                "logicalLocations": [{"name": resource, "fullyQualifiedName": f"{plan.stack}/{resource}"}],
            }
        ],
    }
