"""Quota: vCPUs per family and region at full scale against the subscription's limits, and size
availability. Needs are computed here from the catalog's vCPUs; limit files are written from them.

The live path (`--live`) against recorded answers of Azure is in tests/engine/estimate/test_quota_live.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.catalog.az_files import read_usage
from azure_gpu_stacks.catalog.demand import collect
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.estimate.quota import compare, needs
from pytest_mock import MockerFixture

from tests.catalog.test_cost import A100, ND, T4, recorded, rg
from tests.conftest import REPO
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): `quota` plans a stack without the limits,
    whatever the usage file, so every quota case of one stack reads one plan."""
    with plans_shared() as plans:
        yield plans


DATA = REPO / "tests" / "data"
USAGE_CLI = DATA / "list-usage-cli.json"  # `az vm list-usage -o json`: numbers as strings
USAGE_REST = DATA / "list-usage-rest.json"  # REST / SDK: numbers
SKUS = DATA / "list-skus.json"  # `az vm list-skus --all -o json`
T4_FAMILY = catalog().get(T4).quota_family
T4_VCPUS = catalog().get(T4).vcpus  # inference-t4 runs one


def usage_entry(family: str, current: int, limit: int, *, as_strings: bool) -> dict[str, Any]:
    value = str if as_strings else int
    return {
        "currentValue": value(current),
        "limit": value(limit),
        "name": {"localizedValue": family, "value": family},
        "unit": "Count",
    }


def write_usage(tmp_path: Path, entries: list[tuple[str, int, int]], *, as_strings: bool = True) -> Path:
    path = tmp_path / "usage.json"
    path.write_text(json.dumps([usage_entry(f, c, lim, as_strings=as_strings) for f, c, lim in entries]))
    return path


def test_quota_needs_split_regular_families_spot_pool_and_regional_total() -> None:
    vm = recorded(
        "azure-native:compute:VirtualMachine", "vm", {"hardwareProfile": {"vmSize": T4}, "resourceGroupName": "rg-test"}
    )
    vmss = recorded(
        "azure-native:compute:VirtualMachineScaleSet",
        "train",
        {
            "sku": {"name": ND, "capacity": 2.0},
            "virtualMachineProfile": {"priority": "Spot"},
            "resourceGroupName": "rg-test",
        },
    )
    pool = recorded(
        "azure-native:containerservice:AgentPool",
        "gpu",
        {"vmSize": A100, "enableAutoScaling": True, "minCount": 0.0, "maxCount": 3.0, "resourceGroupName": "rg-test"},
    )

    found, unknown = needs(collect([rg("westeurope"), vm, vmss, pool]))

    c = catalog()
    assert [(n.region, n.family, n.vcpus) for n in found] == [
        ("westeurope", c.get(A100).quota_family, 3 * c.get(A100).vcpus),
        ("westeurope", T4_FAMILY, c.get(T4).vcpus),
        ("westeurope", "lowPriorityCores", 2 * c.get(ND).vcpus),
        ("westeurope", "cores", 3 * c.get(A100).vcpus + c.get(T4).vcpus),
    ]
    assert unknown == []


def test_quota_fixture_usage_files_read_the_same_in_both_formats() -> None:
    assert read_usage(USAGE_CLI) == read_usage(USAGE_REST)
    raw = json.loads(USAGE_CLI.read_text())
    assert isinstance(raw[0]["limit"], str) and isinstance(json.loads(USAGE_REST.read_text())[0]["limit"], int)


@pytest.mark.parametrize("as_strings", [True, False], ids=["cli-strings", "rest-numbers"])
@pytest.mark.parametrize(
    ("free_beyond_need", "verdict", "exit_code"),
    [(-1, "short", 1), (0, "exact", 0), (12, "ok", 0)],
    ids=["short", "exact", "ample"],
)
def test_quota_verdict_for_short_exact_and_ample_limits(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    as_strings: bool,
    free_beyond_need: int,
    verdict: str,
    exit_code: int,
) -> None:
    used = 2
    limit = used + T4_VCPUS + free_beyond_need
    usage = write_usage(tmp_path, [(T4_FAMILY, used, limit), ("cores", 0, 100)], as_strings=as_strings)

    assert main(["quota", "inference-t4", "--usage", str(usage), "--format", "json"]) == exit_code
    rows = json.loads(capsys.readouterr().out)["quota"]

    assert rows[0] | {"resources": None} == {
        "provider": "Microsoft.Compute",
        "region": "eastus",
        "family": T4_FAMILY,
        "needed": T4_VCPUS,
        "limit": limit,
        "used": used,
        "free": limit - used,
        "verdict": verdict,
        "resources": None,
    }
    assert rows[0]["resources"] == ["gpu-vm-vm"]
    assert rows[1]["family"] == "cores" and rows[1]["verdict"] == "ok"


def test_quota_short_prints_the_az_quota_step_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = write_usage(tmp_path, [(T4_FAMILY, 0, 0), ("cores", 0, 10)])

    assert main(["quota", "inference-t4", "--usage", str(usage)]) == 1
    out = capsys.readouterr().out

    assert f"eastus  {T4_FAMILY}       {T4_VCPUS}      0     0  short" in out
    assert (
        f"az quota update --resource-name {T4_FAMILY} --scope /subscriptions/<subscription-id>/providers/"
        f"Microsoft.Compute/locations/eastus --limit-object value={T4_VCPUS} --resource-type dedicated"
    ) in out
    assert f"Quotas > Compute > region eastus > {T4_FAMILY} > New quota request > {T4_VCPUS}" in out
    assert out.rstrip().endswith("FAILED: inference-t4: not enough quota, or a size not available.")


def test_quota_family_names_compare_without_case_or_spaces(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = write_usage(tmp_path, [("Standard NCASv3_T4 Family", 0, T4_VCPUS), ("Cores", 0, 100)])

    assert main(["quota", "inference-t4", "--usage", str(usage), "--format", "json"]) == 0
    assert [r["verdict"] for r in json.loads(capsys.readouterr().out)["quota"]] == ["exact", "ok"]


def test_quota_family_missing_from_the_limits_is_not_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = write_usage(tmp_path, [("cores", 0, 100)])

    assert main(["quota", "inference-t4", "--usage", str(usage)]) == 0
    out = capsys.readouterr().out

    assert f"Not in the limits: {T4_FAMILY} (eastus)" in out


def test_quota_fixture_cli_file_against_inference_t4(capsys: pytest.CaptureFixture[str]) -> None:
    limits = read_usage(USAGE_CLI)
    t4 = limits[T4_FAMILY.lower()]
    expected = "exact" if t4.free == T4_VCPUS else ("short" if t4.free < T4_VCPUS else "ok")

    main(["quota", "inference-t4", "--usage", str(USAGE_CLI), "--format", "json"])

    assert json.loads(capsys.readouterr().out)["quota"][0]["verdict"] == expected


def test_quota_markdown_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = write_usage(tmp_path, [(T4_FAMILY, 0, 24), ("cores", 0, 100)])

    assert main(["quota", "inference-t4", "--usage", str(usage), "--format", "markdown"]) == 0
    out = capsys.readouterr().out

    assert "| region | family | needed | limit | free | verdict |" in out
    assert f"| eastus | {T4_FAMILY} | {T4_VCPUS} | 24 | 24 | ok |" in out


# --- availability (az vm list-skus --all) -------------------------------------------------------


def test_quota_reports_a_size_restricted_for_the_subscription() -> None:
    from azure_gpu_stacks.catalog.az_files import read_skus

    vmss = recorded(
        "azure-native:compute:VirtualMachineScaleSet",
        "train",
        {"sku": {"name": ND, "capacity": 2.0}, "location": "eastus"},
    )
    vm = recorded(
        "azure-native:compute:VirtualMachine", "vm", {"hardwareProfile": {"vmSize": T4}, "location": "East US"}
    )
    demands = collect([vmss, vm])
    found, _ = needs(demands)

    report = compare("s", found, None, None, skus=read_skus(SKUS), demands=demands)

    assert [(a.size, a.region, a.refusal) for a in report.availability] == [
        (ND, "eastus", "restricted in eastus for this subscription (NotAvailableForSubscription)"),
        (T4, "eastus", None),
    ]
    assert report.exit_code == 1


def test_quota_size_not_offered_in_the_region_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    skus = [s for s in json.loads(SKUS.read_text()) if not (s["name"] == T4 and s["locations"] == ["eastus"])]
    path = tmp_path / "skus.json"
    path.write_text(json.dumps(skus))

    assert main(["quota", "inference-t4", "--skus", str(path)]) == 1
    assert f"{T4}  eastus  not offered in eastus" in capsys.readouterr().out


def test_quota_plan_with_short_usage_is_refused_as_quota_exceeded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    usage = write_usage(tmp_path, [(T4_FAMILY, 0, T4_VCPUS - 1), ("cores", 0, 100)])

    assert main(["plan", "inference-t4", "--json", "--usage", str(usage)]) == 1
    refusals = json.loads(capsys.readouterr().out)["refusals"]

    assert [(r["resource"], r["code"]) for r in refusals] == [("gpu-vm-vm", "OperationNotAllowed")]


# --- live (Azure SDK, mocked) -------------------------------------------------------------------


def test_quota_live_without_the_azure_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "azure.mgmt.core", None)  # import fails as if not installed

    assert main(["quota", "inference-t4", "--live", "--subscription", "sub"]) == 2
    assert capsys.readouterr().err == (
        "gpu-stacks: error: --live needs the Azure SDK, an optional extra: "
        "pip install 'azure-gpu-stacks[azure]' (azure-identity and azure-mgmt-core)\n"
    )


def test_quota_live_without_a_subscription_exits_2(
    mocker: MockerFixture, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)

    assert main(["quota", "inference-t4", "--live"]) == 2
    assert "--live needs a subscription: pass --subscription ID or set AZURE_SUBSCRIPTION_ID" in capsys.readouterr().err


def test_quota_usage_and_live_together_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["quota", "inference-t4", "--live", "--usage", str(USAGE_CLI)]) == 2
    assert "--usage and --live both give the limits; pass one of them" in capsys.readouterr().err


def test_quota_bad_usage_file_names_the_file_and_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = tmp_path / "usage.json"
    usage.write_text(json.dumps([usage_entry(T4_FAMILY, 0, 8, as_strings=True) | {"limit": "eight"}]))

    assert main(["quota", "inference-t4", "--usage", str(usage)]) == 2
    assert (
        capsys.readouterr().err
        == f"gpu-stacks: error: {usage}: entry [0].limit: 'eight' is not a whole number; allowed: a whole number "
        "from 0 to 2^63-1\n"
    )


@pytest.mark.parametrize(("limit", "exit_code"), [(8, 1), (12, 0)], ids=["short-of-maxCount", "holds-maxCount"])
def test_quota_and_check_agree_on_an_autoscaling_aks_pool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], limit: int, exit_code: int
) -> None:
    """aks-gpu's T4 pool scales to maxCount 3 (12 vCPUs): quota counts it there, and so does the fake
    ARM behind check, though Azure itself checks only the pool's `count` when it creates the pool."""
    usage = write_usage(tmp_path, [(T4_FAMILY, 0, limit)])

    quota_code = main(["quota", "aks-gpu", "--usage", str(usage), "--format", "json"])
    rows = json.loads(capsys.readouterr().out)["quota"]
    check_code = main(["check", "aks-gpu", "--usage", str(usage), "--format", "json"])
    refusals = [r for s in json.loads(capsys.readouterr().out)["stacks"] for r in s["refusals"]]

    assert [(r["family"], r["needed"], r["verdict"]) for r in rows if r["family"] == T4_FAMILY] == [
        (T4_FAMILY, 12, "short" if exit_code else "ok" if limit > 12 else "exact")
    ]
    assert quota_code == check_code == exit_code
    # an AKS pool beyond quota gets AKS's own code (mspnp/aks-baseline issue 377), not Compute's
    assert [r["code"] for r in refusals] == (["QuotaExceeded"] if exit_code else [])
