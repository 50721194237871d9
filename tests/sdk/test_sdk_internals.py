"""Contract tests of `azure_gpu_stacks.sdk.internals`: one per pulumi or pulumi-policy internal it uses.

Each asserts the exact shape the toolkit relies on, against the installed SDKs, and says in its
message what changed and which name of sdk/internals.py must be adapted. An upgrade that breaks one
fails here, by name, instead of making offline plans quietly differ from `pulumi preview`. The last
test keeps every other module from reaching those internals itself.
"""

from __future__ import annotations

import ast
import asyncio
import contextvars
import importlib.metadata
import inspect
import json
import os
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypedDict, get_args, get_origin

import pulumi
import pulumi_policy
import pytest
from azure_gpu_stacks.engine.run.runtime import run_program
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.sdk import internals as sdk
from google.protobuf import empty_pb2, struct_pb2
from pulumi.provider import Provider
from pulumi.runtime import rpc
from pulumi.runtime.proto import resource_pb2
from pulumi_policy import proxy

from tests.conftest import REPO
from tests.sdk_source import in_a_child

ADAPTER = "sdk/internals.py"


def changed(what: str, name: str) -> str:
    versions = ", ".join(f"{p} {importlib.metadata.version(p)}" for p in sdk.CHECKED_AGAINST)
    return f"{what} (installed: {versions}); adapt `{name}` in {ADAPTER}"


def test_the_adapter_was_checked_against_the_versions_uv_lock_pins() -> None:
    locked = {p["name"]: p.get("version") for p in tomllib.loads((REPO / "uv.lock").read_text())["package"]}

    assert {name: locked[name] for name in sdk.CHECKED_AGAINST} == sdk.CHECKED_AGAINST, (
        f"uv.lock moved pulumi or pulumi-policy: run this file, check each internal in {ADAPTER}'s docstring "
        "against the new sources, then update CHECKED_AGAINST and the docstring"
    )


def test_a_missing_internal_fails_naming_itself_and_the_adapter() -> None:
    with pytest.raises(sdk.SdkContractError) as raised:
        sdk._internal(rpc, "no_such_internal")

    assert str(raised.value) == (
        "pulumi.runtime.rpc.no_such_internal is gone from the installed SDK (checked against pulumi 3.272.0, "
        "pulumi-policy 1.21.0); adapt sdk/internals.py (tests/sdk/test_sdk_internals.py names what changed)"
    )


# --- the engine's wire constants, against the SDKs' private copies -----------------------------


def test_secret_envelope_is_the_one_the_sdk_writes_and_reads() -> None:
    assert (rpc._special_sig_key, rpc._special_secret_sig) == (sdk.SECRET_SIG_KEY, sdk.SECRET_SIG), changed(
        "pulumi's secret signature changed", "SECRET_SIG_KEY/SECRET_SIG"
    )
    assert rpc.wrap_rpc_secret("s") == sdk.secret("s")
    assert rpc.is_rpc_secret(sdk.secret("s")) and sdk.is_secret(rpc.wrap_rpc_secret("s"))
    assert sdk.unwrap_secret(rpc.wrap_rpc_secret({"a": 1})) == {"a": 1} == rpc.unwrap_rpc_secret(sdk.secret({"a": 1}))
    assert not sdk.is_secret({"value": "s"}) and sdk.unwrap_secret("plain") == "plain"


def test_unknown_sentinels_are_the_ones_pulumi_policy_and_the_runtime_know() -> None:
    theirs = {n: getattr(proxy, n) for n in dir(proxy) if n.startswith("UNKNOWN_") and n.endswith("_VALUE")}

    assert theirs == {f"UNKNOWN_{kind.upper()}_VALUE": v for kind, v in sdk.UNKNOWN_VALUES.items()}, changed(
        "pulumi_policy.proxy's UNKNOWN_*_VALUE sentinels changed", "UNKNOWN_VALUES"
    )
    assert rpc.UNKNOWN == sdk.UNKNOWN_STRING_VALUE, changed("pulumi's wire unknown changed", "UNKNOWN_STRING_VALUE")
    assert all(sdk.is_unknown_sentinel(v) for v in theirs.values()) and not sdk.is_unknown_sentinel("x")


# --- pulumi ----------------------------------------------------------------------------------------


def test_runtime_config_is_every_value_set_all_config_gave_the_runtime() -> None:
    def in_a_fresh_context() -> tuple[dict[str, str], str | None]:
        pulumi.runtime.set_all_config({"team:size": "8", "azure-native:location": "eastus"}, [])
        return sdk.runtime_config(), pulumi.Config("team").get("size")

    values, read = contextvars.copy_context().run(in_a_fresh_context)

    assert values == {"team:size": "8", "azure-native:location": "eastus"}, changed(
        "pulumi.runtime.config.CONFIG no longer holds what set_all_config sets", "runtime_config"
    )
    assert read == "8", changed("pulumi.Config no longer reads the config set_all_config sets", "runtime_config")


def test_recorded_inputs_deserialize_a_registration_keeping_secrets_and_unknowns() -> None:
    struct = struct_pb2.Struct()
    struct.update({"size": "x", "key": sdk.secret("k"), "ip": sdk.UNKNOWN_STRING_VALUE, "tags": {"n": [1.0]}})

    inputs = sdk.recorded_inputs(struct)

    assert {k: v for k, v in inputs.items() if k != "ip"} == {
        "size": "x",
        "key": sdk.secret("k"),
        "tags": {"n": [1.0]},
    }, changed("rpc.deserialize_properties(keep_unknowns=True) changed its values", "recorded_inputs")
    assert sdk.is_output_unknown(inputs["ip"]), changed(
        f"an unknown input deserializes to {inputs['ip']!r}, not an instance of type(pulumi.UNKNOWN)",
        "is_output_unknown",
    )
    assert sdk.is_output_unknown(pulumi.UNKNOWN) and not sdk.is_output_unknown(None)


class _Thing(pulumi.CustomResource):
    def __init__(self, name: str, props: dict[str, Any], opts: pulumi.ResourceOptions | None = None):
        super().__init__("contract:index:Thing", name, props, opts)


def test_mock_monitor_hands_register_resource_the_request_fields_recorded(fake_arm: FakeArm, tmp_path: Path) -> None:
    fields = {f.name for f in resource_pb2.RegisterResourceRequest.DESCRIPTOR.fields}  # what MockMonitor is handed
    read = {
        "type",
        "name",
        "parent",
        "custom",
        "protect",
        "object",
        "dependencies",
        "ignoreChanges",
        "deleteBeforeReplace",
        "sourcePosition",
    }
    assert read <= fields, changed(f"RegisterResourceRequest lost {sorted(read - fields)}", "MockMonitor")
    assert list(inspect.signature(sdk.MockMonitor.make_urn).parameters) == ["self", "parent", "type_", "name"], changed(
        "MockMonitor.make_urn's signature changed", "MockMonitor"
    )
    assert "monitor" in inspect.signature(pulumi.runtime.set_mocks).parameters, changed(
        "set_mocks takes no monitor", "MockMonitor"
    )

    def program() -> None:
        parent = _Thing("parent", {})
        opts = pulumi.ResourceOptions(parent=parent, protect=True, ignore_changes=["size"], delete_before_replace=True)
        _Thing("child", {"size": "x", "key": pulumi.Output.secret("k")}, opts)
        pulumi.export("root", pulumi.runtime.get_root_directory())

    result = run_program(
        program, project="p", stack="s", config={}, secret_keys=[], arm=fake_arm, root_directory=tmp_path
    )
    parent, child = result.resources

    assert parent.parent is None, changed(
        "the Stack's registration no longer reaches RegisterResource first", "MockMonitor"
    )

    assert (child.urn, child.parent) == (
        "urn:pulumi:s::p::contract:index:Thing$contract:index:Thing::child",
        "urn:pulumi:s::p::contract:index:Thing::parent",
    ), changed("RegisterResource no longer names the resource with make_urn", "MockMonitor")
    assert (child.custom, child.protect, child.ignore_changes, child.delete_before_replace) == (
        True,
        True,
        ("size",),
        True,
    )
    assert child.inputs == {"size": "x", "key": sdk.secret("k")}
    assert child.source is not None and child.source[0].endswith("test_sdk_internals.py")
    # Public: `Settings(root_directory=...)`, as the language host sets it (engine/run/program_host.py).
    assert result.outputs["root"] == str(tmp_path), "Settings(root_directory=) no longer answers get_root_directory()"


def test_stack_outputs_are_what_the_program_exported(fake_arm: FakeArm) -> None:
    def program() -> None:
        pulumi.export("count", 2)
        pulumi.export("name", pulumi.Output.from_input("n"))

    result = run_program(program, project="p", stack="s", config={}, secret_keys=[], arm=fake_arm)

    assert result.outputs == {"count": 2, "name": "n"}, changed(
        "the root Stack no longer keeps exports in .outputs", "stack_outputs"
    )


def test_type_hints_resolve_pulumi_input_to_its_output_form() -> None:
    class Args(TypedDict):
        size: pulumi.Input[str]

    hint = sdk.type_hints(Args)["size"]

    assert str in get_args(hint) and pulumi.Output in [get_origin(a) for a in get_args(hint)], changed(
        f"pulumi.Input[str] now reads as {hint!r}", "type_hints"
    )


def test_property_types_are_read_once_per_class_and_kept() -> None:
    @pulumi.input_type
    class DiskArgs:
        def __init__(self, size_gb: pulumi.Input[int] | None = None):
            pulumi.set(self, "size_gb", size_gb)

        @property
        @pulumi.getter(name="diskSizeGB")
        def size_gb(self) -> pulumi.Input[int] | None:
            return pulumi.get(self, "size_gb")

    before = sdk.property_types_read()
    types = sdk.property_types(DiskArgs)
    read = sdk.property_types_read()
    sdk.property_types(DiskArgs)

    assert types == {"diskSizeGB": int}, changed(f"the SDK now reads {types!r}", "property_types")
    assert (read, sdk.property_types_read()) == (before + 1, before + 1), changed(
        "the SDK no longer keeps one reading per class", "property_types_read"
    )


def test_getter_name_is_the_wire_name_pulumi_getter_records() -> None:
    @pulumi.input_type
    class SizeArgs:
        @property
        @pulumi.getter(name="vmSize")
        def vm_size(self) -> str | None:
            return None

        @property
        def plain(self) -> str:
            return ""

    found = {name: sdk.getter_name(attr.fget) for name, attr in vars(SizeArgs).items() if isinstance(attr, property)}

    assert found == {"vm_size": "vmSize", "plain": None}, changed(
        "pulumi.getter no longer sets _pulumi_name", "getter_name"
    )


@pytest.fixture
def mock_runtime() -> Iterator[Callable[[pulumi.runtime.Mocks, Callable[[], Any]], None]]:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    def run(mocks: pulumi.runtime.Mocks, program: Callable[[], Any]) -> None:
        pulumi.runtime.reset_options()
        pulumi.runtime.set_mocks(mocks, project="p", stack="s", preview=False)
        pulumi.runtime.test(program)()

    yield run
    pulumi.runtime.reset_options()
    asyncio.set_event_loop(None)
    loop.close()


def test_invoke_failure_reads_the_message_of_a_refused_provider_function(mock_runtime: Any) -> None:
    class Refusing(pulumi.runtime.Mocks):
        def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
            return args.name, {}

        def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]]]:
            return {}, [("vmSize", "not offered here")] if args.args else [("", "no such thing")]

    messages = []
    for given in ({"vmSize": "x"}, {}):
        with pytest.raises(Exception) as raised:  # noqa: PT011 - the SDK raises a plain Exception
            mock_runtime(Refusing(), lambda given=given: pulumi.runtime.invoke("contract:index:lookup", given))
        messages.append(sdk.invoke_failure(raised.value))

    assert messages == [
        "invoke of contract:index:lookup failed: not offered here (vmSize)",
        "invoke of contract:index:lookup failed: no such thing",
    ], changed("a failed invoke's message changed", "invoke_failure")
    assert sdk.invoke_failure(ValueError("boom")) is None


def test_component_provider_builds_the_package_schema() -> None:
    from azure_gpu_stacks.components.package import PACKAGE_NAME, hostable_components

    provider = sdk.component_provider(hostable_components(), PACKAGE_NAME, "1.2.3")

    assert isinstance(provider, Provider), changed("ComponentProvider is no Provider", "component_provider")
    assert (json.loads(provider.schema or "{}")["name"], provider.version) == (PACKAGE_NAME, "1.2.3")


def test_input_property_error_is_what_construct_raises_for_a_bad_input() -> None:
    error = sdk.input_property_error()

    assert issubclass(error, Exception) and list(inspect.signature(error).parameters) == ["property_path", "reason"], (
        changed("pulumi.provider.server.InputPropertyError changed", "input_property_error")
    )


def test_protocol_modules_have_the_levels_and_fields_used() -> None:
    pb = sdk.analyzer_pb2
    levels = (pb.ADVISORY, pb.MANDATORY, pb.REMEDIATE, pb.DISABLED)
    severities = (
        pb.POLICY_SEVERITY_LOW,
        pb.POLICY_SEVERITY_MEDIUM,
        pb.POLICY_SEVERITY_HIGH,
        pb.POLICY_SEVERITY_CRITICAL,
    )
    used = {
        pb.AnalyzeRequest: {"type", "name", "urn", "properties", "options"},
        pb.AnalyzerResource: {"type", "name", "urn", "properties", "options", "parent", "dependencies"},
        pb.AnalyzerResourceOptions: {"protect", "ignoreChanges", "deleteBeforeReplace", "parent"},
        pb.PolicyConfig: {"enforcementLevel", "properties"},
        pb.ConfigureAnalyzerRequest: {"policyConfig"},
        pb.AnalyzeStackRequest: {"resources"},
        pb.AnalyzeDiagnostic: {"policyName", "description", "message", "urn", "enforcementLevel", "severity"},
    }
    missing = {m.DESCRIPTOR.name: sorted(f - {d.name for d in m.DESCRIPTOR.fields}) for m, f in used.items()}

    assert {k: v for k, v in missing.items() if v} == {}, changed("analyzer.proto messages lost fields", "analyzer_pb2")
    assert len(set(levels)) == 4 and len(set(severities)) == 4
    assert hasattr(sdk.analyzer_pb2_grpc, "AnalyzerStub") and hasattr(sdk.provider_pb2_grpc, "ResourceProviderStub")
    assert hasattr(sdk.provider_pb2, "GetSchemaRequest")


# --- pulumi-policy ---------------------------------------------------------------------------------

BAD = "contract-bad-size"


def _pack(seen: list[str]) -> list[pulumi_policy.Policy]:
    def validate(args: pulumi_policy.ResourceValidationArgs, report: pulumi_policy.ReportViolation) -> None:
        try:
            size = args.props["size"]
        except sdk.UnknownValueError:
            seen.append("unknown")
            return
        if size == "x":
            report("size x is refused", None)

    return [
        pulumi_policy.ResourceValidationPolicy(
            name=BAD,
            description="Sizes are checked.",
            validate=validate,
            enforcement_level=pulumi_policy.EnforcementLevel.MANDATORY,
        )
    ]


def _request(props: dict[str, Any]) -> Any:
    struct = struct_pb2.Struct()
    struct.update(props)
    return sdk.analyzer_pb2.AnalyzeRequest(
        type="contract:index:Thing", name="t", urn="urn:pulumi:s::p::contract:index:Thing::t", properties=struct
    )


def test_policy_servicer_answers_the_engines_requests_in_process() -> None:
    seen: list[str] = []
    servicer = sdk.policy_servicer("contract", "1.0.0", _pack(seen), pulumi_policy.EnforcementLevel.ADVISORY)
    config = {BAD: sdk.analyzer_pb2.PolicyConfig(enforcementLevel=sdk.analyzer_pb2.MANDATORY)}
    servicer.Configure(sdk.analyzer_pb2.ConfigureAnalyzerRequest(policyConfig=config), None)

    info = servicer.GetAnalyzerInfo(empty_pb2.Empty(), None)
    refused = servicer.Analyze(_request({"size": "x"}), None).diagnostics
    unknown = servicer.Analyze(_request({"size": sdk.UNKNOWN_STRING_VALUE}), None).diagnostics
    stack = servicer.AnalyzeStack(sdk.analyzer_pb2.AnalyzeStackRequest(resources=[]), None).diagnostics

    assert [p.name for p in info.policies] == [BAD], changed("GetAnalyzerInfo changed", "policy_servicer")
    assert [(d.policyName, d.enforcementLevel) for d in refused] == [(BAD, sdk.analyzer_pb2.MANDATORY)], changed(
        "Analyze no longer reports the violation", "policy_servicer"
    )
    assert (refused[0].message, sdk.violation_message(refused[0])) == (
        "Sizes are checked.\nsize x is refused",
        "size x is refused",
    ), changed("the diagnostic message is no longer the description, a newline and the message", "violation_message")
    assert seen == ["unknown"] and list(unknown) == [] and list(stack) == [], changed(
        "reading an unknown through the servicer's proxies no longer raises proxy.UnknownValueError",
        "UnknownValueError",
    )


def test_policy_pack_serves_the_same_servicer_class() -> None:
    served = inspect.getsource(pulumi_policy.PolicyPack.__init__)

    assert "_PolicyAnalyzerServicer(" in served, changed(
        "PolicyPack no longer serves _PolicyAnalyzerServicer: offline analysis would differ from the CLI's",
        "policy_servicer",
    )


# --- nothing else reaches behind the SDKs' public APIs ---------------------------------------------

INTERNAL_MODULES = (
    "pulumi._types",
    "pulumi.config",
    "pulumi.output",
    "pulumi.provider.experimental.component",
    "pulumi.provider.server",
    "pulumi.runtime.config",
    "pulumi.runtime.mocks",
    "pulumi.runtime.proto",
    "pulumi.runtime.rpc",
    "pulumi.runtime.settings",
    "pulumi_policy.deserialize",
    "pulumi_policy.policy",
    "pulumi_policy.proxy",
)
# The tampering program reaches into the SDK on purpose: it is what a program cannot do to its verdict.
EXEMPT = {ADAPTER, "tests/sdk/test_sdk_internals.py", "tests/data/tampering/garbage_on_the_channel.py"}
SKIPPED_DIRS = {".venv", "venv", ".tools", ".git", "build", "dist", "node_modules"}


def _internal(name: str) -> bool:
    return any(name == m or name.startswith(f"{m}.") for m in INTERNAL_MODULES)


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""


def _reaches(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for name in (node.module, *(f"{node.module}.{a.name}" for a in node.names)):
                if _internal(name) or name.rsplit(".", 1)[-1].startswith("_"):  # a private module or name
                    yield node.lineno, name
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, a.name) for a in node.names if _internal(a.name))
        elif isinstance(node, ast.Attribute) and _internal(_dotted(node)):
            yield node.lineno, _dotted(node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("_pulumi"):
            yield node.lineno, node.value


def _ours() -> list[Path]:
    """Every .py file of the checkout outside SKIPPED_DIRS, which are never entered (the walk into .venv alone read
    13,000 files and took 0.35 s of CPU, more on a cold disk)."""
    found = []
    for directory, subdirectories, files in os.walk(REPO):
        subdirectories[:] = [name for name in subdirectories if name not in SKIPPED_DIRS]
        found += [Path(directory, name) for name in files if name.endswith(".py")]
    return sorted(found)


def test_only_the_adapter_reaches_sdk_internals() -> None:
    # every name reported starts with "pulumi" or "_pulumi", so a file whose text never says "pulumi" has none: it
    # is not parsed (275 of 610 files, 2026-11-27)
    texts = {p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8") for p in _ours()}
    found = sorted(
        {
            f"{path}:{line}: {what}"
            for path, text in texts.items()
            if path not in EXEMPT and "pulumi" in text
            for line, what in _reaches(ast.parse(text))
            if what.split(".")[0] in ("pulumi", "pulumi_policy") or what.startswith("_pulumi")
        }
    )

    assert found == [], f"import these from azure_gpu_stacks.sdk.internals (with a contract test here): {found}"


OLD_TYPES = [f"contract:v{version}:Thing" for version in range(25)]  # as azure-native lists its older API versions


def _alias_readers() -> list[str]:
    """The functions of the pulumi SDK, other than `__init__`, that read an `_aliases` attribute."""
    return [
        node.name
        for path in Path(pulumi.__file__).parent.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef)
        and node.name != "__init__"
        and any(isinstance(n, ast.Attribute) and n.attr == "_aliases" for n in ast.walk(node))
    ]


def test_alias_urns_are_made_only_when_read_and_are_the_sdks_own(fake_arm: FakeArm) -> None:
    """`Resource.__init__` collapses each alias to a URN (`collapse_alias_to_urn`); only `all_aliases` reads
    them, for an engine without alias specs, and this engine has them. So a program run here makes a
    resource's alias URNs only when read: a resource with 25 aliases starts as many tasks as one without, and
    each URN read is the one the SDK makes."""
    resource_module = importlib.import_module("pulumi.resource")
    runtime_resource = importlib.import_module("pulumi.runtime.resource")
    assert "collapse_alias_to_urn" in resource_module.Resource.__init__.__code__.co_names, changed(
        "Resource.__init__ no longer collapses aliases through the module's collapse_alias_to_urn",
        "alias_urns_made_when_read",
    )
    # parsed in a forked child: the syntax trees of the whole SDK left this test process 11 MB larger
    readers = in_a_child(_alias_readers, "the pulumi SDK's readers of _aliases")
    assert readers == ["all_aliases"], changed(
        f"a resource's _aliases are read by {readers}", "alias_urns_made_when_read"
    )
    prepare = inspect.getsource(runtime_resource.prepare_aliases)
    assert prepare.index("if supports_alias_specs:") < prepare.index("all_aliases("), changed(
        "prepare_aliases reads the URNs with alias specs too", "alias_urns_made_when_read"
    )
    assert (
        resource_pb2.RESOURCE_MONITOR_FEATURE_ALIAS_SPECS
        in sdk.MockMonitor(None).GetDeploymentInfo(None).supportedFeatures
    )

    started: dict[str, int] = {}
    read: dict[str, Any] = {}

    def program() -> None:
        for name, aliases in (("plain", []), ("aliased", [pulumi.Alias(type_=t) for t in OLD_TYPES])):
            before = len(asyncio.all_tasks())
            thing = _Thing(name, {}, pulumi.ResourceOptions(aliases=aliases))
            started[name] = len(asyncio.all_tasks()) - before
        parent = _Thing("parent", {})
        child = _Thing("child", {}, pulumi.ResourceOptions(parent=parent, aliases=[pulumi.Alias(name="old-child")]))
        for name, resource in (("aliased", thing), ("child", child)):
            pulumi.Output.all(*[pulumi.Output.from_input(a) for a in resource._aliases]).apply(
                lambda urns, name=name: read.__setitem__(name, urns)
            )

    run_program(program, project="p", stack="s", config={}, secret_keys=[], arm=fake_arm)

    assert started["aliased"] == started["plain"]
    assert read["aliased"] == [f"urn:pulumi:s::p::{t}::aliased" for t in OLD_TYPES]
    assert read["child"] == ["urn:pulumi:s::p::contract:index:Thing$contract:index:Thing::old-child"]


def test_an_alias_the_sdk_refuses_still_fails_the_program(fake_arm: FakeArm) -> None:
    """An alias whose URN the SDK cannot make (no name) fails the program as `pulumi preview` fails it."""

    def program() -> None:
        _Thing("thing", {}, pulumi.ResourceOptions(aliases=[pulumi.Alias(name=None)]))

    with pytest.raises(Exception, match="No valid 'name' passed in for alias"):
        run_program(program, project="p", stack="s", config={}, secret_keys=[], arm=fake_arm)
