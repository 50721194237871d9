"""`gpu-stacks policy-pack path` and `export DIR`: the installed pack for any project's
`pulumi preview --policy-pack`, and a copy of it for `pulumi policy publish`."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from azure_gpu_stacks.components.version import __version__
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run import policy_pack

from tests.conftest import REPO
from tests.pack_process import pack_python


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["policy-pack", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def installed_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A pack directory as a wheel installs it: the pack's files, no `venv` yet."""
    pack = tmp_path / "site-packages" / "azure_gpu_stacks" / "policies"
    pack.mkdir(parents=True)
    for name in policy_pack.PACK_FILES:
        shutil.copy(REPO / "policies" / name, pack / name)
    monkeypatch.setattr(policy_pack, "pack_dir", lambda: pack)
    return pack


def test_path_prints_the_repository_pack_whose_venv_is_the_repository_venv(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "path")

    assert (code, out, err) == (0, f"{REPO / 'policies'}\n", "")
    assert pack_python(Path(out.strip())).resolve() == (REPO / ".venv" / "bin" / "python").resolve()


def test_path_links_an_installed_pack_to_the_environment_gpu_stacks_runs_in(
    installed_pack: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "path")

    assert (code, out, err) == (0, f"{installed_pack}\n", "")
    assert os.readlink(installed_pack / "venv") == sys.prefix
    assert pack_python(installed_pack).is_file()
    assert run(capsys, "path") == (0, f"{installed_pack}\n", "")  # a second call keeps the link


def test_path_replaces_a_link_to_an_environment_that_is_gone(
    installed_pack: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (installed_pack / "venv").symlink_to(tmp_path / "deleted-venv", target_is_directory=True)

    assert run(capsys, "path") == (0, f"{installed_pack}\n", "")
    assert os.readlink(installed_pack / "venv") == sys.prefix


def test_path_refuses_a_venv_directory_without_python(installed_pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (installed_pack / "venv").mkdir()

    code, out, err = run(capsys, "path")

    assert (code, out) == (2, "")
    assert err == (
        f"gpu-stacks: error: {installed_pack / 'venv'}: exists but holds no Python; remove it, "
        "or point it at a virtual environment\n"
    )


def test_path_refuses_to_link_a_python_outside_any_virtual_environment(
    installed_pack: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "base_prefix", sys.prefix)

    code, out, err = run(capsys, "path")

    assert (code, out) == (2, "")
    assert err.startswith(
        f"gpu-stacks: error: {installed_pack / 'venv'}: gpu-stacks runs outside a virtual environment"
    )
    assert err.count("\n") == 1 and "policy-pack export DIR" in err
    assert not (installed_pack / "venv").exists()


def test_export_writes_the_self_contained_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "gpu-policy-pack"

    code, out, err = run(capsys, "export", str(dest))

    assert (code, out, err) == (0, f"{dest}\n", "")
    assert sorted(p.name for p in dest.iterdir()) == [
        ".gitignore",
        "PulumiPolicy.yaml",
        "__main__.py",
        "requirements.txt",
    ]
    for name in policy_pack.PACK_FILES:
        assert (dest / name).read_bytes() == (REPO / "policies" / name).read_bytes()
    # `pulumi policy publish` archives the directory minus what .gitignore names: never the local venv.
    assert "venv/" in (dest / ".gitignore").read_text().splitlines()


def test_export_with_a_requirement_for_machines_whose_index_lacks_the_distribution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = f"azure-gpu-stacks @ git+https://github.com/example-org/azure-gpu-stacks@v{__version__}"

    assert run(capsys, "export", str(tmp_path), "--requirement", line) == (0, f"{tmp_path}\n", "")
    written = (tmp_path / "requirements.txt").read_text().splitlines()
    assert [x for x in written if not x.startswith("#")] == [line]


def test_export_refuses_a_requirement_of_another_distribution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "export", str(tmp_path / "pack"), "--requirement", "pulumi-policy==1.21.0")

    assert (code, out) == (2, "")
    assert err == (
        "gpu-stacks: error: --requirement: 'pulumi-policy==1.21.0' is not a requirement of azure-gpu-stacks; "
        "allowed: one line, 'azure-gpu-stacks==<version>' or 'azure-gpu-stacks @ <url>' (PEP 508)\n"
    )
    assert not (tmp_path / "pack").exists()


def test_export_into_an_empty_existing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "export", str(tmp_path)) == (0, f"{tmp_path}\n", "")
    assert (tmp_path / "PulumiPolicy.yaml").is_file()


@pytest.mark.parametrize("existing", ["a directory with a file", "a file"])
def test_export_refuses_what_it_would_overwrite_and_writes_nothing(
    existing: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "pack"
    if existing == "a file":
        dest.write_text("mine")
        expected = f"{dest}: is a file; export writes a directory (a new or empty one)"
    else:
        dest.mkdir()
        (dest / "notes.txt").write_text("mine")
        expected = f"{dest}: is not empty; export writes a new or empty directory"
    before = sorted(p.name for p in tmp_path.rglob("*"))

    code, out, err = run(capsys, "export", str(dest))

    assert (code, out, err) == (2, "", f"gpu-stacks: error: {expected}\n")
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_policy_pack_needs_an_action(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["policy-pack"])

    assert exit_.value.code == 2
    assert capsys.readouterr().err.endswith("gpu-stacks: error: the following arguments are required: ACTION\n")


# tests/data/hostile_requirements.json: what `--requirement` was given, and whether it is written as given
HOSTILE_REQUIREMENTS = json.loads((REPO / "tests" / "data" / "hostile_requirements.json").read_text())


@pytest.mark.parametrize("case", sorted(HOSTILE_REQUIREMENTS))
def test_export_writes_a_requirement_literally_or_refuses_it_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    """The text is never a regex replacement: `\\n` cannot add a package line, `\\1` cannot crash."""
    given = HOSTILE_REQUIREMENTS[case]["requirement"]
    code, out, err = run(capsys, "export", str(tmp_path / "pack"), "--requirement", given)

    if HOSTILE_REQUIREMENTS[case]["expected"] == "written":
        assert (code, err) == (0, "")
        written = (tmp_path / "pack" / "requirements.txt").read_text().splitlines()
        assert [line for line in written if not line.startswith("#")] == [given]
    else:
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and err.startswith("gpu-stacks: error: --requirement: "), err
        assert "allowed: one line, 'azure-gpu-stacks==<version>' or 'azure-gpu-stacks @ <url>' (PEP 508)" in err
        assert not (tmp_path / "pack").exists()
