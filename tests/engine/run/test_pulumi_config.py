"""Pulumi's project and stack rules, applied offline as the CLI applies them before a program runs:
`config:` declarations of Pulumi.yaml, stack file keys and values, stack names, `.yaml` and `.yml`.

The expected messages are the CLI's own (pulumi/pulumi pkg/workspace/config.go,
sdk/go/common/workspace/project.go, sdk/go/common/tokens/stack_name.go), after the file's name.
"""

from __future__ import annotations

import contextlib
import io
import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.run.project import OFFLINE_SECRET, load_project, load_stack

from tests.conftest import REPO

# A program that exports every config value it gets, and which of them are secret.
ECHO_PROGRAM = """
import json
import pulumi
from azure_gpu_stacks.sdk.internals import runtime_config
values = runtime_config()
for key in sorted(values):
    secret = pulumi.runtime.is_config_secret(key)
    pulumi.export(key, pulumi.Output.secret(values[key]) if secret else values[key])
pulumi.export("secretKeys", sorted(k for k in values if pulumi.runtime.is_config_secret(k)))
"""


def project(root: Path, declarations: str = "", stack: str | None = "config: {}\n", name: str = "dev") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    config = f"config:\n{textwrap.indent(textwrap.dedent(declarations), '  ')}" if declarations else ""
    (root / "Pulumi.yaml").write_text(f"name: team\nruntime: python\n{config}")
    (root / "__main__.py").write_text(ECHO_PROGRAM)
    if stack is not None:
        (root / f"Pulumi.{name}.yaml").write_text(textwrap.dedent(stack))
    return root


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one stderr line of a run that must exit 2 and print nothing else."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    return err.removeprefix("gpu-stacks: error: ").rstrip("\n")


def outputs(capsys: pytest.CaptureFixture[str], root: Path, stack: str = "dev") -> dict:
    code = main(["plan", stack, "--project", str(root), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


# --- the shipped project -----------------------------------------------------------------------


@pytest.mark.parametrize("root", [REPO, REPO / "examples" / "python-team"], ids=["shipped", "python-team"])
def test_every_shipped_stack_passes_the_clis_project_config_rules(root: Path) -> None:
    loaded = load_project(root)
    assert loaded.stacks()
    for stack in loaded.stacks():
        load_stack(loaded, stack)  # raises InputError where `pulumi preview` would stop


def test_shipped_project_declares_no_key_that_some_stack_lacks() -> None:
    # Pulumi requires a declared project key with no default in every stack; sshPublicKey is needed
    # only by the stacks with a vm or trainingCluster section, so it is not declared.
    loaded = load_project(REPO)
    required = {d.full_key for d in loaded.declarations if d.default is d.value}
    for stack in loaded.stacks():
        assert required <= set(load_stack(loaded, stack).config), stack


def test_the_bug_of_the_issue_is_refused_with_pulumis_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(
        tmp_path / "p", "sshPublicKey:\n  type: string\n  secret: true\n", "config:\n  azure-native:location: eastus\n"
    )

    assert refused(capsys, ["plan", "dev", "--project", str(root)]) == (
        "Pulumi.dev.yaml: Stack 'dev' is missing configuration value 'sshPublicKey'; allowed: set it with "
        "`pulumi config set sshPublicKey <value> --stack dev` (--secret for a secret), or give it a default in "
        "Pulumi.yaml"
    )


def test_an_untyped_declaration_is_required_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "p", "token:\n  description: no type\nregion:\n  secret: true\nzone: {}\n")

    assert refused(capsys, ["check", "--project", str(root)]).startswith(
        "Pulumi.dev.yaml: Stack 'dev' is missing configuration values 'region', 'token' and 'zone';"
    )


def test_a_declared_default_reaches_the_program_as_the_cli_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(
        tmp_path / "p",
        """
        nodes: {type: integer, default: 3}
        spot: false
        zones: {type: array, items: {type: string}, default: ["1", "2"]}
        size: Standard_NC4as_T4_v3
        azure-native:location: {value: westeurope}
        """,
    )

    got = outputs(capsys, root)["outputs"]
    assert got["team:nodes"] == "3"
    assert got["team:spot"] == "false"
    assert got["team:zones"] == '["1","2"]'
    assert got["team:size"] == "Standard_NC4as_T4_v3"
    assert got["azure-native:location"] == "westeurope"


def test_a_stack_value_wins_over_the_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "p", "nodes: {type: integer, default: 3}\n", "config:\n  team:nodes: 5\n")

    assert outputs(capsys, root)["outputs"]["team:nodes"] == "5"


@pytest.mark.parametrize(
    ("declaration", "value", "type_name"),
    [
        ("{type: integer}", "2.5", "integer"),
        ("{type: integer}", "many", "integer"),
        ("{type: boolean}", "yes", "boolean"),  # yaml.v3 reads `yes` as a string, not true
        ("{type: object}", "plain", "object"),
        ("{type: array, items: {type: string}}", "[1, 2]", "array<string>"),
        ("{type: array, items: {type: array, items: {type: integer}}}", "[[1, 2.5]]", "array<array<integer>>"),
        ("{type: string}", "{a: 1}", "string"),
    ],
)
def test_a_value_of_the_wrong_declared_type_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], declaration: str, value: str, type_name: str
) -> None:
    root = project(tmp_path / "p", f"knob: {declaration}\n", f"config:\n  team:knob: {value}\n")

    line = refused(capsys, ["plan", "dev", "--project", str(root)])
    assert line.startswith("Pulumi.dev.yaml: team:knob: ")
    assert line.endswith(
        f"Stack 'dev' with configuration key 'knob' must be of type '{type_name}'; allowed: a value of that type, "
        "as Pulumi.yaml declares"
    )


PASSING = [
    ("{type: integer}", "7"),
    ("{type: integer}", '"7"'),
    ("{type: boolean}", "true"),
    ("{type: boolean}", '"false"'),
    ("{type: string}", "12"),  # a number in a stack file is text to the CLI
    ("{type: array, items: {type: integer}}", "[1, 2.0]"),
    ("{type: object}", "{a: [1]}"),
]


@pytest.fixture(scope="module")
def every_passing_value(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One project declaring a key per case of PASSING (knob0, knob1, ...) and its stack giving each its value,
    planned once for the file: the CLI checks each key against its own declaration, so one key's case does not
    depend on another's, and a value of the wrong type would refuse the whole stack (exit 2)."""
    root = project(
        tmp_path_factory.mktemp("types") / "p",
        "".join(f"knob{index}: {declaration}\n" for index, (declaration, _) in enumerate(PASSING)),
        "config:\n" + "".join(f"  team:knob{index}: {value}\n" for index, (_, value) in enumerate(PASSING)),
    )
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["plan", "dev", "--project", str(root), "--json"])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())["outputs"]


@pytest.mark.parametrize(("declaration", "value"), PASSING)
def test_a_value_of_the_declared_type_passes(every_passing_value: dict, declaration: str, value: str) -> None:
    assert f"team:knob{PASSING.index((declaration, value))}" in every_passing_value  # the program got it


def test_a_secret_key_in_plain_text_is_refused_without_its_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(
        tmp_path / "p", "dbPassword: {type: string, secret: true}\n", "config:\n  team:dbPassword: hunter2-Plain\n"
    )

    line = refused(capsys, ["check", "--project", str(root)])
    assert line == (
        "Pulumi.dev.yaml: team:dbPassword: Stack 'dev' with configuration key 'dbPassword' must be encrypted as it's "
        "secret; allowed: `pulumi config set --secret dbPassword <value> --stack dev`"
    )
    assert "hunter2" not in line


def test_a_secret_key_given_as_ciphertext_runs_with_a_secret_placeholder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(
        tmp_path / "p",
        "dbPassword: {type: string, secret: true}\n",
        "config:\n  team:dbPassword:\n    secure: v1:c2VjcmV0LWNpcGhlcnRleHQ=\n  team:settings:\n    user: "
        "admin\n    token:\n      secure: v1:dG9rZW4=\n",
    )

    plan = outputs(capsys, root)
    assert plan["outputs"]["secretKeys"] == ["team:dbPassword", "team:settings"]
    assert plan["outputs"]["team:dbPassword"] == "[secret]"
    assert plan["outputs"]["team:settings"] == "[secret]"
    loaded = load_project(root)
    assert json.loads(load_stack(loaded, "dev").config["team:settings"]) == {"token": OFFLINE_SECRET, "user": "admin"}


def test_an_untyped_secret_key_in_plain_text_is_a_warning_as_the_cli_checks_only_typed_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p", "apiToken: {secret: true}\n", "config:\n  team:apiToken: tok-plain-123\n")

    warnings = outputs(capsys, root)["warnings"]
    assert warnings == [
        "Pulumi.dev.yaml: team:apiToken: declared secret in Pulumi.yaml but given in plain text; "
        "`pulumi config set --secret apiToken <value>` encrypts it"
    ]


@pytest.mark.parametrize(
    ("declarations", "expected"),
    [
        (
            "a: {default: 1, value: 2}\n",
            "config.a: project config 'a' cannot have both a 'default' and 'value' attribute",
        ),
        (
            "a: {type: array}\n",
            "config.a: The configuration key 'a' declares an array but does not specify the underlying type via "
            "the 'items' attribute",
        ),
        (
            "a: {type: integer, default: many}\n",
            "config.a: The default value specified for configuration key 'a' is not of the expected type 'integer'",
        ),
        (
            "aws:region: {type: string}\n",
            "config.aws:region: Configuration key 'aws:region' is not namespaced by the project and should not "
            "define a type",
        ),
        (
            "aws:region: {default: us-east-1}\n",
            "should not define a default value. Did you mean to use the 'value' attribute instead of 'default'?",
        ),
        (
            "aws:region: {description: x}\n",
            "Configuration key 'aws:region' is namespaced and must provide an attribute 'value'",
        ),
        ("a: {type: float}\n", "config.a.type: 'float'; allowed: one of string, integer, boolean, array, object"),
        (
            "a: {tpye: string}\n",
            "config.a: unknown attribute 'tpye'; did you mean 'type'? allowed: type, items, description, secret, "
            "default, value",
        ),
        ("a: 1.5\n", "config.a: 1.5 is not a declaration"),
    ],
)
def test_a_bad_declaration_is_refused_as_pulumi_refuses_the_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], declarations: str, expected: str
) -> None:
    root = project(tmp_path / "p", declarations)

    line = refused(capsys, ["plan", "dev", "--project", str(root)])
    assert line.startswith(f"{root / 'Pulumi.yaml'}: config.")
    assert expected in line


# --- stack files -------------------------------------------------------------------------------


def test_keys_without_a_namespace_are_the_projects(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "p", stack="config:\n  size: big\n  team:config:legacy: old\n")

    got = outputs(capsys, root)["outputs"]
    assert (got["team:size"], got["team:legacy"]) == ("big", "old")


def test_values_are_what_the_clis_yaml_library_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stack = """
    config:
      team:answer: yes
      team:time: 19:00
      team:day: 2026-11-22
      team:whole: 1.0
      team:octal: 0o17
      team:flag: True
      team:nothing:
      team:obj: {b: 1.0, a: "x"}
    """
    root = project(tmp_path / "p", stack=stack)

    plan = outputs(capsys, root)
    got = plan["outputs"]
    assert (got["team:answer"], got["team:time"], got["team:day"]) == ("yes", "19:00", "2026-11-22")
    assert (got["team:whole"], got["team:octal"], got["team:flag"], got["team:nothing"]) == ("1", "15", "true", "")
    assert got["team:obj"] == '{"a":"x","b":1}'
    assert plan["warnings"] == ['Pulumi.dev.yaml: team:nothing: no value; Pulumi treats it as an empty string ""']


def test_a_key_given_twice_is_refused_with_both_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(
        tmp_path / "p", stack="config:\n  team:size: small\n  azure-native:location: eastus\n  team:size: big\n"
    )

    assert refused(capsys, ["plan", "dev", "--project", str(root)]) == (
        "Pulumi.dev.yaml: not valid YAML (line 4, column 3): mapping key 'team:size' already defined at line 2"
    )


def test_a_duplicate_key_in_pulumi_yaml_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "p")
    (root / "Pulumi.yaml").write_text("name: team\nruntime: python\nname: other\n")

    assert refused(capsys, ["stacks", "--project", str(root)]) == (
        f"{root / 'Pulumi.yaml'}: not valid YAML (line 3, column 1): mapping key 'name' already defined at line 1"
    )


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("team-x:size", "did you mean 'team:size'?"),
        ("azure-natve:location", "did you mean 'azure-native:location'?"),
    ],
)
def test_a_key_of_a_near_miss_namespace_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, expected: str
) -> None:
    root = project(tmp_path / "p", stack=f"config:\n  {key}: x\n")

    line = refused(capsys, ["plan", "dev", "--project", str(root)])
    namespace = key.split(":")[0]
    assert line.startswith(
        f"Pulumi.dev.yaml: config: key '{key}': '{namespace}' is neither this project's namespace nor a provider's; "
    )
    assert expected in line


def test_provider_and_declared_namespaces_are_known(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(
        tmp_path / "p",
        "shared:owner: {value: ml}\n",
        "config:\n  azure-native:location: eastus\n  pulumi:tags: {a: b}\n  kubernetes:context: x\n",
    )

    assert outputs(capsys, root)["outputs"]["shared:owner"] == "ml"


# --- stack names and files ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "my stack",
            "a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character ' ' "
            "at position 2",
        ),
        (
            "dev!",
            "a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character '!' "
            "at position 3",
        ),
        ("x" * 101, "a stack name cannot exceed 100 characters"),
    ],
)
def test_stack_names_follow_pulumis_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, expected: str
) -> None:
    root = project(tmp_path / "p")

    line = refused(capsys, ["plan", name, "--project", str(root)])
    assert line == f"stack {name!r}: {expected}; allowed: letters, digits, '-', '_' and '.', at most 100"


def test_a_stack_file_with_a_bad_name_is_not_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "p")
    (root / "Pulumi.my stack.yaml").write_text("config: {}\n")

    assert main(["stacks", "--project", str(root)]) == 0
    assert capsys.readouterr().out == "dev\n"


def test_yml_next_to_yaml_is_listed_once_and_ignored_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p", stack="config:\n  team:size: from-yaml\n")
    (root / "Pulumi.dev.yml").write_text("config:\n  team:size: from-yml\n")

    assert main(["stacks", "--project", str(root)]) == 0
    assert capsys.readouterr().out == "dev\n"
    plan = outputs(capsys, root)
    assert plan["outputs"]["team:size"] == "from-yaml"
    assert plan["warnings"] == ["Pulumi.dev.yml: ignored, as the Pulumi CLI ignores it: it reads Pulumi.dev.yaml"]


def test_a_stack_only_in_yml_is_refused_as_the_cli_never_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p", stack=None)
    (root / "Pulumi.dev.yml").write_text("config: {}\n")

    assert main(["stacks", "--project", str(root)]) == 0
    assert capsys.readouterr().out == "\n"
    assert refused(capsys, ["plan", "dev", "--project", str(root)]) == (
        "Pulumi.dev.yml: the Pulumi CLI does not read this file: next to Pulumi.yaml it reads Pulumi.dev.yaml; "
        "allowed: rename it to Pulumi.dev.yaml"
    )


def test_a_project_in_pulumi_yml_reads_yml_stack_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "p", stack=None)
    (root / "Pulumi.yaml").rename(root / "Pulumi.yml")
    (root / "Pulumi.dev.yml").write_text("config:\n  team:size: yml\n")

    assert outputs(capsys, root)["outputs"]["team:size"] == "yml"


def test_project_names_follow_pulumis_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "p")
    (root / "Pulumi.yaml").write_text("name: my team\nruntime: python\n")

    assert "project names may only contain alphanumerics, hyphens, underscores, and periods" in refused(
        capsys, ["stacks", "--project", str(root)]
    )


def test_rules_raise_input_error_for_library_callers(tmp_path: Path) -> None:
    root = project(tmp_path / "p", "k: {type: string}\n")

    with pytest.raises(InputError, match="missing configuration value 'k'"):
        load_stack(load_project(root), "dev")


@pytest.mark.parametrize("key", ["param:env", "other-project:vm", "network:cidr"])
def test_a_namespace_of_the_program_s_own_is_accepted(key: str) -> None:
    """Pulumi reads `pulumi.Config("param")` from `param:<key>` ("Configuration keys use the format
    [<namespace>:]<key-name> ... allows custom components to define their own key spaces",
    pulumi.com/docs/iac/concepts/config, read 2026-11-27): petitess/pulumi-azure-py's programs keep theirs there."""
    from azure_gpu_stacks.engine.run.pulumi_config import check_namespace

    assert check_namespace(key, "team", (), "Pulumi.dev.yaml") is None
