"""`gpu-stacks plan --format pulumi-preview`: the plan in the shape `pulumi preview --json` prints, for tools
built on that shape.

The shape is pulumi/pulumi's display JSON, `sdk/pkg/display/json.go` (read 2026-11-27): a `PreviewDigest`
with `steps` (each a `PreviewStep`: `op`, `urn`, `newState` an `apitype.ResourceV3` with `urn`, `custom`,
`type`, `inputs`, `parent`, `protect`, `dependencies`; `detailedDiff`, which has no `omitempty`),
`diagnostics` (`PreviewDiagnostic`: `message`, `severity`) and `changeSummary` (count per op). Offline
nothing exists yet, so every step is a `create`, the stack's own `pulumi:pulumi:Stack` resource first, as
`pulumi preview` of a new stack shows it; a resource without a parent is the stack's child. Inputs are as
the plan's JSON shows them (secrets "[secret]", values unknown until deployment null).
"""

from __future__ import annotations

from typing import Any

from ..run.plan import Plan

STACK_TYPE = "pulumi:pulumi:Stack"


def preview_json(plan: Plan) -> dict[str, Any]:
    root = f"urn:pulumi:{plan.stack}::{plan.project}::{STACK_TYPE}::{plan.project}-{plan.stack}"
    states = [{"urn": root, "custom": False, "type": STACK_TYPE}]
    order = {resource.urn: i for i, resource in enumerate(plan.resources)}  # a stable order for dependencies
    for resource in plan.resources:
        shown = resource.to_json()
        state: dict[str, Any] = {
            "urn": resource.urn,
            "custom": resource.custom,
            "type": resource.type,
            "inputs": shown["inputs"] or {},
            "parent": resource.parent or root,
        }
        if resource.protect:
            state["protect"] = True
        if resource.dependencies:
            state["dependencies"] = sorted(set(resource.dependencies), key=lambda urn: order.get(urn, len(order)))
        states.append(state)
    diagnostics = [{"message": text, "severity": "warning"} for text in plan.warnings]
    diagnostics += [{"message": text, "severity": "error"} for text in plan.errors]
    document: dict[str, Any] = {
        "steps": [{"op": "create", "urn": state["urn"], "newState": state, "detailedDiff": None} for state in states],
        "changeSummary": {"create": len(states)},
    }
    if diagnostics:
        document["diagnostics"] = diagnostics
    return document
