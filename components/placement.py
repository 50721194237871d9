"""Where a component's children go: its resource group, region and tags, passed to each child."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def placement(args: Mapping[str, Any]) -> dict[str, Any]:
    """The `resource_group_name`, `location` and `tags` of validated component args."""
    return {"resource_group_name": args["resource_group_name"], "location": args["location"], "tags": args["tags"]}
