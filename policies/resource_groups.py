"""Which resource group a resource of the stack lives in, and which resource groups a budget covers.

Used by the stack policies that pair resources (a GPU resource with its budget). During preview an
id or name can be unknown; then the resource's dependencies say which `ResourceGroup` of the stack it
was built from, as the engine reports them to stack policies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .values import UNKNOWN, get, text

RESOURCE_GROUP_TYPE = "azure-native:resources:ResourceGroup"
RESOURCE_GROUP_SCOPE = re.compile(r"(?i)^/subscriptions/(?P<sub>[^/]+)/resourcegroups/(?P<rg>[^/]+)/?$")
SUBSCRIPTION_SCOPE = re.compile(r"(?i)^/subscriptions/(?P<sub>[^/]+)/?$")
# Scopes above a subscription: a budget there watches every subscription below it.
BROAD_SCOPE = re.compile(r"(?i)^/providers/Microsoft\.(Management/managementGroups|Billing/billingAccounts)/")


@dataclass(frozen=True)
class Coverage:
    """What a budget scope watches: every resource group (None) or the named ones (lower case)."""

    resource_groups: frozenset[str] | None
    described: str

    def covers(self, resource_group: str | None) -> bool:
        if self.resource_groups is None or resource_group is None:
            return True  # the whole subscription, or a group that cannot be known before deployment
        return resource_group.lower() in self.resource_groups


def resource_group_of(resource: Any) -> str | None:
    """The resource's group name (as written), or None when it cannot be known."""
    if resource.resource_type == RESOURCE_GROUP_TYPE:
        return _group_name(resource)
    name = text(get(resource.props, "resourceGroupName"))
    if name is not None:
        return name
    return _dependency_group(resource, "resourceGroupName")


def scope_coverage(scope: Any, resource: Any | None = None) -> Coverage | None:
    """What a budget `scope` watches; None when the scope is not a budget scope at all."""
    value = text(scope)
    if value is None:
        group = _dependency_group(resource, "scope") if resource is not None and scope is UNKNOWN else None
        if group is not None:
            return Coverage(frozenset({group.lower()}), f"resource group {group}")
        if scope is UNKNOWN:
            return Coverage(None, "a scope known only after deployment")
        return None
    if match := RESOURCE_GROUP_SCOPE.match(value):
        return Coverage(frozenset({match["rg"].lower()}), f"resource group {match['rg']}")
    if SUBSCRIPTION_SCOPE.match(value) or BROAD_SCOPE.match(value):
        return Coverage(None, value)
    return None


def _group_name(resource: Any) -> str | None:
    return text(get(resource.props, "resourceGroupName")) or text(get(resource.props, "name"))


def _dependency_group(resource: Any, prop: str) -> str | None:
    """The group of the stack's ResourceGroup that `prop` (or else the resource) depends on."""
    candidates = dependencies_of(resource, prop)
    for dep in candidates:
        if getattr(dep, "resource_type", None) == RESOURCE_GROUP_TYPE:
            name = _group_name(dep)
            if name is not None:
                return name
    return None


def dependencies_of(resource: Any, prop: str) -> list[Any]:
    """The stack resources `prop` depends on, then every dependency of the resource (engine order)."""
    by_property = getattr(resource, "property_dependencies", None) or {}
    found = list(by_property.get(prop) or []) if isinstance(by_property, dict) else []
    return found + list(getattr(resource, "dependencies", None) or [])
