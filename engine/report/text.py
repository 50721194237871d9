"""Plans as people read them: a resource tree with each resource's key properties, the outputs,
what Azure would refuse, and a verdict."""

from __future__ import annotations

from typing import Any

from ...catalog.shapes import VMSS
from ...catalog.words import counted
from ...sdk.values import dig
from ..run.outcome import Outcome, StackFailure
from ..run.plan import Plan
from ..run.runtime import RecordedResource
from ..run.violation import Violation
from .cost import cost_section

# Per resource type, the properties worth a glance: (label, path into the engine inputs).
KEY_PROPERTIES: dict[str, list[tuple[str, tuple[str | int, ...]]]] = {
    "azure-native:resources:ResourceGroup": [("location", ("location",))],
    "azure-native:network:VirtualNetwork": [("range", ("addressSpace", "addressPrefixes", 0))],
    "azure-native:network:Subnet": [("range", ("addressPrefix",))],
    "azure-native:network:NetworkInterface": [("accelerated networking", ("enableAcceleratedNetworking",))],
    "azure-native:network:PublicIPAddress": [("sku", ("sku", "name"))],
    "azure-native:compute:VirtualMachine": [
        ("size", ("hardwareProfile", "vmSize")),
        ("priority", ("priority",)),
        ("region", ("location",)),
    ],
    "azure-native:compute:VirtualMachineExtension": [("type", ("type",)), ("version", ("typeHandlerVersion",))],
    "azure-native:compute:ProximityPlacementGroup": [("for", ("intent", "vmSizes", 0)), ("zone", ("zones", 0))],
    VMSS: [
        ("size", ("sku", "name")),
        ("nodes", ("sku", "capacity")),
        ("mode", ("orchestrationMode",)),
        ("single placement group", ("singlePlacementGroup",)),
        ("overprovision", ("overprovision",)),
        ("upgrades", ("upgradePolicy", "mode")),
        ("image", ("virtualMachineProfile", "storageProfile", "imageReference", "offer")),
        ("priority", ("virtualMachineProfile", "priority")),
        ("zone", ("zones", 0)),
    ],
    "azure-native:devtestlab:GlobalSchedule": [("at", ("dailyRecurrence", "time")), ("time zone", ("timeZoneId",))],
    "azure-native:consumption:Budget": [("USD", ("amount",)), ("per", ("timeGrain",))],
    "azure-native:storage:StorageAccount": [
        ("sku", ("sku", "name")),
        ("public blob access", ("allowBlobPublicAccess",)),
        ("min TLS", ("minimumTlsVersion",)),
    ],
    "azure-native:keyvault:Vault": [
        ("rbac", ("properties", "enableRbacAuthorization")),
        ("soft delete days", ("properties", "softDeleteRetentionInDays")),
        ("purge protection", ("properties", "enablePurgeProtection")),
    ],
    "azure-native:operationalinsights:Workspace": [("retention days", ("retentionInDays",))],
    "azure-native:applicationinsights:Component": [("ingestion", ("ingestionMode",))],
    "azure-native:containerregistry:Registry": [("sku", ("sku", "name")), ("admin user", ("adminUserEnabled",))],
    "azure-native:machinelearningservices:Workspace": [
        ("identity", ("identity", "type")),
        ("managed network", ("managedNetwork", "isolationMode")),
    ],
    "azure-native:machinelearningservices:Compute": [
        ("size", ("properties", "properties", "vmSize")),
        ("priority", ("properties", "properties", "vmPriority")),
        ("min nodes", ("properties", "properties", "scaleSettings", "minNodeCount")),
        ("max nodes", ("properties", "properties", "scaleSettings", "maxNodeCount")),
        ("idle", ("properties", "properties", "scaleSettings", "nodeIdleTimeBeforeScaleDown")),
        ("node public IP", ("properties", "properties", "enableNodePublicIp")),
        ("remote login", ("properties", "properties", "remoteLoginPortPublicAccess")),
    ],
    "azure-native:containerservice:ManagedCluster": [
        ("kubernetes", ("kubernetesVersion",)),
        ("system size", ("agentPoolProfiles", 0, "vmSize")),
        ("system nodes", ("agentPoolProfiles", 0, "count")),
        ("azure rbac", ("aadProfile", "enableAzureRBAC")),
        ("local accounts disabled", ("disableLocalAccounts",)),
    ],
    "azure-native:containerservice:AgentPool": [
        ("size", ("vmSize",)),
        ("mode", ("mode",)),
        ("min", ("minCount",)),
        ("max", ("maxCount",)),
        ("priority", ("scaleSetPriority",)),
        ("taints", ("nodeTaints",)),
        ("driver", ("gpuProfile", "driver")),
        ("mig", ("gpuInstanceProfile",)),
    ],
    "azure-native:authorization:RoleAssignment": [("principal type", ("principalType",))],
    "kubernetes:core/v1:Namespace": [("name", ("metadata", "name"))],
    "kubernetes:apps/v1:DaemonSet": [
        ("namespace", ("metadata", "namespace")),
        ("image", ("spec", "template", "spec", "containers", 0, "image")),
    ],
}


def _summary(resource: RecordedResource) -> str:
    inputs = resource.shown_inputs()
    parts = []
    for label, path in KEY_PROPERTIES.get(resource.type, []):
        value = dig(inputs, *path)
        if value is not None:
            parts.append(f"{label}={_fmt(value)}")
    if resource.type == "azure-native:network:NetworkSecurityGroup":
        parts.append(f"rules={len(inputs.get('securityRules') or [])}")
    if resource.type == VMSS:
        profile = inputs.get("virtualMachineProfile") or {}
        extensions = dig(profile, "extensionProfile", "extensions") or []
        parts += [f"extension={e.get('type')}" for e in extensions if isinstance(e, dict)]
        parts.append(f"health check={'on' if dig(profile, 'osProfile', 'customData') else 'off'}")
    if resource.type == "azure-native:consumption:Budget":
        parts.append(f"notifications={len(inputs.get('notifications') or {})}")
    if resource.protect:
        parts.append("protected")
    return "  ".join(parts)


def _fmt(value: Any) -> str:
    if value is None:
        return "(known after deployment)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list):
        return ",".join(_fmt(v) for v in value)
    return str(value)


# After a resource the offline engine does not model (Plan.not_checked): another provider's, or an
# azure-native type without a rule.
NOT_CHECKED = "(not checked offline: the offline engine does not model this type)"


def render_text(plan: Plan) -> str:
    lines = [
        f"Plan of {plan.project}/{plan.stack} ({plan.stack_file}), offline, as of {plan.as_of}: "
        f"{counted(len(plan.resources), 'resource')}",
        "",
    ]
    children: dict[str | None, list[RecordedResource]] = {}
    for r in plan.resources:
        children.setdefault(r.parent, []).append(r)

    not_checked = set(plan.not_checked)

    def walk(parent: str | None, depth: int) -> None:
        for r in children.get(parent, []):
            summary = "  ".join(part for part in (_summary(r), NOT_CHECKED if r.urn in not_checked else "") if part)
            lines.append(f"{'  ' * (depth + 1)}{r.name}  [{r.type}]" + (f"  {summary}" if summary else ""))
            walk(r.urn, depth + 1)

    walk(None, 0)
    if plan.outputs:
        lines += ["", "Outputs:"]
        width = max(len(k) for k in plan.outputs)
        lines += [f"  {k.ljust(width)}  {_fmt(v)}" for k, v in plan.shown_outputs().items()]
    if plan.placeholders:
        lines += [
            "",
            "Secrets offline: " + ", ".join(plan.placeholders) + " (placeholders; only `pulumi up` reads them)",
        ]
    lines += cost_section(plan.cost)
    if plan.warnings:
        lines += ["", "Warnings:"] + [f"  - {w}" for w in plan.warnings]
    if plan.program_output:
        lines += ["", "Program output (stdout and stderr):"] + [
            f"  | {line}" for line in plan.program_output.rstrip("\n").split("\n")
        ]
    if plan.errors:
        lines += ["", "Errors the program logged (pulumi.log.error):"] + [f"  - {e}" for e in plan.errors]
    if plan.refusals:
        lines += ["", "Azure would refuse:"]
        lines += [f"  - {r.resource} [{r.type}]: {r.code}: {r.message}" for r in plan.refusals]
    if plan.violations:
        lines += ["", "Policy violations:"] + [f"  - {violation_line(v)}" for v in plan.violations]
    lines += ["", verdict(plan)]
    return "\n".join(lines)


def check_lines(plan: Outcome) -> list[str]:
    """One stack in `gpu-stacks check`'s text report: its verdict, then what Azure would refuse and each violation."""
    if isinstance(plan, StackFailure):
        return [f"NOT PLANNED: {plan.stack}: {plan.message}"]
    lines = [verdict(plan)]
    lines += [f"  - {r.resource} [{r.type}]: {r.code}: {r.message}" for r in plan.refusals]
    lines += [f"  - {violation_line(v)}" for v in plan.violations]
    return lines


def violation_line(v: Violation) -> str:
    return f"[{v.level}] {v.policy}: {v.resource}: {v.message}"


def verdict(plan: Plan) -> str:
    notes = f", {counted(plan.advisory, 'advisory policy note')}" if plan.advisory else ""
    notes += f", {len(plan.not_checked)} not checked offline" if plan.not_checked else ""
    if plan.exit_code == 0:
        return f"OK: {plan.stack} deploys as planned ({counted(len(plan.resources), 'resource')}{notes})."
    # what failed, and only that: a policy-only failure says nothing of refusals it does not have
    found = [
        f"{counted(len(plan.refusals), 'resource')} Azure would refuse" if plan.refusals else "",
        counted(plan.mandatory, "mandatory policy violation") if plan.mandatory else "",
        f"{counted(len(plan.errors), 'error')} the program logged" if plan.errors else "",
    ]
    return f"FAILED: {plan.stack}: {'; '.join(f for f in found if f) or 'the program failed'}{notes}."
