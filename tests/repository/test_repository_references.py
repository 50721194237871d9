"""No file of the repository points outside it: Azure and Pulumi facts cite their public sources
(a learn.microsoft.com URL or a public repository path), never a path beside the checkout or a
numbered section of notes that are not in the repository."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO

# The names of the notes beside the checkout, written in pieces so that this file does not itself
# hold a reference that repository-wide searches (this test's, or a reviewer's grep) would report.
_NOTES = ("../" + "shared", "azure-gpu-" + "facts", "pulumi-sdk-" + "notes", "facts file")
OUTSIDE = re.compile(
    "|".join(re.escape(note) for note in _NOTES)  # notes beside the checkout
    + r"|\bfacts?\s*(?:§\s*|section\s*)?\d+(?:\.\d+)*"  # "facts 2.14", "facts §6", "facts section 2.14"
    r"|§\s*\d",  # "§2.13": a numbered section of no document in the repository
    flags=re.IGNORECASE,
)


def repository_text_files() -> Iterator[Path]:
    """Every file git tracks (or would: untracked files not ignored), but this one."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, text=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    for name in sorted(set(listed.split("\0")) - {""}):
        path = REPO / name
        if path.is_file() and not path.is_symlink() and path != Path(__file__):
            yield path


def test_no_file_refers_to_notes_or_paths_outside_the_repository() -> None:
    found = []
    for path in repository_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if match := OUTSIDE.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {match.group(0)!r} in {line.strip()!r}")

    assert found == [], "\n".join(found)


def test_the_check_finds_each_form_of_outside_reference() -> None:
    lines = [
        f"see {_NOTES[0]}/{_NOTES[1]}.md",
        "# Quota family: facts 2.13 (high confidence).",
        "(facts §6)",
        "How Azure counts (§2.13, §8)",
        "a fresh event loop (pulumi-sdk-notes §1.6)",
    ]
    clean = [
        "Source: https://learn.microsoft.com/azure/virtual-machines/setup-infiniband (observed 2026-11-22)",
        "with the facts it decides by",
        "resourceGroups/shared/providers/Microsoft.Storage/storageAccounts/shared",
    ]

    assert all(OUTSIDE.search(line) for line in lines)
    assert not any(OUTSIDE.search(line) for line in clean)
