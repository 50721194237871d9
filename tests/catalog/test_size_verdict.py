"""One size verdict (issue 23) and sizes Azure offers that the catalog does not list (issue 29).

Expected states come from the catalog's own dates and the names from the issue (Azure's REST API
examples use them); nothing here is computed with the verdict's own helpers.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog import catalog, size_verdict
from azure_gpu_stacks.catalog.az_files import read_skus
from azure_gpu_stacks.catalog.verdict import is_well_formed
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import InvalidParameter, SkuNotAvailable

from tests.e2e.test_check_cli import run, stack_copy
from tests.policy_helpers import catalog_document

# Current sizes Azure offers (Azure/azure-rest-api-specs Compute examples, issue 29) the catalog does not list.
OFFERED_UNLISTED = ["Standard_D2ds_v6", "Standard_DC2as_v5"]
# Offered too, and on Learn's retired sizes list as announced for retirement (catalog/retired_sizes.yaml)
OFFERED_RETIRING = ["Standard_D1_v2", "Standard_DS1_v2", "Standard_A8m_v2"]
VM = "azure-native:compute:VirtualMachine"
DAY = dt.date(2026, 11, 25)


def arm_with_group(**kwargs: object) -> FakeArm:
    arm = FakeArm(**kwargs)  # type: ignore[arg-type]
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "eastus"}, "urn:rg")
    return arm


def put_vm(arm: FakeArm, size: str) -> None:
    props = {"resourceGroupName": "rg", "location": "eastus", "hardwareProfile": {"vmSize": size}}
    arm.put(VM, "vm", props, "urn:vm")


# --- the verdict ------------------------------------------------------------------------------------


def test_every_lifecycle_state_comes_from_the_catalogs_dates() -> None:
    for size in catalog().sizes:
        lc = size.lifecycle
        if lc.date is None:
            assert size_verdict(size.name.lower(), DAY).standing == "current", size.name
            continue
        retired = size_verdict(size.name, lc.date)
        before = size_verdict(size.name, lc.date - dt.timedelta(days=1))
        assert (retired.standing, retired.replacement, retired.deployable) == ("retired", lc.replacement, False)
        assert before.standing == ("capacity-restricted" if lc.restricted_from else "retiring"), size.name
        assert before.deployable and before.date == lc.date


def test_every_catalog_name_is_well_formed_and_a_name_without_vcpus_is_not() -> None:
    assert [s.name for s in catalog().sizes if not is_well_formed(s.name)] == []
    assert [u.name for u in catalog().data.unconfirmed if not is_well_formed(u.name)] == []
    assert not is_well_formed("Standard_Foo")
    assert not is_well_formed("Standard_")


@pytest.mark.parametrize("name", OFFERED_UNLISTED)
def test_a_well_formed_size_the_catalog_does_not_list_is_unknown_and_deployable(name: str) -> None:
    assert catalog().find(name) is None
    verdict = size_verdict(name, DAY)

    assert (verdict.standing, verdict.deployable, verdict.refusal()) == ("unknown", True, None)


@pytest.mark.parametrize("name", OFFERED_RETIRING)
def test_an_offered_size_announced_for_retirement_is_retiring_and_deployable(name: str) -> None:
    verdict = size_verdict(name, DAY)

    assert (verdict.standing, verdict.deployable, verdict.refusal()) == ("retiring", True, None)


def test_every_size_azure_lists_without_a_size_page_is_unknown_and_deployable_not_a_typo() -> None:
    """catalog/vm_sizes.yaml's `unconfirmed` sizes (N-series names seen in Azure's SKU list, such as
    Standard_ND96is_H200_v5) are offered by Azure: never refused as a typo of a GPU size."""
    listed = catalog_document()["unconfirmed"]
    names = [entry["name"] for entry in listed]
    assert "Standard_ND96is_H200_v5" in names and len([n for n in names if n.startswith("Standard_N")]) >= 10

    verdicts = {name: size_verdict(name, DAY) for name in names}

    assert {n: (v.standing, v.deployable, v.refusal()) for n, v in verdicts.items()} == {
        n: ("unknown", True, None) for n in names
    }
    assert all(v.unconfirmed is not None and v.unconfirmed.name == n for n, v in verdicts.items())
    put_vm(arm_with_group(), "Standard_ND96is_H200_v5")  # the fake ARM takes it too


def test_a_typo_of_a_gpu_size_is_not_a_size_and_names_the_size_meant() -> None:
    meant = catalog().get("Standard_NC24ads_A100_v4").name
    verdict = size_verdict(meant.replace("A100", "A10O"), DAY)

    assert (verdict.standing, verdict.deployable) == ("not-a-size", False)
    assert meant in verdict.suggestions
    assert f"did you mean {meant}" in (verdict.refusal() or "")


# --- the fake ARM ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", OFFERED_UNLISTED)
def test_the_fake_arm_takes_a_size_azure_offers_that_the_catalog_does_not_list(name: str) -> None:
    arm = arm_with_group()
    put_vm(arm, name)

    assert arm.refusals == []


def test_the_fake_arm_refuses_a_name_that_is_no_size_with_a_did_you_mean() -> None:
    with pytest.raises(InvalidParameter, match="'Standard_Foo' provided for the VM size is not valid"):
        put_vm(arm_with_group(), "Standard_Foo")
    with pytest.raises(InvalidParameter, match="Did you mean Standard_NC4as_T4_v3"):
        put_vm(arm_with_group(), "Standard_NC4as_T4_v9")


def test_a_skus_file_that_does_not_offer_an_unlisted_size_refuses_it(tmp_path: Path) -> None:
    skus = tmp_path / "skus.json"
    offered = {"resourceType": "virtualMachines", "name": "Standard_D2ds_v6", "locations": ["westeurope"]}
    skus.write_text(json.dumps([{**offered, "restrictions": []}]), encoding="utf-8")

    with pytest.raises(SkuNotAvailable, match="'Standard_D2ds_v6' .* not offered in eastus"):
        put_vm(arm_with_group(skus=read_skus(skus)), "Standard_D2ds_v6")
    with pytest.raises(SkuNotAvailable, match="not listed in the SKU file"):
        put_vm(arm_with_group(skus=read_skus(skus)), "Standard_D1_v2")


# --- a team's project and a plan --------------------------------------------------------------------

JUMP_HOST_PROGRAM = """
import pulumi
from azure_gpu_stacks.components import CostAlert, GpuVm
from pulumi_azure_native import compute, resources

rg = resources.ResourceGroup("rg", resource_group_name="rg-vision", location="eastus")
GpuVm("trainer", {"resource_group_name": rg.name, "location": "eastus", "ssh_public_key": "ssh-ed25519 AAAA k"})
CostAlert("budget", {"scope": rg.id, "amount": 500, "contact_emails": ["ml-team@example.com"]})
compute.VirtualMachine(
    "jump",
    resource_group_name=rg.name,
    hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_D2ds_v6"),
)
"""


def test_a_jump_host_on_a_size_the_catalog_does_not_list_passes_check_beside_a_gpu_vm(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: vision\nruntime: python\n", encoding="utf-8")
    (tmp_path / "__main__.py").write_text(JUMP_HOST_PROGRAM, encoding="utf-8")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: eastus\n", encoding="utf-8")

    code, out, err = run(capsys, "check", "--project", str(tmp_path), "--format", "json")
    stack = json.loads(out)["stacks"][0]

    assert (code, stack["refusals"]) == (0, []), err
    unknown = [v for v in stack["violations"] if v["policy"] == "warn-unknown-vm-sizes"]
    assert [(v["level"], v["resource"]) for v in unknown] == [("advisory", "jump")]
    assert stack["cost"]["lowerBound"] is True and "Standard_D2ds_v6" in stack["cost"]["unpricedSizes"]


def test_a_plan_of_a_retiring_size_says_it_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    nc6 = catalog().get("Standard_NC6")
    assert nc6.lifecycle.date is not None
    day = nc6.lifecycle.date - dt.timedelta(days=200)  # retiring, inside warn-retiring's 365-day window
    stack = stack_copy(tmp_path, "inference-t4", lambda c: c["azure-gpu-stacks:vm"].update(vmSize=nc6.name))

    _, out, _ = run(capsys, "plan", stack, "--as-of", day.isoformat(), "--json")
    plan = json.loads(out)

    said = [w for w in plan["warnings"] if nc6.name in w] + [v for v in plan["violations"] if nc6.name in v["message"]]
    assert [(s["policy"], s["level"]) for s in said] == [("warn-retiring-vm-sizes", "advisory")]


# --- the default sizes: one home (catalog/defaults.py), said the same in the docs ----------------------


def test_every_default_size_a_component_fills_is_the_catalogs_and_the_one_its_docs_name() -> None:
    from azure_gpu_stacks.catalog import defaults
    from azure_gpu_stacks.components import aks_gpu_pool, aml_cluster, gpu_vm, training_cluster
    from azure_gpu_stacks.components.package import schema
    from pydantic.alias_generators import to_camel

    homes = {getattr(defaults, name) for name in dir(defaults) if name.startswith("DEFAULT_")}
    modules = {
        "GpuVm": gpu_vm,
        "AmlCluster": aml_cluster,
        "AksGpuPool": aks_gpu_pool,
        "TrainingCluster": training_cluster,
    }
    seen = []
    for token, spec in schema()["resources"].items():
        module = modules.get(token.rsplit(":", 1)[-1])
        if module is None:
            continue
        filled = module.check_inputs({}).inputs
        for key in (k for k in filled if k.endswith("vm_size")):
            described = spec["inputProperties"][to_camel(key)]["description"]
            seen.append(filled[key])
            assert filled[key] in homes and f"Default: {filled[key]}" in described, (token, key)
            assert size_verdict(filled[key], DAY).standing == "current"
    assert len(seen) == 5 and set(seen) == homes


# --- what the verdict answers with (each case read from catalog/vm_sizes.yaml) -----------------------


@pytest.mark.parametrize(
    "asked",
    [
        "standard_nc4as_t4_v3",  # a catalog size, in another casing
        "standard_a1",  # a size of the retired Av1 series (retiredSeries)
        "Standard_NC4as_T4_v9",  # a typo of a GPU size
        "Standard_D2ds_v6",  # a size Azure offers that the catalog does not list
    ],
)
def test_the_verdict_answers_for_the_name_and_the_day_asked(asked: str) -> None:
    verdict = size_verdict(asked, DAY)

    assert (verdict.name, verdict.day) == (asked, DAY)


def test_a_size_of_a_retired_cpu_series_is_refused_with_the_series_date_and_replacement() -> None:
    # retiredSeries Av1: retired 2024-08-31, replacement Standard_D2as_v5 (the Av1 retirement page)
    verdict = size_verdict("standard_a1", DAY)

    assert (verdict.standing, verdict.date, verdict.replacement) == (
        "retired",
        dt.date(2024, 8, 31),
        "Standard_D2as_v5",
    )
    assert verdict.refusal() == "'Standard_A1' was retired on 2024-08-31 and can no longer be deployed"


def test_a_retired_gpu_size_is_refused_in_the_catalogs_spelling_with_its_date() -> None:
    # Standard_NC6: retired 2023-09-06 (the N-series migration page)
    assert size_verdict("standard_nc6", DAY).refusal() == (
        "'Standard_NC6' was retired on 2023-09-06 and can no longer be deployed"
    )


def test_a_name_that_is_no_size_and_like_none_is_refused_without_a_hint() -> None:
    assert size_verdict("Standard_Zzzz9", DAY).refusal() == "unknown VM size 'Standard_Zzzz9'"


def test_an_unknown_size_keeps_its_close_matches_for_the_did_you_mean() -> None:
    verdict = size_verdict("Standard_D2as_v6", DAY)  # the catalog lists Standard_D2as_v5

    assert verdict.standing == "unknown" and "Standard_D2as_v5" in verdict.suggestions
    assert verdict.did_you_mean.startswith("did you mean ") and "Standard_D2as_v5" in verdict.did_you_mean
