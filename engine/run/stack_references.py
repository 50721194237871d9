"""`pulumi.StackReference` offline: the outputs of other stacks, from files `pulumi stack output --json` wrote.

A program reads another stack's outputs (a network stack's subnet id, a cluster's name) through a
`StackReference`, which the engine answers from the backend. Offline there is no backend, so each
referenced stack's outputs come from a file:

- `--stack-outputs ORG/PROJECT/STACK=FILE` on the command line, or
- `stack-outputs/ORG/PROJECT/STACK.json` in the project, a file a team can commit:
  `pulumi stack output --json --stack ORG/PROJECT/STACK > stack-outputs/ORG/PROJECT/STACK.json`.

Without `--show-secrets`, `pulumi stack output --json` writes each secret as the string "[secret]"
(pulumi/pulumi `pkg/backend/display/json.go`, `MassageSecrets`; observed 2026-11-22): an output
holding one stays a secret offline, so the program's `get_output` gives a secret Output as it
would under `pulumi preview`. A reference to a stack with no file is refused (exit 2) naming the
stack and both ways to supply it.

Names resolve as the Pulumi Cloud backend resolves them (`pkg/backend/httpstate/backend.go`,
`parseStackName`): `STACK` is a stack of this project and organization, `ORG/STACK` one of this
project in ORG, `ORG/PROJECT/STACK` is fully qualified.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi

from ...inputs.files import InputFileError, load_json
from ..errors import InputError
from ..secrets import secret_output_leaves
from .pulumi_config import stack_name_problem

STACK_REFERENCE = "pulumi:pulumi:StackReference"
CONVENTIONAL_DIR = "stack-outputs"
SECRET_MARK = "[secret]"


def qualify(name: str, organization: str, project: str) -> str:
    """ORG/PROJECT/STACK for a reference name of one, two or three parts."""
    parts = name.split("/")
    if len(parts) == 1:
        parts = [organization, project, parts[0]]
    elif len(parts) == 2:
        parts = [parts[0], project, parts[1]]
    if len(parts) != 3 or not all(parts) or stack_name_problem(parts[2]):
        raise InputError(
            f"StackReference {name!r}: could not parse stack name; allowed: STACK, ORG/STACK or ORG/PROJECT/STACK"
        )
    return "/".join(parts)


def parse_option(values: Sequence[str]) -> dict[str, Path]:
    """`--stack-outputs ORG/PROJECT/STACK=FILE`, each checked."""
    found: dict[str, Path] = {}
    for value in values:
        name, sep, file = value.partition("=")
        if not sep or not file or name.count("/") != 2 or not all(name.split("/")):
            raise InputError(
                f"--stack-outputs {value!r}: allowed: ORG/PROJECT/STACK=FILE, FILE written by "
                "`pulumi stack output --json --stack ORG/PROJECT/STACK`"
            )
        found[name] = Path(file)
    return found


def _holds_secret(value: Any) -> bool:
    if value == SECRET_MARK:
        return True
    if isinstance(value, dict):
        return any(_holds_secret(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_secret(v) for v in value)
    return False


def read_outputs(path: Path, label: str) -> dict[str, Any]:
    """One outputs file, read as every input file is (`inputs.files`: a regular file, capped, numbers and
    nesting bounded), its problem one line naming it."""
    try:
        data = load_json(path, "stack-outputs", label)
    except InputFileError as exc:
        raise InputError(str(exc)) from None
    if not isinstance(data, dict):
        raise InputError(
            f"{label}: a JSON {type(data).__name__}; allowed: the object `pulumi stack output --json` writes"
        )
    return data


@dataclass
class StackReferences:
    """Where each referenced stack's outputs come from, and which references the run made."""

    project_root: Path
    project: str
    organization: str
    files: Mapping[str, Path] = field(default_factory=dict)  # from --stack-outputs
    used: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # references with no outputs offline, in order
    unreadable: list[InputError] = field(default_factory=list)  # outputs files that could not be read
    secret_leaves: set[str] = field(default_factory=set)  # the values inside secret outputs read

    def check(self) -> None:
        """After a run: refuse it when it referenced a stack whose outputs were not supplied.

        The read itself answered with no outputs rather than failing, so that the SDK's pending
        work ends cleanly; whatever the program then did with the missing outputs is not the news.
        """
        if self.unreadable:
            raise self.unreadable[0]
        if self.missing:
            qualified = self.missing[0]
            raise InputError(
                f"StackReference '{qualified}': no outputs of that stack offline; "
                "allowed: save them in the project with "
                f"`pulumi stack output --json --stack {qualified} > {CONVENTIONAL_DIR}/{qualified}.json`, "
                f"or pass --stack-outputs {qualified}=FILE"
            )

    def source(self, qualified: str) -> Path | None:
        if qualified in self.files:
            return self.files[qualified]
        conventional = self.project_root / CONVENTIONAL_DIR / f"{qualified}.json"
        # anything at that name is read (and refused by what it is), not taken for a missing file
        return conventional if os.path.lexists(conventional) else None

    def state(self, name: str) -> dict[str, Any]:
        """What the engine answers a StackReference read with: its outputs and which are secret."""
        qualified = qualify(name, self.organization, self.project)
        path = self.source(qualified)
        if path is None:
            self.missing.append(qualified)
            return {"name": name, "outputs": {}, "secretOutputNames": []}
        try:
            outputs = read_outputs(path, str(path))
        except InputError as exc:
            self.unreadable.append(exc)
            return {"name": name, "outputs": {}, "secretOutputNames": []}
        self.used.append(qualified)
        self.secret_leaves |= secret_output_leaves(outputs)
        secrets = sorted(k for k, v in outputs.items() if _holds_secret(v))
        return {"name": name, "outputs": outputs, "secretOutputNames": secrets}


class ReferenceMocks(pulumi.runtime.Mocks):
    """Answers StackReference reads from `StackReferences`; everything else goes to `inner`."""

    def __init__(self, inner: pulumi.runtime.Mocks, references: StackReferences):
        self.inner = inner
        self.references = references

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str | None, dict[str, Any]]:
        if args.typ == STACK_REFERENCE:
            name = str(args.inputs.get("name") or args.resource_id or args.name)
            return name, self.references.state(name)
        return self.inner.new_resource(args)

    def call(self, args: pulumi.runtime.MockCallArgs) -> Any:
        return self.inner.call(args)
