"""Look-ups of existing Azure resources (`get_*`, `get_*_output`, `<Resource>.get`) answered from
`--existing` files in the JSON shape the Azure CLI prints, and known to the fake ARM afterwards."""

from __future__ import annotations

import contextlib
import io
import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

SUB = "3f2c8a41-6b7d-4e15-9c0a-2d5e7f1b9a64"
RG = f"/subscriptions/{SUB}/resourceGroups/rg-shared"
# As `az resource show --ids ID -o json` prints each (properties nested), or the type's own `show`.
EXISTING = [
    {
        "id": RG,
        "location": "eastus",
        "name": "rg-shared",
        "properties": {"provisioningState": "Succeeded"},
        "type": "Microsoft.Resources/resourceGroups",
    },
    {
        "id": f"{RG}/providers/Microsoft.Network/virtualNetworks/hub",
        "location": "eastus",
        "name": "hub",
        "type": "Microsoft.Network/virtualNetworks",
        "properties": {
            "addressSpace": {"addressPrefixes": ["10.9.0.0/16"]},
            "subnets": [
                {
                    "id": f"{RG}/providers/Microsoft.Network/virtualNetworks/hub/subnets/gpu",
                    "name": "gpu",
                    "properties": {"addressPrefix": "10.9.1.0/24"},
                }
            ],
        },
    },
    {
        "id": f"{RG}/providers/Microsoft.KeyVault/vaults/kv-shared",
        "location": "eastus",
        "name": "kv-shared",
        "type": "Microsoft.KeyVault/vaults",
        "properties": {"tenantId": "t", "vaultUri": "https://kv-shared.vault.azure.net/"},
    },
    {
        "id": f"{RG}/providers/Microsoft.OperationalInsights/workspaces/logs",
        "location": "eastus",
        "name": "logs",
        "type": "Microsoft.OperationalInsights/workspaces",
        "properties": {"customerId": "c0ffee", "retentionInDays": 30},
    },
    {
        "id": f"{RG}/providers/Microsoft.MachineLearningServices/workspaces/mlw",
        "location": "eastus",
        "name": "mlw",
        "type": "Microsoft.MachineLearningServices/workspaces",
        "properties": {"friendlyName": "ML"},
    },
    {
        "id": f"{RG}/providers/Microsoft.ContainerService/managedClusters/aks",
        "location": "eastus",
        "name": "aks",
        "type": "Microsoft.ContainerService/managedClusters",
        "kubernetesVersion": "1.33",
        "agentPoolProfiles": [],
    },
    {
        "id": f"{RG}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/deployer",
        "location": "eastus",
        "name": "deployer",
        "type": "Microsoft.ManagedIdentity/userAssignedIdentities",
        "clientId": "c1",
        "principalId": "p1",
    },
]

# module, function, its arguments, the output read and what it must be
LOOKUPS = [
    ("resources", "get_resource_group", "resource_group_name='rg-shared'", "location", "eastus"),
    (
        "network",
        "get_virtual_network",
        "resource_group_name='rg-shared', virtual_network_name='hub'",
        "address_space.address_prefixes",
        ["10.9.0.0/16"],
    ),
    (
        "network",
        "get_subnet",
        "resource_group_name='rg-shared', virtual_network_name='hub', subnet_name='gpu'",
        "address_prefix",
        "10.9.1.0/24",
    ),
    (
        "keyvault",
        "get_vault",
        "resource_group_name='rg-shared', vault_name='kv-shared'",
        "properties.vault_uri",
        "https://kv-shared.vault.azure.net/",
    ),
    (
        "operationalinsights",
        "get_workspace",
        "resource_group_name='rg-shared', workspace_name='logs'",
        "customer_id",
        "c0ffee",
    ),
    (
        "machinelearningservices",
        "get_workspace",
        "resource_group_name='rg-shared', workspace_name='mlw'",
        "friendly_name",
        "ML",
    ),
    (
        "containerservice",
        "get_managed_cluster",
        "resource_group_name='rg-shared', resource_name='aks'",
        "kubernetes_version",
        "1.33",
    ),
    (
        "managedidentity",
        "get_user_assigned_identity",
        "resource_group_name='rg-shared', resource_name='deployer'",
        "client_id",
        "c1",
    ),
]


def project(root: Path, program: str) -> Path:
    root.mkdir(parents=True)
    (root / "Pulumi.yaml").write_text("name: joins\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: eastus\n")
    (root / "__main__.py").write_text(textwrap.dedent(program))
    return root


def existing_file(tmp_path: Path) -> Path:
    path = tmp_path / "existing.json"
    path.write_text(json.dumps(EXISTING))
    return path


FORMS = ("plain", "output")


def look_up(index: int, module: str, function: str, args: str, attribute: str, form: str) -> str:
    """The program's lines that call one look-up in one form and export its id and value under the case's keys."""
    call = f"{module}.{function}({args})" if form == "plain" else f"{module}.{function}_output({args})"
    getter = "".join(f".{part}" for part in attribute.split("."))
    value = f"found{getter}" if form == "plain" else f"found.apply(lambda r: r{getter})"
    return (
        f"from pulumi_azure_native import {module}\n"
        f"found = {call}\n"
        f'pulumi.export("id-{form}-{index}", found.id)\n'
        f'pulumi.export("value-{form}-{index}", {value})\n'
    )


@pytest.fixture(scope="module")
def looked_up(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One program that makes every look-up of LOOKUPS in both forms, planned once with the --existing file: each
    look-up is answered on its own, so that they share a program does not change what one of them gets."""
    tmp_path = tmp_path_factory.mktemp("look-ups")
    program = "import pulumi\n" + "".join(
        look_up(index, module, function, args, attribute, form)
        for index, (module, function, args, attribute, _) in enumerate(LOOKUPS)
        for form in FORMS
    )
    root = project(tmp_path / "p", program)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["plan", "dev", "--project", str(root), "--json", "--existing", str(existing_file(tmp_path))])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())["outputs"]


@pytest.mark.parametrize(
    ("module", "function", "args", "attribute", "expected"), LOOKUPS, ids=[f"{m}.{f}" for m, f, *_ in LOOKUPS]
)
@pytest.mark.parametrize("form", FORMS)
def test_each_look_up_answers_from_the_existing_file(
    looked_up: dict,
    module: str,
    function: str,
    args: str,
    attribute: str,
    expected: object,
    form: str,
) -> None:
    index = LOOKUPS.index((module, function, args, attribute, expected))

    assert looked_up[f"value-{form}-{index}"] == expected
    assert looked_up[f"id-{form}-{index}"].startswith(f"/subscriptions/{SUB}/")


@pytest.mark.parametrize(
    ("module", "function", "args", "attribute", "expected"), LOOKUPS, ids=[f"{m}.{f}" for m, f, *_ in LOOKUPS]
)
def test_each_unknown_look_up_is_exit_2_naming_function_id_and_fix(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    module: str,
    function: str,
    args: str,
    attribute: str,
    expected: object,
) -> None:
    root = project(
        tmp_path / "p",
        f"""
        from pulumi_azure_native import {module}
        {module}.{function}({args.replace("'rg-shared'", "'rg-other'")})
    """,
    )

    assert main(["plan", "dev", "--project", str(root), "--existing", str(existing_file(tmp_path))]) == 2
    out, err = capsys.readouterr()
    token = "".join(w if i == 0 else w[0].upper() + w[1:] for i, w in enumerate(function.split("_")))
    assert out == ""
    assert err.startswith(
        f"gpu-stacks: error: invoke of azure-native:{module}:{token} failed: ResourceNotFound: The Resource "
    )
    assert f"/subscriptions/{SUB}/resourceGroups/rg-other" in err
    assert err.endswith("-o json > FILE` and pass --existing FILE.\n")


def test_a_read_by_id_resolves_and_an_unknown_one_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hub = f"{RG}/providers/Microsoft.Network/virtualNetworks/hub"
    root = project(
        tmp_path / "p",
        f"""
        import pulumi
        from pulumi_azure_native import network
        hub = network.VirtualNetwork.get("hub", "{hub}")
        pulumi.export("space", hub.address_space)
    """,
    )
    existing = existing_file(tmp_path)

    assert main(["plan", "dev", "--project", str(root), "--json", "--existing", str(existing)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["outputs"]["space"] == {"address_prefixes": ["10.9.0.0/16"]}
    assert document["resources"] == []  # a read creates nothing

    (root / "__main__.py").write_text((root / "__main__.py").read_text().replace('/hub"', '/spoke"'))
    assert main(["plan", "dev", "--project", str(root), "--existing", str(existing)]) == 2
    assert capsys.readouterr().err == (
        f"gpu-stacks: error: azure-native:network:VirtualNetwork.get('hub', id): ResourceNotFound: The Resource "
        f"'{RG}/providers/Microsoft.Network/virtualNetworks/spoke' was not found; offline, save it with "
        f"`az resource show --ids {RG}/providers/Microsoft.Network/virtualNetworks/spoke -o json > FILE` "
        "and pass --existing FILE.\n"
    )


def test_existing_resources_are_where_the_program_deploys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A subnet added to the existing VNet is checked against its real address space.
    root = project(
        tmp_path / "p",
        """
        from pulumi_azure_native import network
        network.Subnet("spare", subnet_name="spare", resource_group_name="rg-shared", virtual_network_name="hub",
                       address_prefix="10.99.0.0/24")
    """,
    )

    assert main(["plan", "dev", "--project", str(root), "--existing", str(existing_file(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert (
        "NetcfgSubnetRangeOutsideVnet: Subnet 'spare' is not valid because its IP address range 10.99.0.0/24 "
        "is outside the IP address range of virtual network 'hub'." in out
    )


def test_a_resource_group_name_derived_from_the_stack_must_be_valid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Stack names may end in '.', resource group names may not: `rg-<stack>` for stack `dev.` is refused.
    root = project(
        tmp_path / "p",
        """
        import pulumi
        from pulumi_azure_native import resources
        resources.ResourceGroup("rg", resource_group_name=f"rg-{pulumi.get_stack()}")
    """,
    )
    (root / "Pulumi.dev..yaml").write_text("config:\n  azure-native:location: eastus\n")

    assert main(["plan", "dev.", "--project", str(root)]) == 1
    assert (
        "  - rg [azure-native:resources:ResourceGroup]: InvalidParameter: 'rg-dev.' is not a valid resource "
        "group name; allowed: 1 to 90 letters, digits, '_', '-', '.', '(' and ')', not ending in '.'."
        in capsys.readouterr().out
    )


# tests/data/hostile_existing/<case>.json -> its one line after the file name
HOSTILE_EXISTING = {
    "subnets-a-number": "subnets: 5; allowed: a list of subnet objects, as `az network vnet show` prints",
    "subnets-a-mapping": "subnets: {'id': ",
    "a-string-in-the-list": "[1]: a str; allowed: the JSON object `az resource show` prints",
}


def test_hostile_existing_corpus_is_the_table() -> None:
    corpus = REPO / "tests" / "data" / "hostile_existing"
    assert sorted(p.stem for p in corpus.iterdir()) == sorted(HOSTILE_EXISTING)


@pytest.mark.parametrize("case", sorted(HOSTILE_EXISTING))
def test_a_hostile_existing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    given = tmp_path / f"{case}.json"
    given.write_bytes((REPO / "tests" / "data" / "hostile_existing" / given.name).read_bytes())

    assert main(["plan", "inference-t4", "--existing", str(given)]) == 2
    out, err = capsys.readouterr()

    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"gpu-stacks: error: {given}: ") and HOSTILE_EXISTING[case] in err, err
