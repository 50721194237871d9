"""Real public Pulumi programs for Azure (tests/data/public/, sources in sources.json), checked as a team
would check them: without the environment their requirements make (none is committed), with the
random, tls and docker stand-ins of tests/data/provider_stand_ins for the other providers.

Each row: the program, the exit code of `gpu-stacks check`, what the output must say, and the evidence
for that verdict (why Azure and Pulumi accept or refuse it). Goal: no red (exit 1) that Azure or the
project's own policy pack would not give; a program the offline engine cannot evaluate is exit 2 with
one line saying why.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.shared_plans import corpus, share_plans

DATA = REPO / "tests" / "data"
PUBLIC = DATA / "public"
# with tests/engine/arm/test_export_arm_corpus.py, which exports the same programs' plans: one process plans each once
pytestmark = pytest.mark.xdist_group("public-programs")

# program, exit code, a fragment of stdout+stderr, the evidence
PROGRAMS = [
    (
        "azure-python",
        0,
        "OK: dev deploys as planned (2 resources)",
        "pulumi/templates' azure-python: a group and a StorageV2 Standard_LRS account, as `pulumi new azure-python` "
        "makes; nothing Azure refuses",
    ),
    (
        "provider-py-webapp",
        0,
        "OK: dev deploys as planned (3 resources, 2 not checked offline)",
        "the provider's own acceptance program (pulumi-azure-native examples/py-webapp): an S1 plan and a web app",
    ),
    (
        "provider-py-user-assigned-identity",
        0,
        "OK: dev deploys as planned (3 resources)",
        "the provider's own acceptance program: a storage account with a user-assigned identity",
    ),
    (
        "provider-py-nsg",
        0,
        "OK: dev deploys as planned (3 resources, 1 not checked offline)",
        "the provider's own acceptance program: an NSG and a SecurityRule as its own resource (priority 100, port 80)",
    ),
    (
        "provider-py-loadbalancer",
        0,
        "OK: dev deploys as planned (4 resources, 1 not checked offline)",
        "the provider's own acceptance program: a Standard load balancer whose rule names its own pool, frontend "
        "and probe by `$self/` relative ids (the provider resolves them), a Standard static IPv4 address",
    ),
    (
        "provider-py-loadbalancer-subresource",
        0,
        "OK: dev deploys as planned (4 resources, 2 not checked offline)",
        "the provider's own acceptance program: a load balancer and its backend pool as a separate resource",
    ),
    (
        "provider-py-simple",
        0,
        "OK: dev deploys as planned (2 resources)",
        "the provider's own acceptance program: a StorageV2 account and a list_storage_account_keys callback on "
        "its name, which a preview does not run (the account does not exist yet)",
    ),
    (
        "azure-py-containerapps",
        0,
        "OK: dev deploys as planned (6 resources, 3 not checked offline)",
        "a Log Analytics workspace (PerGB2018, 30 days), a Basic registry with its admin user, a Container Apps "
        "environment and app; the shared-key and registry-credential functions are called on names Azure has "
        "not given yet, so a preview leaves them unknown; the image is pulumi-docker's (the stand-in), not Azure's",
    ),
    (
        "azure-py-aci",
        0,
        "OK: dev deploys as planned (2 resources, 1 not checked offline)",
        "a public container group; its ip_address.ip callback reads an output Azure assigns at creation, "
        "unknown during a preview (the callback does not run)",
    ),
    (
        "azure-py-static-website",
        1,
        "Azure CDN from Microsoft (classic) no longer support new profile creation.",
        "Azure refuses its Standard_Microsoft CDN profile since 2025-08-15 (Learn, cdn-manage-powershell), with "
        "BadRequest in those words (Azure/wordpress-linux-appservice#206, a deployment of 2025-08-18); "
        "primary_endpoints.web is Azure's (StorageAccount response, spec example StorageAccountGetProperties): "
        "unknown during a preview, so the callback building the CDN origin does not run and nothing else is "
        "refused",
    ),
    (
        "azure-py-synapse",
        0,
        "OK: dev deploys as planned",
        "the workspace's system-assigned identity.principalId is Azure's: unknown during a preview, so the "
        "program's own `v or '<preview>'` callback does not run and the role assignment is not refused for it",
    ),
    (
        "azure-py-webserver",
        1,
        "FAILED: dev: 1 mandatory policy violation.\n  - [mandatory] disallow-linux-password-login",
        "Azure accepts it (Standard_A1_v2 is an Av2 size, not retired; the password is a secure: value, unknown "
        "offline, so not judged); the project's mandatory policy refuses password logins "
        "(disablePasswordAuthentication False); the get_public_ip_address callback on vm.id does not fail the run",
    ),
    (
        "azure-py-aks-managed-identity",
        1,
        "AgentPoolK8sVersionNotSupported",
        "kubernetes_version 1.26.3 is out of AKS support (Learn: Supported Kubernetes versions in AKS, the "
        "catalog's list); the admin-credentials invoke depends on the cluster pending creation, so it is not "
        "made (its result unknown), as the engine gates it during a preview",
    ),
    (
        "azure-py-appservice",
        2,
        "pulumi_azure_native.insights is a module of pulumi-azure-native 2.x",
        "written for azure-native 2.x (requirements.txt pins <3.0.0); 3.x has applicationinsights and monitor",
    ),
    (
        "azure-py-cosmosdb-logicapp",
        2,
        "pulumi_azure_native.documentdb is a module of pulumi-azure-native 2.x",
        "written for azure-native 2.x (requirements.txt pins <3.0.0); 3.x calls the module cosmosdb",
    ),
    (
        "azure-py-loadbalancer-vm",
        2,
        "IpAllocationMethod is not in pulumi_azure_native.network",
        "written for azure-native 2.x (requirements.txt pins <3.0.0); 3.x spells the enum IPAllocationMethod",
    ),
    (
        "azure-py-call-azure-sdk",
        2,
        "No module named 'azure.mgmt.authorization'",
        "the program calls Azure's own SDK (azure-mgmt-authorization), which only its environment has; nothing "
        "offline can answer it",
    ),
    (
        "azure-py-appservice-docker",
        0,
        "OK: dev deploys as planned (6 resources, 4 not checked offline)",
        "a B1 Linux plan, a web app from Docker Hub and one from a Basic registry with its admin user; the "
        "registry's credentials (list_registry_credentials_output on a registry pending creation) are unknown "
        "during a preview, so the image's registry and the app settings holding them are unknown, and nothing "
        "Azure refuses; written for azure-native 2.x (<3.0.0) with only names 3.x keeps",
    ),
    (
        "serverless-azure-python",
        0,
        "OK: dev deploys as planned (9 resources, 6 not checked offline)",
        "pulumi/templates' serverless program: a StorageV2 account as a static website (a data-plane setting), a "
        "private container and blobs (data-plane writes), a Y1 Dynamic Linux plan and a function app; the "
        "service SAS is listed in a callback on names Azure has not given yet, unknown during a preview; "
        "FUNCTIONS_EXTENSION_VERSION ~3 is past extended support (Learn: functions-versions, 2022-12-13), a "
        "support statement and not a create-time refusal",
    ),
    (
        "static-website-azure-python",
        1,
        "Azure CDN from Microsoft (classic) no longer support new profile creation.",
        "pulumi/templates' static website: the same Standard_Microsoft CDN profile as azure-py-static-website, "
        "which Azure refuses since 2025-08-15 (Learn, cdn-manage-powershell; BadRequest in those words, "
        "Azure/wordpress-linux-appservice#206); the synced folder writes blobs through the account's endpoint",
    ),
    (
        "vm-azure-python",
        2,
        "IpAllocationMethod is not in pulumi_azure_native.network",
        "requirements.txt asks for azure-native >=3.0.0, whose network module defines IPAllocationMethod only "
        "(3.29.0's network/_enums.py): `pulumi preview` raises the same AttributeError on line 55",
    ),
    (
        "azure-py-functions",
        2,
        "the program exported 'storageaccountkeys': a ListStorageAccountKeysResult",
        "the program exports a function's result object: Pulumi's SDK cannot send it either "
        "(sdk/python/lib/pulumi/runtime/rpc.py serialize_property: 'unexpected input of type "
        "ListStorageAccountKeysResult'), so `pulumi up` fails on it once the keys are known",
    ),
    (
        "azure-py-aks",
        1,
        "AgentPoolK8sVersionNotSupported",
        "kubernetes_version 1.26.3 is out of AKS support (Learn: Supported Kubernetes versions in AKS); with its "
        "own environment (pulumi-azuread 6.9, whose Application has client_id and no application_id) `pulumi "
        "preview` stops earlier, on line 18; the stand-in takes azuread 5.x's names as well",
    ),
    (
        "azure-py-aks-helm",
        2,
        "ServicePrincipalPassword: unexpected arguments ['value']",
        "azuread 6.9.0's ServicePrincipalPassword takes no `value` (Azure generates the password: "
        "pulumi_azuread/service_principal_password.py) and its Application has no application_id, so the program "
        "stops in its own environment too",
    ),
    (
        "azure-py-aks-multicluster",
        2,
        "ServicePrincipalPassword: unexpected arguments ['value']",
        "the same azuread 5.x calls as azure-py-aks-helm under a requirements.txt that pins azuread 6.9",
    ),
    (
        "azure-py-minecraft-server",
        1,
        "The requested VM size 'Standard_A3' (hardwareProfile.vmSize) is retired since 2024-08-31",
        "Standard_A3 is an A-series v1 size, retired 2024-08-31 (Learn: retired sizes); the public IP's address is "
        "read through get_public_ip_address_output in a callback on the VM's id, unknown during a preview; the "
        "remote commands are pulumi-command's (the stand-in), not Azure's",
    ),
    (
        "azure-py-virtual-data-center",
        2,
        "the program raised AttributeError: module 'config' has no attribute 'location' (at __main__.py:8)",
        "the program's own config.py lost `location` in the azure-native conversion (pulumi/examples commit "
        "2e9e18b36, 2021-03-02) while __main__.py still reads it: `pulumi preview` raises the same error",
    ),
    (
        "container-azure-python",
        2,
        "the program raised TypeError: Missing required property 'push' (at __main__.py:40)",
        "pulumi-docker-build's Image requires `push` (0.0.22, pulumi_docker_build/image.py raises this TypeError); "
        "the template leaves it out, so `pulumi preview` fails on the same line",
    ),
    (
        "kubernetes-azure-python",
        1,
        "AgentPoolK8sVersionNotSupported",
        "the template's default kubernetesVersion 1.33 left AKS standard support in 2026-07 (Learn: Supported "
        "Kubernetes versions in AKS; only Premium-tier LTS keeps it); nothing else refused",
    ),
    (
        "azure-native-storage-account-blob-python",
        0,
        "OK: dev deploys as planned (4 resources, 2 not checked offline)",
        "Pulumi's docs: a StorageV2 account, a container and a Hot block blob; the blob's `type` input (Block) is "
        "the program's, never replaced by an ARM type",
    ),
    (
        "azure-native-import-resource-group-python",
        2,
        "offline, save it with `az resource show --ids",
        "Pulumi's docs: imports an existing resource group (ResourceOptions.import_); what it holds is only in "
        "the subscription, so offline it must be saved with az and passed with --existing",
    ),
    (
        "azure-providers-python",
        0,
        "OK: dev deploys as planned (3 resources, 2 not checked offline)",
        "Pulumi's docs: a resource group beside an Entra ID application and service principal (azuread 6.x's "
        "client_id), which are not Azure Resource Manager's",
    ),
    (
        "azure-native-static-website-python",
        0,
        "OK: dev deploys as planned (4 resources, 1 not checked offline)",
        "Pulumi's docs: a StorageV2 account, its static website (a data-plane setting) and a synced folder; "
        "primary_endpoints.web is Azure's answer, unknown during a preview",
    ),
    (
        "pulumi-azure-linux-vm",
        1,
        "IPv4BasicSkuPublicIpCountLimitReached",
        "its public IP asks for the Basic SKU, which Azure retired on 2025-09-30 and no longer creates (Learn: "
        "public-ip-basic-upgrade-guidance; the code in public deployment logs); the SSH rule from the Internet "
        "is the project's mandatory policy, Standard_B2s an advisory",
    ),
]


@pytest.fixture
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-ins on the path, and each program's plan kept in tests/shared_plans.py's corpus "public" (the
    export test plans with the same stand-ins, the only other planner of these programs)."""
    monkeypatch.syspath_prepend(str(DATA / "provider_stand_ins"))
    share_plans(monkeypatch, corpus("public"))


def test_every_public_program_is_in_the_table_with_its_source() -> None:
    sources = json.loads((PUBLIC / "sources.json").read_text())["programs"]
    on_disk = sorted(p.name for p in PUBLIC.iterdir() if p.is_dir())

    assert on_disk == sorted(row[0] for row in PROGRAMS) == sorted(sources)
    for name, source in sources.items():
        assert {"repository", "path", "commit", "license"} <= set(source), name
        assert len(source["commit"]) == 40, name


@pytest.mark.parametrize(("program", "code", "said", "evidence"), PROGRAMS, ids=[row[0] for row in PROGRAMS])
def test_public_program_gets_the_verdict_azure_and_pulumi_give(
    stand_ins: None,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    program: str,
    code: int,
    said: str,
    evidence: str,
) -> None:
    # one plan for both reports: the text verdict on stdout and the same verdict in JSON, every input shown (a
    # blob's FileAsset `source` once broke the document)
    document = tmp_path / "check.json"
    got = main(["check", "dev", "--project", str(PUBLIC / program), "--format", "text", "--format", f"json={document}"])
    out, err = capsys.readouterr()

    assert (got, said in out + err) == (code, True), f"{evidence}\n{out}{err}"
    assert "Traceback" not in out + err
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err  # one line
        assert not document.exists()  # nothing written
        return
    report = json.loads(document.read_text(encoding="utf-8"))
    assert report["exitCode"] == code
    assert [s["stack"] for s in report["stacks"]] == ["dev"]
