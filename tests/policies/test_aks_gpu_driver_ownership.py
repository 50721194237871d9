"""aks-gpu-driver-ownership: each test starts from a compliant cluster and changes one thing.

Compliant: a T4 pool tainted sku=gpu:NoSchedule with the AKS driver and NVIDIA's device plugin
tolerating the taint. The values that make a mode (driver/toolkit enabled) are NVIDIA's (aicr's AKS
profiles), written here as NVIDIA writes them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, found

POLICY = "aks-gpu-driver-ownership"
POOL = "azure-native:containerservice:AgentPool"
DAEMONSET = "kubernetes:apps/v1:DaemonSet"
RELEASE = "kubernetes:helm.sh/v3:Release"
SKU_GPU = {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}
SPOT = {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Equal", "value": "spot", "effect": "NoSchedule"}


def pool(**overrides: Any) -> Res:
    name = overrides.pop("name", "gpu-pool")
    props = {
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "agentPoolName": "gpu",
        "vmSize": "Standard_NC4as_T4_v3",
        "nodeTaints": ["sku=gpu:NoSchedule"],
        "gpuProfile": {"driver": "Install"},
        **overrides,
    }
    return Res(POOL, name, props)


def plugin(*, tolerations: list[dict[str, str]] | None = None, env: list[dict[str, str]] | None = None) -> Res:
    container = {"name": "ctr", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.18.0", "env": env or []}
    spec = {"tolerations": [SKU_GPU] if tolerations is None else tolerations, "containers": [container]}
    return Res(DAEMONSET, "device-plugin", {"spec": {"template": {"spec": spec}}})


def operator(values: dict[str, Any], name: str = "gpu-operator") -> Res:
    return Res(RELEASE, name, {"chart": "gpu-operator", "version": "v26.7.1", "values": values})


def operator_values(driver: bool, **extra: Any) -> dict[str, Any]:
    values = {
        "driver": {"enabled": driver},
        "toolkit": {"enabled": driver},
        "daemonsets": {"tolerations": [SKU_GPU]},
        "node-feature-discovery": {"worker": {"tolerations": [SKU_GPU]}},
    }
    values.update(copy.deepcopy(extra))
    return values


def messages(resources: list[Res]) -> list[str]:
    return [message for _, _, message in found(resources, POLICY)]


def test_compliant_aks_driver_with_one_tolerating_device_plugin_passes() -> None:
    assert messages([pool(), plugin()]) == []


@pytest.mark.parametrize(
    ("driver", "values"),
    [("Install", operator_values(False)), ("None", operator_values(True))],
)
def test_each_mode_with_a_matching_operator_passes(driver: str, values: dict[str, Any]) -> None:
    assert messages([pool(gpuProfile={"driver": driver}), operator(values)]) == []


def test_a_second_advertiser_is_reported_naming_both() -> None:
    [message] = messages([pool(), plugin(), operator(operator_values(False))])

    assert "2 GPU advertisers" in message and "device-plugin" in message and "gpu-operator" in message


def test_an_operator_without_its_device_plugin_is_not_a_second_advertiser() -> None:
    values = operator_values(False, devicePlugin={"enabled": False})

    assert messages([pool(), plugin(), operator(values)]) == []


def test_an_operator_owning_the_driver_on_an_aks_driver_pool_is_reported() -> None:
    [message] = messages([pool(), operator(operator_values(True))])

    assert "driver.enabled=True, toolkit.enabled=True" in message and "AKS-managed driver" in message


def test_an_operator_left_at_the_chart_defaults_owns_the_driver_and_is_reported_on_an_aks_driver_pool() -> None:
    values = operator_values(True)
    del values["driver"], values["toolkit"]

    assert any("driver.enabled=True" in m for m in messages([pool(), operator(values)]))


def test_an_operator_that_leaves_the_driver_to_a_pool_without_one_is_reported() -> None:
    [message] = messages([pool(gpuProfile={"driver": "None"}), operator(operator_values(False))])

    assert "driver.enabled=False, toolkit.enabled=False" in message and "operator-managed driver" in message


def test_a_pool_without_a_driver_and_without_an_operator_is_reported() -> None:
    [message] = messages([pool(gpuProfile={"driver": "None"}), plugin()])

    assert "gpuProfile.driver None" in message and "nothing installs the NVIDIA driver" in message


def test_pools_of_both_modes_under_one_operator_are_reported() -> None:
    pools = [pool(), pool(name="gpu2-pool", agentPoolName="gpu2", gpuProfile={"driver": "None"})]

    assert any("serves pools of both driver modes" in m for m in messages([*pools, operator(operator_values(True))]))


def test_a_mig_pool_whose_device_plugin_has_no_strategy_is_reported() -> None:
    mig = pool(vmSize="Standard_NC24ads_A100_v4", gpuInstanceProfile="MIG1g")

    [message] = messages([mig, plugin()])
    assert "splits its GPUs (MIG1g)" in message
    assert messages([mig, plugin(env=[{"name": "MIG_STRATEGY", "value": "mixed"}])]) == []


def test_an_advertiser_that_does_not_tolerate_the_pool_taint_is_reported() -> None:
    [message] = messages([pool(), plugin(tolerations=[])])

    assert "does not tolerate sku=gpu:NoSchedule" in message


def test_a_spot_pool_needs_the_spot_toleration_on_the_operator_and_its_feature_discovery() -> None:
    spot = pool(scaleSetPriority="Spot")
    found_messages = messages([spot, operator(operator_values(False))])

    assert len(found_messages) == 2
    assert all("kubernetes.azure.com/scalesetpriority=spot:NoSchedule" in m for m in found_messages)
    tolerant = operator_values(
        False,
        daemonsets={"tolerations": [SKU_GPU, SPOT]},
        **{"node-feature-discovery": {"worker": {"tolerations": [SKU_GPU, SPOT]}}},
    )
    assert messages([spot, operator(tolerant)]) == []


def test_a_cpu_pool_and_objects_without_gpu_pools_are_left_alone() -> None:
    assert messages([pool(vmSize="Standard_D4s_v5", gpuProfile={"driver": "None"}), plugin(tolerations=[])]) == []


# --- in its words ----------------------------------------------------------------------------------
# aks-gpu-driver-ownership in its words: each problem as a reviewer reads it, naming the pool and its
# cluster (a standalone AgentPool or a GPU entry of a ManagedCluster's agentPoolProfiles), and tolerations
# matched as Kubernetes matches them.

CLUSTER = "azure-native:containerservice:ManagedCluster"
NO_DRIVER = (
    "has gpuProfile.driver None (operator-managed driver) but no GPU Operator is deployed to the cluster: nothing "
    "installs the NVIDIA driver, and its nodes advertise no GPUs; deploy the GPU Operator with driver.enabled=true "
    "and toolkit.enabled=true (AksGpuPool: gpu_operator true)."
)
NEVER_RUNS = "so it never runs on those GPU nodes; add a toleration for each taint."


def reported(resources: list[Res]) -> list[tuple[str, str, str]]:
    return found(resources, POLICY)


def test_a_gpu_pool_inside_a_clusters_agent_pool_profiles_is_judged_as_its_own_pool() -> None:
    inline = {"name": "gpu", "vmSize": "Standard_NC4as_T4_v3", "gpuProfile": {"driver": "None"}}
    system = {"name": "system", "vmSize": "Standard_D4s_v5", "mode": "System"}
    cluster = Res(
        CLUSTER,
        "aks-cluster",
        {"resourceGroupName": "rg", "resourceName": "aks", "agentPoolProfiles": [system, inline]},
    )

    assert reported([cluster]) == [("mandatory", "(stack)", f"pool 'gpu' of cluster rg/aks {NO_DRIVER}")]


def test_a_pool_whose_cluster_is_not_named_is_named_by_its_resource() -> None:
    unnamed = Res(POOL, "gpu-pool", {"vmSize": "Standard_NC4as_T4_v3", "gpuProfile": {"driver": "None"}})

    assert reported([unnamed, plugin()]) == [("mandatory", "(stack)", f"pool 'gpu-pool' of cluster ?/? {NO_DRIVER}")]


@pytest.mark.parametrize(
    ("resources", "message"),
    [
        (
            [pool(), plugin(), operator(operator_values(False))],
            "cluster rg/aks: 2 GPU advertisers (device plugin DaemonSet 'device-plugin', GPU Operator release "
            "'gpu-operator') would advertise the same GPUs and double-allocate them; keep one (AksGpuPool: "
            "gpu_operator on one pool, install_device_plugin false on the others).",
        ),
        (
            [pool(), operator(operator_values(True))],
            "cluster rg/aks: GPU Operator release 'gpu-operator' has driver.enabled=True, toolkit.enabled=True but the "
            "GPU pools are in AKS-managed driver mode (gpuProfile.driver Install); set driver.enabled and "
            "toolkit.enabled to false, or the pools' driver to None: mixing them leaves containerd without an nvidia "
            'runtime (FailedCreatePodSandBox: no runtime for "nvidia").',
        ),
        (
            [
                pool(),
                pool(name="gpu2-pool", agentPoolName="gpu2", gpuProfile={"driver": "None"}),
                operator(operator_values(True)),
            ],
            "cluster rg/aks: GPU Operator release 'gpu-operator' serves pools of both driver modes (pool 'gpu' of "
            "cluster rg/aks: Install, pool 'gpu2' of cluster rg/aks: None); one operator configuration cannot own the "
            "driver on some nodes and not others: give every GPU pool of the cluster one gpuProfile.driver.",
        ),
        (
            [pool(vmSize="Standard_NC24ads_A100_v4", gpuInstanceProfile="MIG1g"), plugin()],
            "pool 'gpu' of cluster rg/aks splits its GPUs (MIG1g) but device plugin DaemonSet 'device-plugin' runs "
            "without a MIG strategy, so no MIG slice is advertised; set MIG_STRATEGY (device plugin) or mig.strategy "
            "(GPU Operator) to single or mixed.",
        ),
        (
            [pool(), plugin(tolerations=[])],
            f"device plugin DaemonSet 'device-plugin' does not tolerate sku=gpu:NoSchedule of pool 'gpu' of cluster "
            f"rg/aks, {NEVER_RUNS}",
        ),
    ],
    ids=["two-advertisers", "operator-owns-aks-driver", "both-modes", "mig-without-strategy", "intolerant"],
)
def test_each_problem_names_the_pool_its_cluster_and_what_to_do(resources: list[Res], message: str) -> None:
    assert reported(resources) == [("mandatory", "(stack)", message)]


def test_a_spot_pool_names_the_operator_and_its_feature_discovery_worker() -> None:
    spot = "kubernetes.azure.com/scalesetpriority=spot:NoSchedule of pool 'gpu' of cluster rg/aks"

    assert [m for _, _, m in reported([pool(scaleSetPriority="Spot"), operator(operator_values(False))])] == [
        f"GPU Operator release 'gpu-operator' does not tolerate {spot}, {NEVER_RUNS}",
        f"GPU Operator release 'gpu-operator' (its Node Feature Discovery worker) does not tolerate {spot}, "
        f"{NEVER_RUNS}",
    ]


# Kubernetes, "Taints and Tolerations" (kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration,
# observed 2026-11-27): a toleration matches a taint with the same key and effect, and the same value under
# operator Equal (any value under Exists); an empty key with Exists matches every taint; an empty effect
# matches every effect.
@pytest.mark.parametrize(
    ("toleration", "tolerates"),
    [
        ({"key": "sku", "operator": "Exists", "effect": "NoSchedule"}, True),
        ({"key": "sku", "operator": "Exists"}, True),
        ({"operator": "Exists"}, True),
        ({"key": "sku", "operator": "Equal", "value": "gpu"}, True),
        ({"key": "sku", "operator": "Equal", "value": "cpu", "effect": "NoSchedule"}, False),
        ({"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoExecute"}, False),
        ({"key": "gpu", "operator": "Exists", "effect": "NoSchedule"}, False),
        (SKU_GPU, True),
    ],
    ids=[
        "exists",
        "exists-any-effect",
        "exists-everything",
        "equal-any-effect",
        "other-value",
        "other-effect",
        "other-key",
        "equal",
    ],
)
def test_tolerations_match_the_pools_taint_as_kubernetes_matches_them(
    toleration: dict[str, Any], tolerates: bool
) -> None:
    problems = reported([pool(), plugin(tolerations=[toleration])])

    intolerant = (
        f"device plugin DaemonSet 'device-plugin' does not tolerate sku=gpu:NoSchedule of pool 'gpu' of cluster "
        f"rg/aks, {NEVER_RUNS}"
    )
    assert problems == ([] if tolerates else [("mandatory", "(stack)", intolerant)])


# --- what counts as an advertiser, and the GPU Operator chart's defaults (gpu-operator values.yaml) ---------

MIG_POOL = {"vmSize": "Standard_NC24ads_A100_v4", "gpuInstanceProfile": "MIG1g"}


def test_another_helm_release_is_not_a_gpu_operator() -> None:
    ingress = Res(RELEASE, "ingress", {"chart": "ingress-nginx", "values": {}})

    assert reported([pool(), plugin(), ingress]) == []


def test_a_daemonset_of_another_image_before_the_device_plugin_does_not_hide_it() -> None:
    pod = {"containers": [{"name": "fluent-bit", "image": "fluent/fluent-bit:3.2"}]}
    logs = Res(DAEMONSET, "fluent-bit", {"spec": {"template": {"spec": pod}}})

    [(_, _, message)] = reported([logs, pool(), plugin(tolerations=[])])
    assert message.startswith("device plugin DaemonSet 'device-plugin' does not tolerate sku=gpu:NoSchedule")


def test_an_operator_without_tolerations_keeps_the_charts_nvidia_gpu_toleration() -> None:
    # the chart's daemonsets.tolerations and node-feature-discovery.worker.tolerations default to
    # nvidia.com/gpu Exists NoSchedule
    values = operator_values(False)
    del values["daemonsets"], values["node-feature-discovery"]
    tainted = pool(nodeTaints=["nvidia.com/gpu=present:NoSchedule"])

    assert reported([tainted, operator(values)]) == []


def test_an_operator_at_the_charts_mig_strategy_advertises_a_mig_pool() -> None:
    # mig.strategy defaults to single
    assert reported([pool(**MIG_POOL), operator(operator_values(False))]) == []


def test_an_operator_owning_the_driver_with_the_charts_toolkit_default_passes() -> None:
    # toolkit.enabled defaults to true, which a pool without the AKS driver needs
    values = operator_values(True)
    del values["toolkit"]

    assert reported([pool(gpuProfile={"driver": "None"}), operator(values)]) == []


MIXED_MODES = (
    'mixing them leaves containerd without an nvidia runtime (FailedCreatePodSandBox: no runtime for "nvidia").'
)


def test_a_pool_without_a_gpu_profile_is_in_the_aks_driver_mode() -> None:
    # AKS installs the NVIDIA driver on a GPU pool unless gpuProfile.driver is None (Learn, use-nvidia-gpu)
    assert [m for _, _, m in reported([pool(gpuProfile=None), operator(operator_values(True))])] == [
        "cluster rg/aks: GPU Operator release 'gpu-operator' has driver.enabled=True, toolkit.enabled=True but the GPU "
        "pools are in AKS-managed driver mode (gpuProfile.driver Install); set driver.enabled and toolkit.enabled to "
        f"false, or the pools' driver to None: {MIXED_MODES}"
    ]


def test_an_operator_leaving_the_driver_to_pools_without_one_is_told_both_ways_out() -> None:
    assert [m for _, _, m in reported([pool(gpuProfile={"driver": "None"}), operator(operator_values(False))])] == [
        "cluster rg/aks: GPU Operator release 'gpu-operator' has driver.enabled=False, toolkit.enabled=False but the "
        "GPU pools are in operator-managed driver mode (gpuProfile.driver None); set driver.enabled and "
        f"toolkit.enabled to true, or the pools' driver to Install: {MIXED_MODES}"
    ]


def test_every_taint_not_tolerated_is_named_and_only_those() -> None:
    tainted = pool(nodeTaints=["sku=gpu:NoSchedule", "team=ml:NoExecute"])
    of_pool = f"of pool 'gpu' of cluster rg/aks, {NEVER_RUNS}"

    assert [m for _, _, m in reported([tainted, plugin(tolerations=[])])] == [
        f"device plugin DaemonSet 'device-plugin' does not tolerate sku=gpu:NoSchedule, team=ml:NoExecute {of_pool}"
    ]
    assert [m for _, _, m in reported([tainted, plugin()])] == [
        f"device plugin DaemonSet 'device-plugin' does not tolerate team=ml:NoExecute {of_pool}"
    ]


def test_a_taint_without_a_value_is_tolerated_by_a_toleration_without_one() -> None:
    valueless = pool(nodeTaints=["dedicated:NoSchedule"])
    toleration = {"key": "dedicated", "operator": "Equal", "effect": "NoSchedule"}

    assert reported([valueless, plugin(tolerations=[toleration])]) == []


def test_an_operator_whose_tolerations_are_unknown_still_has_its_feature_discovery_judged() -> None:
    values = operator_values(False, **{"node-feature-discovery": {"worker": {"tolerations": []}}})
    values["daemonsets"] = {"tolerations": [UNKNOWN]}

    assert [m for _, _, m in reported([pool(), operator(values)])] == [
        "GPU Operator release 'gpu-operator' (its Node Feature Discovery worker) does not tolerate sku=gpu:NoSchedule "
        f"of pool 'gpu' of cluster rg/aks, {NEVER_RUNS}"
    ]


# --- two clusters in one stack ---------------------------------------------------------------------
# With two clusters, a Kubernetes object belongs to the cluster of the GPU pool registered under the same
# component (AksGpuPool parents its pool, device plugin and operator); the engine sends each resource's
# parent URN, and a stack policy sees the parent resource.

COMPONENT = "azure-gpu-stacks:index:AksGpuPool"


def team(name: str) -> Res:
    return Res(COMPONENT, name, {}, custom=False)


def under(parent: str, resource: Res, name: str) -> Res:
    return Res(resource.type, name, resource.props, parent=parent)


def inline_cluster(name: str, parent: str, driver: str) -> Res:
    profile = {"name": "gpu", "vmSize": "Standard_NC4as_T4_v3", "gpuProfile": {"driver": driver}}
    profile["nodeTaints"] = ["sku=gpu:NoSchedule"]
    return Res(
        CLUSTER, name, {"resourceGroupName": "rg", "resourceName": name, "agentPoolProfiles": [profile]}, parent=parent
    )


@pytest.mark.parametrize("inline", [False, True], ids=["agent-pool", "cluster-profile"])
def test_each_clusters_objects_are_judged_with_the_pools_under_the_same_component(inline: bool) -> None:
    # team-a: operator-managed driver with its GPU Operator; team-b: the AKS driver with a device plugin that
    # does not tolerate its pool's taint. Only team-b's plugin is wrong, and only about team-b's pool.
    if inline:
        pools = [inline_cluster("aks-a", "team-a", "None"), inline_cluster("aks-b", "team-b", "Install")]
    else:
        pools = [
            under("team-a", pool(resourceName="aks-a", gpuProfile={"driver": "None"}), "pool-a"),
            under("team-b", pool(resourceName="aks-b"), "pool-b"),
        ]
    objects = [
        under("team-a", operator(operator_values(True)), "operator-a"),
        under("team-b", plugin(tolerations=[]), "plugin-b"),
    ]

    assert [m for _, _, m in reported([team("team-a"), team("team-b"), *pools, *objects])] == [
        f"device plugin DaemonSet 'plugin-b' does not tolerate sku=gpu:NoSchedule of pool 'gpu' of cluster rg/aks-b, "
        f"{NEVER_RUNS}"
    ]


def test_objects_of_two_clusters_without_a_shared_component_are_left_alone() -> None:
    # nothing says which cluster an object without a parent runs on: no problem is made up about it
    pools = [pool(resourceName="aks-a", gpuProfile={"driver": "None"}), pool(name="pool-b", resourceName="aks-b")]

    assert [m for _, _, m in reported([*pools, plugin(tolerations=[])])] == [
        f"pool 'gpu' of cluster rg/aks-a {NO_DRIVER}"
    ]


def test_a_pool_whose_driver_is_not_known_before_deployment_is_not_a_second_mode() -> None:
    unknown = pool(name="gpu2-pool", agentPoolName="gpu2", gpuProfile={"driver": UNKNOWN})

    assert reported([pool(), unknown, operator(operator_values(False))]) == []


def test_a_clusters_pool_is_named_with_a_question_mark_for_what_is_not_known() -> None:
    profile = {"name": UNKNOWN, "vmSize": "Standard_NC4as_T4_v3", "gpuProfile": {"driver": "None"}}
    cluster = Res(
        CLUSTER, "aks-cluster", {"resourceGroupName": UNKNOWN, "resourceName": "aks", "agentPoolProfiles": [profile]}
    )

    assert reported([cluster]) == [("mandatory", "(stack)", f"pool '?' of cluster ?/aks {NO_DRIVER}")]


def test_a_gpu_operator_chart_given_as_a_local_folder_is_the_gpu_operator() -> None:
    # helm install accepts a chart folder, written with or without its trailing slash
    local = Res(RELEASE, "gpu-operator", {"chart": "./charts/gpu-operator/", "values": operator_values(True)})

    [(_, _, message)] = reported([pool(), local])
    assert message.startswith("cluster rg/aks: GPU Operator release 'gpu-operator' has driver.enabled=True")


def test_an_operator_with_the_mig_strategy_none_does_not_advertise_a_mig_pool() -> None:
    # NVIDIA's device plugin (which the operator runs) takes MIG_STRATEGY none, single or mixed; none advertises
    # whole GPUs only
    values = operator_values(False, mig={"strategy": "none"})

    [(_, _, message)] = reported([pool(**MIG_POOL), operator(values)])
    assert message.startswith("pool 'gpu' of cluster rg/aks splits its GPUs (MIG1g) but GPU Operator release")
