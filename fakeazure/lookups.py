"""pulumi-azure-native's `get_*` functions and `<Resource>.get` reads, answered from the fake's state.

A look-up answers what the subscription holds: resources created earlier in the run, and those an
`--existing` file brought in (`existing`). Anything else is ARM's `ResourceNotFound`, with the one
command that saves the resource for an offline run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import Invoke, Resource
from .errors import ResourceNotFound

if TYPE_CHECKING:
    from .core import Arm


# In a command, the subscription `az login` selected, when no --existing file has named one.
CURRENT_SUBSCRIPTION = "$(az account show --query id -o tsv)"


def how_to_supply(resource_id: str) -> str:
    return f"save it with `az resource show --ids {resource_id} -o json > FILE` and pass --existing FILE"


def group_not_held(name: str) -> str:
    """A resource group the program deploys into without creating it: whether Azure holds it is only known in the
    subscription (Azure answers ResourceGroupNotFound where it does not), so the run cannot be judged offline."""
    return (
        f"resource group '{name}' is neither created by the program nor in an --existing file; offline, save it "
        f"with `az group show --name {name} -o json > FILE` and pass --existing FILE"
    )


def reference_not_held(arm: Arm, resource_id: str, path: str) -> str | None:
    """For a reference to a resource the subscription does not hold: when its resource group is one the program
    neither creates nor brings in a file, whether Azure holds it is only known in the subscription, and the line
    names it with the command that saves it; None when the group is the run's (then Azure's ResourceNotFound)."""
    parts = resource_id.split("/")  # "", subscriptions, <id>, resourceGroups, <group>, ...
    if len(parts) < 5 or parts[3].lower() != "resourcegroups" or not parts[4]:
        return None
    group = parts[4]
    if arm.find(f"/subscriptions/{arm.subscription_id}/resourceGroups/{group}") is not None:
        return None
    saved = _as_saved(arm, resource_id)
    return (
        f"{path}: '{saved}' is in resource group '{group}', which the program does not create; offline, "
        f"{how_to_supply(saved)}"
    )


def _as_saved(arm: Arm, resource_id: str) -> str:
    """The id as the deployer's Azure CLI would name it: the fake's own subscription id means theirs."""
    if arm.az_subscription is None:
        return resource_id.replace(f"/subscriptions/{arm.subscription_id}", f"/subscriptions/{CURRENT_SUBSCRIPTION}", 1)
    return resource_id


def answer(res: Resource, tags: dict[str, str] | None = None) -> dict[str, Any]:
    """What a `get_*` function or a read returns: the envelope and the properties, as azure-native's outputs."""
    out = {**res.properties, "id": res.id, "name": res.name, "type": res.type}
    if res.location is not None:
        out["location"] = res.location
    if tags:
        out["tags"] = tags
    return out


def lookup(arm_type: str, *names: str) -> Invoke:
    """A `get_*` function: the resource of `arm_type` named by `names` (inputs, outermost first)."""
    namespace, *types = arm_type.split("/")

    def invoke(arm: Arm, args: dict[str, Any]) -> dict[str, Any]:
        group = args.get("resourceGroupName")
        path = "/".join(f"{t}/{args.get(n)}" for t, n in zip(types, names, strict=True))
        if namespace == "Microsoft.Resources":  # a resource group itself
            resource_id = f"/subscriptions/{arm.subscription_id}/resourceGroups/{args.get(names[0])}"
        else:
            resource_id = f"/subscriptions/{arm.subscription_id}/resourceGroups/{group}/providers/{namespace}/{path}"
        found = arm.find(resource_id)
        if found is None or found.failed:
            saved = _as_saved(arm, resource_id)
            raise ResourceNotFound(f"The Resource '{saved}' was not found; offline, {how_to_supply(saved)}.")
        return answer(found)

    return invoke


def read(arm: Arm, resource_id: str) -> Resource:
    """`<Resource>.get(name, id)`: the resource at `resource_id`, or ARM's ResourceNotFound."""
    found = arm.find(resource_id)
    if found is None or found.failed:
        saved = _as_saved(arm, resource_id)
        raise ResourceNotFound(f"The Resource '{saved}' was not found; offline, {how_to_supply(saved)}.")
    return found
