"""The stack configuration: one pydantic schema for `pulumi up` and for offline runs.

A stack file (`stacks/Pulumi.<stack>.yaml`) holds keys in the project's namespace
(`azure-gpu-stacks:vm`, `azure-gpu-stacks:costAlert`, ...) plus `azure-native:location`. Pulumi
hands the program every value as a string (structured values as JSON); `load_stack_config` decodes
them, validates the whole stack at once and raises one `ConfigError` that lists every problem with
its key path (`azure-gpu-stacks:vm.vmSize`), the bad value and what is allowed, before any resource
is registered. `ConfigError` is a `pulumi.RunError`, so `pulumi up` prints it without a traceback.

Which components a stack gets is said here: each optional section present adds its component.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import pulumi
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from azure_gpu_stacks.components.catalog import ANNOUNCED as NOTED_STATES
from azure_gpu_stacks.components.catalog import catalog, clock
from azure_gpu_stacks.components.catalog.limits import LIMITS, normalize_region
from azure_gpu_stacks.components.checks import (
    DEFAULT_AML_MAX_NODES,
    DEFAULT_GPU_VM_SIZE,
    admin_username,
    aks_cluster_id,
    aks_cluster_name,
    aks_pool_name,
    aml_compute_name,
    aml_idle_time,
    aml_workspace_id,
    aml_workspace_name,
    cidr,
    cpu_size,
    deployable_size_name,
    email,
    gpu_pool_taints,
    gpu_size,
    guid,
    infiniband_gpu_size,
    kubernetes_version,
    node_count,
    node_taint,
    nvidia_gpu_size,
    outside_infiniband_range,
    percent,
    single_zone,
    spot_max_price,
    time_of_day,
)

PROJECT = "azure-gpu-stacks"
LOCATION_KEY = "azure-native:location"
STACK_CONFIG_DIR = "stacks"  # must match `stackConfigDir` in Pulumi.yaml

MAX_BUDGET_NOTIFICATIONS = LIMITS.choices.budget_notifications_max
AKS_POOL_MAX = LIMITS.node_counts.aks_pool_max

SSH_KEY_PATTERN = re.compile(r"^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp(256|384|521)|sk-[a-z0-9@.-]+) [A-Za-z0-9+/]+=*( .*)?$")
# The key the shipped VM stacks carry until the deployer sets theirs: well formed, and no one holds
# its private half. A stack still holding it is warned about in every plan and preview.
EXAMPLE_SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGV4YW1wbGUta2V5LXJlcGxhY2UtaXQtd2l0aC15b3Vy example-replace-me"
SUBNET_ID_PATTERN = re.compile(
    r"(?i)^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.Network/virtualNetworks/[^/]+/subnets/[^/]+$"
)


GpuSize = Annotated[str, AfterValidator(gpu_size)]
Cidr = Annotated[str, AfterValidator(cidr)]
Email = Annotated[str, AfterValidator(email)]
AdminName = Annotated[str, AfterValidator(admin_username)]
TimeOfDay = Annotated[str, AfterValidator(time_of_day)]
Percent = Annotated[float, AfterValidator(percent)]
InfinibandGpuSize = Annotated[str, AfterValidator(infiniband_gpu_size)]
NodeCount = Annotated[int, AfterValidator(node_count)]
ClusterCidr = Annotated[str, AfterValidator(outside_infiniband_range)]
SingleZone = Annotated[list[str], AfterValidator(single_zone)]
NvidiaGpuSize = Annotated[str, AfterValidator(nvidia_gpu_size)]
CpuSize = Annotated[str, AfterValidator(cpu_size)]
AksPoolName = Annotated[str, AfterValidator(aks_pool_name)]
AksClusterName = Annotated[str, AfterValidator(aks_cluster_name)]
AksClusterId = Annotated[str, AfterValidator(aks_cluster_id)]
KubernetesVersion = Annotated[str, AfterValidator(kubernetes_version)]
NodeTaint = Annotated[str, AfterValidator(node_taint)]
Guid = Annotated[str, AfterValidator(guid)]
SpotPrice = Annotated[float, AfterValidator(spot_max_price)]


class ConfigModel(BaseModel):
    """Base of every config model: closed, camelCase keys as in the stack file, immutable."""

    # allow_inf_nan: `.inf` in YAML is a float; no budget, count or price is infinite or NaN.
    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, frozen=True, coerce_numbers_to_str=True, allow_inf_nan=False
    )


# --- sections --------------------------------------------------------------------------------


class VmConfig(ConfigModel):
    """A single GPU VM: the args of `azure_gpu_stacks.components.gpu_vm.GpuVm` in camelCase; unset keys take its defaults."""

    vm_size: GpuSize | None = Field(default=None, description="GPU VM size from the catalog.")
    admin_username: AdminName | None = Field(default=None, description="Linux admin user.")
    subnet_id: str | None = Field(default=None, description="Existing subnet id; a new VNet is created when unset.")
    vnet_address_space: Cidr | None = Field(default=None, description="Address space of the new VNet.")
    subnet_prefix: Cidr | None = Field(default=None, description="Range of the new subnet.")
    ssh_allowed_cidrs: list[Cidr] | None = Field(default=None, description="Ranges allowed to SSH in.")
    public_ip: bool | None = Field(default=None, description="Give the VM a public IP.")
    os_disk_size_gb: int | None = Field(default=None, ge=30, le=4095, description="OS disk size, GiB.")
    spot: bool | None = Field(default=None, description="Run as a Spot VM.")
    eviction_policy: Literal["Deallocate", "Delete"] | None = Field(default=None, description="Spot eviction.")
    install_gpu_driver: bool | None = Field(default=None, description="Install the NVIDIA driver extension.")
    auto_shutdown: bool | None = Field(default=None, description="Shut the VM down daily.")
    shutdown_time: TimeOfDay | None = Field(default=None, description="Daily shutdown time, HHmm.")
    shutdown_time_zone: str | None = Field(default=None, min_length=1, description="Windows time zone id.")
    shutdown_notify_email: Email | None = Field(default=None, description="Warned before the shutdown.")

    @field_validator("subnet_id")
    @classmethod
    def _subnet_id(cls, value: str | None) -> str | None:
        if value is not None and not SUBNET_ID_PATTERN.match(value):
            raise ValueError(
                f"'{value}' is not a subnet id; allowed: /subscriptions/<id>/resourceGroups/<rg>/providers/"
                "Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>"
            )
        return value


class TrainingClusterConfig(ConfigModel):
    """An InfiniBand GPU training cluster: the args of `azure_gpu_stacks.components.training_cluster.TrainingCluster`."""

    vm_size: InfinibandGpuSize | None = Field(default=None, description="NVIDIA GPU size with InfiniBand.")
    node_count: NodeCount | None = Field(default=None, description="Nodes, 1 to 100 (one placement group).")
    admin_username: AdminName | None = Field(default=None, description="Linux admin user.")
    subnet_id: str | None = Field(default=None, description="Existing subnet id; a new VNet is created when unset.")
    vnet_address_space: ClusterCidr | None = Field(default=None, description="Address space of the new VNet.")
    subnet_prefix: ClusterCidr | None = Field(default=None, description="Range of the new subnet.")
    proximity_placement_group_id: str | None = Field(default=None, description="Existing proximity placement group id.")
    zones: SingleZone | None = Field(default=None, description="At most one availability zone.")
    image: Literal["ubuntu-hpc", "ubuntu"] | None = Field(default=None, description="Azure HPC Ubuntu or plain Ubuntu.")
    os_disk_size_gb: int | None = Field(default=None, ge=64, le=4095, description="OS disk size, GiB.")
    spot: bool | None = Field(default=None, description="Run every node as Spot.")
    eviction_policy: Literal["Deallocate", "Delete"] | None = Field(default=None, description="Spot eviction.")
    health_check: bool | None = Field(default=None, description="Boot-time GPU and InfiniBand health check.")
    health_check_wait_minutes: int | None = Field(
        default=None, ge=0, le=240, description="How long the check waits for drivers and links, minutes."
    )

    @field_validator("subnet_id")
    @classmethod
    def _subnet_id(cls, value: str | None) -> str | None:
        return VmConfig._subnet_id(value)


class AmlClusterConfig(ConfigModel):
    """An Azure ML GPU cluster: the args of `azure_gpu_stacks.components.aml_cluster.AmlCluster`; unset keys take its defaults."""

    # Declared before the keys whose checks read them (pydantic validates fields in order).
    workspace_id: Annotated[str, AfterValidator(aml_workspace_id)] | None = Field(
        default=None, description="Existing workspace id; a new workspace is created when unset."
    )
    workspace_name: Annotated[str, AfterValidator(aml_workspace_name)] | None = Field(
        default=None, description="Name of the new workspace."
    )
    container_registry: bool | None = Field(default=None, description="Create a container registry for the new workspace.")
    compute_name: Annotated[str, AfterValidator(aml_compute_name)] | None = Field(
        default=None, description="Name of the cluster in the workspace."
    )
    require_gpu: bool | None = Field(default=None, description="Refuse a VM size without a GPU (default true).")
    vm_size: str | None = Field(default=None, description="Node VM size from the catalog.")
    max_node_count: int | None = Field(
        default=None, ge=1, le=LIMITS.node_counts.aml_cluster_max, strict=True, description="Most nodes the cluster scales to."
    )
    min_node_count: int | None = Field(default=None, ge=0, strict=True, description="Nodes kept when idle (0: scale to zero).")
    idle_time_before_scale_down: Annotated[str, AfterValidator(aml_idle_time)] | None = Field(
        default=None, description="Idle time before a node is released, ISO 8601 duration (PT1M to PT24H)."
    )
    vm_priority: Literal["Dedicated", "LowPriority"] | None = Field(default=None, description="Node priority.")
    enable_node_public_ip: bool | None = Field(default=None, description="Give each node a public IP.")
    remote_login_port_public_access: Literal["Enabled", "Disabled", "NotSpecified"] | None = Field(
        default=None, description="Open the nodes' SSH port to the internet."
    )
    subnet_id: str | None = Field(default=None, description="Subnet to put the nodes in.")

    @field_validator("workspace_name", "container_registry")
    @classmethod
    def _new_workspace_only(cls, value: Any, info: ValidationInfo) -> Any:
        if value and info.data.get("workspace_id"):
            raise ValueError("only for a new workspace; allowed: leave it unset when workspaceId is given")
        return value

    @field_validator("vm_size")
    @classmethod
    def _vm_size(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            return None
        return deployable_size_name(value) if info.data.get("require_gpu") is False else gpu_size(value)

    @field_validator("min_node_count")
    @classmethod
    def _min_at_most_max(cls, value: int | None, info: ValidationInfo) -> int | None:
        high = info.data.get("max_node_count") or DEFAULT_AML_MAX_NODES
        if value is not None and value > high:
            raise ValueError(f"{value} is above maxNodeCount {high}; allowed: 0 to {high}, or raise maxNodeCount")
        return value

    @field_validator("subnet_id")
    @classmethod
    def _subnet_id(cls, value: str | None) -> str | None:
        return VmConfig._subnet_id(value)


class CostAlertConfig(ConfigModel):
    """A monthly budget on the stack's resource group: the args of `azure_gpu_stacks.components.cost_alert.CostAlert`."""

    amount: float = Field(gt=0, description="Monthly budget, USD.")
    contact_emails: list[Email] = Field(min_length=1, description="Who is told when a threshold is crossed.")
    actual_thresholds: list[Percent] | None = Field(default=None, description="Percent of the amount spent.")
    forecast_thresholds: list[Percent] | None = Field(default=None, description="Percent of the amount forecast.")
    contact_roles: list[Literal["Owner", "Contributor", "Reader"]] | None = Field(
        default=None, description="RBAC roles on the scope that are told too."
    )
    action_group_id: str | None = Field(default=None, description="Action group id told too.")

    @model_validator(mode="after")
    def _notification_count(self) -> CostAlertConfig:
        count = len(self.actual_thresholds or ()) + len(self.forecast_thresholds or ())
        if count > MAX_BUDGET_NOTIFICATIONS:
            raise ValueError(
                f"{count} thresholds in all; allowed: at most {MAX_BUDGET_NOTIFICATIONS} (Azure's limit per budget)"
            )
        return self


class ExistingClusterConfig(ConfigModel):
    """An AKS cluster managed elsewhere: `id`, or `name` and `resourceGroupName`."""

    id: AksClusterId | None = Field(default=None, description="ARM id of the cluster.")
    name: AksClusterName | None = Field(default=None, description="Name of the cluster, with resourceGroupName.")
    resource_group_name: str | None = Field(default=None, min_length=1, description="Resource group of the cluster.")

    @model_validator(mode="after")
    def _one_way(self) -> ExistingClusterConfig:
        if self.id is not None and (self.name is not None or self.resource_group_name is not None):
            raise ValueError("give either id, or name and resourceGroupName, not both")
        if self.id is None and (self.name is None or self.resource_group_name is None):
            raise ValueError("needs id, or both name and resourceGroupName")
        return self


class AksGpuPoolConfig(ConfigModel):
    """A GPU node pool on AKS: the args of `azure_gpu_stacks.components.aks_gpu_pool.AksGpuPool` in camelCase."""

    existing_cluster: ExistingClusterConfig | None = Field(default=None, description="Use this cluster; else create one.")
    cluster_name: AksClusterName | None = Field(default=None, description="Name of the new cluster.")
    kubernetes_version: KubernetesVersion | None = Field(default=None, description="Kubernetes version, e.g. 1.33.")
    system_vm_size: CpuSize | None = Field(default=None, description="CPU size of the system pool.")
    system_node_count: int | None = Field(default=None, ge=1, le=AKS_POOL_MAX, description="Nodes of the system pool.")
    admin_group_object_ids: list[Guid] | None = Field(default=None, description="Entra ID admin groups.")
    grant_deployer_admin: bool | None = Field(default=None, description="Give the deployer the cluster admin role.")
    deployer_principal_type: Literal["User", "ServicePrincipal"] | None = Field(
        default=None, description="What the identity running Pulumi is."
    )
    pool_name: AksPoolName | None = Field(default=None, description="Name of the GPU pool.")
    vm_size: NvidiaGpuSize | None = Field(default=None, description="NVIDIA GPU size of the pool.")
    min_count: int | None = Field(default=None, ge=0, le=AKS_POOL_MAX, description="Fewest GPU nodes.")
    max_count: int | None = Field(default=None, ge=1, le=AKS_POOL_MAX, description="Most GPU nodes.")
    node_taints: Annotated[list[NodeTaint], AfterValidator(gpu_pool_taints)] | None = Field(
        default=None, description="Taints of the GPU nodes; must keep sku=gpu:NoSchedule."
    )
    node_labels: dict[str, str] | None = Field(default=None, description="Extra labels of the GPU nodes.")
    gpu_driver: Literal["Install", "None"] | None = Field(default=None, description="Install, or None for the GPU Operator.")
    mig_profile: Literal["MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g"] | None = Field(
        default=None, description="Multi-Instance GPU slices (A100, H100)."
    )
    spot: bool | None = Field(default=None, description="GPU nodes on Spot.")
    eviction_policy: Literal["Delete", "Deallocate"] | None = Field(default=None, description="Spot eviction.")
    spot_max_price: SpotPrice | None = Field(default=None, description="Spot price cap, USD/hour; -1 for none.")
    install_device_plugin: bool | None = Field(default=None, description="Deploy the NVIDIA device plugin.")

    @model_validator(mode="after")
    def _consistent(self) -> AksGpuPoolConfig:
        from azure_gpu_stacks.components import aks_gpu_pool as aks

        found: list[str] = []
        low = aks.DEFAULT_MIN_COUNT if self.min_count is None else self.min_count
        high = aks.DEFAULT_MAX_COUNT if self.max_count is None else self.max_count
        if low > high:
            found.append(f"minCount {low} is above maxCount {high}; allowed: minCount <= maxCount")
        size = catalog().get(self.vm_size or DEFAULT_GPU_VM_SIZE)
        if self.mig_profile is not None and not size.supports_mig:
            found.append(
                f"migProfile {self.mig_profile} on '{size.name}' ({size.gpu_model}): only A100 and H100 GPUs can be "
                "split; allowed: an A100 or H100 vmSize, or no migProfile"
            )
        if self.install_device_plugin and self.gpu_driver == "None":
            found.append(
                "installDevicePlugin true with gpuDriver None: the NVIDIA GPU Operator brings its own device plugin; "
                "allowed: false or unset"
            )
        if self.existing_cluster is not None:
            keys = [to_camel(k) for k in aks.NEW_CLUSTER_ARGS if getattr(self, k) is not None]
            if keys:
                found.append(f"{', '.join(keys)} only shape a new cluster; leave them unset with existingCluster")
        if found:
            raise ValueError("; ".join(found))
        return self


class StackConfig(ConfigModel):
    """Everything one stack says. Optional sections add their components."""

    location: str = Field(description="Azure region, from azure-native:location.")
    resource_group_name: str | None = Field(default=None, description="Defaults to rg-<stack>.")
    tags: dict[str, str] = Field(default_factory=dict, description="Tags on every resource.")
    ssh_public_key: str | None = Field(default=None, description="OpenSSH public key (a Pulumi secret).")
    vm: VmConfig | None = Field(default=None, description="A single GPU VM.")
    aml_cluster: AmlClusterConfig | None = Field(default=None, description="An Azure ML GPU cluster that scales to zero.")
    aks_gpu_pool: AksGpuPoolConfig | None = Field(default=None, description="A GPU node pool on AKS.")
    cost_alert: CostAlertConfig | None = Field(default=None, description="A budget with notifications.")
    training_cluster: TrainingClusterConfig | None = Field(
        default=None, description="A multi-node InfiniBand GPU training cluster."
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
            raise ValueError("the value is not an OpenSSH public key; allowed: the one line of e.g. ~/.ssh/id_ed25519.pub")
        return value.strip() if value is not None else None

    def problems(self) -> list[Problem]:
        """What is wrong across sections (each section checks itself)."""
        found: list[Problem] = []
        needing_key = [name for name, section in (("vm", self.vm), ("trainingCluster", self.training_cluster)) if section]
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
        """Things worth saying that do not stop the stack."""
        notes: list[str] = []
        if self.ssh_public_key == EXAMPLE_SSH_KEY:
            notes.append(
                f"{PROJECT}:sshPublicKey: the repository's example key, which opens nothing; set yours with "
                '`pulumi config set --secret sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"`'
            )
        if self.vm is not None:
            size = catalog().get(self.vm.vm_size or DEFAULT_GPU_VM_SIZE)
            if size.status_on(clock.today()) in NOTED_STATES:
                notes.append(f"{PROJECT}:vm.vmSize: '{size.name}' is {size.retirement_note(clock.today())}")
            if self.vm.spot:
                notes.append(f"{PROJECT}:vm.spot: Spot VMs can be evicted with 30 seconds' notice; checkpoint work often")
            if self.vm.public_ip and not self.vm.ssh_allowed_cidrs:
                notes.append(f"{PROJECT}:vm.publicIp: a public IP without sshAllowedCidrs accepts no SSH from outside")
        notes += _aml_warnings(self.aml_cluster)
        if self.aks_gpu_pool is not None:
            size = catalog().get(self.aks_gpu_pool.vm_size or DEFAULT_GPU_VM_SIZE)
            if size.status_on(clock.today()) in NOTED_STATES:
                notes.append(f"{PROJECT}:aksGpuPool.vmSize: '{size.name}' is {size.retirement_note(clock.today())}")
        return notes


def _aml_warnings(aml: AmlClusterConfig | None) -> list[str]:
    if aml is None:
        return []
    key = f"{PROJECT}:amlCluster"
    notes = []
    size = catalog().get(aml.vm_size or DEFAULT_GPU_VM_SIZE)
    if size.status_on(clock.today()) in NOTED_STATES:
        notes.append(f"{key}.vmSize: '{size.name}' is {size.retirement_note(clock.today())}")
    if aml.min_node_count:
        notes.append(f"{key}.minNodeCount: {aml.min_node_count} node(s) run, and bill, even when no job does")
    if aml.vm_priority == "LowPriority":
        notes.append(f"{key}.vmPriority: low-priority nodes can be preempted mid-job; checkpoint work often")
    if aml.enable_node_public_ip:
        notes.append(f"{key}.enableNodePublicIp: every node gets a public IP address")
    if aml.remote_login_port_public_access == "Enabled":
        notes.append(f"{key}.remoteLoginPortPublicAccess: the nodes' SSH port is open to the internet")
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


def _fields_at(loc: tuple[int | str, ...]) -> list[str]:
    """The keys allowed at `loc` (aliases of the model found there)."""
    model: Any = StackConfig
    for part in loc:
        if isinstance(part, int):
            continue
        fields = {f.alias or n: f for n, f in model.model_fields.items()}
        if part not in fields:
            return []
        annotation = fields[part].annotation
        candidates = [a for a in getattr(annotation, "__args__", (annotation,)) if isinstance(a, type) and issubclass(a, BaseModel)]
        if not candidates:
            return []
        model = candidates[0]
    return sorted(f.alias or n for n, f in model.model_fields.items() if n != "location")


def _problem(error: Any) -> Problem:
    loc = tuple(error["loc"])
    kind = error["type"]
    if kind == "extra_forbidden":
        allowed = _fields_at(loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'? " if close else ""
        return Problem(_key_path(loc), f"unknown key; {hint}allowed keys: {', '.join(allowed)}")
    if kind == "missing":
        return Problem(_key_path(loc), "required key is missing")
    message = str(error["msg"]).removeprefix("Value error, ")
    shown = error.get("input")
    if kind.startswith("value_error") or kind == "assertion_error":
        return Problem(_key_path(loc), message)
    return Problem(_key_path(loc), f"{shown!r} is not allowed: {message}")


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
        raise ConfigError(source, [Problem(LOCATION_KEY, "required key is missing; allowed: a region name such as eastus")])
    try:
        config = StackConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(source, [_problem(e) for e in exc.errors()]) from None
    if problems := config.problems():
        raise ConfigError(source, problems)
    return config


def stack_config_source(stack: str) -> str:
    return f"{STACK_CONFIG_DIR}/Pulumi.{stack}.yaml"


def load_from_pulumi() -> StackConfig:
    """The current stack's config, as the Pulumi CLI handed it to this program."""
    values = {**pulumi.runtime.get_config_env(), **pulumi.runtime.config.CONFIG.get()}
    return load_stack_config(values, source=stack_config_source(pulumi.get_stack()))
