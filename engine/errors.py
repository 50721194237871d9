"""Errors the CLI turns into one message on stderr and exit code 2 (the input cannot be evaluated)."""

from __future__ import annotations


class InputError(Exception):
    """Bad input: a project, stack file, flag or program that cannot be evaluated. Exit code 2."""

    exit_code = 2
