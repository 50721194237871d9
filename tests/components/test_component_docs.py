"""docs/components.md: generated from the components' code, complete, and never stale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from azure_gpu_stacks.components.docs import DOC_FILE, main, render
from azure_gpu_stacks.components.package import schema, type_token
from azure_gpu_stacks.components.registry import component_classes

from tests.conftest import REPO


@pytest.fixture(scope="module")
def rendered() -> str:
    return render()


def section(text: str, component: str) -> str:
    match = re.search(rf"^## {component}\n(.*?)(?=^## |\Z)", text, flags=re.DOTALL | re.MULTILINE)
    assert match, f"no section for {component}"
    return match.group(1)


def test_docs_committed_reference_is_current(rendered: str) -> None:
    assert DOC_FILE == REPO / "docs" / "components.md"
    committed = DOC_FILE.read_text(encoding="utf-8") if DOC_FILE.is_file() else ""

    assert committed == rendered, (
        "docs/components.md is stale: run `make docs` (python -m azure_gpu_stacks.components.docs) and commit it"
    )


@pytest.mark.parametrize("component", component_classes(), ids=lambda c: c.__name__)
def test_docs_list_every_input_and_output_with_type_and_default(rendered: str, component: type) -> None:
    spec = schema()["resources"][type_token(component)]
    inputs, _, outputs = section(rendered, component.__name__).partition("### Outputs")

    for name, prop in spec["inputProperties"].items():
        [row] = [line for line in inputs.splitlines() if line.startswith("| `") and f"/ `{name}` |" in line]
        _, type_cell, default_cell, description_cell = (c.strip() for c in row.strip().strip("|").split(" | "))
        description = " ".join(prop["description"].split())

        assert type_cell.startswith("`") and type_cell.endswith("`"), row
        if name in spec["requiredInputs"]:
            assert default_cell == "required", row
        else:
            assert f"Default: {default_cell}" in description, row
        assert description.startswith(description_cell), row
    for name, prop in spec["properties"].items():
        assert f"/ `{name}` | `{prop['type']}` | {prop['description']} |" in outputs


@pytest.mark.parametrize("component", component_classes(), ids=lambda c: c.__name__)
def test_docs_every_optional_input_states_its_default(component: type) -> None:
    spec = schema()["resources"][type_token(component)]
    optional = [n for n in spec["inputProperties"] if n not in spec["requiredInputs"]]

    missing = [n for n in optional if "Default:" not in spec["inputProperties"][n]["description"]]
    assert missing == [], f"{component.__name__}: docstrings without 'Default: ...': {missing}"


def test_docs_check_fails_on_a_stale_file_and_names_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "components.md"
    target.write_text("# old\n")

    assert main(["--check", "--output", str(target)]) == 1
    assert "stale; regenerate it with `make docs`" in capsys.readouterr().err
    assert main(["--output", str(target)]) == 0
    assert main(["--check", "--output", str(target)]) == 0


def test_docs_each_set_of_choices_is_written_in_one_order() -> None:
    """typing caches Literals that compare equal, and equality ignores order: a Literal written in
    another order than an earlier one with the same values takes the earlier one's order, so the
    reference, the schema and the messages would change with which module was imported first."""
    import ast

    orders: dict[frozenset[object], set[tuple[object, ...]]] = {}
    for path in sorted((REPO / "components").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal":
                items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                values = tuple(ast.literal_eval(item) for item in items)
                orders.setdefault(frozenset(values), set()).add(values)

    assert {k: v for k, v in orders.items() if len(v) > 1} == {}
