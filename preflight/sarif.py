"""`gpu-stacks check --format sarif`: the findings as SARIF 2.1.0, which GitHub code scanning reads.

One rule per policy of the pack (with its description, remediation and Azure link) plus one per ARM
error code; one result per violation or refusal, located in the stack file that produced it (the
resource is named as a logical location, since resources have no line of their own).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from azure_gpu_stacks.policies.registry import PACK_VERSION
from azure_gpu_stacks.preflight.plan import Plan
from azure_gpu_stacks.preflight.policy_run import pack_policies

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"mandatory": "error", "advisory": "warning", "remediate": "error"}
REFUSAL_RULE_PREFIX = "azure/"


def render_sarif(plans: Sequence[Plan], *, version: str = PACK_VERSION) -> dict[str, Any]:
    rules: dict[str, dict[str, Any]] = {}
    for policy in pack_policies():
        rules[policy.name] = {
            "id": policy.name,
            "shortDescription": {"text": policy.description},
            "help": {"text": policy.remediation_steps or policy.description},
            "helpUri": policy.url,
            "properties": {"severity": policy.severity.value if policy.severity else "unspecified"},
        }
    results: list[dict[str, Any]] = []
    for plan in plans:
        for v in plan.violations:
            results.append(
                _result(v["policy"], LEVELS.get(v["level"], "note"), v["message"], plan, v["resource"])
            )
        for r in plan.refusals:
            rule = f"{REFUSAL_RULE_PREFIX}{r.code}"
            rules.setdefault(
                rule, {"id": rule, "shortDescription": {"text": f"Azure Resource Manager refuses: {r.code}"}}
            )
            results.append(_result(rule, "error", r.message, plan, r.resource))
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "gpu-stacks",
                        "version": version,
                        "rules": [rules[k] for k in sorted(rules)],
                    }
                },
                "results": results,
            }
        ],
    }


def _result(rule: str, level: str, message: str, plan: Plan, resource: str) -> dict[str, Any]:
    return {
        "ruleId": rule,
        "level": level,
        "message": {"text": f"{plan.stack}: {resource}: {message}"},
        "locations": [
            {
                "physicalLocation": {"artifactLocation": {"uri": plan.stack_file}, "region": {"startLine": 1}},
                "logicalLocations": [{"name": resource, "fullyQualifiedName": f"{plan.stack}/{resource}"}],
            }
        ],
    }
