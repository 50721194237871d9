"""Project-level `config:` of `Pulumi.yaml` and the stack config checks the Pulumi CLI makes before
it runs a program, with its wording.

Sources (pulumi/pulumi at 1b59498, observed 2026-11-22):
- `sdk/go/common/workspace/project.json`: a declaration is a string, integer, boolean or array (the
  shorthand) or an object of `type`, `items`, `description`, `secret`, `default`, `value` and nothing
  else; `type` is one of string, integer, boolean, array, object; `items` needs a `type`.
- `sdk/go/common/workspace/project.go`: `RewriteShorthandConfigValues` (a bare value is the
  `default` of a project key and the `value` of any other), `Project.Validate` (no `default` with
  `value`; an array needs `items`; a typed default must be of its type; a key of another namespace
  takes only `value`), `ValidateConfigValue` and `InferFullTypeName` (what each type accepts).
- `pkg/workspace/config.go`: `mergeConfig` (a project key with no value, no default and nothing in
  the stack is missing; defaults and values fill the stack's gaps) and `validateStackConfigValue`
  (only for typed keys: a secret key must be `secure:` in the stack, then the type is checked).
  `pulumi preview` and `pulumi up` run it before the program (`pkg/cmd/pulumi/operations/preview.go`).
- `sdk/go/common/tokens/stack_name.go`: `ParseStackName`.

Not Pulumi's: a key in a namespace that is neither the project's nor a provider's is refused here
with a did-you-mean. The CLI passes it on and the program never reads it, which hides a typo.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from ..errors import InputError

TYPES = ("string", "integer", "boolean", "array", "object")
DECLARATION_KEYS = ("type", "items", "description", "secret", "default", "value")
# Namespaces of Pulumi itself and of providers teams on Azure use; any other is known when its
# Python SDK (`pulumi_<name>`) is installed next to the program.
KNOWN_NAMESPACES = (
    "pulumi",
    "azure-native",
    "azure",
    "azuread",
    "azuredevops",
    "kubernetes",
    "random",
    "tls",
    "command",
    "docker",
    "github",
    "time",
    "std",
    "aws",
    "gcp",
    "cloudflare",
    "datadog",
    "vault",
    "databricks",
)
STACK_NAME = re.compile(r"^[A-Za-z0-9_.-]*")
MISSING: Any = object()


@dataclass(frozen=True)
class Items:
    type: str
    items: Items | None = None

    def full_name(self) -> str:
        return f"array<{self.items.full_name()}>" if self.items else self.type


@dataclass(frozen=True)
class Declaration:
    """One entry of `Pulumi.yaml`'s `config:`."""

    key: str  # as written in Pulumi.yaml
    full_key: str  # <namespace>:<name>
    type: str | None = None
    items: Items | None = None
    default: Any = MISSING
    value: Any = MISSING
    secret: bool = False
    description: str = ""

    def type_name(self) -> str:
        return f"array<{self.items.full_name()}>" if self.items else str(self.type)

    def accepts(self, content: Any) -> bool:
        return accepts(str(self.type), self.items, content)


@dataclass(frozen=True)
class StackValue:
    """A stack's config value as the CLI holds it: the text the program gets, and its kind."""

    text: str
    secure: bool = False
    object: bool = False

    def content(self) -> Any:
        """What `validateStackConfigValue` checks: the text, or the parsed JSON of an object."""
        return json.loads(self.text) if self.object else self.text


def accepts(type_name: str, items: Items | None, value: Any) -> bool:
    """`ValidateConfigValue`: does `value` (a string, or parsed JSON of an object) fit the type?"""
    if type_name == "string":
        return isinstance(value, str)
    if type_name == "integer":
        if isinstance(value, bool):
            return False
        if isinstance(value, int):
            return True
        if isinstance(value, float):
            return math.isfinite(value) and value == math.trunc(value)
        return isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", value) is not None  # strconv.Atoi
    if type_name == "boolean":
        return value in ("true", "false") or isinstance(value, bool)
    if type_name == "object":
        return isinstance(value, dict)
    if not isinstance(value, list) or items is None:
        return False
    return all(accepts(items.type, items.items, item) for item in value)


def full_key(project: str, key: str) -> str | None:
    """`parseConfigKey`: a bare key is the project's; `ns:name` and `ns:config:name` are namespaced."""
    colons = key.count(":")
    if colons == 0:
        return f"{project}:{key}"
    if colons == 1:
        return key
    namespace, module, name = key.split(":", 2) if colons == 2 else ("", "", "")
    return f"{namespace}:{name}" if module == "config" and namespace and name else None


def _items(raw: Any, where: str) -> Items:
    if not isinstance(raw, dict) or "type" not in raw:
        raise InputError(f"{where}: items needs a type; allowed: one of {', '.join(TYPES)}")
    kind = raw["type"]
    if isinstance(kind, dict):  # the schema lets `type` itself be an items declaration
        return Items("array", _items(kind, where))
    if kind not in TYPES:
        raise InputError(f"{where}: items type {kind!r}; allowed: one of {', '.join(TYPES)}")
    if kind == "array" and "items" not in raw:
        raise InputError(f"{where}: an array items type needs items; allowed: items: {{type: string}} or another type")
    return Items(kind, _items(raw["items"], where) if "items" in raw else None)


def parse_declarations(project: str, raw: Any, label: str) -> tuple[Declaration, ...]:
    """The `config:` of a `Pulumi.yaml`, refused as `pulumi` refuses to load the project."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise InputError(f"{label}: config: expected a mapping of keys to declarations, got {type(raw).__name__}")
    found = []
    for key, decl in raw.items():
        where = f"{label}: config.{key}"
        name = full_key(project, str(key))
        if not isinstance(key, str) or name is None:
            raise InputError(
                f"{where}: could not parse {key} as a configuration key; allowed: <name> or <namespace>:<name>"
            )
        ours = name.split(":", 1)[0] == project
        if isinstance(decl, (str, int, list)) and not isinstance(decl, float):  # RewriteShorthandConfigValues
            decl = {"default": decl} if ours else {"value": decl}
        if not isinstance(decl, dict):
            raise InputError(
                f"{where}: {decl!r} is not a declaration; allowed: a string, integer, boolean, array, "
                "or a mapping of type, items, description, secret, default, value"
            )
        if unknown := sorted(str(k) for k in decl if k not in DECLARATION_KEYS):
            close = difflib.get_close_matches(unknown[0], DECLARATION_KEYS, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise InputError(f"{where}: unknown attribute '{unknown[0]}'; {hint}allowed: {', '.join(DECLARATION_KEYS)}")
        kind = decl.get("type")
        if kind is not None and kind not in TYPES:
            raise InputError(f"{where}.type: {kind!r}; allowed: one of {', '.join(TYPES)}")
        if "secret" in decl and not isinstance(decl["secret"], bool):
            raise InputError(f"{where}.secret: {decl['secret']!r}; allowed: true or false")
        item = _items(decl["items"], f"{where}.items") if "items" in decl else None
        d = Declaration(
            str(key),
            name,
            kind,
            item,
            decl.get("default", MISSING),
            decl.get("value", MISSING),
            bool(decl.get("secret", False)),
            str(decl.get("description") or ""),
        )
        _validate(d, ours, where)
        found.append(d)
    return tuple(found)


def _validate(d: Declaration, ours: bool, where: str) -> None:
    """`Project.Validate`, with its messages."""
    if d.default is not MISSING and d.value is not MISSING:
        raise InputError(f"{where}: project config '{d.key}' cannot have both a 'default' and 'value' attribute")
    if ours:
        if d.type == "array" and d.items is None:
            raise InputError(
                f"{where}: The configuration key '{d.key}' declares an array but does not specify the underlying "
                "type via the 'items' attribute"
            )
        if d.type is not None and d.default is not MISSING and not d.accepts(d.default):
            raise InputError(
                f"{where}: The default value specified for configuration key '{d.key}' is not of the expected "
                f"type '{d.type_name()}'"
            )
        return
    if d.type is not None:
        raise InputError(
            f"{where}: Configuration key '{d.key}' is not namespaced by the project and should not define a type"
        )
    if d.default is not MISSING:
        raise InputError(
            f"{where}: Configuration key '{d.key}' is not namespaced by the project and should not define a default "
            "value. Did you mean to use the 'value' attribute instead of 'default'?"
        )
    if d.value is MISSING:
        raise InputError(f"{where}: Configuration key '{d.key}' is namespaced and must provide an attribute 'value'")


def stack_value(value: Any) -> StackValue:
    """A YAML value of a stack file as the CLI stores it (`config.object.MarshalString`): objects as
    the JSON Go's encoding/json writes (compact, keys sorted)."""
    if isinstance(value, dict) and set(value) == {"secure"}:
        return StackValue(str(value["secure"]), secure=True)
    if isinstance(value, str):
        return StackValue(value)
    if value is None:
        return StackValue("")  # the CLI warns and treats a null top-level value as ""
    if isinstance(value, (dict, list)):
        return StackValue(
            json.dumps(_go_json(value), separators=(",", ":"), sort_keys=True), secure=_holds_secure(value), object=True
        )
    return StackValue(json.dumps(_go_json(value)))


def _go_json(value: Any) -> Any:
    """Numbers as Go's encoding/json writes a float64 that is whole: `1.0` is `1`."""
    if isinstance(value, float) and math.isfinite(value) and value == math.trunc(value) and abs(value) < 1e21:
        return int(value)
    if isinstance(value, dict):
        return {str(k): _go_json(v) for k, v in value.items()}  # JSON keys are text; YAML's `1:` is not
    if isinstance(value, list):
        return [_go_json(v) for v in value]
    return value


def _holds_secure(value: Any) -> bool:
    if isinstance(value, dict):
        return set(value) == {"secure"} or any(_holds_secure(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_secure(v) for v in value)
    return False


def _default_value(value: Any) -> StackValue:
    """`createConfigValue`: strings, integers and booleans as text, anything else as JSON."""
    if isinstance(value, bool):
        return StackValue("true" if value else "false")
    if isinstance(value, (str, int)):
        return StackValue(str(value))
    return StackValue(json.dumps(_go_json(value), separators=(",", ":"), sort_keys=True), object=True)


def _list(keys: list[str]) -> str:
    """`formatMissingKeys`: 'a', 'a' and 'b', 'a', 'b' and 'c'."""
    quoted = [f"'{k}'" for k in sorted(keys)] if len(keys) > 1 else [f"'{keys[0]}'"]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def apply_project_config(
    stack: str, project: str, declarations: tuple[Declaration, ...], values: dict[str, StackValue], label: str
) -> dict[str, StackValue]:
    """`ValidateStackConfigAndApplyProjectConfig`: the stack's values with the project's defaults and
    values merged in; InputError (the CLI's wording, the stack file named) when the CLI would stop."""
    merged = dict(values)
    missing = []
    for d in sorted(declarations, key=lambda d: d.key):
        if d.full_key in merged:
            continue
        given = d.default if d.default is not MISSING else d.value
        if given is MISSING:
            if d.full_key.split(":", 1)[0] == project:
                missing.append(d.key)
            continue
        merged[d.full_key] = _default_value(given)
    if missing:
        plural = "value" if len(missing) == 1 else "values"
        first = sorted(missing)[0]
        raise InputError(
            f"{label}: Stack '{stack}' is missing configuration {plural} {_list(missing)}; allowed: set it with "
            f"`pulumi config set {first} <value> --stack {stack}` (--secret for a secret), or give it a default "
            "in Pulumi.yaml"
        )
    for d in sorted(declarations, key=lambda d: d.key):
        if d.type is None:
            continue
        value = merged[d.full_key]
        if d.secret and not value.secure:
            raise InputError(
                f"{label}: {d.full_key}: Stack '{stack}' with configuration key '{d.key}' must be encrypted as it's "
                f"secret; allowed: `pulumi config set --secret {d.key} <value> --stack {stack}`"
            )
        if value.secure:
            continue  # only the CLI can decrypt it; offline it is a placeholder
        if not d.accepts(value.content()):
            raise InputError(
                f"{label}: {d.full_key}: {value.text!r}: Stack '{stack}' with configuration key '{d.key}' must be "
                f"of type '{d.type_name()}'; allowed: a value of that type, as Pulumi.yaml declares"
            )
    return merged


def check_namespace(key: str, project: str, declarations: tuple[Declaration, ...], label: str) -> None:
    """Refuse a key whose namespace is a near miss of the project's, a declared one or a provider's (a typo the
    program would never read). Any other namespace is the program's own key space: Pulumi reads
    `pulumi.Config("param")` from `param:<key>` ("Configuration keys use the format [<namespace>:]<key-name>
    ... allows custom components to define their own key spaces", pulumi.com/docs/iac/concepts/config,
    read 2026-11-27)."""
    namespace, _, name = key.partition(":")
    known = {project, *KNOWN_NAMESPACES, *(d.full_key.split(":", 1)[0] for d in declarations)}
    if namespace in known or _provider_installed(namespace):
        return
    close = difflib.get_close_matches(namespace, sorted(known), n=1, cutoff=0.6)
    if not close:
        return
    raise InputError(
        f"{label}: config: key '{key}': '{namespace}' is neither this project's namespace nor a provider's; "
        f"did you mean '{close[0]}:{name}'? allowed: {project}:<key>, or a provider's such as azure-native:location"
    )


def _provider_installed(namespace: str) -> bool:
    try:
        return importlib.util.find_spec("pulumi_" + namespace.replace("-", "_")) is not None
    except (ImportError, ValueError):
        return False


def stack_name_problem(name: str) -> str | None:
    """`ParseStackName`: None for a valid stack name, else Pulumi's message."""
    if not name:
        return "a stack name may not be empty"
    if len(name) > 100:
        return "a stack name cannot exceed 100 characters"
    end = STACK_NAME.match(name)
    at = end.end() if end else 0
    if at != len(name):
        return (
            "a stack name may only contain alphanumeric, hyphens, underscores, or periods: "
            f"invalid character {name[at]!r} at position {at}"
        )
    return None
