"""The cache key's environment part (engine/fleet/cache.py): what is installed, as Python finds it.

A checkout installed in development mode with setuptools holds an `<name>.egg-info` beside the code; a process
that has the checkout on `sys.path` (`python -m` from it, a test run) then sees that distribution twice, the
installed one first. The key must be the same however the toolkit was started: a key that differs makes each way of
starting it miss the other's records and plan again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.fleet import cache


def dist_info(directory: Path, name: str, version: str) -> Path:
    """A distribution's metadata as an installer writes it (the core metadata's `Name` and `Version` fields,
    packaging.python.org "Core metadata specifications", observed 2026-11-27)."""
    info = directory / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    return directory


def digest_with(monkeypatch: pytest.MonkeyPatch, *appended: Path) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(sys, "path", [*sys.path, *map(str, appended)])
        return cache.environment_digest.__wrapped__()


def test_a_shadowed_copy_of_an_installed_distribution_leaves_the_key_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same name in another spelling, at another version, after the installed one on the path: never imported
    shadowed = dist_info(tmp_path / "checkout", "Azure_GPU.Stacks", "9.9.9")

    assert digest_with(monkeypatch, shadowed) == digest_with(monkeypatch)


def test_a_distribution_installed_beside_the_others_changes_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    added = dist_info(tmp_path / "site", "a-library-no-run-had-before", "1.0")

    assert digest_with(monkeypatch, added) != digest_with(monkeypatch)
