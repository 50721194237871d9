"""Stand-in for pulumi-azuread 5.x (see ../README.md): an application, its service principal and a password."""

from provider_stand_in import resource_class

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
