"""No component takes a secret, so none needs a Key Vault reference in its place (issue 36: "Key Vault for any
secret a component needs"). Two holds:

- every input of every registered component, nested ones included, is scanned: none is a string named as a
  credential (a password, secret, token, private key, connection string, SAS or account key). Logins are SSH
  public keys; Azure ML, AKS and Batch reach their dependencies with managed identities.
- every shipped stack's plan is scanned for the properties Azure's REST spec marks secret (`x-ms-secret`, kept as
  `secret: true` in catalog/arm/constraints.json: a VM's `osProfile.adminPassword`, an AmlCompute's
  `userAccountCredentials.adminUserPassword`, a Batch pool's `userAccounts[*].password`...) and the credential
  blocks the issue names that the spec leaves unmarked (an AKS cluster's `servicePrincipalProfile`, whose `secret`
  is "the secret password associated with the service principal in plain text", ManagedClusterServicePrincipalProfile
  in Azure/azure-rest-api-specs, observed 2026-11-27; a Batch pool's `userAccounts`; an AmlCompute's
  `userAccountCredentials`): none carries a value.

A component that starts taking a secret fails the first; one that starts sending a credential to Azure fails the
second. Either is the moment to accept a Key Vault reference instead, and a policy flagging a literal."""

from __future__ import annotations

import importlib
import json
import re
import typing
from collections.abc import Iterator
from importlib import resources
from typing import Any, NotRequired, TypedDict

import pytest
from azure_gpu_stacks.catalog.arm.bodies import to_arm_body
from azure_gpu_stacks.components.args import keys_of
from azure_gpu_stacks.components.registry import REGISTRY, args_name

# Words that make a string input a credential (the brief's list: admin passwords, AML userAccountCredentials, AKS
# service principal secrets, Batch pool credentials; and the spec's secret names: sasKey, accountKey, sshPrivateKey,
# relayConnectionString).
CREDENTIAL_NAME = re.compile(
    r"(^|_)(password|passwd|secret|credentials?|token|private_key|connection_string|sas|sas_key|account_key|cert)($|_)"
)
# Credential blocks the spec does not mark secret, by type token and ARM body path.
UNMARKED_CREDENTIALS = {
    "azure-native:containerservice:ManagedCluster": ("properties.servicePrincipalProfile",),
    "azure-native:batch:Pool": ("properties.userAccounts",),
    "azure-native:machinelearningservices:Compute": ("properties.properties.userAccountCredentials",),
}
STEP = re.compile(r"\.?([^.\[<]+)|(\[\*\])|<([^=>]+)=([^>]*)>")


def string_typed(hint: Any) -> bool:
    """str, or a pulumi.Input[str] (a Union holding str), or a sequence of them."""
    if hint is str:
        return True
    return any(string_typed(arg) for arg in typing.get_args(hint))


def inputs_of(args_type: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted name, type) of every input of a TypedDict, nested TypedDicts followed."""
    for name, hint in keys_of(args_type).items():
        yield prefix + name, hint
        for inner in (hint, *typing.get_args(hint)):
            if typing.is_typeddict(inner):
                yield from inputs_of(inner, f"{prefix}{name}.")


def credential_inputs(args_type: Any) -> list[str]:
    return [
        name
        for name, hint in inputs_of(args_type)
        if string_typed(hint) and CREDENTIAL_NAME.search(name.rsplit(".", 1)[-1])
    ]


class _SecretsTaken(TypedDict):
    vm_size: NotRequired[str]
    admin_password: NotRequired[str]
    key_vault_secrets_provider: NotRequired[bool]
    user_account: NotRequired[_UserAccount]


class _UserAccount(TypedDict):
    name: str
    ssh_private_key: str


def test_the_scan_finds_a_credential_input_at_any_depth_and_passes_a_switch_and_a_public_key() -> None:
    assert credential_inputs(_SecretsTaken) == ["admin_password", "user_account.ssh_private_key"]


@pytest.mark.parametrize(("component", "module"), REGISTRY, ids=[name for name, _ in REGISTRY])
def test_no_component_takes_a_secret(component: str, module: str) -> None:
    args_type = getattr(importlib.import_module(module), args_name(component))

    assert credential_inputs(args_type) == []


def secret_paths() -> dict[str, list[str]]:
    """Type token -> the ARM body paths the REST spec marks secret (catalog/arm/constraints.json)."""
    data = json.loads(resources.files("azure_gpu_stacks.catalog.arm").joinpath("constraints.json").read_text())
    found: dict[str, list[str]] = {}
    for token, entry in data["types"].items():
        marked = [path for path, rule in entry.get("paths", {}).items() if rule.get("secret")]
        if marked:
            found[token] = marked
    return found


def values_at(body: Any, path: str) -> list[Any]:
    """The values an ARM body holds at a constraints path (`a.b[*].c`, `properties<computeType=AmlCompute>.x`)."""
    current = [body]
    for name, each, key, value in STEP.findall(path):
        if name:
            current = [item[name] for item in current if isinstance(item, dict) and item.get(name) is not None]
        elif each:
            current = [element for item in current if isinstance(item, list) for element in item]
        else:
            current = [item for item in current if isinstance(item, dict) and item.get(key) == value]
    return current


def test_the_spec_marks_the_credentials_the_issue_names() -> None:
    paths = secret_paths()

    assert "properties.osProfile.adminPassword" in paths["azure-native:compute:VirtualMachine"]
    assert "properties.userAccounts[*].password" in paths["azure-native:batch:Pool"]
    assert (
        "properties<computeType=AmlCompute>.properties.userAccountCredentials.adminUserPassword"
        in paths["azure-native:machinelearningservices:Compute"]
    )


def test_the_path_reader_finds_a_credential_where_azure_reads_it() -> None:
    body = {
        "properties": {
            "computeType": "AmlCompute",
            "properties": {"userAccountCredentials": {"adminUserPassword": "x"}},
        }
    }

    assert values_at(
        body, "properties<computeType=AmlCompute>.properties.userAccountCredentials.adminUserPassword"
    ) == ["x"]
    assert values_at(body, "properties<computeType=Kubernetes>.properties.userAccountCredentials") == []
    assert values_at(
        {"properties": {"userAccounts": [{"password": "p"}, {}]}}, "properties.userAccounts[*].password"
    ) == ["p"]


# Where each type keeps the objects its credentials would sit in, so the scan is known to read the right place.
CREDENTIAL_PARENTS = {
    "azure-native:compute:VirtualMachine": "properties.osProfile.linuxConfiguration",
    "azure-native:compute:VirtualMachineScaleSet": "properties.virtualMachineProfile.osProfile.linuxConfiguration",
    "azure-native:containerservice:ManagedCluster": "properties.agentPoolProfiles",
    "azure-native:batch:Pool": "properties.deploymentConfiguration.virtualMachineConfiguration",
    "azure-native:machinelearningservices:Compute": "properties<computeType=AmlCompute>.properties.scaleSettings",
}


def test_no_shipped_stack_sends_a_credential_to_azure(shipped_plans: dict[str, Any]) -> None:
    marked = secret_paths()
    sent = []
    reached = set()
    for stack, plan in shipped_plans.items():
        for resource in plan.resources:
            paths = [*marked.get(resource.type, ()), *UNMARKED_CREDENTIALS.get(resource.type, ())]
            if not paths:
                continue
            body = to_arm_body(resource.type, dict(resource.inputs))
            sent += [(stack, resource.name, path) for path in paths if values_at(body, path)]
            if resource.type in CREDENTIAL_PARENTS and values_at(body, CREDENTIAL_PARENTS[resource.type]):
                reached.add(resource.type)

    assert sent == []
    # The scan read a VM, a scale set, an AKS cluster, a Batch pool and an AmlCompute where their credentials would be.
    assert reached == set(CREDENTIAL_PARENTS)
