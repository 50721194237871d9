"""Drive the policy pack in tests as the engine does (Configure, Analyze, AnalyzeStack), in-process.

Fixture resources are named `pass_*` when the test expects no violation from them and `fail_*` when
it expects one. Each policy's tests (tests/policies/test_<policy>.py) start from a compliant resource
and change one thing (`changed`); facts about sizes come from the catalog's data file as written
(`catalog_size`), not from the catalog's code under test. A component is a `Res` with `custom=False`;
a resource registered under it names it as its `parent`, and a stack policy sees that parent resource.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml
from azure_gpu_stacks.engine.run.policy_config import resolve
from azure_gpu_stacks.engine.run.policy_run import analyze, pack_policies
from azure_gpu_stacks.engine.run.runtime import RecordedResource

from tests.conftest import REPO

STACK = "urn:pulumi:test::azure-gpu-stacks::"
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"  # a value not known before deployment, as the engine sends it


@dataclass
class Res:
    """A resource as a program would register it."""

    type: str
    name: str
    props: dict[str, Any]
    depends_on: Sequence[str] = field(default_factory=tuple)  # names of other Res
    parent: str | None = None  # the name of the Res it is registered under (a component), None: the stack
    custom: bool = True  # False for a component resource (AksGpuPool...), which has no provider of its own

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
            parent=urns[r.parent] if r.parent is not None else None,
            custom=r.custom,
            protect=False,
            inputs=r.props,
            dependencies=tuple(urns[d] for d in r.depends_on),
        )
        for r in resources
    ]
    return [v.to_json() for v in analyze(recorded, resolve(list(pack_policies()), dict(config or {})))]


def found(resources: Sequence[Res], policy: str, config: Mapping[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """(level, resource, message) of each violation of `policy`. Only `policy` runs: the others are disabled
    (unless `config` configures them), so that a test of one policy runs one policy's code."""
    only = {p.name: "disabled" for p in pack_policies() if p.name != policy} | dict(config or {})
    return [(v["level"], v["resource"], v["message"]) for v in run_pack(resources, only) if v["policy"] == policy]


def changed(props: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """A deep copy of `props` with `path` set to `value` (or removed when value is ...): the one change."""
    result = copy.deepcopy(props)
    target = result
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return result


@functools.cache
def catalog_document() -> dict[str, Any]:
    """catalog/vm_sizes.yaml as written (its `prices.sources`, `sizes`, `regions`), read once."""
    text = (REPO / "catalog" / "vm_sizes.yaml").read_text(encoding="utf-8")
    # libyaml's parser where PyYAML has it (the same data; 0.3 s less, and test modules read it when collected)
    data: dict[str, Any] = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return data


@functools.cache
def _catalog_sizes() -> dict[str, dict[str, Any]]:
    return {entry["name"]: entry for entry in catalog_document()["sizes"]}


def catalog_size(name: str) -> dict[str, Any]:
    """The catalog's entry for `name` as catalog/vm_sizes.yaml writes it (prices under prices.<region>.payg/spot)."""
    return _catalog_sizes()[name]


def catalog_entries() -> list[dict[str, Any]]:
    """Every size entry of catalog/vm_sizes.yaml, in the file's order."""
    return list(_catalog_sizes().values())
