"""Stand-in for pulumi-docker-build 0.0.x (see ../README.md): the Image resource as pulumi/templates'
container-azure-python uses it. As the real package (0.0.22, `pulumi_docker_build/image.py`, observed
2026-11-27): `docker-build:index:Image`, `push` required ("Missing required property 'push'"), and the
built image named by its `ref` and `digest` outputs (it has no `image_name`)."""

from enum import Enum
from typing import Any

import pulumi
from provider_stand_in import resource_class

_INPUTS = {
    "add_hosts": "addHosts",
    "build_args": "buildArgs",
    "build_on_preview": "buildOnPreview",
    "builder": "builder",
    "cache_from": "cacheFrom",
    "cache_to": "cacheTo",
    "context": "context",
    "dockerfile": "dockerfile",
    "exec_": "exec",
    "exports": "exports",
    "labels": "labels",
    "load": "load",
    "network": "network",
    "no_cache": "noCache",
    "platforms": "platforms",
    "pull": "pull",
    "push": "push",
    "registries": "registries",
    "secrets": "secrets",
    "ssh": "ssh",
    "tags": "tags",
    "target": "target",
}

_Image = resource_class(
    "docker-build:index:Image", _INPUTS, {"ref": "ref", "digest": "digest", "context_hash": "contextHash"}
)


class Image(_Image):  # type: ignore[misc,valid-type]
    def __init__(self, resource_name: str, opts: pulumi.ResourceOptions | None = None, **kwargs: Any) -> None:
        if kwargs.get("push") is None:
            raise TypeError("Missing required property 'push'")
        super().__init__(resource_name, opts, **kwargs)


class Platform(str, Enum):
    LINUX_AMD64 = "linux/amd64"
    LINUX_ARM64 = "linux/arm64"


def BuildContextArgs(**kwargs: Any) -> dict[str, Any]:  # noqa: N802 - the SDK's class name
    return dict(kwargs)
