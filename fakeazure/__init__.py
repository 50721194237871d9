"""A moto-style fake of Azure Resource Manager, and the Pulumi mocks that drive it.

    with fake_arm() as arm:            # a fresh, empty subscription
        ...                            # run a program under FakeArmMocks(arm)
        arm.refusals                   # what ARM would have refused, with its error codes

`azure_gpu_stacks.fakeazure.pytest_plugin` provides the same as the `fake_arm` fixture.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .backend import FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID, FakeArm, Refusal
from .errors import ArmError


@contextmanager
def fake_arm(**options: Any) -> Iterator[FakeArm]:
    """A fresh fake subscription for the length of the block (options: see `FakeArm`)."""
    yield FakeArm(**options)


__all__ = ["FAKE_SUBSCRIPTION_ID", "FAKE_TENANT_ID", "ArmError", "FakeArm", "Refusal", "fake_arm"]
