"""One clock: the day sizes are judged on is passed in (`--as-of`, a policy's `asOf`, `FakeArm(now=)`),
today in UTC by default, and the components, the fake ARM and the policy pack agree on it, even near
midnight in a time zone a day away from UTC. Lifecycle states follow the dates in the catalog."""

from __future__ import annotations

import datetime as dt
import json
import os
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog, clock
from azure_gpu_stacks.components.checks import deployable_size
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import SkuNotAvailable

from tests.conftest import RAW_VM_PROGRAM, REPO
from tests.e2e.test_check_cli import run, stack_copy
from tests.policy_helpers import Res, found

NV3 = "Standard_NV12s_v3"  # retires 2026-09-30
D2V3 = "Standard_D2s_v3"  # capacity-restricted from 2026-07-01, retires 2029-11-15
VM = "azure-native:compute:VirtualMachine"
CAPACITY = "warn-capacity-restricted-vm-sizes"


def arm_with_group(now: dt.datetime | None = None) -> FakeArm:
    arm = FakeArm(now=now)
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "eastus"}, "urn:rg")
    return arm


def project_with_size(tmp_path: Path, size: str) -> Path:
    """A project with one raw VM of `size`: none of our components, only the fake ARM and the pack judge it."""
    (tmp_path / "Pulumi.yaml").write_text("name: vision\nruntime: python\n", encoding="utf-8")
    (tmp_path / "__main__.py").write_text(RAW_VM_PROGRAM, encoding="utf-8")
    (tmp_path / "Pulumi.dev.yaml").write_text(
        f"config:\n  azure-native:location: eastus\n  vision:size: {size}\n", encoding="utf-8"
    )
    return tmp_path


# --- lifecycle states against the dates in the data ---------------------------------------------------


def test_every_announced_size_changes_state_on_the_dates_in_the_data() -> None:
    announced = [s for s in catalog().sizes if s.lifecycle.status != "current"]
    assert len(announced) > 40
    for size in announced:
        day = size.lifecycle.date
        assert day is not None
        assert size.status_on(day) == "retired", size.name
        before = size.status_on(day - dt.timedelta(days=1))
        restricted = size.lifecycle.restricted_from
        assert before == ("capacity-restricted" if restricted else "retiring"), size.name
        if restricted is not None:
            assert size.status_on(restricted - dt.timedelta(days=1)) == "retiring"
            assert size.status_on(restricted) == "capacity-restricted"


def test_capacity_restricted_sizes_are_the_end_of_life_series_from_july_2026() -> None:
    restricted = {
        s.name: (s.lifecycle.restricted_from, s.lifecycle.date)
        for s in catalog().sizes
        if s.lifecycle.status == "capacity-restricted"
    }
    assert restricted == {
        "Standard_B2s": (dt.date(2026, 7, 1), dt.date(2028, 11, 15)),
        "Standard_DS2_v2": (dt.date(2026, 7, 1), dt.date(2028, 5, 1)),
        "Standard_D2s_v3": (dt.date(2026, 7, 1), dt.date(2029, 11, 15)),
        "Standard_D4s_v3": (dt.date(2026, 7, 1), dt.date(2029, 11, 15)),
        "Standard_F4s_v2": (dt.date(2026, 7, 1), dt.date(2028, 11, 15)),
    }
    assert all("July 2026" in (s.lifecycle.uncertain or "") for s in catalog().sizes if s.name in restricted)


def test_second_review_corrections_are_in_the_data() -> None:
    get = catalog().get
    assert {get(n).lifecycle.status for n in ("Standard_NV12s_v3", "Standard_NV4as_v4")} == {"retired"}
    assert get("Standard_NV4as_v4").lifecycle.replacement == "Standard_NV4ads_V710_v5"
    assert get("Standard_NC6s_v3").lifecycle.replacement == "Standard_NC40ads_H100_v5"
    assert get("Standard_ND24rs").lifecycle.replacement == "Standard_ND96amsr_A100_v4"
    assert [get(n).lifecycle.replacement for n in ("Standard_NP10s", "Standard_NP20s", "Standard_NP40s")] == [
        "Standard_NC4as_T4_v3", "Standard_NC16as_T4_v3", "Standard_NC64as_T4_v3",
    ]  # fmt: skip
    assert get("Standard_HB120rs_v3").quota_family == "standardHBv3Family"
    assert "2025-03-31" in (get("Standard_NC24rs_v3").lifecycle.uncertain or "")


def test_every_replacement_is_a_size_that_is_current_when_observed() -> None:
    for size in catalog().sizes:
        if size.lifecycle.replacement:
            assert catalog().get(size.lifecycle.replacement).status_on(size.observed) == "current", size.name


# Where Microsoft announces a size's end (observed 2026-11-27): a retirement on the lifecycle pages; the end of
# a preview size in its series overview's FAQ (the RTX PRO 6000 BSE v6 preview sizes).
END_OF_LIFE_PAGES = (
    "https://learn.microsoft.com/azure/virtual-machines/sizes/lifecycle/",
    "https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/nc-rtxpro6000-bse-v6-series-overview",
)


def test_retirement_sources_follow_microsofts_new_lifecycle_locations() -> None:
    sources = {s.lifecycle.source or s.source for s in catalog().sizes if s.lifecycle.status != "current"}
    assert sources and all(str(u).startswith(END_OF_LIFE_PAGES) for u in sources), sorted(map(str, sources))
    assert any(str(u).startswith(END_OF_LIFE_PAGES[0]) for u in sources)


# --- the policy pack: day from its config (each size policy's own tests: tests/policies/) --------------


def test_policy_config_as_of_pins_the_pack_as_pulumi_preview_would() -> None:
    vm = Res(VM, "fail_vm", {"hardwareProfile": {"vmSize": "Standard_NP10s"}})

    assert found([vm], "disallow-retired-vm-sizes", {"disallow-retired-vm-sizes": {"asOf": "2027-05-31"}}) != []
    assert found([vm], "disallow-retired-vm-sizes", {"disallow-retired-vm-sizes": {"asOf": "2027-05-30"}}) == []


def test_check_runs_the_pack_over_a_stack_with_a_capacity_restricted_size(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(
        capsys,
        "check",
        "--project",
        str(project_with_size(tmp_path, D2V3)),
        "--format",
        "json",
        "--as-of",
        "2026-11-22",
    )
    [plan] = json.loads(out)["stacks"]

    assert code == 0  # advisory: an existing subscription can still deploy it
    assert plan["asOf"] == "2026-11-22" and plan["refusals"] == []
    assert [(v["policy"], v["level"], v["severity"]) for v in plan["violations"] if v["resource"] == "trainer"] == [
        (CAPACITY, "advisory", "medium")
    ]


def test_check_as_of_the_retirement_day_fails_the_same_stack(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(
        capsys,
        "check",
        "--project",
        str(project_with_size(tmp_path, D2V3)),
        "--format",
        "json",
        "--as-of",
        "2029-11-15",
    )
    [plan] = json.loads(out)["stacks"]

    assert code == 1
    assert [r["code"] for r in plan["refusals"]] == ["SkuNotAvailable"]
    assert "disallow-retired-vm-sizes" in {v["policy"] for v in plan["violations"]}


def test_sarif_and_policy_docs_list_the_capacity_rule(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run(
        capsys,
        "check",
        "--project",
        str(project_with_size(tmp_path, D2V3)),
        "--format",
        "sarif",
        "--as-of",
        "2026-11-22",
    )
    sarif = json.loads(out)["runs"][0]
    rule = next(r for r in sarif["tool"]["driver"]["rules"] if r["id"] == CAPACITY)

    assert (
        rule["helpUri"]
        == "https://learn.microsoft.com/azure/virtual-machines/sizes/lifecycle/retirements-and-capacity-restrictions"
    )
    assert [r["ruleId"] for r in sarif["results"]] == [CAPACITY]
    docs = (REPO / "docs" / "policies.md").read_text(encoding="utf-8")
    assert f"### `{CAPACITY}`" in docs


@pytest.mark.parametrize("command", ["plan", "check", "cost"])
def test_as_of_refuses_a_bad_date_with_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, *(["inference-t4"] if command == "plan" else []), "--as-of", "2027-13-01"])
    err = capsys.readouterr().err.strip().splitlines()[-1]

    assert exit_.value.code == 2
    assert (
        err == "gpu-stacks: error: argument --as-of: '2027-13-01' is not a date; "
        "allowed: a calendar date as YYYY-MM-DD, e.g. 2027-01-31"
    )


def test_policy_config_with_two_days_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "policy.json"
    config.write_text(
        json.dumps({"disallow-retired-vm-sizes": {"asOf": "2027-01-01"}, CAPACITY: {"asOf": "2027-02-01"}})
    )

    code, _, err = run(
        capsys, "check", "--project", str(project_with_size(tmp_path, D2V3)), "--policy-config", str(config)
    )

    assert code == 2
    assert "the size policies judge on different days; allowed: one asOf for all, or --as-of" in err


# --- one clock near midnight ---------------------------------------------------------------------------


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`frozen(instant, tz)`: the wall clock stopped at `instant` (UTC), the process in time zone `tz`."""

    def freeze(instant: str, tz: str) -> None:
        stopped = dt.datetime.fromisoformat(instant)

        class Stopped(dt.datetime):
            @classmethod
            def now(cls, tz: dt.tzinfo | None = None) -> dt.datetime:  # type: ignore[override]
                return stopped.astimezone(tz) if tz else stopped.astimezone().replace(tzinfo=None)

        monkeypatch.setattr(clock, "dt", types.SimpleNamespace(datetime=Stopped, date=dt.date, timezone=dt.timezone))
        monkeypatch.setenv("TZ", tz)
        time.tzset()

    yield freeze
    monkeypatch.undo()
    time.tzset()
    assert "TZ" not in os.environ or os.environ["TZ"] != "Pacific/Kiritimati"


def test_a_minute_before_utc_midnight_everything_judges_the_utc_day(
    frozen: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    frozen("2026-09-29T23:59:30+00:00", "Pacific/Kiritimati")  # local time: 2026-09-30 13:59, a day ahead
    assert clock.dt.datetime.now().date() == dt.date(2026, 9, 30)  # noqa: DTZ005 - the local date, on purpose
    assert clock.utc_today() == dt.date(2026, 9, 29)

    stack = stack_copy(tmp_path, "inference-t4", lambda c: c["azure-gpu-stacks:vm"].update(vmSize=NV3))
    code, out, err = run(capsys, "plan", stack, "--json")
    plan = json.loads(out)

    assert (code, err) == (0, "")  # the components took it (the local date would refuse it)
    assert plan["asOf"] == "2026-09-29" and plan["refusals"] == []  # the fake ARM took it
    assert [v["message"] for v in plan["violations"] if v["policy"] == "warn-retiring-vm-sizes"] == [
        f"hardwareProfile.vmSize is '{NV3}', which Azure retires on 2026-09-30 (in 1 days); "
        "move to Standard_NV12ads_A10_v5 before then."
    ]


def test_a_minute_after_utc_midnight_everything_refuses_the_retired_size(
    frozen: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    frozen("2026-09-30T00:00:30+00:00", "Etc/GMT+12")  # local time: 2026-09-29 12:00, a day behind
    assert clock.dt.datetime.now().date() == dt.date(2026, 9, 29)  # noqa: DTZ005 - the local date, on purpose
    assert clock.utc_today() == dt.date(2026, 9, 30)

    with pytest.raises(ValueError, match="was retired on 2026-09-30"):
        deployable_size(NV3, clock.utc_today())  # the components
    with pytest.raises(SkuNotAvailable, match="retired since 2026-09-30"):
        arm_with_group().put(
            VM, "vm", {"resourceGroupName": "rg", "location": "eastus", "hardwareProfile": {"vmSize": NV3}}, "urn:vm"
        )
    vm = Res(VM, "fail_vm", {"hardwareProfile": {"vmSize": NV3}})
    assert [level for level, _, _ in found([vm], "disallow-retired-vm-sizes")] == [
        "mandatory"
    ]  # the pack, default asOf

    code, out, _ = run(capsys, "check", "--project", str(project_with_size(tmp_path, NV3)), "--format", "json")
    assert code == 1 and json.loads(out)["stacks"][0]["asOf"] == "2026-09-30"


def test_fake_arm_judges_sizes_on_the_now_it_is_given_not_the_clock() -> None:
    props = {"resourceGroupName": "rg", "location": "eastus", "hardwareProfile": {"vmSize": NV3}}
    arm_with_group(now=dt.datetime(2026, 9, 29, 23, 59, tzinfo=dt.timezone.utc)).put(VM, "vm", dict(props), "urn:vm")
    with pytest.raises(SkuNotAvailable):
        arm_with_group(now=dt.datetime(2026, 9, 30, tzinfo=dt.timezone.utc)).put(VM, "vm", dict(props), "urn:vm")
