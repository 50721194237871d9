"""Run a plan's recorded resources through the policy pack exactly as the Pulumi engine does.

The engine talks to the pack over gRPC: `Configure` with the merged policy config, `Analyze` for
each resource with its inputs, then `AnalyzeStack` with every resource. Here the same requests go to
the same servicer object the pack's gRPC server wraps (`pulumi_policy`'s, through `sdk.internals`),
in-process. Chosen over calling each policy's `validate` directly because the servicer is what
decides the engine-visible behaviour: unknown-value proxies and the "can't run during preview"
diagnostic, secret unwrapping, enforcement-level resolution, "not applicable", the message format.
The servicer is private API of pulumi-policy: tests/sdk/test_sdk_internals.py holds its contract, and
tests/policies/pack/test_policy_pack_grpc.py drives the real subprocess over gRPC, so a change there fails a test
rather than drifting silently.

Where this differs from `pulumi preview --policy-pack`: the engine analyzes inputs after the
provider's Check (provider defaults such as `location` may appear), and gives `AnalyzeStack` each
resource's outputs; offline, both see the program's inputs (outputs are a superset of inputs for
the properties the policies read).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf import struct_pb2
from pulumi_policy import EnforcementLevel, Policy

from ...policies.registry import PACK_NAME, PACK_VERSION, policies
from ...sdk.internals import (
    UNKNOWN_STRING_VALUE,
    analyzer_pb2,
    policy_properties_read_once,
    policy_servicer,
    violation_message,
)
from ..errors import InputError
from .policy_config import PolicySettings, resolve
from .runtime import RecordedResource
from .violation import STACK_RESOURCE, Violation

_LEVELS = {
    analyzer_pb2.ADVISORY: "advisory",
    analyzer_pb2.MANDATORY: "mandatory",
    analyzer_pb2.REMEDIATE: "remediate",
    analyzer_pb2.DISABLED: "disabled",
}
_TO_WIRE_LEVEL = {name: number for number, name in _LEVELS.items()}
_SEVERITIES = {
    analyzer_pb2.POLICY_SEVERITY_LOW: "low",
    analyzer_pb2.POLICY_SEVERITY_MEDIUM: "medium",
    analyzer_pb2.POLICY_SEVERITY_HIGH: "high",
    analyzer_pb2.POLICY_SEVERITY_CRITICAL: "critical",
}


@functools.cache
def pack_policies() -> tuple[Policy, ...]:
    return tuple(policies())


def analyze(
    resources: Sequence[RecordedResource], settings: Mapping[str, PolicySettings] | None = None
) -> tuple[Violation, ...]:
    """Every violation of the pack's policies, in the engine's order: per resource, then the stack."""
    pack = list(pack_policies())
    servicer = policy_servicer(PACK_NAME, PACK_VERSION, pack, EnforcementLevel.ADVISORY)
    servicer.Configure(configure_request(settings if settings is not None else resolve(pack)), None)
    by_urn = {r.urn: r for r in resources}
    violations: list[Violation] = []
    with policy_properties_read_once():  # each resource's properties converted once, not once per policy
        for resource in resources:
            response = servicer.Analyze(analyze_request(resource), None)
            violations += [_violation(d, resource.urn, by_urn) for d in response.diagnostics]
        response = servicer.AnalyzeStack(
            analyzer_pb2.AnalyzeStackRequest(resources=[analyzer_resource(r) for r in resources]), None
        )
    violations += [_violation(d, "", by_urn) for d in response.diagnostics]
    return tuple(violations)


def configure_request(settings: Mapping[str, PolicySettings]) -> analyzer_pb2.ConfigureAnalyzerRequest:
    """What the engine sends `Configure`: every policy with its resolved level and properties."""
    config = {}
    for name, s in settings.items():
        properties = struct_pb2.Struct()
        properties.update(s.properties)
        config[name] = analyzer_pb2.PolicyConfig(enforcementLevel=_TO_WIRE_LEVEL[s.level], properties=properties)
    return analyzer_pb2.ConfigureAnalyzerRequest(policyConfig=config)


def analyze_request(resource: RecordedResource) -> analyzer_pb2.AnalyzeRequest:
    return analyzer_pb2.AnalyzeRequest(**_described(resource))


def analyzer_resource(resource: RecordedResource) -> analyzer_pb2.AnalyzerResource:
    return analyzer_pb2.AnalyzerResource(
        **_described(resource), parent=resource.parent or "", dependencies=list(resource.dependencies)
    )


def _described(resource: RecordedResource) -> dict[str, Any]:
    """What the engine tells a policy pack of a resource in both Analyze and AnalyzeStack."""
    return {
        "type": resource.type,
        "name": resource.name,
        "urn": resource.urn,
        "properties": _resource_properties(resource),
        "options": _options(resource),
    }


def _options(resource: RecordedResource) -> analyzer_pb2.AnalyzerResourceOptions:
    return analyzer_pb2.AnalyzerResourceOptions(
        protect=resource.protect,
        ignoreChanges=list(resource.ignore_changes),
        deleteBeforeReplace=resource.delete_before_replace,
        parent=resource.parent or "",
    )


def wire_properties(inputs: Mapping[str, Any]) -> struct_pb2.Struct:
    """Inputs as the engine puts them on the wire: unknowns as the unknown sentinel, secrets enveloped."""
    struct = struct_pb2.Struct()
    struct.update({k: _wire(v, k) for k, v in inputs.items()})
    return struct


# Deepest nesting of maps and lists a property may have. The engine sends properties to the pack as
# a protobuf Struct, each level at least two nested messages (Value, then Struct or ListValue), and
# protobuf refuses to parse messages nested deeper than 100 (its default recursion limit); in-process,
# pulumi-policy's JSON conversion recurses per level too. No ARM schema comes near this depth.
MAX_PROPERTY_DEPTH = 48


class UnreadableProperty(ValueError):
    """A property the pack cannot read (see `_wire`)."""

    def __init__(self, path: str, found: str, allowed: str):
        super().__init__(f"{path}: {found}; allowed: {allowed}")


def _resource_properties(resource: RecordedResource) -> struct_pb2.Struct:
    try:
        return wire_properties(resource.inputs)
    except UnreadableProperty as exc:
        raise InputError(
            f"{resource.name} [{resource.type}]: input {exc} (the policy pack cannot read it, under `pulumi "
            "preview` either)"
        ) from None


def _wire(value: Any, path: str = "", depth: int = 1) -> Any:
    if isinstance(value, (dict, list, tuple)) and depth > MAX_PROPERTY_DEPTH:
        raise UnreadableProperty(
            path, "nested deeper than the engine sends", f"at most {MAX_PROPERTY_DEPTH} levels of maps and lists"
        )
    if isinstance(value, dict):
        return {str(k): _wire(v, f"{path}.{k}" if path else str(k), depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_wire(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, float) and not math.isfinite(value):
        # pulumi-policy turns the request into JSON (json_format.MessageToDict), which raises on
        # infinity and NaN: the pack would fail on this resource, not judge it.
        raise UnreadableProperty(path, str(value), "a finite number")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return UNKNOWN_STRING_VALUE  # pulumi.output.Unknown, the only other thing recorded inputs hold


def _violation(diagnostic: Any, urn: str, by_urn: Mapping[str, RecordedResource]) -> Violation:
    """The one place an analyzer diagnostic is decoded."""
    urn = diagnostic.urn or urn
    resource = by_urn.get(urn)
    return Violation(
        policy=diagnostic.policyName,
        level=_LEVELS.get(diagnostic.enforcementLevel, "advisory"),
        severity=_SEVERITIES.get(diagnostic.severity, "unspecified"),
        resource=resource.name if resource else STACK_RESOURCE,
        type=resource.type if resource else "",
        urn=urn,
        message=violation_message(diagnostic),
        description=diagnostic.description,
    )
