"""Input checks shared by the config schema and the components, and the error components raise.

Each check returns the canonical value or raises ValueError with a message that names the bad
value and what is allowed; callers add the key path. Components collect every problem and raise
one `ComponentInputError` before they register anything.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Any, TypeVar

import pulumi

from components.catalog import UnknownVmSize, VmSize, catalog

T = TypeVar("T")

DEFAULT_GPU_VM_SIZE = "Standard_NC4as_T4_v3"
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
HHMM_PATTERN = re.compile(r"^([01]\d|2[0-3])[0-5]\d$")


def deployable_size(name: str) -> VmSize:
    """A size from the catalog that can still be deployed."""
    try:
        size = catalog().get(name)
    except UnknownVmSize as exc:
        raise ValueError(f"{exc}; allowed: a size from the catalog, e.g. {DEFAULT_GPU_VM_SIZE}") from None
    if size.is_retired:
        raise ValueError(
            f"'{size.name}' was retired on {size.lifecycle.date} and can no longer be deployed; "
            f"allowed: a current size, e.g. {size.lifecycle.replacement}"
        )
    return size


def gpu_size(name: str) -> str:
    """A deployable GPU size; its canonical name."""
    size = deployable_size(name)
    if not size.is_gpu:
        raise ValueError(f"'{size.name}' has no GPU; allowed: a GPU size, e.g. {DEFAULT_GPU_VM_SIZE}")
    return size.name


def cidr(value: str) -> str:
    try:
        return str(ipaddress.ip_network(value, strict=True))
    except ValueError:
        raise ValueError(f"'{value}' is not a CIDR range; allowed: e.g. 203.0.113.0/24 or 198.51.100.7/32") from None


def email(value: str) -> str:
    if not EMAIL_PATTERN.match(value):
        raise ValueError(f"'{value}' is not an email address")
    return value


def percent(value: float) -> float:
    if not 0 < value <= 1000:
        raise ValueError(f"{value:g} is out of range; allowed: a percent greater than 0 and at most 1000")
    return value


def time_of_day(value: str) -> str:
    if not HHMM_PATTERN.match(value):
        raise ValueError(f"'{value}' is not a time of day as HHmm; allowed: 0000 to 2359, e.g. 1900")
    return value


# Names Azure refuses as a Linux admin user (the common ones of its documented list).
RESERVED_ADMIN_NAMES = frozenset(
    {"admin", "administrator", "root", "guest", "user", "test", "sys", "support", "azureadmin", "owner", "console"}
)
ADMIN_NAME_PATTERN = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


def admin_username(value: str) -> str:
    if not ADMIN_NAME_PATTERN.match(value) or value in RESERVED_ADMIN_NAMES:
        raise ValueError(
            f"'{value}' cannot be a Linux admin user; allowed: lower-case letters, digits, '_' and '-', "
            f"at most 32 characters, not one of {', '.join(sorted(RESERVED_ADMIN_NAMES))}"
        )
    return value


class ComponentInputError(pulumi.RunError, ValueError):
    """A component's args that cannot be deployed; lists every problem with its arg path."""

    def __init__(self, component: str, name: str, problems: list[tuple[str, str]]):
        self.component = component
        self.name = name
        self.problems = problems
        if len(problems) == 1:
            text = f"{component} '{name}': {problems[0][0]}: {problems[0][1]}"
        else:
            text = f"{component} '{name}': {len(problems)} problems:\n" + "\n".join(f"  {p}: {m}" for p, m in problems)
        super().__init__(text)


class Problems:
    """Collects problems so a component reports all of them at once."""

    def __init__(self, component: str, name: str):
        self.component = component
        self.name = name
        self.found: list[tuple[str, str]] = []

    def check(self, path: str, check: Callable[[Any], T], value: Any) -> T | None:
        try:
            return check(value)
        except ValueError as exc:
            self.found.append((path, str(exc)))
            return None

    def add(self, path: str, message: str) -> None:
        self.found.append((path, message))

    def raise_any(self) -> None:
        if self.found:
            raise ComponentInputError(self.component, self.name, self.found)
