"""The component package other languages use: its schema, generated offline, holds every
registered component with every input and output, typed, documented, required ones marked.

The expected names, types, descriptions and required flags are read here from the components'
source (the Args TypedDict and the class body, with `ast`), independently of how
`azure_gpu_stacks.components.package` builds the schema.
"""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NotRequired, TypedDict

import pulumi
import pytest
import yaml
from azure_gpu_stacks.components.package import PACKAGE_NAME, hostable, provider, schema, type_token
from azure_gpu_stacks.components.registry import REGISTRY, args_name, component_classes
from azure_gpu_stacks.components.version import __version__

from tests.conftest import REPO, TEST_RG, TEST_SSH_KEY, Recording, in_resource_group

COMPONENT_IDS = [name for name, _ in REGISTRY]

# The schema's type for a Python annotation's base name, as the source spells it.
SCHEMA_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
LISTS = {"Sequence", "list", "List"}
MAPS = {"Mapping", "dict", "Dict"}
WRAPPERS = {"NotRequired", "Required", "Optional", "Input", "Output"}  # do not change the schema type


def camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(word[:1].upper() + word[1:] for word in rest)


def _name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def expected_type(node: ast.expr) -> dict[str, Any]:
    """What the schema should say for an annotation, read from its source text."""
    if isinstance(node, ast.Subscript):
        outer = _name(node.value)
        inner = node.slice
        if outer in WRAPPERS:
            return expected_type(inner)
        if outer in LISTS:
            return {"type": "array", "items": expected_type(inner)}
        if outer in MAPS:
            assert isinstance(inner, ast.Tuple)
            return {"type": "object", "additionalProperties": expected_type(inner.elts[1])}
        if outer == "Literal":
            choices = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            return {"type": SCHEMA_TYPES[type(ast.literal_eval(choices[0])).__name__]}
    if isinstance(node, ast.BinOp):  # `X | None`
        return expected_type(node.left)
    name = _name(node)
    return {"type": SCHEMA_TYPES[name]} if name in SCHEMA_TYPES else {"$ref": f"#/types/{PACKAGE_NAME}:index:{name}"}


def literal_choices(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Subscript) and _name(node.value) == "Literal":
        choices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return [str(ast.literal_eval(c)) for c in choices]
    if isinstance(node, ast.Subscript):
        return literal_choices(node.slice) if not isinstance(node.slice, ast.Tuple) else []
    return []


def declared_fields(cls: type) -> dict[str, tuple[ast.expr, str | None]]:
    """Each annotated field of a class body: its annotation and the docstring under it."""
    [body] = ast.parse(textwrap.dedent(inspect.getsource(cls))).body
    assert isinstance(body, ast.ClassDef)
    fields: dict[str, tuple[ast.expr, str | None]] = {}
    statements = body.body
    for index, stmt in enumerate(statements):
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and not stmt.target.id.startswith("_"):
            after = statements[index + 1] if index + 1 < len(statements) else None
            is_doc = isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
            doc = after.value.value if is_doc else None  # type: ignore[union-attr]
            fields[stmt.target.id] = (stmt.annotation, doc if isinstance(doc, str) else None)
    return fields


def is_required(annotation: ast.expr) -> bool:
    return not (isinstance(annotation, ast.Subscript) and _name(annotation.value) == "NotRequired")


def strip_descriptions(prop: dict[str, Any]) -> dict[str, Any]:
    """A schema property's type only: no description, no `plain` (whether outputs are accepted)."""
    kept = {k: v for k, v in prop.items() if k not in ("description", "plain")}
    for key in ("items", "additionalProperties"):
        if key in kept:
            kept[key] = strip_descriptions(kept[key])
    return kept


@pytest.fixture(scope="module")
def package_schema() -> dict[str, Any]:
    return schema()


def component(name: str) -> type:
    return dict(zip(COMPONENT_IDS, component_classes()))[name]


def args_type(name: str) -> type:
    cls = component(name)
    return getattr(inspect.getmodule(cls), args_name(name))


def test_package_schema_is_named_and_versioned_as_the_package(package_schema: dict[str, Any]) -> None:
    assert (package_schema["name"], package_schema["version"]) == ("azure-gpu-stacks", __version__)


def test_package_schema_has_exactly_the_registered_components(package_schema: dict[str, Any]) -> None:
    assert list(package_schema["resources"]) == [f"azure-gpu-stacks:index:{name}" for name in COMPONENT_IDS]
    assert all(r["isComponent"] for r in package_schema["resources"].values())


@pytest.mark.parametrize("name", COMPONENT_IDS)
def test_package_type_token_is_the_one_the_component_registers(name: str) -> None:
    module = inspect.getmodule(component(name))

    assert type_token(component(name)) == module.TYPE_TOKEN == f"{PACKAGE_NAME}:index:{name}"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", COMPONENT_IDS)
def test_package_schema_types_and_documents_every_input(package_schema: dict[str, Any], name: str) -> None:
    resource = package_schema["resources"][f"azure-gpu-stacks:index:{name}"]
    fields = declared_fields(args_type(name))

    assert list(resource["inputProperties"]) == [camel(f) for f in fields]
    for field, (annotation, doc) in fields.items():
        prop = resource["inputProperties"][camel(field)]
        assert doc, f"{args_name(name)}.{field} has no docstring; the schema and docs/components.md need one"
        assert prop["description"] == doc
        assert strip_descriptions(prop) == expected_type(annotation), field


@pytest.mark.parametrize("name", COMPONENT_IDS)
def test_package_schema_marks_exactly_the_required_inputs(package_schema: dict[str, Any], name: str) -> None:
    fields = declared_fields(args_type(name))
    resource = package_schema["resources"][f"azure-gpu-stacks:index:{name}"]

    assert sorted(resource["requiredInputs"]) == sorted(camel(f) for f, (ann, _) in fields.items() if is_required(ann))


@pytest.mark.parametrize("name", COMPONENT_IDS)
def test_package_schema_names_the_allowed_values_of_closed_choices(package_schema: dict[str, Any], name: str) -> None:
    # The schema types a Literal as its base type, so the description must carry the choices.
    resource = package_schema["resources"][f"azure-gpu-stacks:index:{name}"]
    for field, (annotation, _) in declared_fields(args_type(name)).items():
        description = resource["inputProperties"][camel(field)]["description"]
        for choice in literal_choices(annotation):
            assert choice in description, (
                f"{args_name(name)}.{field}: the docstring does not name the allowed value {choice!r}"
            )


@pytest.mark.parametrize("name", COMPONENT_IDS)
def test_package_schema_types_and_documents_every_output(package_schema: dict[str, Any], name: str) -> None:
    resource = package_schema["resources"][f"azure-gpu-stacks:index:{name}"]
    fields = declared_fields(component(name))

    assert resource["description"] == inspect.getdoc(component(name))
    assert list(resource["properties"]) == [camel(f) for f in fields]
    for field, (annotation, doc) in fields.items():
        assert doc, f"{name}.{field} has no docstring"
        assert resource["properties"][camel(field)]["description"] == doc
        assert strip_descriptions(resource["properties"][camel(field)]) == expected_type(annotation), field


def test_package_leaves_the_component_classes_as_python_users_see_them() -> None:
    from azure_gpu_stacks.components.gpu_vm import GpuVm, GpuVmArgs

    hostable(GpuVm)

    assert GpuVmArgs.__annotations__["eviction_policy"].__forward_arg__.startswith("NotRequired[Literal[")
    assert GpuVm.__init__.__annotations__["args"] == "GpuVmArgs"


# --- construct: a program in another language sends camelCase inputs, numbers as floats ---

YAML_EXAMPLE = REPO / "examples" / "yaml-team" / "Pulumi.yaml"


def yaml_components() -> dict[str, dict[str, Any]]:
    program = yaml.safe_load(YAML_EXAMPLE.read_text())
    return {k: v for k, v in program["resources"].items() if v["type"].startswith(f"{PACKAGE_NAME}:index:")}


def test_yaml_example_uses_only_schema_types_and_inputs(package_schema: dict[str, Any]) -> None:
    for logical_name, resource in yaml_components().items():
        spec = package_schema["resources"][resource["type"]]
        given = set(resource["properties"])

        assert given <= set(spec["inputProperties"]), f"{logical_name}: not inputs of {resource['type']}"
        assert set(spec["requiredInputs"]) <= given, f"{logical_name}: required inputs missing"


def test_yaml_example_outputs_read_component_outputs(package_schema: dict[str, Any]) -> None:
    program = yaml.safe_load(YAML_EXAMPLE.read_text())
    types = {k: v["type"] for k, v in program["resources"].items()}
    for expression in program["outputs"].values():
        resource, _, output = expression.removeprefix("${").removesuffix("}").partition(".")
        if types[resource] in package_schema["resources"]:
            assert output in package_schema["resources"][types[resource]]["properties"], expression


def as_engine_sends(value: Any) -> Any:
    """A YAML value as it reaches the provider: every number a float (a protobuf Struct holds doubles)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, list):
        return [as_engine_sends(v) for v in value]
    if isinstance(value, dict):
        return {k: as_engine_sends(v) for k, v in value.items()}
    return value


def construct_yaml_example(rg: Any) -> None:
    """Build the YAML example's components through the provider, as the engine would."""
    references = {"${rg.name}": rg.name, "${rg.id}": rg.id, "${sshPublicKey}": TEST_SSH_KEY}
    package = provider()
    for logical_name, resource in yaml_components().items():
        inputs = {
            k: references.get(v, v) if isinstance(v, str) else as_engine_sends(v)
            for k, v in resource["properties"].items()
        }
        package.construct(logical_name, resource["type"], inputs, None)


def test_package_construct_builds_the_yaml_example_as_azure_accepts_it(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(construct_yaml_example))

    assert rec.refusals == []
    assert [r.name for r in rec.of_type("azure-gpu-stacks:index:GpuVm")] == ["devBox"]
    assert [r.name for r in rec.of_type("azure-gpu-stacks:index:CostAlert")] == ["budget"]
    vm = rec.inputs("azure-native:compute:VirtualMachine")
    assert vm["storageProfile"]["osDisk"]["diskSizeGB"] == 256  # sent as 256.0, handed to GpuVm as 256
    assert vm["resourceGroupName"] == TEST_RG
    assert rec.inputs("azure-native:consumption:Budget")["amount"] == 300


def test_package_construct_refuses_a_missing_required_input_by_its_schema_name(
    record: Callable[..., Recording],
) -> None:
    from azure_gpu_stacks.sdk.internals import input_property_error

    def build(rg: Any) -> None:
        provider().construct(
            "dev", "azure-gpu-stacks:index:GpuVm", {"resourceGroupName": rg.name, "location": "eastus"}, None
        )

    with pytest.raises(input_property_error(), match="Missing required input 'sshPublicKey' on 'GpuVm'"):
        record(in_resource_group(build))


# --- the plugin: its manifest, entry point and dependencies ---

PLUGIN = REPO / "provider"


def test_plugin_manifest_is_a_python_plugin_beside_its_entry_point() -> None:
    manifest = yaml.safe_load((PLUGIN / "PulumiPlugin.yaml").read_text())

    assert manifest["runtime"]["name"] == "python"
    assert (PLUGIN / "__main__.py").is_file()


def test_plugin_serves_the_schema_over_grpc_as_the_cli_starts_it(tmp_path: Path) -> None:
    # As `pulumi package add` runs it: the entry file with the engine address, from another
    # directory; the plugin prints its port and answers GetPluginInfo and GetSchema.
    import grpc
    from azure_gpu_stacks.sdk.internals import provider_pb2, provider_pb2_grpc
    from google.protobuf import empty_pb2

    plugin = subprocess.Popen(
        [sys.executable, "-u", str(PLUGIN / "__main__.py"), "127.0.0.1:1"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = int(plugin.stdout.readline() or 0)  # type: ignore[union-attr]
        assert port, plugin.stderr.read()  # type: ignore[union-attr]
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = provider_pb2_grpc.ResourceProviderStub(channel)
            version = stub.GetPluginInfo(empty_pb2.Empty(), timeout=30).version
            served = json.loads(stub.GetSchema(provider_pb2.GetSchemaRequest(version=0), timeout=30).schema)
    finally:
        plugin.terminate()
        plugin.communicate(timeout=10)

    assert version == __version__
    assert served == schema()


def test_plugin_requirements_install_this_checkout_with_pulumi_held_at_the_provider_release() -> None:
    lines = [line.split("#")[0].strip() for line in (PLUGIN / "requirements.txt").read_text().splitlines()]
    requirements = [line for line in lines if line]

    # pip runs in provider/: `..` is the repository root, the distribution that __main__.py imports,
    # whose pyproject.toml is the one home of the other pins.
    assert requirements == ["..", "pulumi>=3.272,<4"]
    assert tomllib.loads((PLUGIN / ".." / "pyproject.toml").read_text())["project"]["name"] == "azure-gpu-stacks"


class CountsArgs(TypedDict):
    """A component with whole numbers at every depth, as another branch's component might have."""

    nodes: int
    """Node count."""
    per_zone: NotRequired[Sequence[int]]
    """Nodes per zone."""
    ratio: NotRequired[float]
    """A true float, left alone."""


class Counts(pulumi.ComponentResource):
    def __init__(self, name: str, args: CountsArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        self.seen = args  # records what it was given; registers nothing


def test_package_hands_components_whole_numbers_as_ints_as_their_args_declare() -> None:
    hosted = hostable(Counts)
    instance = object.__new__(hosted)

    hosted.__init__(instance, "c", {"nodes": 3.0, "per_zone": [1.0, 2.0], "ratio": 1.0})

    assert instance.seen == {"nodes": 3, "per_zone": [1, 2], "ratio": 1.0}
    assert [type(v) for v in (instance.seen["nodes"], *instance.seen["per_zone"], instance.seen["ratio"])] == [
        int,
        int,
        int,
        float,
    ]
