"""Usage assumptions: what a usage-based charge (ingestion, operations, storage) is priced on when the program cannot
say, from the shipped defaults (`usage_assumptions.yaml`, one home: each key with its default, unit, bounds, why and
source) and, key by key, from the team's own file beside the project's Pulumi.yaml (`gpu-stacks.usage.yaml`).

The team's file has two optional sections, as infracost's usage file has `resource_type_default_usage` and
`resource_usage` (infracost/infracost `infracost-usage-example.yml` at commit 7789df2, 2026-05-04, read 2026-11-27):

    defaults:                 # every resource of the project
      keyVaultOperationsPerMonth: 200000
    resources:                # one resource, by its Pulumi name; wins over `defaults`
      aml-appi:
        applicationInsightsGbPerMonth: 25

It is found beside the project file, not named by an option: `--usage` already names the subscription's quota usage,
and a file that lives with the project is read by every command (`plan`, `check`, `cost`, `diff`), by each project
of a fleet (`check --root`) and by each revision `diff` compares, and its bytes are in the fleet cache's key with
the project's other files. Bad input is one `InputFileError` line naming the file, the key path, the value and what
is allowed. Every figure that rests on a value says so: "assuming <statement> (your file gpu-stacks.usage.yaml)" for
the team's value, "(shipped default, <source>)" for a default (its why is in the shipped file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from ..inputs.files import InputFileError, load_yaml, shown

USAGE_FILE = "gpu-stacks.usage.yaml"
SHIPPED = Path(__file__).with_name("usage_assumptions.yaml")
SECTIONS = ("defaults", "resources")
YOUR_FILE = f"your file {USAGE_FILE}"


@cache
def shipped_assumptions() -> dict[str, Any]:
    """The shipped defaults: key -> {value, unit, minimum, maximum, integer, statement, why, source, observed}."""
    with SHIPPED.open(encoding="utf-8") as fh:
        data: dict[str, Any] = yaml.safe_load(fh)
    return data["assumptions"]


@dataclass(frozen=True)
class Assumed:
    """One usage value a figure rests on, and where it came from."""

    key: str
    value: float
    yours: bool  # from the team's file, not the shipped default

    def statement(self) -> str:
        """`a Log Analytics workspace ingests 2 GB a day (your file gpu-stacks.usage.yaml)`."""
        row = shipped_assumptions()[self.key]
        said = row["statement"].format(value=number(self.value))
        where = YOUR_FILE if self.yours else f"shipped default, {row['source']}"
        return f"{said} ({where})"

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "from": YOUR_FILE if self.yours else "shipped default"}


@dataclass(frozen=True)
class Usage:
    """The usage values of one project: the team's file's (`defaults`, per resource `resources`) over the shipped."""

    defaults: tuple[tuple[str, float], ...] = ()
    resources: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()
    file: str | None = None  # the team's file as read, None without one
    names: frozenset[str] = field(default_factory=frozenset)  # the resources the file names

    def assumed(self, key: str, resource: str | None = None) -> Assumed:
        """The value of `key` for `resource`: the file's for that resource, else the file's default, else shipped."""
        for name, values in self.resources:
            if name == resource and key in dict(values):
                return Assumed(key, dict(values)[key], True)
        if key in dict(self.defaults):
            return Assumed(key, dict(self.defaults)[key], True)
        return Assumed(key, shipped_assumptions()[key]["value"], False)

    def unknown_resources(self, names: set[str]) -> list[str]:
        """A line for each resource the file names that the stack does not have (its values are then unused)."""
        return [
            f"{self.file}: resources.{name}: no resource of this stack is named {name!r}; its usage values are unused"
            for name in sorted(self.names - names)
        ]


SHIPPED_USAGE = Usage()


def number(value: float) -> str:
    """`2,000,000`, `0.1`, `3.04167`: a figure as a message shows it (never `2e+06`)."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.6g}"


def _values_model() -> type[BaseModel]:
    """One optional field per shipped key, bounded as the shipped file says; no other key."""
    fields: dict[str, Any] = {}
    for key, row in shipped_assumptions().items():
        kind: Any = int if row.get("integer") else float
        bounds = Field(default=None, ge=row["minimum"], le=row["maximum"], allow_inf_nan=False)
        fields[key] = (kind | None, bounds)
    return create_model("UsageValues", __config__=ConfigDict(extra="forbid", strict=True), **fields)


@cache
def _file_model() -> type[BaseModel]:
    values: Any = _values_model()
    fields: dict[str, Any] = {"defaults": (values | None, None), "resources": (dict[str, values] | None, None)}
    return create_model("UsageFile", __config__=ConfigDict(extra="forbid", strict=True), **fields)


def allowed(key: str) -> str:
    """What a key takes, from the shipped file: `a number from 0 to 100000 (GB a day)`."""
    row = shipped_assumptions()[key]
    kind = "a whole number" if row.get("integer") else "a number"
    return f"{kind} from {number(row['minimum'])} to {number(row['maximum'])} ({row['unit']})"


def _problem(label: str, error: Mapping[str, Any]) -> str:
    """One line for pydantic's first error: the file, the key path, the value and what is allowed."""
    loc = [str(part) for part in error["loc"]]
    path = ".".join(loc) or "(top level)"
    kind = error["type"]
    keys = ", ".join(sorted(shipped_assumptions()))
    if kind == "extra_forbidden":
        if len(loc) == 1:
            return f"{label}: {path}: unknown key; allowed: {', '.join(SECTIONS)}"
        return f"{label}: {path}: unknown usage key; allowed: {keys}"
    value = shown(error.get("input"))
    if loc and loc[-1] in shipped_assumptions():
        return f"{label}: {path}: {value}; allowed: {allowed(loc[-1])}"
    if len(loc) == 1 and loc[0] == "resources":
        return f"{label}: {path}: {value}; allowed: a mapping of resource names to usage keys ({keys})"
    if len(loc) == 2 and loc[0] == "resources":
        return f"{label}: {path}: {value}; allowed: a mapping of usage keys ({keys}) to numbers"
    if len(loc) == 1:
        return f"{label}: {path}: {value}; allowed: a mapping of usage keys ({keys}) to numbers"
    return f"{label}: {path}: {value}; allowed: a mapping with {' and '.join(SECTIONS)}"


def read_usage(project_root: Path) -> Usage:
    """The project's usage values: `gpu-stacks.usage.yaml` beside its project file over the shipped defaults, or
    the shipped defaults alone without that file. InputFileError (one line) when the file is not valid."""
    path = project_root / USAGE_FILE
    if not path.exists() and not path.is_symlink():
        return SHIPPED_USAGE
    label = str(path)
    data = load_yaml(path, "project", label)
    if data is None:  # an empty file: nothing overridden
        return Usage(file=label)
    try:
        parsed = _file_model().model_validate(data)
    except ValidationError as exc:
        raise InputFileError(_problem(label, exc.errors()[0])) from None
    defaults = _given(parsed.defaults)  # type: ignore[attr-defined]
    per_resource = parsed.resources or {}  # type: ignore[attr-defined]
    resources = tuple(sorted((name, _given(values)) for name, values in per_resource.items()))
    return Usage(defaults, resources, label, frozenset(per_resource))


def _given(values: BaseModel | None) -> tuple[tuple[str, float], ...]:
    """The keys a section sets, with their values."""
    if values is None:
        return ()
    return tuple(sorted(values.model_dump(exclude_none=True).items()))
