"""The stack configuration: one pydantic schema for `pulumi up` and for offline runs.

A stack file (`stacks/Pulumi.<stack>.yaml`) holds keys in the project's namespace
(`azure-gpu-stacks:vm`, `azure-gpu-stacks:costAlert`, ...) plus `azure-native:location`. Pulumi
hands the program every value as a string (structured values as JSON); `load_stack_config` decodes
them, validates the whole stack at once and raises one `ConfigError` that lists every problem with
its key path (`azure-gpu-stacks:vm.vmSize`), the bad value and what is allowed, before any resource
is registered. `ConfigError` is a `pulumi.RunError`, so `pulumi up` prints it without a traceback.

Which components a stack gets is said here: each optional section present adds its component.
A section holds no schema of its own: its keys are the component's inputs in camelCase, and its
values are checked by the component's `check_inputs` (the one home of their types, bounds and
defaults); problems come back with the key path users write (`azure-gpu-stacks:vm.osDiskSizeGb`)
and the arg names in the message spelled the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, is_typeddict

import pulumi
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
)
from pydantic.alias_generators import to_camel

from ..catalog import catalog
from ..catalog.limits import LIMITS, normalize_region
from ..catalog.words import counted
from ..components.args import camel_message, camel_path, keys_of, shown, unknown_key_message
from ..sdk.internals import runtime_config
from .sections import SECTIONS, Section

PROJECT = "azure-gpu-stacks"
LOCATION_KEY = "azure-native:location"
STACK_CONFIG_DIR = "stacks"  # must match `stackConfigDir` in Pulumi.yaml


SSH_KEY_PATTERN = re.compile(
    r"^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp(256|384|521)|sk-[a-z0-9@.-]+) [A-Za-z0-9+/]+=*( .*)?$"
)
# The key the shipped VM stacks carry until the deployer sets theirs: well formed, and no one holds
# its private half. A stack still holding it is warned about in every plan and preview.
EXAMPLE_SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGV4YW1wbGUta2V5LXJlcGxhY2UtaXQtd2l0aC15b3Vy example-replace-me"


class ConfigModel(BaseModel):
    """Base of every config model: closed, camelCase keys as in the stack file, immutable."""

    # allow_inf_nan: `.inf` in YAML is a float; no budget, count or price is infinite or NaN.
    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, frozen=True, coerce_numbers_to_str=True, allow_inf_nan=False
    )


# --- sections ---------------------------------------------------------------------------------

# Values a section is checked with for the inputs the stack provides itself; problems with them are
# the stack's (location, sshPublicKey), reported once by StackConfig, never per section.
_PROVIDED_PLACEHOLDERS: dict[str, Any] = {
    "resource_group_name": "rg",
    "location": "eastus",
    "tags": {},
    "ssh_public_key": "ssh-ed25519 AAAA",
    "scope": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg",
}


class SectionInputs(dict[str, Any]):
    """The inputs a stack file gives one component: snake_case names, canonical values; the keys it
    leaves out are left out here too, for the component to fill. Keys read as attributes too."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.get(name)


def section_keys(section: Section) -> dict[str, Any]:
    """The keys a section may hold (the component's inputs less what the stack provides), with their types."""
    return {k: v for k, v in keys_of(section.args_type()).items() if k not in section.provided}


def _snake_keys(
    args: Mapping[str, Any], raw: Mapping[str, Any], path: str, problems: list[Problem], key: str
) -> dict[str, Any]:
    """`raw` with camelCase keys renamed to the args' snake_case names (and nested args likewise);
    a problem for each key the args do not have."""
    by_camel = {to_camel(name): name for name in args}
    out: dict[str, Any] = {}
    for camel, value in raw.items():
        name = by_camel.get(str(camel))
        if name is None:
            spelled = {to_camel(n): t for n, t in args.items()}
            problems.append(Problem(f"{key}{path}.{camel}", unknown_key_message(str(camel), spelled)))
            continue
        nested = args[name]
        if is_typeddict(nested) and isinstance(value, Mapping):
            value = _snake_keys(keys_of(nested), value, f"{path}.{camel}", problems, key)
        out[name] = value
    return out


def check_section(section: Section, raw: Any) -> tuple[SectionInputs, list[Problem]]:
    """A section's inputs checked by its component: the given keys with canonical values, and problems
    with the key paths and names a stack file uses."""
    key = f"{PROJECT}:{to_camel(section.key)}"
    if not isinstance(raw, Mapping):
        return SectionInputs(), [Problem(key, f"{shown(raw)}; allowed: a map of keys")]
    args = section_keys(section)
    problems: list[Problem] = []
    given = _snake_keys(args, raw, "", problems, key)
    checked = section.module().check_inputs({**given, **{k: _PROVIDED_PLACEHOLDERS[k] for k in section.provided}})
    names = _all_names(section.args_type())
    for path, message in checked.problems:
        if path.split(".")[0].split("[")[0] in section.provided:
            continue
        problems.append(Problem(f"{key}.{camel_path(path)}", camel_message(message, names)))
    return SectionInputs({k: checked.inputs.get(k, v) for k, v in given.items()}), problems


def _all_names(args_type: Any) -> set[str]:
    names: set[str] = set()
    for name, hint in keys_of(args_type).items():
        names.add(name)
        if is_typeddict(hint):
            names |= _all_names(hint)
    return names


class StackConfig(ConfigModel):
    """Everything one stack says. Optional sections add their components."""

    location: str = Field(description="Azure region, from azure-native:location.")
    resource_group_name: str | None = Field(default=None, description="Defaults to rg-<stack>.")
    tags: dict[str, str] = Field(default_factory=dict, description="Tags on every resource.")
    ssh_public_key: str | None = Field(default=None, description="OpenSSH public key (a Pulumi secret).")
    # Sections: as written until `load_stack_config` has its component check them, then SectionInputs.
    vm: Any = Field(default=None, description="A single GPU VM (GpuVm).")
    aml_cluster: Any = Field(default=None, description="An Azure ML GPU cluster that scales to zero (AmlCluster).")
    aks_gpu_pool: Any = Field(default=None, description="A GPU node pool on AKS (AksGpuPool).")
    batch_gpu_pool: Any = Field(
        default=None, description="An Azure Batch account with a GPU pool that scales to zero (BatchGpuPool)."
    )
    cost_alert: Any = Field(default=None, description="A budget with notifications (CostAlert).")
    training_cluster: Any = Field(
        default=None, description="A multi-node InfiniBand GPU training cluster (TrainingCluster)."
    )

    @field_validator("location")
    @classmethod
    def _location(cls, value: str) -> str:
        if not catalog().is_region(value):
            close = catalog().close_regions(value)
            hint = f"did you mean {', '.join(close)}? " if close else ""
            raise ValueError(f"'{value}' is not an Azure region; {hint}allowed: a region name such as eastus")
        return normalize_region(value)

    @field_validator("resource_group_name")
    @classmethod
    def _resource_group_name(cls, value: str | None) -> str | None:
        if value is not None and not (rule := LIMITS.names.resource_group).matches(value):
            raise ValueError(f"'{value}' is not a resource group name; allowed: {rule.allowed}")
        return value

    @field_validator("ssh_public_key")
    @classmethod
    def _ssh_public_key(cls, value: str | None) -> str | None:
        if value is not None and not SSH_KEY_PATTERN.match(value.strip()):
            raise ValueError(
                "the value is not an OpenSSH public key; allowed: the one line of e.g. ~/.ssh/id_ed25519.pub"
            )
        return value.strip() if value is not None else None

    def problems(self) -> list[Problem]:
        """What is wrong across sections (each section checks itself)."""
        found: list[Problem] = []
        needing_key = [
            name
            for name, section in (("vm", self.vm), ("trainingCluster", self.training_cluster))
            if section is not None
        ]
        if needing_key and self.ssh_public_key is None:
            found.append(
                Problem(
                    f"{PROJECT}:sshPublicKey",
                    f"required by the {' and '.join(needing_key)} section and missing; set it with "
                    '`pulumi config set --secret sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"`',
                )
            )
        return found

    def warnings(self) -> list[str]:
        """Things worth saying that do not stop the stack (a size's lifecycle is not among them: the policy pack's
        size policies say it, once per plan)."""
        notes: list[str] = []
        if self.ssh_public_key == EXAMPLE_SSH_KEY:
            notes.append(
                f"{PROJECT}:sshPublicKey: the repository's example key, which opens nothing; set yours with "
                '`pulumi config set --secret sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"`'
            )
        if self.vm is not None:
            if self.vm.spot:
                notes.append(
                    f"{PROJECT}:vm.spot: Spot VMs can be evicted with 30 seconds' notice; checkpoint work often"
                )
            if self.vm.public_ip and not self.vm.ssh_allowed_cidrs:
                notes.append(f"{PROJECT}:vm.publicIp: a public IP without sshAllowedCidrs accepts no SSH from outside")
        notes += _aml_warnings(self.aml_cluster)
        notes += _batch_warnings(self.batch_gpu_pool)
        return notes


def _aml_warnings(aml: SectionInputs | None) -> list[str]:
    if aml is None:
        return []
    key = f"{PROJECT}:amlCluster"
    notes = []
    if aml.min_node_count:
        notes.append(f"{key}.minNodeCount: {_run_and_bill(aml.min_node_count)}, even when no job does")
    if aml.vm_priority == "LowPriority":
        notes.append(f"{key}.vmPriority: low-priority nodes can be preempted mid-job; checkpoint work often")
    if aml.enable_node_public_ip:
        notes.append(f"{key}.enableNodePublicIp: every node gets a public IP address")
    if aml.remote_login_port_public_access == "Enabled":
        notes.append(f"{key}.remoteLoginPortPublicAccess: the nodes' SSH port is open to the internet")
    return notes


def _run_and_bill(nodes: int) -> str:
    """ "1 node runs, and bills" or "2 nodes run, and bill"."""
    return f"{counted(nodes, 'node')} runs, and bills" if nodes == 1 else f"{counted(nodes, 'node')} run, and bill"


def _batch_warnings(pool: SectionInputs | None) -> list[str]:
    if pool is None:
        return []
    key = f"{PROJECT}:batchGpuPool"
    notes = []
    if pool.scale == "fixed" and pool.fixed_nodes:
        notes.append(f"{key}.fixedNodes: {_run_and_bill(pool.fixed_nodes)}, even when no task does")
    if pool.spot:
        notes.append(f"{key}.spot: Spot nodes can be evicted at any time; Batch requeues their tasks")
    return notes


# --- loading ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    key: str  # e.g. azure-gpu-stacks:vm.vmSize
    message: str


class ConfigError(pulumi.RunError):
    """A stack configuration that cannot be used; lists every problem."""

    def __init__(self, source: str, problems: list[Problem]):
        self.source = source
        self.problems = problems
        if len(problems) == 1:
            text = f"{source}: {problems[0].key}: {problems[0].message}"
        else:
            lines = "\n".join(f"  {p.key}: {p.message}" for p in problems)
            text = f"{source}: {len(problems)} problems in the stack configuration:\n{lines}"
        super().__init__(text)


def _decode(value: str) -> Any:
    """Pulumi passes structured config as JSON text and plain strings as they are."""
    try:
        return json.loads(value)
    except (json.JSONDecodeError, TypeError):
        return value


def _key_path(loc: tuple[int | str, ...]) -> str:
    if not loc:
        return PROJECT
    head, *rest = loc
    key = LOCATION_KEY if head == "location" else f"{PROJECT}:{head}"
    for part in rest:
        key += f"[{part}]" if isinstance(part, int) else f".{part}"
    return key


def _top_level_keys() -> list[str]:
    return sorted(f.alias or n for n, f in StackConfig.model_fields.items() if n != "location")


# What a value of a pydantic error type should have been, in the words of the one message style.
_WANTED = {
    "dict_type": "a map",
    "string_type": "a string",
    "list_type": "a list",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
}


def _problem(error: Any) -> Problem:
    loc = tuple(error["loc"])
    kind = error["type"]
    if kind == "extra_forbidden":
        return Problem(_key_path(loc), unknown_key_message(str(loc[-1]), dict.fromkeys(_top_level_keys())))
    if kind == "missing":
        return Problem(_key_path(loc), "required key is missing")
    message = str(error["msg"]).removeprefix("Value error, ")
    if kind.startswith("value_error") or kind == "assertion_error":
        return Problem(_key_path(loc), message)
    return Problem(_key_path(loc), f"{shown(error.get('input'))}; allowed: {_WANTED.get(kind, message)}")


def load_stack_config(values: Mapping[str, str], *, source: str) -> StackConfig:
    """Validate a stack's flat Pulumi config (`{"azure-gpu-stacks:vm": "{...}"}`)."""
    raw: dict[str, Any] = {}
    for key, value in values.items():
        namespace, _, name = key.partition(":")
        if key == LOCATION_KEY:
            raw["location"] = value
        elif namespace == PROJECT:
            raw[name] = _decode(value)
    if "location" not in raw:
        raise ConfigError(
            source, [Problem(LOCATION_KEY, "required key is missing; allowed: a region name such as eastus")]
        )
    problems: list[Problem] = []
    try:
        config: StackConfig | None = StackConfig.model_validate(raw)
    except ValidationError as exc:
        problems += [_problem(e) for e in exc.errors()]
        config = None
    sections: dict[str, SectionInputs] = {}
    for section in SECTIONS:
        written = raw.get(to_camel(section.key))
        if written is not None:
            sections[section.key], found = check_section(section, written)
            problems += found
    if config is not None and not problems:
        config = config.model_copy(update=sections)
        problems = config.problems()
    if problems or config is None:
        raise ConfigError(source, problems)
    return config


def stack_config_source(stack: str) -> str:
    return f"{STACK_CONFIG_DIR}/Pulumi.{stack}.yaml"


def load_from_pulumi() -> StackConfig:
    """The current stack's config, as the Pulumi CLI handed it to this program."""
    values = {**pulumi.runtime.get_config_env(), **runtime_config()}
    return load_stack_config(values, source=stack_config_source(pulumi.get_stack()))
