"""Run every PUT example of Azure's REST spec, for each type the fake ARM models, through the fake as a
Pulumi program, and write the verdicts to docs/azure-conformance.md.

    python scripts/conformance.py            # rewrite docs/azure-conformance.md
    python scripts/conformance.py --check    # exit 1 when the page is not what a run gives

The examples are the saved ones (tests/data/azure-specs/*/examples.json: autorest.bicep's samples of
the x-ms-examples of Azure/azure-rest-api-specs at the API version pulumi-azure-native uses). Each is
turned into azure-native inputs (`catalog.arm.bodies.from_arm_body`), given a resource group, a name
and, for child types, a parent made first, and registered with Pulumi's mock runtime against a fresh
fake subscription. An example the fake refuses must be listed in `STALE` with why it is stale and
what Azure answers; tests/fakeazure/test_spec_conformance.py holds the fake to that.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from azure_gpu_stacks.catalog.arm.bodies import arm_type, from_arm_body, tokens  # noqa: E402
from azure_gpu_stacks.engine.run.runtime import run_program  # noqa: E402
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID, FakeArm  # noqa: E402
from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES  # noqa: E402

from scripts import rule_table  # noqa: E402

SAVED = REPO / "tests" / "data" / "azure-specs"
DOC = REPO / "docs" / "azure-conformance.md"
RG = "rg-conformance"
GPU = "Standard_NC4as_T4_v3"
OTHER_SUBNET = (
    "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/net/providers/"
    "Microsoft.Network/virtualNetworks/hub/subnets/default"
)


@dataclass(frozen=True)
class Example:
    token: str
    title: str
    body: dict[str, Any]


@dataclass(frozen=True)
class Verdict:
    example: Example
    code: str  # "" when accepted
    message: str


def examples() -> list[Example]:
    by_type = {arm_type(t).arm_type.lower(): t for t in tokens()}  # type: ignore[union-attr]
    found = []
    for path in sorted(SAVED.rglob("examples.json")):
        for example in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            found.append(Example(by_type[example["type"].lower()], example["title"], example["body"]))
    return found


# The parents a child type's examples need, made first (each valid on its own): (token, logical name, inputs).
PARENTS: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "azure-native:network:Subnet": [
        (
            "azure-native:network:VirtualNetwork",
            "vnet",
            {"virtualNetworkName": "vnet", "addressSpace": {"addressPrefixes": ["10.0.0.0/8", "172.16.0.0/12"]}},
        )
    ],
    "azure-native:compute:VirtualMachineExtension": [
        (
            "azure-native:compute:VirtualMachine",
            "vm",
            {
                "vmName": "vm",
                "hardwareProfile": {"vmSize": GPU},
                "storageProfile": {
                    "imageReference": {
                        "publisher": "Canonical",
                        "offer": "ubuntu-24_04-lts",
                        "sku": "server",
                        "version": "latest",
                    },
                    "osDisk": {"createOption": "FromImage"},
                },
                "osProfile": {
                    "computerName": "vm",
                    "adminUsername": "azureuser",
                    "linuxConfiguration": {
                        "disablePasswordAuthentication": True,
                        "ssh": {
                            "publicKeys": [{"path": "/home/azureuser/.ssh/authorized_keys", "keyData": "ssh-rsa AAAA"}]
                        },
                    },
                },
                "networkProfile": {"networkInterfaces": [{"id": OTHER_SUBNET.replace("/subnets/default", "") + "nic"}]},
            },
        )
    ],
    "azure-native:containerservice:AgentPool": [
        (
            "azure-native:containerservice:ManagedCluster",
            "aks",
            {
                "resourceName": "aks",
                "dnsPrefix": "aks",
                "agentPoolProfiles": [{"name": "system", "mode": "System", "count": 1, "vmSize": GPU}],
            },
        )
    ],
    "azure-native:keyvault:Secret": [
        (
            "azure-native:keyvault:Vault",
            "kv",
            {
                "vaultName": "kv-conformance",
                "properties": {"tenantId": FAKE_TENANT_ID, "sku": {"family": "A", "name": "standard"}},
            },
        )
    ],
}
_WORKSPACE_DEPENDENCIES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "azure-native:storage:StorageAccount",
        "st",
        {"accountName": "stconformance", "kind": "StorageV2", "sku": {"name": "Standard_LRS"}},
    ),
    PARENTS["azure-native:keyvault:Secret"][0],
    (
        "azure-native:applicationinsights:Component",
        "appi",
        {"resourceName": "appi", "kind": "web", "applicationType": "web"},
    ),
]
_GROUP = f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{RG}/providers"
PARENTS["azure-native:machinelearningservices:Compute"] = [
    *_WORKSPACE_DEPENDENCIES,
    (
        "azure-native:machinelearningservices:Workspace",
        "ws",
        {
            "workspaceName": "ws-conformance",
            "identity": {"type": "SystemAssigned"},
            "storageAccount": f"{_GROUP}/Microsoft.Storage/storageAccounts/stconformance",
            "keyVault": f"{_GROUP}/Microsoft.KeyVault/vaults/kv-conformance",
            "applicationInsights": f"{_GROUP}/Microsoft.Insights/components/appi",
        },
    ),
]
PARENTS["azure-native:machinelearningservices:Workspace"] = list(_WORKSPACE_DEPENDENCIES)
PARENTS["azure-native:batch:Pool"] = [("azure-native:batch:BatchAccount", "batch", {"accountName": "batchconformance"})]
# what each parent's name input is, for the child's path inputs
_PARENT_NAMES = {
    "virtualNetworkName": "vnet",
    "vmName": "vm",
    "resourceName": "aks",
    "vaultName": "kv-conformance",
    "workspaceName": "ws-conformance",
    "accountName": "batchconformance",
}


def _inputs(example: Example, index: int) -> dict[str, Any]:
    rtype = RESOURCE_TYPES[example.token]
    inputs = from_arm_body(example.token, example.body)
    # Short, so that every type's name rules take it (a Windows AKS pool's name is at most 6 characters,
    # a registry's at least 5)
    inputs[rtype.name_input] = f"ex{index:03d}"
    for parent in rtype.parent_inputs:
        inputs[parent] = _PARENT_NAMES[parent]
    if rtype.scoped:
        inputs[rtype.scope_input] = f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{RG}"
    elif example.token != "azure-native:resources:ResourceGroup":
        inputs["resourceGroupName"] = RG
    return inputs


def run_type(token: str, batch: list[Example]) -> list[Verdict]:
    """One program per type: the resource group, the parents, then every example of the type."""
    import pulumi
    from pulumi_azure_native import resources

    def program() -> None:
        rg = resources.ResourceGroup("rg", resource_group_name=RG, location="eastus")
        made: list[pulumi.Resource] = [rg]
        for parent_token, name, props in PARENTS.get(token, []):
            made.append(
                pulumi.CustomResource(
                    parent_token,
                    name,
                    {"resourceGroupName": RG, "location": "eastus", **props},
                    pulumi.ResourceOptions(depends_on=list(made)),
                )
            )
        for index, example in enumerate(batch):
            pulumi.CustomResource(
                token, f"ex{index}", _inputs(example, index), pulumi.ResourceOptions(depends_on=list(made))
            )

    arm = FakeArm(default_location="eastus")
    run_program(program, project="conformance", stack="spec", config={}, secret_keys=[], arm=arm)
    parents = [r for r in arm.refusals if not r.resource.startswith("ex")]
    if parents:
        raise SystemExit(f"{token}: a parent was refused: {parents}")
    refused = {r.resource: r for r in arm.refusals}
    verdicts = []
    for index, example in enumerate(batch):
        refusal = refused.get(f"ex{index}")
        verdicts.append(Verdict(example, refusal.code if refusal else "", refusal.message if refusal else ""))
    return verdicts


def run_all() -> list[Verdict]:
    by_token: dict[str, list[Example]] = defaultdict(list)
    for example in examples():
        by_token[example.token].append(example)
    return [v for token in sorted(by_token) for v in run_type(token, by_token[token])]


@dataclass(frozen=True)
class Stale:
    """Why an example of the spec is not a body Azure accepts today, and what Azure answers."""

    reason: str
    azure: str  # Azure's verdict, with its source
    code: str  # the code the fake must answer
    applies: Callable[[Example, Verdict], bool]
    stale: bool = True  # False: Azure accepts the example; the fake refuses it until a rule is fixed


def _location(example: Example) -> str:
    return str(example.body.get("location", "")).lower()


STALE: tuple[Stale, ...] = (
    Stale(
        "placeholder region (`location1`)",
        "LocationNotAvailableForResourceType: no such region (`az account list-locations`)",
        "LocationNotAvailableForResourceType",
        lambda e, v: _location(e) == "location1",
    ),
    Stale(
        "canary region `eastus2euap`",
        "accepted only for subscriptions enrolled in Azure's early-access (EUAP) program; not verified here",
        "LocationNotAvailableForResourceType",
        lambda e, v: _location(e) == "eastus2euap",
    ),
    Stale(
        "retired VM size",
        "SkuNotAvailable (the size's retirement date and source: catalog/vm_sizes.yaml)",
        "SkuNotAvailable",
        lambda e, v: "is retired since" in v.message,
    ),
    Stale(
        "Kubernetes version AKS no longer offers",
        "AgentPoolK8sVersionNotSupported (the dated version list: catalog limits)",
        "AgentPoolK8sVersionNotSupported",
        lambda e, v: v.code == "AgentPoolK8sVersionNotSupported",
    ),
    Stale(
        "scale set `sku.name: Mix` (instance mix with `skuProfile`) read as a VM size",
        "accepted (https://learn.microsoft.com/azure/virtual-machine-scale-sets/instance-mix-overview, "
        "observed 2026-11-25)",
        "InvalidParameter",
        lambda e, v: "'Mix' provided for the VM size" in v.message,
        stale=False,
    ),
    Stale(
        "an autoscaling pool whose count is outside minCount..maxCount (`count: 3`, min and max 2; an update example)",
        "not verified; the fake's rule (AKS's bounds: catalog limits)",
        "InvalidParameter",
        lambda e, v: "is outside minCount..maxCount" in v.message,
    ),
    Stale(
        "a budget whose past start is outside its time grain (the example starts in 2017)",
        "refused: 'Past start date should be selected within the timegrain period' (BudgetTimePeriod, "
        "https://learn.microsoft.com/dotnet/api/azure.resourcemanager.consumption.consumptionbudgetdata.timeperiod; "
        "hashicorp/terraform-provider-azurerm pull request 12121, observed 2026-11-27)",
        "InvalidParameter",
        lambda e, v: "past start date should be selected within the timegrain period" in v.message,
    ),
    Stale(
        "the example contradicts its spec (`uefiSettings.secureBootEnabled: {}`; the spec's type is boolean)",
        "not verified; the fake follows the spec's type (Batch's code for a pool body: fakeazure/spec.py)",
        "InvalidPropertyValue",
        lambda e, v: e.token == "azure-native:batch:Pool" and "secureBootEnabled is invalid" in v.message,
    ),
)


# The refusals this work added or changed, with the public source each rests on ("none" is said in the
# refusal's message too). The per-type refusals of fakeazure/models cite theirs beside the code.
REFUSALS: tuple[tuple[str, str, str, str], ...] = (
    (
        "InvalidParameter",
        "every modelled type",
        "a pattern, length, bound, item count, required property or JSON type of the REST body",
        "Azure/azure-rest-api-specs via autorest.bicep (catalog/arm/constraints.json names file and commits)",
    ),
    (
        "InvalidParameter",
        "every azure-native type",
        "a value outside its enum",
        "the SDK's enums, generated from the specs (fakeazure/enums.py)",
    ),
    (
        "SkuNotAvailable",
        "ManagedCluster",
        "`sku.name: Basic`",
        "Azure/azure-rest-api-specs issue 27263 (AKS's answer quoted)",
    ),
    (
        "QuotaExceeded",
        "ManagedCluster, AgentPool",
        "nodes beyond a vCPU quota",
        "mspnp/aks-baseline issue 377; MicrosoftDocs/azure-docs issue 62378",
    ),
    (
        "InvalidParameter",
        "Budget",
        "start before 2017-06-01, start not before the end",
        "BudgetTimePeriod on Microsoft Learn (azure.resourcemanager.consumption, observed 2026-11-25)",
    ),
)


def stale_of(verdict: Verdict) -> Stale | None:
    return next((s for s in STALE if s.applies(verdict.example, verdict)), None)


def page(verdicts: list[Verdict]) -> str:
    """docs/azure-conformance.md: per type, how many of the spec's examples pass and why the rest do not."""
    lines = [
        "# Azure's own examples through the fake ARM",
        "",
        "Generated by `python scripts/conformance.py` (never edit by hand; tests/fakeazure/test_spec_conformance.py",
        "regenerates and compares). Every PUT example of Azure/azure-rest-api-specs (as autorest.bicep's samples,",
        "tests/data/azure-specs) for each type the fake models, at the API version pulumi-azure-native uses, run",
        "through the fake as a Pulumi program. An example is stale when Azure would not accept it today either.",
        "",
        "| type | API version | examples | accepted | refused, stale | refused, Azure accepts |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    by_token: dict[str, list[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        by_token[verdict.example.token].append(verdict)
    for token in sorted(set(RESOURCE_TYPES) | set(by_token)):
        found = by_token.get(token, [])
        accepted = sum(1 for v in found if not v.code)
        stale = sum(1 for v in found if v.code and (rule := stale_of(v)) is not None and rule.stale)
        version = arm_type(token).api_version  # type: ignore[union-attr]
        lines.append(
            f"| `{token}` | {version} | {len(found)} | {accepted} | {stale} | {len(found) - accepted - stale} |"
        )
    total = len(verdicts)
    accepted = sum(1 for v in verdicts if not v.code)
    lines += ["", f"In all: {total} examples, {accepted} accepted.", "", "## Why the refused ones are refused", ""]
    lines += ["| reason | stale | examples | the fake answers | Azure answers |", "| --- | --- | ---: | --- | --- |"]
    for rule in STALE:
        count = sum(1 for v in verdicts if v.code and stale_of(v) is rule)
        lines.append(f"| {rule.reason} | {'yes' if rule.stale else 'no'} | {count} | {rule.code} | {rule.azure} |")
    lines += [
        "",
        "## Refusals and their sources",
        "",
        "| code | type | refused | source |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| {code} | {kind} | {what} | {source} |" for code, kind, what, source in REFUSALS]
    lines += rule_table.section(rule_table.all_rows())
    unexplained = [v for v in verdicts if v.code and stale_of(v) is None]
    lines += ["", "## Refused for no listed reason", ""]
    lines += [f"- `{v.example.token}` {v.example.title}: {v.code}: {v.message}" for v in unexplained] or ["None."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when the page is out of date")
    args = parser.parse_args(argv)
    text = page(run_all())
    old = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    if old == text:
        print(f"{DOC.relative_to(REPO)}: up to date")
        return 0
    if args.check:
        print(f"{DOC.relative_to(REPO)}: out of date; run python scripts/conformance.py")
        return 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
