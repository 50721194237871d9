"""Name and length rules of every modelled type, from one table: catalog/arm/name_rules.json, built from Learn's
resource-name-rules page (https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules,
the date observed in the file) and, where a type's own page says more, that page (the rule's `page`).

The components (a name they generate or are given), the stack's config, the fake ARM's types (`fakeazure/models`) and
its prose rules (`fakeazure/prose.py`) all read a rule here: `name_rule("Microsoft.Storage/storageAccounts")`. A rule
a type's own check answers (with the code Azure gives that type) names the module in `checkedBy`; the prose rules
answer the others with the table's code. `withoutRow` lists the modelled types the table has no rule for, with why.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

NAME_RULES_FILE = Path(__file__).resolve().parent / "arm" / "name_rules.json"


class NameRule(BaseModel):
    """What Azure accepts as the name of one kind of resource."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str = Field(description="Regular expression a name must match.")
    min_length: int = Field(default=1, gt=0, description="Shortest name.")
    max_length: int = Field(gt=0, description="Longest name; what generated names are cut to.")
    allowed: str = Field(description="The rule in words, as error messages say it.")
    source: str | None = Field(default=None, description="A page beyond the resource-name rules, when there is one.")

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        re.compile(value)
        return value

    def matches(self, name: str) -> bool:
        return (
            isinstance(name, str)
            and self.min_length <= len(name) <= self.max_length
            and _compiled(self.pattern).match(name) is not None
        )


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@functools.cache
def name_table() -> dict[str, Any]:
    """The table as it is written (catalog/arm/name_rules.json)."""
    found: dict[str, Any] = json.loads(NAME_RULES_FILE.read_text(encoding="utf-8"))
    return found


@functools.cache
def name_rule(arm_type: str) -> NameRule:
    """The name rule of `arm_type` (as ARM spells it, e.g. Microsoft.Batch/batchAccounts/pools)."""
    entry = name_table()["rules"][arm_type]
    return NameRule(
        pattern=entry["pattern"],
        min_length=entry["min"],
        max_length=entry["max"],
        allowed=entry["allowed"],
        source=entry.get("page"),
    )


def windows_max(arm_type: str) -> int | None:
    """The shorter longest name of a Windows resource of `arm_type` (an AKS Windows pool), or None."""
    found: int | None = name_table()["rules"][arm_type].get("windowsMax")
    return found
