"""Azure's value rules on a resource that holds a `secure:` config value the offline run cannot decrypt.

The program got a placeholder in place of the user's value (`inputs.offline_secret`): Azure would judge the user's
value, which is unknown here. A refusal that some value of the secret would avoid (a password's length, an id's GUID
pattern) is Azure's to give on the real value, so it is not ours; one the resource gets whatever the secret is (a
wrong value of another property, a secret where the spec asks for a number, a required property missing) still is.
Each value rule runs with the placeholder replaced by each of a few probe values in the shapes secrets take (an SSH
public key, the placeholder itself; a password; a GUID; base64 text), and a refusal stands only where every probe
gets it (same code, same words: a message quoting the value differs between probes, as it depends on it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..inputs.offline_secret import OFFLINE_SECRET
from .errors import ArmError

PROBES = (
    OFFLINE_SECRET,  # an OpenSSH public key line
    "Offline-Placeholder-Pa55word!",  # a password: 29 characters, upper and lower case, digits and symbols
    "6f1c5a8e-3b2d-4c7a-9e0f-1a2b3c4d5e6f",  # a GUID (a tenant, an object id)
    "T2ZmbGluZSBwbGFjZWhvbGRlcg==",  # base64 text (custom data)
)

Layer = Callable[[dict[str, Any]], list[ArmError]]


def with_probe(value: Any, probe: str) -> Any:
    """`value` with the placeholder replaced by `probe` wherever it is (a whole string or inside one)."""
    if isinstance(value, str):
        return value.replace(OFFLINE_SECRET, probe)
    if isinstance(value, dict):
        return {k: with_probe(v, probe) for k, v in value.items()}
    if isinstance(value, list):
        return [with_probe(v, probe) for v in value]
    return value


def first_refusal(check: Callable[[dict[str, Any]], None]) -> Layer:
    """A rule that raises its first refusal, as a layer that lists it."""

    def layer(props: dict[str, Any]) -> list[ArmError]:
        try:
            check(props)
        except ArmError as error:
            return [error]
        return []

    return layer


def refusals_whatever_the_secret(layer: Layer, props: dict[str, Any]) -> list[ArmError]:
    """The refusals `layer` gives `props` with every probe in the placeholder's place, in the placeholder's order."""
    first, *others = [layer(with_probe(props, probe)) for probe in PROBES]
    seen = [{(e.code, str(e)) for e in run} for run in others]
    return [e for e in first if all((e.code, str(e)) in run for run in seen)]
