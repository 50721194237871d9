"""The one program behind every shipped stack: config in, components out, outputs exported.

Which components a stack gets is said by its config: each section present (`vm`, `costAlert`, ...)
adds its component, in the order of `SECTIONS`. A new kind of stack adds a config section, a
component and a row in `SECTIONS`, never a new program.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi

from .config import PROJECT, StackConfig, load_from_pulumi
from .sections import SECTIONS, Section


@dataclass
class Deployment:
    """What the sections build on: the validated config and the stack's resource group."""

    config: StackConfig
    resource_group: Any  # pulumi_azure_native.resources.ResourceGroup
    tags: dict[str, str]
    exports: dict[str, Any]


def _build(section: Section, d: Deployment) -> None:
    """Build one section's component (imported only when a stack has the section) and export it."""
    component = getattr(section.module(), section.class_name)
    args = dict(getattr(d.config, section.key))  # the keys the stack gives; the component fills the rest
    if section.placed:
        args.update(resource_group_name=d.resource_group.name, location=d.config.location, tags=d.tags)
    if section.ssh_key:
        assert d.config.ssh_public_key is not None  # StackConfig.problems() requires it
        args["ssh_public_key"] = _secret_config("sshPublicKey", d.config.ssh_public_key)
    if section.scoped:
        args["scope"] = d.resource_group.id
    built = component(section.name, args)
    d.exports.update({output: getattr(built, attribute) for output, attribute in section.exports})


def _secret_config(key: str, value: str) -> pulumi.Input[str]:
    """Keep a value secret when the stack holds it as one (`pulumi config set --secret`)."""
    return pulumi.Output.secret(value) if pulumi.runtime.is_config_secret(f"{PROJECT}:{key}") else value


def main() -> None:
    from pulumi_azure_native import resources

    config = load_from_pulumi()
    for warning in config.warnings():
        pulumi.log.warn(warning)
    tags = {"managed-by": "pulumi", "project": PROJECT, "stack": pulumi.get_stack(), **config.tags}
    rg = resources.ResourceGroup(
        "rg",
        resource_group_name=config.resource_group_name or f"rg-{pulumi.get_stack()}",
        location=config.location,
        tags=tags,
    )
    deployment = Deployment(config, rg, tags, {"resourceGroupName": rg.name, "location": config.location})
    for section in SECTIONS:
        if getattr(config, section.key) is not None:
            _build(section, deployment)
    for name, value in deployment.exports.items():
        pulumi.export(name, value)
