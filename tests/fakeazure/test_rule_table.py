"""The table of every rule the fake enforces or knowingly skips (scripts/rule_table.py, on docs/azure-conformance.md):
each refusal of fakeazure/models is one row of `fakeazure.model_rules`, each rule names its source, and each spec
rule's JSON pointer leads to the saved spec types that state it. The page's freshness is test_spec_conformance's."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure.model_rules import ADVISORIES, MODEL_RULES, ModelRule

from scripts import rule_table
from tests.conftest import REPO

MODELS = REPO / "fakeazure" / "models"


def _text(node: ast.expr) -> str:
    """The literal text of a message, `{}` for each value put in it."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp):
        return _text(node.left) + _text(node.right)
    return "{}"


def _errors() -> dict[str, str]:
    """Error class name -> Azure code, read from fakeazure/errors.py's classes."""
    tree = ast.parse((REPO / "fakeazure" / "errors.py").read_text(encoding="utf-8"))
    codes = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            assigned = [s for s in node.body if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == "code"]
            codes[node.name] = assigned[0].value.value if assigned else "BadRequest"  # type: ignore[attr-defined]
    return codes


def refusals() -> list[tuple[str, int, str, str]]:
    """(module, line, Azure's code, message text) of every `raise` of fakeazure/models, and of every name refusal it
    leaves to `core.require_named` ("'...' is not a valid <what> name", InvalidParameter)."""
    codes = _errors()
    found = []
    for path in sorted(MODELS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "require_named":
                what = ast.literal_eval(node.args[2])
                found.append((path.stem, node.lineno, "InvalidParameter", f"'{{}}' is not a valid {what} name"))
                continue
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            name = ast.unparse(node.exc.func)
            args = node.exc.args
            if name == "coded":
                code, message = ast.literal_eval(args[0]), _text(args[1])
            else:
                code, message = codes.get(name, name), _text(args[0]) if args else ""
            found.append((path.stem, node.lineno, code, message))
    return found


def _rows_of(module: str, code: str, message: str) -> list[ModelRule]:
    return [r for r in MODEL_RULES if (r.module, r.code) == (module, code) and r.says in message]


def test_every_refusal_of_the_models_is_one_row_of_the_table() -> None:
    sites = refusals()
    unmatched = [(m, line, code) for m, line, code, text in sites if len(_rows_of(m, code, text)) != 1]
    unused = [r.says for r in MODEL_RULES if not any(r in _rows_of(m, c, t) for m, _, c, t in sites)]

    assert len(sites) >= 100
    assert unmatched == [] and unused == []


def test_every_rule_names_its_source() -> None:
    rows = rule_table.all_rows()

    assert [r for r in rows if not r.source] == []
    assert len({r.kind for r in rows}) == 3


def test_each_advisory_is_given_by_its_module() -> None:
    for advisory in ADVISORIES:
        text = (MODELS / f"{advisory.module}.py").read_text(encoding="utf-8")
        calls = [ast.unparse(n) for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call)]
        assert any(c.startswith("advise(") and advisory.says in c for c in calls), advisory


@pytest.fixture(scope="module")
def spec_rows() -> list[rule_table.Row]:
    return [r for r in rule_table.spec_rows() if "#/types/" in r.source]


def test_each_spec_rule_points_at_the_saved_spec_types_that_state_it(spec_rows: list[rule_table.Row]) -> None:
    constraints = json.loads((REPO / "catalog" / "arm" / "constraints.json").read_text(encoding="utf-8"))["types"]
    by_arm_type = {e["armType"]: e for e in constraints.values()}
    checked = 0
    files: dict[str, Any] = {}
    for row in spec_rows:
        file, pointer = row.source.rsplit("; ", 1)[1].split("#")
        saved = files.setdefault(file, json.loads(Path(REPO / file).read_text(encoding="utf-8")))
        node = saved
        for step in pointer.strip("/").split("/"):
            step = step.replace("~1", "/").replace("~0", "~")
            node = node[int(step)] if isinstance(node, list) else node[step]
        target = saved["types"][int(node["type"]["$ref"].removeprefix("#/"))]
        path = row.rule.split("`")[1]
        stated = by_arm_type[row.arm_type]["paths"][path]
        # bicep types spell minimum/maximum as minValue/maxValue and an array's item bounds as minLength/maxLength
        theirs = {"minimum": "minValue", "maximum": "maxValue", "minItems": "minLength", "maxItems": "maxLength"}
        for key in ("pattern", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems"):
            if key in stated:
                assert target.get(theirs.get(key, key)) == stated[key], (row.arm_type, path, key)
                checked += 1
        if stated.get("required"):
            assert node.get("flags", 0) & 1, (row.arm_type, path)
            checked += 1

    assert checked >= len(spec_rows) - len({r.arm_type for r in spec_rows})
