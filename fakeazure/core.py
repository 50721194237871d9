"""What every faked ARM resource type is made of: the stored `Resource`, the `ArmResourceType` base
class whose hooks each namespace module fills in, and the checks several namespaces share.

Each class says how ARM names and places the resource (its type, the input that carries its name,
the inputs naming its parents), what ARM checks before accepting a PUT, and what it returns
(`provisioningState` and the computed properties programs read).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..catalog.names import NameRule
from ..sdk.values import dig, stable_uuid
from .errors import ArmError, InvalidParameter

if TYPE_CHECKING:
    import datetime as dt

    from ..catalog import Catalog


@dataclass
class Resource:
    """A resource as the fake subscription holds it."""

    id: str
    type: str  # ARM type, e.g. Microsoft.Compute/virtualMachines
    name: str
    resource_group: str | None
    location: str | None
    properties: dict[str, Any]
    failed: bool = False
    outputs: dict[str, Any] = field(default_factory=dict)


class Arm(Protocol):
    """What the resource types' hooks, the provider functions and the lookups read of the one fake subscription
    (`backend.FakeArm`, which imports them all): a protocol here, so that nothing the backend imports imports it
    back, not even for type checks."""

    subscription_id: str
    tenant_id: str
    client_id: str
    deployer_principal_type: str
    default_location: str | None
    catalog: Catalog
    now: dt.datetime
    az_subscription: str | None
    advisories: list[str]  # rules without a public refusal, said as plan warnings (`advise`)

    def resources(self) -> list[Resource]: ...

    def find(self, resource_id: str) -> Resource | None: ...

    def require(self, resource_id: Any, path: str) -> Resource | None: ...

    def parent_of(self, rtype: ArmResourceType, props: dict[str, Any]) -> Resource: ...

    def next_address(self, prefix: str) -> str: ...


class ArmResourceType:
    """An ARM resource type. Subclasses set the class variables and override the hooks.

    Where a type keeps its VM sizes, node counts and priority is not here but in the one shape table
    (`azure_gpu_stacks.catalog.shapes`), which the backend reads for sizes and quota.
    """

    token: ClassVar[str] = ""  # pulumi-azure-native type token
    arm_type: ClassVar[str] = ""  # Namespace/type[/childType]
    name_input: ClassVar[str] = ""  # input holding the resource's own name
    parent_inputs: ClassVar[tuple[str, ...]] = ()  # inputs naming each parent, outermost first
    scoped: ClassVar[bool] = False  # an extension resource placed under the `scope` input
    scope_input: ClassVar[str] = "scope"  # the input naming an extension resource's scope (`resourceUri` for some)
    located: ClassVar[bool] = True  # takes a `location`
    autoname_max: ClassVar[int] = 64

    def check_first(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        """Raise what ARM answers before its generic checks (a retired enum value's own code)."""

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        """Raise the ArmError ARM would return for this PUT."""

    def quota_refusal(self, name: str, props: dict[str, Any], error: ArmError) -> ArmError:
        """The error this type's provider returns when its nodes exceed a vCPU quota (Compute's by default)."""
        return error

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        """Read-only properties ARM returns."""
        return {}

    def children(self, arm: Arm, res: Resource) -> list[Resource]:
        """Child resources ARM creates from the body's own inline list (a VNet's `subnets`)."""
        return []


# A function of the provider (`azure-native:<module>:<function>`), answered from the fake's state.
Invoke = Callable[["Arm", dict[str, Any]], dict[str, Any]]


def location_of(arm: Arm, props: dict[str, Any]) -> str | None:
    """Where a resource lands: its `location`, else its resource group's (as azure-native defaults it)."""
    location = props.get("location")
    if location is None and props.get("resourceGroupName") is not None:
        group = arm.find(f"/subscriptions/{arm.subscription_id}/resourceGroups/{props['resourceGroupName']}")
        location = group.location if group is not None else None
    return str(location).replace(" ", "").lower() if location is not None else None


def advise(arm: Arm, where: str, rule: str) -> None:
    """A rule the fake knows but cannot refuse with: no public source gives Azure's refusal (its code or that it
    refuses at all), so it is an advisory, a plan warning, never a refusal (fakeazure/model_rules.py ADVISORIES)."""
    arm.advisories.append(f"{where}: {rule} (no public source for Azure's refusal: an advisory)")


def check_ssh_only(linux: dict[str, Any], path: str) -> None:
    """A Linux VM or scale set with password login off needs an SSH key."""
    if linux.get("disablePasswordAuthentication") and not dig(linux, "ssh", "publicKeys"):
        raise InvalidParameter(
            f"Linux VMs with password authentication disabled need at least one SSH public key ({path}.ssh.publicKeys)."
        )


def system_identity(arm: Arm, res: Resource) -> dict[str, Any]:
    """The principal ARM creates for a system-assigned identity, as the resource's `identity` output."""
    identity = res.properties.get("identity")
    if isinstance(identity, dict) and "SystemAssigned" in str(identity.get("type", "")):
        return {"identity": {**identity, "principalId": stable_uuid(res.id, "principal"), "tenantId": arm.tenant_id}}
    return {}


def identity_answer(outputs: dict[str, Any]) -> dict[str, Any]:
    """`outputs` with `identity` as ARM answers it: user-assigned identities as a map keyed by each identity's id, each
    with its principal and client ids. pulumi-azure-native takes them as a list of ids and sends the map
    (the REST body's `userAssignedIdentities` is an object keyed by resource id, e.g. the spec's
    `ManagedServiceIdentity` in common-types v5 managedidentity.json); its outputs are typed as that map,
    so answering the list back is what a real ARM never does (and the SDK cannot read)."""
    identity = outputs.get("identity")
    assigned = identity.get("userAssignedIdentities") if isinstance(identity, dict) else None
    if not isinstance(identity, dict) or not isinstance(assigned, list):
        return outputs
    answered = {
        str(uid): {"principalId": stable_uuid(str(uid), "principal"), "clientId": stable_uuid(str(uid), "client")}
        for uid in assigned
    }
    return {**outputs, "identity": {**identity, "userAssignedIdentities": answered}}


def scope_id(scope: Any) -> Any:
    """An extension resource's `scope` as an id: azure-native and the spec's `/{scope}/providers/...`
    path take it with or without the leading slash (`subscriptions/...`), ARM's ids have one."""
    return (
        f"/{scope.lstrip('/')}"
        if isinstance(scope, str) and scope.lstrip("/").lower().startswith("subscriptions/")
        else scope
    )


def expect_type(found: Resource | None, arm_type: str, path: str) -> None:
    """ARM refuses a dependency id that names a resource of another type."""
    if found is not None and found.type.lower() != arm_type.lower():
        raise InvalidParameter(f"{path}: '{found.id}' is a {found.type}, not a {arm_type}.")


def require_named(name: str, rule: NameRule, what: str) -> None:
    """ARM's refusal of a name its type does not allow (the rules live in one table, catalog/arm/name_rules.json)."""
    if not rule.matches(name):
        raise InvalidParameter(f"'{name}' is not a valid {what} name; allowed: {rule.allowed}.")
