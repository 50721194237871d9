"""The pack as a whole: its registry, its metadata, and the files the Pulumi CLI reads."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from azure_gpu_stacks import policies
from azure_gpu_stacks.engine.run.policy_pack import VENV
from azure_gpu_stacks.policies.registry import PACK_VERSION, REGISTRY, DuplicatePolicyName, checked
from azure_gpu_stacks.policies.registry import policies as pack_policies
from pulumi_policy import ResourceValidationPolicy, StackValidationPolicy

from tests.conftest import REPO

PACK_DIR = REPO / "policies"


def test_registry_lists_every_policy_module() -> None:
    modules = [
        importlib.import_module(f"azure_gpu_stacks.policies.{m.name}")
        for m in pkgutil.iter_modules(policies.__path__)
        if m.name != "__main__"
    ]
    defined = {m.POLICY.name for m in modules if hasattr(m, "POLICY")}

    assert {p.name for p in pack_policies()} == defined


def test_registry_refuses_two_policies_with_one_name() -> None:
    with pytest.raises(DuplicatePolicyName) as err:
        checked([*REGISTRY, REGISTRY[0], next(p for p in REGISTRY if p.name == "require-cost-alerts")])

    assert str(err.value) == "policy names used more than once: disallow-retired-vm-sizes, require-cost-alerts"


@pytest.mark.parametrize("policy", REGISTRY, ids=[p.name for p in REGISTRY])
def test_every_policy_documents_itself(policy: ResourceValidationPolicy | StackValidationPolicy) -> None:
    assert policy.name == policy.name.lower() and " " not in policy.name
    assert policy.description and policy.remediation_steps and policy.severity is not None
    assert policy.enforcement_level is not None
    assert policy.url and policy.url.startswith("https://learn.microsoft.com/")
    assert policy.config_schema is not None
    assert all("default" in spec for spec in policy.config_schema.properties.values())


@pytest.mark.parametrize("policy", REGISTRY, ids=[p.name for p in REGISTRY])
def test_every_policy_is_listed_in_the_docs(policy: ResourceValidationPolicy | StackValidationPolicy) -> None:
    docs = (REPO / "docs" / "policies.md").read_text(encoding="utf-8")

    assert f"### `{policy.name}`" in docs


def test_pulumi_policy_yaml_runs_the_pack_with_its_own_venv_which_here_is_the_repository_venv() -> None:
    spec = yaml.safe_load((PACK_DIR / "PulumiPolicy.yaml").read_text(encoding="utf-8"))

    assert spec["runtime"] == {"name": "python", "options": {"virtualenv": VENV}}
    assert spec["version"] == PACK_VERSION
    # The committed link: `pulumi preview --policy-pack policies` runs the environment `make` builds.
    assert (PACK_DIR / VENV).is_symlink() and Path(os.readlink(PACK_DIR / VENV)) == Path("..", ".venv")


def test_pack_requirements_name_only_the_distribution_at_the_pack_version() -> None:
    lines = (PACK_DIR / "requirements.txt").read_text(encoding="utf-8").splitlines()

    assert [line for line in lines if line and not line.startswith("#")] == [f"azure-gpu-stacks=={PACK_VERSION}"]


def test_pack_main_imports_only_what_its_requirements_install() -> None:
    tree = ast.parse((PACK_DIR / "__main__.py").read_text(encoding="utf-8"))
    imported = {
        (n.module if isinstance(n, ast.ImportFrom) else a.name).split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }

    assert imported - set(sys.stdlib_module_names) == {"azure_gpu_stacks", "pulumi_policy"}


def test_pack_main_only_builds_the_policy_pack() -> None:
    tree = ast.parse((PACK_DIR / "__main__.py").read_text(encoding="utf-8"))
    calls = [ast.unparse(n.value.func) for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]

    assert calls == ["PolicyPack"] and defs == []


def test_importing_the_pack_reads_no_catalog() -> None:
    probe = (
        "import azure_gpu_stacks.policies.registry, azure_gpu_stacks.catalog.model as m;"
        " print(m.catalog.cache_info().currsize)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )

    assert (done.returncode, done.stdout.strip()) == (0, "0"), done.stderr


def test_pack_directory_holds_no_module_shadowing_the_standard_library() -> None:
    # The CLI runs the pack with policies/ first on sys.path: a `policies/types.py` would replace `types`.
    names = {p.stem for p in Path(PACK_DIR).glob("*.py")} - {"__init__", "__main__"}
    assert names.isdisjoint(sys.stdlib_module_names)
