"""pytest fixtures for the fake ARM: `fake_arm`, a fresh empty subscription per test.

Enable with `pytest_plugins = ["azure_gpu_stacks.fakeazure.pytest_plugin"]` in a conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from . import FakeArm
from . import fake_arm as _fake_arm

TEST_LOCATION = "eastus"


@pytest.fixture
def fake_arm() -> Iterator[FakeArm]:
    """A fresh fake subscription whose provider default location is eastus."""
    with _fake_arm(default_location=TEST_LOCATION) as arm:
        yield arm
