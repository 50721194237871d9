"""export-arm over the public-program corpus (tests/data/public, whose verdicts tests/e2e/test_public_programs.py
checks): every azure-native resource of each program that plans is inside its template's `resources` with the
ARM type the type registry places it under and the API version the installed SDK sends, or outside it saying
exactly why (not Azure's, a data-plane write, outside any subscription, or no public source for its type and why).

Expected ARM types and API versions come from the registry's data (catalog/arm/*.json, each row with its public
source) and the installed SDK's own docstrings (sdk_types.json); the why of a type no source places from the
residue spec_paths.json writes down (scripts/read_schema_paths.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm import registry
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.arm.template import (
    NO_SOURCE_BECAUSE,
    NOT_AZURES,
    NOT_IN_SUBSCRIPTION,
    NOT_PLACED,
    export,
)
from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.run.isolation import ProgramFailed
from azure_gpu_stacks.engine.run.project import load_project

from tests.conftest import REPO
from tests.e2e.test_public_programs import PROGRAMS as VERDICTS
from tests.shared_plans import corpus, plan_once

# with tests/e2e/test_public_programs.py, whose checks plan the same programs: one process plans each once
pytestmark = pytest.mark.xdist_group("public-programs")

PUBLIC = REPO / "tests" / "data" / "public"
STAND_INS = REPO / "tests" / "data" / "provider_stand_ins"
PROGRAMS = sorted(p.name for p in PUBLIC.iterdir() if (p / "__main__.py").is_file())
# exit 2 in tests/e2e's table: the program does not plan offline without its own environment or a saved copy of
# what it imports (that test checks its one line); every other program must plan here
NOT_PLANNED = {program for program, code, _, _ in VERDICTS if code == 2}
SDK = json.loads((REPO / "catalog" / "arm" / "sdk_types.json").read_text(encoding="utf-8"))["types"]


def sdk_api_version(token: str) -> str:
    """The API version the installed SDK's docstring states (a 2.x token: its 3.x type's)."""
    _, module, kind = token.split(":")
    for name in (module, *registry.MODULES_RENAMED_IN_3.get(module, ())):
        if f"azure-native:{name}:{kind}" in SDK:
            return str(SDK[f"azure-native:{name}:{kind}"]["apiVersion"])
    raise AssertionError(f"{token} is no type of the installed SDK")


@pytest.fixture(scope="session")  # this file's only; not module-scoped, which would give the file a group of its own
def corpus_templates() -> dict[str, Any]:
    """Each program's plan and template, planned once for the file; None for a program of NOT_PLANNED, which is
    not planned again here (its verdict, exit 2 naming what is missing, is tests/e2e's). A program the table
    says plans and that does not fails here with its one line."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(STAND_INS))
        out: dict[str, Any] = {}
        for name in PROGRAMS:
            if name in NOT_PLANNED:
                out[name] = None
                continue
            try:
                plan = plan_once(corpus("public"), load_project(PUBLIC / name), "dev", day=utc_today())
            except (ProgramFailed, InputError) as exc:
                pytest.fail(f"{name}: tests/e2e/test_public_programs.py says it plans, but: {exc}")
            out[name] = (plan, export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity))
        return out


def _entries(template: Any) -> list[dict[str, Any]]:
    """Every resource entry of the document: the groups at the top, and each nested deployment's resources."""
    top = template.document["resources"]
    nested = [e for d in top for e in d.get("properties", {}).get("template", {}).get("resources", [])]
    return [*top, *nested]


def test_most_public_programs_plan_and_are_exported() -> None:
    assert len(PROGRAMS) >= 20


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_azure_resource_of_a_public_program_is_in_its_template_with_its_arm_type_and_api_version(
    corpus_templates: dict[str, Any], program: str
) -> None:
    if corpus_templates[program] is None:
        pytest.skip(
            "does not plan offline without its own environment or a saved import (tests/e2e checks its one line)"
        )
    plan, template = corpus_templates[program]
    outside = {o["urn"]: o["why"] for o in template.document["metadata"]["outsideTemplate"]}
    azure = [r for r in plan.resources if r.custom and r.type.startswith("azure-native:")]
    entries = {(e["type"], e["apiVersion"], e["name"]) for e in _entries(template)}

    assert azure
    for r in azure:
        inside = template.resource(r.urn)
        if inside is None:
            why = outside[r.urn]
            reason = registry.why_unplaced(r.type)
            assert (
                why.startswith("not an ARM resource: ")
                or why == NOT_IN_SUBSCRIPTION
                or (reason is not None and why == f"{NOT_PLACED}; {NO_SOURCE_BECAUSE}{reason}")
            ), (r.type, why)
            continue
        place = registry.placement_for(r.type, r.plain_inputs())  # a record set's type: its `recordType`'s value
        assert place is not None and r.urn not in outside
        assert (inside.arm_type, inside.api_version) == (place.arm_type, sdk_api_version(r.type)), r.type
        assert any(t == inside.arm_type and v == inside.api_version for t, v, _ in entries), r.type
    others = {urn: why for urn, why in outside.items() if urn not in {r.urn for r in azure}}
    assert set(others.values()) <= {NOT_AZURES}  # another provider's (docker, random, tls): not Azure's


def test_a_resource_no_public_source_places_says_so_and_why() -> None:
    """A resource of a type the registry cannot place (applicationinsights:ComponentCurrentBillingFeature: no type of
    Azure's REST spec at the SDK's API version is named like it, and the provider's own path, `.../components/
    {resourceName}/currentbillingfeatures`, has no name segment) is outside, naming that reason."""
    from azure_gpu_stacks.engine.run.runtime import RecordedResource

    token = "azure-native:applicationinsights:ComponentCurrentBillingFeature"
    report = RecordedResource(
        urn=f"urn:pulumi:dev::p::{token}::r", type=token, name="r", parent=None, custom=True, protect=False,
        inputs={"resourceGroupName": "rg", "resourceName": "ai1", "currentBillingFeatures": ["Basic"]},
    )  # fmt: skip
    outside = export([report], project="p", stack="dev").document["metadata"]["outsideTemplate"]

    assert outside == [
        {
            "urn": report.urn,
            "type": token,
            "why": f"{NOT_PLACED}; why no source places it: no type of the REST spec at the SDK's API version is "
            "named like the class",
        }
    ]


def test_the_static_website_s_blob_is_outside_as_data_plane_and_its_cdn_inside(
    corpus_templates: dict[str, Any],
) -> None:
    plan, template = corpus_templates["azure-py-static-website"]
    by_type = {r.arm_type: r for r in template.resources}
    outside = {o["type"]: o["why"] for o in template.document["metadata"]["outsideTemplate"]}

    assert {"Microsoft.Cdn/profiles", "Microsoft.Cdn/profiles/endpoints"} <= set(by_type)
    assert by_type["Microsoft.Cdn/profiles"].api_version == sdk_api_version("azure-native:cdn:Profile")
    assert "Blob service" in outside["azure-native:storage:Blob"]
    assert "Blob service" in outside["azure-native:storage:StorageAccountStaticWebsite"]


def test_a_web_app_goes_to_the_template_with_its_plan_and_no_value_of_the_fake(
    corpus_templates: dict[str, Any],
) -> None:
    plan, template = corpus_templates["provider-py-webapp"]
    entries = [
        inner
        for entry in template.document["resources"]
        for inner in entry.get("properties", {}).get("template", {}).get("resources", [])
    ]
    site = next(e for e in entries if e["type"] == "Microsoft.Web/sites")
    text = str(template.document)

    assert site["apiVersion"] == sdk_api_version("azure-native:web:WebApp")
    assert "serverFarmId" in site["properties"]
    assert any(e["type"] == "Microsoft.Web/serverfarms" for e in entries)
    assert plan.identity is not None
    assert all(v not in text for v in vars(plan.identity).values())


def test_a_load_balancer_s_self_relative_ids_become_its_own_resource_id(corpus_templates: dict[str, Any]) -> None:
    _, template = corpus_templates["provider-py-loadbalancer"]
    text = json.dumps(template.document)
    balancer = next(r for r in template.resources if r.arm_type == "Microsoft.Network/loadBalancers")

    assert "$self" not in text
    assert f"[concat(resourceId('Microsoft.Network/loadBalancers', '{balancer.name}'), '/probes/lb-probe')]" in text


def test_a_load_balancer_s_frontends_rules_and_probes_are_sent_as_arm_names_them(
    corpus_templates: dict[str, Any],
) -> None:
    """Azure's REST spec (loadBalancer.json, as bicep-types-az lists it): each frontend IP configuration, rule and
    probe is `{name, properties: {...}}`; pulumi-azure-native takes them flattened (`x-ms-client-flatten`)."""
    _, template = corpus_templates["provider-py-loadbalancer"]
    lb = next(r for r in template.resources if r.arm_type == "Microsoft.Network/loadBalancers")
    entry = next(
        e
        for d in template.document["resources"]
        if d["type"] == "Microsoft.Resources/deployments"
        for e in d["properties"]["template"]["resources"]
        if e["type"] == lb.arm_type
    )
    frontend = entry["properties"]["frontendIPConfigurations"][0]
    probe = entry["properties"]["probes"][0]

    assert set(frontend) == {"name", "properties"} and "id" in frontend["properties"]["publicIPAddress"]
    assert probe["name"] == "lb-probe" and probe["properties"]["requestPath"] == "/"
    assert entry["properties"]["loadBalancingRules"][0]["properties"]["frontendPort"] == 80
    assert entry["properties"]["backendAddressPools"] == [{"name": "lb-backend"}]  # nothing to nest
