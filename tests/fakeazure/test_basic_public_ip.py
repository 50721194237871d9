"""The Basic SKU public IP's retirement has one home, the catalog's retired offers: "Basic SKU public IPs retired on
September 30, 2025" (https://learn.microsoft.com/azure/virtual-network/ip-services/public-ip-basic-upgrade-guidance,
observed 2026-11-26), answered with 'IPv4BasicSkuPublicIpCountLimitReached: Cannot create more than 0 IPv4 Basic SKU
public IP addresses for this subscription in this region.' (public Terraform logs). The fake's prose rule and the
plan path (fakeazure/mocks.py) both read it there."""

from __future__ import annotations

import datetime as dt

import pytest
from azure_gpu_stacks.catalog.retired_offers import retired_offer
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.fakeazure.prose import RULES

PIP = "azure-native:network:PublicIPAddress"
CODE = "IPv4BasicSkuPublicIpCountLimitReached"


def test_the_catalog_knows_the_day_basic_public_ips_stopped() -> None:
    before = retired_offer(PIP, {"sku": {"name": "Basic"}}, dt.date(2025, 9, 29))
    after = retired_offer(PIP, {"sku": {"name": "Basic"}}, dt.date(2025, 9, 30))

    assert before is None
    assert after is not None and after.refusal is not None and after.refusal[0] == CODE
    assert retired_offer(PIP, {"sku": {"name": "Standard"}}, dt.date(2026, 11, 27)) is None


def test_the_fakes_rule_says_the_catalogs_day_and_code() -> None:
    [rule] = [r for r in RULES if r.id == "basic-retired"]

    assert rule.code == CODE and "2025-09-30" in rule.asks


@pytest.mark.parametrize(("sku", "refused"), [("Basic", True), ("basic", True), ("Standard", False)])
def test_a_basic_public_ip_is_refused_with_azures_code(sku: str, refused: bool) -> None:
    arm = FakeArm(default_location="eastus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "eastus"}, "rg")
    body = {
        "resourceGroupName": "rg",
        "publicIpAddressName": "pip1",
        "sku": {"name": sku},
        "publicIPAllocationMethod": "Static",
    }
    if not refused:
        arm.put(PIP, "pip1", body, "pip1")
        return
    with pytest.raises(ArmError) as caught:
        arm.put(PIP, "pip1", body, "pip1")
    assert caught.value.code == CODE
