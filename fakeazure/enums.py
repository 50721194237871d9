"""Azure's published enums as an outside check: every enum-typed input is checked against the SDK's enum.

pulumi-azure-native generates its enum classes from Azure's REST API specs (Azure/azure-rest-api-specs,
the `enum` and `x-ms-enum` of each property) and types each input of its Args classes with them
(`compute.CachingTypes`, `compute.StorageAccountTypes`, `containerservice.OSSKU`...). This module
reads that typing from the installed SDK, never from a table of ours: for a resource type token it
finds the Args class, and for each property the camelCase name `pulumi.getter` gives it and the enum
or nested Args class its annotation names. A value outside the enum (compared case-insensitively, as
ARM compares enum values) is what ARM refuses with `InvalidParameter`.

Enums the specs mark as extensible (`modelAsString: true`, typed `Union[str, Enum]` in the SDK) are
checked too: Azure's services accept only the listed values for every enum this toolkit's resources
use. The exceptions, where Azure documents more values than the spec lists, are in `OPEN_ENUMS`,
each with its reason.

The map is built lazily, one Args class at a time, and cached for the life of the process.
"""

from __future__ import annotations

import collections.abc
import enum
import functools
import importlib
import typing
from dataclasses import dataclass
from typing import Any

from ..sdk.internals import getter_name
from .errors import InvalidParameter

# Enum types Azure accepts other values for than the SDK lists; each with why.
OPEN_ENUMS: dict[str, str] = {
    # The spec's list of VM sizes stopped being updated years ago; sizes are checked against the
    # size catalog and `az vm list-skus` instead (https://learn.microsoft.com/rest/api/compute/virtual-machines/create-or-update).
    "VirtualMachineSizeTypes": "sizes are checked against the catalog",
    "ContainerServiceVMSizeTypes": "sizes are checked against the catalog",
    # A data flow's streams name any stream its sources declare, the `Microsoft-PrometheusMetrics` stream of
    # Azure Managed Prometheus included: Azure's own onboarding template sends that stream through a data flow
    # (Azure/prometheus-collector AddonTerraformTemplate/main.tf, observed 2026-11-26), which the spec's list of five
    # Known values omits.
    "KnownDataFlowStreams": "a data flow carries any declared stream, Microsoft-PrometheusMetrics included",
}


@dataclass(frozen=True)
class EnumViolation:
    """One value outside its enum: where (camelCase path), what, and what is allowed."""

    path: str
    value: str
    allowed: tuple[str, ...]


@dataclass(frozen=True)
class _Shape:
    """What an annotation allows: enum values, nested Args classes, and whether it is a list or a map."""

    enums: tuple[type[enum.Enum], ...] = ()
    objects: tuple[type, ...] = ()
    container: str = ""  # "", "list" or "map"


def _members(tp: Any) -> list[Any]:
    """The leaf types of an annotation, with Input's Awaitable and Output wrappers dropped."""
    origin = typing.get_origin(tp)
    if origin is typing.Union:
        return [leaf for arg in typing.get_args(tp) for leaf in _members(arg)]
    if origin is collections.abc.Awaitable:
        return []  # Input[T] = Union[T, Awaitable[T], Output[T]]: T is already there
    if isinstance(tp, typing.ForwardRef) and tp.__forward_arg__.startswith("Output["):
        return []
    return [tp]


def _shape(tp: Any, namespace: dict[str, Any]) -> _Shape | None:
    enums: list[type[enum.Enum]] = []
    objects: list[type] = []
    container = ""
    for leaf in _members(tp):
        origin = typing.get_origin(leaf)
        if origin in (collections.abc.Sequence, list):
            inner = _shape(typing.get_args(leaf)[0], namespace)
            container = "list"
        elif origin in (collections.abc.Mapping, dict):
            inner = _shape(typing.get_args(leaf)[1], namespace)
            container = "map"
        else:
            inner = None
            name = leaf.__forward_arg__ if isinstance(leaf, typing.ForwardRef) else getattr(leaf, "__name__", "")
            found = namespace.get(name) if isinstance(name, str) else None
            if isinstance(found, type) and issubclass(found, enum.Enum):
                if found.__name__ not in OPEN_ENUMS:
                    enums.append(found)
            elif isinstance(found, type) and name.endswith("Args"):
                objects.append(found)
        if inner is not None:
            enums.extend(inner.enums)
            objects.extend(inner.objects)
    if not enums and not objects:
        return None
    return _Shape(tuple(dict.fromkeys(enums)), tuple(dict.fromkeys(objects)), container)


@functools.cache
def _properties(args_cls: type) -> dict[str, _Shape]:
    """camelCase property name -> what it allows, for one Args class (enum-bearing properties only)."""
    namespace = vars(importlib.import_module(args_cls.__module__.rsplit(".", 1)[0]))
    out: dict[str, _Shape] = {}
    for attr in vars(args_cls).values():
        fget = attr.fget if isinstance(attr, property) else None
        name = getter_name(fget)
        if fget is None or name is None:
            continue
        shape = _shape(fget.__annotations__.get("return"), namespace)
        if shape is not None:
            out[name] = shape
    return out


def sdk_module(token: str) -> tuple[Any, str] | None:
    """The installed SDK's package of an azure-native type token (`azure-native:network/v20230201:Subnet` too) and
    the type's name in it, or None: not a type token, or a module the SDK lacks."""
    try:
        _, module, kind = token.split(":")
        return importlib.import_module(f"pulumi_azure_native.{module.replace('/', '.')}"), kind
    except (ValueError, ImportError):
        return None


@functools.cache
def args_class(token: str) -> type | None:
    """The Args class of an azure-native resource type token, or None when the SDK has none."""
    found_module = sdk_module(token)
    if found_module is None:
        return None
    package, kind = found_module
    # `<Kind>InitArgs` where an input type took the name `<Kind>Args` (network.SubnetArgs is the inline
    # subnet of a VirtualNetwork; the Subnet resource's own is SubnetInitArgs)
    found = getattr(package, f"{kind}InitArgs", None) or getattr(package, f"{kind}Args", None)
    return found if isinstance(found, type) else None


def violations(token: str, props: dict[str, Any]) -> list[EnumViolation]:
    """Every enum-typed input of `props` whose value its SDK enum does not list."""
    cls = args_class(token)
    return _check_object(props, (cls,), "") if cls is not None else []


def _check_object(value: dict[str, Any], classes: tuple[type, ...], prefix: str) -> list[EnumViolation]:
    candidates = _discriminated(value, classes)
    results = [_check_fields(value, cls, prefix) for cls in candidates]
    # a value of a union type is wrong only if it is wrong as every member it could be
    return min(results, key=len) if results else []


def _discriminated(value: dict[str, Any], classes: tuple[type, ...]) -> tuple[type, ...]:
    """Members of a union picked by their discriminator (`computeType: AmlCompute` -> AmlComputeArgs)."""
    if len(classes) < 2:
        return classes
    tags = {v.lower() for v in value.values() if isinstance(v, str)}
    picked = tuple(c for c in classes if c.__name__.removesuffix("Args").lower() in tags)
    return picked or classes


def _check_fields(value: dict[str, Any], cls: type, prefix: str) -> list[EnumViolation]:
    found: list[EnumViolation] = []
    properties = _properties(cls)
    for key, item in value.items():
        shape = properties.get(key)
        if shape is None or item is None:
            continue
        path = f"{prefix}.{key}" if prefix else key
        if shape.container == "list" and isinstance(item, list):
            for i, element in enumerate(item):
                found.extend(_check_value(element, shape, f"{path}[{i}]"))
        elif shape.container == "map" and isinstance(item, dict):
            for k, element in item.items():
                found.extend(_check_value(element, shape, f"{path}.{k}"))
        else:
            found.extend(_check_value(item, shape, path))
    return found


def _check_value(item: Any, shape: _Shape, path: str) -> list[EnumViolation]:
    if isinstance(item, dict) and shape.objects:
        return _check_object(item, shape.objects, path)
    if isinstance(item, str) and shape.enums:
        allowed = tuple(str(m.value) for e in shape.enums for m in e)
        if item.lower() not in {a.lower() for a in allowed}:
            return [EnumViolation(path, item, allowed)]
    return []


def refuse_values_outside_enums(token: str, arm_type: str, name: str, props: dict[str, Any]) -> None:
    """Raise ARM's InvalidParameter for the first enum-typed input outside its enum."""
    found = violations(token, props)
    if found:
        first = found[0]
        raise InvalidParameter(
            f"The value '{first.value}' of {first.path} is not valid for {arm_type} '{name}'; allowed: "
            f"{', '.join(first.allowed)}."
        )
