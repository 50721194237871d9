"""Drive the policy pack in tests as the engine does (Configure, Analyze, AnalyzeStack), in-process.

Fixture resources are named `pass_*` when the test expects no violation from them and `fail_*` when
it expects one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from azure_gpu_stacks.engine.run.policy_config import resolve
from azure_gpu_stacks.engine.run.policy_run import analyze, pack_policies
from azure_gpu_stacks.engine.run.runtime import RecordedResource

STACK = "urn:pulumi:test::azure-gpu-stacks::"


@dataclass
class Res:
    """A resource as a program would register it."""

    type: str
    name: str
    props: dict[str, Any]
    depends_on: Sequence[str] = field(default_factory=tuple)  # names of other Res

    @property
    def urn(self) -> str:
        return f"{STACK}{self.type}::{self.name}"


def run_pack(resources: Sequence[Res], config: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every violation, as `gpu-stacks --format json` reports it."""
    urns = {r.name: r.urn for r in resources}
    recorded = [
        RecordedResource(
            urn=r.urn,
            type=r.type,
            name=r.name,
            parent=None,
            custom=True,
            protect=False,
            inputs=r.props,
            dependencies=tuple(urns[d] for d in r.depends_on),
        )
        for r in resources
    ]
    return [v.to_json() for v in analyze(recorded, resolve(list(pack_policies()), dict(config or {})))]


def found(resources: Sequence[Res], policy: str, config: Mapping[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """(level, resource, message) of each violation of `policy`."""
    return [(v["level"], v["resource"], v["message"]) for v in run_pack(resources, config) if v["policy"] == policy]
