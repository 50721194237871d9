"""JUnit XML for GitLab, Azure Pipelines and Jenkins: a suite per stack, a case per check, failures as they fail."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

from azure_gpu_stacks.engine.report.junit import ARM_CASE, render_junit

POLICIES = ["disallow-retired-vm-sizes", "warn-retiring-vm-sizes"]


def stack(name: str, refusals: list[dict[str, Any]] = [], violations: list[dict[str, Any]] = []) -> dict[str, Any]:  # noqa: B006
    return {"stack": name, "refusals": refusals, "violations": violations}


def violation(policy: str, level: str, message: str = "'Standard_NC6' was retired") -> dict[str, Any]:
    return {"policy": policy, "level": level, "resource": "vm", "message": message}


def parse(text: str) -> ElementTree.Element:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ElementTree.fromstring(text.encode())


def test_a_clean_stack_is_a_suite_of_passing_cases() -> None:
    root = parse(render_junit([stack("dev")], POLICIES))
    [suite] = root

    assert (suite.tag, suite.get("name"), suite.get("tests"), suite.get("failures")) == ("testsuite", "dev", "3", "0")
    assert [case.get("name") for case in suite] == [ARM_CASE, *POLICIES]
    assert all(len(case) == 0 for case in suite)


def test_refusals_and_mandatory_violations_fail_their_case_and_advisories_pass_with_output() -> None:
    refusal = {"resource": "vm", "code": "SkuNotAvailable", "message": "not available"}
    plans = [
        stack("a", [refusal], [violation("disallow-retired-vm-sizes", "mandatory")]),
        stack("b", [], [violation("warn-retiring-vm-sizes", "advisory", "retires soon")]),
    ]
    root = parse(render_junit(plans, POLICIES))
    a, b = root
    cases = {case.get("name"): case for case in a}

    assert cases[ARM_CASE].find("failure").get("message") == "vm: SkuNotAvailable: not available"  # type: ignore[union-attr]
    assert cases["disallow-retired-vm-sizes"].find("failure").get("type") == "mandatory"  # type: ignore[union-attr]
    assert (a.get("failures"), b.get("failures"), root.get("failures"), root.get("tests")) == ("2", "0", "2", "6")
    [advisory] = [case for case in b if case.get("name") == "warn-retiring-vm-sizes"]
    assert advisory.find("failure") is None
    assert advisory.findtext("system-out") == "advisory: vm: retires soon"


def test_a_stack_not_planned_is_one_case_in_error() -> None:
    root = parse(render_junit([{"stack": "broken", "error": "stacks/Pulumi.broken.yaml: vm.vmSize: bad"}], POLICIES))
    [suite] = root

    assert (suite.get("tests"), suite.get("errors"), root.get("errors")) == ("1", "1", "1")
    assert suite[0].find("error").get("message") == "stacks/Pulumi.broken.yaml: vm.vmSize: bad"  # type: ignore[union-attr]


def test_text_xml_cannot_hold_is_replaced_not_written() -> None:
    text = render_junit(
        [stack("dev", [], [violation("warn-retiring-vm-sizes", "advisory", "bell \x07 and \x00")])], POLICIES
    )

    assert "\x07" not in text and "\x00" not in text
    assert "bell \ufffd and \ufffd" in parse(text)[0][2].findtext("system-out")  # type: ignore[operator]
