"""Answers for resources of providers the fake ARM does not model (random, tls, azuread, kubernetes...).

Pulumi's own mocks echo a resource's inputs back as its state and make up an id
(pulumi/pulumi `sdk/python/lib/pulumi/runtime/mocks.py`, `MockMonitor.RegisterResource`; observed
2026-11-25); so does this, and nothing about such a resource is checked (a plan marks it "not
checked", `is_modeled`). Outputs a program usually reads from a random or tls resource are made up,
plausible and the same every run (derived from the resource's name), so the values flow on into the
Azure resources that are checked: a `RandomPassword`'s `result` of the asked length, a `RandomPet`'s
words, a tls `PrivateKey`'s OpenSSH public key line. Property names and defaults are the providers'
schemas: github.com/pulumi/pulumi-random `provider/cmd/pulumi-resource-random/schema.json` and
github.com/pulumi/pulumi-tls `provider/cmd/pulumi-resource-tls/schema.json` and github.com/pulumi/pulumi-azuread
`provider/cmd/pulumi-resource-azuread/schema.json` (observed 2026-11-25).
"""

from __future__ import annotations

import base64
import hashlib
import struct
import uuid
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..catalog.arm.bodies import arm_type
from ..sdk.internals import secret
from ..sdk.values import unwrap_secrets
from .models import RESOURCE_TYPES
from .models.authorization import deployer_object_id

if TYPE_CHECKING:
    from .core import Arm

MODELED_PACKAGES = ("azure-native:",)
# Types of the engine itself, not of a provider: nothing to check about them.
ENGINE_TYPES = ("pulumi:providers:", "pulumi:pulumi:")

_PETS = ("otter", "heron", "lynx", "marten", "osprey", "badger", "ibex", "wren", "stoat", "egret")
_ADJECTIVES = ("brave", "calm", "eager", "fair", "keen", "lucid", "merry", "noble", "quiet", "swift")


def is_modeled(type_token: str, custom: bool) -> bool:
    """Whether the fake ARM checks what a resource of this type asks for (components have nothing to check).

    An azure-native type is checked where a rule exists for it: a model of the fake ARM (`models`, which
    also holds the types whose VM sizes and counts it reads) or the REST spec's constraints
    (`catalog.arm.bodies`, the spec's mapping). Any other azure-native type is accepted with its region
    and enum values checked only, and reported "not checked offline" like another provider's."""
    if not custom or type_token.startswith(ENGINE_TYPES):
        return True
    if type_token.startswith(MODELED_PACKAGES):
        return type_token in RESOURCE_TYPES or arm_type(type_token) is not None
    return False


def _stream(seed: str) -> bytes:
    """Bytes that depend only on `seed`, as many as a made-up value needs."""
    return b"".join(hashlib.sha256(f"{seed}#{i}".encode()).digest() for i in range(16))


def _characters(seed: str, length: int, inputs: Mapping[str, Any]) -> str:
    alphabet = ""
    if inputs.get("lower", True):
        alphabet += "abcdefghijklmnopqrstuvwxyz"
    if inputs.get("upper", True):
        alphabet += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if inputs.get("numeric", inputs.get("number", True)):
        alphabet += "0123456789"
    if inputs.get("special", True):
        alphabet += str(inputs.get("overrideSpecial") or "!@#$%&*()-_=+[]{}<>:?")
    alphabet = alphabet or "abcdefghijklmnopqrstuvwxyz"
    data = _stream(seed)
    return "".join(alphabet[data[i % len(data)] % len(alphabet)] for i in range(max(int(length), 0)))


def _random_string(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {"result": _characters(seed, inputs.get("length", 16), inputs)}


def _random_password(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    result = _characters(seed, inputs.get("length", 16), inputs)
    return {"result": secret(result), "bcryptHash": secret("$2a$10$" + _stream(seed + "bcrypt").hex()[:53])}


def _random_pet(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    data = _stream(seed)
    count = max(int(inputs.get("length", 2)), 1)
    words = [_ADJECTIVES[data[i] % len(_ADJECTIVES)] for i in range(count - 1)] + [_PETS[data[count] % len(_PETS)]]
    separator = str(inputs.get("separator", "-"))
    prefix = inputs.get("prefix")
    return {"id": separator.join(([str(prefix)] if prefix else []) + words)}


def _random_id(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    raw = _stream(seed)[: max(int(inputs.get("byteLength", 8)), 1)]
    prefix = str(inputs.get("prefix") or "")
    return {
        "hex": prefix + raw.hex(),
        "b64Url": prefix + base64.urlsafe_b64encode(raw).decode().rstrip("="),
        "b64Std": prefix + base64.b64encode(raw).decode(),
        "dec": prefix + str(int.from_bytes(raw, "big")),
    }


def _random_integer(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    low, high = int(inputs.get("min", 0)), int(inputs.get("max", 0))
    return {"result": low + int.from_bytes(_stream(seed)[:8], "big") % max(high - low + 1, 1)}


def _random_uuid(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {"result": str(uuid.UUID(bytes=_stream(seed)[:16], version=4))}


def _ssh_string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _private_key(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A key pair's public halves in the formats tls writes; the key opens nothing (no private key exists)."""
    algorithm = str(inputs.get("algorithm", "RSA"))
    data = _stream(seed)
    if algorithm == "ED25519":
        blob = _ssh_string(b"ssh-ed25519") + _ssh_string(data[:32])
        kind = "ssh-ed25519"
    else:  # RSA (the default) and ECDSA: an RSA-shaped line of the asked size is what programs read
        modulus = b"\x00\xc1" + data[: max(int(inputs.get("rsaBits", 2048)), 1024) // 8 - 1]
        blob = _ssh_string(b"ssh-rsa") + _ssh_string(b"\x01\x00\x01") + _ssh_string(modulus)
        kind = "ssh-rsa"
    openssh = f"{kind} {base64.b64encode(blob).decode()}\n"
    pem_body = base64.encodebytes(blob).decode()
    return {
        "publicKeyOpenssh": openssh,
        "publicKeyPem": f"-----BEGIN PUBLIC KEY-----\n{pem_body}-----END PUBLIC KEY-----\n",
        "privateKeyPem": secret(f"-----BEGIN PRIVATE KEY-----\n{pem_body}-----END PRIVATE KEY-----\n"),
        "publicKeyFingerprintMd5": ":".join(f"{b:02x}" for b in hashlib.md5(blob).digest()),  # noqa: S324 - a fingerprint
        "publicKeyFingerprintSha256": "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("="),
    }


def _application(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """An Entra ID application's ids (azuread 5.x `applicationId`, 6.x `clientId`), which Azure resources name."""
    client_id = _random_uuid(seed, inputs)["result"]
    return {
        "applicationId": client_id,
        "clientId": client_id,
        "objectId": _random_uuid(seed + "object", inputs)["result"],
    }


def _service_principal_password(seed: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {"value": secret(_characters(seed, 40, {"special": False})), "keyId": _random_uuid(seed, inputs)["result"]}


PLAUSIBLE_OUTPUTS: dict[str, Callable[[str, Mapping[str, Any]], dict[str, Any]]] = {
    "random:index/randomString:RandomString": _random_string,
    "random:index/randomPassword:RandomPassword": _random_password,
    "random:index/randomPet:RandomPet": _random_pet,
    "random:index/randomId:RandomId": _random_id,
    "random:index/randomInteger:RandomInteger": _random_integer,
    "random:index/randomUuid:RandomUuid": _random_uuid,
    "tls:index/privateKey:PrivateKey": _private_key,
    "azuread:index/application:Application": _application,
    "azuread:index/servicePrincipal:ServicePrincipal": lambda seed, inputs: {
        "objectId": _random_uuid(seed, inputs)["result"]
    },
    "azuread:index/servicePrincipalPassword:ServicePrincipalPassword": _service_principal_password,
}


# The id an Entra ID object's resource has, as its provider imports it (pulumi-azuread 6.11.1,
# `service_principal.py`: `pulumi import ... 00000000-0000-0000-0000-000000000000`, the object id;
# `application.py`, `application_registration.py`: `/applications/<object id>`; observed 2026-11-27). A
# role assignment's principalId names a service principal by `.id`, as pulumi/examples'
# azure-py-oidc-provider-pulumi-cloud does: the object id Azure then checks.
ID_SHAPES: dict[str, str] = {
    "azuread:index/servicePrincipal:ServicePrincipal": "{objectId}",
    "azuread:index/application:Application": "/applications/{objectId}",
    "azuread:index/applicationRegistration:ApplicationRegistration": "/applications/{objectId}",
}


def answer(type_token: str, name: str, inputs: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A made-up id and the state: the inputs echoed, with the outputs above where the type has them."""
    state = dict(inputs)
    made_up = PLAUSIBLE_OUTPUTS.get(type_token)
    if made_up is None:
        return f"{name}-id", state
    state.update(
        made_up(f"{type_token}::{name}", {k: v for k, v in unwrap_secrets(dict(inputs)).items() if v is not None})
    )
    shown_as_id = state.get("id") if type_token == "random:index/randomPet:RandomPet" else None
    shape = ID_SHAPES.get(type_token)
    if shape is not None:
        shown_as_id = shape.format(objectId=state["objectId"])
    return str(shown_as_id or f"{name}-id"), state


# Functions of other providers that Azure programs call for the deploying identity and its subscription,
# answered as the azure-native `authorization.getClientConfig` is (the fake's identity): the result fields are
# the providers' (pulumi-azuread 6.11.1 `get_client_config.py`: clientId, objectId, tenantId; pulumi-azure
# 6.40.1 `core/get_client_config.py`: clientId, objectId, subscriptionId, tenantId; `core/get_subscription.py`:
# displayName, id, locationPlacementId, quotaId, spendingLimit, state, subscriptionId, tags, tenantId, the id
# `/subscriptions/<id>`, as azurerm's subscription data source gives it; observed 2026-11-27).
def _identity(arm: Arm, args: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "clientId": arm.client_id,
        "objectId": deployer_object_id(arm),
        "subscriptionId": arm.subscription_id,
        "tenantId": arm.tenant_id,
    }


def _azuread_identity(arm: Arm, args: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in _identity(arm, args).items() if k != "subscriptionId"}


def _subscription(arm: Arm, args: Mapping[str, Any]) -> dict[str, Any]:
    subscription = str(args.get("subscriptionId") or arm.subscription_id)
    return {
        "id": f"/subscriptions/{subscription}",
        "subscriptionId": subscription,
        "tenantId": arm.tenant_id,
        "displayName": "offline-displayName",
        "locationPlacementId": "offline-locationPlacementId",
        "quotaId": "offline-quotaId",
        "spendingLimit": "offline-spendingLimit",
        "state": "Enabled",
        "tags": {},
    }


FUNCTIONS: dict[str, Callable[[Arm, Mapping[str, Any]], dict[str, Any]]] = {
    "azuread:index/getClientConfig:getClientConfig": _azuread_identity,
    "azure:core/getClientConfig:getClientConfig": _identity,
    "azure:core/getSubscription:getSubscription": _subscription,
}


def function_answer(arm: Arm, token: str, args: Mapping[str, Any]) -> dict[str, Any] | None:
    """Another provider's function answered above, or None."""
    found = FUNCTIONS.get(token)
    return found(arm, args) if found is not None else None


# An explicit azure-native provider (`azure_native.Provider(name, location=...)`): its `location` is the
# location azure-native gives a resource group created through it without one, as the stack's
# azure-native:location is the default provider's (pulumi-azure-native provider configuration, observed
# 2026-11-27). Its resources name it by reference, `<urn>::<id>`.
AZURE_NATIVE_PROVIDER = "pulumi:providers:azure-native"


def provider_location(type_token: str, made_up_id: str, inputs: Mapping[str, Any]) -> dict[str, str]:
    """{id: location} for an explicit azure-native provider that names a location; else nothing."""
    location = inputs.get("location")
    if type_token != AZURE_NATIVE_PROVIDER or not isinstance(location, str) or not location:
        return {}
    return {made_up_id: location}


def located_by_provider(
    props: dict[str, Any], provider_reference: str | None, locations: Mapping[str, str]
) -> dict[str, Any]:
    """A resource group's inputs with its explicit provider's location where the program gave it none."""
    if props.get("location") is not None or not provider_reference:
        return props
    location = locations.get(provider_reference.rsplit("::", 1)[-1])
    return {**props, "location": location} if location else props
