"""Read Azure's published REST contract for every type the fake ARM models, and write it as data.

Azure's REST API specs (Azure/azure-rest-api-specs) are swagger files of 100,000-350,000 characters
each, full of cross-file `$ref`s; Microsoft's own generator `autorest.bicep` (Azure/bicep-types-az)
reads them and publishes, per resource provider and API version, a resolved `types.json`: the body
of each ARM resource type as ARM receives it (`properties` nested, not flattened), with the
constraints the spec states (`pattern`, `minLength`/`maxLength`, `minimum`/`maximum` as
`minValue`/`maxValue`, array `minItems`/`maxItems` as `minLength`/`maxLength`, the `required` and
`readOnly` flags, secrets) and the spec commit it was generated from. That is what this script reads.

Two steps, so the data files are reproducible from files kept in the repository:

    # 1. save: from a clone of Azure/bicep-types-az (a work tree or a bare git directory), copy the
    #    part of each types.json reachable from the types the fake models, at the API version
    #    pulumi-azure-native uses for each, to tests/data/azure-specs/ (with the commits they come from)
    python scripts/read_specs.py save --bicep-types PATH

    # 2. write: read the saved files and rewrite catalog/arm/mapping.json and constraints.json;
    #    prints what changed (`--check`: change nothing, exit 1 when the files are not up to date)
    python scripts/read_specs.py write

What it writes, per pulumi-azure-native type token of `fakeazure.models.RESOURCE_TYPES` (each placed, ARM
type and path inputs, by the one type registry, catalog/arm/registry.py):
- mapping.json: the ARM type, the API version (read from the installed SDK's module docstring,
  "Uses Azure REST API version ..."), the inputs that are path parameters (resourceGroupName, vmName:
  inputs of the SDK's Args class that are not in the body), and at each level of the body which
  inputs pulumi-azure-native flattened out of `properties` (the swagger's `x-ms-client-flatten`):
  flattened exactly where the spec body has a `properties` object and the SDK's Args class for that
  level has no `properties` input of its own (Azure ML's `Compute.properties` is not flattened).
- constraints.json: per ARM body path (`properties.agentPoolProfiles[*].osDiskSizeGB`), the JSON type
  and the constraints the spec states, each type with the file and commits it came from.

Both files are generated: never edit them by hand (tests/catalog/test_arm_bodies.py regenerates and compares).
"""

from __future__ import annotations

import argparse
import collections.abc
import functools
import importlib
import inspect
import json
import re
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a file (`python scripts/read_specs.py`): import the project
    sys.path.insert(0, str(REPO))

from azure_gpu_stacks.catalog.arm.registry import Placement, placement  # noqa: E402
from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES  # noqa: E402
from azure_gpu_stacks.sdk.internals import getter_name  # noqa: E402

SAVED = REPO / "tests" / "data" / "azure-specs"
OUT = REPO / "catalog" / "arm"
BICEP_TYPES_REPO = "https://github.com/Azure/bicep-types-az"
SPECS_REPO = "https://github.com/Azure/azure-rest-api-specs"

# autorest.bicep's ObjectTypePropertyFlags (Azure/bicep-types, src/bicep-types/src/types.ts)
REQUIRED, READ_ONLY, WRITE_ONLY = 1, 2, 4
# ARM body properties every resource has that no program sets
ENVELOPE_READ_ONLY = ("id", "type", "apiVersion")


# --- the SDK's side: API versions and Args classes ------------------------------------------------


def sdk_api_version(token: str) -> str:
    """The API version pulumi-azure-native uses for `token`, from its module's docstring."""
    _, module, kind = token.split(":")
    package = importlib.import_module(f"pulumi_azure_native.{module.replace('/', '.')}")
    source = inspect.getsource(importlib.import_module(getattr(package, kind).__module__))
    found = set(re.findall(r"Uses Azure REST API version ([0-9a-z-]+)", source))
    if len(found) != 1:
        raise SystemExit(f"{token}: expected one 'Uses Azure REST API version' in the SDK, found {sorted(found)}")
    return found.pop()


def args_class(token: str) -> type:
    """The resource's Args class: `<Kind>InitArgs` where an input type took the name `<Kind>Args`."""
    _, module, kind = token.split(":")
    package = importlib.import_module(f"pulumi_azure_native.{module.replace('/', '.')}")
    return getattr(package, f"{kind}InitArgs", None) or getattr(package, f"{kind}Args")


def resource_class(token: str) -> type:
    """The resource's own class, whose getters name its outputs (inputs and what Azure answers)."""
    _, module, kind = token.split(":")
    return getattr(importlib.import_module(f"pulumi_azure_native.{module.replace('/', '.')}"), kind)  # type: ignore[no-any-return]


def _leaves(tp: Any) -> list[Any]:
    origin = typing.get_origin(tp)
    if origin is typing.Union:
        return [leaf for arg in typing.get_args(tp) for leaf in _leaves(arg)]
    if origin in (list, dict, collections.abc.Sequence, collections.abc.Mapping):
        return [leaf for arg in typing.get_args(tp)[-1:] for leaf in _leaves(arg)]
    return [tp]


@functools.cache
def args_fields(cls: type) -> dict[str, tuple[type, ...]]:
    """camelCase input name -> the nested Args classes its annotation names, for one Args class."""
    namespace = vars(importlib.import_module(cls.__module__.rsplit(".", 1)[0]))
    out: dict[str, tuple[type, ...]] = {}
    for attr in vars(cls).values():
        fget = attr.fget if isinstance(attr, property) else None
        name = getter_name(fget)
        if fget is None or name is None:
            continue
        nested = []
        for leaf in _leaves(fget.__annotations__.get("return")):
            leaf_name = leaf.__forward_arg__ if isinstance(leaf, typing.ForwardRef) else getattr(leaf, "__name__", "")
            found = namespace.get(leaf_name) if isinstance(leaf_name, str) else None
            if isinstance(found, type) and leaf_name.endswith("Args"):
                nested.append(found)
        out[name] = tuple(dict.fromkeys(nested))
    return out


# --- the spec's side: saved bicep types -----------------------------------------------------------


class Types:
    """One saved types.json: the type list and where it came from."""

    def __init__(self, path: Path):
        saved = json.loads(path.read_text(encoding="utf-8"))
        self.path = path
        self.source: dict[str, str] = saved["source"]
        self.types: list[dict[str, Any]] = saved["types"]
        self.resources: dict[str, int] = {name.lower(): index for name, index in saved["resources"].items()}

    def get(self, ref: dict[str, str]) -> tuple[int, dict[str, Any]]:
        index = int(ref["$ref"].removeprefix("#/"))
        return index, self.types[index]

    def body(self, arm_type: str, version: str) -> tuple[int, dict[str, Any]] | None:
        index = self.resources.get(f"{arm_type}@{version}".lower())
        return None if index is None else self.get(self.types[index]["body"])


def saved_types() -> list[Types]:
    return [Types(p) for p in sorted(SAVED.rglob("types.json"))]


def find_body(all_types: list[Types], arm_type: str, version: str) -> tuple[Types, int, dict[str, Any]]:
    for types in all_types:
        found = types.body(arm_type, version)
        if found is not None:
            return types, found[0], found[1]
    raise SystemExit(f"{arm_type}@{version}: not in the saved specs; run `save` first")


def _object_fields(types: Types, node: dict[str, Any]) -> dict[str, dict[str, Any]]:
    if node["$type"] == "DiscriminatedObjectType":
        return dict(node.get("baseProperties", {}))
    return dict(node.get("properties", {}))


# --- mapping ------------------------------------------------------------------------------------

# Inputs pulumi-azure-native names after the swagger's `x-ms-client-name` rather than the wire name,
# where the two differ by more than case, `_` or `-` (those are matched without a table): bicep types
# carry only wire names. Keyed by the spec's definition name; each with the swagger it is read from.
CLIENT_NAMES: dict[tuple[str, str], str] = {
    # specification/storage/resource-manager/Microsoft.Storage/stable/2024-01-01/storage.json
    ("StorageAccountPropertiesCreateParametersOrStorageAccountProperties", "enableHttpsTrafficOnly"): (
        "supportsHttpsTrafficOnly"
    ),
    ("StorageAccountPropertiesCreateParametersOrStorageAccountProperties", "enableNfsV3"): "isNfsV3Enabled",
    ("StorageAccountPropertiesCreateParametersOrStorageAccountProperties", "networkRuleSet"): "networkAcls",
    ("Encryption", "encryptionIdentity"): "identity",
    # specification/keyvault/resource-manager/Microsoft.KeyVault/stable/2024-11-01/secrets.json
    ("SecretAttributes", "notBefore"): "nbf",
    ("SecretAttributes", "expires"): "exp",
    # specification/containerregistry/.../preview/2023-01-01-preview/containerregistry.json
    ("IPRule", "iPAddressOrRange"): "value",
    # specification/storage/resource-manager/Microsoft.Storage/stable/2024-01-01/storage.json: VirtualNetworkRule's
    # required `id` has "x-ms-client-name": "VirtualNetworkResourceId"
    ("VirtualNetworkRule", "virtualNetworkResourceId"): "id",
}


def _plain(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def _merged_inputs(classes: tuple[type, ...]) -> dict[str, tuple[type, ...]]:
    inputs: dict[str, tuple[type, ...]] = {}
    for cls in classes:
        for name, nested in args_fields(cls).items():
            inputs[name] = tuple(dict.fromkeys(inputs.get(name, ()) + nested))
    return inputs


def _shape(
    types: Types, node: dict[str, Any], classes: tuple[type, ...], seen: frozenset[int], outputs: tuple[str, ...] = ()
) -> dict[str, Any]:
    """How pulumi-azure-native's inputs sit in the ARM body at this object level and below (pruned):
    `lifted` (wire names under `properties`), `renamed` (input -> wire name), `fields` (nested levels).
    `outputs`: the names the resource's own class answers besides its inputs (top level only): each is renamed
    too, so an answer reads back under ARM's names (an App Insights component's `appId` is `properties.AppId`)."""
    fields = _object_fields(types, node)
    inputs = _merged_inputs(classes)
    shape: dict[str, Any] = {}
    inner = fields.get("properties")
    definition = node.get("name", "")
    if inner is not None and "properties" not in inputs:
        index, target = types.get(inner["type"])
        if target["$type"] == "ObjectType" and index not in seen:
            shape["lifted"] = sorted(target.get("properties", {}))
            shape["envelope"] = sorted(k for k in fields if k != "properties")
            definition = target.get("name", "")
            fields = {**{k: v for k, v in fields.items() if k != "properties"}, **target.get("properties", {})}
    wire = {_plain(k): k for k in fields}
    renamed: dict[str, str] = {}
    children: dict[str, Any] = {}
    for name, nested in sorted({**dict.fromkeys(outputs, ()), **inputs}.items()):
        arm = CLIENT_NAMES.get((definition, name)) or CLIENT_NAMES.get((node.get("name", ""), name))
        # a name the body holds as it is stays itself (a component's `name` is the envelope's, not `properties.Name`)
        arm = arm or (name if name in fields else wire.get(_plain(name)))
        if arm is None:
            continue
        if arm != name:
            renamed[name] = arm
        if fields[arm].get("flags", 0) & READ_ONLY:
            continue
        child = _child_shape(types, fields[arm]["type"], nested, seen)
        if child:
            children[name] = child
    if renamed:
        shape["renamed"] = renamed
    if children:
        shape["fields"] = children
    return shape


def _child_shape(types: Types, ref: dict[str, str], classes: tuple[type, ...], seen: frozenset[int]) -> dict[str, Any]:
    index, node = types.get(ref)
    if index in seen or not classes:
        return {}
    kind = node["$type"]
    if kind == "ArrayType":
        inner = _child_shape(types, node["itemType"], classes, seen)
        return {"items": inner} if inner else {}
    if kind == "ObjectType" and "additionalProperties" in node and not node.get("properties"):
        inner = _child_shape(types, node["additionalProperties"], classes, seen)
        return {"values": inner} if inner else {}
    if kind in ("ObjectType", "DiscriminatedObjectType"):
        return _shape(types, node, classes, seen | {index})
    return {}


def path_inputs(token: str) -> list[str]:
    """The inputs that name the resource in the PUT's URL (as the fake builds its id), not the body."""
    rtype = placed(token)
    names = [*rtype.parent_inputs, rtype.name_input]
    names.append(rtype.scope_input or "resourceGroupName")
    return sorted({n for n in names if n and n in args_fields(args_class(token))})


def placed(token: str) -> Placement:
    """Where ARM places `token`: the one type registry (catalog/arm/registry.py), which the fake reads too."""
    found = placement(token)
    if found is None:
        raise SystemExit(f"{token}: the fake models it, the type registry (catalog/arm/arm_paths.json) cannot place it")
    return found


def mapping_entry(token: str, all_types: list[Types]) -> dict[str, Any]:
    rtype = placed(token)
    version = sdk_api_version(token)
    types, index, body = find_body(all_types, rtype.arm_type, version)
    cls = args_class(token)
    shape = _shape(types, body, (cls,), frozenset({index}), tuple(args_fields(resource_class(token))))
    in_url = path_inputs(token)
    known = {_plain(k) for k in _object_fields(types, body)} | {_plain(k) for k in shape.get("lifted", ())}
    known |= {_plain(k) for k in shape.get("renamed", {})}
    newer = sorted(n for n in args_fields(cls) if n not in in_url and _plain(n) not in known)
    entry = {
        "armType": rtype.arm_type,
        "apiVersion": version,
        "nameInput": rtype.name_input,
        "pathInputs": in_url,
        "body": shape,
        "source": _cite(types),
    }
    if newer:  # inputs of the SDK the saved spec does not have (a later spec commit): sent under properties
        entry["notInSpec"] = newer
    return entry


def _cite(types: Types) -> str:
    return (
        f"{types.source['file']} @ {BICEP_TYPES_REPO} {types.source['commit'][:12]} "
        f"(autorest.bicep of {types.source['spec']} @ {SPECS_REPO} {types.source['specCommit']})"
    )


# --- constraints ----------------------------------------------------------------------------------


JSON_TYPES = {
    "StringType": "string",
    "StringLiteralType": "string",
    # Bicep has no fractional type: the spec's `integer` and `number` (a budget's amount) both arrive as
    # IntegerType, so the JSON type said is `number`
    "IntegerType": "number",
    "BooleanType": "boolean",
    "ArrayType": "array",
    "ObjectType": "object",
    "DiscriminatedObjectType": "object",
}


def _json_type(types: Types, node: dict[str, Any]) -> str | None:
    if node["$type"] == "UnionType":
        kinds = {_json_type(types, types.get(e)[1]) for e in node["elements"]}
        return kinds.pop() if len(kinds) == 1 else None
    return JSON_TYPES.get(node["$type"])


def _constraints_of(node: dict[str, Any]) -> dict[str, Any]:
    kind = node["$type"]
    out: dict[str, Any] = {}
    if kind == "StringType":
        for ours, theirs in (("pattern", "pattern"), ("minLength", "minLength"), ("maxLength", "maxLength")):
            if theirs in node:
                out[ours] = node[theirs]
        if node.get("sensitive"):
            out["secret"] = True
    elif kind == "IntegerType":
        for ours, theirs in (("minimum", "minValue"), ("maximum", "maxValue")):
            if theirs in node:
                out[ours] = node[theirs]
    elif kind == "ArrayType":
        for ours, theirs in (("minItems", "minLength"), ("maxItems", "maxLength")):
            if theirs in node:
                out[ours] = node[theirs]
    return out


def walk_constraints(
    types: Types, ref: dict[str, str], path: str, seen: frozenset[int]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """(ARM body path, what the spec says of it) for every path under `ref`, cycles cut."""
    index, node = types.get(ref)
    if index in seen:
        return
    seen = seen | {index}
    kind = node["$type"]
    if kind == "ArrayType":
        yield from walk_constraints(types, node["itemType"], f"{path}[*]", seen)
    elif kind == "ObjectType" and "additionalProperties" in node and not node.get("properties"):
        yield from walk_constraints(types, node["additionalProperties"], f"{path}{{*}}", seen)
    elif kind in ("ObjectType", "DiscriminatedObjectType"):
        yield from _walk_fields(types, _object_fields(types, node), path, seen)
        if kind == "DiscriminatedObjectType":
            for value, element in sorted(node["elements"].items()):
                _, sub = types.get(element)
                where = f"{path}<{node['discriminator']}={value}>"
                yield from _walk_fields(types, dict(sub.get("properties", {})), where, seen)


def _walk_fields(
    types: Types, fields: dict[str, dict[str, Any]], path: str, seen: frozenset[int]
) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, prop in sorted(fields.items()):
        flags = prop.get("flags", 0)
        _, target = types.get(prop["type"])
        here = f"{path}.{name}" if path else name
        entry: dict[str, Any] = {}
        json_type = _json_type(types, target)
        if json_type:
            entry["type"] = json_type
        entry.update(_constraints_of(target))
        if flags & REQUIRED and not flags & READ_ONLY:
            entry["required"] = True
        if flags & READ_ONLY:
            entry["readOnly"] = True
        yield here, entry
        if not flags & READ_ONLY:
            yield from walk_constraints(types, prop["type"], here, seen)


def constraints_entry(token: str, all_types: list[Types]) -> dict[str, Any]:
    rtype = placed(token)
    version = sdk_api_version(token)
    types, index, body = find_body(all_types, rtype.arm_type, version)
    fields = {k: v for k, v in _object_fields(types, body).items() if k not in ENVELOPE_READ_ONLY}
    paths = dict(_walk_fields(types, fields, "", frozenset({index})))
    # keep what says more than "an object": the checks read types of leaves and every constraint
    kept = {p: e for p, e in paths.items() if set(e) - {"type"} or e.get("type") not in ("object", None)}
    return {"armType": rtype.arm_type, "apiVersion": version, "source": _cite(types), "paths": kept}


# --- save: trim the bicep types we need out of a bicep-types-az clone ----------------------------


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def save(bicep_types: Path) -> None:
    commit = _git(bicep_types, "rev-parse", "HEAD").strip()
    subject = _git(bicep_types, "log", "-1", "--format=%s")
    spec_commit = re.search(r"azure-rest-api-specs/tree/([0-9a-f]+)", subject)
    files = [f for f in _git(bicep_types, "ls-tree", "-r", "--name-only", "HEAD", "generated").split() if f]
    wanted = {f"{placed(t).arm_type}@{sdk_api_version(t)}".lower(): t for t in RESOURCE_TYPES}
    by_file: dict[str, list[str]] = {}
    for name in files:
        if not name.endswith("/types.json"):
            continue
        version = name.split("/")[-2]
        if not any(key.endswith(f"@{version}") for key in wanted):
            continue
        text = _git(bicep_types, "show", f"HEAD:{name}")
        for key in wanted:
            if key.endswith(f"@{version}") and f'"{key}"' in text.lower():
                by_file.setdefault(name, []).append(key)
    missing = set(wanted) - {k for keys in by_file.values() for k in keys}
    if missing:
        raise SystemExit(f"not in {bicep_types}: {sorted(missing)}")
    for name, keys in sorted(by_file.items()):
        types = json.loads(_git(bicep_types, "show", f"HEAD:{name}"))
        folder = name.rsplit("/", 3)[0]
        try:  # autorest's log names the spec's readme; a clone may lack the (large) log of a provider
            log = _git(bicep_types, "show", f"HEAD:{folder}/log.out")
        except subprocess.CalledProcessError:
            log = ""
        spec = re.search(r"Generating types for '([^']+)'", log)
        roots = [i for i, t in enumerate(types) if t["$type"] == "ResourceType" and t["name"].lower() in keys]
        trimmed, resources = _trim(types, roots)
        out = SAVED / name.removeprefix("generated/")
        out.parent.mkdir(parents=True, exist_ok=True)
        source = {
            "file": name,
            "repo": BICEP_TYPES_REPO,
            "commit": commit,
            "spec": spec.group(1) if spec else f"specification/{folder.split('/')[1].split('_')[0]}/resource-manager",
            "specCommit": spec_commit.group(1) if spec_commit else "",
        }
        document = {"source": source, "resources": resources, "types": trimmed}
        out.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"saved {out.relative_to(REPO)}: {len(trimmed)} of {len(types)} types")
        samples_file = name.removesuffix("types.json") + "samples.md"
        samples = _git(bicep_types, "show", f"HEAD:{samples_file}") if samples_file in files else ""
        examples = list(read_samples(samples, {k.split("@")[0] for k in keys}))
        document = {"source": {**source, "file": name.removesuffix("types.json") + "samples.md"}, "examples": examples}
        (out.parent / "examples.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        print(f"saved {out.parent.relative_to(REPO)}/examples.json: {len(examples)} examples")


def read_samples(markdown: str, arm_types: set[str]) -> Iterator[dict[str, Any]]:
    """The request bodies of autorest.bicep's samples.md (one per PUT example of the spec) for `arm_types`."""
    section = ""
    title = ""
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:].strip().lower()
        elif line.strip() == "```bicep" and section in arm_types:
            end = lines.index("```", i + 1)
            text = "\n".join(lines[i + 1 : end])
            head, _, rest = text.partition("=")
            resource = re.search(r"'([^'@]+)@([^']+)'", head)
            body = BicepReader(rest).value()
            body.pop("parent", None)  # Bicep's link to the parent resource: in ARM, the URL's path
            yield {"type": resource.group(1) if resource else section, "title": title, "body": body}
            i = end
        elif line.strip() and not line.startswith((">", "#", "```")):
            title = line.strip()
        i += 1


class BicepReader:
    """Just enough of Bicep's object syntax for the samples: objects, arrays, strings, numbers, literals."""

    TOKEN = re.compile(
        r"\s*(?:(?P<multi>'''.*?''')|(?P<str>'(?:\\.|[^'\\])*')|(?P<num>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
        r"|(?P<word>[A-Za-z_$][\w$-]*)|(?P<punct>[{}\[\]:]))",
        re.S,
    )
    ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "'": "'", "\\": "\\", "$": "$"}

    def __init__(self, text: str):
        self.tokens = [(m.lastgroup, m.group(m.lastgroup or "")) for m in self.TOKEN.finditer(text)]
        self.at = 0

    def _next(self) -> tuple[str | None, str]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def value(self) -> Any:
        kind, text = self._next()
        if text == "{":
            out: dict[str, Any] = {}
            while self.tokens[self.at][1] != "}":
                key_kind, key = self._next()
                key = self._string(key) if key_kind == "str" else key
                self._next()  # ':'
                out[key] = self.value()
            self.at += 1
            return out
        if text == "[":
            items = []
            while self.tokens[self.at][1] != "]":
                items.append(self.value())
            self.at += 1
            return items
        if kind == "str":
            return self._string(text)
        if kind == "multi":
            return text[3:-3]
        if kind == "num":
            return float(text) if any(c in text for c in ".eE") else int(text)
        return {"true": True, "false": False, "null": None}.get(text, text)

    def _string(self, text: str) -> str:
        return re.sub(r"\\(.)", lambda m: self.ESCAPES.get(m.group(1), m.group(1)), text[1:-1])


def _trim(types: list[dict[str, Any]], roots: list[int]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The types reachable from `roots` (functions dropped), renumbered in their original order."""
    keep: set[int] = set()
    stack = list(roots)
    while stack:
        index = stack.pop()
        if index in keep:
            continue
        keep.add(index)
        node = {k: v for k, v in types[index].items() if k != "functions"}
        stack.extend(int(r.removeprefix("#/")) for r in _refs(node))
    order = sorted(keep)
    new = {old: i for i, old in enumerate(order)}

    def renumber(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"$ref"}:
                return {"$ref": f"#/{new[int(value['$ref'].removeprefix('#/'))]}"}
            described = "$type" in value or isinstance(value.get("type"), dict)  # a type or a property
            return {
                k: renumber(v) for k, v in value.items() if k != "functions" and not (described and k == "description")
            }
        if isinstance(value, list):
            return [renumber(v) for v in value]
        return value

    trimmed = [renumber(types[i]) for i in order]
    resources = {types[i]["name"]: new[i] for i in roots}
    return trimmed, resources


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            yield value["$ref"]
        else:
            for v in value.values():
                yield from _refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _refs(v)


# --- write ---------------------------------------------------------------------------------------


def generate() -> dict[str, str]:
    """File name under catalog/arm -> its generated text."""
    all_types = saved_types()
    mapping = {token: mapping_entry(token, all_types) for token in sorted(RESOURCE_TYPES)}
    constraints = {token: constraints_entry(token, all_types) for token in sorted(RESOURCE_TYPES)}
    note = "generated by scripts/read_specs.py from tests/data/azure-specs; never edit by hand"
    return {
        "mapping.json": json.dumps({"note": note, "types": mapping}, indent=1, sort_keys=True) + "\n",
        "constraints.json": json.dumps({"note": note, "types": constraints}, indent=1, sort_keys=True) + "\n",
    }


def changes(old_text: str, new_text: str) -> list[str]:
    """What changed per type token, for a person reading a re-run."""
    old = json.loads(old_text)["types"] if old_text else {}
    new = json.loads(new_text)["types"]
    out: list[str] = []
    for token in sorted(set(old) | set(new)):
        before, after = old.get(token), new.get(token)
        if before == after:
            continue
        if before is None or after is None:
            out.append(f"{token}: {'added' if before is None else 'removed'}")
            continue
        for key in sorted(set(before) | set(after)):
            if key == "paths":
                gone = sorted(set(before[key]) - set(after[key]))
                came = sorted(set(after[key]) - set(before[key]))
                moved = sorted(p for p in set(before[key]) & set(after[key]) if before[key][p] != after[key][p])
                for label, paths in (("removed", gone), ("added", came), ("changed", moved)):
                    if paths:
                        out.append(f"{token}: {label} {len(paths)} path(s): {', '.join(paths[:5])}")
            elif before.get(key) != after.get(key):
                out.append(f"{token}: {key} {before.get(key)!r} -> {after.get(key)!r}"[:300])
    return out


def write(check: bool) -> int:
    stale = 0
    for name, text in generate().items():
        path = OUT / name
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old == text:
            print(f"{name}: up to date")
            continue
        stale += 1
        for line in changes(old, text):
            print(f"{name}: {line}")
        if not check:
            path.write_text(text, encoding="utf-8")
            print(f"wrote catalog/arm/{name}")
    return 1 if check and stale else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    save_parser = sub.add_parser("save", help="copy the needed bicep types from a bicep-types-az clone")
    save_parser.add_argument("--bicep-types", type=Path, required=True, help="a clone of Azure/bicep-types-az")
    write_parser = sub.add_parser("write", help="rewrite catalog/arm/*.json from the saved files")
    write_parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if not up to date")
    args = parser.parse_args(argv)
    if args.command == "save":
        save(args.bicep_types)
        return 0
    return write(args.check)


if __name__ == "__main__":
    raise SystemExit(main())
