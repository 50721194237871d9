"""Why a program that parses under Python 3.12 does not under an older interpreter, in the words a user can act on.

Python 3.12 lets an f-string's replacement field reuse the string's own quotes (`f"{d.split(".")[1]}"`): PEP 701,
"Syntactic formalization of f-strings", and "What's New In Python 3.12" (docs.python.org, read 2026-11-27). Under
3.11 the same line is a SyntaxError whose message starts `f-string:` (`f-string: unmatched '('`), which names
neither the version nor the way out. petitess/pulumi-azure-py's programs (2025) are written this way.
"""

from __future__ import annotations

import sys

F_STRING_PEP_701 = (3, 12)


def newer_python_note(exc: BaseException, version: tuple[int, int] | None = None) -> str | None:
    """A note for a SyntaxError the running Python gives where 3.12 would not, else None."""
    running = version or (sys.version_info.major, sys.version_info.minor)
    if not isinstance(exc, SyntaxError) or running >= F_STRING_PEP_701:
        return None
    if not str(exc.msg or "").startswith("f-string"):
        return None
    return (
        f"an f-string reusing its own quotes inside {{}} is Python 3.12 syntax (PEP 701), and the program ran under "
        f"Python {running[0]}.{running[1]}: run it in its own environment with Python 3.12 or later "
        "(runtime.options.virtualenv in Pulumi.yaml)"
    )
