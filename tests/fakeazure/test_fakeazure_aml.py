"""The fake ARM's Azure ML types: what ARM refuses and what it returns, driven by raw azure-native resources."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID

from tests.conftest import TEST_RG, Recording, in_resource_group

TENANT = FAKE_TENANT_ID  # a key vault names its Entra tenant by GUID (the spec's pattern)
RG_ID = f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}"
MISSING = {
    "storage_account": f"{RG_ID}/providers/Microsoft.Storage/storageAccounts/nosuchaccount",
    "key_vault": f"{RG_ID}/providers/Microsoft.KeyVault/vaults/no-such-vault",
    "application_insights": f"{RG_ID}/providers/Microsoft.Insights/components/no-such-appi",
    "container_registry": f"{RG_ID}/providers/Microsoft.ContainerRegistry/registries/nosuchregistry",
}


def dependencies(rg: Any) -> dict[str, Any]:
    """A storage account, key vault and App Insights component, each valid on its own."""
    from pulumi_azure_native import applicationinsights, keyvault, storage

    st = storage.StorageAccount(
        "st",
        account_name="stfake001",
        resource_group_name=rg.name,
        kind="StorageV2",
        sku=storage.SkuArgs(name="Standard_LRS"),
    )
    kv = keyvault.Vault(
        "kv",
        vault_name="kv-fake-001",
        resource_group_name=rg.name,
        properties=keyvault.VaultPropertiesArgs(tenant_id=TENANT, sku=keyvault.SkuArgs(family="A", name="standard")),
    )
    appi = applicationinsights.Component(
        "appi", resource_name_="appi-fake", resource_group_name=rg.name, kind="web", application_type="web"
    )
    return {"storage_account": st.id, "key_vault": kv.id, "application_insights": appi.id}


def workspace(rg: Any, name: str = "ws-fake", **refs: Any) -> Any:
    from pulumi_azure_native import machinelearningservices as ml

    return ml.Workspace(
        name,
        workspace_name=name,
        resource_group_name=rg.name,
        identity=ml.ManagedServiceIdentityArgs(type="SystemAssigned"),
        **{k: v for k, v in refs.items() if v is not None},
    )


def cluster(rg: Any, workspace_name: Any, **aml: Any) -> Any:
    from pulumi_azure_native import machinelearningservices as ml

    aml = {"vm_size": "Standard_NC4as_T4_v3", "enable_node_public_ip": True, **aml}
    scale = aml.pop("scale", {"min_node_count": 0, "max_node_count": 2})
    return ml.Compute(
        "cluster",
        compute_name=aml.pop("name", "gpu-cluster"),
        workspace_name=workspace_name,
        resource_group_name=rg.name,
        properties=ml.AmlComputeArgs(
            compute_type="AmlCompute",
            properties=ml.AmlComputePropertiesArgs(scale_settings=ml.ScaleSettingsArgs(**scale), **aml),
        ),
    )


def refusal_of(rec: Recording, resource: str) -> tuple[str, str]:
    found = [(r.code, r.message) for r in rec.refusals if r.resource == resource]
    assert len(found) == 1, rec.refusals
    return found[0]


def test_fake_workspace_accepted_with_existing_dependencies_and_realistic_outputs(
    record: Callable[..., Recording],
) -> None:
    def build(rg: Any) -> None:
        import pulumi

        ws = workspace(rg, **dependencies(rg))
        pulumi.export("workspaceId", ws.workspace_id)
        pulumi.export("discoveryUrl", ws.discovery_url)
        pulumi.export("provisioningState", ws.provisioning_state)
        pulumi.export("id", ws.id)

    rec = record(in_resource_group(build))

    assert rec.refusals == []
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", rec.outputs["workspaceId"])
    assert rec.outputs["discoveryUrl"] == "https://eastus.api.azureml.ms/discovery"
    assert rec.outputs["provisioningState"] == "Succeeded"
    assert rec.outputs["id"] == f"{RG_ID}/providers/Microsoft.MachineLearningServices/workspaces/ws-fake"


@pytest.mark.parametrize("missing", ["storage_account", "key_vault", "application_insights", "container_registry"])
def test_fake_workspace_refused_when_a_dependency_does_not_exist(
    record: Callable[..., Recording], missing: str
) -> None:
    def build(rg: Any) -> None:
        workspace(rg, **{**dependencies(rg), missing: MISSING[missing]})

    code, message = refusal_of(record(in_resource_group(build)), "ws-fake")

    assert code == "ResourceNotFound"
    assert message.startswith(f"The Resource '{MISSING[missing]}' was not found")


@pytest.mark.parametrize("absent", ["storage_account", "key_vault"])
def test_fake_workspace_refused_without_storage_or_key_vault(record: Callable[..., Recording], absent: str) -> None:
    def build(rg: Any) -> None:
        workspace(rg, **{**dependencies(rg), absent: None})

    code, message = refusal_of(record(in_resource_group(build)), "ws-fake")

    key, arm_type = {
        "storage_account": ("storageAccount", "Microsoft.Storage/storageAccounts"),
        "key_vault": ("keyVault", "Microsoft.KeyVault/vaults"),
    }[absent]
    assert (code, message) == (
        "InvalidParameter",
        f"Workspace 'ws-fake' needs {key}: the id of an existing {arm_type} resource.",
    )


def test_fake_workspace_refused_when_a_dependency_is_of_another_type(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        refs = dependencies(rg)
        workspace(rg, **{**refs, "key_vault": refs["storage_account"]})

    code, message = refusal_of(record(in_resource_group(build)), "ws-fake")

    assert code == "InvalidParameter"
    assert message.endswith("is a Microsoft.Storage/storageAccounts, not a Microsoft.KeyVault/vaults.")


def test_fake_workspace_accepts_dependencies_in_another_subscription(record: Callable[..., Recording]) -> None:
    other = (
        "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/shared/providers/"
        "Microsoft.Storage/storageAccounts/shared"
    )

    def build(rg: Any) -> None:
        workspace(rg, **{**dependencies(rg), "storage_account": other})

    assert record(in_resource_group(build)).refusals == []


def test_fake_compute_refused_in_a_workspace_that_does_not_exist(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(lambda rg: cluster(rg, "no-such-ws")))

    assert refusal_of(rec, "cluster") == (
        "ParentResourceNotFound",
        "Can not perform requested operation on nested resource. Parent resource 'no-such-ws' not found (workspaces).",
    )


def test_fake_compute_returns_provisioning_state_and_idle_node_counts(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        import pulumi

        ws = workspace(rg, **dependencies(rg))
        compute = cluster(rg, ws.name, scale={"min_node_count": 1, "max_node_count": 2})
        pulumi.export("properties", compute.properties)
        pulumi.export("id", compute.id)

    rec = record(in_resource_group(build))
    envelope = rec.outputs["properties"]  # a union type: the SDK leaves its keys as ARM names them

    assert rec.refusals == []
    assert envelope["provisioningState"] == "Succeeded"
    assert envelope["computeLocation"] == "eastus"
    assert (envelope["properties"]["allocationState"], envelope["properties"]["currentNodeCount"]) == ("Steady", 1)
    # What NotSpecified became, as Azure reports it after creation: open, since the nodes are in no VNet.
    assert envelope["properties"]["remoteLoginPortPublicAccess"] == "Enabled"
    assert (
        rec.outputs["id"]
        == f"{RG_ID}/providers/Microsoft.MachineLearningServices/workspaces/ws-fake/computes/gpu-cluster"
    )


@pytest.mark.parametrize(
    ("aml", "code", "expected"),
    [
        (
            {"vm_size": "Standard_NC6"},
            "SkuNotAvailable",
            "'Standard_NC6' (properties.properties.vmSize) is retired since 2023-09-06",
        ),
        ({"vm_size": "Standard_NC4as_T4"}, "InvalidParameter", "Did you mean Standard_NC4as_T4_v3"),
        (
            {"scale": {"min_node_count": 3, "max_node_count": 2}},
            "UserError",
            "minNodeCount 3 and maxNodeCount 2",
        ),
        (
            {"scale": {"min_node_count": -1, "max_node_count": 2}},
            "UserError",
            "minNodeCount -1 and maxNodeCount 2",
        ),
        (
            {"scale": {"max_node_count": 2, "node_idle_time_before_scale_down": "900"}},
            "UserError",
            "nodeIdleTimeBeforeScaleDown '900' is not an ISO 8601 duration",
        ),
        (
            {"vm_priority": "Spot"},
            "InvalidParameter",
            "The value 'Spot' of properties.properties.vmPriority is not valid for "
            "Microsoft.MachineLearningServices/workspaces/computes 'gpu-cluster'; allowed: Dedicated, LowPriority.",
        ),
        ({"name": "gpu_cluster"}, "InvalidParameter", "'gpu_cluster' is not a valid compute name"),
        (
            {"enable_node_public_ip": False},
            "UserError",
            (
                "nodes without public IPs need a subnet (properties.properties.subnet) or a workspace with a managed "
                "virtual network; workspace 'ws-fake' has neither"
            ),
        ),
    ],
)
def test_fake_compute_refuses_what_arm_refuses(
    record: Callable[..., Recording], aml: dict[str, Any], code: str, expected: str
) -> None:
    def build(rg: Any) -> None:
        cluster(rg, workspace(rg, **dependencies(rg)).name, **aml)

    refused_code, message = refusal_of(record(in_resource_group(build)), "cluster")

    assert refused_code == code
    assert expected in message


def test_fake_storage_account_refuses_an_auto_name_with_a_hyphen(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import storage

        storage.StorageAccount(
            "ml-data", resource_group_name=rg.name, kind="StorageV2", sku=storage.SkuArgs(name="Standard_LRS")
        )

    code, message = refusal_of(record(in_resource_group(build)), "ml-data")

    assert code == "AccountNameInvalid"
    assert re.fullmatch(
        r"ml-data[0-9a-f]{8} is not a valid storage account name\. Storage account name must be between 3 and 24 "
        r"characters in length and use numbers and lower-case letters only\.",
        message,
    )


@pytest.mark.parametrize(
    ("build_name", "expected_code", "expected"),
    [
        ("vault", "VaultNameNotValid", "The vault name '9-vault' is invalid."),
        ("registry", "InvalidParameter", "'cr-x' is not a valid container registry name"),
        ("logs", "InvalidParameter", "'x' is not a valid Log Analytics workspace name"),
    ],
)
def test_fake_refuses_invalid_names(
    record: Callable[..., Recording], build_name: str, expected_code: str, expected: str
) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import containerregistry, keyvault, operationalinsights

        if build_name == "vault":
            keyvault.Vault(
                "bad",
                vault_name="9-vault",
                resource_group_name=rg.name,
                properties=keyvault.VaultPropertiesArgs(
                    tenant_id=TENANT, sku=keyvault.SkuArgs(family="A", name="standard")
                ),
            )
        elif build_name == "registry":
            containerregistry.Registry(
                "bad", registry_name="cr-x", resource_group_name=rg.name, sku=containerregistry.SkuArgs(name="Basic")
            )
        else:
            operationalinsights.Workspace("bad", workspace_name="x", resource_group_name=rg.name)

    code, message = refusal_of(record(in_resource_group(build)), "bad")

    assert code == expected_code
    assert expected in message


def test_fake_key_vault_refuses_purge_protection_set_to_false(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import keyvault

        keyvault.Vault(
            "kv",
            vault_name="kv-fake",
            resource_group_name=rg.name,
            properties=keyvault.VaultPropertiesArgs(
                tenant_id=TENANT, sku=keyvault.SkuArgs(family="A", name="standard"), enable_purge_protection=False
            ),
        )

    assert refusal_of(record(in_resource_group(build)), "kv") == (
        "BadRequest",
        'The property "enablePurgeProtection" cannot be set to false. Enabling the purge protection for a vault is '
        "an irreversible action; leave it unset or true.",
    )


def test_fake_dependencies_return_endpoints(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        import pulumi
        from pulumi_azure_native import containerregistry

        refs = dependencies(rg)
        registry = containerregistry.Registry(
            "cr", registry_name="CrFake001", resource_group_name=rg.name, sku=containerregistry.SkuArgs(name="Basic")
        )
        pulumi.export("loginServer", registry.login_server)
        pulumi.export("storageId", refs["storage_account"])

    rec = record(in_resource_group(build))
    storage = next(r for r in rec.arm.resources() if r.type == "Microsoft.Storage/storageAccounts")
    vault = next(r for r in rec.arm.resources() if r.type == "Microsoft.KeyVault/vaults")

    assert rec.outputs["loginServer"] == "crfake001.azurecr.io"
    assert storage.outputs["primaryEndpoints"]["blob"] == "https://stfake001.blob.core.windows.net/"
    assert vault.outputs["properties"]["vaultUri"] == "https://kv-fake-001.vault.azure.net/"
