"""YAML as the Pulumi CLI reads `Pulumi.yaml` and stack files: gopkg.in/yaml.v3, not PyYAML's YAML 1.1.

The CLI decodes both files with gopkg.in/yaml.v3 (pulumi/pulumi `sdk/go/common/encoding/marshal.go`,
`sdk/go.mod`: gopkg.in/yaml.v3 v3.0.1; observed 2026-11-22). Where PyYAML's defaults differ, a program
would see other values offline than under `pulumi preview`, so this loader resolves plain scalars as
yaml.v3's `resolve.go` does (github.com/go-yaml/yaml, branch v3):

- booleans are only `true`/`True`/`TRUE`/`false`/`False`/`FALSE` (`yes`, `on`, `no`, `off` stay strings);
- null is `~`, `null`, `Null`, `NULL` or nothing, and `<<` merges a mapping;
- integers are decimal, `0x`, `0o`, `0b` or a leading-zero octal, `_` allowed; base-60 (`19:00`) stays a string;
- floats as YAML 1.2 writes them, plus `.inf`/`.nan`;
- dates and times stay strings (a stack's value is never a timestamp object).

A key given twice in one mapping is an error, as yaml.v3's decoder makes it (`decode.go`, `mapping`:
"mapping key %#v already defined at line %d"): YAML's last-one-wins would otherwise hide a typo.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_BOOL = ("true", "True", "TRUE", "false", "False", "FALSE")
_NULL = ("", "~", "null", "Null", "NULL")
_SPECIAL_FLOATS = (".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF")
_INT = re.compile(r"^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_TAG = "tag:yaml.org,2002:"


def resolve_plain(text: str) -> str:
    """The tag yaml.v3's `resolve` gives a plain (unquoted, untagged) scalar."""
    if text in _BOOL:
        return _TAG + "bool"
    if text in _NULL:
        return _TAG + "null"
    if text == "<<":
        return _TAG + "merge"
    if text in _SPECIAL_FLOATS:
        return _TAG + "float"
    if text[0] not in "+-.0123456789":
        return _TAG + "str"
    plain = text.replace("_", "")
    if _INT.match(plain):
        return _TAG + "int"
    if _FLOAT.match(plain):
        return _TAG + "float"
    return _TAG + "str"


class DuplicateKeyError(yaml.MarkedYAMLError):
    """A mapping that names one key twice."""


class PulumiYamlLoader(yaml.SafeLoader):
    """SafeLoader resolving plain scalars as yaml.v3 does, and refusing duplicate keys as it does."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and implicit[0]:
            return resolve_plain(value)
        return super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _TAG + "merge":
                continue  # a list or mapping as a key is refused below; `<<` merges (flatten_mapping)
            key = self.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
            if key in seen:
                raise DuplicateKeyError(
                    None, None, f"mapping key {key!r} already defined at line {seen[key] + 1}", key_node.start_mark
                )
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)
