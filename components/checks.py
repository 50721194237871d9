"""Input checks shared by the config schema and the components, and the error components raise.

Each check returns the canonical value or raises ValueError with a message that names the bad
value and what is allowed; callers add the key path. Components collect every problem and raise
one `ComponentInputError` before they register anything.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import pulumi

from ..catalog import VmSize, catalog
from ..catalog.clock import configured_day
from ..catalog.defaults import DEFAULT_CPU_VM_SIZE, DEFAULT_GPU_VM_SIZE, DEFAULT_IB_VM_SIZE
from ..catalog.durations import iso_duration_between
from ..catalog.limits import LIMITS
from ..catalog.spot import MAX_SPOT_PRICE_DECIMALS, is_spot_price_cap
from ..catalog.verdict import SizeVerdict, size_verdict
from .aks_gpu_scheduling import GPU_TAINT
from .args import Checked

T = TypeVar("T")

EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
HHMM_PATTERN = re.compile(r"^([01]\d|2[0-3])[0-5]\d$")
# The day the components judge sizes on: the program's config `gpu-stacks:asOf` (`YYYY-MM-DD`), which
# `gpu-stacks plan/check/cost/diff --as-of` sets for the program it runs; unset (`pulumi up`): today in UTC.
AS_OF_CONFIG_KEY = "gpu-stacks:asOf"


def deployment_day(config: Mapping[str, str] | None = None) -> dt.date:
    """The day sizes are judged on: `AS_OF_CONFIG_KEY` of `config` (default: the program's config), else today."""
    given = config.get(AS_OF_CONFIG_KEY) if config is not None else pulumi.runtime.get_config(AS_OF_CONFIG_KEY)
    return configured_day(given)


def deployable_size(name: str, day: dt.date) -> SizeVerdict:
    """The verdict on `name` for `day` when it can be deployed (a catalog size not retired, or a well-formed
    name the catalog does not know); ValueError naming what is allowed otherwise."""
    verdict = size_verdict(name, day)
    refusal = verdict.refusal()
    if refusal is None:
        return verdict
    example = verdict.replacement if verdict.standing == "retired" else DEFAULT_GPU_VM_SIZE
    allowed = "a current size" if verdict.standing == "retired" else "an Azure VM size name"
    raise ValueError(f"{refusal}; allowed: {allowed}, e.g. {example}")


def x64_size(name: str, image: str) -> str:
    """A size whose CPUs boot the x64 image `image` (GB200/GB300 sizes have Arm CPUs); its name.
    A size the catalog does not know is taken as written: its architecture cannot be told."""
    size = catalog().find(name)
    if size is None:
        return name
    if size.cpu_architecture != "x64":
        raise ValueError(
            f"'{size.name}' has {size.cpu_architecture} CPUs and cannot boot the x64 image {image}; "
            f"allowed: an x64 size, e.g. {DEFAULT_GPU_VM_SIZE}"
        )
    return size.name


def _confirmed(verdict: SizeVerdict) -> SizeVerdict:
    """The verdict, unless the size is one Azure's SKU list names but no size page confirms (its GPUs are unknown)."""
    if verdict.unconfirmed is not None:
        raise ValueError(
            f"unknown VM size '{verdict.name}': Azure's SKU list offers it, but no size page confirms its facts "
            f"({verdict.unconfirmed.why}); allowed: a GPU size of the catalog, e.g. {DEFAULT_GPU_VM_SIZE}"
        )
    return verdict


def _gpu_entry(name: str, day: dt.date) -> VmSize:
    """A deployable GPU size of the catalog (the catalog lists every GPU size, so an unknown one has none)."""
    verdict = _confirmed(deployable_size(name, day))
    if verdict.entry is None or not verdict.entry.is_gpu:
        raise ValueError(f"'{verdict.canonical}' has no GPU; allowed: a GPU size, e.g. {DEFAULT_GPU_VM_SIZE}")
    return verdict.entry


def gpu_size(name: str, day: dt.date) -> str:
    """A deployable GPU size; its canonical name."""
    return _gpu_entry(name, day).name


# InfiniBand training clusters (observed 2026-11-22: https://learn.microsoft.com/azure/virtual-machines/setup-infiniband
# and https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-placement-groups).
# The InfiniBand fabric's own addresses; a VNet that overlaps them breaks RDMA routing.
INFINIBAND_RESERVED_RANGE = ipaddress.ip_network("172.16.0.0/16")
# One placement group holds at most 100 VMs by default; InfiniBand needs a single placement group.
MAX_SINGLE_PLACEMENT_GROUP_NODES = LIMITS.node_counts.single_placement_group_max
AVAILABILITY_ZONES = LIMITS.choices.availability_zones


def infiniband_gpu_size(name: str, day: dt.date) -> str:
    """A deployable NVIDIA GPU size with InfiniBand; its canonical name."""
    verdict = _confirmed(deployable_size(name, day))
    size = verdict.entry
    has = {"GPU": size is not None and size.is_gpu, "InfiniBand": size is not None and size.has_infiniband}
    missing = [what for what, present in has.items() if not present]
    if missing or size is None:
        raise ValueError(
            f"'{verdict.canonical}' has no {' or '.join(missing)}; allowed: a GPU size with InfiniBand, e.g. "
            f"{DEFAULT_IB_VM_SIZE}, Standard_ND96amsr_A100_v4, Standard_ND96isr_H100_v5, Standard_ND96isr_H200_v5"
        )
    if not size.is_nvidia:
        raise ValueError(
            f"'{size.name}' has {size.gpu_model} GPUs; allowed: an NVIDIA size with InfiniBand, e.g. "
            f"{DEFAULT_IB_VM_SIZE} (the driver extension and the node health check are NVIDIA's)"
        )
    if "V2" not in size.hyperv_generations:
        raise ValueError(f"'{size.name}' does not boot Gen2 images; allowed: a Gen2 size, e.g. {DEFAULT_IB_VM_SIZE}")
    return size.name


def outside_infiniband_range(value: str) -> str:
    """A CIDR range that does not overlap the range the InfiniBand network reserves."""
    network = ipaddress.ip_network(cidr(value))
    if network.overlaps(INFINIBAND_RESERVED_RANGE):
        raise ValueError(
            f"'{network}' overlaps {INFINIBAND_RESERVED_RANGE}, which the InfiniBand network reserves; "
            "allowed: a range outside it, e.g. 10.50.0.0/16"
        )
    return str(network)


def single_zone(zones: Sequence[str]) -> list[str]:
    """At most one availability zone: a proximity placement group cannot span zones."""
    values = [str(z) for z in zones]
    if len(values) > 1:
        raise ValueError(
            f"{values} spans {len(values)} zones; allowed: at most one zone (a proximity placement group, "
            "which InfiniBand nodes share, cannot span zones)"
        )
    for zone in values:
        if zone not in AVAILABILITY_ZONES:
            raise ValueError(f"'{zone}' is not an availability zone; allowed: {', '.join(AVAILABILITY_ZONES)}")
    return values


def deployable_size_name(name: str, day: dt.date) -> str:
    """A size that can be deployed on `day`, GPU or not, known to the catalog or well-formed; its name."""
    return deployable_size(name, day).canonical


def nvidia_gpu_size(name: str, day: dt.date) -> str:
    """A deployable NVIDIA GPU size (AKS GPU pools use the NVIDIA driver and device plugin)."""
    size = _gpu_entry(name, day)
    if not size.is_nvidia:
        raise ValueError(
            f"'{size.name}' has {size.gpu_model} GPUs, which the NVIDIA driver and device plugin do not serve; "
            f"allowed: an NVIDIA GPU size, e.g. {DEFAULT_GPU_VM_SIZE}"
        )
    return size.name


def cpu_size(name: str, day: dt.date) -> str:
    """A deployable size without a GPU, for pools that run cluster services (a size the catalog does not
    know has none: the catalog lists every GPU size)."""
    verdict = deployable_size(name, day)
    if verdict.entry is not None and verdict.entry.is_gpu:
        raise ValueError(
            f"'{verdict.canonical}' has a GPU; the system pool runs cluster services and GPU settings belong on "
            f"the GPU pool; allowed: a CPU size, e.g. {DEFAULT_CPU_VM_SIZE}"
        )
    return verdict.canonical


KUBERNETES_VERSION_PATTERN = re.compile(r"^1\.\d{1,2}(\.\d{1,3})?$")
# Kubernetes label syntax for the key (optional DNS prefix) and value of a taint.
TAINT_PATTERN = re.compile(
    r"^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?"
    r"(=([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?)?:(?P<effect>[A-Za-z]+)$"
)
GUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")
AKS_CLUSTER_ID_PATTERN = re.compile(
    r"(?i)^/subscriptions/(?P<subscription>[^/]+)/resourceGroups/(?P<rg>[^/]+)/providers/"
    r"Microsoft\.ContainerService/managedClusters/(?P<name>[^/]+)$"
)


def aks_cluster_name(value: str) -> str:
    rule = LIMITS.names.aks_cluster
    if not rule.matches(value):
        raise ValueError(f"'{value}' cannot name an AKS cluster; allowed: {rule.allowed}")
    return value


def aks_pool_name(value: str) -> str:
    rule = LIMITS.names.aks_node_pool
    if not rule.matches(value):
        raise ValueError(f"'{value}' cannot name an AKS node pool; allowed: {rule.allowed}")
    return value


def kubernetes_version(value: str) -> str:
    if not KUBERNETES_VERSION_PATTERN.match(value):
        raise ValueError(
            f"'{value}' is not a Kubernetes version; allowed: MAJOR.MINOR or MAJOR.MINOR.PATCH that AKS supports "
            "in the region (`az aks get-versions -l REGION`), e.g. 1.33"
        )
    return value


def node_taint(value: str) -> str:
    match = TAINT_PATTERN.match(value)
    effects = LIMITS.taints.effects
    if not match or match["effect"] not in effects:
        raise ValueError(f"'{value}' is not a taint; allowed: key=value:Effect with Effect one of {', '.join(effects)}")
    return value


def gpu_pool_taints(values: list[str]) -> list[str]:
    """A GPU pool's taints: well-formed, and keeping the GPU taint that keeps other pods off."""
    if GPU_TAINT not in values:
        raise ValueError(
            f"{values!r} drops {GPU_TAINT}, which keeps pods that need no GPU off the GPU nodes; "
            f"allowed: a list that keeps {GPU_TAINT} (add your own taints next to it)"
        )
    return values


SUBNET_ID_PATTERN = re.compile(
    r"(?i)^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.Network/virtualNetworks/[^/]+/subnets/[^/]+$"
)


def subnet_id(value: Any) -> Any:
    """A subnet's ARM id; a value known only at deployment (a Pulumi Output) is taken as it is."""
    if isinstance(value, str) and not SUBNET_ID_PATTERN.match(value):
        raise ValueError(
            f"'{value}' is not a subnet id; allowed: /subscriptions/<id>/resourceGroups/<rg>/providers/"
            "Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>"
        )
    return value


def guid(value: str) -> str:
    if not GUID_PATTERN.match(value):
        raise ValueError(f"'{value}' is not an object id; allowed: a GUID such as 00000000-0000-0000-0000-000000000000")
    return value


def aks_cluster_id(value: str) -> str:
    if not AKS_CLUSTER_ID_PATTERN.match(value):
        raise ValueError(
            f"'{value}' is not an AKS cluster id; allowed: /subscriptions/<id>/resourceGroups/<rg>/providers/"
            "Microsoft.ContainerService/managedClusters/<name>"
        )
    return value


def spot_max_price(value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{value!r} is not a price; allowed: -1 (up to the pay-as-you-go price) or USD per hour")
    if not is_spot_price_cap(value):
        raise ValueError(
            f"{value:g} is not a Spot price cap; allowed: -1 (up to the pay-as-you-go price) or a positive "
            f"USD per hour with at most {MAX_SPOT_PRICE_DECIMALS} decimals"
        )
    return value


def cidr(value: str) -> str:
    try:
        return str(ipaddress.ip_network(value, strict=True))
    except ValueError:
        raise ValueError(f"'{value}' is not a CIDR range; allowed: e.g. 203.0.113.0/24 or 198.51.100.7/32") from None


def email(value: str) -> str:
    if not EMAIL_PATTERN.match(value):
        raise ValueError(f"'{value}' is not an email address")
    return value


def time_of_day(value: str) -> str:
    if not HHMM_PATTERN.match(value):
        raise ValueError(f"'{value}' is not a time of day as HHmm; allowed: 0000 to 2359, e.g. 1900")
    return value


# An AmlCompute cluster's defaults and bounds that the config schema checks too.
DEFAULT_AML_MAX_NODES = 1  # as azure-ai-ml's AmlCompute(max_instances=1): one node unless asked for more
# Idle time before scale-down: our bounds, not Azure's. Under a minute, nodes are released between
# the jobs of one pipeline and every job pays the node start again; over a day, an idle GPU node is
# a forgotten bill.
AML_IDLE_TIME_MIN, AML_IDLE_TIME_MAX = "PT1M", "PT24H"
aml_idle_time = iso_duration_between(60, 24 * 3600, AML_IDLE_TIME_MIN, AML_IDLE_TIME_MAX)


def aml_compute_name(value: str) -> str:
    rule = LIMITS.names.aml_compute  # the name table's pattern: a letter after the last '-' (Azure ML refuses `gpu-1`)
    if not rule.matches(value):
        raise ValueError(f"'{value}' cannot name an Azure ML compute; allowed: {rule.allowed}")
    return value


def aml_workspace_name(value: str) -> str:
    rule = LIMITS.names.aml_workspace
    if not isinstance(value, str) or not rule.matches(value):
        raise ValueError(f"{value!r} cannot name an Azure ML workspace; allowed: {rule.allowed}")
    return value


AML_WORKSPACE_ID_PATTERN = re.compile(
    r"(?i)^/subscriptions/(?P<subscription>[^/]+)/resourceGroups/(?P<resource_group>[^/]+)/providers/"
    r"Microsoft\.MachineLearningServices/workspaces/(?P<name>[^/]+)$"
)


def aml_workspace_id(value: str) -> str:
    if not isinstance(value, str) or not AML_WORKSPACE_ID_PATTERN.match(value):
        raise ValueError(
            f"{value!r} is not an Azure ML workspace id; allowed: /subscriptions/<id>/resourceGroups/<rg>/providers/"
            "Microsoft.MachineLearningServices/workspaces/<name>"
        )
    return value


# Names Azure refuses as a Linux admin user (the common ones of its documented list).
RESERVED_ADMIN_NAMES = frozenset(
    {"admin", "administrator", "root", "guest", "user", "test", "sys", "support", "azureadmin", "owner", "console"}
)
ADMIN_NAME_PATTERN = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


def admin_username(value: str) -> str:
    if not ADMIN_NAME_PATTERN.match(value) or value in RESERVED_ADMIN_NAMES:
        raise ValueError(
            f"'{value}' cannot be a Linux admin user; allowed: lower-case letters, digits, '_' and '-', "
            f"at most 32 characters, not one of {', '.join(sorted(RESERVED_ADMIN_NAMES))}"
        )
    return value


class ComponentInputError(pulumi.RunError, ValueError):
    """A component's args that cannot be deployed; lists every problem with its arg path."""

    def __init__(self, component: str, name: str, problems: list[tuple[str, str]]):
        self.component = component
        self.name = name
        self.problems = problems
        if len(problems) == 1:
            text = f"{component} '{name}': {problems[0][0]}: {problems[0][1]}"
        else:
            text = f"{component} '{name}': {len(problems)} problems:\n" + "\n".join(f"  {p}: {m}" for p, m in problems)
        super().__init__(text)


class Problems:
    """Collects problems so a component reports all of them at once."""

    def __init__(self, component: str = "", name: str = ""):
        self.component = component
        self.name = name
        self.found: list[tuple[str, str]] = []

    def check(self, path: str, check: Callable[[Any], T], value: Any) -> T | None:
        try:
            return check(value)
        except ValueError as exc:
            self.found.append((path, str(exc)))
            return None

    def add(self, path: str, message: str) -> None:
        self.found.append((path, message))

    def checked(self, inputs: dict[str, Any]) -> Checked:
        """The filled inputs and every problem found, as `check_inputs` returns them."""
        return Checked(inputs, tuple(self.found))


def raise_problems(component: str, name: str, checked: Checked) -> dict[str, Any]:
    """The filled inputs; raises ComponentInputError listing every problem when there are any."""
    if checked.problems:
        raise ComponentInputError(component, name, list(checked.problems))
    return checked.inputs
