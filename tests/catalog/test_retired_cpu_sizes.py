"""Retired CPU sizes Azure lists (issue 39): the A-series v1 retired on 2024-08-31 (Learn, Av1-series
retirement: "On August 31, 2024, we retire Basic and Standard A-series virtual machines") and the series
Learn's retired sizes list announces, kept in catalog/retired_sizes.yaml as a lighter entry
(`retiredSeries`) and refused offline from their date as the GPU sizes Azure retired are."""

from __future__ import annotations

import datetime as dt
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog.model import CatalogFile, catalog
from azure_gpu_stacks.catalog.verdict import size_verdict
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

AV1 = ["Basic_A0", "Basic_A4", "Standard_A0", "Standard_A3", "Standard_A7"]


@pytest.mark.parametrize("name", AV1)
def test_av1_size_is_retired_from_2024_08_31(name: str) -> None:
    assert size_verdict(name, dt.date(2024, 8, 31)).standing == "retired"
    assert size_verdict(name, dt.date(2024, 8, 30)).standing == "retiring"


def test_av2_size_is_not_caught_by_the_av1_entry() -> None:
    # Av2 is on Learn's retired sizes list as Announced, planned retirement 11/15/28: retiring, not retired
    verdict = size_verdict("Standard_A1_v2", dt.date(2026, 11, 26))

    assert (verdict.standing, verdict.date) == ("retiring", dt.date(2028, 11, 15))


# Learn's "Retired Azure VM size series" (retired-sizes-list, observed 2026-11-27): series announced for
# retirement, each with its planned retirement date
ANNOUNCED = [
    ("Standard_D1", dt.date(2028, 5, 1)),
    ("Standard_DS14", dt.date(2028, 5, 1)),
    ("Standard_D15_v2", dt.date(2028, 5, 1)),
    ("Standard_L32s", dt.date(2028, 5, 1)),
    ("Standard_B1s", dt.date(2028, 11, 15)),
    ("Standard_F16", dt.date(2028, 11, 15)),
    ("Standard_F72s_v2", dt.date(2028, 11, 15)),
    ("Standard_GS5", dt.date(2028, 11, 15)),
    ("Standard_L80s_v2", dt.date(2028, 11, 15)),
    ("Standard_M192is_v2", dt.date(2027, 3, 31)),
]


@pytest.mark.parametrize(("name", "day"), ANNOUNCED, ids=[a[0] for a in ANNOUNCED])
def test_a_size_announced_for_retirement_is_retiring_until_its_date_then_retired(name: str, day: dt.date) -> None:
    assert size_verdict(name, day - dt.timedelta(days=1)).standing == "retiring"
    assert size_verdict(name, day).standing == "retired"


def test_the_retired_cpu_series_live_apart_from_the_gpu_rows() -> None:
    text = (REPO / "catalog" / "vm_sizes.yaml").read_text(encoding="utf-8")

    assert "retiredSeries" not in text
    assert catalog().retired_series("Standard_A0") is not None


def test_a_name_cannot_be_both_a_size_and_in_a_retired_series() -> None:
    data = catalog().data.model_dump(by_alias=True)
    data["retiredSeries"][0]["sizes"] = (*data["retiredSeries"][0]["sizes"], data["sizes"][0]["name"])

    with pytest.raises(ValueError, match="both a catalog size and in a retired series"):
        type(catalog())(CatalogFile.model_validate(data))


def test_a_vm_of_a_retired_a_series_size_is_refused_with_azures_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the size pulumi/examples' older azure-py-webserver used (Standard_A0), on a VM Azure otherwise takes
    (tmp_path / "Pulumi.yaml").write_text("name: a-series\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: westus2\n")
    (tmp_path / "__main__.py").write_text(
        textwrap.dedent(
            """
            from pulumi_azure_native import compute, network, resources
            KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ0J4u8x5f0o0m8Tq2mQbZ8x8m8bq3cX8b9jQvYv0a1b"
            rg = resources.ResourceGroup("rg")
            net = network.VirtualNetwork("net", resource_group_name=rg.name,
                address_space={"address_prefixes": ["10.0.0.0/16"]},
                subnets=[{"name": "default", "address_prefix": "10.0.1.0/24"}])
            nic = network.NetworkInterface("nic", resource_group_name=rg.name,
                ip_configurations=[{"name": "ip", "subnet": {"id": net.subnets[0].id}}])
            compute.VirtualMachine("vm", resource_group_name=rg.name,
                network_profile={"network_interfaces": [{"id": nic.id}]},
                hardware_profile={"vm_size": "Standard_A0"},
                os_profile={"computer_name": "vm", "admin_username": "azureuser",
                    "linux_configuration": {"disable_password_authentication": True,
                        "ssh": {"public_keys": [{"path": "/home/azureuser/.ssh/authorized_keys",
                            "key_data": KEY}]}}},
                storage_profile={"image_reference": {"publisher": "Canonical", "offer": "ubuntu-24_04-lts",
                    "sku": "server", "version": "latest"}, "os_disk": {"create_option": "FromImage"}})
            """
        )
    )

    code = main(["check", "dev", "--project", str(tmp_path)])
    out = capsys.readouterr().out

    assert code == 1
    assert "vm [azure-native:compute:VirtualMachine]: SkuNotAvailable: The requested VM size 'Standard_A0'" in out
    assert "retired since 2024-08-31" in out
    assert "disallow-retired-vm-sizes" in out
