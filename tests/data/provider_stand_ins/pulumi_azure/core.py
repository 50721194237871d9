"""pulumi-azure's `core` functions: the result attributes by Python and wire name (pulumi-azure 6.40.1)."""

from provider_stand_in import function

get_client_config = function(
    "azure:core/getClientConfig:getClientConfig",
    {
        "client_id": "clientId",
        "id": "id",
        "object_id": "objectId",
        "subscription_id": "subscriptionId",
        "tenant_id": "tenantId",
    },
)
get_subscription = function(
    "azure:core/getSubscription:getSubscription",
    {
        "display_name": "displayName",
        "id": "id",
        "location_placement_id": "locationPlacementId",
        "quota_id": "quotaId",
        "spending_limit": "spendingLimit",
        "state": "state",
        "subscription_id": "subscriptionId",
        "tags": "tags",
        "tenant_id": "tenantId",
    },
)
