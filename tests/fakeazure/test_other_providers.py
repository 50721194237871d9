"""Resources of providers the fake ARM does not model (issue 24): recorded, answered as Pulumi's mocks
answer them (inputs echoed, an id made up; random and tls with plausible outputs), and marked "not
checked". The program is tests/data/azure-py-aks, in the shape of pulumi/examples' azure-py-aks; its
random, tls and azuread packages are the stand-ins of tests/data/provider_stand_ins."""

from __future__ import annotations

import base64
import json
import struct
import uuid

import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.report.text import NOT_CHECKED
from azure_gpu_stacks.engine.run.plan import Plan, plan_stack
from azure_gpu_stacks.engine.run.project import load_project
from azure_gpu_stacks.fakeazure.other_providers import MODELED_PACKAGES

from tests.conftest import REPO

DATA = REPO / "tests" / "data"
AKS = DATA / "azure-py-aks"
CLUSTER = "azure-native:containerservice:ManagedCluster"


@pytest.fixture
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(DATA / "provider_stand_ins"))


def one(plan: Plan, type_token: str) -> dict:
    [found] = [r for r in plan.resources if r.type == type_token]
    return found.plain_inputs()


def test_aks_program_with_random_tls_and_azuread_plans(stand_ins: None, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["plan", "dev", "--project", str(AKS), "--json"])
    out, err = capsys.readouterr()

    assert (code, err) == (0, "")
    plan = json.loads(out)
    others = [r["urn"] for r in plan["resources"] if r["custom"] and not r["type"].startswith(MODELED_PACKAGES)]
    assert {urn.split("::")[2].split(":")[0] for urn in others} == {"random", "tls", "azuread"}
    assert plan["notChecked"] == others


def test_text_plan_marks_each_resource_not_checked(stand_ins: None, capsys: pytest.CaptureFixture[str]) -> None:
    main(["plan", "dev", "--project", str(AKS)])
    lines = capsys.readouterr().out.splitlines()

    marked = {line.split()[1].strip("[]") for line in lines if line.endswith(NOT_CHECKED)}
    assert marked == {
        "azuread:index/application:Application",
        "azuread:index/servicePrincipal:ServicePrincipal",
        "azuread:index/servicePrincipalPassword:ServicePrincipalPassword",
        "random:index/randomPassword:RandomPassword",
        "tls:index/privateKey:PrivateKey",
    }


def test_random_and_tls_outputs_are_plausible_where_azure_resources_use_them(stand_ins: None) -> None:
    plan = plan_stack(load_project(AKS), "dev", day=utc_today())

    cluster = one(plan, CLUSTER)
    password = one(plan, "random:index/randomPassword:RandomPassword")
    assert len(cluster["servicePrincipalProfile"]["secret"]) == password["length"]
    key = one(plan, "tls:index/privateKey:PrivateKey")
    [public_key] = cluster["linuxProfile"]["ssh"]["publicKeys"]
    kind, blob = public_key["keyData"].split()[:2]
    assert kind == "ssh-rsa"
    modulus = _ssh_strings(base64.b64decode(blob))[2]
    assert len(modulus.lstrip(b"\0")) * 8 == key["rsaBits"]
    assert plan.secret_outputs >= {"passwordLength"}  # a RandomPassword's result is a secret, as the provider says


def test_made_up_outputs_are_the_same_every_run(stand_ins: None) -> None:
    first, second = (plan_stack(load_project(AKS), "dev", day=utc_today()) for _ in range(2))

    assert one(first, CLUSTER) == one(second, CLUSTER)


def _ssh_strings(blob: bytes) -> list[bytes]:
    """The length-prefixed strings of an OpenSSH public key blob (RFC 4253, section 6.6)."""
    found = []
    while blob:
        (size,) = struct.unpack(">I", blob[:4])
        found.append(blob[4 : 4 + size])
        blob = blob[4 + size :]
    return found


def test_a_service_principal_s_id_is_its_object_id_and_an_application_s_the_applications_path() -> None:
    """pulumi-azuread 6.11.1 imports a service principal by its object id (00000000-0000-0000-0000-000000000000)
    and an application by `/applications/<object id>`: a role assignment's principalId names the principal by `.id`
    (pulumi/examples' azure-py-oidc-provider-pulumi-cloud), which Azure checks as an object id."""
    from azure_gpu_stacks.fakeazure.other_providers import answer

    principal_id, principal = answer("azuread:index/servicePrincipal:ServicePrincipal", "sp", {"clientId": "c"})
    application_id, application = answer("azuread:index/application:Application", "app", {"displayName": "a"})

    assert principal_id == principal["objectId"] and str(uuid.UUID(principal_id)) == principal_id
    assert application_id == f"/applications/{application['objectId']}"


def test_other_providers_identity_functions_answer_the_identity_azure_native_answers() -> None:
    """azuread's getClientConfig (clientId, objectId, tenantId) and the classic provider's getClientConfig and
    getSubscription (pulumi-azuread 6.11.1, pulumi-azure 6.40.1 result types) name the same identity and
    subscription as azure-native's authorization.getClientConfig."""
    from azure_gpu_stacks.fakeazure import FakeArm

    arm = FakeArm()
    native = arm.invoke("azure-native:authorization:getClientConfig", {})

    assert arm.invoke("azuread:index/getClientConfig:getClientConfig", {}) == {
        k: native[k] for k in ("clientId", "objectId", "tenantId")
    }
    assert arm.invoke("azure:core/getClientConfig:getClientConfig", {}) == native
    subscription = arm.invoke("azure:core/getSubscription:getSubscription", {})
    assert (subscription["id"], subscription["subscriptionId"], subscription["tenantId"]) == (
        f"/subscriptions/{native['subscriptionId']}",
        native["subscriptionId"],
        native["tenantId"],
    )


def test_another_provider_s_function_it_cannot_answer_is_one_line_naming_that_provider() -> None:
    from azure_gpu_stacks.fakeazure import FakeArm
    from azure_gpu_stacks.fakeazure.errors import ArmError

    with pytest.raises(ArmError) as refused:
        FakeArm().invoke("azuread:index/getGroup:getGroup", {"displayName": "team"})

    line = str(refused.value)
    assert "\n" not in line
    assert line.startswith("'azuread:index/getGroup:getGroup' is a function of the azuread provider")
    assert "pulumi-azure-native (3.x) has no function" not in line  # what it said before: not the reason
