"""`gpu-stacks check --format sarif`: the findings as SARIF 2.1.0, which GitHub code scanning reads.

One rule per policy of the pack (with its description, remediation, Azure link and severity) plus one
per ARM error code; one result per violation or refusal. GitHub annotates a pull request only on lines
its diff changes, so each result points at the line a team edits, with a path relative to the
repository (the directory `check` runs in, as a workflow does), in this order:
1. the stack file's key whose value the finding quotes (`vmSize: Standard_NC6` for "'Standard_NC6' ..."),
   line and column;
2. the program line that registered the resource, or the nearest parent's (the line of the team's
   program that made the component), when it is the team's file: Pulumi's `sourcePosition`
   (pulumi/pulumi `sdk/proto/resource.proto`); never a file of the installed toolkit
   (`engine.installed`), which no team's pull request changes;
3. the stack file's section that made the component (`azure-gpu-stacks:trainingCluster:`);
4. the stack file's first line.
The resource is named as a logical location too. `security-severity` (0.1 to 10, what GitHub ranks
alerts of rules tagged `security` by), a `partialFingerprints` entry that stays the same while the
finding does (rule, stack, resource and its occurrence: not the line, which moves with edits) and
`automationDetails.id` (the run's category, so a second upload of another category does not close these
alerts) follow GitHub's reference.
Source: https://docs.github.com/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning
(observed 2026-11-22 and 2026-11-26: `artifactLocation.uri` relative to the repository root, `uriBaseId`
%SRCROOT%, `security-severity` ranges, `partialFingerprints`, `runAutomationDetails`).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from pydantic.alias_generators import to_camel

from ...inputs.files import InputFileError, read_text
from ...policies.registry import PACK_VERSION
from ...stack.sections import SECTIONS
from ..installed import inside_package
from ..run.outcome import Outcome, StackFailure
from ..run.plan import Plan
from ..run.policy_run import pack_policies

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"mandatory": "error", "advisory": "warning", "remediate": "error"}
# A policy's severity as GitHub's `security-severity` (its bands: critical over 9.0, high 7.0 to 8.9,
# medium 4.0 to 6.9, low 0.1 to 3.9): the middle of each band.
SECURITY_SEVERITY = {"critical": "9.5", "high": "8.0", "medium": "5.5", "low": "2.0"}
AUTOMATION_ID = "gpu-stacks/check/"  # the category: GitHub keeps one set of alerts per category
PREFLIGHT_AUTOMATION_ID = "gpu-stacks/preflight/"  # Azure's own answers: their own alerts, never closing check's
FINGERPRINT = "gpuStacksFinding/v1"
COMPONENT_TYPE_PREFIX = "azure-gpu-stacks:index:"
# A component's section of the stack file: its StackConfig field in camelCase, as stack/config.py names keys.
SECTION_OF = {section.class_name: to_camel(section.key) for section in SECTIONS}
REFUSAL_RULE_PREFIX = "azure/"
NOT_CHECKED_RULE = "gpu-stacks/not-checked-offline"  # a resource whose type the offline engine does not model
QUOTED = re.compile(r"'([^'\n]{1,200})'")
# `key: value` in a YAML mapping (a list item's first key too), value quoted or not, comment dropped.
KEY_VALUE = re.compile(r"""^\s*(?:-\s+)?[^\s#][^#]*?:\s+(?P<q>['"]?)(?P<value>[^'"#]*?)(?P=q)\s*(?:#.*)?$""")


def render_sarif(
    plans: Sequence[Outcome], *, version: str = PACK_VERSION, root: Path | None = None, category: str | None = None
) -> dict[str, Any]:
    """SARIF for `plans`; `root` is the project directory the stack files are relative to."""
    rules = pack_rules()
    results: list[dict[str, Any]] = []
    for plan in plans:
        plan_rules, plan_results = findings(plan, root or Path.cwd())
        for rule in plan_rules:
            rules.setdefault(rule["id"], rule)
        results += plan_results
    return sarif_document(rules, results, version, category=category)


def pack_rules() -> dict[str, dict[str, Any]]:
    """One rule per policy of the pack, by name."""
    return {
        policy.name: {
            "id": policy.name,
            "shortDescription": {"text": policy.description},
            "help": {"text": policy.remediation_steps or policy.description},
            "helpUri": policy.url,
            "properties": _severity(policy.severity.value if policy.severity else None),
        }
        for policy in pack_policies()
    }


def _severity(severity: str | None) -> dict[str, Any]:
    properties: dict[str, Any] = {"severity": severity or "unspecified", "tags": ["security", "azure"]}
    if severity in SECURITY_SEVERITY:
        properties["security-severity"] = SECURITY_SEVERITY[severity]
    return properties


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
        return [dict(NOT_PLANNED_RULE)], fingerprinted([result], plan.stack)
    locate = _Locator(plan, root)
    rules: list[dict[str, Any]] = []
    results = [
        _result(v.policy, LEVELS.get(v.level, "note"), v.message, plan, v.resource, locate) for v in plan.violations
    ]
    for r in plan.refusals:
        rule = f"{REFUSAL_RULE_PREFIX}{r.code}"
        rules.append(
            {
                "id": rule,
                "shortDescription": {"text": f"Azure Resource Manager refuses: {r.code}"},
                "properties": {"tags": ["azure"]},
            }
        )
        results.append(_result(rule, "error", r.message, plan, r.resource, locate))
    if plan.not_checked:
        rules.append({"id": NOT_CHECKED_RULE, "shortDescription": {"text": "Not checked offline"}})
    for urn in plan.not_checked:
        _, _, kind, name = urn.rsplit("::", 3)
        message = f"{kind.split('$')[-1]}: not checked offline (the offline engine does not model this type)"
        results.append(_result(NOT_CHECKED_RULE, "note", message, plan, name, locate))
    return rules, fingerprinted(results, plan.stack)


def automation_id(category: str | None) -> str:
    """A run's `automationDetails.id` for a category: the category ends at the id's last "/", so one is added, as
    upload-sarif does to its own `category` input (github/codeql-action `src/upload-lib.ts`, getAutomationID; it
    keeps a run's own id over that input: populateRunAutomationDetails; observed 2026-11-27)."""
    if not category:
        return AUTOMATION_ID
    return category if category.endswith("/") else f"{category}/"


def fingerprinted(results: list[dict[str, Any]], stack: str) -> list[dict[str, Any]]:
    """Each result with a fingerprint that stays while the finding does: rule, stack, resource and occurrence."""
    seen: Counter[str] = Counter()
    for result in results:
        logical = result["locations"][0].get("logicalLocations") or [{"name": ""}]
        identity = "|".join((result["ruleId"], stack, logical[0]["name"]))
        seen[identity] += 1
        digest = hashlib.sha256(f"{identity}|{seen[identity]}".encode()).hexdigest()[:32]
        result["partialFingerprints"] = {FINGERPRINT: digest}
    return results


def sarif_document(
    rules: dict[str, dict[str, Any]], results: Any, version: str = PACK_VERSION, *, category: str | None = None
) -> dict[str, Any]:
    """The SARIF log of one run: `rules` by id (listed sorted), and `results`, under `category` (--sarif-category)."""
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {"name": "gpu-stacks", "version": version, "rules": [rules[k] for k in sorted(rules)]}
                },
                "automationDetails": {"id": automation_id(category)},
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


@dataclass(frozen=True)
class Place:
    """Where a result points: a repository-relative path, a line and, where known, a column."""

    uri: str
    line: int
    column: int | None = None


class _Locator:
    """Where a finding about a resource of one plan points (see the module's docstring for the order)."""

    def __init__(self, plan: Plan, root: Path):
        self.plan = plan
        stack_path = root / plan.stack_file
        self.stack_uri = _repository_path(stack_path) or plan.stack_file
        try:  # read as the plan read it (a regular file, capped); gone or changed since: no lines to point at
            self.stack_lines = read_text(stack_path, "stack").splitlines()
        except InputFileError:
            self.stack_lines = []
        self.resources = {r.name: r for r in plan.resources}
        self.by_urn = {r.urn: r for r in plan.resources}

    def __call__(self, message: str, resource: str) -> Place:
        for value in QUOTED.findall(message):
            for number, line in enumerate(self.stack_lines, start=1):
                match = KEY_VALUE.match(line)
                if match and match["value"].strip() == value:
                    return Place(self.stack_uri, number, match.start("value") + 1)
        chain = self._chain(resource)
        for item in chain:
            if item.source is not None and (place := self._team_line(*item.source)) is not None:
                return place
        for item in chain:
            if item.type.startswith(COMPONENT_TYPE_PREFIX) and (place := self._section(item.type)) is not None:
                return place
        return Place(self.stack_uri, 1)

    def _chain(self, name: str) -> list[Any]:
        """The resource, then its parents up to the stack."""
        chain = []
        item = self.resources.get(name)
        while item is not None and item not in chain:
            chain.append(item)
            item = self.by_urn.get(item.parent) if item.parent else None
        return chain

    def _team_line(self, uri: str, line: int) -> Place | None:
        """The program line, when it is a file of the repository and not of the installed toolkit."""
        file = Path(unquote(urlparse(uri).path))
        path = _repository_path(file)
        if path is None or line <= 0 or inside_package(file):
            return None
        return Place(path, line)

    def _section(self, component_type: str) -> Place | None:
        key = SECTION_OF.get(component_type.removeprefix(COMPONENT_TYPE_PREFIX))
        if key is None:
            return None
        pattern = re.compile(rf"^(\s*)[^\s:#]+:{re.escape(key)}:\s*(#.*)?$")
        for number, line in enumerate(self.stack_lines, start=1):
            if match := pattern.match(line):
                return Place(self.stack_uri, number, len(match[1]) + 1)
        return None


def _result(rule: str, level: str, message: str, plan: Plan, resource: str, locate: _Locator) -> dict[str, Any]:
    place = locate(message, resource)
    region = {"startLine": place.line} | ({"startColumn": place.column} if place.column else {})
    return {
        "ruleId": rule,
        "level": level,
        "message": {"text": f"{plan.stack}: {resource}: {message}"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": place.uri, "uriBaseId": "%SRCROOT%"},
                    "region": region,
                },
                "logicalLocations": [{"name": resource, "fullyQualifiedName": f"{plan.stack}/{resource}"}],
            }
        ],
    }
