"""`gpu-stacks export-arm STACK`: the plan as an ARM template `az deployment sub validate` takes.

Expected values come from the plan (its resources and inputs), from pulumi-azure-native's own classes
(the API version each documents) and from the fake ARM's type registry; never from the exporter.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import stat
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import arm_type
from azure_gpu_stacks.engine.arm.template import Template, export, literal
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.fakeazure.models import resource_type

from tests.conftest import REPO
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py):
    export-arm to stdout and to a file export one plan."""
    with plans_shared() as plans:
        yield plans


STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (REPO / "stacks").glob("Pulumi.*.yaml"))
MARKER = "MARKER-7d1e-arm-do-not-write"
SECRET_PROGRAM = f"""
import pulumi
from pulumi_azure_native import compute, resources

token = pulumi.Output.secret("{MARKER}")
rg = resources.ResourceGroup("rg", location="eastus", tags={{"owner": token, "note": "[not an expression]"}})
compute.VirtualMachine("vm", resource_group_name=rg.name, location="eastus",
    hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC4as_T4_v3"),
    os_profile=compute.OSProfileArgs(admin_username="azureuser", admin_password=token, computer_name="vm"))
"""


def template_of(plans: dict[str, Any], stack: str) -> Template:
    plan = plans[stack]
    return export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity)


def entries(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every resource entry, the nested deployments' inner ones included (the deployments themselves not)."""
    out = []
    for entry in document["resources"]:
        if entry["type"] == "Microsoft.Resources/deployments":
            out += entries(entry["properties"]["template"])
        else:
            out.append(entry)
    return out


def sdk_api_version(token: str) -> str:
    """The version pulumi-azure-native's class says it uses (`Uses Azure REST API version X`)."""
    _, module, name = token.split(":")
    cls = getattr(importlib.import_module(f"pulumi_azure_native.{module}"), name)
    found = re.search(r"Uses Azure REST API version (\S+?)\.", inspect.getsource(cls))
    assert found, token
    return found.group(1)


@pytest.mark.parametrize("stack", STACKS)
def test_every_azure_resource_of_the_plan_is_in_the_template_with_its_type_and_api_version(
    shipped_plans: dict[str, Any], stack: str
) -> None:
    plan = shipped_plans[stack]
    azure = [r for r in plan.resources if r.custom and r.type.startswith("azure-native:")]
    inside = entries(template_of(shipped_plans, stack).document)

    assert sorted(e["type"] for e in inside) == sorted(resource_type(r.type).arm_type for r in azure)
    versions = {resource_type(r.type).arm_type: sdk_api_version(r.type) for r in azure}
    assert {e["type"]: e["apiVersion"] for e in inside} == versions


@pytest.mark.parametrize("stack", STACKS)
def test_envelope_at_the_top_and_the_rest_under_properties(shipped_plans: dict[str, Any], stack: str) -> None:
    """Where each input lands, by the spec's own data (catalog/arm/mapping.json: the envelope and the
    renames of each type), never by the exporter."""
    plan = shipped_plans[stack]
    inside = entries(template_of(shipped_plans, stack).document)
    for record in (r for r in plan.resources if r.custom and r.type.startswith("azure-native:")):
        rtype = resource_type(record.type)
        spec = arm_type(record.type)
        assert spec is not None, record.type
        entry = next(
            e for e in inside if e["type"] == rtype.arm_type and e["name"].split("/")[-1].startswith(_name(record))
        )
        renamed = spec.body.get("renamed", {})
        lifted = spec.body.get("lifted")  # None: azure-native keeps `properties` as an input of its own
        for key, value in record.plain_inputs().items():
            if key in spec.path_inputs:
                continue
            wire = renamed.get(key, key)
            if lifted is not None and wire in lifted:
                assert wire in entry["properties"], (record.name, wire)
            else:
                assert wire in entry, (record.name, wire)
                if key in ("location", "tags") and isinstance(value, (str, dict)):
                    assert entry[wire] == value


def _name(record: Any) -> str:
    own = record.plain_inputs().get(resource_type(record.type).name_input)
    return str(own) if own else record.name


def test_a_child_depends_on_its_parent_and_a_scale_set_on_the_subnet_it_names(shipped_plans: dict[str, Any]) -> None:
    inside = entries(template_of(shipped_plans, "training-a100").document)
    subnet = next(e for e in inside if e["type"] == "Microsoft.Network/virtualNetworks/subnets")
    network_name = subnet["name"].split("/")[0]
    scale_set = next(e for e in inside if e["type"] == "Microsoft.Compute/virtualMachineScaleSets")

    assert any("virtualNetworks'" in d and network_name in d for d in subnet["dependsOn"])
    assert any("virtualNetworks/subnets'" in d for d in scale_set["dependsOn"])


def test_the_template_creates_the_resource_group_and_deploys_into_it(shipped_plans: dict[str, Any]) -> None:
    document = template_of(shipped_plans, "inference-t4").document
    group = next(r for r in shipped_plans["inference-t4"].resources if r.type == "azure-native:resources:ResourceGroup")
    name = group.plain_inputs()["resourceGroupName"]
    deployments = [e for e in document["resources"] if e["type"] == "Microsoft.Resources/deployments"]

    assert document["$schema"].endswith("subscriptionDeploymentTemplate.json#")
    assert {"type": "Microsoft.Resources/resourceGroups", "name": name}.items() <= document["resources"][0].items()
    assert [d["resourceGroup"] for d in deployments] == [name]
    assert any(name in d for d in deployments[0]["dependsOn"])


def test_no_id_of_the_fake_subscription_is_left_as_a_literal(shipped_plans: dict[str, Any]) -> None:
    from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID

    for stack in STACKS:
        text = json.dumps(template_of(shipped_plans, stack).document)
        literals = [s for s in re.findall(r'"([^"]*)"', text) if FAKE_SUBSCRIPTION_ID in s]
        assert all(s.startswith("[format(") for s in literals), literals


def test_non_azure_resources_are_listed_outside_the_template(shipped_plans: dict[str, Any]) -> None:
    plan = shipped_plans["aks-gpu"]
    kubernetes = sorted(r.urn for r in plan.resources if r.custom and r.type.startswith("kubernetes:"))
    outside = template_of(shipped_plans, "aks-gpu").document["metadata"]["outsideTemplate"]

    assert kubernetes and sorted(o["urn"] for o in outside) == kubernetes


def test_a_literal_starting_with_a_bracket_is_escaped() -> None:
    assert literal("[not an expression]") == "[[not an expression]"
    assert literal("plain") == "plain"


@pytest.fixture
def secretive(tmp_path: Path) -> Path:
    root = tmp_path / "secretive"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: secretive\nruntime: python\n")
    (root / "__main__.py").write_text(textwrap.dedent(SECRET_PROGRAM))
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    return root


def test_secrets_become_secure_string_parameters_whose_values_are_never_written(
    secretive: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "template.json"
    code = main(["export-arm", "dev", "--project", str(secretive), "-o", str(target)])
    out, err = capsys.readouterr()
    text = target.read_text()
    document = json.loads(text)
    nested = next(e for e in document["resources"] if e["type"] == "Microsoft.Resources/deployments")
    vm = next(e for e in entries(document) if e["type"] == "Microsoft.Compute/virtualMachines")
    # Pulumi marks the whole top-level input secret (osProfile), so the whole of it is the parameter
    profile = vm["properties"]["osProfile"]
    parameter = re.fullmatch(r"\[parameters\('(\w+)'\)\]", profile)

    assert code == 0 and out == "" and MARKER not in text + err
    assert parameter and document["parameters"][parameter[1]] == {"type": "secureObject"}
    assert nested["properties"]["parameters"][parameter[1]] == {"value": profile}
    assert document["resources"][0]["tags"] == "[parameters('rg_tags')]"
    assert document["parameters"]["rg_tags"] == {"type": "secureObject"}


def test_the_file_is_what_stdout_gets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "t.json"
    assert main(["export-arm", "inference-t4", "-o", str(target)]) == 0
    capsys.readouterr()
    assert main(["export-arm", "inference-t4"]) == 0

    assert json.loads(capsys.readouterr().out) == json.loads(target.read_text())


def test_an_output_that_is_a_directory_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["export-arm", "inference-t4", "-o", str(tmp_path)])
    out, err = capsys.readouterr()

    assert code == 2 and out == "" and list(tmp_path.iterdir()) == []
    assert err.count("\n") == 1 and str(tmp_path) in err and "allowed:" in err


def test_an_output_that_is_a_fifo_or_a_device_is_refused_and_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    device = tmp_path / "null.json"
    device.symlink_to("/dev/null")

    for target in (fifo, device):
        code = main(["export-arm", "inference-t4", "-o", str(target)])
        out, err = capsys.readouterr()

        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert str(target) in err and "not a regular file" in err and "allowed:" in err
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and device.is_symlink() and os.readlink(device) == "/dev/null"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null.json", "pipe.json"]


@pytest.mark.parametrize("stack", STACKS)
def test_the_template_is_the_same_whatever_order_the_program_registered_in(
    shipped_plans: dict[str, Any], stack: str
) -> None:
    # a program's registrations interleave differently from run to run; a reviewer diffs templates
    plan = shipped_plans[stack]
    registered = export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity).document
    reversed_registration = export(
        list(reversed(plan.resources)), project=plan.project, stack=plan.stack, identity=plan.identity
    ).document

    assert json.dumps(reversed_registration) == json.dumps(registered)
