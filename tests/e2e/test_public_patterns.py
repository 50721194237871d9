"""What public team programs do with the deploying identity and look-ups, in one small program written for the
test (tests/data/public_patterns/identity-and-lookups; each line names the public program it follows), checked
once for the file with the provider stand-ins, as tests/e2e/test_public_programs.py checks the corpus.

Each was a false stop or a false red on the public program it follows (issue 39, the corpus round of 2026-11-27):
- a config namespace of the program's own (`pulumi.Config("param")`) was refused as a typo, though Pulumi reads
  any namespace (pulumi.com/docs/iac/concepts/config: "allows custom components to define their own key
  spaces"): petitess/pulumi-azure-py's seven programs all stopped on it;
- azuread's `get_client_config` and the classic provider's `core.get_subscription` ended the program with a line
  about pulumi-azure-native, even in the program's own environment;
- `authorization.get_role_definition(...).id` was a placeholder, and the role assignment naming it was refused
  (InvalidRoleDefinitionId) where Azure answers the role's ARM id;
- a service principal's `.id`, which pulumi-azuread gives as the object id (its import takes
  00000000-0000-0000-0000-000000000000), was a made-up name, and the role assignment was refused
  (InvalidPrincipalId).
"""

from __future__ import annotations

import io
import json
import re
import uuid
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

PROGRAM = REPO / "tests" / "data" / "public_patterns" / "identity-and-lookups"
STAND_INS = REPO / "tests" / "data" / "provider_stand_ins"
# Azure built-in roles (Learn, "Azure built-in roles", observed 2026-11-27): Reader and Contributor
READER = "acdd72a7-3385-48ef-bd42-f606fba81ae7"
CONTRIBUTOR = "b24988ac-6180-42a0-ab88-20f7382dd24c"
ROLE_ID = re.compile(
    r"^/subscriptions/([0-9a-f-]{36})/providers/Microsoft\.Authorization/roleDefinitions/([0-9a-f-]{36})$"
)


@pytest.fixture(scope="module")
def checked() -> tuple[int, dict[str, Any], str]:
    """`gpu-stacks check dev --json` of the program, once for the file: the exit code, the stack, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, redirect_stdout(out), redirect_stderr(err):
        patch.syspath_prepend(str(STAND_INS))
        code = main(["check", "dev", "--project", str(PROGRAM), "--json"])
    [stack] = json.loads(out.getvalue())["stacks"]
    return code, stack, err.getvalue()


def by_name(stack: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in stack["resources"]}


def test_the_program_is_green_with_nothing_refused(checked: tuple[int, dict[str, Any], str]) -> None:
    code, stack, err = checked

    assert (code, stack["refusals"], stack["errors"]) == (0, [], []), err
    assert "Traceback" not in err


def test_a_config_namespace_of_the_program_s_own_reaches_it(checked: tuple[int, dict[str, Any], str]) -> None:
    _, stack, _ = checked

    assert by_name(stack)["rg"]["inputs"]["resourceGroupName"] == "rg-team-dev-01"  # param:env
    assert by_name(stack)["rg"]["inputs"]["tags"] == {"environment": "dev", "managed-by": "pulumi"}  # param:tags


def test_a_looked_up_role_is_named_by_its_arm_id(checked: tuple[int, dict[str, Any], str]) -> None:
    _, stack, _ = checked
    assignment = by_name(stack)["me-reader"]["inputs"]

    found = ROLE_ID.match(assignment["roleDefinitionId"])
    assert found is not None and found.group(2) == READER
    assert stack["outputs"]["reader"] == assignment["roleDefinitionId"]


def test_the_classic_provider_s_subscription_is_the_one_azure_native_deploys_to(
    checked: tuple[int, dict[str, Any], str],
) -> None:
    """azure.core.get_subscription() and azure-native's get_client_config() name the same subscription, and the
    subscription's id is `/subscriptions/<id>` (azurerm's subscription data source)."""
    _, stack, _ = checked
    assignments = by_name(stack)
    reader = ROLE_ID.match(assignments["me-reader"]["inputs"]["roleDefinitionId"])
    contributor = ROLE_ID.match(assignments["principal-contributor"]["inputs"]["roleDefinitionId"])

    assert reader is not None and contributor is not None and contributor.group(2) == CONTRIBUTOR
    assert reader.group(1) == contributor.group(1)
    assert assignments["principal-contributor"]["inputs"]["scope"] == f"/subscriptions/{reader.group(1)}"


def test_the_principals_are_object_ids(checked: tuple[int, dict[str, Any], str]) -> None:
    _, stack, _ = checked
    assignments = by_name(stack)

    for name in ("me-reader", "principal-contributor"):
        assert str(uuid.UUID(assignments[name]["inputs"]["principalId"])) == assignments[name]["inputs"]["principalId"]
    assert stack["outputs"]["tenant"] and str(uuid.UUID(stack["outputs"]["tenant"])) == stack["outputs"]["tenant"]
