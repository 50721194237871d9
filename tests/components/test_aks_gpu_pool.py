"""AksGpuPool: each property the component promises, asserted on what the engine receives."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FakeArm

from tests.components.test_aks_gpu_scheduling import GPU_TOLERATION, SPOT_TOLERATION
from tests.conftest import TEST_RG, Recording, in_resource_group, recorded

CLUSTER = "azure-native:containerservice:ManagedCluster"
POOL = "azure-native:containerservice:AgentPool"
DAEMONSET = "kubernetes:apps/v1:DaemonSet"
K8S_PROVIDER = "pulumi:providers:kubernetes"
ROLE = "azure-native:authorization:RoleAssignment"
EXISTING_ID = (
    f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}/providers/"
    "Microsoft.ContainerService/managedClusters/shared-aks"
)


def build_pool(**overrides: Any) -> Callable[[], None]:
    def build(rg: Any) -> None:
        import pulumi
        from azure_gpu_stacks.components.aks_gpu_pool import AksGpuPool

        args = {"resource_group_name": rg.name, "location": "eastus", **overrides}
        pool = AksGpuPool("aks", {k: v for k, v in args.items() if v is not None})  # type: ignore[arg-type]
        pulumi.export("clusterName", pool.cluster_name)
        pulumi.export("clusterId", pool.cluster_id)
        pulumi.export("poolName", pool.pool_name)
        pulumi.export("vmSize", pool.vm_size)
        pulumi.export("nodeRange", pool.node_range)
        pulumi.export("kubeconfig", pool.kubeconfig)
        pulumi.export("podScheduling", pool.pod_scheduling())

    return in_resource_group(build)


def daemonset_pod_spec(rec: Recording) -> dict[str, Any]:
    return rec.inputs(DAEMONSET)["spec"]["template"]["spec"]


def existing_cluster(arm: FakeArm) -> None:
    """A cluster someone else made, already in the fake subscription with the test resource group."""
    seed = "existing"
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": TEST_RG, "location": "eastus"}, seed)
    arm.put(
        CLUSTER,
        "shared",
        {
            "resourceGroupName": TEST_RG,
            "resourceName": "shared-aks",
            "location": "eastus",
            "dnsPrefix": "shared",
            "agentPoolProfiles": [{"name": "system", "mode": "System", "count": 3, "vmSize": "Standard_D4s_v5"}],
        },
        seed,
    )


def existing_cluster_program(existing: dict[str, str], **overrides: Any) -> Callable[[], None]:
    """The pool alone: the resource group and the cluster exist already."""

    def program() -> None:
        import pulumi
        from azure_gpu_stacks.components.aks_gpu_pool import AksGpuPool

        pool = AksGpuPool("aks", {"existing_cluster": existing, **overrides})  # type: ignore[typeddict-item]
        pulumi.export("clusterId", pool.cluster_id)
        pulumi.export("kubeconfig", pool.kubeconfig)

    return program


@pytest.fixture(scope="module")
def default_pool() -> Iterator[Recording]:
    """`build_pool()` with every default, recorded once for the tests that only read it."""
    with recorded(build_pool()) as rec:
        yield rec


def test_aks_gpu_pool_new_cluster_has_a_cpu_system_pool_azure_rbac_and_no_local_accounts(
    record: Callable[..., Recording],
) -> None:
    cluster = record(build_pool(kubernetes_version="1.33")).inputs(CLUSTER)

    assert cluster["agentPoolProfiles"] == [
        {
            "name": "system",
            "mode": "System",
            "vmSize": "Standard_D4s_v5",
            "count": 2,
            "osType": "Linux",
            "type": "VirtualMachineScaleSets",
        }
    ]
    assert cluster["identity"] == {"type": "SystemAssigned"}
    assert cluster["aadProfile"] == {"managed": True, "enableAzureRBAC": True}
    assert (cluster["enableRBAC"], cluster["disableLocalAccounts"], cluster["kubernetesVersion"]) == (
        True,
        True,
        "1.33",
    )


def test_aks_gpu_pool_gpu_pool_is_tainted_labelled_and_autoscaled_from_zero(default_pool: Recording) -> None:
    pool = default_pool.inputs(POOL)

    assert (pool["mode"], pool["vmSize"], pool["agentPoolName"]) == ("User", "Standard_NC4as_T4_v3", "gpu")
    assert pool["nodeTaints"] == ["sku=gpu:NoSchedule"]
    assert pool["nodeLabels"] == {"accelerator": "nvidia", "gpu-model": "nvidia-t4"}
    assert (pool["enableAutoScaling"], pool["count"], pool["minCount"], pool["maxCount"]) == (True, 0, 0, 2)
    assert pool["gpuProfile"] == {"driver": "Install"}
    assert "scaleSetPriority" not in pool and "gpuInstanceProfile" not in pool


def test_aks_gpu_pool_leaves_the_node_count_to_the_autoscaler(default_pool: Recording) -> None:
    assert default_pool.one(POOL).ignore_changes == ("count",)


def test_aks_gpu_pool_joins_the_cluster_it_creates(default_pool: Recording) -> None:
    rec = default_pool
    cluster = next(r for r in rec.arm.resources() if r.type == "Microsoft.ContainerService/managedClusters")
    pool = rec.inputs(POOL)

    assert (pool["resourceGroupName"], pool["resourceName"]) == (TEST_RG, cluster.name)
    assert rec.outputs["clusterName"] == cluster.name
    assert rec.outputs["clusterId"] == cluster.id
    assert rec.refusals == []


def test_aks_gpu_pool_outputs_pool_size_and_node_range(record: Callable[..., Recording]) -> None:
    outputs = record(build_pool(vm_size="Standard_NC8as_T4_v3", min_count=1, max_count=4)).outputs

    assert (outputs["poolName"], outputs["vmSize"], outputs["nodeRange"]) == ("gpu", "Standard_NC8as_T4_v3", "1..4")


def test_aks_gpu_pool_kubeconfig_is_a_secret_pointing_at_the_cluster(default_pool: Recording) -> None:
    rec = default_pool
    cluster = next(r for r in rec.arm.resources() if r.type == "Microsoft.ContainerService/managedClusters")
    kubeconfig = yaml.safe_load(rec.outputs["kubeconfig"])

    assert "kubeconfig" in rec.result.secret_outputs
    assert kubeconfig["clusters"][0]["cluster"]["server"] == f"https://{cluster.outputs['fqdn']}:443"
    assert re.fullmatch(r"aks-[0-9a-f]{8}\.hcp\.eastus\.azmk8s\.io", cluster.outputs["fqdn"])


def test_aks_gpu_pool_deploys_the_pinned_device_plugin_tolerating_the_taint(default_pool: Recording) -> None:
    rec = default_pool
    daemonset = rec.inputs(DAEMONSET)
    pod = daemonset_pod_spec(rec)

    assert daemonset["metadata"] == {"name": "nvidia-device-plugin-daemonset", "namespace": "gpu-resources"}
    assert [c["image"] for c in pod["containers"]] == ["nvcr.io/nvidia/k8s-device-plugin:v0.18.0"]
    assert pod["priorityClassName"] == "system-node-critical"
    assert GPU_TOLERATION in pod["tolerations"]
    assert pod["nodeSelector"] == {"accelerator": "nvidia"}
    assert rec.inputs("kubernetes:core/v1:Namespace")["metadata"] == {"name": "gpu-resources"}


def test_aks_gpu_pool_device_plugin_reaches_the_cluster_through_its_kubeconfig(
    default_pool: Recording,
) -> None:
    rec = default_pool
    provider = rec.one(K8S_PROVIDER)

    assert yaml.safe_load(provider.plain_inputs()["kubeconfig"])["kind"] == "Config"
    assert provider.shown_inputs()["kubeconfig"] == "[secret]"


def test_aks_gpu_pool_device_plugin_waits_for_the_deployer_role(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(deployer_principal_type="ServicePrincipal"))
    role = rec.one(ROLE)

    assert role.plain_inputs()["roleDefinitionId"].endswith("/roleDefinitions/b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b")
    assert role.plain_inputs()["principalType"] == "ServicePrincipal"
    assert role.urn in rec.one(DAEMONSET).dependencies


def test_aks_gpu_pool_names_the_new_cluster_and_its_dns_prefix(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(cluster_name="ml-aks", system_node_count=3))
    cluster = rec.inputs(CLUSTER)

    assert (cluster["resourceName"], cluster["dnsPrefix"], cluster["agentPoolProfiles"][0]["count"]) == (
        "ml-aks",
        "ml-aks",
        3,
    )
    assert rec.outputs["clusterName"] == "ml-aks"


def test_aks_gpu_pool_without_deployer_role_when_asked(record: Callable[..., Recording]) -> None:
    rec = record(
        build_pool(grant_deployer_admin=False, admin_group_object_ids=["11111111-2222-3333-4444-555555555555"])
    )

    assert rec.of_type(ROLE) == []
    assert rec.inputs(CLUSTER)["aadProfile"]["adminGroupObjectIDs"] == ["11111111-2222-3333-4444-555555555555"]


@pytest.mark.parametrize("overrides", [{"gpu_driver": "None"}, {"install_device_plugin": False}])
def test_aks_gpu_pool_leaves_the_device_plugin_to_another_tool(
    record: Callable[..., Recording], overrides: dict[str, Any]
) -> None:
    rec = record(build_pool(**overrides))

    assert rec.of_type(DAEMONSET) == [] and rec.of_type(K8S_PROVIDER) == []
    assert rec.inputs(POOL)["gpuProfile"] == {"driver": overrides.get("gpu_driver", "Install")}


def test_aks_gpu_pool_spot_adds_priority_and_warns_about_the_spot_taint(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(spot=True))
    pool = rec.inputs(POOL)

    assert (pool["scaleSetPriority"], pool["scaleSetEvictionPolicy"], pool["spotMaxPrice"]) == ("Spot", "Delete", -1)
    [warning] = [log.message for log in rec.result.logs if "kubelogin" not in log.message]
    assert "kubernetes.azure.com/scalesetpriority=spot:NoSchedule" in warning and "sku=gpu:NoSchedule" in warning
    assert rec.outputs["podScheduling"]["tolerations"] == [GPU_TOLERATION, SPOT_TOLERATION]


def test_aks_gpu_pool_device_plugin_tolerates_spot_nodes(record: Callable[..., Recording]) -> None:
    assert SPOT_TOLERATION in daemonset_pod_spec(record(build_pool(spot=True)))["tolerations"]


def test_aks_gpu_pool_regular_pool_pods_need_only_the_gpu_toleration(default_pool: Recording) -> None:
    scheduling = default_pool.outputs["podScheduling"]

    t4 = catalog().get("Standard_NC4as_T4_v3").gpu_model
    assert scheduling == {
        "tolerations": [GPU_TOLERATION],
        "resources": {"requests": {"nvidia.com/gpu": 1}, "limits": {"nvidia.com/gpu": 1}},
        "nodeSelector": {"gpu-model": "-".join(str(t4).lower().split())},
    }


def test_aks_gpu_pool_mig_profile_on_a100_with_single_strategy_plugin(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(vm_size="Standard_NC24ads_A100_v4", mig_profile="MIG3g"))

    assert rec.inputs(POOL)["gpuInstanceProfile"] == "MIG3g"
    assert rec.inputs(POOL)["nodeLabels"]["gpu-model"] == "nvidia-a100-80gb-pcie"
    assert {"name": "MIG_STRATEGY", "value": "single"} in daemonset_pod_spec(rec)["containers"][0]["env"]
    assert rec.refusals == []


def test_aks_gpu_pool_extra_taints_are_kept_and_tolerated(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(node_taints=["sku=gpu:NoSchedule", "team=vision:NoSchedule"]))

    assert rec.inputs(POOL)["nodeTaints"] == ["sku=gpu:NoSchedule", "team=vision:NoSchedule"]
    assert {"key": "team", "operator": "Equal", "value": "vision", "effect": "NoSchedule"} in daemonset_pod_spec(rec)[
        "tolerations"
    ]


def test_aks_gpu_pool_on_an_existing_cluster_by_id_creates_no_cluster(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    existing_cluster(fake_arm)
    rec = record(existing_cluster_program({"id": EXISTING_ID}))

    assert rec.of_type(CLUSTER) == [] and rec.of_type(ROLE) == []
    assert (rec.inputs(POOL)["resourceGroupName"], rec.inputs(POOL)["resourceName"]) == (TEST_RG, "shared-aks")
    assert rec.outputs["clusterId"] == EXISTING_ID
    assert rec.refusals == []


def test_aks_gpu_pool_on_an_existing_cluster_by_name_builds_its_id(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    existing_cluster(fake_arm)
    rec = record(existing_cluster_program({"name": "shared-aks", "resource_group_name": TEST_RG}))

    assert rec.outputs["clusterId"] == EXISTING_ID
    assert "shared-" in yaml.safe_load(rec.outputs["kubeconfig"])["clusters"][0]["cluster"]["server"]


def test_aks_gpu_pool_on_a_missing_existing_cluster_fails_as_azure_would(record: Callable[..., Recording]) -> None:
    with pytest.raises(Exception, match="ResourceNotFound: The Resource '.*/managedClusters/shared-aks' was not found"):
        record(existing_cluster_program({"id": EXISTING_ID}))


def test_aks_gpu_pool_children_are_parented_to_the_component(default_pool: Recording) -> None:
    rec = default_pool
    component = rec.one("azure-gpu-stacks:index:AksGpuPool")

    children = {r.type for r in rec.resources if r.parent == component.urn}
    assert children == {CLUSTER, POOL, ROLE, K8S_PROVIDER, DAEMONSET, "kubernetes:core/v1:Namespace"}


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"vm_size": "Standard_D4s_v5"}, "vm_size: 'Standard_D4s_v5' has no GPU"),
        ({"vm_size": "Standard_NC6s_v3"}, "vm_size: 'Standard_NC6s_v3' was retired on 2025-09-30"),
        (
            {"vm_size": "Standard_ND96isr_MI300X_v5"},
            "vm_size: 'Standard_ND96isr_MI300X_v5' has AMD Instinct MI300X GPUs",
        ),
        (
            {"system_vm_size": "Standard_NC4as_T4_v3"},
            "system_vm_size: 'Standard_NC4as_T4_v3' has a GPU; the system pool runs cluster services",
        ),
        ({"min_count": 3, "max_count": 1}, "min_count: 3 is above max_count 1; allowed: min_count <= max_count"),
        ({"max_count": 0}, "max_count: 0; allowed: a whole number from 1 to 1000"),
        (
            {"node_taints": ["team=vision:NoSchedule"]},
            "node_taints: ['team=vision:NoSchedule'] drops sku=gpu:NoSchedule",
        ),
        ({"node_taints": ["sku=gpu:Sometimes"]}, "node_taints[0]: 'sku=gpu:Sometimes' is not a taint"),
        (
            {"mig_profile": "MIG1g"},
            "mig_profile: MIG1g on 'Standard_NC4as_T4_v3' (NVIDIA T4): AKS splits GPUs only on",
        ),
        (
            {"mig_profile": "MIG5g", "vm_size": "Standard_NC24ads_A100_v4"},
            "mig_profile: 'MIG5g'; allowed: MIG1g, MIG2g, MIG3g, MIG4g, MIG7g",
        ),
        ({"gpu_driver": "None", "install_device_plugin": True}, "install_device_plugin: true with gpu_driver None"),
        ({"pool_name": "GPU-pool"}, "pool_name: 'GPU-pool' cannot name an AKS node pool"),
        ({"kubernetes_version": "latest"}, "kubernetes_version: 'latest' is not a Kubernetes version"),
        ({"spot_max_price": 0}, "spot_max_price: 0 is not a Spot price cap"),
        ({"location": None}, "location: required for a new cluster and missing"),
    ],
)
def test_aks_gpu_pool_refuses_bad_args_before_registering_anything(
    record: Callable[..., Recording], fake_arm: FakeArm, overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_pool(**overrides))

    assert expected in str(err.value)
    assert str(err.value).startswith("AksGpuPool 'aks': ")
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


@pytest.mark.parametrize(
    ("existing", "overrides", "expected"),
    [
        (
            {"id": "/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm"},
            {},
            "existing_cluster.id: '/subscriptions/x/",
        ),
        (
            {"name": "shared-aks"},
            {},
            "existing_cluster: {'name': 'shared-aks'}; allowed: {id} or {name, resource_group_name}",
        ),
        ({"id": EXISTING_ID}, {"system_vm_size": "Standard_D8s_v5"}, "system_vm_size: only shapes a new cluster"),
    ],
)
def test_aks_gpu_pool_refuses_bad_existing_cluster_args(
    record: Callable[..., Recording], existing: dict[str, str], overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError, match=re.escape(expected)):
        record(existing_cluster_program(existing, **overrides))


def test_aks_gpu_pool_kubeconfig_decodes_what_arm_returns(fake_arm: FakeArm) -> None:
    existing_cluster(fake_arm)
    answer = fake_arm.invoke(
        "azure-native:containerservice:listManagedClusterUserCredentials",
        {"resourceGroupName": TEST_RG, "resourceName": "shared-aks"},
    )

    from azure_gpu_stacks.components.aks_cluster import first_kubeconfig

    decoded = first_kubeconfig(answer["kubeconfigs"])
    assert decoded == base64.b64decode(answer["kubeconfigs"][0]["value"]).decode()
    assert yaml.safe_load(decoded)["current-context"] == "shared-aks"
