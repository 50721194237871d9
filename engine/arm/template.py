"""A plan as an ARM deployment template that `az deployment sub validate` / `what-if` accept.

Shape: a subscription-scope template (schema `subscriptionDeploymentTemplate.json`) that creates each
resource group the stack creates and, per resource group, one nested `Microsoft.Resources/deployments`
with `resourceGroup` set and an inline template of that group's resources (`expressionEvaluationOptions`
scope `inner`, so the inner template sees its own parameters). Resources at subscription scope (a
budget of the subscription) sit in the outer template.
Source: learn.microsoft.com/azure/azure-resource-manager/templates/deploy-to-subscription, "Create
resource group and resources" and "Deploy to resource group" (observed 2026-11-25).

Types: where ARM places each azure-native resource (its ARM type, parents, `scope`) and the API version the
installed SDK sends, by the one type registry (`azure_gpu_stacks.catalog.arm.registry`); nothing here reads
the fake ARM. Bodies: the envelope at the top and the rest under `properties` as REST nests them, by the
mapping of azure-native inputs to ARM bodies generated from Azure's spec data
(`azure_gpu_stacks.catalog.arm.bodies`) where it covers the type, else by pulumi-azure-native's default
(every input but the envelope's flattened out of `properties`). Resources that are not Azure's, azure-native
types that are no ARM resource (a blob, written through the storage account's endpoint), and types the
registry cannot place are listed under `metadata.outsideTemplate`, each with why.

Values: the subscription, tenant and deployer the plan ran as (`Plan.identity`) become
`subscription().subscriptionId`, `subscription().tenantId` and `deployer().objectId`, so the template
validates in any subscription and holds no value of the offline engine's own; a literal string that starts
with `[` is escaped as `[[` (templates/template-expressions, "Escape characters"). Secrets become
`secureString` parameters (`secureObject` for a secret object) whose values stay in memory for the one
request that sends them and are never written: a value marked secret, and any string holding one of the
plan's secrets (`Plan.secret_values`: secret config however read, an existing resource's credential,
another stack's secret output). A secret name (of a resource, its parent or its resource group) is a
parameter too, wherever the template names it (`name`, `resourceId(...)`, a nested deployment's
`resourceGroup`); the nested deployment of a group with a secret name is named by its place instead.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...catalog.arm import bodies, registry
from ...sdk.internals import is_output_unknown, is_secret, unwrap_secret
from ..run.identity import DeploymentIdentity
from ..run.runtime import RecordedResource

AZURE_NATIVE = "azure-native:"
PROVIDER_PREFIX = "pulumi:providers:"
RESOURCE_GROUP_TOKEN = "azure-native:resources:ResourceGroup"
RESOURCE_GROUP_INPUT = "resourceGroupName"
ENTRY_KEYS = ("type", "apiVersion", "name")  # set by the template from the resource, not from the body
RESOURCE_GROUP_TYPE = "Microsoft.Resources/resourceGroups"
DEPLOYMENT_TYPE = "Microsoft.Resources/deployments"
# Schemas: learn.microsoft.com/azure/azure-resource-manager/templates/syntax (observed 2026-11-25).
SUBSCRIPTION_SCHEMA = "https://schema.management.azure.com/schemas/2018-05-01/subscriptionDeploymentTemplate.json#"
GROUP_SCHEMA = "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#"
CONTENT_VERSION = "1.0.0.0"
SECRET_PARAMETER = re.compile(r"[^A-Za-z0-9]+")
# The plan's own ids as the deployment's: the deployer's object id as ARM's `deployer().objectId`
# (https://learn.microsoft.com/azure/azure-resource-manager/templates/template-functions-deployment#deployer,
# observed 2026-11-26), so no template carries a value of the offline engine's own.
SUBSCRIPTION_EXPRESSION = "subscription().subscriptionId"
TENANT_EXPRESSION = "subscription().tenantId"
DEPLOYER_EXPRESSION = "deployer().objectId"
ANY_SUBSCRIPTION = re.compile(r"^/subscriptions/[^/]+", re.IGNORECASE)


@dataclass(frozen=True)
class TemplateResource:
    """One azure-native resource of the plan as the template holds it."""

    urn: str
    token: str
    logical_name: str
    arm_type: str
    api_version: str | None
    name: str  # the template's `name`: parent names joined with `/` for child types
    resource_id: str  # in the subscription the plan ran in
    resource_group: str | None  # None: at subscription scope
    scope: str | None  # an extension resource's scope (a resource id), when it is not its resource group
    body: dict[str, Any]  # the request body ARM receives, secrets in place (never written)
    inputs: dict[str, Any]  # the plan's inputs, secrets unwrapped (never written)
    body_hash: str = ""  # sha256 of the body with each secret as "[secret]": no secret can be guessed from it


@dataclass(frozen=True)
class Template:
    """The template document (no secret value anywhere in it) and what it was made from."""

    document: dict[str, Any]
    resources: tuple[TemplateResource, ...]
    outside: tuple[tuple[str, str], ...]  # (urn, type) of resources the template does not hold
    secret_values: Mapping[str, Any] = field(default_factory=dict, repr=False)  # parameter -> value, sent only

    def resource(self, urn: str) -> TemplateResource | None:
        return next((r for r in self.resources if r.urn == urn), None)


def export(
    resources: Iterable[RecordedResource],
    *,
    project: str,
    stack: str,
    secrets: Iterable[str] = (),
    identity: DeploymentIdentity | None = None,
) -> Template:
    """The template of a plan's recorded resources; `secrets` (the plan's `secret_values`) are what no
    value in it may hold in clear, beyond the values marked secret; `identity` (the plan's) is whose ids
    become the deployment's (without it, the subscription the recorded ids name)."""
    recorded = _stable_order(resources)
    builder = _Builder(recorded, frozenset(secrets), _expressions(recorded, identity))
    unmapped = {r.urn for r in recorded if r.custom and r.type.startswith(AZURE_NATIVE) and not builder.add(r)}
    outside = tuple(
        (r.urn, r.type)
        for r in recorded
        if r.custom
        and (not r.type.startswith(AZURE_NATIVE) or r.urn in unmapped)
        and not r.type.startswith(PROVIDER_PREFIX)
    )
    document = builder.document(project, stack, outside)
    return Template(document, tuple(builder.resources), outside, dict(builder.secrets))


class _Builder:
    def __init__(
        self, recorded: list[RecordedResource], hidden: frozenset[str], expressions: Mapping[str, str]
    ) -> None:
        self.children: dict[str, list[str]] = {}
        for r in recorded:
            if r.parent:
                self.children.setdefault(r.parent, []).append(r.urn)
        self.custom = {r.urn for r in recorded if r.custom}
        self.resources: list[TemplateResource] = []
        self.secrets: dict[str, Any] = {}
        self.hidden = hidden  # the plan's secrets: no string of the document may hold one
        self.secret_names: dict[str, str] = {}  # a secret name -> its parameter
        self.recorded_by_urn = {r.urn: r for r in recorded}
        self.expressions = expressions  # a value of the plan's identity -> the ARM function standing for it
        self.subscription = next(
            (v for v, e in expressions.items() if e == SUBSCRIPTION_EXPRESSION), "{subscriptionId}"
        )

    # --- resources ---------------------------------------------------------------------------

    def add(self, r: RecordedResource) -> bool:
        """Add `r`; False when the type registry (catalog.arm.registry) cannot place its type."""
        plain = _plain(r.inputs)
        place = registry.placement_for(r.type, plain)
        if place is None or place.tenant_level:
            return False
        own = plain.get(place.name_input) if place.name_input else place.own_name
        # the name the plan gave a resource without one: the last part of the id it got, else auto-named
        name = str(own) if own else _given_name(r) or registry.auto_name(r.name, f"{r.type}::{r.name}")
        parents = place.name_parts({k: str(plain.get(k)) for k in place.parent_inputs}, name)[:-1]
        group = None if r.type == RESOURCE_GROUP_TOKEN else plain.get(RESOURCE_GROUP_INPUT)
        scope = (
            plain.get(place.scope_input) if place.scope_input else registry.scope_id(place, plain, self.subscription)
        )
        if isinstance(scope, str) and (place.scoped or place.scope_path):
            group = _group_of(scope)
            if _is_group_id(scope) or group is None and _is_subscription_id(scope):
                scope = None
        resource_id = registry.resource_id(place, plain, name, self.subscription)
        named = [*zip(place.parent_inputs, [str(plain.get(k)) for k in place.parent_inputs]), (place.name_input, name)]
        if group is not None:
            named.append((RESOURCE_GROUP_INPUT, str(group)))
        for key, text in named:
            secret = (key is not None and is_secret(r.inputs.get(key))) or self._holds_secret(text, frozenset())
            if secret and text not in self.secret_names:
                self.secret_names[text] = self._parameter_name(r.name, key or "name", text)
        self.resources.append(
            TemplateResource(
                urn=r.urn,
                token=r.type,
                logical_name=r.name,
                arm_type=place.arm_type,
                api_version=place.api_version,
                name="/".join(parents + [name]),
                resource_id=resource_id,
                resource_group=str(group) if group is not None else None,
                scope=scope if isinstance(scope, str) else None,
                body=arm_body(r.type, plain),
                inputs=plain,
                body_hash=_sha256(arm_body(r.type, _plain(r.shown_inputs()))),
            )
        )
        return True

    def _entry(self, res: TemplateResource, record: RecordedResource, same_group: bool) -> dict[str, Any]:
        body = self._values(arm_body(res.token, record.inputs), res.logical_name, record.secret_values)
        body = _self_relative(body, self._resource_id_expression(res, outer=res.resource_group is None))
        entry: dict[str, Any] = {"type": res.arm_type, "apiVersion": res.api_version, "name": self._name(res)}
        if res.scope is not None:
            entry["scope"] = _scope_expression(res.scope, same_group, self.expressions)
        place = registry.placement_for(res.token, res.inputs)
        if place is not None and place.located and "location" not in body and res.resource_group is not None:
            body = {"location": "[resourceGroup().location]", **body}  # as azure-native defaults it
        entry.update(body)
        return entry

    def _values(self, value: Any, where: str, secrets: frozenset[str], path: str = "") -> Any:
        """`value` with ids and tenants as expressions, literal `[` escaped, secrets as parameters."""
        if is_secret(value):
            inner = unwrap_secret(value)
            if isinstance(inner, (dict, list)) and _holds(inner, secrets):
                return self._values(inner, where, secrets, path)
            return self._parameter(where, path, _plain(inner))
        if isinstance(value, dict):
            return {k: self._values(v, where, secrets, f"{path}.{k}" if path else k) for k, v in value.items()}
        if isinstance(value, list):
            return [self._values(v, where, secrets, f"{path}[{i}]") for i, v in enumerate(value)]
        if isinstance(value, str):
            if self._holds_secret(value, secrets):
                return self._parameter(where, path, value)
            return literal(value, self.expressions)
        if is_output_unknown(value):
            return None
        if isinstance(value, float) and value.is_integer():
            # The wire carries every number as a double; a whole number is an integer to ARM, which refuses
            # `2.0` where its type says integer (and takes `2` where it says number).
            return int(value)
        return value

    def _holds_secret(self, text: str, secrets: frozenset[str]) -> bool:
        return any(s in text for s in secrets if s) or any(s in text for s in self.hidden)

    def _parameter(self, where: str, path: str, value: Any) -> str:
        return f"[parameters('{self._parameter_name(where, path, value)}')]"

    def _parameter_name(self, where: str, path: str, value: Any) -> str:
        base = name = SECRET_PARAMETER.sub("_", f"{where}_{path}").strip("_")
        number = 1
        while name in self.secrets and self.secrets[name] != value:  # two resources of one logical name
            number += 1
            name = f"{base}_{number}"
        self.secrets[name] = value
        return name

    # --- names ---------------------------------------------------------------------------------

    def _part(self, text: str) -> str:
        """One name inside an expression: its secure parameter where the name is secret, else the literal."""
        return f"parameters('{self.secret_names[text]}')" if text in self.secret_names else f"'{text}'"

    def _name(self, res: TemplateResource) -> str:
        """The entry's `name`: parent names and its own joined by `/`, as an expression when one is secret."""
        parts = res.name.split("/")
        if not any(part in self.secret_names for part in parts):
            return res.name
        if len(parts) == 1:
            return f"[{self._part(parts[0])}]"
        separated = ", '/', ".join(self._part(part) for part in parts)
        return f"[concat({separated})]"

    def _group(self, group: str) -> str:
        return f"[{self._part(group)}]" if group in self.secret_names else group

    def _deployment_name(self, stack: str, group: str) -> str:
        """The nested deployment of a group: by the group's name, or by its place where the name is secret."""
        if group in self.secret_names:
            return deployment_name(stack, f"secret-group-{list(self.secret_names).index(group) + 1}")
        return deployment_name(stack, group)

    def _resource_id_expression(self, res: TemplateResource, *, outer: bool) -> str:
        names = ", ".join(self._part(n) for n in res.name.split("/"))
        if res.arm_type == RESOURCE_GROUP_TYPE:
            return f"[subscriptionResourceId('{RESOURCE_GROUP_TYPE}', {names})]"
        if res.resource_group is None:
            return f"[subscriptionResourceId('{res.arm_type}', {names})]"
        if outer:
            return f"[resourceId({self._part(res.resource_group)}, '{res.arm_type}', {names})]"
        return f"[resourceId('{res.arm_type}', {names})]"

    def _outer_reference(self, res: TemplateResource, stack: str) -> str:
        """What an outer resource depends on for `res`: the group or subscription resource itself, else the
        nested deployment holding `res`, by name (`dependsOn` takes a name where it is unambiguous:
        templates/resource-dependency, observed 2026-11-25)."""
        if res.arm_type == RESOURCE_GROUP_TYPE or res.resource_group is None:
            return self._resource_id_expression(res, outer=True)
        return self._deployment_name(stack, res.resource_group)

    # --- dependencies ------------------------------------------------------------------------

    def _custom_urns(self, urn: str) -> list[str]:
        """A dependency on a component is one on every custom resource under it."""
        if urn in self.custom:
            return [urn]
        return [c for child in self.children.get(urn, []) for c in self._custom_urns(child)]

    def dependencies(self, res: TemplateResource) -> list[TemplateResource]:
        record = self.recorded_by_urn[res.urn]
        by_urn = {t.urn: t for t in self.resources}
        by_id = {_id_key(t.resource_id): t for t in self.resources}
        found: dict[str, TemplateResource] = {}
        for dep in record.dependencies:
            for urn in self._custom_urns(dep):
                if urn in by_urn and urn != res.urn:
                    found[urn] = by_urn[urn]
        for text in _strings(res.inputs):
            for candidate in _ids_in(text):
                hit = by_id.get(_id_key(candidate))
                if hit is not None and hit.urn != res.urn:
                    found[hit.urn] = hit
        if res.resource_group is not None:
            group = by_id.get(_id_key(f"/subscriptions/{self.subscription}/resourceGroups/{res.resource_group}"))
            found.pop(group.urn if group else "", None)  # the nested deployment depends on it instead
        for parent in _parents(res, by_id):
            found.setdefault(parent.urn, parent)
        return sorted(found.values(), key=self.resources.index)

    # --- the document ------------------------------------------------------------------------

    def document(self, project: str, stack: str, outside: tuple[tuple[str, str], ...]) -> dict[str, Any]:
        groups: dict[str, list[TemplateResource]] = {}
        top: list[dict[str, Any]] = []
        created_groups = {r.name.lower(): r for r in self.resources if r.arm_type == RESOURCE_GROUP_TYPE}
        for res in self.resources:
            if res.arm_type == RESOURCE_GROUP_TYPE:
                top.append(self._entry(res, self.recorded_by_urn[res.urn], same_group=False))
            elif res.resource_group is None:
                entry = self._entry(res, self.recorded_by_urn[res.urn], same_group=False)
                deps = self.dependencies(res)
                if deps:
                    entry["dependsOn"] = [self._outer_reference(d, stack) for d in deps]
                top.append(entry)
            else:
                groups.setdefault(res.resource_group, []).append(res)
        for group, members in groups.items():
            top.append(self._deployment(stack, group, members, created_groups))
        document: dict[str, Any] = {
            "$schema": SUBSCRIPTION_SCHEMA,
            "contentVersion": CONTENT_VERSION,
            "metadata": {
                "generator": "gpu-stacks export-arm",
                "project": project,
                "stack": stack,
                "outsideTemplate": [{"urn": urn, "type": kind, "why": outside_why(kind)} for urn, kind in outside],
                "typesFrom": registry.sdk_version(),
            },
            "parameters": {name: _parameter_type(value) for name, value in self.secrets.items()},
            "resources": top,
        }
        return document

    def _deployment(
        self, stack: str, group: str, members: list[TemplateResource], created: Mapping[str, TemplateResource]
    ) -> dict[str, Any]:
        inner: list[dict[str, Any]] = []
        outer_deps: dict[str, str] = {}
        if group.lower() in created:
            outer_deps[group.lower()] = self._resource_id_expression(created[group.lower()], outer=True)
        for res in members:
            entry = self._entry(res, self.recorded_by_urn[res.urn], same_group=True)
            deps = []
            for dep in self.dependencies(res):
                if dep.resource_group == group:
                    deps.append(self._resource_id_expression(dep, outer=False))
                else:
                    outer_deps[dep.urn] = self._outer_reference(dep, stack)
            if deps:
                entry["dependsOn"] = deps
            inner.append(entry)
        used = [name for name in self.secrets if _mentions(inner, name)]
        return {
            "type": DEPLOYMENT_TYPE,
            "apiVersion": _api_version(RESOURCE_GROUP_TOKEN),
            "name": self._deployment_name(stack, group),
            "resourceGroup": self._group(group),
            "dependsOn": sorted(set(outer_deps.values())),
            "properties": {
                "mode": "Incremental",
                "expressionEvaluationOptions": {"scope": "inner"},
                "parameters": {name: {"value": f"[parameters('{name}')]"} for name in used},
                "template": {
                    "$schema": GROUP_SCHEMA,
                    "contentVersion": CONTENT_VERSION,
                    "parameters": {name: _parameter_type(self.secrets[name]) for name in used},
                    "resources": inner,
                },
            },
        }


def _stable_order(resources: Iterable[RecordedResource]) -> list[RecordedResource]:
    """Dependencies and parents first, otherwise by URN.

    Registration order is already dependencies first, but which of two independent resources comes
    first depends on how the program's awaits interleave; this order does not, so one plan gives
    one template, byte for byte.
    """
    by_urn = {r.urn: r for r in resources}
    waiting_on = {
        urn: {d for d in (*r.dependencies, r.parent or "") if d in by_urn and d != urn} for urn, r in by_urn.items()
    }
    dependents: dict[str, list[str]] = {urn: [] for urn in by_urn}
    for urn, needs in waiting_on.items():
        for need in needs:
            dependents[need].append(urn)
    ready = [urn for urn, needs in waiting_on.items() if not needs]
    heapq.heapify(ready)
    ordered: list[RecordedResource] = []
    while ready:
        urn = heapq.heappop(ready)
        ordered.append(by_urn[urn])
        for dependent in dependents[urn]:
            waiting_on[dependent].discard(urn)
            if not waiting_on[dependent]:
                heapq.heappush(ready, dependent)
    placed = {r.urn for r in ordered}
    return ordered + [r for r in by_urn.values() if r.urn not in placed]  # a cycle: as registered


def arm_body(token: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The request body of `token` (envelope and `properties`): by the spec's mapping (catalog.arm.bodies)
    where it covers the type, else as pulumi-azure-native sends a type whose `properties` it flattens."""
    if bodies.arm_type(token) is not None:
        return {k: v for k, v in bodies.to_arm_body(token, inputs).items() if k not in ENTRY_KEYS}
    place = registry.placement_for(token, _plain(inputs))
    in_url = set(place.path_inputs) if place else set()
    top: dict[str, Any] = {}
    inner: dict[str, Any] = {}
    for key, value in inputs.items():
        if key in in_url or _names_its_own_type(key, value, place):
            continue
        if key == bodies.USER_ASSIGNED and isinstance(value, list):
            value = {str(identity): {} for identity in value}
        if key == "properties" and isinstance(value, dict):
            inner.update(value)  # a type whose `properties` azure-native does not flatten takes them whole
            continue
        (top if key in ENVELOPE else inner)[key] = value
    if isinstance(top.get("identity"), dict) and isinstance(top["identity"].get(bodies.USER_ASSIGNED), list):
        assigned = top["identity"][bodies.USER_ASSIGNED]
        top["identity"] = {**top["identity"], bodies.USER_ASSIGNED: {str(i): {} for i in assigned}}
    if inner:
        top["properties"] = inner
    for path, beside in registry.nested_properties(token):
        for found in _at(top, path.split(".")):
            _nest(found, beside)
    return top


def _names_its_own_type(key: str, value: Any, place: registry.Placement | None) -> bool:
    """A Traffic Manager endpoint's `type` input ("The type of the resource. Ex- Microsoft.Network/
    trafficManagerProfiles", the SDK's docstring) where a type segment is an input: the envelope's `type`, which the
    template's entry states, never a property of the body."""
    return (
        key == "type" and place is not None and bool(place.type_inputs) and str(value).lower() == place.arm_type.lower()
    )


def _at(value: Any, steps: list[str]) -> list[Any]:
    """The values at a body path (`properties.frontendIPConfigurations[*]`), every element of each `[*]`."""
    if not steps:
        return [value]
    step, rest = steps[0], steps[1:]
    key, each = (step[:-3], True) if step.endswith("[*]") else (step, False)
    if not isinstance(value, dict) or key not in value:
        return []
    below = value[key]
    if each:
        return [v for item in below for v in _at(item, rest)] if isinstance(below, list) else []
    return _at(below, rest)


def _nest(value: Any, beside: frozenset[str]) -> None:
    """A sub-resource as ARM takes it: what is not beside `properties` moved into it (pulumi-azure-native takes
    it flattened, as the swagger's `x-ms-client-flatten` says); one that has its own `properties` is left."""
    if not isinstance(value, dict) or "properties" in value:
        return
    moved = {k: v for k, v in value.items() if k not in beside}
    if moved:
        for key in moved:
            del value[key]
        value["properties"] = moved


# ARM's envelope: what stays beside `properties` on every resource (Azure Resource Manager's resource
# definition, https://learn.microsoft.com/azure/azure-resource-manager/templates/syntax#resources, observed
# 2026-11-25); pulumi-azure-native flattens the rest of `properties` into the inputs (the swagger's
# `x-ms-client-flatten`, which Azure's resource specs set on `properties`).
ENVELOPE = frozenset({"location", "tags", "sku", "zones", "identity", "kind", "plan", "extendedLocation", "etag"})


# pulumi-azure-native resolves an id starting with `$self/` against the resource's own id (a load balancer's
# rules naming its own frontend, pool and probe: pulumi-azure-native examples/py-loadbalancer, "relative IDs -
# the actual physical IDs will be resolved by the provider"); the template resolves it with `resourceId`.
SELF_RELATIVE = "$self/"


def _self_relative(value: Any, own_id: str) -> Any:
    """`value` with each `$self/...` id as the resource's own id (`own_id`, an expression) and the rest."""
    if isinstance(value, dict):
        return {k: _self_relative(v, own_id) for k, v in value.items()}
    if isinstance(value, list):
        return [_self_relative(v, own_id) for v in value]
    if isinstance(value, str) and value.startswith(SELF_RELATIVE):
        rest = value[len(SELF_RELATIVE) - 1 :].replace("'", "''")
        return f"[concat({own_id[1:-1]}, '{rest}')]"
    return value


def _given_name(r: RecordedResource) -> str | None:
    """The name the plan gave `r`: the last part of the id it got (None in a preview, where it got none)."""
    return r.arm_id.rstrip("/").rsplit("/", 1)[-1] or None if r.arm_id else None


def _expressions(recorded: list[RecordedResource], identity: DeploymentIdentity | None) -> dict[str, str]:
    """A value of the plan's identity -> the ARM function that stands for it in a deployment."""
    if identity is not None:
        return {
            identity.subscription_id: SUBSCRIPTION_EXPRESSION,
            identity.tenant_id: TENANT_EXPRESSION,
            identity.deployer_object_id: DEPLOYER_EXPRESSION,
        }
    named = (ANY_SUBSCRIPTION.match(r.arm_id) for r in recorded)
    found = next((m.group(0).split("/")[2] for m in named if m), None)
    return {found: SUBSCRIPTION_EXPRESSION} if found else {}


def _id_key(resource_id: str) -> str:
    """An id as dependencies are matched: case-insensitive, in whichever subscription it names."""
    return ANY_SUBSCRIPTION.sub("/subscriptions/*", resource_id.rstrip("/")).lower()


def _sha256(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def _api_version(token: str) -> str | None:
    found = bodies.arm_type(token)
    return found.api_version if found else None


# Why a resource is outside the template: another provider's is not Azure's at all; a data-plane type of
# azure-native is written through a service's own endpoint, never through ARM; any other azure-native type is
# Azure's, but the installed Python SDK states its API version and not its ARM id's shape, which the registry
# (catalog/arm/arm_paths.json and the files beside it) holds for the types it lists: Validate and What-If do not
# see it.
NOT_AZURES = "not an Azure resource (another provider's): Azure never sees it"
# The classic azure provider's resources are Azure's, but their inputs are Terraform's azurerm schema, not ARM's
# ("This provider is a derived work of the Terraform Provider ... terraform-provider-azurerm", pulumi/docs'
# pulumi_azure reference, read 2026-11-27): no ARM body can be written for them here.
CLASSIC_AZURE_PREFIX = "azure:"
CLASSIC_AZURES = (
    "an Azure resource of the classic azure provider (pulumi-azure, Terraform's azurerm): its inputs are "
    "Terraform's, not ARM's, so it is not in the template and Validate and What-If do not see it"
)
NOT_PLACED = (
    "an Azure resource whose ARM type and id shape no public source the type registry reads gives "
    "(catalog/arm/arm_paths.json, schema_paths.json, spec_paths.json, the provider's token_paths_*.json): "
    "Validate and What-If do not see it"
)
NO_SOURCE_BECAUSE = "why no source places it: "  # then the reason spec_paths.json's `left` gives the type
TYPE_FROM_VALUE = (
    "an Azure resource whose input's value names no ARM type Azure's REST spec defines (or is no plain name), so it "
    "is not in the template and Validate and What-If do not see it: "
)
NOT_IN_SUBSCRIPTION = (
    "an Azure resource of a management group or the tenant, outside any subscription: a subscription "
    "deployment cannot hold it, so Validate and What-If do not see it"
)


def outside_why(type_token: str) -> str:
    if type_token.startswith(CLASSIC_AZURE_PREFIX):
        return CLASSIC_AZURES
    if not type_token.startswith(AZURE_NATIVE):
        return NOT_AZURES
    why = registry.data_plane(type_token)
    if why:
        return f"not an ARM resource: {why}"
    place = registry.placement(type_token)
    if place is not None and place.tenant_level:
        return NOT_IN_SUBSCRIPTION
    typed = registry.typed_by_input(type_token)
    if typed:  # placed where its value names a type the spec defines (registry.placement_for); this one's does not
        return f"{TYPE_FROM_VALUE}{typed}"
    reason = registry.why_unplaced(type_token)
    return f"{NOT_PLACED}; {NO_SOURCE_BECAUSE}{reason}" if reason else NOT_PLACED


def placeable(type_token: str, inputs: Mapping[str, Any] | None = None) -> bool:
    """Whether export-arm can place an azure-native resource of this type (with these inputs, where its ARM type
    depends on one's value) in a template."""
    place = registry.placement_for(type_token, dict(_plain(dict(inputs or {}))))
    return place is not None and not place.tenant_level


def deployment_name(stack: str, group: str) -> str:
    """The nested deployment of one resource group (64 characters at most, Microsoft.Resources limits)."""
    return SECRET_PARAMETER.sub("-", f"{stack}-{group}")[:64]


def literal(text: str, expressions: Mapping[str, str] | None = None) -> str:
    """A string as a template value: the plan's ids (`expressions`) as the deployment's own, a leading `[`
    escaped."""
    known = expressions or {}
    found = [value for value in known if value and value in text]
    if found:
        escaped = text.replace("'", "''").replace("{", "{{").replace("}", "}}")
        for index, value in enumerate(found):
            escaped = escaped.replace(value, f"{{{index}}}")
        return f"[format('{escaped}', {', '.join(known[v] for v in found)})]"
    return f"[{text}" if text.startswith("[") else text


def _parameter_type(value: Any) -> dict[str, str]:
    return {"type": "secureObject" if isinstance(value, (dict, list)) else "secureString"}


def _mentions(value: Any, name: str) -> bool:
    return f"parameters('{name}')" in json.dumps(value)


def _scope_expression(scope: str, same_group: bool, expressions: Mapping[str, str]) -> str:
    """An extension resource's `scope`: the target's relative name inside its group, else its full id."""
    parts = scope.strip("/").split("/")
    if same_group and len(parts) >= 8 and parts[4].lower() == "providers":
        namespace, rest = parts[5], parts[6:]
        types, names = rest[0::2], rest[1::2]
        return f"{namespace}/{'/'.join(types)}/{'/'.join(names)}"
    return literal(scope, expressions)


def _group_of(resource_id: str) -> str | None:
    parts = resource_id.strip("/").split("/")
    return parts[3] if len(parts) >= 4 and parts[2].lower() == "resourcegroups" else None


def _is_group_id(resource_id: str) -> bool:
    parts = resource_id.strip("/").split("/")
    return len(parts) == 4 and parts[2].lower() == "resourcegroups"


def _is_subscription_id(resource_id: str) -> bool:
    return len(resource_id.strip("/").split("/")) == 2


def _parents(res: TemplateResource, by_id: Mapping[str, TemplateResource]) -> list[TemplateResource]:
    """A child type depends on its parent (a subnet on its virtual network), as ARM requires."""
    found = []
    parent = res.resource_id
    for _ in res.name.split("/")[:-1]:
        parent = parent.rsplit("/", 2)[0]
        hit = by_id.get(_id_key(parent))
        if hit is not None:
            found.append(hit)
    return found


ID_IN_TEXT = re.compile(r"/subscriptions/[^/\s'\"]+/[^\s'\"]+", re.IGNORECASE)


def _ids_in(text: str) -> list[str]:
    """Resource ids in `text`, each with every shorter id it starts with (a subnet's id names its network)."""
    out: list[str] = []
    for match in ID_IN_TEXT.findall(text):
        parts = match.rstrip("/").split("/")
        out.extend("/".join(parts[:end]) for end in range(len(parts), 4, -2))
    return out


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _holds(value: Any, secrets: frozenset[str]) -> bool:
    return any(any(s in text for s in secrets) for text in _strings(value))


def _plain(value: Any) -> Any:
    """Secret markers removed, unknowns as None: the values ARM would receive."""
    if is_secret(value):
        return _plain(unwrap_secret(value))
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if is_output_unknown(value):
        return None
    return value
