"""Every pulumi-azure-native provider function the fake does not answer itself, answered from the SDK's schema.

The installed pulumi-azure-native SDK holds each function's result type: the function
`azure-native:<module>:<functionName>` is `pulumi_azure_native.<module>.<function_name>`, whose
`<FunctionName>Result` class has one `@pulumi.getter` property per field of Azure's response, typed
(`str`, `int`, `bool`, lists, maps and `outputs.*Response` types; the SDK is generated from the
provider's schema: github.com/pulumi/pulumi-azure-native `sdk/python`, observed 2026-11-26).

An answer is shaped from that type: a `get*` look-up of a resource this run created (or an `--existing`
file brought in) answers its properties, and every other field a placeholder of its type (a list holds
one element, so `keys[0].value` reads as it would); a field that carries a credential (a key's `value`,
a password, a connection string, a SAS token) is a secret, and so masked wherever it is shown. A
placeholder is never a fact about Azure: a plan's checks never read it. A function the installed SDK does
not have (a token no SDK defines) is refused with one line naming it; a 2.x token of a module 3.x renamed
(`documentdb:listDatabaseAccountKeys`, a 2.x program run in its own environment) is answered from the 3.x
function of the same name (Pulumi's "Upgrade Guide for Azure Native v2 to v3", the renames kept with the
type registry).
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
import typing
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..catalog.arm import registry
from ..catalog.arm.registry import MODULES_RENAMED_IN_3
from ..sdk.internals import getter_name, secret
from ..sdk.values import stable_uuid
from . import other_providers
from .errors import ArmError

if TYPE_CHECKING:
    from .core import Arm

SDK_PACKAGE = "pulumi_azure_native"
# Response fields that carry a credential: Azure's key, password, SAS and connection-string fields.
CREDENTIAL_FIELD = re.compile(
    r"(?i)(^value$|key$|keys$|password|secret|token$|connectionstring|sas$|credential|kubeconfig)"
)
# Response fields Azure gives as GUIDs (common-types ManagedServiceIdentity's principalId and tenantId, `format: uuid`;
# an Entra ID object's objectId and clientId: azure-rest-api-specs `common-types/resource-management/v5/
# managedidentity.json`, observed 2026-11-27): a placeholder of theirs is a GUID, as a role assignment that names
# a looked-up app's `identity.principal_id` checks it, never `offline-principalId`.
GUID_FIELDS = frozenset({"principalId", "tenantId", "objectId", "clientId"})
# Output types refer to each other (a public IP's ipConfiguration holds a subnet, which holds IP
# configurations...): nested types deeper than this are answered empty, as no program reads that far.
_DEPTH = 4


class FunctionNotAnswered(ArmError):
    """A provider function the installed pulumi-azure-native does not define: nothing offline can answer it."""

    def __str__(self) -> str:  # not Azure's answer, so no Azure code
        return self.message


@functools.cache
def result_type(token: str) -> type | None:
    """The `<Function>Result` class of `azure-native:<module>:<function>` in the installed SDK, or None.

    Found through the module's package, as a program finds it (`network.get_public_ip_address`): the
    SDK's packages load lazily (`_utilities.lazy_import`, importlib's LazyLoader), and importing one of
    their files before the package has loaded leaves the package without its names, in this process
    and every program forked from it."""
    parts = token.split(":")
    if len(parts) != 3 or parts[0] != "azure-native":
        return None
    # a 2.x program in its own environment calls 2.x tokens; 3.x has the same function under the module's new name
    for module in (parts[1], *MODULES_RENAMED_IN_3.get(parts[1], ())):
        found = _result_type_in(module.replace("/", "."), parts[2])
        if found is not None:
            return found
    return None


def _result_type_in(module: str, function: str) -> type | None:
    try:
        package = importlib.import_module(f"{SDK_PACKAGE}.{module}")
        getattr(package, "_utilities", None)  # any name loads a lazy package, as a program's first use does
        names = dir(package)
    except ImportError:
        return None
    wanted = function.lower()
    found = next((getattr(package, n) for n in names if n.replace("_", "").lower() == wanted), None)
    if not callable(found) or isinstance(found, type):
        return None
    result = f"{function}Result".lower()
    home = vars(sys.modules[found.__module__])
    classes = [c for n, c in home.items() if n.lower() == result and isinstance(c, type)]
    return classes[0] if classes else None


@functools.cache
def _fields(cls: type) -> dict[str, Any]:
    """Each response field's wire name and type, from the result (or output) type's getters."""
    out: dict[str, Any] = {}
    for attr, prop in vars(cls).items():
        if not isinstance(prop, property) or prop.fget is None:
            continue
        name = getter_name(prop.fget) or attr
        try:
            out[name] = typing.get_type_hints(prop.fget, vars(importlib.import_module(prop.fget.__module__))).get(
                "return", str
            )
        except Exception:  # noqa: BLE001 - a hint the SDK cannot resolve reads as text
            out[name] = str
    return out


def placeholder(name: str, hint: Any, depth: int = 0) -> Any:
    """A value of `hint`'s shape for field `name`; credentials secret."""
    origin = typing.get_origin(hint)
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if origin is typing.Union and args:
        return placeholder(name, args[0], depth)
    if origin in (list, Sequence, typing.Sequence) or (origin is not None and _is_sequence(origin)):
        return [placeholder(name, args[0] if args else str, depth + 1)] if depth < _DEPTH else []
    if origin in (dict, Mapping, typing.Mapping) or (origin is not None and _is_mapping(origin)):
        return {}
    if hint is bool:
        return False
    if hint in (int, float):
        return 0
    if isinstance(hint, type) and hint is not str and depth < _DEPTH and _fields(hint):
        return {field: placeholder(field, sub, depth + 1) for field, sub in _fields(hint).items()}
    if name in GUID_FIELDS:
        return stable_uuid("offline", name)
    text = f"offline-{name}"
    return secret(text) if CREDENTIAL_FIELD.search(name) else text


def _is_sequence(origin: Any) -> bool:
    return isinstance(origin, type) and issubclass(origin, Sequence) and not issubclass(origin, str)


def _is_mapping(origin: Any) -> bool:
    return isinstance(origin, type) and issubclass(origin, Mapping)


def _looked_up(arm: Arm, args: Mapping[str, Any]) -> dict[str, Any] | None:
    """For a `get*` function: the one resource of the run named by its arguments (group and name), if any."""
    names = [str(v) for k, v in args.items() if k.endswith("Name") and k != "resourceGroupName" and v]
    group = args.get("resourceGroupName")
    if not names:
        return None
    found = [
        r
        for r in arm.resources()
        if not r.failed
        and r.name == names[-1]
        and (group is None or str(r.resource_group).lower() == str(group).lower())
    ]
    if len(found) != 1:
        return None
    return {**found[0].properties, **found[0].outputs, "id": found[0].id, "name": found[0].name}


def answer_from_schema(arm: Arm, token: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """An answer to `token` shaped from its result type, or FunctionNotAnswered."""
    if not token.startswith("azure-native:"):
        return _other_providers_function(arm, token, args)
    cls = result_type(token)
    if cls is None:
        raise FunctionNotAnswered(
            f"the installed pulumi-azure-native (3.x) has no function '{token}'; offline, only the provider's own "
            "functions are answered: run the program in the environment it was written for (--create-venv)"
        )
    getter = token.split(":")[-1].startswith("get")
    known = (_looked_up(arm, args) or _named_by_arguments(arm, token, args)) if getter else None
    return {
        name: (known[name] if known is not None and name in known else placeholder(name, hint))
        for name, hint in _fields(cls).items()
    }


def _other_providers_function(arm: Arm, token: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """A function of another provider (azuread's, the classic azure provider's): the identity and subscription
    ones answered (`other_providers.FUNCTIONS`), any other one line naming it."""
    answer = other_providers.function_answer(arm, token, args)
    if answer is not None:
        return answer
    provider = token.split(":", 1)[0]
    raise FunctionNotAnswered(
        f"'{token}' is a function of the {provider} provider, not of Azure Resource Manager: offline, only "
        f"azure-native's functions and {', '.join(sorted(other_providers.FUNCTIONS))} are answered, so nothing "
        "offline can answer it"
    )


def _named_by_arguments(arm: Arm, token: str, args: Mapping[str, Any]) -> dict[str, Any] | None:
    """For `get<Type>` of a resource the run does not hold: the envelope Azure's GET answers with, from the
    arguments that name it in the type's id shape (the type registry's, as export-arm places `<Type>`):
    `get_role_definition(scope=..., role_definition_id=...)` answers the role's ARM id, which a role
    assignment then names, never a placeholder in its place. None where the arguments do not name every part."""
    module, function = token.split(":")[1:]
    place = registry.placement(f"azure-native:{module}:{function[3:4].upper()}{function[4:]}")
    if place is None or not place.name_input or not all(args.get(n) for n in place.path_inputs):
        return None
    own = str(args[place.name_input])
    return {
        "id": registry.resource_id(place, dict(args), own, arm.subscription_id),
        "name": own,
        "type": place.arm_type,
    }
