"""Read the ARM id shape of every azure-native 2.x resource from a public export of the provider's schema.

Source: the repository danielrbradley/pulumi-azure-native-schema, commit
3b272d2e30a0761face63cacbe39535668353d22 (2023-05-24, "First export of dev v2 schema"): one folder per
module, and for each default-version resource `<module>/resources/<Name>.md`, whose "## Import" section
gives the provider's import command with an example resource id:

    pulumi import azure-native:storage:BlobContainer container6185 /subscriptions/{subscription-id}/
      resourceGroups/res3376/providers/Microsoft.Storage/storageAccounts/sto328/blobServices/default/
      containers/container6185

and `<module>/resources/<Name>.yaml`, the resource's schema with its inputs (`inputProperties`, each with a
description; the URL's path parameters are inputs that replace the resource when changed).

The example id gives the ARM type (the namespace after the last `providers` and the type segments) and the
id's shape; which input names each segment is read by matching the segment's type (`storageAccounts`) to the
path inputs (`accountName`: "The name of the storage account ..."); a segment no input names is a fixed name
(`blobServices/default`). The result, one row per 2.x token, is written to catalog/arm/schema_paths_v2.json:

    {"azure-native:storage:BlobContainer": {"importId": "<the example id>", "path": "/subscriptions/
      {subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Storage/storageAccounts/
      {accountName}/blobServices/default/containers/{containerName}"}, ...}

or, where no shape can be read, `"why"` instead of `"path"`. scripts/read_sdk_types.py maps these 2.x tokens to
the installed 3.x SDK's and checks every `{input}` against it (that step is tested for freshness; this one
needs the export itself, brought with `git clone` of the repository above):

    python scripts/read_schema_paths.py --schema-git <that repository's git directory>
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import yaml

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a file: import the project and its scripts
    sys.path.insert(0, str(REPO))
OUT = REPO / "catalog" / "arm" / "schema_paths_v2.json"
SCHEMA_REPO = "https://github.com/danielrbradley/pulumi-azure-native-schema"
SCHEMA_COMMIT = "3b272d2e30a0761face63cacbe39535668353d22"
SCHEMA_DATE = "2023-05-24"
OBSERVED = "2026-11-27"

RESOURCE_DOC = re.compile(r"^(?P<module>[a-z0-9]+)/resources/(?P<name>[A-Za-z0-9]+)\.md$")
IMPORT = re.compile(r"pulumi import (?P<token>azure-native:\S+) (?P<name>\S+) (?P<id>\S+)")
PLACEHOLDER = re.compile(r"^\{(\w[\w-]*)\}$")
# Inputs that name the deployment's own scope, never a segment of the resource's own path.
DEPLOYMENT_OWN = {"subscriptionId", "resourceGroupName"}
# Inputs an extension resource's id starts with (`/{scope}/providers/...`), by the names the provider uses.
SCOPE_INPUTS = ("scope", "resourceUri", "resourceId", "resourceScope", "scopeId", "billingScope")
UNIVERSAL_SCOPES = (
    "scope",
    "resourceUri",
    "resourceScope",
)  # never a property: an extension resource's scope wherever it is
# The name Azure gives a resource's one child of a kind (a storage account's `blobServices/default`: Learn, ARM
# template reference microsoft.storage/storageaccounts/blobservices, "name: 'default'", observed 2026-11-27).
SINGLETON = "default"
API_VERSION = re.compile(r"^API Version: ([0-9a-z-]+)\.?$", re.M)


def git_files(git_dir: Path) -> list[str]:
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", SCHEMA_COMMIT],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.split()


def git_read_many(git_dir: Path, paths: list[str]) -> dict[str, str]:
    """Each path's text at the commit, through one `git cat-file --batch`."""
    request = "".join(f"{SCHEMA_COMMIT}:{p}\n" for p in paths).encode()
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch"], input=request, capture_output=True, check=True
    ).stdout
    texts: dict[str, str] = {}
    at = 0
    for path in paths:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        if header[-1] == b"missing":
            at = end + 1
            continue
        size = int(header[2])
        texts[path] = out[end + 1 : end + 1 + size].decode("utf-8")
        at = end + 1 + size + 1
    return texts


def _words(text: str) -> list[str]:
    """`storageAccounts` -> ["storage", "account"]: lower-case words, plurals made singular."""
    parts = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", text)
    return [_singular(p.lower()) for p in parts if p]


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _score(segment_type: str, value: str, name: str, description: str) -> float:
    """How well input `name` (described by `description`) names a segment of type `segment_type`."""
    if value.lower() == "{" + name.lower() + "}":
        return 100.0
    type_words = _words(segment_type)
    input_words = [w for w in _words(name) if w not in ("name", "id")]
    joined_type = "".join(type_words)
    joined_input = "".join(input_words)
    score = 0.0
    if joined_input and joined_input == joined_type:
        score += 10
    elif joined_input and (joined_type.endswith(joined_input) or joined_input.endswith(joined_type)):
        score += 6
    score += 2 * len(set(type_words) & set(input_words))
    described = _words(" ".join(re.findall(r"[A-Za-z0-9]+", description.split(".")[0])))
    # "The name of the storage account": every word of the type in the first sentence
    if type_words and all(w in described for w in type_words):
        score += 3
    elif set(type_words) & set(described):
        score += 1
    return score


def _path_inputs(inputs: dict[str, Any]) -> dict[str, str]:
    """The inputs that may name a segment of the URL: strings (or enums) that replace the resource."""
    found = {}
    for name, spec in inputs.items():
        if name in DEPLOYMENT_OWN or name == "location" or not isinstance(spec, dict):
            continue
        if not spec.get("willReplaceOnChanges"):
            continue
        if spec.get("type", "string") != "string" and "$ref" not in spec:
            continue
        found[name] = str(spec.get("description", ""))
    return found


def shape(
    import_id: str, inputs: dict[str, Any], required: list[str], fixed_names: set[tuple[str, str]]
) -> tuple[str | None, str]:
    """The templated id shape of `import_id` with each name segment as the input that names it, or (None, why)."""
    text = import_id.strip()
    parts = text.strip("/").split("/")
    if "providers" not in [p.lower() for p in parts]:
        return None, "the import example is no resource id"
    candidates = _path_inputs(inputs)
    out: list[str] = []
    at = 0
    lowered = [p.lower() for p in parts]
    first_provider = lowered.index("providers")
    prefix = parts[:first_provider]
    scope = next((n for n in SCOPE_INPUTS if n in candidates), None)  # a string the resource is replaced on
    plain_prefix = len(prefix) in (2, 4) and prefix[0].lower() in ("subscriptions", "subscription")
    if scope not in (None, *UNIVERSAL_SCOPES) and plain_prefix and lowered.count("providers") == 1:
        scope = None  # `resourceId` beside an id of a plain subscription or group: a property, not the scope
    if scope is not None:
        # an extension resource: whatever its id starts with before its own provider is its scope input's
        at = len(lowered) - 1 - lowered[::-1].index("providers")
        out.append("{" + scope + "}")
        candidates.pop(scope, None)
    elif len(prefix) >= 2 and prefix[0].lower() in ("subscriptions", "subscription") and len(prefix) in (2, 4):
        out += ["subscriptions", "{subscriptionId}"]
        if len(prefix) == 4:
            if prefix[2].lower() != "resourcegroups" or "resourceGroupName" not in inputs:
                return None, "the import example's resource group has no input"
            out += ["resourceGroups", "{resourceGroupName}"]
        at = len(prefix)
    elif prefix:
        return None, f"the import example starts with '{'/'.join(prefix)}', which no input names"
    elif "resourceGroupName" in inputs:
        return None, "the import example names no resource group, where an input of the type does"
    # the rest: providers/<Namespace>/<type>/<name>[/<type>/<name>...], possibly an extension's second providers
    segments: list[tuple[int, str, str]] = []  # (index in out, type, value)
    rest = parts[at:]
    i = 0
    while i < len(rest):
        if rest[i].lower() == "providers":
            if i + 1 >= len(rest):
                return None, "the import example ends at 'providers'"
            out += ["providers", rest[i + 1]]
            i += 2
            continue
        if i + 1 >= len(rest):
            return None, f"the import example's type '{rest[i]}' has no name"
        out.append(rest[i])
        segments.append((len(out), rest[i], rest[i + 1]))
        out.append(rest[i + 1])
        i += 2
    if not segments:
        return None, "the import example names no resource"
    for _, _, value in segments:  # an input the example names by its placeholder, whatever its kind
        placeholder = PLACEHOLDER.match(value)
        found = next((n for n in inputs if placeholder and n.lower() == placeholder.group(1).lower()), None)
        if found is not None:
            candidates.setdefault(found, "")
    kinds = [n for n in candidates if n in required and n.endswith("Type")]
    if kinds:  # a type segment that an input chooses (a DNS record set's `{recordType}`): no one ARM type
        return None, f"a type segment of the import example is the input {kinds[0]}'s"
    assigned = _assign(segments, candidates, required, fixed_names, [n for n in inputs if n not in DEPLOYMENT_OWN])
    if assigned is None:
        return None, "a segment of the import example is neither an input's nor a fixed name"
    for index, _, value in segments:
        name = assigned.get(index)
        if name is not None:
            out[index] = "{" + name + "}"
        elif PLACEHOLDER.match(value):
            return None, f"the import example's {value} is no input of the type"
    return "/" + "/".join(out), ""


def _name_like(name: str) -> bool:
    return name == "name" or name.endswith(("Name", "Id", "ID"))


def _assign(
    segments: list[tuple[int, str, str]],
    candidates: dict[str, str],
    required: list[str],
    fixed_names: set[tuple[str, str]],
    all_inputs: list[str],
) -> dict[int, str] | None:
    """Each segment's input (segments no input names keep their fixed name), the last one's own name input."""
    named = {
        n: d
        for n, d in candidates.items()
        if _name_like(n) or not d or any(_score(kind, value, n, "") >= 10 for _, kind, value in segments)
    }
    pairs = sorted(
        (-_score(kind, value, name, description), position, name)
        for position, (_, kind, value) in enumerate(segments)
        for name, description in named.items()
    )
    assigned: dict[int, str] = {}
    used: set[str] = set()
    for negative, position, name in pairs:
        if -negative <= 0 or name in used or segments[position][0] in assigned:
            continue
        assigned[segments[position][0]] = name
        used.add(name)
    names_left = [n for n in named if n not in used and (n == "name" or n.endswith("Name"))]
    last = segments[-1][0]
    own = [n for n in names_left if n not in required]
    if last not in assigned and len(own) == 1:  # the resource's own name, which the provider auto-names
        assigned[last] = own[0]
        names_left.remove(own[0])
    unused = [n for n in all_inputs if n not in used]

    def fixed(kind: str, value: str) -> bool:
        """A fixed name: the same under the same type in 2+ examples, and no input named like its type
        (`watchlistAlias` may name `watchlists/...`)."""
        return (
            (kind.lower(), value) in fixed_names
            and kind.lower() != "resourcegroups"
            and not any(set(_words(kind)) & set(_words(n)) for n in unused)
        )

    open_segments = [index for index, kind, value in segments if index not in assigned and not fixed(kind, value)]
    if len(open_segments) == 1 and len(names_left) == 1:
        assigned[open_segments.pop()] = names_left.pop()
    if names_left or open_segments:  # an input that names no segment, or a segment no input names
        return None
    return assigned


def _repeated_pairs(ids: list[str]) -> set[tuple[str, str]]:
    """(type segment, name) pairs that two or more examples share (`blobServices/default`, `config/appsettings`):
    the candidates for a fixed name, where no input names the segment."""
    seen: dict[tuple[str, str], int] = {}
    named: set[str] = set()  # types some example names by a placeholder (`sites/{name}`): never fixed
    for example in ids:
        parts = example.strip("/").split("/")
        for kind, value in set(zip(parts[0::2], parts[1::2], strict=False)):
            if value.startswith("{"):
                named.add(kind.lower())
            else:
                seen[(kind.lower(), value)] = seen.get((kind.lower(), value), 0) + 1
    return {pair for pair, count in seen.items() if count >= 2 and (pair[0] not in named or pair[1] == SINGLETON)}


def read(git_dir: Path) -> dict[str, dict[str, str | None]]:
    docs = [p for p in git_files(git_dir) if RESOURCE_DOC.match(p)]
    schemas = [p[: -len(".md")] + ".yaml" for p in docs]
    texts = git_read_many(git_dir, docs + schemas)
    rows: dict[str, dict[str, str | None]] = {}
    examples = {doc: IMPORT.search(texts.get(doc, "")) for doc in docs}
    fixed_names = _repeated_pairs([m["id"] for m in examples.values() if m])
    for doc, schema in zip(docs, schemas, strict=True):
        found = examples[doc]
        module, name = RESOURCE_DOC.match(doc).group("module", "name")  # type: ignore[union-attr]
        token = f"azure-native:{module}:{name}"
        if found is None:
            rows[token] = {"why": "its page has no import example"}
            continue
        spec = yaml.safe_load(texts[schema]) if schema in texts else {}
        path, why = shape(found["id"], spec.get("inputProperties") or {}, spec.get("requiredInputs") or [], fixed_names)
        version = API_VERSION.search(texts[doc])
        row = {"importId": found["id"], "apiVersion": version.group(1) if version else None}
        if path:
            row["path"] = path
        else:
            row["why"] = why
        rows[token] = row
    return dict(sorted(_without_doubtful_fixed_names(rows).items()))


def _without_doubtful_fixed_names(rows: dict[str, dict[str, str | None]]) -> dict[str, dict[str, str | None]]:
    """A fixed name under a type that an input names in another resource's shape (`servers/testsvr` where others
    have `servers/{serverName}`) is an example's value, not Azure's fixed name; `default` excepted, the name
    Azure gives a resource's one child of a kind (a storage account's `blobServices/default`)."""
    named: set[str] = set()
    for row in rows.values():
        for kind, value in _pairs(row.get("path")):
            if value.startswith("{"):
                named.add(kind.lower())
    out = {}
    for token, row in rows.items():
        doubtful = [
            f"{kind}/{value}"
            for kind, value in _pairs(row.get("path"))
            if not value.startswith("{") and value != SINGLETON and kind.lower() in named
        ]
        out[token] = (
            {k: v for k, v in row.items() if k != "path"}
            | {"why": f"{doubtful[0]} is an example's value where other shapes have an input"}
            if doubtful
            else row
        )
    return out


def _pairs(path: str | None) -> list[tuple[str, str]]:
    """(type, name) segments of a shape after its last `providers/<Namespace>`."""
    if not path:
        return []
    parts = path.split("/providers/")[-1].split("/")[1:]
    return list(zip(parts[0::2], parts[1::2], strict=False))


BICEP_REPO = "https://github.com/Azure/bicep-types-az"
SPEC_OUT = REPO / "catalog" / "arm" / "spec_arm_types.json"
BICEP_FILE = re.compile(r"^generated/[^/]+/(?P<namespace>[^/]+)/(?P<version>[^/]+)/types\.json$")


NESTED_OUT = REPO / "catalog" / "arm" / "nested_properties.json"
DERIVED_OUT = REPO / "catalog" / "arm" / "spec_paths.json"
# bicep-types' ScopeType flags of a resource type's `writableScopes`: where a deployment may create it
TENANT, MANAGEMENT_GROUP, SUBSCRIPTION, RESOURCE_GROUP, EXTENSION = 1, 2, 4, 8, 16
PATH_SCOPES = ("scope", "resourceUri", "resourceScope")  # the inputs azure-native names an extension's scope by
NOT_PATH = ("resourceGroupName", "subscriptionId", "displayName", "principalName")
READ_ONLY = 2  # bicep-types' property flag (TypePropertyFlags.ReadOnly): Azure's answer only, never sent
_NESTED_DEPTH = 8


def spec_files(bicep_git: Path, wanted: set[tuple[str, str]]) -> dict[str, list[dict[str, Any]]]:
    """`namespace@version` -> the parsed types.json that Microsoft's autorest.bicep generates from
    azure-rest-api-specs (Azure/bicep-types-az `generated/<rp>/<namespace>/<version>/types.json`); where two
    folders hold the same namespace and version, their lists one after the other (each list's `$ref`s index
    its own file: `each_file` keeps them apart)."""
    return {key: [node for parsed in files for node in parsed] for key, files in each_file(bicep_git, wanted).items()}


def each_file(bicep_git: Path, wanted: set[tuple[str, str]]) -> dict[str, list[list[dict[str, Any]]]]:
    """`namespace@version` -> each parsed types.json of it, one list per file."""
    listing = subprocess.run(
        ["git", "--git-dir", str(bicep_git), "ls-tree", "-r", "--name-only", "HEAD", "generated"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    out: dict[str, list[list[dict[str, Any]]]] = {}
    for path in listing:
        found = BICEP_FILE.match(path)
        if found is None or (found["namespace"], found["version"]) not in wanted:
            continue
        blob = subprocess.run(
            ["git", "--git-dir", str(bicep_git), "cat-file", "-p", f"HEAD:{path}"], capture_output=True, text=True
        )
        if blob.returncode == 0:  # else a blob the snapshot does not hold
            out.setdefault(f"{found['namespace']}@{found['version']}", []).append(json.loads(blob.stdout))
    return out


def _resolve(types: list[dict[str, Any]], ref: dict[str, Any]) -> dict[str, Any]:
    return types[int(str(ref.get("$ref", "#/-1")).rsplit("/", 1)[1])]


def nested(types: list[dict[str, Any]], body: dict[str, Any]) -> dict[str, list[str]]:
    """ARM body path -> the keys beside `properties`, for every object below the top level that nests its own
    `properties` (a load balancer's `properties.frontendIPConfigurations[*]`: `name`, `id`, `zones` beside
    `properties`), which pulumi-azure-native takes flattened (the swagger's `x-ms-client-flatten`)."""
    found: dict[str, list[str]] = {}

    def walk(node: dict[str, Any], path: str, depth: int) -> None:
        if depth > _NESTED_DEPTH:
            return
        if node.get("$type") == "ArrayType":
            walk(_resolve(types, node["itemType"]), f"{path}[*]", depth + 1)
            return
        if node.get("$type") != "ObjectType":
            return
        props = {k: v for k, v in node.get("properties", {}).items() if not int(v.get("flags", 0)) & READ_ONLY}
        inner = props.get("properties")
        if path and inner is not None and _resolve(types, inner["type"]).get("$type") == "ObjectType":
            found[path] = sorted(k for k in props if k != "properties")
        for key, prop in props.items():
            walk(_resolve(types, prop["type"]), f"{path}.{key}" if path else key, depth + 1)

    walk(body, "", 0)
    return found


def derive_rows(
    bicep_git: Path, types: dict[str, dict[str, Any]], rows: dict[str, dict[str, str]], commit: list[str]
) -> tuple[dict[str, dict[str, Any]], list[str], dict[str, str]]:
    """An id shape for each installed SDK type from Azure's REST spec and the SDK's own inputs: the one ARM type
    the spec defines at the SDK's API version, in a namespace of the module's placed types, named like the
    class (`apimanagement:ApiGateway` -> `Microsoft.ApiManagement/service/gateways`... by its last segment),
    whose type segments the SDK's `...Name`/`...Id` inputs each name one to one; its scope from where the spec
    says a deployment writes it. Returns the shapes of types `rows` (curated and export rows) lacks, and the
    tokens where both give a shape and they disagree (left out of both: two public sources at odds), and why each
    type no row holds has no shape. Each shape names what confirms its namespace apart from the spec's own list (a
    module none of whose types another source places takes the namespace of its own name): the module's curated or
    export rows, the export's import examples of the module, the REST spec's service folder of the module's name.
    A shape none confirms while the export's examples of its module name another namespace is left out."""
    namespaces: dict[str, set[str]] = {}
    for token, row in rows.items():
        if "providers" in row["path"].split("/"):
            namespaces.setdefault(token.split(":")[1], set()).add(read_sdk_types_arm_type(row["path"])[0].lower())
    # a module none of whose types is placed yet: the spec's namespace of the module's own name, if there is one
    listing = subprocess.run(
        ["git", "--git-dir", str(bicep_git), "ls-tree", "-r", "--name-only", "HEAD", "generated"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    spec_namespaces = {m["namespace"] for p in listing if (m := BICEP_FILE.match(p))}
    placed_namespaces = {module: set(found) for module, found in namespaces.items()}
    for token in types:
        module = token.split(":")[1]
        if module not in namespaces and f"microsoft.{module}" in spec_namespaces:
            namespaces[module] = {f"microsoft.{module}"}
    # the REST spec's service folder of each namespace and version (azure-rest-api-specs `specification/<folder>`,
    # which bicep-types-az mirrors as `generated/<folder>`, split `<folder>_0`, `_1`... where it holds several)
    folders: dict[str, set[str]] = {}
    for listed_path in listing:
        if found := BICEP_FILE.match(listed_path):
            folder = re.sub(r"_\d+$", "", listed_path.split("/")[1])
            folders.setdefault(f"{found['namespace']}@{found['version']}", set()).add(folder)
    # the namespaces of the REST spec's service folder named like the module (specification/mongocluster holds
    # Microsoft.DocumentDB's mongoClusters, specification/trafficmanager Microsoft.Network's profiles)
    by_folder: dict[str, set[str]] = {}
    for key, named in folders.items():
        for folder in named:
            by_folder.setdefault(folder, set()).add(key.split("@")[0])
    wanted = {
        (namespace, entry["apiVersion"])
        for token, entry in types.items()
        if entry["apiVersion"]
        for namespace in namespaces.get(token.split(":")[1], set()) | by_folder.get(token.split(":")[1], set())
    }
    per_file = each_file(bicep_git, wanted)
    files = {key: [node for parsed in listed for node in parsed] for key, listed in per_file.items()}
    scopes = {
        key: {t["name"].split("@")[0]: int(t.get("writableScopes", t.get("scopeType", 0))) for t in parsed
              if t.get("$type") == "ResourceType"}
        for key, parsed in files.items()
    }  # fmt: skip
    bodies = {
        key: {t: s for parsed in listed for t, s in spec_types(parsed).items()} for key, listed in per_file.items()
    }
    # an export row whose ARM type the spec does not define at the SDK's API version is out of date (the export is
    # of 2023): the spec's own shape is taken instead, where it gives one
    stale = set()
    for token, row in rows.items():
        if "providers" in row["path"].split("/") and types.get(token, {}).get("apiVersion"):
            namespace, arm_type = read_sdk_types_arm_type(row["path"])
            listed_types = scopes.get(f"{namespace.lower()}@{types[token]['apiVersion']}")
            if listed_types is not None and arm_type.lower() not in {t.lower() for t in listed_types}:
                stale.add(token)
    rows = {token: row for token, row in rows.items() if token not in stale}
    derived: dict[str, dict[str, Any]] = {}
    disagree: list[str] = []
    left: dict[str, str] = {}
    by_body: dict[str, tuple[str, int]] = {}
    for token, entry in sorted(types.items()):
        if token not in rows and entry["apiVersion"] and _derive(token, entry, namespaces, scopes) is None:
            module = token.split(":")[1]
            found = _by_body(token, entry, namespaces.get(module, set()) | by_folder.get(module, set()), bodies)
            if found is not None:
                by_body[token] = found
    # a shape the class names only by its last segment (`UserRule`: `.../ruleCollections/{}/rules`) that another type
    # also has is that other type's, or one of several kinds at one id: no one type's
    taken = {row["path"].lower() for row in rows.values()}
    taken |= {p.lower() for t, e in types.items() if (p := _derive(t, e, namespaces, scopes))}
    shared = set()
    for token, (path, fit) in by_body.items():
        same = [t for t, (p, _) in by_body.items() if p.lower() == path.lower()]
        if fit != 2 and (path.lower() in taken or len(same) > 1):
            shared.add(token)  # (a class its type names outright, `GroupsOperation`, may share: two tokens, one type)
    exported = export_namespaces()
    for token, entry in sorted(types.items()):
        module = token.split(":")[1]
        path = _derive(token, entry, namespaces, scopes)
        how = "named by the installed SDK's inputs"
        if path is None and token in by_body and token not in shared:
            path = by_body[token][0]
            how = "named by the installed SDK's inputs that are no property of its body"
        if path is None:
            if token not in rows:
                left[token] = (
                    LEFT_PROVIDER if not entry["apiVersion"] else LEFT_SHARED if token in shared
                    else why_left(token, entry, namespaces.get(module, set()) | by_folder.get(module, set()), bodies)
                )  # fmt: skip
            continue
        if token in rows:
            if rows[token]["path"].lower() != path.lower():
                disagree.append(token)
            continue
        namespace, arm_type = read_sdk_types_arm_type(path)
        key = f"{namespace.lower()}@{entry['apiVersion']}"
        lowered = namespace.lower()
        evidence = [
            *(["the module's curated or 2.x export rows"] if lowered in placed_namespaces.get(module, ()) else []),
            *(["the 2.x export's import examples of the module"] if lowered in exported.get(module, ()) else []),
            *([f"the REST spec's folder specification/{module}"] if module in folders.get(key, ()) else []),
        ]
        if not evidence and exported.get(module):
            left[token] = LEFT_NAMESPACE_DISPUTED
            continue
        derived[token] = {
            "path": path,
            "source": f"{BICEP_REPO} {commit[0][:12]} ({commit[1]}) {key} types.json: {arm_type}, {how}; "
            f"observed {OBSERVED}",
            "namespaceConfirmedBy": evidence,
        }
    for token in disagree:
        left[token] = LEFT_DISAGREE
    return derived, disagree, left


def export_namespaces() -> dict[str, set[str]]:
    """Module -> the namespaces the 2.x export's import examples of its types name (every example, placed or
    not), under the module's 3.x names too (registry.MODULES_RENAMED_IN_3)."""
    from azure_gpu_stacks.catalog.arm.registry import MODULES_RENAMED_IN_3

    found: dict[str, set[str]] = {}
    for token, row in json.loads(OUT.read_text(encoding="utf-8"))["types"].items():
        parts = str(row.get("importId") or "").strip("/").split("/")
        lowered = [p.lower() for p in parts]
        if "providers" not in lowered or lowered[-1] == "providers":
            continue
        namespace = lowered[len(lowered) - lowered[::-1].index("providers")]
        module = token.split(":")[1]
        for name in (module, *MODULES_RENAMED_IN_3.get(module, ())):
            found.setdefault(name, set()).add(namespace)
    return found


def read_sdk_types_arm_type(path: str) -> tuple[str, str]:
    parts = path.strip("/").split("/")
    at = len(parts) - 1 - parts[::-1].index("providers")
    return parts[at + 1], "/".join([parts[at + 1], *parts[at + 2 :][0::2]])


def _derive(
    token: str, entry: dict[str, Any], namespaces: dict[str, set[str]], scopes: dict[str, dict[str, int]]
) -> str | None:
    _, module, kind = token.split(":")
    version = entry["apiVersion"]
    if not version:
        return None
    wanted = "".join(_words(kind))
    names = [n for n in entry["inputs"] if (n == "name" or n.endswith(("Name", "Id"))) and n not in NOT_PATH]
    own_names = [n for n in names if n == "name" or n.endswith("Name")]
    matches: list[tuple[int, str, int]] = []
    for namespace in sorted(namespaces.get(module, ())):
        for arm_type, writable in scopes.get(f"{namespace}@{version}", {}).items():
            segments = arm_type.split("/")[1:]
            last = "".join(_words(segments[-1]))
            score = 10 if last == wanted else 6 if wanted.endswith(last) and len(last) >= 4 else 0
            if score and len(own_names) <= len(segments) <= len(names):
                matches.append((score, arm_type, writable))
    best = max((m[0] for m in matches), default=0)
    top = [m for m in matches if m[0] == best]
    if len(top) != 1:
        return None
    _, arm_type, writable = top[0]
    namespace, *segments = arm_type.split("/")
    assigned: dict[int, str] = {}
    used: set[str] = set()
    pairs = sorted((-_score(seg, "", n, ""), i, n) for i, seg in enumerate(segments) for n in names)
    for negative, index, name in pairs:
        if -negative > 0 and index not in assigned and name not in used:
            assigned[index] = name
            used.add(name)
    left = [n for n in own_names if n not in used]
    open_segments = [i for i in range(len(segments)) if i not in assigned]
    if len(open_segments) == 1 and len(left) == 1:
        assigned[open_segments[0]] = left.pop()
    if len(assigned) != len(segments) or left:
        return None
    body = "/".join(f"{seg}/{{{assigned[i]}}}" for i, seg in enumerate(segments))
    scope = next((n for n in PATH_SCOPES if n in entry["inputs"]), None)
    if scope is not None and writable & EXTENSION:
        prefix = "/{" + scope + "}"
    elif "resourceGroupName" in entry["inputs"] and writable & RESOURCE_GROUP:
        prefix = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}"
    elif scope is None and "resourceGroupName" not in entry["inputs"] and writable & SUBSCRIPTION:
        prefix = "/subscriptions/{subscriptionId}"
    elif scope is None and "resourceGroupName" not in entry["inputs"] and writable == TENANT:
        prefix = ""
    else:
        return None
    return f"{prefix}/providers/{namespace}/{body}"


# The second pass: for a type the first (`_derive`) leaves out, the spec's body tells which of the SDK's inputs
# are the URL's: pulumi-azure-native takes each path parameter as an input and flattens the body's `properties`
# (x-ms-client-flatten), so an input that is neither a top-level body property nor one of `properties` names a
# segment of the id (or its resource group or scope). A segment whose type the spec names by a literal (`name:
# 'default'`, a singleton such as `Spring/configServers`) is that fixed name.
NOT_BODY = ("resourceGroupName", "location", "tags", "subscriptionId")
ENVELOPE = {"name", "id", "type", "apiVersion"}  # the resource's own, beside its body: never a flattened input


@dataclass(frozen=True)
class SpecType:
    """One resource type of a spec file, with what the second pass needs of its body."""

    writable: int
    literal_name: str | None  # `name`'s literal value in the body: a fixed name (`default`), else None
    body_keys: frozenset[str]  # top-level body properties and those of `properties`, lower-cased


def spec_types(parsed: list[dict[str, Any]]) -> dict[str, SpecType]:
    """ARM type -> SpecType, for every resource type of one bicep-types file."""
    out: dict[str, SpecType] = {}
    for node in parsed:
        if node.get("$type") != "ResourceType":
            continue
        body = _resolve(parsed, node["body"])
        top = _object_properties(parsed, body)
        name = top.get("name")
        literal = _resolve(parsed, name["type"]) if name else {}
        inner = top.get("properties")
        keys = (set(top) - ENVELOPE) | (
            set(_object_properties(parsed, _resolve(parsed, inner["type"]))) if inner else set()
        )
        out[node["name"].split("@")[0]] = SpecType(
            writable=int(node.get("writableScopes", node.get("scopeType", 0))),
            literal_name=str(literal["value"]) if literal.get("$type") == "StringLiteralType" else None,
            body_keys=frozenset(k.lower() for k in keys),
        )
    return out


def _object_properties(parsed: list[dict[str, Any]], node: dict[str, Any]) -> dict[str, Any]:
    """An object's properties; a discriminated object's base properties and every variant's."""
    if node.get("$type") == "ObjectType":
        return dict(node.get("properties", {}))
    if node.get("$type") == "DiscriminatedObjectType":
        found = dict(node.get("baseProperties", {}))
        for ref in node.get("elements", {}).values():
            found.update(_object_properties(parsed, _resolve(parsed, ref)))
        found[node["discriminator"]] = {}
        return found
    return {}


def _stems(text: str) -> list[str]:
    """`_words` compared leniently: a final `e` dropped after the plural (`caches` and `Cache` both `cach`)."""
    return [w[:-1] if w.endswith("e") and len(w) > 3 else w for w in _words(text)]


# what pulumi-azure-native's names add to a spec type's (from the REST spec's operation ids: `GroupsOperations_Create`
# is migrate:GroupsOperation, `SitesController_Create` offazure:SitesController, `FrontendsInterface_CreateOrUpdate`
# servicenetworking:FrontendsInterface, `...ById`/`...ByName` a second path to the same type)
NAME_SUFFIXES = ("Operation", "Controller", "Interface", "ById", "ByName")


def _chain_fit(kind: str, segments: list[str]) -> tuple[int, int]:
    """How well the class name `kind` names a type of `segments`: (2 where the last segments' words, joined,
    are the class's own (`ApiPolicy`: `apis/policies`), 1 where the class ends with the last segment's words or
    that segment with the class's (`Account`: `netAppAccounts`), 0 otherwise; how many of the class's words the
    type's segments hold). `<Kind>By<Parent>` names a `<Kind>` under a parent of that name; a suffix of
    NAME_SUFFIXES is the operation's, not the type's."""
    best = max(_fit(kind, segments, _words), _fit(kind, segments, _stems))
    for suffix in NAME_SUFFIXES:
        if best[0] == 0 and kind.endswith(suffix) and len(kind) > len(suffix):
            best = max(_fit(kind[: -len(suffix)], segments, _words), _fit(kind[: -len(suffix)], segments, _stems))
    return best


def _fit(kind: str, segments: list[str], _stems: Callable[[str], list[str]]) -> tuple[int, int]:
    words = [w for seg in segments for w in _stems(seg)]
    covered = sum(w in words for w in _stems(kind))
    by_parent = re.match(r"^(?P<own>[A-Z]\w*?)By(?P<parent>[A-Z]\w*)$", kind)
    if by_parent:  # `PrivateEndpointConnectionByHostPool`: `hostPools/privateEndpointConnections`
        kind = by_parent["own"]
        joined = "".join(words[: -len(_stems(segments[-1]))]) if len(segments) > 1 else ""
        if "".join(_stems(by_parent["parent"])) not in joined:
            return 0, covered
    wanted = "".join(_stems(kind))
    for start in range(len(segments)):
        if "".join(w for seg in segments[start:] for w in _stems(seg)) == wanted:
            return 2, covered
    last = "".join(_stems(segments[-1]))
    shorter = min(len("".join(_words(segments[-1]))), len("".join(_words(kind))))
    return (1 if (wanted.endswith(last) or last.endswith(wanted)) and shorter >= 4 else 0), covered


def _by_body(
    token: str, entry: dict[str, Any], namespaces: set[str], files: dict[str, dict[str, SpecType]]
) -> tuple[str, int] | None:
    """The id shape of the one spec type at the SDK's API version, in `namespaces`, that the class names best and
    whose segments the SDK's non-body inputs name one to one, with how the class names it (`_chain_fit`'s first
    number); None where none or several do."""
    kind = token.split(":")[2]
    version = entry["apiVersion"]
    fits: list[tuple[tuple[int, int], str]] = []
    for namespace in sorted(namespaces):
        listed = files.get(f"{namespace}@{version}", {})
        for arm_type, spec in listed.items():
            fit = _chain_fit(kind, arm_type.split("/")[1:])
            if fit[0] == 0:
                continue
            path = _assign_by_body(entry, arm_type, spec, listed)
            if path is not None:
                fits.append((fit, path))
    best = max((f for f, _ in fits), default=None)
    top = [(p, f[0]) for f, p in fits if f == best]
    return top[0] if len(top) == 1 else None


LEFT_NO_NAMESPACE = "no namespace of its module is in the REST spec at the SDK's API version (bicep-types-az)"
LEFT_NO_NAME = "no type of the REST spec at the SDK's API version is named like the class"
LEFT_INPUTS = "the spec types named like the class have segments the SDK's inputs do not name one to one"
LEFT_SEVERAL = "several spec types fit the class and its inputs equally"
LEFT_SHARED = "the one spec type that fits is another SDK type's shape, or several types' (kinds at one id)"
LEFT_DISAGREE = "the 2.x export's example and the REST spec give different shapes"
LEFT_PROVIDER = "the provider implements it itself (no API version)"
LEFT_EXPORT_NOT_IN_SPEC = (
    "the 2.x export's example names an ARM type the REST spec does not define at the SDK's version"
)
LEFT_NAMESPACE_DISPUTED = "the 2.x export's examples of its module name another namespace and nothing confirms this one"


def why_left(token: str, entry: dict[str, Any], namespaces: set[str], files: dict[str, dict[str, SpecType]]) -> str:
    """Why neither pass gives `token` a shape (for a type with an API version that no row holds)."""
    kind = token.split(":")[2]
    keys = [f"{namespace}@{entry['apiVersion']}" for namespace in sorted(namespaces)]
    listed = [(key, arm_type, spec) for key in keys for arm_type, spec in files.get(key, {}).items()]
    if not listed:
        return LEFT_NO_NAMESPACE
    named = [(key, arm_type, spec) for key, arm_type, spec in listed if _chain_fit(kind, arm_type.split("/")[1:])[0]]
    if not named:
        return LEFT_NO_NAME
    if not any(_assign_by_body(entry, arm_type, spec, files[key]) for key, arm_type, spec in named):
        return LEFT_INPUTS
    return LEFT_SEVERAL


def _assign_by_body(entry: dict[str, Any], arm_type: str, spec: SpecType, listed: dict[str, SpecType]) -> str | None:
    namespace, *segments = arm_type.split("/")
    lowered = {t.lower(): s for t, s in listed.items()}
    fixed: dict[int, str] = {}
    for index in range(len(segments)):
        level = lowered.get("/".join([namespace, *segments[: index + 1]]).lower())
        if level is not None and level.literal_name is not None:
            fixed[index] = level.literal_name
    scope = next((n for n in PATH_SCOPES if n in entry["inputs"]), None)
    pool = [n for n in entry["inputs"] if n.lower() not in spec.body_keys and n not in NOT_BODY and n != scope]
    open_segments = [i for i in range(len(segments)) if i not in fixed]
    if len(pool) > len(open_segments):
        return None
    assigned: dict[int, str] = {}
    used: set[str] = set()
    pairs = sorted((-_score(segments[i], "", n, ""), i, n) for i in open_segments for n in pool)
    for negative, index, name in pairs:
        if -negative > 0 and index not in assigned and name not in used:
            assigned[index] = name
            used.add(name)
    # a parent named by an input the body also holds under the same name (an API issue's `apiId`, in the URL and in
    # `properties.apiId`): only one that names the parent's kind outright
    for index in open_segments[:-1]:
        if index not in assigned:
            named = [n for n in entry["inputs"] if n.lower() in spec.body_keys and n.endswith(("Name", "Id"))]
            fits = [n for n in named if n not in used and _score(segments[index], "", n, "") >= 6]
            if len(fits) == 1:
                assigned[index] = fits[0]
                used.add(fits[0])
    left = [n for n in pool if n not in used]
    still_open = [i for i in open_segments if i not in assigned]
    # the one segment left takes the one input left: the own name by whatever name the SDK gives it (`authsid`), a
    # parent only by a name that names no kind (`resourceName`, `serviceName`: `signalR/{resourceName}`)
    if len(still_open) == 1 and len(left) == 1:
        if still_open == [len(segments) - 1] or not set(_words(left[0])) - {"name", "id", "resource", "service"}:
            assigned[still_open[0]] = left.pop()
    if len(assigned) != len(open_segments) or left:
        return None
    body = "/".join(
        f"{seg}/{{{assigned[i]}}}" if i in assigned else f"{seg}/{fixed[i]}" for i, seg in enumerate(segments)
    )
    return _with_scope(entry, spec.writable, scope, f"/providers/{namespace}/{body}")


def _with_scope(entry: dict[str, Any], writable: int, scope: str | None, rest: str) -> str | None:
    """`rest` (`/providers/...`) behind the prefix where the spec says a deployment writes the type."""
    if scope is not None and writable & EXTENSION:
        return "/{" + scope + "}" + rest
    if scope is None and "resourceGroupName" in entry["inputs"] and writable & RESOURCE_GROUP:
        return "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}" + rest
    if scope is None and "resourceGroupName" not in entry["inputs"] and writable & SUBSCRIPTION:
        return "/subscriptions/{subscriptionId}" + rest
    if scope is None and "resourceGroupName" not in entry["inputs"] and writable == TENANT:
        return rest
    return None


def write_spec_types(bicep_git: Path) -> None:
    """catalog/arm/spec_arm_types.json: the spec's ARM types at each namespace and API version the registry's
    rows (curated and from the export) would be sent with by the installed SDK; catalog/arm/nested_properties.json:
    for each of those types the spec does not map already (mapping.json), where its body nests `properties`
    below the top level."""
    from scripts import read_sdk_types  # the installed SDK's types, mapped to the export's rows as it maps them

    types = read_sdk_types.read_types(read_sdk_types.sdk_root())
    placed, _ = read_sdk_types.schema_rows(types, verify=False)
    curated = json.loads((REPO / "catalog" / "arm" / "arm_paths.json").read_text(encoding="utf-8"))["types"]
    mapped = json.loads((REPO / "catalog" / "arm" / "mapping.json").read_text(encoding="utf-8"))["types"]
    rows = {**placed, **{t: r for t, r in curated.items() if "path" in r and t in types}}
    located = {
        token: (*read_sdk_types.arm_type_of(row["path"]), types[token]["apiVersion"])
        for token, row in rows.items()
        if "providers" in row["path"].split("/") and types[token]["apiVersion"]
    }
    wanted = {(namespace.lower(), version) for namespace, _, version in located.values()}
    # the provider's shapes whose type segment is an input (a DNS record set's `{recordType}`): the spec's list at
    # their namespace and version says which values name an ARM type (registry.placement_for)
    from azure_gpu_stacks.catalog.arm import provider_paths

    for token, found in provider_paths.table().items():
        if provider_paths.type_inputs(found.path) and types.get(token, {}).get("apiVersion"):
            parts = found.path.strip("/").split("/")
            namespace = parts[len(parts) - parts[::-1].index("providers")]
            wanted.add((namespace.lower(), types[token]["apiVersion"]))
    commit = subprocess.run(
        ["git", "--git-dir", str(bicep_git), "log", "-1", "--format=%H %ad", "--date=short"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    files = spec_files(bicep_git, wanted)
    listed = {
        key: sorted({t["name"].split("@")[0] for t in parsed if t.get("$type") == "ResourceType"})
        for key, parsed in sorted(files.items())
    }
    derived, disagree, left = derive_rows(bicep_git, types, rows, commit)
    nesting: dict[str, dict[str, list[str]]] = {}
    for token, (namespace, arm_type, version) in sorted(located.items()):
        parsed = files.get(f"{namespace.lower()}@{version}")
        if token in mapped or parsed is None:
            continue
        resource = next(
            (
                t
                for t in parsed
                if t.get("$type") == "ResourceType" and t["name"].lower() == f"{arm_type}@{version}".lower()
            ),
            None,
        )
        if resource is not None and (found := nested(parsed, _resolve(parsed, resource["body"]))):
            nesting[token] = found
    head = {
        "note": "generated by scripts/read_schema_paths.py --bicep-types; never edit by hand",
        "source": {"repo": BICEP_REPO, "commit": commit[0], "date": commit[1], "observed": OBSERVED},
    }
    for token, row in placed.items():  # the export's rows that read_sdk_types.py leaves out for the spec
        namespace, arm_type = read_sdk_types.arm_type_of(row["path"])
        spec_listed = listed.get(f"{namespace.lower()}@{types[token]['apiVersion']}")
        if (
            token not in curated
            and token not in derived
            and spec_listed is not None
            and arm_type.lower() not in map(str.lower, spec_listed)
        ):
            left[token] = LEFT_EXPORT_NOT_IN_SPEC
    reasons: dict[str, list[str]] = {}
    for token, why in sorted(left.items()):
        if "path" in curated.get(token, {}):  # a curated row places it whatever the sources say
            continue
        reasons.setdefault(why, []).append(token)
    derived_head = {
        **head,
        "disagree": disagree,
        "namespaceConfirmed": sum(bool(row["namespaceConfirmedBy"]) for row in derived.values()),
        "namespaceUnconfirmed": sorted(t for t, row in derived.items() if not row["namespaceConfirmedBy"]),
        "left": dict(sorted(reasons.items(), key=lambda item: -len(item[1]))),
    }
    for out, data in ((SPEC_OUT, listed), (NESTED_OUT, nesting)):
        lines = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in data.items()]
        out.write_text(json.dumps(head, indent=1)[:-2] + ',\n "types": {\n' + ",\n".join(lines) + "\n }\n}\n")
    lines = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in derived.items()]
    DERIVED_OUT.write_text(
        json.dumps(derived_head, indent=1)[:-2] + ',\n "types": {\n' + ",\n".join(lines) + "\n }\n}\n"
    )
    print(f"{len(listed)} namespace@version lists of ARM types, {len(nesting)} types nesting", file=sys.stderr)
    print(f"{len(derived)} shapes from the spec's types, {len(disagree)} where the export disagrees", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema-git", type=Path, help="the schema repository's git directory")
    parser.add_argument("--bicep-types", type=Path, help="Azure/bicep-types-az's git directory")
    args = parser.parse_args(argv)
    if args.bicep_types:
        write_spec_types(args.bicep_types)
    if not args.schema_git:
        return 0
    rows = read(args.schema_git)
    head = {
        "note": "generated by scripts/read_schema_paths.py from the schema export below; never edit by hand",
        "source": {"repo": SCHEMA_REPO, "commit": SCHEMA_COMMIT, "date": SCHEMA_DATE, "observed": OBSERVED},
    }
    lines = [f"  {json.dumps(t)}: {json.dumps(r, sort_keys=True)}" for t, r in rows.items()]
    OUT.write_text(json.dumps(head, indent=1)[:-2] + ',\n "types": {\n' + ",\n".join(lines) + "\n }\n}\n")
    placed = sum("path" in r for r in rows.values())
    print(f"{placed} of {len(rows)} 2.x resources with an id shape", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
