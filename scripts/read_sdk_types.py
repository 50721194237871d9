"""Read every azure-native resource type of the installed pulumi-azure-native, and write it as data.

Each resource class of the SDK states its Pulumi type token (`@pulumi.type_token("azure-native:web:WebApp")`)
and, in its docstring, the ARM API version the provider sends ("Uses Azure REST API version 2024-04-01.");
its constructor lists its inputs (whether it takes a `location`). This script reads them for EVERY resource
class, by text (importing 260 modules would cost seconds and memory), and writes catalog/arm/sdk_types.json:

    {"sdk": "pulumi-azure-native 3.29.0", "types": {"azure-native:web:WebApp": {"apiVersion": "2025-05-01",
     "located": true}, ...}}

(`apiVersion` null: a type the provider implements itself, a data-plane call such as storage.Blob.)

Where ARM places each type (its resource id's shape) is not in the Python SDK: catalog/arm/arm_paths.json
keeps it, with a source per type; this script checks that every `{input}` of those paths is an input of
the type in the installed SDK, so a renamed input fails here rather than in a template.

    python scripts/read_sdk_types.py          # rewrite catalog/arm/sdk_types.json, print what changed
    python scripts/read_sdk_types.py --check  # change nothing; exit 1 when it is not up to date

Generated: never edit sdk_types.json by hand (tests/catalog/test_arm_registry.py regenerates and compares).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "catalog" / "arm" / "sdk_types.json"
PATHS = REPO / "catalog" / "arm" / "arm_paths.json"
SCHEMA_V2 = REPO / "catalog" / "arm" / "schema_paths_v2.json"  # scripts/read_schema_paths.py's, from the export
SCHEMA_OUT = REPO / "catalog" / "arm" / "schema_paths.json"

RESOURCE_CLASS = re.compile(
    r'@pulumi\.type_token\("(?P<token>azure-native:[a-z0-9]+:[A-Za-z0-9]+)"\)\s*\n'
    r"class (?P<cls>\w+)\(pulumi\.CustomResource\):"
)
API_VERSION = re.compile(r"Uses Azure REST API version ([0-9a-z-]+)")
# "In version 2.x of the Azure Native provider, it used API version 2022-09-01." and "Other available API
# versions: 2016-08-01, ...": the versions at which the installed SDK knows the same resource (its docstring)
VERSION_IN_2 = re.compile(r"In version 2\.x of the Azure Native provider, it used API version ([0-9a-z-]+)")
OTHER_VERSIONS = re.compile(r"Other available API versions: ([0-9a-z, -]+)\.")
INIT = re.compile(
    r"def __init__\(__self__,\s*resource_name: str,\s*opts: [^\n]*\n(?P<params>.*?)__props__=None\)", re.S
)
PARAM = re.compile(r"^\s+(\w+): ", re.M)
PATH_INPUT = re.compile(r"\{(\w+)\}")
DEPLOYMENT_OWN = ("subscriptionId",)  # the deployment's own, never an input


def camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def sdk_root() -> Path:
    spec = importlib.util.find_spec("pulumi_azure_native")
    if spec is None or spec.origin is None:
        raise SystemExit("pulumi-azure-native is not installed in this environment")
    return Path(spec.origin).parent


def read_types(root: Path) -> dict[str, dict[str, Any]]:
    """token -> {apiVersion, inputs} for every resource class of the SDK under `root`; the API version is the
    first the class's docstring states (each class's text runs to the next class, which has its own)."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(root.glob("*/*.py")):
        text = path.read_text(encoding="utf-8")
        if "(pulumi.CustomResource):" not in text:
            continue
        for match in RESOURCE_CLASS.finditer(text):
            following = RESOURCE_CLASS.search(text, match.end())
            rest = text[match.end() : following.start() if following else len(text)]
            init = INIT.search(rest)
            version = API_VERSION.search(rest)
            in_2 = VERSION_IN_2.search(rest)
            others = OTHER_VERSIONS.search(rest)
            if init is None:
                raise SystemExit(f"{path}: {match['token']}: no constructor with its inputs")
            inputs = sorted(camel(name) for name in PARAM.findall(init["params"]))
            # None: a type the provider implements itself (a data-plane call, a PIM schedule), no one version
            found[match["token"]] = {
                "apiVersion": version.group(1) if version else None,
                "located": "location" in inputs,
                "inputs": inputs,
                "versions": sorted(
                    {v for v in (version and version.group(1), in_2 and in_2.group(1)) if v}
                    | {v.strip() for v in (others.group(1).split(",") if others else [])}
                ),
            }
    return dict(sorted(found.items()))


def check_paths(types: dict[str, dict[str, Any]]) -> list[str]:
    """Every `{input}` of a curated ARM path is an input of its type in the installed SDK."""
    problems = []
    for token, entry in json.loads(PATHS.read_text(encoding="utf-8"))["types"].items():
        if token not in types:
            problems.append(f"{token}: in arm_paths.json, not a resource of the installed SDK")
            continue
        for name in PATH_INPUT.findall(entry.get("path", "")):
            if name not in DEPLOYMENT_OWN and name not in types[token]["inputs"]:
                problems.append(f"{token}: path input {{{name}}} is not an input of the installed SDK's type")
    return problems


def generate() -> str:
    types = read_types(sdk_root())
    problems = check_paths(types)
    if problems:
        raise SystemExit("\n".join(problems))
    document = {
        "note": "generated by scripts/read_sdk_types.py from the installed pulumi-azure-native; never edit by hand",
        "sdk": f"pulumi-azure-native {importlib.metadata.version('pulumi-azure-native')}",
        # the inputs are read to check arm_paths.json, not kept: whether a type takes a location is
        "types": {
            token: {k: v for k, v in entry.items() if k not in ("inputs", "versions")} for token, entry in types.items()
        },
    }
    return _one_type_a_line(document)


SPEC_TYPES = REPO / "catalog" / "arm" / "spec_arm_types.json"  # read_schema_paths.py --bicep-types
SPEC_PATHS = REPO / "catalog" / "arm" / "spec_paths.json"  # read_schema_paths.py --bicep-types


def schema_rows(
    types: dict[str, dict[str, Any]], *, verify: bool = True
) -> tuple[dict[str, dict[str, str]], dict[str, list[str]]]:
    """Each installed 3.x type's id shape from the 2.x schema export (schema_paths_v2.json), and why each other
    type has none.

    A 3.x token takes the 2.x row of the same token, else of the same resource name in the module 3.x renamed
    (2.x `insights` is 3.x `applicationinsights` and `monitor`; registry.MODULES_RENAMED_IN_3), else of the
    one 2.x module with a resource of that name when the 3.x class says it used that row's API version in 2.x
    (`network:Zone` -> `dns:Zone`). A row is taken only where the SDK knows the same resource at the export's
    API version (its docstring's versions), so a token that names another ARM type in 3.x (2.x
    `dbforpostgresql:FirewallRule` was a single server's, 3.x's is a flexible server's) is left out, and
    where every `{input}` of the shape is an input of the 3.x type. `verify`: where Azure's REST spec (as
    bicep-types-az lists it, spec_arm_types.json) has the type's namespace at the SDK's API version, the row's ARM
    type must be one it defines there."""
    from azure_gpu_stacks.catalog.arm.registry import MODULES_RENAMED_IN_3

    export = json.loads(SCHEMA_V2.read_text(encoding="utf-8"))
    where = export["source"]
    rows: dict[str, dict[str, Any]] = export["types"]
    by_name: dict[str, list[str]] = {}
    for token in rows:
        by_name.setdefault(token.rsplit(":", 1)[1], []).append(token)
    spec = json.loads(SPEC_TYPES.read_text(encoding="utf-8"))["types"] if verify else {}
    # where the spec's own type (read_schema_paths.py's shapes from it, spec_paths.json) gives another shape
    disagree = set(json.loads(SPEC_PATHS.read_text(encoding="utf-8"))["disagree"]) if verify else set()
    spec_lower = {key: {t.lower() for t in listed} for key, listed in spec.items()}
    renamed_from = {new: old for old, news in MODULES_RENAMED_IN_3.items() for new in news}
    placed: dict[str, dict[str, str]] = {}
    left: dict[str, list[str]] = {}
    for token, entry in types.items():
        _, module, name = token.split(":")
        old = renamed_from.get(module)
        same_name = by_name.get(name, [])
        if token in rows:
            source = token
        elif old and f"azure-native:{old}:{name}" in rows:
            source = f"azure-native:{old}:{name}"
        elif len(same_name) == 1 and rows[same_name[0]].get("apiVersion") in entry["versions"]:
            source = same_name[0]
        else:
            why = "no 2.x resource of its name" if not same_name else "2.x has it in another module, not this one"
            left.setdefault(why, []).append(token)
            continue
        row = rows[source]
        missing = [n for n in PATH_INPUT.findall(row.get("path", "")) if n not in DEPLOYMENT_OWN]
        missing = [n for n in missing if n not in entry["inputs"]]
        if entry["apiVersion"] is None:
            why = "the provider implements it itself (no API version)"
        elif "path" not in row:
            why = "its 2.x import example gives no shape (schema_paths_v2.json says why)"
        elif row.get("apiVersion") not in entry["versions"]:
            why = "the installed SDK does not know it at the export's API version (it may be another ARM type)"
        elif missing:
            why = "an input of its 2.x shape is not an input in 3.x"
        elif token in disagree:
            why = "the shape Azure's REST spec gives its type disagrees with the export's example"
        elif not _in_spec(row["path"], entry["apiVersion"], spec_lower):
            why = "Azure's REST spec has no such ARM type at the SDK's API version (bicep-types-az)"
        else:
            module2, name2 = source.split(":")[1:]
            placed[token] = {
                "path": row["path"],
                "source": f"{where['repo']} {where['commit'][:12]} ({where['date']}) {module2}/resources/{name2}.md,"
                f" import example; observed {where['observed']}",
            }
            continue
        left.setdefault(why, []).append(token)
    return placed, left


def arm_type_of(path: str) -> tuple[str, str]:
    """(namespace, ARM type) of an id shape: after its last `providers`, the namespace and the type segments."""
    parts = path.strip("/").split("/")
    at = len(parts) - 1 - parts[::-1].index("providers")
    return parts[at + 1], "/".join([parts[at + 1], *parts[at + 2 :][0::2]])


def _in_spec(path: str, version: str, spec: dict[str, set[str]]) -> bool:
    """False only where the spec lists the namespace at `version` and the shape's ARM type is not among them."""
    if "providers" not in path.split("/"):
        return True
    namespace, arm_type = arm_type_of(path)
    listed = spec.get(f"{namespace.lower()}@{version}")
    return listed is None or arm_type.lower() in listed


def generate_schema_paths() -> str:
    """catalog/arm/schema_paths.json: the id shapes the schema export gives the installed SDK's types."""
    placed, left = schema_rows(read_types(sdk_root()))
    document = {
        "note": "generated by scripts/read_sdk_types.py from schema_paths_v2.json (scripts/read_schema_paths.py) "
        "and the installed pulumi-azure-native; never edit by hand. arm_paths.json (curated) wins where both "
        "have a type.",
        "sdk": f"pulumi-azure-native {importlib.metadata.version('pulumi-azure-native')}",
        "placed": len(placed),
        "left": {why: len(tokens) for why, tokens in sorted(left.items())},
        "types": placed,
    }
    return _one_type_a_line(document)


def _one_type_a_line(document: dict[str, Any]) -> str:
    """The JSON with one type a line: small, and a re-run's diff names the types that changed."""
    head = {k: v for k, v in document.items() if k != "types"}
    lines = [f"{json.dumps(t)}: {json.dumps(e, sort_keys=True)}" for t, e in document["types"].items()]
    body = ",\n".join(f"  {line}" for line in lines)
    return json.dumps(head, indent=1)[:-2] + ',\n "types": {\n' + body + "\n }\n}\n"


def changes(old_text: str, new_text: str) -> list[str]:
    old = json.loads(old_text)["types"] if old_text else {}
    new = json.loads(new_text)["types"]
    out = [f"{t}: {'added' if t not in old else 'removed'}" for t in sorted(set(old) ^ set(new))]
    out += [
        f"{t}: {old[t]['apiVersion']} -> {new[t]['apiVersion']}"
        for t in sorted(set(old) & set(new))
        if old[t] != new[t]
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when not up to date")
    args = parser.parse_args(argv)
    new_text = generate()
    old_text = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
    for line in changes(old_text, new_text)[:50]:
        print(line)
    new_schema = generate_schema_paths()
    old_schema = SCHEMA_OUT.read_text(encoding="utf-8") if SCHEMA_OUT.exists() else ""
    stale = [out for out, old, new in ((OUT, old_text, new_text), (SCHEMA_OUT, old_schema, new_schema)) if old != new]
    if args.check:
        for out in stale:
            print(f"{out.relative_to(REPO)} is not up to date: run python scripts/read_sdk_types.py", file=sys.stderr)
        return 1 if stale else 0
    OUT.write_text(new_text, encoding="utf-8")
    SCHEMA_OUT.write_text(new_schema, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
