"""Stand-in for pulumi-azuread 5.x (see ../README.md): an application, its service principal and a password, and the
deploying identity (`get_client_config`: pulumi-azuread 6.11.1 `get_client_config.py`, observed 2026-11-27)."""

from provider_stand_in import function, resource_class

Application = resource_class(
    "azuread:index/application:Application",
    {"display_name": "displayName", "owners": "owners"},
    {"application_id": "applicationId", "client_id": "clientId", "object_id": "objectId"},
)
ServicePrincipal = resource_class(
    "azuread:index/servicePrincipal:ServicePrincipal",
    {"application_id": "applicationId", "client_id": "clientId", "owners": "owners"},
    {"object_id": "objectId"},
)
ServicePrincipalPassword = resource_class(
    "azuread:index/servicePrincipalPassword:ServicePrincipalPassword",
    {"service_principal_id": "servicePrincipalId", "end_date": "endDate", "display_name": "displayName"},
    {"value": "value", "key_id": "keyId"},
)
get_client_config = function(
    "azuread:index/getClientConfig:getClientConfig",
    {"client_id": "clientId", "id": "id", "object_id": "objectId", "tenant_id": "tenantId"},
)
