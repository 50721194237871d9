"""The run's secrets, and masking them wherever text leaves the tool: the one home of both.

What is a secret is what Pulumi would treat as one (pulumi/pulumi docs "Secrets", concepts/secrets,
read 2026-11-25): a config value that is `secure:` or whose key the project declares `secret: true`
(read with `config.get` as well as `config.get_secret`); a value made secret (`Output.secret`) of any
type, and every value inside it (Pulumi marks a whole structure secret); a stack output marked secret,
including another stack's (`pulumi stack output --json` writes each secret as "[secret]", and the
structure holding one is secret). A value inside a secret structure that the run also uses in plain
sight is not masked (`run_secrets`), nor the rest of a structure Pulumi marked for a secret the run
already knows (`structure_secrets`): Pulumi's marking sweeps ordinary words in with the secret. An
existing resource read from an `--existing` file has no secret markers: its values under keys that name
a credential (`CREDENTIAL_KEY`, our own rule: no public list of which `az show` fields are secret
exists) are taken as secrets.

Each secret's text is collected as a leaf (strings, and numbers written out; booleans, None and text
shorter than `MIN_SECRET_LENGTH` are not: they would mask ordinary words). `Mask` replaces each
with "[secret]", longest first, in every form our formats write it (`ESCAPES`: as given, with control
characters escaped, JSON-escaped, in a markdown table cell or Mermaid label, in XML text and attributes,
and each of those inside another), so that it is applied once to the finished text, after each format's
escaping. There is no
process-wide mask: a command returns what it says (`engine.commands.said.Said`, with the secrets it
learned) and the CLI masks it once with those and the stack files' declared secrets. What is made away from
that edge is masked with a `Mask` of its plan's secrets where it is made: a fleet record (in a worker, for
the cache and shard files that `merge` reads back), Azure's quoted messages (`engine.arm`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..inputs.files import escaped
from ..sdk.internals import is_secret, unwrap_secret
from .escapes import cell, mermaid_text

SECRET_SHOWN_AS = "[secret]"
MIN_SECRET_LENGTH = 4  # shorter strings would mask ordinary words
# Leaves under these keys are secrets wherever no marker says so (an --existing file; the inside of a
# secret structure shown in part): they may hold a credential whatever their value.
CREDENTIAL_KEY = re.compile(r"(?i)(password|secret|token|credentials?|connectionstring|privatekey|keydata|customdata)$")


def leaves(value: Any) -> set[str]:
    """The text of every string and number inside `value` (secret markers looked through)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = unwrap_secret(stack.pop())
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            found.add(str(item))
    return found


def marked_parts(value: Any) -> tuple[set[str], list[Any]]:
    """The parts of `value` that carry a secret marker: (the leaves of those marked one by one, the
    structures marked as a whole). Pulumi marks a whole top-level input secret when one value inside it
    is, so a marked structure holds ordinary words beside the secret too (see `structure_secrets`)."""
    scalars: set[str] = set()
    structures: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if is_secret(item):
            inner = unwrap_secret(item)
            if isinstance(inner, (Mapping, list, tuple)):
                structures.append(inner)
            else:
                scalars |= leaves(inner)
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return scalars, structures


def structure_secrets(structure: Any, known: Iterable[str]) -> set[str]:
    """What is secret in a structure marked secret as a whole. Where it holds a secret the run already
    knows (a secret config value) or values under credential keys (`keyData`, `password`), those are why
    it is marked: only they are secret, not the rest (a VM's whole `osProfile` is marked for its one SSH
    key; "azureuser" beside it is no secret). Otherwise nothing says which part is the secret (the program
    made a list or a mapping secret itself), and every value inside it is."""
    inside = leaves(structure)
    credentials = credential_leaves(structure)
    known = set(known)
    if credentials or any(secret in leaf for leaf in inside for secret in known):
        return credentials
    return inside


def plain_leaves(value: Any) -> set[str]:
    """The leaves of `value` outside every secret marker: what the program itself shows unmasked."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if is_secret(item):
            continue
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        else:
            found |= leaves(item)
    return found


def run_secrets(direct: Iterable[str], inside: Iterable[str], plain: Iterable[str]) -> frozenset[str]:
    """What a run masks: every value that is itself secret (`direct`: secret config however read, values
    marked one by one, credentials of existing resources), and every value inside a secret structure
    (`inside`: `Output.secret({...})`, a secret output, another stack's output holding a "[secret]")
    except those the run also uses in plain sight (`plain`): a word beside the secret that Pulumi's
    whole-structure marking swept in ("team": "research") is no secret where the program shows it."""
    return worth_masking({*direct, *(set(inside) - set(plain))})


def credential_leaves(value: Any) -> set[str]:
    """The leaves under keys that name a credential (`CREDENTIAL_KEY`), at any depth."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            for key, inner in item.items():
                if isinstance(key, str) and CREDENTIAL_KEY.search(key):
                    found |= leaves(inner)
                else:
                    stack.append(inner)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def secret_output_leaves(outputs: Mapping[str, Any]) -> set[str]:
    """The leaves of another stack's outputs that are secret: each output holding a "[secret]"."""
    return {leaf for value in outputs.values() if SECRET_SHOWN_AS in leaves(value) for leaf in leaves(value)}


def worth_masking(values: Iterable[str]) -> frozenset[str]:
    return frozenset(v for v in values if len(v) >= MIN_SECRET_LENGTH and v != SECRET_SHOWN_AS)


class Mask:
    """Replaces each known secret in text, in every form our outputs write it, by "[secret]"."""

    def __init__(self, secrets: Iterable[str] = (), *, ignore_case: bool = False) -> None:
        """`ignore_case`: also in any other case (text a service quotes back, such as Azure's messages)."""
        self.secrets: set[str] = set()
        self._flags = re.IGNORECASE if ignore_case else 0
        self._pattern: re.Pattern[str] | None = None
        self.add(secrets)

    def add(self, secrets: Iterable[str]) -> None:
        new = worth_masking(secrets) - self.secrets
        if new:
            self.secrets |= new
            self._pattern = None

    def clear(self) -> None:
        self.secrets.clear()
        self._pattern = None

    def _compiled(self) -> re.Pattern[str] | None:
        if self._pattern is None and self.secrets:
            forms = {form for s in self.secrets for form in _forms(s) if len(form) >= MIN_SECRET_LENGTH}
            # one alternation, longest first: a secret inside another goes with it; linear in the text
            self._pattern = re.compile(
                "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True)), self._flags
            )
        return self._pattern

    def __call__(self, text: str) -> str:
        pattern = self._compiled()
        return pattern.sub(SECRET_SHOWN_AS, text) if pattern is not None else text

    def values(self, value: Any) -> Any:
        """`value` (JSON-shaped) with each string holding a secret masked, keys of mappings included (a
        secret can name a tag), and each secret number replaced by "[secret]", so that the JSON made from
        it stays JSON."""
        if isinstance(value, str):
            return self(value)
        if isinstance(value, Mapping):
            return {self(k) if isinstance(k, str) else k: self.values(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.values(v) for v in value]
        if isinstance(value, (int, float)) and not isinstance(value, bool) and str(value) in self.secrets:
            return SECRET_SHOWN_AS
        return value


def _json_inner(text: str) -> str:
    return json.dumps(text)[1:-1]


def _json_inner_unicode(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _xml_text(text: str) -> str:
    """As ElementTree writes text (JUnit's messages)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_attribute(text: str) -> str:
    """As ElementTree writes an attribute value (JUnit's names and messages)."""
    text = _xml_text(text)
    for char, entity in (('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;")):
        text = text.replace(char, entity)
    return text


ESCAPES = (
    escaped,
    lambda text: escaped(text, keep_newlines=True),
    _json_inner,
    _json_inner_unicode,
    cell,  # a markdown table cell
    mermaid_text,  # a node of the markdown report's graph
    _xml_text,
    _xml_attribute,
)
"""How each format writes text: the terminal's control-character escapes, JSON strings, markdown table cells,
XML. A report may apply two (a markdown cell printed with its control characters escaped; JSON around text)."""


def _forms(secret: str) -> set[str]:
    """How `secret` can appear in what we print: as is, and through one or two of the formats' escapes."""
    once = {escape(secret) for escape in ESCAPES}
    return {secret, *once, *(escape(form) for form in once for escape in ESCAPES)}
