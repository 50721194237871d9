"""A program written for Python 3.12 (an f-string reusing its own quotes, PEP 701) run under an older Python: the
one line says which syntax and which version, not only `f-string: unmatched '('` (petitess/pulumi-azure-py's
programs, 2025, stopped on it under gpu-stacks' own Python 3.11)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run.python_syntax import newer_python_note


def test_an_f_string_error_under_3_11_names_pep_701_and_both_versions() -> None:
    note = newer_python_note(SyntaxError("f-string: unmatched '('"), version=(3, 11))

    assert note is not None
    assert "Python 3.12 syntax (PEP 701)" in note and "ran under Python 3.11" in note
    assert "'" not in note  # a quote would make the error line's escaping hide the span as a value


@pytest.mark.parametrize(
    ("error", "version"),
    [
        (SyntaxError("f-string: unmatched '('"), (3, 12)),
        (SyntaxError("invalid syntax"), (3, 11)),
        (ValueError(), (3, 11)),
    ],
)
def test_no_note_where_3_12_would_fail_too(error: BaseException, version: tuple[int, int]) -> None:
    assert newer_python_note(error, version=version) is None


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 parses the program")
def test_the_one_line_of_such_a_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: westeurope\n")
    (tmp_path / "__main__.py").write_text(
        'dns = "privatelink.blob.core.windows.net"\nname = f"link-{dns.split(".")[1]}"\n'
    )

    assert main(["plan", "dev", "--project", str(tmp_path)]) == 2
    err = capsys.readouterr().err

    assert err.count("\n") == 1
    assert "SyntaxError: f-string" in err and "is Python 3.12 syntax (PEP 701)" in err
