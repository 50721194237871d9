"""The package layout: what import-linter cannot say itself.

ARCHITECTURE.md's table of rooms (the room, what it holds, what it may import) is the import direction;
import-linter holds every module to it (`make lint` runs `lint-imports` with the contracts of
`.importlinter`: one forbidden contract per row, and engine's sub-rooms as layers). What is left here is
that the two say the same, that every folder the distribution installs is a row, and the one-hop rules.
"""

from __future__ import annotations

import configparser
import re
import tomllib
from typing import NamedTuple

from tests.conftest import REPO

PACKAGE = "azure_gpu_stacks"
ARCHITECTURE = REPO / "ARCHITECTURE.md"
CONTRACTS = REPO / ".importlinter"


class Row(NamedTuple):
    names: tuple[str, ...]  # `engine/run`, or several modules that share one row
    allowed: tuple[str, ...]  # what they may import besides themselves; `*` is everything


def rows() -> list[Row]:
    """The table of rooms, read from ARCHITECTURE.md itself."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("\n## Rooms\n", 1)[1].split("\n## ", 1)[0]
    found = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 3 or not re.fullmatch(r"`[\w/]+`(, `[\w/]+`)*", cells[0]):
            continue
        found.append(Row(tuple(re.findall(r"`([\w/]+)`", cells[0])), tuple(re.findall(r"`([\w/*]+)`", cells[2]))))
    return found


ROWS = rows()


def module(name: str) -> str:
    return ".".join([PACKAGE, *name.split("/")])


def _within(name: str, other: str) -> bool:
    return name == other or name.startswith(f"{other}/")


def expected_contracts() -> dict[tuple[str, ...], tuple[tuple[str, ...], tuple[str, ...]]]:
    """source modules -> (forbidden modules, ignored imports) of the forbidden contract each row makes: every other
    row it may not import (a whole room where none of its rows may be), and the one module of a room it may."""
    names = [name for row in ROWS for name in row.names]
    contracts = {}
    for row in ROWS:
        if "*" in row.allowed:
            continue
        allowed = (*row.names, *row.allowed)
        forbidden = [n for n in names if not any(_within(n, a) for a in allowed)]
        rooms = {n.split("/")[0] for n in forbidden}
        whole = {room for room in rooms if all(n in forbidden for n in names if n.split("/")[0] == room)}
        modules = sorted({module(r) for r in whole} | {module(n) for n in forbidden if n.split("/")[0] not in whole})
        sources = tuple(sorted(module(n) for n in row.names))
        ignored = tuple(
            sorted(
                f"{source}.** -> {module(a)}"
                for source in sources
                for a in row.allowed
                if any(_within(a, f) and a != f for f in forbidden)
            )
        )
        contracts[sources] = (tuple(modules), ignored)
    return contracts


def _contracts() -> list[dict[str, str]]:
    parser = configparser.ConfigParser()
    parser.read_string(CONTRACTS.read_text(encoding="utf-8"))
    return [dict(parser[s]) for s in parser.sections() if s.startswith("importlinter:contract:")]


def _lines(value: str) -> tuple[str, ...]:
    return tuple(sorted(line.strip() for line in value.strip().splitlines() if line.strip()))


def test_the_contracts_are_the_table_of_rooms() -> None:
    forbidden = {
        _lines(c["source_modules"]): (_lines(c["forbidden_modules"]), _lines(c.get("ignore_imports", "")))
        for c in _contracts()
        if c["type"] == "forbidden" and c.get("allow_indirect_imports") == "True"
    }

    assert forbidden == expected_contracts()


def test_engines_sub_rooms_are_layers_in_the_order_of_the_table() -> None:
    """No runtime cycle between engine's sub-rooms: one layers contract names each row, and a row may import
    only rows below it."""
    [layers] = [c for c in _contracts() if c["type"] == "layers"]
    order = [re.split(r"\s*[|:]\s*", line.strip()) for line in layers["layers"].strip().splitlines()]
    level = {f"engine/{name}": index for index, names in enumerate(order) for name in names}
    engine_rows = [row for row in ROWS if row.names[0].startswith("engine/")]

    assert layers["containers"].strip() == module("engine")
    assert set(level) == {name for row in engine_rows for name in row.names}
    for row in engine_rows:
        below = [a for a in row.allowed if a.startswith("engine/")]
        assert all(level[a] > level[n] for a in below for n in row.names if a not in row.names), row


def test_every_folder_the_distribution_installs_is_a_row_and_every_engine_module_too() -> None:
    package_dir = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    named = {name for row in ROWS for name in row.names}
    engine = {
        f"engine/{p.stem}" for p in (REPO / "engine").iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()
    } - {"engine/__init__", "engine/__main__"}

    assert {name.split("/")[0] for name in named} == set(package_dir.values())
    assert engine == {name for name in named if name.startswith("engine/")}
    assert all(row.allowed for row in ROWS)


def test_every_policy_of_the_pack_has_its_own_test_file() -> None:
    """One hop from a policy to its tests (ARCHITECTURE.md): tests/policies/test_<module>.py, and nothing else there
    (a module the policies share, such as values.py, may have its own file there too)."""
    from azure_gpu_stacks.policies.registry import REGISTRY

    modules = {p.name.replace("-", "_") for p in REGISTRY}
    test_files = {p.stem.removeprefix("test_") for p in (REPO / "tests" / "policies").glob("test_*.py")}
    policy_modules = {p.stem for p in (REPO / "policies").glob("*.py")}

    assert modules <= policy_modules
    assert modules <= test_files <= policy_modules


# Test folders that are no room of the package, each named in ARCHITECTURE.md's one-hop table.
OTHER_TEST_FOLDERS = ("policies/pack", "e2e", "repository", "scripts")


def _one_hop_table() -> str:
    return ARCHITECTURE.read_text(encoding="utf-8").split("\n## One hop to the answer\n", 1)[1].split("\n## ", 1)[0]


def test_every_test_file_sits_in_the_folder_of_a_room() -> None:
    """One hop from a module to its tests: tests/<room>/ (tests/engine/run/ for engine/run/), or a named folder."""
    rooms = {name for row in ROWS for name in row.names}
    folders = {
        path.parent.relative_to(REPO / "tests").as_posix()
        for path in (REPO / "tests").rglob("test_*.py")
        if "data" not in path.relative_to(REPO / "tests").parts
    }

    assert folders - rooms - set(OTHER_TEST_FOLDERS) == set()
    assert folders >= {"catalog", "components", "stack", "policies", "fakeazure", "inputs", "sdk", "e2e"}


def test_the_one_hop_table_says_where_the_tests_live() -> None:
    table = _one_hop_table()

    assert "`tests/<room>/`" in table
    assert all(f"`tests/{folder}/`" in table for folder in OTHER_TEST_FOLDERS)
    assert "`tests/policies/test_<policy_name>.py`" in table
