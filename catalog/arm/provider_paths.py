"""The provider's own table of where Azure Resource Manager places each azure-native type.

pulumi/pulumi-azure-native keeps, for every resource token it generates, the shape of the resource's ARM id in
`reports/tokenPaths.json` (https://github.com/pulumi/pulumi-azure-native, read at the commit each file names,
observed 2026-11-27), e.g.

    "azure-native:cosmosdb:DatabaseAccountSqlContainer": "/subscriptions/{subscriptionId}/resourceGroups/
      {resourceGroupName}/providers/Microsoft.DocumentDB/databaseAccounts/{accountName}/apis/sql/databases/
      {databaseName}/containers/{containerName}"

The file (4.97 MB) was read by offset and its unversioned tokens (the SDK's default version) copied as the file
has them into `catalog/arm/token_paths_*.json`, one file per reader (`token_paths_a_l.json` for the modules
a-l, `token_paths_m_z.json` for m-z), each with its source:

    {"source": {"repo": ..., "path": "reports/tokenPaths.json", "commit": "<40 hex>", "observed": "..."},
     "note": "...", "paths": {"<token>": "<ARM path>", ...}}

Any number of such files is read (none at all is an empty table). A path names an ARM type only where the
namespace after its last `providers` and every type segment after it are literal and each type has a name
segment; `unplaceable` says why another does not (`.../components/{resourceName}/currentbillingfeatures`
names a singleton setting, `.../{scopePath}/item` leaves the type to an input). A type segment that is an input
(`type_inputs`: a DNS record set's `{recordType}`) is placed per resource by its value (registry.placement_for).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources

FILES = re.compile(r"^token_paths_[a-z0-9_]+\.json$")
_INPUT = re.compile(r"^\{\w+\}$")


@dataclass(frozen=True)
class ProviderPath:
    """One token's ARM id shape as the provider's table states it, and where it was read."""

    token: str
    path: str
    source: str


def _source(document: dict[str, object]) -> str:
    found = document["source"]
    assert isinstance(found, dict)
    return (
        f"pulumi-azure-native {found['path']} @ {found['repo']} {str(found['commit'])[:12]} "
        f"(the provider's own token -> ARM path table, observed {found['observed']})"
    )


@functools.cache
def files() -> tuple[str, ...]:
    """The names of the table's files in this package, sorted (a reader's file that is not there is absent)."""
    return tuple(sorted(p.name for p in resources.files(__package__).iterdir() if FILES.match(p.name)))


@functools.cache
def table() -> dict[str, ProviderPath]:
    """Every token the provider's table states a path for, read from all of its files."""
    found: dict[str, ProviderPath] = {}
    for name in files():
        document = json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))
        source = _source(document)
        for token, path in document["paths"].items():
            if token in found and found[token].path != path:
                raise ValueError(f"catalog/arm/{name}: paths.{token}: {path!r} differs from another file's")
            found[token] = ProviderPath(token, path, source)
    return found


def unplaceable(path: str) -> str | None:
    """Why `path` names no ARM type a template can declare, or None where it does."""
    parts = path.strip("/").split("/")
    odd = [segment for segment in parts if "{" in segment and not _INPUT.match(segment)]
    if odd:  # keyvault:AccessPolicy's `{policy.objectId}`: a property of the body, no input of the URL
        return f"a segment ({odd[0]}) names no input of the resource"
    if "providers" not in parts:
        return None if len(parts) == 4 and parts[2].lower() == "resourcegroups" else "it names no provider namespace"
    at = len(parts) - 1 - parts[::-1].index("providers")
    namespace, rest = parts[at + 1] if at + 1 < len(parts) else "", parts[at + 2 :]
    if not namespace or _INPUT.match(namespace):
        return "its namespace is an input, not a name"
    if not rest or len(rest) % 2:
        return f"its last type ({rest[-1] if rest else namespace}) has no name segment: a setting of its parent"
    named_by_input = type_inputs(path)
    if named_by_input:
        return f"a type segment is an input ({named_by_input[0]}), so its ARM type depends on the value"
    return None


def type_inputs(path: str) -> tuple[str, ...]:
    """The inputs standing for type segments after a literal namespace (a DNS record set's `recordType` in
    `.../Microsoft.Network/dnsZones/{zoneName}/{recordType}/{relativeRecordSetName}`), outermost first; the
    resource's value of each picks its ARM type. Empty where the path has none or no literal namespace."""
    parts = path.strip("/").split("/")
    if "providers" not in parts:
        return ()
    at = len(parts) - 1 - parts[::-1].index("providers")
    if at + 1 >= len(parts) or _INPUT.match(parts[at + 1]):
        return ()
    return tuple(segment[1:-1] for segment in parts[at + 2 :][0::2] if _INPUT.match(segment))
