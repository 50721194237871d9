"""What a change does to one stack: two offline plans compared, resource by resource, as Pulumi would.

Resources are matched by URN, as the Pulumi engine matches a program's registrations with its state.
A resource whose URN is new but whose type and inputs match one that disappeared is a rename without
an alias: Pulumi deletes the old one and creates the new one (a replacement), and an alias on the new
one (`opts=pulumi.ResourceOptions(aliases=[pulumi.Alias(name="old-name")])`) would keep it. For a
matched resource every input that differs is a property change (path, old value, new value; secrets
as "[secret]"), and the table in `azure_gpu_stacks.catalog.create_only` says whether it replaces
the resource. A replaced GPU pool or cluster interrupts what runs on it: it stops the change (exit
1) unless acknowledged with `--allow-replace URN` or a `# gpu-stacks: allow-replace URN` comment in
the stack file.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ...catalog import catalog
from ...catalog.az_files import Usage, family_key
from ...catalog.create_only import AKS_CLUSTER, AKS_POOL, AML_COMPUTE, VM, VMSS, CreateOnly, create_only
from ...catalog.demand import collect
from ...catalog.pricing import NO_COST
from ...catalog.words import counted
from ...fakeazure import Refusal
from ...sdk.internals import is_output_unknown
from ..estimate.quota import needs
from ..run.plan import Plan, refusal_json
from ..run.policy_config import PolicySettings
from ..run.runtime import SECRET_SHOWN_AS, RecordedResource
from ..run.violation import Violation
from .guardrail import CostGuardrail, cost_guardrail
from .renames import renames

Status = Literal["added", "removed", "renamed", "changed", "unchanged"]

# What replacing a GPU pool or cluster stops, per type.
INTERRUPTS: Mapping[str, str] = {
    AKS_POOL: "every node of the pool is drained and deleted; GPU pods are evicted and wait until the new pool's "
    "nodes are up",
    AKS_CLUSTER: "the whole cluster is deleted and created again; every workload and Kubernetes object on it goes",
    VMSS: "every instance is deleted; jobs running on the nodes stop and the nodes' local disks are lost",
    VM: "the VM is deleted; what runs on it stops",
    AML_COMPUTE: "the cluster is deleted; jobs running or queued on it fail and must be submitted again",
}
ALLOW_REPLACE = re.compile(r"^\s*#\s*gpu-stacks:\s*allow-replace\s+(\S+)", re.MULTILINE)


class _Absent:
    """A property one side does not set."""

    def __repr__(self) -> str:
        return "(not set)"


ABSENT = _Absent()


@dataclass(frozen=True)
class PropertyChange:
    path: str
    old: Any  # as shown: secrets "[secret]", ABSENT when not set
    new: Any
    forces: CreateOnly | None  # the create-only row that makes it a replacement

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path}
        if self.old is not ABSENT:
            out["old"] = self.old
        if self.new is not ABSENT:
            out["new"] = self.new
        if self.forces:
            out["replaces"] = {"how": self.forces.how, "source": self.forces.source}
        return out


@dataclass(frozen=True)
class ResourceRef:
    urn: str
    type: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"urn": self.urn, "type": self.type, "name": self.name}


@dataclass
class ResourceChange:
    urn: str
    type: str
    name: str
    changes: list[PropertyChange]
    renamed_from: str | None = None  # the old URN: a rename without an alias
    interrupts: str | None = None  # set for a GPU pool or cluster that is replaced
    acknowledged: bool = False

    @property
    def replaces(self) -> bool:
        return self.renamed_from is not None or any(c.forces for c in self.changes)

    @property
    def blocking(self) -> bool:
        return self.replaces and self.interrupts is not None and not self.acknowledged

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "urn": self.urn,
            "type": self.type,
            "name": self.name,
            "action": "replace" if self.replaces else "update",
            "changes": [c.to_json() for c in self.changes],
        }
        if self.renamed_from:
            out["renamedFrom"] = self.renamed_from
        if self.interrupts and self.replaces:
            out["gpuReplacement"] = {"interrupts": self.interrupts, "acknowledged": self.acknowledged}
        return out


@dataclass(frozen=True)
class CostDelta:
    busy_before: float
    busy_after: float
    idle_before: float
    idle_after: float
    budget_before: float | None = None  # the stack's monthly budget, None without one
    budget_after: float | None = None

    @property
    def busy(self) -> float:
        return round(self.busy_after - self.busy_before, 2)

    @property
    def idle(self) -> float:
        return round(self.idle_after - self.idle_before, 2)

    def to_json(self) -> dict[str, float | None]:
        return {
            "busyMonthlyUsdBefore": self.busy_before,
            "busyMonthlyUsdAfter": self.busy_after,
            "busyMonthlyUsdDelta": self.busy,
            "idleMonthlyUsdBefore": self.idle_before,
            "idleMonthlyUsdAfter": self.idle_after,
            "idleMonthlyUsdDelta": self.idle,
            "budgetMonthlyUsdBefore": self.budget_before,
            "budgetMonthlyUsdAfter": self.budget_after,
        }


@dataclass(frozen=True)
class QuotaDelta:
    region: str
    family: str
    before: int
    after: int
    usage: Usage | None = None  # the subscription's counter, from --usage

    @property
    def fits(self) -> bool | None:
        return None if self.usage is None else self.after <= self.usage.free

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"region": self.region, "family": self.family, "before": self.before, "after": self.after}
        if self.usage is not None:
            out.update(limit=self.usage.limit, used=self.usage.current, free=self.usage.free, fits=self.fits)
        return out


@dataclass(frozen=True)
class Side:
    """One revision's plan of a stack, with the region its resources default to."""

    plan: Plan
    region: str | None


@dataclass
class StackDiff:
    stack: str
    status: Status
    stack_file: str
    base_stack: str | None = None  # the name at BASE, for a renamed stack
    added: list[ResourceRef] = field(default_factory=list)
    removed: list[ResourceRef] = field(default_factory=list)
    updated: list[ResourceChange] = field(default_factory=list)
    replaced: list[ResourceChange] = field(default_factory=list)
    unchanged: int = 0
    cost: CostDelta = CostDelta(0.0, 0.0, 0.0, 0.0)
    new_violations: list[Violation] = field(default_factory=list)
    resolved_violations: list[Violation] = field(default_factory=list)
    new_refusals: list[Refusal] = field(default_factory=list)
    resolved_refusals: list[Refusal] = field(default_factory=list)
    quota: list[QuotaDelta] = field(default_factory=list)
    guardrail: CostGuardrail = CostGuardrail()  # limit-stack-cost on the full-scale increase
    head_plan: Plan | None = field(default=None, repr=False, compare=False)  # drawn in the markdown; not in the JSON

    @property
    def gpu_replacements(self) -> list[ResourceChange]:
        return [c for c in self.replaced if c.interrupts]

    @property
    def new_mandatory(self) -> list[Violation]:
        return [v for v in self.new_violations if v.mandatory]

    @property
    def problems(self) -> list[str]:
        """Why this stack's change fails the diff (exit 1); empty when it passes."""
        out = [counted(len(self.new_mandatory), "new mandatory violation")] if self.new_mandatory else []
        if self.new_refusals:
            out.append(counted(len(self.new_refusals), "new Azure refusal"))
        blocking = [c for c in self.replaced if c.blocking]
        if blocking:
            out.append(counted(len(blocking), "unacknowledged GPU pool/cluster replacement"))
        if self.guardrail.blocks:
            out.append(f"cost guardrail: {'; '.join(self.guardrail.exceeded)}")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "stack": self.stack,
            "status": self.status,
            "baseStack": self.base_stack,
            "stackFile": self.stack_file,
            "added": [r.to_json() for r in self.added],
            "removed": [r.to_json() for r in self.removed],
            "updated": [c.to_json() for c in self.updated],
            "replaced": [c.to_json() for c in self.replaced],
            "unchanged": self.unchanged,
            "cost": self.cost.to_json(),
            "violations": {
                "new": [v.to_json() for v in self.new_violations],
                "resolved": [v.to_json() for v in self.resolved_violations],
            },
            "refusals": {
                "new": [refusal_json(r) for r in self.new_refusals],
                "resolved": [refusal_json(r) for r in self.resolved_refusals],
            },
            "quota": [q.to_json() for q in self.quota],
            "costGuardrail": self.guardrail.to_json(),
            "problems": self.problems,
        }


def diff_stack(
    name: str,
    base: Side | None,
    head: Side | None,
    *,
    allowed: Collection[str] = (),
    usage: Mapping[str, Usage] | None = None,
    stack_file_text: str = "",
    policy_settings: Mapping[str, PolicySettings] | None = None,
) -> StackDiff:
    """The change from `base` to `head` (either may be None: a stack added or removed)."""
    plan = (head or base).plan  # type: ignore[union-attr]
    status: Status = "added" if base is None else "removed" if head is None else "changed"
    if base and head and base.plan.stack != head.plan.stack:
        status = "renamed"
    out = StackDiff(name, status, plan.stack_file, base.plan.stack if status == "renamed" and base else None)
    out.head_plan = head.plan if head else None
    acknowledged = set(allowed) | set(ALLOW_REPLACE.findall(stack_file_text))
    old = {_key(r.urn): r for r in base.plan.resources} if base else {}
    new = {_key(r.urn): r for r in head.plan.resources} if head else {}
    for key, r in new.items():
        if key in old:
            change = _compare(old[key], r, None, acknowledged)
            if change is None:
                out.unchanged += 1
            else:
                (out.replaced if change.replaces else out.updated).append(change)
    gone = [old[k] for k in old if k not in new]
    born = [new[k] for k in new if k not in old]
    for was, now in renames(gone, born):
        gone.remove(was)
        born.remove(now)
        change = _compare(was, now, was.urn, acknowledged)
        out.replaced.append(change or ResourceChange(now.urn, now.type, now.name, [], renamed_from=was.urn))
    out.added = [ResourceRef(r.urn, r.type, r.name) for r in born]
    out.removed = [ResourceRef(r.urn, r.type, r.name) for r in gone]
    out.cost = _cost(base, head)
    out.guardrail = cost_guardrail(out.cost.busy_before, out.cost.busy_after, policy_settings)
    out.new_violations, out.resolved_violations = _changed(_violations(base), _violations(head))
    out.new_refusals, out.resolved_refusals = _changed(_refusals(base), _refusals(head))
    out.quota = _quota(base, head, usage)
    if status == "changed" and not _any_change(out):
        out.status = "unchanged"
    return out


def _any_change(d: StackDiff) -> bool:
    lists = (
        d.added,
        d.removed,
        d.updated,
        d.replaced,
        d.new_violations,
        d.resolved_violations,
        d.new_refusals,
        d.resolved_refusals,
    )
    return any(lists) or bool(d.cost.busy or d.cost.idle) or d.cost.budget_before != d.cost.budget_after


def _key(urn: str) -> str:
    """The URN without its stack name, so that a renamed stack's resources still match."""
    return urn.split("::", 1)[1] if urn.startswith("urn:pulumi:") and "::" in urn else urn


def _compare(
    old: RecordedResource, new: RecordedResource, renamed_from: str | None, acknowledged: set[str]
) -> ResourceChange | None:
    changes = list(
        _property_changes(new.type, old.plain_inputs(), new.plain_inputs(), old.shown_inputs(), new.shown_inputs(), "")
    )
    if old.protect != new.protect:
        changes.append(PropertyChange("(option) protect", old.protect, new.protect, None))
    if not changes and renamed_from is None:
        return None
    change = ResourceChange(new.urn, new.type, new.name, changes, renamed_from=renamed_from)
    if change.replaces and new.type in INTERRUPTS and (_runs_gpus(old) or _runs_gpus(new)):
        change.interrupts = INTERRUPTS[new.type]
        change.acknowledged = bool({new.urn, old.urn} & acknowledged)
    return change


def _property_changes(
    type_: str, old: Any, new: Any, old_shown: Any, new_shown: Any, path: str
) -> Iterable[PropertyChange]:
    """Each leaf that differs, with the values as shown (secrets masked)."""
    if _same(old, new):
        return
    secret = SECRET_SHOWN_AS in (old_shown, new_shown)
    if isinstance(old, dict) and isinstance(new, dict) and not secret:
        for k in [*old, *(k for k in new if k not in old)]:
            yield from _property_changes(
                type_,
                old.get(k, ABSENT),
                new.get(k, ABSENT),
                _get(old_shown, k),
                _get(new_shown, k),
                f"{path}.{k}" if path else k,
            )
        return
    if isinstance(old, list) and isinstance(new, list) and not secret and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from _property_changes(type_, a, b, _item(old_shown, i), _item(new_shown, i), f"{path}[{i}]")
        return
    shown_old = ABSENT if old is ABSENT else old_shown
    shown_new = ABSENT if new is ABSENT else new_shown
    yield PropertyChange(path, shown_old, shown_new, create_only(type_, path))


def _same(a: Any, b: Any) -> bool:
    if is_output_unknown(a) and is_output_unknown(b):
        return True
    return bool(a == b)


def _get(value: Any, key: str) -> Any:
    return value.get(key, ABSENT) if isinstance(value, dict) else ABSENT


def _item(value: Any, index: int) -> Any:
    return value[index] if isinstance(value, list) and index < len(value) else ABSENT


def _runs_gpus(resource: RecordedResource) -> bool:
    sizes = catalog()
    return any((s := sizes.find(d.size)) is not None and s.is_gpu for d in collect([resource]))


def _cost(base: Side | None, head: Side | None) -> CostDelta:
    # The monthly figures as the plans report them (to the cent), so a diff's delta is theirs.
    before, after = (side.plan.cost if side else NO_COST for side in (base, head))
    return CostDelta(
        float(before.monthly_usd),
        float(after.monthly_usd),
        float(before.idle_monthly_usd),
        float(after.idle_monthly_usd),
        before.budget_monthly_usd,
        after.budget_monthly_usd,
    )


def _violations(side: Side | None) -> dict[tuple[str, ...], Violation]:
    if side is None:
        return {}
    return {(v.policy, _key(v.urn), v.message): v for v in side.plan.violations}


def _refusals(side: Side | None) -> dict[tuple[str, ...], Refusal]:
    if side is None:
        return {}
    return {(r.resource, r.code, r.message): r for r in side.plan.refusals}


def _changed(
    before: Mapping[tuple[str, ...], Any], after: Mapping[tuple[str, ...], Any]
) -> tuple[list[Any], list[Any]]:
    return [v for k, v in after.items() if k not in before], [v for k, v in before.items() if k not in after]


def _quota(base: Side | None, head: Side | None, usage: Mapping[str, Usage] | None) -> list[QuotaDelta]:
    def vcpus(side: Side | None) -> dict[tuple[str, str], int]:
        if side is None:
            return {}
        found, _ = needs(collect(side.plan.resources, side.region))
        return {(n.region, n.family): n.vcpus for n in found}

    before, after = vcpus(base), vcpus(head)
    out = []
    for region, family in [*before, *(k for k in after if k not in before)]:
        b, a = before.get((region, family), 0), after.get((region, family), 0)
        if a != b:
            out.append(QuotaDelta(region, family, b, a, usage.get(family_key(family)) if usage is not None else None))
    return out
