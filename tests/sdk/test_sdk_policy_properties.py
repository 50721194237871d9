"""Contract test of `sdk.internals.policy_properties_read_once`: pulumi_policy's servicer converts a resource's
properties (`json_format.MessageToDict`) once per policy and copies the result for each (`deserialize_properties`);
converted once per message, every policy must still see what it saw, in containers of its own."""

from __future__ import annotations

import importlib
from typing import Any

import pulumi_policy
from azure_gpu_stacks.sdk import internals as sdk
from google.protobuf import struct_pb2

POLICY_MODULE = importlib.import_module("pulumi_policy.policy")
DESERIALIZE_MODULE = importlib.import_module("pulumi_policy.deserialize")
PROPERTIES = {"location": "westeurope", "tags": {"team": "ml"}, "zones": ["1", "2"], "hardwareProfile": {"vmSize": "x"}}


def _servicer_seeing(seen: list[Any], policies: int) -> Any:
    def validate(args: pulumi_policy.ResourceValidationArgs, report: pulumi_policy.ReportViolation) -> None:
        seen.append((args.props["tags"]["team"], args.props["tags"]["__target"]))  # the dict behind the proxy
        args.props["tags"]["__target"]["team"] = "changed by a policy"
        if args.props["hardwareProfile"]["vmSize"] == "x":
            report("size x is refused", None)

    pack = [
        pulumi_policy.ResourceValidationPolicy(name=f"policy-{n}", description="d", validate=validate)
        for n in range(policies)
    ]
    return sdk.policy_servicer("contract", "1.0.0", pack, pulumi_policy.EnforcementLevel.ADVISORY)


def _request() -> Any:
    struct = struct_pb2.Struct()
    struct.update(PROPERTIES)
    return sdk.analyzer_pb2.AnalyzeRequest(
        type="contract:index:Thing", name="t", urn="urn:pulumi:s::p::contract:index:Thing::t", properties=struct
    )


def test_the_servicer_converts_properties_through_its_modules_json_format() -> None:
    servicer = getattr(POLICY_MODULE, "_PolicyAnalyzerServicer")
    for method in ("Analyze", "AnalyzeStack"):
        names = getattr(servicer, method).__code__.co_names
        assert "json_format" in names and "MessageToDict" in names, (
            f"pulumi_policy's servicer.{method} no longer converts through its module's json_format; adapt "
            "`policy_properties_read_once` in sdk/internals.py"
        )
    converted = {"a": {"b": [1, {"c": 2}]}}
    copied = getattr(DESERIALIZE_MODULE, "deserialize_properties")(converted)
    assert copied == converted == {"a": {"b": [1, {"c": 2}]}}
    assert copied["a"] is not converted["a"] and copied["a"]["b"][1] is not converted["a"]["b"][1], (
        "deserialize_properties no longer copies what it is given; adapt `policy_properties_read_once`"
    )


def test_each_policy_sees_the_properties_in_containers_of_its_own() -> None:
    found = []
    for read_once in (False, True):
        seen: list[Any] = []
        servicer = _servicer_seeing(seen, policies=3)
        with sdk.policy_properties_read_once() if read_once else _nothing():
            diagnostics = servicer.Analyze(_request(), None).diagnostics
        found.append(([d.message for d in diagnostics], seen))

    (without, seen_without), (with_once, seen_once) = found
    assert with_once == without == ["d\nsize x is refused"] * 3
    # each policy changed its own copy only: the next one still saw the program's value
    assert [team for team, _ in seen_once] == [team for team, _ in seen_without] == ["ml"] * 3
    assert len({id(tags) for _, tags in seen_once}) == 3


def test_it_is_restored_afterwards() -> None:
    before = getattr(POLICY_MODULE, "json_format")

    with sdk.policy_properties_read_once():
        assert getattr(POLICY_MODULE, "json_format") is not before

    assert getattr(POLICY_MODULE, "json_format") is before


class _nothing:  # noqa: N801 - a context manager that does nothing, named as one reads it
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None
