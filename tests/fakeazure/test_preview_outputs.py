"""`check` and `plan` follow `pulumi preview`'s rules for outputs (issue 39): what Azure computes at
creation is unknown, callbacks on it do not run, output-form invokes depending on a resource pending
creation are not made, and every other provider function gets an answer shaped from its result type."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.functions import FunctionNotAnswered, answer_from_schema
from azure_gpu_stacks.fakeazure.planned import planned_outputs
from azure_gpu_stacks.sdk.internals import UNKNOWN_STRING_VALUE, is_secret, unwrap_secret


def project(tmp_path: Path, program: str) -> Path:
    (tmp_path / "Pulumi.yaml").write_text("name: preview-rules\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: westus2\n")
    (tmp_path / "__main__.py").write_text(textwrap.dedent(program))
    return tmp_path


def test_output_azure_computes_is_unknown_and_its_callback_does_not_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pulumi/examples azure-py-static-website reads primary_endpoints.web in a callback; Azure fills
    # primaryEndpoints in its answer (spec example StorageAccountGetProperties), never from the request.
    root = project(
        tmp_path,
        """
        import pulumi
        from pulumi_azure_native import resources, storage
        rg = resources.ResourceGroup("rg")
        account = storage.StorageAccount("sa", resource_group_name=rg.name, kind="StorageV2",
                                         sku={"name": "Standard_LRS"})
        web = account.primary_endpoints.apply(lambda e: e.web.replace("https://", ""))  # TypeError if run on None
        pulumi.export("web", web)
        pulumi.export("name", account.name)
        """,
    )
    code = main(["plan", "dev", "--project", str(root), "--json"])
    out, err = capsys.readouterr()

    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["outputs"]["web"] is None  # unknown: known after deployment
    assert document["outputs"]["name"].startswith("sa")  # the name azure-native's preview keeps known


def test_invoke_on_a_resource_pending_creation_is_not_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(
        tmp_path,
        """
        import pulumi
        from pulumi_azure_native import resources, storage
        rg = resources.ResourceGroup("rg")
        account = storage.StorageAccount("sa", resource_group_name=rg.name, kind="StorageV2",
                                         sku={"name": "Standard_LRS"})
        keys = storage.list_storage_account_keys_output(resource_group_name=rg.name, account_name=account.name)
        pulumi.export("key", keys.keys[0].value)
        """,
    )
    code = main(["plan", "dev", "--project", str(root), "--json"])
    out, err = capsys.readouterr()

    assert (code, err) == (0, "")
    assert json.loads(out)["outputs"]["key"] is None


def test_function_the_fake_does_not_model_is_answered_from_its_result_type_with_keys_secret() -> None:
    answer = answer_from_schema(
        FakeArm(), "azure-native:storage:listStorageAccountKeys", {"resourceGroupName": "rg", "accountName": "sa"}
    )

    [key] = answer["keys"]  # StorageAccountKeyResponse: keyName, permissions, value, creationTime
    assert {"keyName", "permissions", "value", "creationTime"} <= set(key)
    assert is_secret(key["value"]) and isinstance(unwrap_secret(key["value"]), str)
    assert not is_secret(key["keyName"])


def test_function_named_with_an_acronym_is_found() -> None:
    # getPublicIPAddress lives in get_public_ip_address.py; its result has ipAddress
    answer = answer_from_schema(
        FakeArm(), "azure-native:network:getPublicIPAddress", {"resourceGroupName": "rg", "publicIpAddressName": "ip"}
    )

    assert "ipAddress" in answer


def test_function_the_installed_sdk_lacks_is_one_line_naming_it() -> None:
    # 2.x's explicit API version modules are gone from 3.x (Pulumi's v2-to-v3 upgrade guide)
    with pytest.raises(FunctionNotAnswered) as raised:
        answer_from_schema(FakeArm(), "azure-native:compute/v20230301:getVirtualMachine", {})

    assert "azure-native:compute/v20230301:getVirtualMachine" in str(raised.value)
    assert "\n" not in str(raised.value)


def test_planned_outputs_keep_inputs_and_make_azures_additions_unknown() -> None:
    inputs = {"identity": {"type": "SystemAssigned"}, "kind": "StorageV2", "accountName": "sa1"}
    answered = {
        "identity": {"type": "SystemAssigned", "principalId": "p", "tenantId": "t"},
        "kind": "StorageV2",
        "name": "sa1",
        "type": "Microsoft.Storage/storageAccounts",
        "primaryEndpoints": {"web": "https://sa1.z5.web.core.windows.net/"},
    }

    out = planned_outputs(inputs, answered)

    assert out["identity"] == {
        "type": "SystemAssigned",
        "principalId": UNKNOWN_STRING_VALUE,
        "tenantId": UNKNOWN_STRING_VALUE,
    }
    assert out["primaryEndpoints"] == UNKNOWN_STRING_VALUE
    assert (out["name"], out["kind"], out["accountName"]) == ("sa1", "StorageV2", "sa1")
    assert out["type"] == UNKNOWN_STRING_VALUE


def test_an_input_named_type_is_never_overwritten() -> None:
    # storage.Blob's `type` input is the blob type (Block, Append, Page), not the ARM type
    out = planned_outputs({"type": "Block", "blobName": "index.html"}, {"type": "Microsoft.Storage/blobs"})

    assert out["type"] == "Block"


def test_a_blob_keeps_its_blob_type_when_every_output_is_known(record) -> None:  # type: ignore[no-untyped-def]
    import pulumi
    from pulumi_azure_native import resources, storage

    def program() -> None:
        rg = resources.ResourceGroup("rg", location="westus2")
        account = storage.StorageAccount(
            "sa", resource_group_name=rg.name, kind="StorageV2", sku=storage.SkuArgs(name="Standard_LRS")
        )
        container = storage.BlobContainer("web", resource_group_name=rg.name, account_name=account.name)
        blob = storage.Blob(
            "index",
            resource_group_name=rg.name,
            account_name=account.name,
            container_name=container.name,
            type=storage.BlobType.BLOCK,
            source=pulumi.StringAsset("<html></html>"),
        )
        pulumi.export("blobType", blob.type)

    recording = record(program)

    assert recording.outputs["blobType"] == "Block"


def test_a_storage_account_answers_its_static_website_endpoint(record) -> None:  # type: ignore[no-untyped-def]
    import pulumi
    from pulumi_azure_native import resources, storage

    def program() -> None:
        rg = resources.ResourceGroup("rg", location="westus2")
        account = storage.StorageAccount(
            "sa", account_name="sitefiles1", resource_group_name=rg.name, kind="StorageV2", sku={"name": "Standard_LRS"}
        )
        pulumi.export("web", account.primary_endpoints.apply(lambda e: e.web))

    recording = record(program)

    # Learn's example answer: "web": "https://<account>.z19.web.core.windows.net/"
    assert recording.outputs["web"].startswith("https://sitefiles1.z") and recording.outputs["web"].endswith(
        ".web.core.windows.net/"
    )


def test_answering_a_function_leaves_its_sdk_package_whole_for_programs() -> None:
    # pulumi-azure-native's packages load lazily; importing one of their files before the package had
    # loaded left the package without its names, and every program forked afterwards failed on them
    answer_from_schema(FakeArm(), "azure-native:botservice:listBotConnectionServiceProviders", {})

    import pulumi_azure_native.botservice as botservice

    assert hasattr(botservice, "list_bot_connection_service_providers_output")
    assert hasattr(botservice, "Bot")
