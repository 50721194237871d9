"""An Azure Machine Learning compute instance: one person's GPU dev box in an existing workspace, that stops itself.

Registers one `machinelearningservices:Compute` of computeType ComputeInstance, assigned to one user
(`personalComputeInstanceSettings.assignedUser`: only they can use it), with idle shutdown on
(`idleTimeBeforeShutdown`, PT30M unless asked), an optional stop (and start) schedule on chosen days, SSH closed
unless asked for with a public key, no public IP, and a system-assigned identity. A GPU instance with neither idle
shutdown nor a stop schedule is refused here, as the `require-aml-gpu-instance-shutdown` policy refuses it in raw
programs: a dev box left running over a weekend is the quietest GPU bill there is.

Azure docs (observed 2026-11-26): https://learn.microsoft.com/azure/machine-learning/how-to-create-compute-instance
(idle shutdown from 15 minutes to 3 days, start/stop schedules with a cron expression and a time zone, SSH with a
public key, creating an instance on behalf of a user), and
https://learn.microsoft.com/azure/templates/microsoft.machinelearningservices/workspaces/computes
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import authorization
from pulumi_azure_native import machinelearningservices as ml

from ..catalog import aml_compute_instance as facts
from ..catalog.defaults import DEFAULT_GPU_VM_SIZE
from ..catalog.time_zones import windows_time_zone
from .args import Checked, check_shape
from .checks import (
    Problems,
    aml_compute_name,
    aml_workspace_name,
    deployable_size_name,
    deployment_day,
    gpu_size,
    guid,
    raise_problems,
    subnet_id,
    time_of_day,
)

TYPE_TOKEN = "azure-gpu-stacks:index:AmlComputeInstance"

DEFAULT_VM_SIZE = DEFAULT_GPU_VM_SIZE
# Our choice inside Azure's PT15M..P3D: the limit the require-aml-gpu-scale-to-zero policy holds clusters to, long
# enough for a coffee break, short enough that a forgotten notebook costs half an hour.
DEFAULT_IDLE_TIME = "PT30M"
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DEFAULT_DAYS = DAYS[:5]
CRON_DAY = {day: (index + 1) % 7 for index, day in enumerate(DAYS)}  # cron counts from Sunday = 0
DEFAULT_TIME_ZONE = "UTC"


class AmlComputeInstanceArgs(TypedDict):
    """Inputs of AmlComputeInstance."""

    resource_group_name: pulumi.Input[str]
    """Resource group of the workspace."""
    workspace_name: pulumi.Input[str]
    """Name of the existing Azure ML workspace the instance joins (an AmlCluster's workspace_name output works)."""
    location: str
    """Azure region of the instance (the workspace's), e.g. eastus."""
    compute_name: str
    """Name of the instance: 3 to 24 letters, digits and '-', unique in the region (Azure's rule), e.g. ana-gpu-dev."""
    assigned_user_object_id: str
    """Microsoft Entra object id (GUID) of the one user the instance is for; only they can use it."""
    assigned_user_tenant_id: NotRequired[pulumi.Input[str]]
    """Tenant id of that user. Default: the tenant the program deploys with."""
    vm_size: NotRequired[str]
    """VM size from the catalog. Default: Standard_NC4as_T4_v3 (1x T4)."""
    require_gpu: NotRequired[bool]
    """Refuse a vm_size without a GPU. Default: true."""
    idle_shutdown: NotRequired[bool]
    """Stop the instance after idle_time_before_shutdown without activity. Default: true."""
    idle_time_before_shutdown: NotRequired[str]
    """Idle time before the instance stops, ISO 8601 from PT15M to P3D (Azure's range). Default: PT30M."""
    stop_time: NotRequired[str]
    """Stop the instance at this time on schedule_days, HHmm, e.g. 1900. Default: no stop schedule."""
    start_time: NotRequired[str]
    """Start the instance at this time on schedule_days, HHmm; needs stop_time. Default: no start schedule."""
    schedule_days: NotRequired[Sequence[str]]
    """Days the schedules run, Monday to Sunday. Default: Monday to Friday."""
    time_zone: NotRequired[str]
    """Windows time zone id of stop_time and start_time, e.g. W. Europe Standard Time. Default: UTC."""
    enable_ssh: NotRequired[bool]
    """Open the instance's SSH port (as its subnet allows); needs ssh_public_key. Default: false."""
    ssh_public_key: NotRequired[pulumi.Input[str]]
    """OpenSSH public key of the azureuser login, only with enable_ssh. Default: none."""
    enable_node_public_ip: NotRequired[bool]
    """Give the instance a public IP. Default: false (the workspace needs a managed network or subnet_id)."""
    subnet_id: NotRequired[pulumi.Input[str]]
    """Subnet to put the instance in. Default: none (the workspace's managed network)."""
    tags: NotRequired[Mapping[str, str]]
    """Tags on the instance. Default: none."""


class AmlComputeInstance(pulumi.ComponentResource):
    """A GPU compute instance in an Azure ML workspace, for one user, that shuts itself down."""

    compute_name: pulumi.Output[str]
    """Name of the instance in the workspace."""
    vm_size: pulumi.Output[str]
    """VM size of the instance."""
    idle_time_before_shutdown: pulumi.Output[str]
    """The idle shutdown time, or an empty string when idle shutdown is off."""
    schedule: pulumi.Output[str]
    """The start/stop schedule as people read it, e.g. `stop 1900 Monday..Friday (UTC)`; empty when none."""
    principal_id: pulumi.Output[str]
    """Object id of the instance's system-assigned identity, for role assignments (data access)."""

    def __init__(self, name: str, args: AmlComputeInstanceArgs, opts: pulumi.ResourceOptions | None = None):
        self._args = raise_problems("AmlComputeInstance", name, check_inputs(args))
        super().__init__(TYPE_TOKEN, name, None, opts)
        a = self._args
        tenant = a.get("assigned_user_tenant_id") or authorization.get_client_config_output().tenant_id
        instance = ml.Compute(
            f"{name}-instance",
            resource_group_name=a["resource_group_name"],
            workspace_name=a["workspace_name"],
            compute_name=a["compute_name"],
            location=a["location"],
            identity=ml.ManagedServiceIdentityArgs(type="SystemAssigned"),
            properties=ml.ComputeInstanceArgs(
                compute_type=facts.COMPUTE_TYPE,
                properties=ml.ComputeInstancePropertiesArgs(
                    vm_size=a["vm_size"],
                    idle_time_before_shutdown=a["idle_time_before_shutdown"] if a["idle_shutdown"] else None,
                    schedules=_schedules(a),
                    personal_compute_instance_settings=ml.PersonalComputeInstanceSettingsArgs(
                        assigned_user=ml.AssignedUserArgs(object_id=a["assigned_user_object_id"], tenant_id=tenant)
                    ),
                    application_sharing_policy="Personal",  # the SDK's default is Shared
                    ssh_settings=ml.ComputeInstanceSshSettingsArgs(
                        ssh_public_access=ml.SshPublicAccess.ENABLED
                        if a["enable_ssh"]
                        else ml.SshPublicAccess.DISABLED,
                        admin_public_key=a.get("ssh_public_key") if a["enable_ssh"] else None,
                    ),
                    enable_node_public_ip=a["enable_node_public_ip"],
                    subnet=ml.ResourceIdArgs(id=a["subnet_id"]) if a.get("subnet_id") else None,
                ),
            ),
            tags=a["tags"],
            opts=pulumi.ResourceOptions(parent=self),
        )
        self.compute_name = instance.name
        self.vm_size = pulumi.Output.from_input(a["vm_size"])
        self.idle_time_before_shutdown = pulumi.Output.from_input(
            a["idle_time_before_shutdown"] if a["idle_shutdown"] else ""
        )
        self.schedule = pulumi.Output.from_input(schedule_text(a))
        self.principal_id = instance.identity.apply(lambda identity: (identity.principal_id if identity else "") or "")
        self.register_outputs(
            {
                "compute_name": self.compute_name,
                "vm_size": self.vm_size,
                "idle_time_before_shutdown": self.idle_time_before_shutdown,
                "schedule": self.schedule,
                "principal_id": self.principal_id,
            }
        )


def _cron(time: str, days: Sequence[str]) -> str:
    """A five-field cron expression at `time` (HHmm) on `days`, e.g. `0 19 * * 1,2,3,4,5`."""
    return f"{int(time[2:])} {int(time[:2])} * * {','.join(str(CRON_DAY[d]) for d in days)}"


def _schedules(a: Mapping[str, Any]) -> ml.ComputeSchedulesArgs | None:
    planned = [
        (action, a[key])
        for action, key in ((ml.ComputePowerAction.STOP, "stop_time"), (ml.ComputePowerAction.START, "start_time"))
        if a.get(key)
    ]
    if not planned:
        return None
    return ml.ComputeSchedulesArgs(
        compute_start_stop=[
            ml.ComputeStartStopScheduleArgs(
                action=action,
                trigger_type=ml.ComputeTriggerType.CRON,
                cron=ml.CronArgs(expression=_cron(time, a["schedule_days"]), time_zone=a["time_zone"]),
                status=ml.ScheduleStatus.ENABLED,
            )
            for action, time in planned
        ]
    )


def schedule_text(a: Mapping[str, Any]) -> str:
    """The schedule as people read it: `start 0800, stop 1900 Monday..Friday (UTC)`; empty when none."""
    parts = [f"{word} {a[key]}" for word, key in (("start", "start_time"), ("stop", "stop_time")) if a.get(key)]
    if not parts:
        return ""
    return f"{', '.join(parts)} {', '.join(a['schedule_days'])} ({a['time_zone']})"


def check_inputs(args: Mapping[str, Any], day: dt.date | None = None) -> Checked:
    """The inputs with defaults filled in, and every problem found (pure: registers nothing); the size is judged on
    `day` (default: `deployment_day()`)."""
    day = day or deployment_day()
    problems = Problems()
    given = check_shape(AmlComputeInstanceArgs, args, problems)
    a: dict[str, Any] = {
        "vm_size": DEFAULT_VM_SIZE,
        "require_gpu": True,
        "idle_shutdown": True,
        "idle_time_before_shutdown": DEFAULT_IDLE_TIME,
        "schedule_days": list(DEFAULT_DAYS),
        "time_zone": DEFAULT_TIME_ZONE,
        "enable_ssh": False,
        "enable_node_public_ip": False,
        "tags": {},
        **given,
    }
    for key in ("resource_group_name", "workspace_name", "location", "compute_name", "assigned_user_object_id"):
        if not a.get(key):
            problems.add(key, "required key is missing")
    if isinstance(a.get("workspace_name"), str):
        problems.check("workspace_name", aml_workspace_name, a["workspace_name"])
    if a.get("compute_name"):
        problems.check("compute_name", aml_compute_name, a["compute_name"])
    if a.get("assigned_user_object_id"):
        problems.check("assigned_user_object_id", guid, a["assigned_user_object_id"])
    if isinstance(a.get("assigned_user_tenant_id"), str):
        problems.check("assigned_user_tenant_id", guid, a["assigned_user_tenant_id"])
    size_check = gpu_size if a["require_gpu"] else deployable_size_name
    sized = problems.check("vm_size", lambda n: size_check(n, day), a["vm_size"])
    a["vm_size"] = sized or a["vm_size"]
    if a["idle_shutdown"]:
        problems.check("idle_time_before_shutdown", facts.idle_shutdown_time, a["idle_time_before_shutdown"])
    _check_schedule(a, problems)
    if not a["idle_shutdown"] and not a.get("stop_time") and a["require_gpu"]:
        problems.add(
            "idle_shutdown",
            "false with no stop_time: the GPU instance would never stop itself; allowed: keep idle shutdown on, or set "
            "stop_time (e.g. 1900)",
        )
    if a["enable_ssh"] and not a.get("ssh_public_key"):
        problems.add("ssh_public_key", "required when enable_ssh is true (Azure ML logs in with a key only)")
    if not a["enable_ssh"] and a.get("ssh_public_key"):
        problems.add("ssh_public_key", "only with enable_ssh: true; allowed: leave it unset while SSH is closed")
    if a.get("subnet_id") is not None:
        problems.check("subnet_id", subnet_id, a["subnet_id"])
    return problems.checked(a)


def _check_schedule(a: dict[str, Any], problems: Problems) -> None:
    for key in ("stop_time", "start_time"):
        if a.get(key) is not None:
            problems.check(key, time_of_day, a[key])
    if a.get("start_time") and not a.get("stop_time"):
        problems.add("start_time", "needs stop_time: an instance started on schedule must also stop on one")
    days = a["schedule_days"]
    unknown = [d for d in days if d not in DAYS]
    if unknown or not days or len(set(days)) != len(days):
        problems.add("schedule_days", f"{list(days)!r}; allowed: one or more of {', '.join(DAYS)}, each once")
    zone = problems.check("time_zone", windows_time_zone, a["time_zone"])
    a["time_zone"] = zone or a["time_zone"]
