"""The fake Azure Resource Manager: an in-memory subscription that accepts or refuses PUTs as ARM would.

State is held per subscription, then per resource group, then per resource id (ids compare case-insensitively, as
ARM's do). Every run starts from an empty subscription; use `fake_arm()` (a context manager) or the `fake_arm`
pytest fixture to get a fresh one.

What it checks before accepting a resource: that its resource group and parents exist, that every resource id it
references in this subscription exists (ids in other subscriptions are taken to be resources managed elsewhere),
that the name is not taken, that the region is a real one, that each VM size is a size and not retired
(`catalog.verdict`: a well-formed name the catalog does not know is taken), offered in the region and allowed for
the subscription (when a `az vm list-skus` file is given), that the vCPUs fit the quota (when a `az vm list-usage`
file is given; for Azure ML computes, a `az ml compute list-usage` file: see `quota`), that every enum-typed input
is one of the values Azure publishes (`enums`) and the REST body meets the constraints Azure's spec states
(`spec`), the rules Azure states only in prose (names from Learn's resource-name-rules table, OS profiles,
addresses, ports: `prose`), plus the per-type checks of each namespace module in `models`. A VNet's inline
subnets become child resources, as Azure creates them (`ArmResourceType.children`). While a program runs, a child it
registers before the parent it names waits for that parent and is judged once it exists (`parents_may_follow`).
Refusals carry the codes Azure returns to a direct PUT (`errors`).

Not faked: see `models`; also management groups, billing scopes, cross-subscription state, capacity
(`AllocationFailed`), proximity placement intents Azure cannot satisfy (`OverconstrainedAllocationRequest`),
unregistered resource providers (`MissingSubscriptionRegistration`), the deployer's own permissions
(`AuthorizationFailed`) and the minutes a new role assignment takes to apply.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..catalog import Catalog, catalog, normalize_region, normalize_size_name
from ..catalog.arm import registry
from ..catalog.az_files import SkuOffer, Usage
from ..catalog.clock import instant_on
from ..catalog.quota_counters import Charge, Provider, charges
from ..catalog.shapes import read as read_shapes
from ..catalog.verdict import size_verdict
from ..inputs.offline_secret import holds_offline_secret
from .core import ArmResourceType, Resource, identity_answer, scope_id, system_identity
from .enums import refuse_values_outside_enums
from .errors import (
    ArmError,
    Conflict,
    InvalidParameter,
    LocationNotAvailableForResourceType,
    ParentResourceNotFound,
    ResourceGroupNotFound,
    ResourceNotFound,
    SkuNotAvailable,
)
from .functions import answer_from_schema
from .lookups import group_not_held, reference_not_held
from .models import INVOKES, RESOURCE_TYPES, resource_type
from .models.defaults import with_defaults
from .models.resources import RESOURCE_GROUP as ResourceGroupType
from .models.resources import RESOURCE_GROUP_ARM_TYPE as ResourceGroupArmType
from .offline_secrets import Layer, first_refusal, refusals_whatever_the_secret
from .planned import previewed_outputs
from .prose import prose_refusals
from .quota import Ledger, Taking
from .spec import is_wrong_type, spec_refusals

FAKE_SUBSCRIPTION_ID = "00000000-0000-0000-0000-0000000000aa"
FAKE_TENANT_ID = "00000000-0000-0000-0000-0000000000bb"
FAKE_CLIENT_ID = "00000000-0000-0000-0000-0000000000cc"
AZURE_RESERVED_HOSTS = 4  # Azure keeps the first four addresses of every subnet


class DependencyFailed(Exception):
    """A resource depends on one ARM refused; Pulumi would not attempt it."""

    def __init__(self, dependency: Resource):
        super().__init__(dependency.id)
        self.dependency = dependency


@dataclass(frozen=True)
class Refusal:
    """A PUT that ARM refused: which resource, ARM's error code and message."""

    resource: str  # the Pulumi logical name
    type: str  # the Pulumi type token
    code: str
    message: str


@dataclass(frozen=True)
class WaitingChild:
    """A child registered before the parent it names (no dependency between them in the program): its PUT, kept
    until the program creates that parent (`FakeArm.put` answers it then) or ends without it (`settle`)."""

    token: str
    logical_name: str
    props: dict[str, Any]
    urn: str
    partly_known: bool
    missing: ParentResourceNotFound  # what ARM answers while the parent does not exist


@dataclass
class ResourceGroupState:
    group: Resource
    resources: dict[str, Resource] = field(default_factory=dict)


@dataclass
class SubscriptionState:
    id: str
    resource_groups: dict[str, ResourceGroupState] = field(default_factory=dict)
    resources: dict[str, Resource] = field(default_factory=dict)  # subscription-scoped


class FakeArm:
    """One fake subscription, its reference data, and what happened to every PUT."""

    def __init__(
        self,
        *,
        default_location: str | None = None,
        usage: dict[str, Usage] | None = None,
        aml_usage: dict[str, Usage] | None = None,
        skus: dict[str, SkuOffer] | None = None,
        sizes: Catalog | None = None,
        now: dt.datetime | None = None,
        deployer_principal_type: str = "User",
        check_enums: bool = True,
    ):
        self.subscription_id = FAKE_SUBSCRIPTION_ID
        self.tenant_id = FAKE_TENANT_ID
        self.client_id = FAKE_CLIENT_ID
        # What runs `pulumi up`: User (az login) or ServicePrincipal (CI); role assignments naming
        # the deployer with the other type are refused, as ARM refuses them.
        self.deployer_principal_type = deployer_principal_type
        self.check_enums = check_enums  # Azure's published enums as an outside check (`enums`)
        self.default_location = default_location
        self.usage = usage  # Microsoft.Compute's counters (`az vm list-usage`)
        self.aml_usage = aml_usage  # Azure ML's own counters (`az ml compute list-usage`)
        self.skus = skus
        self.catalog = sizes or catalog()
        # Sizes are judged on now's date: the caller's day (`gpu-stacks --as-of`), else today in UTC.
        self.now = now or instant_on(None)
        self.subscriptions = {self.subscription_id: SubscriptionState(self.subscription_id)}
        self.refusals: list[Refusal] = []
        self.unknown_reads: list[str] = []  # `<Resource>.get` of ids the subscription does not hold
        self.unknown_groups: list[str] = []  # groups deployed into that neither the program nor a file holds
        self.advisories: list[str] = []  # what Azure no longer creates without a public error code (a warning)
        self.az_subscription: str | None = None  # the deployer's subscription, once --existing files named it
        self.skipped: list[tuple[str, str]] = []  # (logical name, refused dependency id)
        self.quota = Ledger()  # vCPUs the PUTs so far have taken
        self._allocated: dict[str, int] = defaultdict(int)
        self._inline_children: set[str] = set()  # ids created from a parent's inline list (`children`)
        # True while a program runs (`mocks`): a child whose parent does not exist yet waits for the parent, which the
        # program may create later (Azure accepts the child's PUT once the parent's succeeded); False: refused at once
        self.parents_may_follow = False
        self._waiting: dict[str, list[WaitingChild]] = defaultdict(list)  # parent id (lower case) -> its children

    # --- state -------------------------------------------------------------------------------

    @property
    def subscription(self) -> SubscriptionState:
        return self.subscriptions[self.subscription_id]

    def resources(self) -> list[Resource]:
        """Every resource in the subscription, groups first, in creation order."""
        out: list[Resource] = []
        for rg in self.subscription.resource_groups.values():
            out.append(rg.group)
            out.extend(rg.resources.values())
        out.extend(self.subscription.resources.values())
        return out

    def find(self, resource_id: str) -> Resource | None:
        """The resource at `resource_id` in any subscription the fake holds (see `existing.adopt`)."""
        key = resource_id.lower()
        for subscription in self.subscriptions.values():
            for rg in subscription.resource_groups.values():
                if rg.group.id.lower() == key:
                    return rg.group
                if key in rg.resources:
                    return rg.resources[key]
            if key in subscription.resources:
                return subscription.resources[key]
        return None

    def _in_this_subscription(self, resource_id: str) -> bool:
        return any(resource_id.lower().startswith(f"/subscriptions/{sub}/".lower()) for sub in self.subscriptions)

    def require(self, resource_id: Any, path: str) -> Resource | None:
        """The resource `resource_id` points at; None when it lives in another subscription."""
        if not isinstance(resource_id, str) or not resource_id.startswith("/subscriptions/"):
            raise InvalidParameter(f"{path}: {resource_id!r} is not a resource id.")
        if not self._in_this_subscription(resource_id):
            return None
        found = self.find(resource_id)
        if found is None:
            if (not_held := reference_not_held(self, resource_id, path)) is not None:  # only Azure knows
                self.unknown_groups.append(not_held)
            raise ResourceNotFound(f"The Resource '{resource_id}' was not found ({path}).")
        if found.failed:
            raise DependencyFailed(found)
        return found

    def _resource_group(self, name: Any) -> ResourceGroupState:
        rg = self.subscription.resource_groups.get(str(name).lower())
        if rg is None:
            refused = self.find(f"/subscriptions/{self.subscription_id}/resourceGroups/{name}")
            if refused is not None and refused.failed:  # the program's own group, which Azure refused
                raise DependencyFailed(refused)
            # Azure's answer where the group does not exist; offline that cannot be known
            self.unknown_groups.append(group_not_held(str(name)))
            raise ResourceGroupNotFound(f"Resource group '{name}' could not be found.")
        if rg.group.failed:
            raise DependencyFailed(rg.group)
        return rg

    def parent_of(self, rtype: ArmResourceType, props: dict[str, Any]) -> Resource:
        """The nearest parent of a nested resource (a subnet's virtual network...) that a program creates: one
        with a fixed name between (a blob container's `blobServices/default`) is Azure's own, skipped."""
        parent_id = self.parent_id(rtype, props)
        found = self.find(parent_id)
        if found is None:
            kind = rtype.arm_type.split("/")[-1 - self._parent_levels(rtype)]
            raise ParentResourceNotFound(
                f"Can not perform requested operation on nested resource. Parent resource "
                f"'{parent_id.rsplit('/', 1)[-1]}' not found ({kind})."
            )
        if found.failed:
            raise DependencyFailed(found)
        return found

    def parent_id(self, rtype: ArmResourceType, props: dict[str, Any]) -> str:
        """The id of the nearest parent a program creates (`parent_of`)."""
        parent_id = self._resource_id(rtype, props, "-")
        for _ in range(self._parent_levels(rtype)):
            parent_id = parent_id.rsplit("/", 2)[0]
        return parent_id

    @staticmethod
    def _parent_levels(rtype: ArmResourceType) -> int:
        place = registry.placement(rtype.token)
        return 1 + (place.fixed_parents if place else 0)

    # --- ids and names -----------------------------------------------------------------------

    def _resource_id(self, rtype: ArmResourceType, props: dict[str, Any], name: str) -> str:
        if rtype.token not in RESOURCE_TYPES and (place := registry.placement(rtype.token)) is not None:
            return registry.resource_id(place, props, name, self.subscription_id)  # the one registry's id shape
        namespace, *types = rtype.arm_type.split("/")
        if rtype.token == ResourceGroupType:
            return f"/subscriptions/{self.subscription_id}/resourceGroups/{name}"
        if rtype.scoped:
            scope = scope_id(props.get(rtype.scope_input, ""))
            return f"{str(scope).rstrip('/')}/providers/{namespace}/{types[0]}/{name}"
        names = [str(props.get(key)) for key in rtype.parent_inputs] + [name]
        path = "/".join(f"{t}/{n}" for t, n in zip(types, names, strict=True))
        rg = props.get("resourceGroupName")
        group = f"/resourceGroups/{rg}" if rg is not None else ""
        return f"/subscriptions/{self.subscription_id}{group}/providers/{namespace}/{path}"

    def autoname(self, logical_name: str, rtype: ArmResourceType, urn: str) -> str:
        """pulumi-azure-native's auto-naming (`catalog.arm.registry.auto_name`), seeded by the URN, so repeated
        offline runs print the same names."""
        return registry.auto_name(logical_name, urn, rtype.autoname_max)

    def next_address(self, prefix: str) -> str:
        """The next free host address of `prefix`, as Azure's dynamic allocation gives them."""
        network = ipaddress.ip_network(prefix, strict=False)
        offset = AZURE_RESERVED_HOSTS + self._allocated[prefix]
        self._allocated[prefix] += 1
        return str(network.network_address + offset)

    # --- PUT ---------------------------------------------------------------------------------

    def put(
        self, token: str, logical_name: str, props: dict[str, Any], urn: str, *, partly_known: bool = False
    ) -> Resource:
        """Create a resource as ARM would, or raise the ArmError ARM would return.

        `partly_known`: some input is unknown until deployment (a plan's value computed by Azure, e.g. an
        identity's principalId): as a provider during `pulumi preview`, the checks of the type's values are
        left to Azure at deployment; names, parents, sizes and quota are still checked."""
        rtype = resource_type(token)
        name = props.get(rtype.name_input) if rtype.name_input else None
        name = str(name) if name else self.autoname(logical_name, rtype, urn)
        location = self._location(rtype, props)
        # A `secure:` config value is unknown offline (the program got a placeholder): Azure would judge the user's
        # value, so a value rule refuses only what it refuses whatever that value is (`offline_secrets`).
        secret = not partly_known and holds_offline_secret(props)

        def judged(layer: Layer) -> list[ArmError]:
            return refusals_whatever_the_secret(layer, props) if secret else layer(props)

        if not partly_known:
            for error in judged(first_refusal(lambda p: rtype.check_first(self, name, p))):
                raise error
        if self.check_enums and not partly_known:
            for error in judged(first_refusal(lambda p: refuse_values_outside_enums(token, rtype.arm_type, name, p))):
                raise error
        resource_id = self._resource_id(rtype, props, name)
        container = self._container(rtype, props)
        if (resource_id.lower() in container and resource_id.lower() not in self._inline_children) or (
            token == ResourceGroupType and name.lower() in self.subscription.resource_groups
        ):
            raise Conflict(
                f"A resource with the ID '{resource_id}' already exists; to manage it with Pulumi, import it "
                f"with `pulumi import` instead of creating it."
            )
        if rtype.parent_inputs:
            try:
                self.parent_of(rtype, props)
            except ParentResourceNotFound as missing:
                if not self.parents_may_follow:
                    raise
                waiting = WaitingChild(token, logical_name, props, urn, partly_known, missing)
                return self._wait_for_parent(rtype, waiting, resource_id, location)
        self._check_sizes(rtype, props, location)
        if not partly_known:  # value rules judge known values only, as a preview leaves the rest to deployment
            refused = judged(lambda p: spec_refusals(token, name, p, location))  # the REST spec's constraints (`spec`)
            if refused and is_wrong_type(refused[0]):
                raise refused[0]  # a value of the wrong JSON type, before any rule reads it
            # Azure's prose rules, kept as data (`prose`), then the type's own
            for error in judged(lambda p: prose_refusals(self, rtype.arm_type, name, p)):
                raise error
            for error in judged(first_refusal(lambda p: rtype.check(self, name, p))):
                raise error
            if refused:
                raise refused[0]  # after the type's own, more specific codes
        try:
            self._take_quota(rtype, props, location)
        except ArmError as error:
            raise rtype.quota_refusal(name, props, error) from None
        group = props.get("resourceGroupName") if token != ResourceGroupType else name
        res = Resource(resource_id, rtype.arm_type, name, group, location, props)
        res.outputs = self._outputs(rtype, res)
        self._store(token, res, container)
        for child in rtype.children(self, res):
            # Created by the parent's PUT, as ARM creates a VNet's inline subnets; a later PUT of the
            # child itself updates it (what Azure does), so it is not a Conflict.
            container[child.id.lower()] = child
            self._inline_children.add(child.id.lower())
        self._inline_children.discard(resource_id.lower())
        self._put_waiting_children(res)
        return res

    def _wait_for_parent(
        self, rtype: ArmResourceType, waiting: WaitingChild, resource_id: str, location: str | None
    ) -> Resource:
        """Keep `waiting` until its parent is created; the program gets what `pulumi preview` shows of a resource
        not made yet: its inputs and name, every output Azure computes unknown (`planned.previewed_outputs`)."""
        self._waiting[self.parent_id(rtype, waiting.props).lower()].append(waiting)
        name = resource_id.rsplit("/", 1)[-1]
        res = Resource(
            resource_id, rtype.arm_type, name, waiting.props.get("resourceGroupName"), location, waiting.props
        )
        res.outputs = previewed_outputs(waiting.token, waiting.props, {"name": name})
        return res

    def _put_waiting_children(self, parent: Resource) -> None:
        """The PUTs of the children that waited for `parent`, in the order the program registered them, as Pulumi
        sends each once what it depends on exists; each refused or skipped as any other."""
        for child in self._waiting.pop(parent.id.lower(), []):
            try:
                self.put(child.token, child.logical_name, child.props, child.urn, partly_known=child.partly_known)
                # registered before its parent, so the program gave it no dependency on it: a race in a real run
                self.advisories.append(
                    f"{child.logical_name}: registered before its parent '{parent.name}', with no dependency on it: "
                    "Pulumi may send both PUTs at once, and Azure refuses the child (ParentResourceNotFound) if its "
                    'PUT comes first; make it depend on the parent (its name output, or depends_on) (Learn, "Resolve '
                    'errors for parent resources", https://learn.microsoft.com/azure/azure-resource-manager/'
                    "troubleshooting/error-parent-resource)"
                )
            except ArmError as error:
                self.refuse(child.token, child.logical_name, child.props, child.urn, error)
            except DependencyFailed as cause:
                self.skip(child.token, child.logical_name, child.props, child.urn, cause)

    def settle(self) -> None:
        """At the end of the program: a child whose parent it never created is refused as ARM refuses it."""
        waiting = [child for children in self._waiting.values() for child in children]
        self._waiting.clear()
        for child in waiting:
            self.refuse(child.token, child.logical_name, child.props, child.urn, child.missing)

    def check_preview(self, token: str, props: dict[str, Any]) -> None:
        """What a provider can check during `pulumi preview`: only known values, no state."""
        rtype = resource_type(token)
        location = props.get("location")
        known_location = isinstance(location, str) or (location is None and rtype.token == ResourceGroupType)
        located = self._location(rtype, props) if rtype.located and known_location else None
        self._check_sizes(rtype, props, located)

    def refuse(self, token: str, logical_name: str, props: dict[str, Any], urn: str, error: ArmError) -> Resource:
        """Record a refusal and keep a failed placeholder, so dependents are skipped, not refused."""
        self.refusals.append(Refusal(logical_name, token, error.code, error.message))
        return self._placeholder(token, logical_name, props, urn)

    def skip(self, token: str, logical_name: str, props: dict[str, Any], urn: str, cause: DependencyFailed) -> Resource:
        self.skipped.append((logical_name, cause.dependency.id))
        return self._placeholder(token, logical_name, props, urn)

    def _placeholder(self, token: str, logical_name: str, props: dict[str, Any], urn: str) -> Resource:
        rtype = resource_type(token)
        name = str(props.get(rtype.name_input) or self.autoname(logical_name, rtype, urn))
        try:
            resource_id = self._resource_id(rtype, props, name)
        except ValueError:
            resource_id = f"/subscriptions/{self.subscription_id}/failed/{name}"
        res = Resource(
            resource_id, rtype.arm_type, name, props.get("resourceGroupName"), props.get("location"), props, failed=True
        )
        res.outputs = identity_answer({**props, "name": name, "provisioningState": "Failed"})
        self.subscription.resources[resource_id.lower()] = res
        for child in self._waiting.pop(resource_id.lower(), []):  # children that waited for it: not attempted
            self.skip(child.token, child.logical_name, child.props, child.urn, DependencyFailed(res))
        return res

    def _container(self, rtype: ArmResourceType, props: dict[str, Any]) -> dict[str, Resource]:
        if rtype.token == ResourceGroupType:
            return {}  # groups are kept and found by name (`put`, `_store`); a map by id cost n² for n groups
        if rtype.scoped:
            scope = scope_id(props.get(rtype.scope_input))
            target = self.require(scope, rtype.scope_input)
            if target is not None and target.type == ResourceGroupArmType:
                return self._resource_group(target.name).resources
            return self.subscription.resources
        if "resourceGroupName" not in props and rtype.token not in RESOURCE_TYPES:
            return self.subscription.resources
        return self._resource_group(props.get("resourceGroupName")).resources

    def _store(self, token: str, res: Resource, container: dict[str, Resource]) -> None:
        if token == ResourceGroupType:
            self.subscription.resource_groups[res.name.lower()] = ResourceGroupState(res)
        else:
            container[res.id.lower()] = res

    def _location(self, rtype: ArmResourceType, props: dict[str, Any]) -> str | None:
        if not rtype.located:
            return None
        location = props.get("location")
        if location is None:
            # azure-native falls back to the resource group's location, a group to the provider's.
            if rtype.token == ResourceGroupType:
                location = self.default_location
            elif props.get("resourceGroupName") is not None:
                location = self._resource_group(props["resourceGroupName"]).group.location
        if location is None:
            raise InvalidParameter("location is required (set azure-native:location or the resource's location).")
        if not isinstance(location, str):  # the spec types it a string (every modelled type's `location`)
            raise InvalidParameter(
                f"The value of parameter location is invalid: a string is expected, not {type(location).__name__} "
                f"({rtype.arm_type})."
            )
        if normalize_region(location) in {"global"}:
            return "global"
        if not self.catalog.is_region(location):
            close = self.catalog.close_regions(location)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            raise LocationNotAvailableForResourceType(
                f"The provided location '{location}' is not available for resource type '{rtype.arm_type}'.{hint}"
            )
        return normalize_region(location)

    def _check_sizes(self, rtype: ArmResourceType, props: dict[str, Any], location: str | None) -> None:
        # The one size verdict (`catalog.verdict`); a well-formed size the catalog does not know: only --skus refuses it
        for reading in read_shapes(rtype.token, props):
            path, size_name = reading.path, reading.size
            if not isinstance(size_name, str):
                continue
            verdict = size_verdict(size_name, self.now.date(), self.catalog)
            if verdict.standing == "not-a-size":
                hint = f" {verdict.did_you_mean[0].upper()}{verdict.did_you_mean[1:]}" if verdict.suggestions else ""
                raise InvalidParameter(f"The value '{size_name}' provided for the VM size is not valid ({path}).{hint}")
            if verdict.standing == "retired":
                raise SkuNotAvailable(
                    f"The requested VM size '{verdict.canonical}' ({path}) is retired since {verdict.date} and can no "
                    f"longer be provisioned. Use {verdict.replacement}."
                )
            if self.skus is not None and location is not None:
                offer = self.skus.get(normalize_size_name(verdict.canonical))
                why = offer.refusal(location) if offer else "not listed in the SKU file"
                if why:
                    raise SkuNotAvailable(
                        f"The requested VM size '{verdict.canonical}' ({path}) is currently not available in location "
                        f"'{location}': {why}. Please try another size or deploy to a different location."
                    )

    def _take_quota(self, rtype: ArmResourceType, props: dict[str, Any], location: str | None) -> None:
        # Where each type keeps its sizes, counts and priority: the one shape table; which counters
        # its nodes draw on: `catalog.quota_counters`; the ledger of what PUTs took: `fakeazure.quota`.
        found: list[Charge] = []
        nodes = at_creation = 0
        for reading in read_shapes(rtype.token, props):
            if not reading.pool.counted or not isinstance(reading.size, str):
                continue
            size = self.catalog.find(reading.size)
            if size is None:  # a size the catalog does not know: its vCPUs and family cannot be counted
                continue
            found += charges(
                reading.pool.quota, size.quota_family, reading.priority != "Regular", size.vcpus * reading.full_count
            )
            nodes += reading.full_count
            # What Azure itself checks at creation: the deployment count; an Azure ML cluster at least one node.
            at_creation += max(reading.count, 1) if reading.pool.quota == "machinelearning" else reading.count
        if found:
            limits: dict[Provider, dict[str, Usage] | None] = {
                "Microsoft.Compute": self.usage,
                "Microsoft.MachineLearningServices": self.aml_usage,
            }
            self.quota.take(Taking(tuple(found), nodes, location, min(at_creation, nodes)), limits)

    def _outputs(self, rtype: ArmResourceType, res: Resource) -> dict[str, Any]:
        # The envelope's ARM `type` never replaces an input of that name (storage.Blob's `type` is its BlobType).
        base = {"type": res.type, **res.properties, "name": res.name}
        if res.location is not None:
            base["location"] = res.location
        # Every type's system-assigned identity gets its principal (common-types ManagedServiceIdentity:
        # principalId and tenantId are read-only, Azure's), modelled or not.
        # Azure's default for what the request leaves out (models.defaults), beneath the request's and the model's own.
        answer = {**base, **system_identity(self, res), **rtype.computed(self, res)}
        return identity_answer(with_defaults(self, rtype.token, res, answer))

    # --- provider functions ------------------------------------------------------------------

    def invoke(self, token: str, args: dict[str, Any]) -> dict[str, Any]:
        """Answer a pulumi-azure-native function the way Azure would."""
        answer = INVOKES.get(token)
        if answer is None:  # any other function of the installed SDK: an answer shaped from its result type
            return answer_from_schema(self, token, args)
        return answer(self, args)


__all__ = ["ArmError", "DependencyFailed", "FakeArm", "Refusal"]
