"""One version for the Python package, the component package and the policy pack, with a
CHANGELOG section for it and examples that install that release."""

from __future__ import annotations

import re
import tomllib

import pytest
import yaml
from azure_gpu_stacks.components import __version__
from azure_gpu_stacks.components.package import schema

from tests.conftest import REPO

POLICY_PACK = REPO / "policies" / "PulumiPolicy.yaml"
RELEASE_REFERENCE = re.compile(r"azure-gpu-stacks(?:\.git/provider)?@v(\d+\.\d+\.\d+)")


def test_version_is_what_pyproject_builds_the_package_with() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())

    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "azure_gpu_stacks.components.version.__version__"
    }
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_version_is_the_component_package_version() -> None:
    assert schema()["version"] == __version__


def test_version_is_the_policy_pack_version() -> None:
    assert str(yaml.safe_load(POLICY_PACK.read_text())["version"]) == __version__


def test_version_is_the_distribution_the_policy_pack_requires() -> None:
    requirements = (REPO / "policies" / "requirements.txt").read_text()

    assert re.findall(r"^azure-gpu-stacks==(\S+)$", requirements, flags=re.MULTILINE) == [__version__]


def test_version_has_a_changelog_section() -> None:
    changelog = (REPO / "CHANGELOG.md").read_text()

    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, flags=re.MULTILINE)
    assert f"[{__version__}]: " in changelog


@pytest.mark.parametrize(
    "path",
    [
        "README.md",
        "CHANGELOG.md",
        "docs/components.md",
        "examples/yaml-team/Pulumi.yaml",
        "examples/python-team/requirements.txt",
    ],
)
def test_version_is_the_release_users_are_told_to_install(path: str) -> None:
    text = (REPO / path).read_text()
    if path == "CHANGELOG.md":  # earlier sections name the releases they describe
        text = re.search(rf"^## \[{re.escape(__version__)}\] - .*?(?=^## \[|\Z)", text, re.DOTALL | re.MULTILINE)[0]
    referenced = RELEASE_REFERENCE.findall(text)

    assert referenced, f"{path} names no release to install"
    assert set(referenced) == {__version__}, f"{path} tells users to install {sorted(set(referenced))}"
