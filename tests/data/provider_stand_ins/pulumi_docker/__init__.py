"""Stand-in for pulumi-docker 4.x (see ../README.md): the Image resource and its two input types, as
pulumi/examples' azure-py-containerapps uses them (`docker:index/image:Image`; inputs imageName, build,
registry, skipPush; outputs imageName, baseImageName, registryServer, repoDigest: pulumi-docker's
`sdk/python/pulumi_docker/image.py`, observed 2026-11-27)."""

from typing import Any

from provider_stand_in import resource_class

Image = resource_class(
    "docker:index/image:Image",
    {"image_name": "imageName", "build": "build", "registry": "registry", "skip_push": "skipPush"},
    {
        "image_name": "imageName",
        "base_image_name": "baseImageName",
        "registry_server": "registryServer",
        "repo_digest": "repoDigest",
    },
)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def DockerBuildArgs(**kwargs: Any) -> dict[str, Any]:  # noqa: N802 - the SDK's class name
    return {_camel(k): v for k, v in kwargs.items()}


def RegistryArgs(**kwargs: Any) -> dict[str, Any]:  # noqa: N802 - the SDK's class name
    return {_camel(k): v for k, v in kwargs.items()}
