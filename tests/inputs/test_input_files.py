"""The readers of untrusted files: what they accept as the Pulumi CLI would, what they refuse and
how; and, fed random YAML and JSON (hypothesis), that they only ever refuse with one message."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog.az_files import AzFileError, read_skus, read_usage
from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.run.project import load_project, load_stack
from azure_gpu_stacks.inputs.files import InputFileError, elided, escaped, parse_json, parse_yaml, shown
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def test_input_yaml_aliases_and_merge_keys_within_the_caps_are_read() -> None:
    text = "base: &base {vmSize: Standard_NC4as_T4_v3, spot: true}\nvm:\n  <<: *base\n  spot: false\nagain: *base\n"

    assert parse_yaml(text, "f") == {
        "base": {"vmSize": "Standard_NC4as_T4_v3", "spot": True},
        "vm": {"vmSize": "Standard_NC4as_T4_v3", "spot": False},
        "again": {"vmSize": "Standard_NC4as_T4_v3", "spot": True},
    }


def test_input_a_file_read_again_is_read_as_it_is_now_and_each_reader_gets_its_own_copy(tmp_path: Path) -> None:
    stack = tmp_path / "Pulumi.dev.yaml"
    stack.write_text("config:\n  team:vmSize: Standard_NC4as_T4_v3\n")
    project = tmp_path / "Pulumi.yaml"
    project.write_text("name: team\nruntime: python\n")
    (tmp_path / "__main__.py").write_text("")

    first = load_stack(load_project(tmp_path), "dev")
    stack.write_text("config:\n  team:vmSize: Standard_ND96asr_v4\n")
    second = load_stack(load_project(tmp_path), "dev")
    read = parse_yaml("a: [1, 2]\n", "f")
    read["a"].append(3)

    assert (first.config["team:vmSize"], second.config["team:vmSize"]) == (
        "Standard_NC4as_T4_v3",
        "Standard_ND96asr_v4",
    )
    assert parse_yaml("a: [1, 2]\n", "f") == {"a": [1, 2]}


def test_input_yaml_dates_stay_the_text_written() -> None:
    assert parse_yaml("start: 2026-12-01\nat: 2026-12-01T10:00:00Z\n", "f") == {
        "start": "2026-12-01",
        "at": "2026-12-01T10:00:00Z",
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"n: {2**63 - 1}\n", None),
        (f"n: {-(2**63)}\n", None),
        (f"n: {2**63}\n", f"f: n: {2**63} is out of range; allowed: whole numbers from -2^63 to 2^63-1"),
        ("n: 0b" + "1" * 80 + "\n", "f: n: a number of 82 characters is out of range"),
        ("a: !!python/object:os.system {}\n", "f: a: !!python/object:os.system is not allowed"),
        ("a: !local x\n", "f: a: the tag '!local' 'x' is not allowed; allowed: strings, numbers"),
        ("a: !!omap [{x: 1}]\n", "f: a: !!omap is not allowed"),
        ("a: *nowhere\n", "f: not valid YAML (line 1, column 4): found undefined alias 'nowhere'"),
        ("a: 1\n---\nb: 2\n", "f: not valid YAML (line 2, column 1): but found another document"),
        (
            "a: b\x1fc\n",
            "f: not valid YAML (line 1, column 5): character '\\x1f' is not allowed in YAML; allowed: printable",
        ),
        ('a: "\\e[31m"\nb: !!binary x\n', "f: b: !!binary 'x' is not allowed"),
        ('"k\\e[2J": !!binary x\n', "f: k\\x1b[2J: !!binary 'x' is not allowed"),
        ("a: !!int 3[\n", "f: a: !!int '3[' is not a whole number; allowed: a whole number"),
        ("a: !!bool maybe\n", "f: a: !!bool 'maybe' is not a boolean; allowed: a boolean"),
    ],
)
def test_input_yaml_refusals_name_where_and_what_is_allowed(text: str, expected: str | None) -> None:
    if expected is None:
        parse_yaml(text, "f")
        return
    with pytest.raises(InputFileError) as err:
        parse_yaml(text, "f")
    assert str(err.value).startswith(expected), str(err.value)


def test_input_yaml_aliases_may_nest_to_the_depth_cap_not_past_it() -> None:
    chain = "a0: &a0 [x]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 62))
    parse_yaml(chain, "f")  # 63 levels counting the document

    with pytest.raises(InputFileError, match="nested deeper than 64 levels \\(aliases followed\\)"):
        parse_yaml(chain + "a62: &a62 [*a61]\nz: [*a62]\n", "f")


def test_input_json_numbers_and_depth_are_bounded() -> None:
    assert parse_json(f"[{2**63 - 1}, 1.5e300]", "f") == [2**63 - 1, 1.5e300]
    with pytest.raises(InputFileError, match=r"^f: \[1\]\.x: -9223372036854775809 is out of range"):
        parse_json('[1, {"x": -9223372036854775809}]', "f")
    with pytest.raises(InputFileError, match=r"^f: a\.b: -Infinity is not allowed; allowed: finite numbers"):
        parse_json('{"a": {"b": -Infinity}}', "f")
    with pytest.raises(InputFileError, match="nested deeper than 64 levels"):
        parse_json("[" * 65 + "]" * 65, "f")


def test_input_values_are_shown_escaped_and_short() -> None:
    assert shown("a\x1b[31mb\x00") == "'a\\x1b[31mb\\x00'"
    assert shown("x" * 5000) == "a value of 5,002 characters (not shown)"
    assert escaped("one\ntwo\x07", keep_newlines=True) == "one\ntwo\\x07"
    assert escaped("one\ntwo") == "one\\ntwo"
    assert elided(f"size '{'y' * 300}' unknown") == "size a value of 300 characters (not shown) unknown"


def test_input_bom_utf8_is_read(tmp_path: Path) -> None:
    from azure_gpu_stacks.inputs.files import load_yaml

    path = tmp_path / "f.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert load_yaml(path, "stack") == {"a": 1}


# --- random input (hypothesis) ----------------------------------------------------------------

ODD_SCALARS = [
    "~",
    "null",
    "yes",
    "on",
    "NO",
    ".nan",
    "-.inf",
    "0x1F",
    "0o17",
    "1_000",
    "190:20:30",
    "2026-12-01",
    "2026-12-01T10:00:00Z",
    "9" * 400,
    "-" + "8" * 30,
    "1e999",
    "'\\x00'",
    '"\\e[2J"',
    '"\\0"',
    "''",
    "!!binary aGk=",
    "!!set {a, b}",
    "!!omap [{a: 1}]",
    "!!timestamp 2001-12-14",
    "!!int 3",
    "!!float x",
    "!!python/name:os.system",
    "!foo bar",
    "!!str 5",
    "&a x",
    "*a",
    "&b [*a, *a]",
    "*b",
    "? [k]\n: v",
    "<<: *a",
]
TOKENS = [
    "[",
    "]",
    "{",
    "}",
    ":",
    ", ",
    "- ",
    "\n",
    "  ",
    "config:",
    "azure-gpu-stacks:vm:",
    "key: ",
    "&a ",
    "*a",
    "&b ",
    "*b",
    "#",
    '"',
    "'",
    "\t",
    "%YAML 1.1\n",
    "---\n",
    "...\n",
]


@st.composite
def yaml_documents(draw: st.DrawFn) -> str:
    """Documents with structure: nested mappings and lists with anchors, aliases, tags and odd scalars."""

    def value(depth: int) -> str:
        kind = draw(st.integers(0, 3 if depth < 6 else 0))
        if kind == 0:
            return draw(st.sampled_from(ODD_SCALARS) | st.text(max_size=8))
        items = [value(depth + 1) for _ in range(draw(st.integers(0, 4)))]
        anchor = draw(st.sampled_from(["", "&a ", "&b ", "&c "]))
        if kind == 1:
            return anchor + "[" + ", ".join(items) + "]"
        keys = draw(
            st.lists(
                st.sampled_from(["a", "b", "vmSize", "<<", "? k", "1", "secure"]),
                min_size=len(items),
                max_size=len(items),
            )
        )
        return anchor + "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items, strict=True)) + "}"

    return (
        "config:\n  azure-gpu-stacks:vm: "
        + value(0)
        + "\n  other: "
        + draw(st.sampled_from(["*a", "*b", "*c", "x"]))
        + "\n"
    )


def _bounded(run: object) -> None:
    """Run `run()` and check the memory it took stays within a small multiple of the input caps."""
    tracemalloc.start()
    try:
        run()  # type: ignore[operator]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("random")
    (root / "Pulumi.yaml").write_text("name: azure-gpu-stacks\nruntime: python\n")
    (root / "__main__.py").write_text("")
    return root


@settings(
    max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    text=yaml_documents()
    | st.lists(st.sampled_from(TOKENS + ODD_SCALARS) | st.text(max_size=4), max_size=40).map("".join)
)
def test_input_random_yaml_is_read_or_refused_with_one_message(project: Path, text: str) -> None:
    stack = project / "Pulumi.random.yaml"
    stack.write_text(text, encoding="utf-8", errors="surrogatepass")

    def run() -> None:
        try:
            settings_ = load_stack(load_project(project), "random")
        except InputError as exc:
            message = str(exc)
            assert message.startswith("Pulumi.random.yaml: ") and "\n" not in message and len(message) < 1000, message
            return
        json.dumps(settings_.config)  # what was read is plain: strings, numbers, lists, mappings

    _bounded(run)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from(["cores", "eastus", "Standard_NC4as_T4_v3", "-3", "8", "Location", "virtualMachines"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(
        st.sampled_from(
            [
                "name",
                "value",
                "limit",
                "currentValue",
                "locations",
                "restrictions",
                "restrictionInfo",
                "type",
                "values",
                "resourceType",
                "reasonCode",
                "x",
            ]
        ),
        inner,
        max_size=5,
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.lists(JSON_VALUES, max_size=4) | JSON_VALUES, as_text=st.booleans())
def test_input_random_json_az_files_are_read_or_refused_with_one_message(
    tmp_path_factory: pytest.TempPathFactory, data: object, as_text: bool
) -> None:
    path = tmp_path_factory.mktemp("az") / "az.json"
    path.write_text(json.dumps(data) if as_text else json.dumps(data)[: len(json.dumps(data)) // 2])

    def run() -> None:
        for reader in (read_usage, read_skus):
            try:
                reader(path)
            except AzFileError as exc:
                assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc), str(exc)

    _bounded(run)
