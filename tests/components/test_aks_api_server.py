"""The AKS API server's authorized IP ranges: the component's option, the stack key and the fake ARM's
refusals (the advisory policy's tests: tests/policies/test_warn_public_aks_api_server.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError, InvalidParameter
from azure_gpu_stacks.stack.config import PROJECT, ConfigError, load_stack_config

from tests.components.test_aks_gpu_pool import CLUSTER, EXISTING_ID, build_pool, existing_cluster_program
from tests.conftest import Recording
from tests.fakeazure.test_fake_aks import cluster_props

RANGES_201 = [f"73.{i // 256}.{i % 256}.0/24" for i in range(201)]


def test_ranges_reach_the_cluster_as_arm_stores_them(record: Callable[..., Recording]) -> None:
    cluster = record(build_pool(api_server_authorized_ip_ranges=["73.140.245.0/24", "20.1.2.3"])).inputs(CLUSTER)

    assert cluster["apiServerAccessProfile"] == {"authorizedIPRanges": ["73.140.245.0/24", "20.1.2.3/32"]}


def test_outbound_ip_only_is_accepted_alone(record: Callable[..., Recording]) -> None:
    cluster = record(build_pool(api_server_authorized_ip_ranges=["0.0.0.0/32"])).inputs(CLUSTER)

    assert cluster["apiServerAccessProfile"] == {"authorizedIPRanges": ["0.0.0.0/32"]}


def test_without_ranges_the_cluster_has_no_access_profile(record: Callable[..., Recording]) -> None:
    assert "apiServerAccessProfile" not in record(build_pool()).inputs(CLUSTER)


@pytest.mark.parametrize(
    ("ranges", "expected"),
    [
        (
            ["137.117.106.90/29"],
            "api_server_authorized_ip_ranges[0]: '137.117.106.90/29' does not start at its range's first address; "
            "allowed: '137.117.106.88/29'",
        ),
        (
            ["2001:db8::/32"],
            "api_server_authorized_ip_ranges[0]: '2001:db8::/32' is IPv6; allowed: IPv4 addresses or CIDR ranges",
        ),
        (
            ["office"],
            "api_server_authorized_ip_ranges[0]: 'office' is not an IPv4 address or CIDR range; "
            "allowed: e.g. 73.140.245.0/24",
        ),
        (
            ["10.0.0.0/8"],
            "api_server_authorized_ip_ranges[0]: '10.0.0.0/8' is a private or reserved range, "
            "which never reaches the public API server",
        ),
        (
            ["0.0.0.0/0"],
            "api_server_authorized_ip_ranges[0]: '0.0.0.0/0' authorizes every address, "
            "as leaving the ranges unset does",
        ),
        (
            ["0.0.0.0/32", "73.140.245.0/24"],
            "api_server_authorized_ip_ranges: 0.0.0.0/32 with other ranges; allowed: 0.0.0.0/32 alone",
        ),
        (RANGES_201, "api_server_authorized_ip_ranges: 201 ranges; allowed: at most 200"),
    ],
)
def test_bad_ranges_are_refused_before_anything_is_registered(
    record: Callable[..., Recording], fake_arm: FakeArm, ranges: list[str], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_pool(api_server_authorized_ip_ranges=ranges))

    assert expected in str(err.value)
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


def test_ranges_with_an_existing_cluster_are_refused(record: Callable[..., Recording]) -> None:
    with pytest.raises(ComponentInputError, match="api_server_authorized_ip_ranges: only shapes a new cluster"):
        record(existing_cluster_program({"id": EXISTING_ID}, api_server_authorized_ip_ranges=["73.140.245.0/24"]))


def test_stack_key_is_camel_case_and_its_problem_names_the_key_path() -> None:
    section = {"apiServerAuthorizedIpRanges": ["73.140.245.0/24", "192.168.1.0/24"]}
    with pytest.raises(ConfigError) as err:
        load_stack_config(
            {"azure-native:location": "eastus", f"{PROJECT}:aksGpuPool": json.dumps(section)}, source="Pulumi.x.yaml"
        )

    [problem] = err.value.problems
    assert problem.key == f"{PROJECT}:aksGpuPool.apiServerAuthorizedIpRanges[1]"
    assert problem.message.startswith("'192.168.1.0/24' is a private or reserved range")


def put(arm: FakeArm, profile: dict[str, Any]) -> Any:
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg-aks", "location": "eastus"}, "rg")
    return arm.put(CLUSTER, "aks", cluster_props(apiServerAccessProfile=profile), "aks")


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        (
            {"enablePrivateCluster": True, "authorizedIPRanges": ["73.140.245.0/24"]},
            "Managed cluster 'aks1': apiServerAccessProfile.authorizedIPRanges are not supported for private cluster.",
        ),
        (
            {"authorizedIPRanges": ["0.0.0.0/32", "73.140.245.0/24"]},
            "Setting apiServerAuthorizedIPRange to 0.0.0.0/32 is not allowed with other IP ranges. "
            "Refer to https://aka.ms/aks/auth-ip-ranges for more details",
        ),
        (
            {"authorizedIPRanges": RANGES_201},
            "Managed cluster 'aks1': 201 apiServerAccessProfile.authorizedIPRanges; at most 200 are allowed.",
        ),
        (
            {"authorizedIPRanges": ["2001:db8::/32"]},
            "Managed cluster 'aks1': apiServerAccessProfile.authorizedIPRanges '2001:db8::/32' is not an IPv4 CIDR.",
        ),
    ],
)
def test_fake_arm_refuses_what_aks_refuses(profile: dict[str, Any], message: str) -> None:
    arm = FakeArm(default_location="eastus")
    with pytest.raises(ArmError) as err:
        put(arm, profile)

    assert isinstance(err.value, InvalidParameter)
    assert (err.value.code, err.value.message) == ("InvalidParameter", message)


def test_fake_arm_accepts_ranges_on_a_public_cluster_and_a_private_cluster_without_them() -> None:
    assert put(FakeArm(default_location="eastus"), {"authorizedIPRanges": ["73.140.245.0/24"]}).outputs["fqdn"]
    assert put(FakeArm(default_location="eastus"), {"enablePrivateCluster": True}).outputs["fqdn"]
