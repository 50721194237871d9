"""Azure ML compute instances (a workspace's per-person dev box): the facts the component, the fake ARM and the
policy share.

Sources (observed 2026-11-26):
- Idle shutdown: "Create an Azure Machine Learning compute instance",
  https://learn.microsoft.com/azure/machine-learning/how-to-create-compute-instance (section "Configure idle
  shutdown": from 15 minutes to 3 days), and the REST spec's `idleTimeBeforeShutdown` ("Time is defined in ISO8601
  format. Minimum is 15 min, maximum is 3 days.", Azure/azure-rest-api-specs,
  specification/machinelearningservices/.../machineLearningServices.json, as the azure-native SDK carries it).
- Start/stop schedules (`schedules.computeStartStop`: action Start or Stop, a Cron or Recurrence trigger, status,
  a time zone) and SSH (`sshSettings.sshPublicAccess`, `adminPublicKey`): the same page, sections "Schedule automatic
  start and stop" and "Enable SSH access"; their enums are the SDK's (the fake ARM checks every enum from it:
  `fakeazure/enums.py`).
- Assignment to one user (`personalComputeInstanceSettings.assignedUser`, objectId and tenantId): same page,
  section "Create on behalf of".
"""

from __future__ import annotations

from .durations import iso_duration_between

COMPUTE_TYPE = "ComputeInstance"
IDLE_SHUTDOWN_MIN, IDLE_SHUTDOWN_MAX = "PT15M", "P3D"
IDLE_SHUTDOWN_MIN_SECONDS, IDLE_SHUTDOWN_MAX_SECONDS = 15 * 60, 3 * 24 * 3600

idle_shutdown_time = iso_duration_between(
    IDLE_SHUTDOWN_MIN_SECONDS, IDLE_SHUTDOWN_MAX_SECONDS, IDLE_SHUTDOWN_MIN, IDLE_SHUTDOWN_MAX
)
"""A check: an idle shutdown time Azure accepts, PT15M to P3D; raises ValueError naming the range otherwise."""
