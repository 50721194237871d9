"""Canaries: a distinct marker in every place a secret can be, and every byte of every format of
every command searched for each. None may appear: not in reports, program output, warnings or
error messages."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.engine.diff.test_diff import commit, git
from tests.engine.secrets.test_secrets import EVERY_FORMAT as SECRET_FORMATS

CANARIES = {
    "ciphertext": "v1:CANARY-CIPHERTEXT-1d9e",  # a `secure:` value in the stack file
    "plain-declared": "CANARY-PLAIN-DECLARED-77ab",  # a key the project declares secret, set in plain text (warned)
    "plain-typed": "CANARY-PLAIN-TYPED-c2d8",  # the same with a declared type: refused, as the CLI refuses it
    "input": "CANARY-INPUT-3c0f",  # a secret resource input (a password)
    "nested-input": "CANARY-NESTED-INPUT-e5a2",  # a secret inside a structure (a tag)
    "output": "CANARY-OUTPUT-90b4",  # a secret stack output
    "derived-output": "CANARY-DERIVED-4f61",  # an output computed from a secret
    "printed": "CANARY-PRINTED-a8c3",  # a secret the program prints
    "logged": "CANARY-LOGGED-0b7d",  # a secret the program logs as a warning
    "declared-get-input": "CANARY-DECLARED-GET-6d1e",  # a declared secret read with config.get into an input
    "declared-get-key": "CANARY-DECLARED-KEY-2f9a",  # the same used as a key of a mapping (a tag's name)
    "dict-printed": "CANARY-DICT-PRINTED-31f7",  # a password inside a secret dict the program prints
    "list-output": "CANARY-LIST-OUTPUT-8e25",  # inside a secret list, exported and printed
    "number": "73645190",  # a secret number, printed and in an input
    "refused": "CANARY REFUSED NAME!",  # a secret the fake ARM quotes in a refusal
    "existing": "CANARY-EXISTING-PW-5a0c",  # a credential of an --existing resource the program reads
    "stack-output": "CANARY-STACK-OUTPUT-d4b6",  # beside a "[secret]" in another stack's output
}

PROGRAM = f"""
import sys
import pulumi
from pulumi_azure_native import compute, containerservice, resources

config = pulumi.Config()
password = pulumi.Output.secret("{CANARIES["input"]}")
tag = pulumi.Output.secret("{CANARIES["nested-input"]}")
rg = resources.ResourceGroup("rg", location="eastus", tags={{"owner": tag, "team": "ml"}})
compute.VirtualMachine("vm", resource_group_name=rg.name, location="eastus",
    hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC4as_T4_v3"),
    os_profile=compute.OSProfileArgs(admin_username="azureuser", admin_password=password, computer_name="vm"))
pulumi.export("token", pulumi.Output.secret("{CANARIES["output"]}"))
pulumi.export("derived", password.apply(lambda p: "{CANARIES["derived-output"]}" + p))
pulumi.export("declared", config.get_secret("apiToken"))
pulumi.export("declaredPlain", config.get("apiToken"))
printed = pulumi.Output.secret("{CANARIES["printed"]}")
pulumi.export("printed", printed)
print("{CANARIES["printed"]}")
print("{CANARIES["printed"]}", file=sys.stderr)
logged = pulumi.Output.secret("{CANARIES["logged"]}")
rg.tags.apply(lambda _: pulumi.log.warn("rotating {CANARIES["logged"]}"))
pulumi.export("logged", logged)
rg.tags.apply(lambda _: resources.ResourceGroup("db", location="eastus",
    tags={{"host": config.get("dbHost")}}))
resources.ResourceGroup("keyed", location="eastus", tags={{config.get("tagKey"): "owner"}})
admin = pulumi.Output.secret({{"user": "admin", "password": "{CANARIES["dict-printed"]}"}})
pulumi.export("admin", admin)
admin.apply(print)
listed = pulumi.Output.secret(["{CANARIES["list-output"]}"])
pulumi.export("listed", listed)
listed.apply(print)
number = pulumi.Output.secret({CANARIES["number"]})
number.apply(print)
resources.ResourceGroup("numbered", location="eastus", tags={{"n": number.apply(str)}})
resources.ResourceGroup("refused", location="eastus", resource_group_name=pulumi.Output.secret("{CANARIES["refused"]}"))
aks = containerservice.get_managed_cluster_output(resource_group_name="rg-shared", resource_name="aks")
aks.apply(lambda c: print("joined", c.windows_profile))
pulumi.export("joined", aks.windows_profile)
network = pulumi.StackReference("network")
network.get_output("db").apply(print)
pulumi.export("db", network.get_output("db"))
# the credential of an existing resource and another stack's secret output, as inputs (export-arm's parameters)
aks.apply(lambda c: resources.ResourceGroup("joined", location="eastus",
    tags={{"pw": c.windows_profile.admin_password}}))
resources.ResourceGroup("referenced", location="eastus", tags={{"user": network.get_output("db")["user"]}})
"""

AKS_ID = (
    "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-shared"
    "/providers/Microsoft.ContainerService/managedClusters/aks"
)
EXISTING = {
    "id": AKS_ID,
    "location": "eastus",
    "properties": {"windowsProfile": {"adminUsername": "azureuser", "adminPassword": CANARIES["existing"]}},
}
# `pulumi stack output --json` without --show-secrets: the secret as "[secret]", the rest of the output beside it
STACK_OUTPUTS = {"db": {"user": CANARIES["stack-output"], "password": "[secret]"}}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_project(tmp_path / "canaries")


def write_project(root: Path) -> Path:
    """The canary project at `root`: the program, its two stacks, an --existing file and a saved stack output."""
    root.mkdir()
    (root / "Pulumi.yaml").write_text(
        "name: canaries\nruntime: python\nconfig:\n  apiToken:\n    secret: true\n  dbHost:\n    secret: true\n"
        "  tagKey:\n    secret: true\n"
    )
    (root / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    (root / "Pulumi.dev.yaml").write_text(
        f"config:\n  canaries:apiKey:\n    secure: {CANARIES['ciphertext']}\n"
        f"  canaries:apiToken: {CANARIES['plain-declared']}\n"
        f"  canaries:dbHost: {CANARIES['declared-get-input']}\n"
        f"  canaries:tagKey: {CANARIES['declared-get-key']}\n"
    )
    (root / "existing.json").write_text(json.dumps(EXISTING))
    saved = root / "stack-outputs" / "organization" / "canaries" / "network.json"
    saved.parent.mkdir(parents=True)
    saved.write_text(json.dumps(STACK_OUTPUTS))
    (root / "Pulumi.prod.yaml").write_text((root / "Pulumi.dev.yaml").read_text())
    return root


# Every format tests/engine/secrets/test_secrets.py searches, plus the --jobs paths a worker prints through.
EVERY_FORMAT = [*SECRET_FORMATS, ["check", "--format", "sarif", "--jobs", "2"], ["cost", "--jobs", "2"]]


@pytest.mark.parametrize("argv", EVERY_FORMAT, ids=" ".join)
def test_canaries_never_printed(project: Path, capfdbinary: pytest.CaptureFixture[bytes], argv: list[str]) -> None:
    code = main([*argv, "--project", str(project), "--existing", str(project / "existing.json")])
    out, err = capfdbinary.readouterr()

    assert code in (0, 1), err
    found = {name for name, canary in CANARIES.items() if canary.encode() in out or canary.encode() in err}
    assert found == set(), f"printed: {found}"
    assert out.strip() and b"error" not in err  # a real report of the stacks
    if {"--json", "json", "sarif"} & set(argv):
        json.loads(out)  # masked values, not broken documents (a secret number included)


def test_canaries_masked_where_they_were(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not missing by accident: the program ran, printed and logged, and the secrets show as [secret]."""
    existing = str(project / "existing.json")
    assert main(["plan", "dev", "--project", str(project), "--existing", existing]) == 1  # planned, refusals
    out = capsys.readouterr().out

    assert "canaries:apiToken: declared secret in Pulumi.yaml but given in plain text" in out
    assert "Program output (stdout and stderr):\n  | [secret]\n  | [secret]\n" in out
    assert "  - rotating [secret]" in out
    assert "token" in out and "[secret]" in out


@pytest.mark.parametrize(
    ("stack_yaml", "key"),
    [
        (
            "config:\n  canaries:apiKey:\n    secure: [CANARY-SECURE-LIST-5e1a]\n",
            "config.canaries:apiKey.secure: a list, not ciphertext",
        ),
        (
            "config:\n  canaries:apiKey:\n    secure: {{x: CANARY-SECURE-MAP-2b9c}}\n",
            "config.canaries:apiKey.secure: a mapping, not ciphertext",
        ),
    ],
)
def test_canaries_not_in_error_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stack_yaml: str, key: str
) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: canaries\nruntime: python\n")
    (root / "__main__.py").write_text("")
    (root / "Pulumi.dev.yaml").write_text(stack_yaml.replace("{{", "{").replace("}}", "}"))

    assert main(["plan", "dev", "--project", str(root)]) == 2
    out, err = capsys.readouterr()

    assert key in err
    assert "CANARY" not in out + err


@pytest.mark.parametrize(
    "command",
    [["plan", "dev"], ["check"], ["check", "--jobs", "2", "--format", "sarif"], ["cost"], ["quota", "dev"]],
    ids=" ".join,
)
def test_canary_declared_typed_secret_in_plain_text_is_refused_unshown(
    project: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    (project / "Pulumi.yaml").write_text(
        "name: canaries\nruntime: python\nconfig:\n  apiToken:\n    type: string\n    secret: true\n"
    )
    (project / "Pulumi.dev.yaml").write_text(f"config:\n  canaries:apiToken: {CANARIES['plain-typed']}\n")

    assert main([*command, "--project", str(project)]) == 2
    out, err = capsys.readouterr()

    assert "canaries:apiToken: Stack 'dev' with configuration key 'apiToken' must be encrypted as it's secret" in err
    assert CANARIES["plain-typed"] not in out + err


DIFF_CANARIES = {"old": "CANARY-DIFF-OLD-2f8a", "new": "CANARY-DIFF-NEW-7c3e"}
DIFF_PROGRAM = """
import pulumi
from pulumi_azure_native import resources
config = pulumi.Config()
resources.ResourceGroup("rg", location="eastus", tags={"host": config.get("dbHost"), "team": "ml"})
resources.ResourceGroup("vault", location="eastus", tags={"key": pulumi.Output.secret(config.require("vaultKey"))})
"""


@pytest.fixture(scope="module")
def diffed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed project whose declared secret and secret input change in the working tree."""
    root = tmp_path_factory.mktemp("diff-secrets") / "repo"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: canaries\nruntime: python\nconfig:\n  dbHost:\n    secret: true\n")
    (root / "__main__.py").write_text(DIFF_PROGRAM)
    stack = "config:\n  canaries:dbHost: {host}\n  canaries:vaultKey: {key}\n"
    (root / "Pulumi.dev.yaml").write_text(stack.format(host=DIFF_CANARIES["old"], key=DIFF_CANARIES["old"] + "-key"))
    git(root, "init", "-q")
    commit(root)
    (root / "Pulumi.dev.yaml").write_text(stack.format(host=DIFF_CANARIES["new"], key=DIFF_CANARIES["new"] + "-key"))
    return root


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_diff_shows_no_old_or_new_secret(diffed: Path, capfdbinary: pytest.CaptureFixture[bytes], fmt: str) -> None:
    code = main(["diff", "HEAD", "--project", str(diffed), "--format", fmt, "-j", "1"])
    out, err = capfdbinary.readouterr()

    assert code in (0, 1), err
    assert b"[secret]" in out  # the change is there, masked
    assert not [name for name, canary in DIFF_CANARIES.items() if canary.encode() in out + err]


def test_a_word_beside_a_secret_in_one_structure_stays_where_the_program_shows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pulumi marks the whole `tags` input secret for its one secret value; "research", which the program
    also exports in plain, is not masked everywhere for it, while the secret is."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: words\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    (root / "__main__.py").write_text(
        textwrap.dedent("""
            import pulumi
            from pulumi_azure_native import resources
            owner = pulumi.Output.secret("CANARY-BESIDE-9e0a")
            resources.ResourceGroup("rg", location="eastus", tags={"owner": owner, "team": "research"})
            pulumi.export("team", "research")
        """)
    )

    main(["plan", "dev", "--project", str(root), "--json"])
    out = capsys.readouterr().out

    assert json.loads(out)["outputs"]["team"] == "research"
    assert "CANARY-BESIDE-9e0a" not in out
