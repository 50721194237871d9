"""One schema: every stack-config section and its component agree on keys, defaults and bounds.

Nothing here is listed by hand: the sections come from `stack/sections.py`, the keys and their
types from each component's Args TypedDict, and the probe values from those types. For every key,
every probe value the stack file could hold is refused (or accepted) by the config exactly as the
component refuses (or accepts) it, with the same message, the key path and arg names in camelCase.
One case per section, naming every key and probe on which the two disagree: a schema drift reads as one
failure listing what drifted, not hundreds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, get_args, get_origin, is_typeddict

import pytest
from azure_gpu_stacks.components.args import camel_message, camel_path
from azure_gpu_stacks.stack.config import PROJECT, ConfigError, StackConfig, load_stack_config, section_keys
from azure_gpu_stacks.stack.sections import SECTIONS, Section
from pydantic.alias_generators import to_camel

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITestKey test@example"
STACK_LEVEL = {"location", "resource_group_name", "tags", "ssh_public_key"}
# What a section needs before any other key can be judged alone (required inputs of the component).
MINIMAL: dict[str, dict[str, Any]] = {"cost_alert": {"amount": 100, "contact_emails": ["ml@example.com"]}}
PLACEHOLDERS = {
    "resource_group_name": "rg",
    "location": "eastus",
    "tags": {},
    "ssh_public_key": "ssh-ed25519 AAAA",
    "scope": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg",
}


def probes(hint: Any) -> list[Any]:
    """Values a stack file could hold for an input of this type: edges of its range and wrong types."""
    origin = get_origin(hint)
    if is_typeddict(hint):
        return [{}, [], "x"]
    if origin in (Sequence, list) or hint in (Sequence, list):
        return [[], "x", [None], [{"a": 1}], ["x"] * 7]
    if origin in (Mapping, dict):
        return [{}, [], {"k": 1}, {"k": "v"}]
    if hint is bool or bool in get_args(hint):
        return [True, False, "maybe", 1]
    return [-1, 0, 1, 2.5, 10**9, float("inf"), "", "x", "X" * 300, "1.35", True, [], {}, None]


def section_problems(section: Section, args: dict[str, Any]) -> list[tuple[str, str]]:
    values = {"azure-native:location": "eastus", f"{PROJECT}:sshPublicKey": KEY}
    camel = {to_camel(k): v for k, v in args.items()}
    values[f"{PROJECT}:{to_camel(section.key)}"] = json.dumps(camel, default=str)
    try:
        load_stack_config(values, source="s.yaml")
    except ConfigError as err:
        return [(p.key, p.message) for p in err.problems]
    return []


def component_problems(section: Section, args: dict[str, Any]) -> list[tuple[str, str]]:
    checked = section.module().check_inputs({**args, **{k: PLACEHOLDERS[k] for k in section.provided}})
    names = set(section_keys(section)) | set(section.provided)
    return [
        (f"{PROJECT}:{to_camel(section.key)}.{camel_path(path)}", camel_message(message, names))
        for path, message in checked.problems
    ]


def test_schema_every_section_is_a_stack_config_field_and_nothing_else_is() -> None:
    assert set(StackConfig.model_fields) - STACK_LEVEL == {s.key for s in SECTIONS}


@pytest.mark.parametrize("section", SECTIONS, ids=[s.key for s in SECTIONS])
def test_schema_section_keys_are_the_component_inputs_less_what_the_stack_provides(section: Section) -> None:
    provided = [k for k in section.provided if k in section.args_type().__annotations__]
    for key in section_keys(section):
        assert not [
            p for p in section_problems(section, {**MINIMAL.get(section.key, {}), key: None}) if "unknown key" in p[1]
        ]
    for key in provided:
        [(path, message)] = section_problems(section, {**MINIMAL.get(section.key, {}), key: "x"})
        assert (path, message.split(";")[0]) == (f"{PROJECT}:{to_camel(section.key)}.{to_camel(key)}", "unknown key")


@pytest.mark.parametrize("section", SECTIONS, ids=[s.key for s in SECTIONS])
def test_schema_a_section_sets_no_default_of_its_own(section: Section) -> None:
    values = {"azure-native:location": "eastus", f"{PROJECT}:sshPublicKey": KEY}
    minimal = MINIMAL.get(section.key, {})
    values[f"{PROJECT}:{to_camel(section.key)}"] = json.dumps({to_camel(k): v for k, v in minimal.items()})

    given = getattr(load_stack_config(values, source="s.yaml"), section.key)

    assert set(given) == set(minimal)  # every other input is left for the component to fill


@pytest.mark.parametrize("section", SECTIONS, ids=[s.key for s in SECTIONS])
def test_schema_config_refuses_exactly_what_the_component_refuses(section: Section) -> None:
    disagreements = {}
    for key, hint in section_keys(section).items():
        for value in probes(hint):
            args = {**MINIMAL.get(section.key, {}), key: value}
            expected = component_problems(section, json.loads(json.dumps(args, default=str)))
            given = section_problems(section, args)
            if given != expected:
                disagreements[f"{key}={value!r:.40}"] = {"config": given, "component": expected}

    assert disagreements == {}
