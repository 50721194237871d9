"""A scale set's OS disks (issue 35): each instance's Premium SSD OS disk bills as its tier, priced beside the totals
where charge_prices.yaml has a dated figure for that tier and region (P10 in eastus: infracost's golden "Storage (P10,
LRS) 1 months $19.71"), else named with its tier, size and number. training-a100's two 256 GiB disks are P15: no
dated P15 price for eastus exists here, so its total stays a lower bound that says so."""

from __future__ import annotations

from typing import Any

from azure_gpu_stacks.catalog.pricing import estimate_resources

from tests.catalog.test_charge_prices import PRICES, res, rg

VMSS = "azure-native:compute:VirtualMachineScaleSet"


def scale_set(size_gb: float, capacity: int, data_disks: bool = False) -> Any:
    storage: dict[str, Any] = {
        "osDisk": {
            "createOption": "FromImage",
            "managedDisk": {"storageAccountType": "Premium_LRS"},
            "diskSizeGB": size_gb,
        }
    }
    if data_disks:
        storage["dataDisks"] = [{"lun": 0, "createOption": "Empty", "diskSizeGB": 1024}]
    inputs = {
        "resourceGroupName": "rg-gpu",
        "location": "eastus",
        "sku": {"name": "Standard_ND96asr_v4", "tier": "Standard", "capacity": capacity},
        "virtualMachineProfile": {"storageProfile": storage},
    }
    return res(VMSS, "train", inputs)


def charge(resource: Any) -> Any:
    (found,) = [n for n in estimate_resources([rg(), resource]).not_counted if n.type == VMSS]
    return found


def test_each_instances_os_disk_is_priced_at_its_tier() -> None:
    found = charge(scale_set(128, 3))

    assert found.estimate is not None
    assert round(found.estimate.monthly_usd, 2) == round(3 * PRICES["prices"]["premiumSsdP10"]["usdPerMonth"], 2)
    assert found.estimate.covers == "its 3 instances' OS disks (P10, 128 GiB)"


def test_a_tier_without_a_dated_price_is_named_with_its_size_and_number() -> None:
    found = charge(scale_set(256, 2))

    assert found.estimate is None and "premiumSsdP15" not in PRICES["prices"]
    assert found.unpriced_detail == "OS disk P15 (256 GiB) x 2 instances, no dated P15 price for eastus here"
    assert found.to_json()["unpricedDetail"] == found.unpriced_detail
    assert str(found).endswith(": OS disk P15 (256 GiB) x 2 instances, no dated P15 price for eastus here)")


def test_data_disks_leave_the_scale_set_unpriced_and_say_so() -> None:
    found = charge(scale_set(128, 2, data_disks=True))

    assert found.estimate is None
    assert found.unpriced_detail == "OS disk P10 (128 GiB) x 2 instances and data disks, the data disks not priced here"
