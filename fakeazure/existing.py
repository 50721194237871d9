"""Existing Azure resources a program joins instead of creating, from the JSON the Azure CLI prints.

Teams look up what another team or another stack made (a hub VNet and its subnets, a key vault, an
AKS cluster, an Azure ML workspace, a managed identity) with azure-native's `get_*` functions, or
read one with `<Resource>.get(name, id)`. Offline there is no Azure to ask, so each such resource
comes from a file `--existing FILE` names: the JSON object (or a list of them) that `az resource
show --ids ID -o json` prints, or a type's own `show` command (`az network vnet show`, `az aks show`,
`az keyvault show`, `az identity show`), which print the same resource with its `properties`
flattened into the top level. A VNet's `subnets` are adopted too, each with its own id.

Adopted resources live in the fake subscription like created ones: look-ups and reads answer from
them, ids that point at them resolve, and ARM's checks against them are real (a subnet too small,
a cluster in another region). A look-up or read of anything else fails as ARM would
(`ResourceNotFound`), naming the function, the id and how to supply it.

Sources (observed 2026-11-22): Azure CLI `az resource show`
(https://learn.microsoft.com/cli/azure/resource#az-resource-show) and the ARM resource envelope
(https://learn.microsoft.com/azure/azure-resource-manager/templates/syntax#resources).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..inputs.files import shown
from .backend import FakeArm, ResourceGroupState, SubscriptionState
from .core import Resource
from .lookups import answer
from .models.resources import RESOURCE_GROUP_ARM_TYPE

# Keys of ARM's resource envelope; everything else `az` prints at the top level is a property.
ENVELOPE = frozenset(
    {
        "id",
        "name",
        "type",
        "location",
        "tags",
        "resourceGroup",
        "etag",
        "sku",
        "identity",
        "kind",
        "zones",
        "systemData",
        "extendedLocation",
        "managedBy",
        "plan",
    }
)
# Types whose azure-native inputs keep a `properties` object; the others take properties at the top.
KEEPS_PROPERTIES = frozenset({"microsoft.keyvault/vaults", "microsoft.machinelearningservices/workspaces/computes"})
RESOURCE_ID = re.compile(
    r"(?i)^/subscriptions/(?P<subscription>[^/]+)(?:/resourceGroups/(?P<group>[^/]+))?(?:/providers/(?P<path>.+))?$"
)


class ExistingFileError(ValueError):
    """A file of existing resources that cannot be used; the message is the one line to print."""


@dataclass(frozen=True)
class Existing:
    id: str
    type: str  # Microsoft.Network/virtualNetworks/subnets
    name: str
    subscription: str
    resource_group: str | None
    location: str | None
    properties: dict[str, Any]  # as azure-native's inputs hold them
    tags: dict[str, str]


def arm_type_of(resource_id: str) -> str:
    """`Microsoft.Network/virtualNetworks/subnets` for a subnet's id; `Microsoft.Resources/resourceGroups`
    for a group's."""
    match = RESOURCE_ID.match(resource_id)
    if match is None:
        raise ValueError(resource_id)
    if match["path"] is None:
        return "Microsoft.Resources/resourceGroups" if match["group"] else "Microsoft.Resources/subscriptions"
    namespace, *rest = match["path"].split("/")
    return "/".join([namespace, *rest[0::2]])


def parse(data: Any, label: str) -> list[Existing]:
    """The resources in one file: an object or a list of objects as `az ... show` / `az resource list` print."""
    items = data if isinstance(data, list) else [data]
    found: list[Existing] = []
    for index, item in enumerate(items):
        where = f"{label}: [{index}]" if isinstance(data, list) else label
        found += _resource(item, where)
    return found


def _resource(item: Any, where: str) -> list[Existing]:
    if not isinstance(item, dict):
        raise ExistingFileError(f"{where}: a {type(item).__name__}; allowed: the JSON object `az resource show` prints")
    resource_id = item.get("id")
    match = RESOURCE_ID.match(resource_id) if isinstance(resource_id, str) else None
    if match is None or not isinstance(resource_id, str):
        raise ExistingFileError(
            f"{where}: id: {resource_id!r}; allowed: an ARM resource id "
            "(/subscriptions/<id>/resourceGroups/<group>/providers/...)"
        )
    arm_type = arm_type_of(resource_id)
    given = item.get("type")
    if isinstance(given, str) and given.lower() != arm_type.lower():
        raise ExistingFileError(f"{where}: type: {given!r} does not match the id, which names a {arm_type}")
    if "properties" in item and isinstance(item["properties"], dict) and arm_type.lower() not in KEEPS_PROPERTIES:
        properties = {**item["properties"]}
    else:
        properties = {k: v for k, v in item.items() if k not in ENVELOPE}
    location = item.get("location")
    tags = item.get("tags") if isinstance(item.get("tags"), dict) else {}
    found = [
        Existing(
            id=resource_id,
            type=arm_type,
            name=resource_id.rstrip("/").rsplit("/", 1)[-1],
            subscription=match["subscription"],
            resource_group=match["group"],
            location=str(location).replace(" ", "").lower() if isinstance(location, str) else None,
            properties=properties,
            tags=dict(tags or {}),
        )
    ]
    subnets = properties.get("subnets")
    if subnets is not None and not isinstance(subnets, list):
        raise ExistingFileError(
            f"{where}: subnets: {shown(subnets)}; allowed: a list of subnet objects, as `az network vnet show` prints"
        )
    for index, child in enumerate(subnets or []):  # a VNet lists its subnets, each with its id
        if isinstance(child, dict) and isinstance(child.get("id"), str):
            found += _resource({**child, "location": location}, f"{where}: subnets[{index}]")
    return found


def as_resource(existing: Existing) -> Resource:
    res = Resource(
        existing.id, existing.type, existing.name, existing.resource_group, existing.location, dict(existing.properties)
    )
    res.outputs = answer(res, existing.tags)
    return res


def adopt(arm: FakeArm, existing: Sequence[Existing]) -> None:
    """Put `existing` in the fake subscription before the program runs.

    When they all live in one subscription, that is the one the program deploys into (the one
    `az login` had selected when they were saved), so the ids of both agree.
    """
    subscriptions = {e.subscription.lower(): e.subscription for e in existing}
    if len(subscriptions) == 1 and not arm.resources():
        arm.subscription_id = arm.az_subscription = next(iter(subscriptions.values()))
        arm.subscriptions = {arm.subscription_id: SubscriptionState(arm.subscription_id)}
    # ARM compares subscription ids without case; one index of them keeps adopting linear in the file
    keys = {k.lower(): k for k in arm.subscriptions}
    for item in sorted(existing, key=lambda e: e.type != RESOURCE_GROUP_ARM_TYPE):  # groups first
        key = keys.setdefault(item.subscription.lower(), item.subscription)
        state = arm.subscriptions.setdefault(key, SubscriptionState(key))
        res = as_resource(item)
        if item.type == RESOURCE_GROUP_ARM_TYPE:
            state.resource_groups.setdefault(res.name.lower(), ResourceGroupState(res)).group = res
        elif item.resource_group is None:
            state.resources[res.id.lower()] = res
        else:
            group_id = f"/subscriptions/{key}/resourceGroups/{item.resource_group}"
            placeholder = Resource(
                group_id, RESOURCE_GROUP_ARM_TYPE, item.resource_group, item.resource_group, item.location, {}
            )
            state.resource_groups.setdefault(item.resource_group.lower(), ResourceGroupState(placeholder)).resources[
                res.id.lower()
            ] = res
