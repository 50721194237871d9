"""Azure's answer read back per resource, and set beside the offline verdict (the fidelity record).

An error names its resource by `target` (a name or an id, RequestDisallowedByPolicy's form:
learn.microsoft.com/azure/azure-resource-manager/troubleshooting/error-policy-requestdisallowedbypolicy),
by the resource's name or id in its message, or, for a quota refusal, by the quota family of a size the
resource asks for (learn.microsoft.com/azure/azure-resource-manager/troubleshooting/error-resource-quota:
"exceeding approved <family> Cores quota"), all observed 2026-11-25. Where a value Azure quotes is written
in the stack file, the finding points at that key and line.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...catalog import catalog
from ...catalog.shapes import read as read_pools
from ..run.plan import Plan
from ..secrets import Mask
from .client import AzureAnswer, AzureError, capped
from .template import Template, TemplateResource

QUOTED = re.compile(r"'([^'\n]{1,200})'")
# `key: value` or `key:` (keys may hold colons: `azure-gpu-stacks:trainingCluster`), a list item's first key too
KEY_LINE = re.compile(
    r"""^(?P<indent>\s*)(?:-\s+)?(?P<key>[^\s#][^#]*?):(?:\s+(?P<q>['"]?)(?P<value>[^'"#]*?)(?P=q))?\s*(?:#.*)?$"""
)
AGREE = "agree"
OFFLINE_ONLY = "refused offline only"
AZURE_ONLY = "refused by Azure only"
FIDELITY_VERSION = 1


@dataclass(frozen=True)
class Finding:
    """One error of Azure's, with the resource it is about and the stack file line it came from."""

    code: str
    message: str
    urn: str | None
    resource: str | None  # the logical name
    stack_key: str | None  # e.g. azure-gpu-stacks:trainingCluster.vmSize
    line: int | None
    operation: str = "validate"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "operation": self.operation,
            "urn": self.urn,
            "resource": self.resource,
            "stackKey": self.stack_key,
            "line": self.line,
        }


def findings(
    answer: AzureAnswer, template: Template, stack_lines: Sequence[str], secrets: Iterable[str]
) -> list[Finding]:
    """Each innermost error of Validate (then What-If), mapped to its resource and stack file line; what Azure
    quotes of the request in a message is masked by `secrets` (the plan's `secret_values`)."""
    mask = Mask(secrets, ignore_case=True)  # Azure may quote a request value in another case
    out: list[Finding] = []
    for operation, error in (("validate", answer.error), ("what-if", answer.what_if_error)):
        if error is None:
            continue
        for leaf in error.leaves():
            res = resource_of(leaf, template)
            key, line = config_location(_quoted_values(leaf, res), stack_lines)
            out.append(
                Finding(
                    code=leaf.code,
                    message=capped(mask(leaf.message)),
                    urn=res.urn if res else None,
                    resource=res.logical_name if res else None,
                    stack_key=key,
                    line=line,
                    operation=operation,
                )
            )
    return out


def resource_of(error: AzureError, template: Template) -> TemplateResource | None:
    """The template resource an error is about, or None when it names none."""
    target = (error.target or "").strip().lower()
    message = error.message.lower()
    for res in template.resources:
        last = res.name.rsplit("/", 1)[-1].lower()
        if target and (target == last or target == res.name.lower() or target.endswith(_id_tail(res))):
            return res
    for res in sorted(template.resources, key=lambda r: -len(r.name)):
        if _id_tail(res) in message or re.search(
            rf"(?<![\w-]){re.escape(res.name.rsplit('/', 1)[-1].lower())}(?![\w-])", message
        ):
            return res
    for res in template.resources:
        if any(family.lower() in message for family in quota_families(res)):
            return res
    return None


def resource_by_id(resource_id: str, template: Template) -> TemplateResource | None:
    """The template resource a What-If change names (its id in the real subscription)."""
    wanted = resource_id.lower()
    return next((r for r in template.resources if wanted.endswith("/" + _id_tail(r))), None)


def quota_families(res: TemplateResource) -> list[str]:
    """The vCPU quota families of the sizes whose nodes `res` counts (the catalog's `quotaFamily`); a size
    that only reserves placement (a proximity placement group's intent) draws on no quota."""
    families = []
    for pool in read_pools(res.token, res.inputs):
        if not pool.pool.counted:
            continue
        size = catalog().find(str(pool.size)) if isinstance(pool.size, str) else None
        if size is not None and size.quota_family:
            families.append(size.quota_family)
    return families


def _id_tail(res: TemplateResource) -> str:
    """The id of `res` after its subscription: the part Azure's messages share with it."""
    return res.resource_id.split("/", 3)[-1].lower()


def _quoted_values(error: AzureError, res: TemplateResource | None) -> list[str]:
    values = QUOTED.findall(error.message)
    if res is not None and any(f.lower() in error.message.lower() for f in quota_families(res)):
        values += [str(p.size) for p in read_pools(res.token, res.inputs) if p.pool.counted]
    return values


def config_location(values: Sequence[str], stack_lines: Sequence[str]) -> tuple[str | None, int | None]:
    """The stack file key (dotted, from its indentation) and line whose value is one of `values`."""
    wanted = {v.strip() for v in values if v.strip()}
    for number, line in enumerate(stack_lines, start=1):
        match = KEY_LINE.match(line)
        if match and match["value"] and match["value"].strip() in wanted:
            return _key_path(stack_lines, number - 1), number
    return None, None


def _key_path(lines: Sequence[str], index: int) -> str:
    match = KEY_LINE.match(lines[index])
    assert match is not None
    keys = [match["key"].strip()]
    indent = len(match["indent"])
    for line in reversed(lines[:index]):
        outer = KEY_LINE.match(line)
        if outer and not line.lstrip().startswith("#") and len(outer["indent"]) < indent and not outer["value"]:
            keys.insert(0, outer["key"].strip())
            indent = len(outer["indent"])
    return ".".join(k for k in keys if k != "config")


# --- the fidelity record -------------------------------------------------------------------------


def fidelity(plan: Plan, template: Template, found: Sequence[Finding], answer: AzureAnswer) -> dict[str, Any]:
    """Per resource, the offline verdict beside Azure's, with body hashes: no value of the bodies, no secret."""
    refused_offline: dict[tuple[str, str], list[str]] = {}
    for refusal in plan.refusals:
        refused_offline.setdefault((refusal.resource, refusal.type), []).append(refusal.code)
    refused_by_azure: dict[str, list[str]] = {}
    for f in found:
        if f.urn is not None:
            refused_by_azure.setdefault(f.urn, []).append(f.code)
    rows = []
    for res in template.resources:
        offline = refused_offline.get((res.logical_name, res.token), [])
        azure = refused_by_azure.get(res.urn, [])
        rows.append(
            {
                "urn": res.urn,
                "type": res.token,
                "armType": res.arm_type,
                "apiVersion": res.api_version,
                "bodySha256": res.body_hash,
                "offline": {"verdict": "refused" if offline else "accepted", "codes": offline},
                "azure": {"verdict": "refused" if azure else "accepted", "codes": azure},
                "agreement": agreement(bool(offline), bool(azure)),
            }
        )
    return {
        "version": FIDELITY_VERSION,
        "project": plan.project,
        "stack": plan.stack,
        "asOf": plan.as_of.isoformat(),
        "cloud": answer.cloud,
        "templateSha256": hashlib.sha256(json.dumps(template.document, sort_keys=True).encode()).hexdigest(),
        "resources": rows,
        "unmapped": [f.code for f in found if f.urn is None],
    }


def agreement(refused_offline: bool, refused_by_azure: bool) -> str:
    if refused_offline == refused_by_azure:
        return AGREE
    return OFFLINE_ONLY if refused_offline else AZURE_ONLY
