"""The ARM resource types the fake knows, one module per Azure namespace, composed into one registry.

Laid out as moto lays out a service (getmoto/moto, `moto/ec2/models/`: one module per kind of
resource, composed into one backend): each module here holds the types of one pulumi-azure-native
module (one Azure resource provider) with ARM's property names, and lists them in `TYPES` (and the
provider functions it answers in `INVOKES`). This package composes them; `backend.FakeArm` is the one
backend that stores resources and runs the checks; `errors` holds ARM's error codes; `core` the base
class; `util` the helpers every layer shares.

Not faked anywhere: long-running operations (every PUT succeeds at once), updates and deletes (each
run starts from an empty subscription), API-version differences, RBAC, and any property no module
reads. Resource types without a class are accepted as they are, with a real-shaped id: of the
types the shipped components, stacks and the team corpus (tests/data/teams) create, every one has a
class (the Kubernetes resources of an AKS stack are not ARM resources: not faked). Each namespace module lists what it
does not fake of its own.
"""

from __future__ import annotations

import functools

from ...catalog.arm import registry
from ..core import ArmResourceType, Invoke
from . import (
    alertsmanagement,
    applicationinsights,
    authorization,
    batch,
    compute,
    consumption,
    containerregistry,
    containerservice,
    devtestlab,
    keyvault,
    machinelearningservices,
    managedidentity,
    monitor,
    network,
    operationalinsights,
    resources,
    storage,
)

NAMESPACES = (
    resources,
    network,
    compute,
    devtestlab,
    monitor,
    alertsmanagement,
    consumption,
    containerservice,
    authorization,
    storage,
    keyvault,
    managedidentity,
    operationalinsights,
    applicationinsights,
    containerregistry,
    machinelearningservices,
    batch,
)

RESOURCE_TYPES: dict[str, ArmResourceType] = {t.token: t for ns in NAMESPACES for t in ns.TYPES}
INVOKES: dict[str, Invoke] = {token: f for ns in NAMESPACES for token, f in getattr(ns, "INVOKES", {}).items()}


def resource_type(token: str) -> ArmResourceType:
    """The type registered for `token`, or a generic one accepting the resource as given."""
    return RESOURCE_TYPES.get(token) or _generic_type(token)


@functools.cache
def _generic_type(token: str) -> ArmResourceType:
    """A type the fake has no class for: accepted as given, placed where the type registry
    (`catalog.arm.registry`, the one both the fake and export-arm read) says ARM places it; a type the
    registry cannot place gets an id shaped from its token, in its resource group."""
    _, module, kind = token.split(":", 2)
    place = registry.placement(token)

    class Generic(ArmResourceType):
        arm_type = place.arm_type if place else f"Microsoft.{module}/{kind[0].lower()}{kind[1:]}s"
        name_input = place.name_input if place else f"{kind[0].lower()}{kind[1:]}Name"
        # its parent is looked for only where the registry places the parent's type too (else the parent's id
        # is one the fake made up, and a child of a parent the program creates would be refused)
        parent_inputs = place.parent_inputs if place and registry.parent_placed(place) else ()
        scoped = place.scoped if place else False
        scope_input = (place.scope_input or "scope") if place else "scope"
        located = place.located if place else True

    Generic.token = token
    return Generic()


__all__ = ["INVOKES", "NAMESPACES", "RESOURCE_TYPES", "resource_type"]
