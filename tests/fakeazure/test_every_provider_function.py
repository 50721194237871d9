"""Every provider function an azure-native program can call gets an answer from the fake, or one clear line.

The functions are read from the installed pulumi-azure-native SDK itself: each `get_*.py` and `list_*.py` of a
module calls `pulumi.runtime.invoke('azure-native:<module>:<function>', ...)` (the SDK is generated from the
provider's schema: github.com/pulumi/pulumi-azure-native `sdk/python`, observed 2026-11-27). Each is invoked as
a program's callback would invoke it, with a group and a name: the fake answers a mapping shaped from the
function's result type, or refuses with one line (a look-up of a resource the subscription does not hold),
never any other exception.

Importing every SDK module is most of this file's cost (about 8 CPU-seconds for 257 modules once the SDK is
compiled, measured 2026-11-27), and it grew the test process by about 440 MB that it then kept for the session;
each later fork of it (every in-process plan forks twice) copied those page tables again (docs/testing.md). So
the modules are imported and their functions invoked in a forked child per chunk of modules, which hands back
each call's outcome; each module's test asserts on its own module's outcomes. The chunks are xdist groups, so
the suite's workers share them and each chunk is imported once a run.
"""

from __future__ import annotations

import functools
import re
import uuid
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.sdk.internals import is_secret

from tests.sdk_source import SDK, in_a_child

INVOKE = re.compile(r"invoke\('(azure-native:[^']+)'")
MODULES = sorted(p.name for p in SDK.iterdir() if p.is_dir() and not p.name.startswith("_"))


def functions_of(module: str) -> list[str]:
    return [
        token
        for path in sorted((SDK / module).glob("*.py"))
        if path.name.startswith(("get_", "list_"))
        for token in INVOKE.findall(path.read_text())
    ]


def test_the_sdk_has_the_functions_programs_call() -> None:
    # the functions the corpus's programs call are found by the same reading
    every = {token for module in MODULES for token in functions_of(module)}

    assert {
        "azure-native:storage:listStorageAccountKeys",
        "azure-native:containerregistry:listRegistryCredentials",
        "azure-native:network:getPublicIPAddress",
        "azure-native:containerservice:listManagedClusterAdminCredentials",
        "azure-native:operationalinsights:getSharedKeys",
        "azure-native:authorization:getClientConfig",
    } <= every
    assert len(every) > 2000  # 3.29.0 has 2,803


CHUNKS = 4  # xdist groups of modules: one forked child each, shared by the two workers


def chunk_of(module: str) -> int:
    return MODULES.index(module) * CHUNKS // len(MODULES)


def outcomes_of(modules: list[str]) -> dict[str, list[tuple[str, str, str]]]:
    """Each function of each module invoked as a program's callback invokes it, with a group and a name, on a
    fake of its own module: (token, "answered", "dict" or the type of what else it answered), (token, "refused",
    the refusal's text) or (token, "raised", the exception's type and text)."""
    found: dict[str, list[tuple[str, str, str]]] = {}
    for module in modules:
        arm = FakeArm()
        args = {"resourceGroupName": "rg", "name": "n"}
        found[module] = []
        for token in functions_of(module):
            try:
                answer = arm.invoke(token, dict(args))
            except ArmError as refused:
                found[module].append((token, "refused", str(refused)))
            except Exception as raised:  # noqa: BLE001 - said by the module's test, which fails on it
                found[module].append((token, "raised", f"{type(raised).__name__}: {raised}"))
            else:
                found[module].append((token, "answered", "dict" if isinstance(answer, dict) else type(answer).__name__))
    return found


@functools.cache
def chunk_outcomes(chunk: int) -> dict[str, list[tuple[str, str, str]]]:
    """The outcomes of one chunk's modules, from a forked child of this test process (which keeps none of the SDK
    modules that the child imports)."""
    modules = [m for m in MODULES if chunk_of(m) == chunk]
    return in_a_child(lambda: outcomes_of(modules), f"the functions of SDK chunk {chunk}")


@pytest.mark.parametrize(
    "module", [pytest.param(m, marks=pytest.mark.xdist_group(f"sdk-functions-{chunk_of(m)}")) for m in MODULES]
)
def test_every_function_of_the_module_is_answered_or_refused_in_one_line(module: str) -> None:
    outcomes = chunk_outcomes(chunk_of(module)).pop(module)  # each module's outcomes read once, then let go

    assert [token for token, _, _ in outcomes] == functions_of(module)
    for token, outcome, detail in outcomes:
        assert outcome in ("answered", "refused"), (token, detail)
        if outcome == "refused":
            assert detail.strip() and "\n" not in detail, token
        else:
            assert detail == "dict", token


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) else value


# Credentials in Azure's answers (the REST specs' response definitions, azure-rest-api-specs, observed
# 2026-11-27): each must reach the program as a secret, so that Pulumi masks it wherever it is shown.
CREDENTIALS = [
    # storage.json StorageAccountListKeysResult: keys[].value
    ("azure-native:storage:listStorageAccountKeys", {"accountName": "sa"}, ("keys", "value")),
    # containerregistry.json RegistryListCredentialsResult: passwords[].value
    ("azure-native:containerregistry:listRegistryCredentials", {"registryName": "cr"}, ("passwords", "value")),
    # cosmos-db.json DatabaseAccountListKeysResult: primaryMasterKey
    ("azure-native:cosmosdb:listDatabaseAccountKeys", {"accountName": "db"}, ("primaryMasterKey",)),
    # servicebus AuthorizationRules.json AccessKeys: primaryConnectionString
    (
        "azure-native:servicebus:listNamespaceKeys",
        {"namespaceName": "sb", "authorizationRuleName": "RootManageSharedAccessKey"},
        ("primaryConnectionString",),
    ),
    # WebApps.json User: publishingPassword
    ("azure-native:web:listWebAppPublishingCredentials", {"name": "app"}, ("publishingPassword",)),
    # redis.json RedisAccessKeys: primaryKey
    ("azure-native:redis:listRedisKeys", {"name": "cache"}, ("primaryKey",)),
    # OperationalInsights SharedKeys: primarySharedKey
    ("azure-native:operationalinsights:getSharedKeys", {"workspaceName": "logs"}, ("primarySharedKey",)),
]


WEB_APP = ("azure-native:web:getWebApp", {"resourceGroupName": "rg", "name": "app"})
RENAMED = ("azure-native:documentdb:listDatabaseAccountKeys", {"resourceGroupName": "rg", "accountName": "db"})
LOOKED_UP = [*((token, {"resourceGroupName": "rg", **args}) for token, args, _ in CREDENTIALS), RENAMED, WEB_APP]
IN_A_CHILD = pytest.mark.xdist_group("sdk-functions-answers")


@functools.cache
def answered_in_a_child() -> dict[str, Any]:
    """The answers of LOOKED_UP, each from a fake of its own, invoked in one forked child: the SDK modules of their
    result types (web's alone grew this test process by 14 MB) stay out of this test process."""
    return in_a_child(
        lambda: {token: FakeArm().invoke(token, dict(args)) for token, args in LOOKED_UP}, "the credential look-ups"
    )


@IN_A_CHILD
@pytest.mark.parametrize(("token", "args", "path"), CREDENTIALS, ids=[row[0].split(":")[-1] for row in CREDENTIALS])
def test_a_credential_in_a_functions_answer_is_secret(token: str, args: dict[str, str], path: tuple[str, ...]) -> None:
    value: Any = answered_in_a_child()[token]
    for key in path:
        value = _first(value)[key]

    assert is_secret(_first(value)), (token, value)


@IN_A_CHILD
def test_a_2x_token_of_a_renamed_module_is_answered_from_its_3x_function() -> None:
    # a program written for 2.x, run in its own environment, calls documentdb:listDatabaseAccountKeys; 3.x
    # names the module cosmosdb (Pulumi's "Upgrade Guide for Azure Native v2 to v3")
    answer = answered_in_a_child()[RENAMED[0]]

    # cosmos-db.json DatabaseAccountListKeysResult
    assert {"primaryMasterKey", "secondaryMasterKey", "primaryReadonlyMasterKey"} <= set(answer)
    assert is_secret(answer["primaryMasterKey"])


def test_a_look_up_by_id_answers_the_arm_id_its_arguments_name() -> None:
    """A role definition looked up by its GUID answers its ARM id (Learn, "Azure built-in roles": Reader is
    acdd72a7-3385-48ef-bd42-f606fba81ae7; a role definition's id is `{scope}/providers/Microsoft.Authorization/
    roleDefinitions/{roleDefinitionId}`, the ARM template reference). A placeholder there was refused by the role
    assignment naming it (petitess/pulumi-azure-py appservice01)."""
    arm = FakeArm()
    answer = arm.invoke(
        "azure-native:authorization:getRoleDefinition",
        {"scope": f"/subscriptions/{arm.subscription_id}", "roleDefinitionId": "acdd72a7-3385-48ef-bd42-f606fba81ae7"},
    )

    assert answer["id"] == (
        f"/subscriptions/{arm.subscription_id}/providers/Microsoft.Authorization/roleDefinitions/"
        "acdd72a7-3385-48ef-bd42-f606fba81ae7"
    )
    assert (answer["name"], answer["type"]) == (
        "acdd72a7-3385-48ef-bd42-f606fba81ae7",
        "Microsoft.Authorization/roleDefinitions",
    )


def test_a_look_up_missing_a_part_of_the_id_keeps_the_placeholder() -> None:
    answer = FakeArm().invoke("azure-native:authorization:getRoleDefinition", {"roleDefinitionId": "x"})

    assert answer["id"] == "offline-id"


@IN_A_CHILD
def test_a_looked_up_identity_s_principal_is_an_object_id_a_role_assignment_accepts() -> None:
    """Azure gives a managed identity's principalId and tenantId as GUIDs (common-types ManagedServiceIdentity,
    `format: uuid`); a role assignment naming a looked-up web app's `identity.principal_id` was refused
    (InvalidPrincipalId) for the placeholder `offline-principalId`."""
    arm = FakeArm()
    identity = answered_in_a_child()[WEB_APP[0]]["identity"]  # a web app looked up from a fake of its own
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "westeurope"}, "s1")

    assert str(uuid.UUID(identity["principalId"])) == identity["principalId"]
    assert str(uuid.UUID(identity["tenantId"])) == identity["tenantId"]
    arm.put(
        "azure-native:authorization:RoleAssignment",
        "app-reader",
        {
            "principalId": identity["principalId"],
            "principalType": "ServicePrincipal",
            "roleDefinitionId": f"/subscriptions/{arm.subscription_id}/providers/Microsoft.Authorization/"
            "roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7",
            "scope": f"/subscriptions/{arm.subscription_id}/resourceGroups/rg",
        },
        "s2",
    )
