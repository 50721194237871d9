"""The policy configuration file of `--policy-config FILE`, read as `pulumi preview --policy-pack-config` reads it.

Format (JSON, the CLI's): keys are policy names, or `all` for the level of every policy not named;
values are an enforcement level, or an object with `enforcementLevel` and the policy's properties:

    {"all": "mandatory",
     "warn-retiring-vm-sizes": {"enforcementLevel": "advisory", "retiringWindowDays": 180},
     "require-cost-alerts": {"externalBudgetScopes": ["/subscriptions/0000"]}}

Like the CLI, the file is checked against each policy's config schema before anything runs, and the
result names every policy with its resolved level (the file's, else `all`, else the policy's own),
which is what the engine sends the pack's `Configure`.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pulumi_policy import EnforcementLevel, Policy

from ...catalog.clock import parse_day, utc_today
from ...inputs.files import InputFileError, load_json, shown
from ...policies.vm_size_lifecycle import AS_OF_KEY
from ..errors import InputError

ALL = "all"
LEVELS = tuple(level.value for level in EnforcementLevel)
LEVEL_KEY = "enforcementLevel"


@dataclass(frozen=True)
class PolicySettings:
    level: str
    properties: dict[str, Any] = field(default_factory=dict)


def resolve(
    policies: list[Policy], raw: Mapping[str, Any] | None = None, *, source: str = "policy config"
) -> dict[str, PolicySettings]:
    """Each policy's level and properties; raises InputError listing every problem in `raw`."""
    raw = dict(raw or {})
    by_name = {p.name: p for p in policies}
    problems: list[str] = []
    entries: dict[str, tuple[str | None, dict[str, Any]]] = {}
    for key, value in raw.items():
        if key == ALL:
            if not _is_level(value):
                problems.append(f"all: {shown(value)} is not allowed; allowed: {', '.join(LEVELS)}")
            continue
        if key not in by_name:
            close = difflib.get_close_matches(key, list(by_name), n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'? " if close else ""
            problems.append(f"{key}: unknown policy; {hint}allowed: {', '.join(by_name)}, all")
            continue
        entries[key] = _entry(by_name[key], value, problems)
    if problems:
        raise InputError(
            f"{source}: " + ("; ".join(problems) if len(problems) == 1 else "\n  " + "\n  ".join(problems))
        )
    default_level = raw.get(ALL)
    result: dict[str, PolicySettings] = {}
    for policy in policies:
        level, properties = entries.get(policy.name, (None, {}))
        own = policy.enforcement_level.value if policy.enforcement_level else EnforcementLevel.ADVISORY.value
        result[policy.name] = PolicySettings(level or default_level or own, properties)
    return result


def load(path: Path, policies: list[Policy]) -> dict[str, PolicySettings]:
    """Read and check a policy config file."""
    try:
        raw = load_json(path, "policy-config")
    except InputFileError as exc:
        raise InputError(str(exc)) from None
    if not isinstance(raw, dict):
        raise InputError(
            f"{path}: expected a JSON object of policy names to levels or settings, got {type(raw).__name__}"
        )
    return resolve(policies, raw, source=str(path))


def _is_level(value: Any) -> bool:
    return isinstance(value, str) and value in LEVELS


def _entry(policy: Policy, value: Any, problems: list[str]) -> tuple[str | None, dict[str, Any]]:
    if isinstance(value, str):
        if not _is_level(value):
            problems.append(f"{policy.name}: {shown(value)} is not allowed; allowed: {', '.join(LEVELS)}, or an object")
        return value, {}
    if not isinstance(value, dict):
        problems.append(f"{policy.name}: {shown(value)} is not allowed; allowed: an enforcement level or an object")
        return None, {}
    level = value.get(LEVEL_KEY)
    if level is not None and not _is_level(level):
        problems.append(f"{policy.name}.{LEVEL_KEY}: {shown(level)} is not allowed; allowed: {', '.join(LEVELS)}")
    schema = (policy.config_schema.properties if policy.config_schema else {}) or {}
    properties: dict[str, Any] = {}
    for key, given in value.items():
        if key == LEVEL_KEY:
            continue
        if key not in schema:
            allowed = ", ".join([LEVEL_KEY, *schema])
            problems.append(f"{policy.name}.{key}: unknown property; allowed: {allowed}")
            continue
        problem = _type_problem(given, schema[key])
        if problem:
            problems.append(f"{policy.name}.{key}: {shown(given)} is not allowed; allowed: {problem}")
            continue
        properties[key] = given
    return level, properties


_KINDS: dict[str, tuple[tuple[type, ...], str]] = {
    "integer": ((int,), "a whole number"),
    "number": ((int, float), "a number"),
    "boolean": ((bool,), "true or false"),
    "string": ((str,), "a string"),
    "array": ((list,), "a list"),
}


def _type_problem(value: Any, spec: Mapping[str, Any]) -> str | None:
    """What is allowed, when `value` does not fit `spec` (the JSON schema subset the pack uses)."""
    kinds, label = _KINDS.get(str(spec.get("type")), ((object,), "any value"))
    minimum = spec.get("minimum")
    if minimum is not None:
        label += f" of at least {minimum}"
    item_spec = spec.get("items") or {}
    if item_spec:
        label += f" of {_KINDS.get(str(item_spec.get('type')), ((object,), 'values'))[1]}s"
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        return label
    if minimum is not None and value < minimum:
        return label
    pattern = spec.get("pattern")
    if pattern is not None and isinstance(value, str) and not re.search(pattern, value):
        return f"{label} matching {pattern}"
    if item_spec and isinstance(value, list) and any(_type_problem(item, item_spec) for item in value):
        return label
    return None


def settings_day(settings: Mapping[str, PolicySettings], *, source: str = "policy config") -> dt.date | None:
    """The one `asOf` day the settings give the size policies; None when none sets it."""
    days = {name: s.properties[AS_OF_KEY] for name, s in settings.items() if s.properties.get(AS_OF_KEY)}
    if len(set(days.values())) > 1:
        given = ", ".join(f"{name}.{AS_OF_KEY}={day}" for name, day in sorted(days.items()))
        raise InputError(
            f"{source}: {given}: the size policies judge on different days; "
            f"allowed: one {AS_OF_KEY} for all, or --as-of"
        )
    for name, day in days.items():
        try:
            return parse_day(str(day))
        except ValueError as exc:
            raise InputError(f"{source}: {name}.{AS_OF_KEY}: {exc}") from None
    return None


def configure(policies: list[Policy], path: Path | None) -> dict[str, PolicySettings]:
    """The pack's settings for one run: the checked `--policy-config` file's, else the pack's defaults. The run's day
    is resolved once from them and `--as-of` (`run_day`); `plan_stack` writes it into every size policy's `asOf`
    (`with_day`), so each plan of the run (both sides of a diff) judges on that one day."""
    return load(path, policies) if path is not None else resolve(policies)


def run_day(settings: Mapping[str, PolicySettings], as_of: dt.date | None, *, source: str = "policy config") -> dt.date:
    """The one day a run judges on, resolved where the command starts: `as_of` (`--as-of`), else the settings' `asOf`,
    else today in UTC. A bad or disagreeing `asOf` in the settings is an InputError even when `--as-of` overrides it."""
    pinned = settings_day(settings, source=source)
    return as_of or pinned or utc_today()


def with_day(policies: list[Policy], settings: Mapping[str, PolicySettings], day: dt.date) -> dict[str, PolicySettings]:
    """The settings with `day` as the `asOf` of every policy that takes one (`configure` calls it, once a run)."""
    result = dict(settings)
    for policy in policies:
        schema = (policy.config_schema.properties if policy.config_schema else {}) or {}
        if AS_OF_KEY in schema and policy.name in result:
            current = result[policy.name]
            result[policy.name] = PolicySettings(current.level, {**current.properties, AS_OF_KEY: day.isoformat()})
    return result
