"""What public team programs do with the deploying identity and look-ups, written for the test (the programs each
line follows are named beside it; see tests/e2e/test_public_patterns.py)."""

import pulumi
import pulumi_azure as azure
import pulumi_azuread as azuread
from pulumi_azure_native import authorization, resources

# A config namespace of the program's own (petitess/pulumi-azure-py keyvault01: `pulumi.Config("param")`).
param = pulumi.Config("param")
env = param.require("env")
tags = param.require_object("tags")

# The deploying identity from azuread and the subscription from the classic provider (teams' function apps:
# `from pulumi_azuread import get_client_config`; pulumi/examples' azure-py-aks-acr-keda:
# `azure.core.get_subscription()`).
me = azuread.get_client_config()
subscription = azure.core.get_subscription()

group = resources.ResourceGroup("rg", resource_group_name=f"rg-team-{env}-01", tags=tags)

# A built-in role looked up by its id (petitess/pulumi-azure-py appservice01 rbacRole.py), then assigned.
reader = authorization.get_role_definition(
    role_definition_id="acdd72a7-3385-48ef-bd42-f606fba81ae7",
    scope=f"/subscriptions/{authorization.get_client_config().subscription_id}",
)
authorization.RoleAssignment(
    "me-reader",
    principal_id=me.object_id,
    principal_type="User",
    role_definition_id=reader.id,
    scope=group.id,
)

# A service principal assigned a role by its `.id` (pulumi/examples' azure-py-oidc-provider-pulumi-cloud).
app = azuread.Application("app", display_name="team-app")
principal = azuread.ServicePrincipal("principal", client_id=app.client_id)
authorization.RoleAssignment(
    "principal-contributor",
    principal_id=principal.id,
    principal_type="ServicePrincipal",
    role_definition_id=f"/subscriptions/{subscription.subscription_id}/providers/Microsoft.Authorization/"
    "roleDefinitions/b24988ac-6180-42a0-ab88-20f7382dd24c",
    scope=subscription.id,
)

pulumi.export("tenant", me.tenant_id)
pulumi.export("reader", reader.id)
