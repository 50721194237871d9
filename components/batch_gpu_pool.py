"""An Azure Batch account with a pool of NVIDIA GPU nodes that returns to zero nodes when no task is pending.

Builds a Batch account and, in it, a pool of one catalog GPU size: Ubuntu 22.04 with its matching node agent SKU
(`batch.node.ubuntu 22.04`), the NVIDIA driver through the HPC GPU driver extension (`NvidiaGpuDriverLinux`,
publisher `Microsoft.HpcCompute`), simplified node communication, and by default an autoscale formula that follows
`$PendingTasks` up to `max_nodes` and back to 0 (or, with `scale: fixed`, a fixed number of nodes). Spot nodes only
in a user-subscription account, where Azure gives them (a Batch-managed account's were low-priority nodes, retired
2025-09-30); such an account needs a Key Vault and Azure Batch's access to the subscription. Every fact and its
source: `azure_gpu_stacks.catalog.batch`.

Azure docs (observed 2026-11-26): https://learn.microsoft.com/azure/batch/batch-automatic-scaling,
https://learn.microsoft.com/azure/batch/create-pool-extensions,
https://learn.microsoft.com/azure/batch/simplified-compute-node-communication,
https://learn.microsoft.com/azure/batch/batch-spot-vms and docs/batch.md.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import batch

from ..catalog import batch as facts
from ..catalog.defaults import DEFAULT_GPU_VM_SIZE
from ..catalog.durations import iso_duration_between
from .args import Checked, check_shape
from .checks import (
    Problems,
    deployment_day,
    nvidia_gpu_size,
    raise_problems,
    subnet_id,
)

TYPE_TOKEN = "azure-gpu-stacks:index:BatchGpuPool"

DEFAULT_POOL_ID = "gpu-pool"
DEFAULT_MAX_NODES = 1
DEFAULT_FIXED_NODES = 0
DEFAULT_EVALUATION_INTERVAL = "PT5M"  # Batch's shortest: an idle node is released within minutes of the last task
SCALE_MODES = ("autoscale", "fixed")
KEY_VAULT_ID_PATTERN = re.compile(
    r"^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.KeyVault/vaults/(?P<name>[A-Za-z0-9-]{3,24})$",
    re.IGNORECASE,
)
DRIVER_EXTENSIONS_PATH = "deploymentConfiguration.virtualMachineConfiguration.extensions"


class BatchGpuPoolArgs(TypedDict):
    """Inputs of BatchGpuPool."""

    resource_group_name: pulumi.Input[str]
    """Resource group of the Batch account."""
    location: str
    """Azure region of the Batch account and its pool, e.g. eastus."""
    account_name: NotRequired[str]
    """Name of the Batch account (3 to 24 lower-case letters and digits, unique in the region). Default: generated."""
    pool_allocation_mode: NotRequired[Literal["BatchService", "UserSubscription"]]
    """Where the pool's VMs are allocated: BatchService (Batch's subscriptions; the account's own core quota) or
    UserSubscription (your subscription and its regional quotas; needs key_vault_id and Azure Batch's access to the
    subscription). Default: BatchService."""
    key_vault_id: NotRequired[str]
    """ARM id of the Key Vault a UserSubscription account keeps its keys in. Default: none (BatchService)."""
    pool_id: NotRequired[str]
    """Id of the pool in the account (1 to 64 letters, digits, '-', '_'), as jobs name it. Default: gpu-pool."""
    vm_size: NotRequired[str]
    """Node VM size from the catalog, an NVIDIA GPU size. Default: Standard_NC4as_T4_v3 (1x T4)."""
    scale: NotRequired[Literal["autoscale", "fixed"]]
    """autoscale: a formula that follows the pending tasks up to max_nodes and returns to 0 when none is left;
    fixed: fixed_nodes nodes, whatever the queue. Default: autoscale."""
    max_nodes: NotRequired[int]
    """Most nodes the autoscale formula asks for (at least 1). Default: 1."""
    fixed_nodes: NotRequired[int]
    """Nodes of a fixed-scale pool (0 or more; every one bills around the clock). Default: 0."""
    evaluation_interval: NotRequired[str]
    """How often Batch evaluates the formula, ISO 8601 duration from PT5M to PT168H. Default: PT5M."""
    spot: NotRequired[bool]
    """Spot nodes instead of dedicated ones; only in a UserSubscription account (a BatchService account's
    low-priority nodes were retired on 2025-09-30). Default: false."""
    subnet_id: NotRequired[pulumi.Input[str]]
    """Subnet to put the nodes in. Default: none (Batch's own network)."""
    tags: NotRequired[Mapping[str, str]]
    """Tags on the account and the pool. Default: none."""


class BatchGpuPool(pulumi.ComponentResource):
    """A Batch account with a pool of NVIDIA GPU nodes that scales to zero when no task is pending."""

    account_name: pulumi.Output[str]
    """Name of the Batch account."""
    pool_id: pulumi.Output[str]
    """Id of the pool, as jobs name it."""
    vm_size: pulumi.Output[str]
    """VM size of every node."""
    node_range: pulumi.Output[str]
    """Nodes when idle and at most, e.g. `0..4`."""
    autoscale_formula: pulumi.Output[str]
    """The autoscale formula; empty for a fixed-scale pool."""

    def __init__(self, name: str, args: BatchGpuPoolArgs, opts: pulumi.ResourceOptions | None = None):
        # Validated before anything is registered, so a bad input leaves nothing behind.
        self._args = raise_problems("BatchGpuPool", name, check_inputs(args))
        super().__init__(TYPE_TOKEN, name, None, opts)
        self._name = name
        a = self._args
        account = self._create_account()
        pool = self._create_pool(account)
        formula = _formula(a)
        idle, most = (0, a["max_nodes"]) if a["scale"] == "autoscale" else (a["fixed_nodes"], a["fixed_nodes"])
        self.account_name = account.name
        self.pool_id = pool.name
        self.vm_size = pulumi.Output.from_input(a["vm_size"])
        self.node_range = pulumi.Output.from_input(f"{idle}..{most}")
        self.autoscale_formula = pulumi.Output.from_input(formula or "")
        self.register_outputs(
            {
                "account_name": self.account_name,
                "pool_id": self.pool_id,
                "vm_size": self.vm_size,
                "node_range": self.node_range,
                "autoscale_formula": self.autoscale_formula,
            }
        )

    def _create_account(self) -> batch.BatchAccount:
        a = self._args
        vault = a.get("key_vault_id")
        match = KEY_VAULT_ID_PATTERN.match(vault) if vault else None
        return batch.BatchAccount(
            _account_logical_name(self._name),
            account_name=a.get("account_name"),
            resource_group_name=a["resource_group_name"],
            location=a["location"],
            pool_allocation_mode=a["pool_allocation_mode"],
            key_vault_reference=(
                batch.KeyVaultReferenceArgs(id=vault, url=f"https://{match['name']}.vault.azure.net/")
                if vault and match
                else None
            ),
            # A user-subscription account's clients must use Microsoft Entra ID (the SDK's pool_allocation_mode doc).
            allowed_authentication_modes=(
                [batch.AuthenticationMode.AAD] if a["pool_allocation_mode"] == facts.USER_SUBSCRIPTION else None
            ),
            identity=batch.BatchAccountIdentityArgs(type=batch.ResourceIdentityType.SYSTEM_ASSIGNED),
            tags=a["tags"],
            opts=pulumi.ResourceOptions(parent=self),
        )

    def _create_pool(self, account: batch.BatchAccount) -> batch.Pool:
        a = self._args
        subnet = a.get("subnet_id")
        return batch.Pool(
            f"{self._name}-pool",
            account_name=account.name,
            resource_group_name=a["resource_group_name"],
            pool_name=a["pool_id"],
            vm_size=a["vm_size"],
            deployment_configuration=batch.DeploymentConfigurationArgs(
                virtual_machine_configuration=batch.VirtualMachineConfigurationArgs(
                    image_reference=batch.ImageReferenceArgs(**facts.UBUNTU_IMAGE),
                    node_agent_sku_id=facts.NODE_AGENT_SKU,
                    extensions=[
                        batch.VMExtensionArgs(
                            name="nvidia-gpu-driver",
                            publisher=facts.GPU_DRIVER_PUBLISHER,
                            type=facts.GPU_DRIVER_TYPE,
                            type_handler_version=facts.GPU_DRIVER_VERSION,
                            auto_upgrade_minor_version=True,
                        )
                    ],
                )
            ),
            scale_settings=_scale_settings(a),
            target_node_communication_mode=batch.NodeCommunicationMode.SIMPLIFIED,
            network_configuration=batch.NetworkConfigurationArgs(subnet_id=subnet) if subnet else None,
            tags=a["tags"],
            # Batch refuses to change a pool's extensions in place: replace the pool (same id: delete it first).
            opts=pulumi.ResourceOptions(
                parent=self, replace_on_changes=[DRIVER_EXTENSIONS_PATH], delete_before_replace=True
            ),
        )


def _formula(a: Mapping[str, Any]) -> str | None:
    if a["scale"] != "autoscale":
        return None
    target = facts.LOW_PRIORITY_TARGET if a["spot"] else facts.DEDICATED_TARGET
    return facts.scale_to_zero_formula(a["max_nodes"], target)


def _scale_settings(a: Mapping[str, Any]) -> batch.ScaleSettingsArgs:
    formula = _formula(a)
    if formula is not None:
        return batch.ScaleSettingsArgs(
            auto_scale=batch.AutoScaleSettingsArgs(formula=formula, evaluation_interval=a["evaluation_interval"])
        )
    nodes = a["fixed_nodes"]
    return batch.ScaleSettingsArgs(
        fixed_scale=batch.FixedScaleSettingsArgs(
            target_dedicated_nodes=0 if a["spot"] else nodes,
            target_low_priority_nodes=nodes if a["spot"] else 0,
            node_deallocation_option=batch.ComputeNodeDeallocationOption.TASK_COMPLETION,
        )
    )


def _account_logical_name(name: str) -> str:
    # The provider appends 8 random characters; an account name is at most 24 lower-case letters and digits.
    cleaned = "".join(c for c in name.lower() if c.isascii() and c.isalnum())
    return (cleaned if cleaned.startswith("batch") else "batch" + cleaned)[: facts.ACCOUNT_NAME.max_length - 8]


_EVALUATION_INTERVAL = iso_duration_between(
    facts.EVALUATION_INTERVAL_MIN[1],
    facts.EVALUATION_INTERVAL_MAX[1],
    facts.EVALUATION_INTERVAL_MIN[0],
    facts.EVALUATION_INTERVAL_MAX[0],
)


def check_inputs(args: Mapping[str, Any], day: dt.date | None = None) -> Checked:
    """The inputs with defaults filled in, and every problem found (pure: registers nothing); sizes are judged
    on `day` (default: `deployment_day()`)."""
    day = day or deployment_day()
    problems = Problems()
    given = check_shape(BatchGpuPoolArgs, args, problems)
    a: dict[str, Any] = {
        "pool_allocation_mode": facts.BATCH_SERVICE,
        "pool_id": DEFAULT_POOL_ID,
        "vm_size": DEFAULT_GPU_VM_SIZE,
        "scale": "autoscale",
        "max_nodes": DEFAULT_MAX_NODES,
        "fixed_nodes": DEFAULT_FIXED_NODES,
        "evaluation_interval": DEFAULT_EVALUATION_INTERVAL,
        "spot": False,
        "tags": {},
        **given,
    }
    for key in ("resource_group_name", "location"):
        if not a.get(key):
            problems.add(key, "required key is missing")
    if a.get("account_name") is not None and not facts.ACCOUNT_NAME.matches(a["account_name"]):
        problems.add("account_name", f"{a['account_name']!r}; allowed: {facts.ACCOUNT_NAME.allowed}")
    if not facts.POOL_NAME.matches(a["pool_id"]):
        problems.add("pool_id", f"{a['pool_id']!r}; allowed: {facts.POOL_NAME.allowed}")
    mode = a["pool_allocation_mode"]
    if mode not in facts.POOL_ALLOCATION_MODES:
        problems.add("pool_allocation_mode", f"{mode!r}; allowed: {', '.join(facts.POOL_ALLOCATION_MODES)}")
    vault = a.get("key_vault_id")
    if mode == facts.USER_SUBSCRIPTION and not vault:
        problems.add(
            "key_vault_id",
            "required for a UserSubscription account and missing; allowed: the ARM id of a Key Vault "
            "(/subscriptions/.../providers/Microsoft.KeyVault/vaults/NAME)",
        )
    if vault and not KEY_VAULT_ID_PATTERN.match(vault):
        problems.add("key_vault_id", f"{vault!r}; allowed: /subscriptions/.../providers/Microsoft.KeyVault/vaults/NAME")
    if vault and mode == facts.BATCH_SERVICE:
        problems.add("key_vault_id", "only for a UserSubscription account; allowed: leave it unset for BatchService")
    if a["spot"] is True and mode != facts.USER_SUBSCRIPTION:
        problems.add(
            "spot",
            "true in a BatchService account, whose discounted nodes are low-priority nodes, retired on "
            f"{facts.LOW_PRIORITY_RETIRED.isoformat()} ({facts.LOW_PRIORITY_SOURCE}); allowed: false, or "
            "pool_allocation_mode UserSubscription (Spot nodes)",
        )
    a["vm_size"] = problems.check("vm_size", lambda n: nvidia_gpu_size(n, day), a["vm_size"]) or a["vm_size"]
    if a["scale"] not in SCALE_MODES:
        problems.add("scale", f"{a['scale']!r}; allowed: {', '.join(SCALE_MODES)}")
    for key, least in (("max_nodes", 1), ("fixed_nodes", 0)):
        value = a[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            problems.add(key, f"{value!r}; allowed: a whole number of nodes, at least {least}")
    problems.check("evaluation_interval", _EVALUATION_INTERVAL, a["evaluation_interval"])
    if a.get("subnet_id") is not None:
        problems.check("subnet_id", subnet_id, a["subnet_id"])
    return problems.checked(a)
