"""No policy ever raises: every property of compliant resources replaced, one at a time, by a value of
the wrong kind, None, or a preview unknown, then run through the whole pack as the engine runs it.

Each of the 1,044 runs sends `Analyze` for all nine resources, and eight of them are the baseline's own,
request for request: the pack's servicer answers such a request, under the same `Configure`, with the answer it
gave the first time (`AnsweredOnce`), so that each run's policy work is the changed resource's `Analyze` and the
whole stack's `AnalyzeStack`. A resource policy sees only its resource, its options and the pack's config (the
request), so the answer it gave is the one it would give again."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from azure_gpu_stacks.engine.run import policy_run

from tests.policy_helpers import Res, run_pack

UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
SECRET_KEY = "4dabf18193072939515e22adb298388d"
ODD_VALUES: list[Any] = [
    None,
    0.0,
    -1.0,
    True,
    "",
    "x",
    [],
    [None],
    {},
    {"x": None},
    UNKNOWN,
    {SECRET_KEY: "1b47061264138c4ac30d75fd1eb44270", "value": None},
]

BASELINE = [
    Res("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg-gpu", "location": "eastus"}),
    Res(
        "azure-native:compute:VirtualMachine",
        "vm",
        {
            "resourceGroupName": "rg-gpu",
            "hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"},
            "osProfile": {"linuxConfiguration": {"disablePasswordAuthentication": True}},
            "securityProfile": {"encryptionAtHost": True},
            "identity": {"type": "SystemAssigned"},
        },
        ["rg"],
    ),
    Res(
        "azure-native:compute:VirtualMachineScaleSet",
        "vmss",
        {
            "resourceGroupName": "rg-gpu",
            "sku": {"name": "Standard_ND96asr_v4", "capacity": 2.0},
            "orchestrationMode": "Uniform",
            "singlePlacementGroup": True,
            "proximityPlacementGroup": {"id": "/ppg"},
            "virtualMachineProfile": {
                "osProfile": {"linuxConfiguration": {"disablePasswordAuthentication": True}},
                "securityProfile": {"encryptionAtHost": True},
            },
            "identity": {"type": "SystemAssigned"},
        },
        ["rg"],
    ),
    Res(
        "azure-native:monitor:AutoscaleSetting",
        "vmss-autoscale",
        {
            "enabled": True,
            "targetResourceUri": "/vmss",
            "profiles": [{"name": "off", "capacity": {"minimum": "0", "maximum": "0", "default": "0"}, "rules": []}],
        },
        ["vmss"],
    ),
    Res(
        "azure-native:containerservice:ManagedCluster",
        "aks",
        {
            "resourceGroupName": "rg-gpu",
            "identity": {"type": "SystemAssigned"},
            "agentPoolProfiles": [
                {
                    "name": "gpu",
                    "vmSize": "Standard_NC4as_T4_v3",
                    "nodeTaints": ["sku=gpu:NoSchedule"],
                    "enableEncryptionAtHost": True,
                }
            ],
            "apiServerAccessProfile": {"authorizedIPRanges": ["73.140.245.0/24"]},
            "disableLocalAccounts": True,
            "aadProfile": {"managed": True, "enableAzureRBAC": True},
        },
        ["rg"],
    ),
    Res(
        "azure-native:machinelearningservices:Compute",
        "aml",
        {
            "resourceGroupName": "rg-gpu",
            "identity": {"type": "SystemAssigned"},
            "properties": {
                "computeType": "AmlCompute",
                "disableLocalAuth": True,
                "properties": {
                    "vmSize": "Standard_NC24ads_A100_v4",
                    "scaleSettings": {"minNodeCount": 0.0, "maxNodeCount": 2.0, "nodeIdleTimeBeforeScaleDown": "PT15M"},
                },
            },
        },
        ["rg"],
    ),
    Res(
        "azure-native:network:NetworkSecurityGroup",
        "nsg",
        {
            "securityRules": [
                {
                    "name": "ssh",
                    "direction": "Inbound",
                    "access": "Allow",
                    "protocol": "Tcp",
                    "sourceAddressPrefix": "203.0.113.0/24",
                    "destinationPortRange": "22",
                }
            ]
        },
        ["rg"],
    ),
    Res(
        "azure-native:devtestlab:GlobalSchedule",
        "shutdown",
        {
            "taskType": "ComputeVmShutdownTask",
            "status": "Enabled",
            "targetResourceId": "/vm",
            "name": "shutdown-computevm-vm",
        },
        ["vm"],
    ),
    Res(
        "azure-native:consumption:Budget",
        "budget",
        {
            "scope": "/subscriptions/0/resourceGroups/rg-gpu",
            # Coherent for warn-incoherent-budgets: above the baseline's idle month (the ND scale set at
            # capacity 2 runs around the clock, about 40,500 USD at the catalog's eastus price) and below
            # three times its full-scale month.
            "amount": 80000.0,
            "notifications": {"a": {"enabled": True, "threshold": 80.0, "contactEmails": ["a@example.com"]}},
        },
        ["rg"],
    ),
]


def leaf_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into `value`, containers included."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaf_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaf_paths(item, (*path, index))


def with_value(props: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    import copy

    result = copy.deepcopy(props)
    target: Any = result
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return result


CASES = [(i, path) for i, res in enumerate(BASELINE) for path in leaf_paths(res.props)]


class AnsweredOnce:
    """The pack's servicer, answering an `Analyze` request it answered before, byte for byte under the same
    `Configure` request, with the answer it gave then; every other call goes to the servicer. The requests are
    kept by their SHA-256 (the bytes of a thousand runs' requests and configurations were 1.4 MB)."""

    answers: dict[bytes, Any] = {}

    def __init__(self, servicer: Any) -> None:
        self._servicer = servicer
        self._configured = b""

    def Configure(self, request: Any, context: Any) -> Any:  # noqa: N802 - the servicer's gRPC method name
        self._configured = hashlib.sha256(request.SerializeToString(deterministic=True)).digest()
        return self._servicer.Configure(request, context)

    def Analyze(self, request: Any, context: Any) -> Any:  # noqa: N802
        key = hashlib.sha256(self._configured + request.SerializeToString(deterministic=True)).digest()
        if key not in self.answers:
            self.answers[key] = self._servicer.Analyze(request, context)
        return self.answers[key]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._servicer, name)


@pytest.fixture(autouse=True)
def analyze_answered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    servicer = policy_run.policy_servicer
    monkeypatch.setattr(policy_run, "policy_servicer", lambda *args: AnsweredOnce(servicer(*args)))


def test_robustness_baseline_is_compliant() -> None:
    assert run_pack(BASELINE) == []


@pytest.mark.parametrize(
    ("index", "path"), CASES, ids=[f"{BASELINE[i].name}:{'.'.join(map(str, p))}" for i, p in CASES]
)
def test_robustness_no_policy_raises_on_any_odd_value(index: int, path: tuple[Any, ...]) -> None:
    for odd in ODD_VALUES:
        stack = list(BASELINE)
        stack[index] = Res(
            BASELINE[index].type,
            BASELINE[index].name,
            with_value(BASELINE[index].props, path, odd),
            BASELINE[index].depends_on,
        )

        violations = run_pack(stack)  # raises if any policy raises

        assert all(v["message"] and "can't run policy" not in v["message"] for v in violations), violations
