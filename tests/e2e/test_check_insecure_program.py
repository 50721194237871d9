"""Issue 36 as it will be checked: one crafted program with each weakness, through `gpu-stacks check`, reports each
under its rule; the shipped stacks raise none of those rules. The program uses pulumi-azure-native directly, as a
team's own project would, with one weakness per resource:

- an NSG rule admitting the `Internet` service tag on 8888, and one admitting `::/0` on SSH;
- a GPU VM without a managed identity whose customData installs the NVIDIA driver with apt;
- an Azure ML workspace left public, and a GPU cluster in it with local auth on and no managed identity;
- an AKS cluster with local accounts and without Entra ID / Azure RBAC;
- a team (the `team` tag) over the GPU vCPU cap the policy config gives it (NC4as_T4_v3: 4 vCPUs, cap 2).

The program is planned once for the file."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run.violation import STACK_RESOURCE

WEAK_PROGRAM = """
import base64

from pulumi_azure_native import compute, containerservice, machinelearningservices as ml, network, resources

rg = resources.ResourceGroup("rg", resource_group_name="rg-vision", location="eastus")
network.NetworkSecurityGroup(
    "nsg",
    resource_group_name=rg.name,
    security_rules=[
        network.SecurityRuleArgs(
            name="jupyter", priority=100, direction="Inbound", access="Allow", protocol="Tcp",
            source_address_prefix="Internet", source_port_range="*",
            destination_address_prefix="*", destination_port_range="8888",
        ),
        network.SecurityRuleArgs(
            name="ssh-v6", priority=110, direction="Inbound", access="Allow", protocol="Tcp",
            source_address_prefix="::/0", source_port_range="*",
            destination_address_prefix="*", destination_port_range="22",
        ),
    ],
)
compute.VirtualMachine(
    "trainer",
    resource_group_name=rg.name,
    hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC4as_T4_v3"),
    os_profile=compute.OSProfileArgs(
        computer_name="trainer",
        admin_username="azureuser",
        custom_data=base64.b64encode(b"#!/bin/bash\\napt-get install -y nvidia-driver-550-server\\n").decode(),
        linux_configuration=compute.LinuxConfigurationArgs(disable_password_authentication=True),
    ),
    tags={"team": "vision"},
)
workspace = ml.Workspace(
    "ws", resource_group_name=rg.name, workspace_name="ws-vision", location="eastus",
    public_network_access="Enabled", identity=ml.ManagedServiceIdentityArgs(type="SystemAssigned"),
)
ml.Compute(
    "gpu-cluster",
    resource_group_name=rg.name,
    workspace_name=workspace.name,
    compute_name="gpu-cluster",
    location="eastus",
    properties=ml.AmlComputeArgs(
        compute_type="AmlCompute",
        disable_local_auth=False,
        properties=ml.AmlComputePropertiesArgs(
            vm_size="Standard_NC4as_T4_v3",
            scale_settings=ml.ScaleSettingsArgs(max_node_count=1, min_node_count=0),
        ),
    ),
)
containerservice.ManagedCluster(
    "aks",
    resource_group_name=rg.name,
    dns_prefix="vision",
    identity=containerservice.ManagedClusterIdentityArgs(type="SystemAssigned"),
    agent_pool_profiles=[
        containerservice.ManagedClusterAgentPoolProfileArgs(
            name="system", mode="System", count=1, vm_size="Standard_D4s_v5"
        )
    ],
)
"""
# Each weakness above and the rule of the pack that must report it (docs/policies.md).
EXPECTED = {
    ("warn-internet-inbound-to-gpu-hosts", "nsg"),
    ("disallow-internet-ssh-rdp", "nsg"),
    ("warn-gpu-host-without-identity", "trainer"),
    ("warn-gpu-driver-by-script", "trainer"),
    ("warn-aml-public-access", "ws"),
    ("warn-aml-public-access", "gpu-cluster"),
    ("warn-gpu-host-without-identity", "gpu-cluster"),
    ("warn-aks-local-accounts", "aks"),
    ("limit-gpu-vcpus", STACK_RESOURCE),  # a stack policy: the whole stack
}
ISSUE_36_RULES = {policy for policy, _ in EXPECTED}


@pytest.fixture(scope="module")
def weak_check(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any]]:
    project = tmp_path_factory.mktemp("weak")
    (project / "Pulumi.yaml").write_text("name: vision\nruntime: python\n", encoding="utf-8")
    (project / "__main__.py").write_text(WEAK_PROGRAM, encoding="utf-8")
    (project / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: eastus\n", encoding="utf-8")
    config = project / "policy-config.json"
    config.write_text(json.dumps({"limit-gpu-vcpus": {"maxGpuVcpusPerTeam": {"vision": 2}}}), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", "--project", str(project), "--policy-config", str(config), "--format", "json"])
    [plan] = json.loads(out.getvalue())["stacks"]
    return code, plan


def test_each_weakness_is_reported_under_its_rule(weak_check: tuple[int, dict[str, Any]]) -> None:
    _, plan = weak_check
    reported = {(v["policy"], v["resource"]) for v in plan["violations"] if v["policy"] in ISSUE_36_RULES}

    assert reported == EXPECTED


def test_only_ssh_from_any_address_stops_the_pull_request(weak_check: tuple[int, dict[str, Any]]) -> None:
    code, plan = weak_check
    mandatory = {v["policy"] for v in plan["violations"] if v["level"] == "mandatory"}

    assert code == 1
    assert "disallow-internet-ssh-rdp" in mandatory
    assert mandatory & ISSUE_36_RULES == {"disallow-internet-ssh-rdp"}


def test_the_shipped_stacks_raise_none_of_these_rules(shipped_plans: dict[str, Any]) -> None:
    raised = [
        (stack, v.policy, v.resource)
        for stack, plan in shipped_plans.items()
        for v in plan.violations
        if v.policy in ISSUE_36_RULES
    ]

    assert raised == []
