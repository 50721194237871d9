"""`--format junit`: the verdict as JUnit XML, the test report GitLab, Azure Pipelines and Jenkins read.

There is no single JUnit standard; the common ground of GitLab's unit test reports
(docs.gitlab.com/ci/testing/unit_test_reports, "JUnit XML format"), Azure Pipelines' PublishTestResults
(`testResultsFormat: JUnit`) and Jenkins' junit-10.xsd (observed 2026-11-26) is: a `<testsuites>` root
holding `<testsuite name tests failures errors skipped>` elements, each holding `<testcase name
classname>` elements with at most one `<failure message type>` and optional `<system-out>`. Here a stack
is a test suite and each check of it a test case: "Azure accepts every resource" (failed by each
refusal) and one case per policy of the pack (failed by a mandatory violation; an advisory one passes,
its findings in `<system-out>`, as advisories do not fail a check). A stack that could not be planned is
one case with an `<error>`. Built from each stack's plan JSON (`Plan.to_json`), so a fleet's merged
report, which has the records and not the plans, writes the same XML.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.etree import ElementTree

ARM_CASE = "Azure Resource Manager accepts every resource"
# What XML 1.0 cannot hold (its `Char` production): a message quoting a program's output may contain it.
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: object) -> str:
    return NOT_XML.sub("\ufffd", str(value))


def render_junit(stacks: Iterable[Mapping[str, Any]], policies: Sequence[str]) -> str:
    """JUnit XML for each stack's plan JSON (`Plan.to_json`, or `{"stack", "error"}` for a stack not planned)."""
    root = ElementTree.Element("testsuites", name="gpu-stacks check")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for stack in stacks:
        suite = _suite(stack, policies)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
    for key, value in totals.items():
        root.set(key, str(value))
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def _suite(stack: Mapping[str, Any], policies: Sequence[str]) -> ElementTree.Element:
    name = _text(stack.get("stack", ""))
    suite = ElementTree.Element("testsuite", name=name)
    if "error" in stack:  # the stack could not be planned: one case, in error
        case = ElementTree.SubElement(suite, "testcase", name="plan", classname=name)
        ElementTree.SubElement(case, "error", message=_text(stack["error"]), type="not planned")
        return _counted(suite, tests=1, failures=0, errors=1)
    refusals = list(stack.get("refusals") or [])
    violations = list(stack.get("violations") or [])
    failures = 0
    case = ElementTree.SubElement(suite, "testcase", name=ARM_CASE, classname=name)
    if refusals:
        failures += 1
        lines = [_text(f"{r.get('resource')}: {r.get('code')}: {r.get('message')}") for r in refusals]
        failure = ElementTree.SubElement(case, "failure", message=lines[0], type="azure refusal")
        failure.text = "\n".join(lines)
    for policy in policies:
        case = ElementTree.SubElement(suite, "testcase", name=policy, classname=name)
        found = [v for v in violations if v.get("policy") == policy]
        mandatory = [v for v in found if v.get("level") == "mandatory"]
        lines = [_text(f"{v.get('level')}: {v.get('resource')}: {v.get('message')}") for v in found]
        if mandatory:
            failures += 1
            failure = ElementTree.SubElement(case, "failure", message=lines[0], type="mandatory")
            failure.text = "\n".join(lines)
        elif found:
            ElementTree.SubElement(case, "system-out").text = "\n".join(lines)
    return _counted(suite, tests=1 + len(policies), failures=failures, errors=0)


def _counted(suite: ElementTree.Element, *, tests: int, failures: int, errors: int) -> ElementTree.Element:
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", "0")
    return suite
