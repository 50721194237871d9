"""The components' reference, `docs/components.md`, generated from the code.

    python -m azure_gpu_stacks.components.docs           # (or `make docs`) rewrite docs/components.md
    python -m azure_gpu_stacks.components.docs --check   # exit 1 if the committed file is stale

Everything comes from the registered components: names, types and required flags from the package
schema (what other languages see), defaults, units and meaning from the Args field docstrings
("... Default: X."), the allowed values of closed choices from their `Literal` annotations, and the
overview from the component module's docstring. The tests fail when the committed file differs.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from .package import args_type, python_annotations, schema, type_token
from .registry import args_name, component_classes
from .version import __version__

DOC_FILE = Path(__file__).resolve().parents[1] / "docs" / "components.md"
COMMAND = "make docs"  # or: python -m azure_gpu_stacks.components.docs
DEFAULT_MARK = "Default:"
SCALARS = {"string": "string", "integer": "integer", "number": "number", "boolean": "boolean"}


def render() -> str:
    """The whole reference, as Markdown."""
    package = schema()
    classes = component_classes()
    lines = [
        "# Components reference",
        "",
        f"<!-- Generated from the components' code by `{COMMAND}` (python -m azure_gpu_stacks.components.docs); "
        "do not edit. -->",
        "",
        f"azure-gpu-stacks {__version__}. Every component, with every input (type, default, unit) and output.",
        "",
        (
            '- **Python**: `pip install "azure-gpu-stacks @ git+https://github.com/<org>/azure-gpu-stacks'
            f'@v{__version__}"`, then `from azure_gpu_stacks.components import '
            f"{', '.join(c.__name__ for c in classes)}`. "
            "Args are a dict with the snake_case names (`<org>`: the GitHub owner of this repository, "
            "docs/releasing.md)."
        ),
        (
            "- **TypeScript, Go, C#, Java, YAML**: `pulumi package add "
            f"github.com/<org>/azure-gpu-stacks.git/provider@v{__version__}`; the resource type is the token "
            "and inputs take the camelCase names (`examples/yaml-team/Pulumi.yaml`)."
        ),
        (
            "- `Input[T]`: a plain value or another resource's output. Any other type must be a plain value, "
            "known when the program runs: the component checks it before creating anything."
        ),
        "- Units are in each description; `required` inputs have no default.",
        (
            "- A component refuses bad inputs before it registers anything, with one message naming every bad "
            "input, its value and what is allowed."
        ),
        "",
        "| component | type token | what it builds |",
        "| --- | --- | --- |",
    ]
    for cls in classes:
        lines.append(
            f"| [{cls.__name__}](#{cls.__name__.lower()}) | `{type_token(cls)}` | {_one_line(inspect.getdoc(cls))} |"
        )
    for cls in classes:
        lines += ["", *_component(cls, package["resources"][type_token(cls)])]
    return "\n".join(lines) + "\n"


def _component(cls: type, spec: dict[str, Any]) -> list[str]:
    module = sys.modules[cls.__module__]
    args = args_type(cls)  # type: ignore[arg-type]
    python_args = python_annotations(args)
    required = set(spec.get("requiredInputs", []))
    lines = [
        f"## {cls.__name__}",
        "",
        (
            f"Type token `{type_token(cls)}`; Python `from azure_gpu_stacks.components import {cls.__name__}, "
            f"{args_name(cls.__name__)}` (`{cls.__module__.removeprefix('azure_gpu_stacks.').replace('.', '/')}.py`)."
        ),
        "",
        inspect.getdoc(module) or "",
        "",
        "### Inputs",
        "",
        "| Python / other languages | type | default | description |",
        "| --- | --- | --- | --- |",
    ]
    for (name, prop), py_name in zip(spec["inputProperties"].items(), python_args, strict=True):
        description, default = _split_default(prop.get("description", ""))
        if name in required:
            default = "required"
        type_text = _type(prop, _choices(python_args[py_name]))
        lines.append(f"| `{py_name}` / `{name}` | {type_text} | {_cell(default)} | {_cell(description)} |")
    lines += ["", "### Outputs", "", "| Python / other languages | type | description |", "| --- | --- | --- |"]
    for (name, prop), py_name in zip(spec["properties"].items(), python_annotations(cls), strict=True):
        lines.append(
            f"| `{py_name}` / `{name}` | {_type({**prop, 'plain': True}, ())} | {_cell(prop.get('description', ''))} |"
        )
    return lines


def _type(prop: dict[str, Any], choices: tuple[Any, ...]) -> str:
    """The type as a code span: `Input[string]`, `list[number]`, `"Deallocate" | "Delete"`."""
    return f"`{_type_text(prop, choices)}`".replace("|", "\\|")


def _type_text(prop: dict[str, Any], choices: tuple[Any, ...]) -> str:
    """The schema type; a Literal's choices stand for the innermost scalar type."""
    if prop.get("type") == "array":
        base = f"list[{_type_text({**prop['items'], 'plain': True}, choices)}]"
    elif prop.get("type") == "object" and "additionalProperties" in prop:
        base = f"map[{_type_text({**prop['additionalProperties'], 'plain': True}, choices)}]"
    elif choices:
        base = " | ".join(f'"{c}"' for c in choices)
    else:
        base = SCALARS.get(prop.get("type", ""), prop.get("type") or prop.get("$ref", "any").rpartition(":")[2])
    return base if prop.get("plain") else f"Input[{base}]"


def _choices(annotation: Any) -> tuple[Any, ...]:
    """The allowed values of a Literal anywhere inside the annotation (NotRequired, Sequence, ...)."""
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    for inner in get_args(annotation):
        if found := _choices(inner):
            return found
    return ()


def _split_default(docstring: str) -> tuple[str, str]:
    """("what it is", "the default") from "What it is. Default: the default."."""
    text = " ".join(docstring.split())
    head, mark, default = text.rpartition(DEFAULT_MARK)
    if not mark:
        return text, ""
    return head.strip(), default.strip().removesuffix(".")


def _one_line(text: str | None) -> str:
    return _cell(" ".join((text or "").split()))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m azure_gpu_stacks.components.docs", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale instead of writing it")
    parser.add_argument("--output", type=Path, default=DOC_FILE, help=f"where to write (default: {DOC_FILE})")
    args = parser.parse_args(argv)
    text = render()
    current = args.output.read_text(encoding="utf-8") if args.output.is_file() else None
    if args.check:
        if current != text:
            print(
                f"{args.output} is stale; regenerate it with `{COMMAND}` (python -m azure_gpu_stacks.components.docs)",
                file=sys.stderr,
            )
            return 1
        return 0
    if current != text:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    else:
        print(f"{args.output} is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
