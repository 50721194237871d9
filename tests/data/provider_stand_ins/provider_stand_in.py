"""A custom resource of a provider gpu-stacks does not model, registered as the real SDK registers it."""

from __future__ import annotations

from typing import Any

import pulumi


def resource_class(token: str, inputs: dict[str, str], outputs: dict[str, str]) -> type[pulumi.CustomResource]:
    """A class for `token`: keyword arguments named by `inputs` (Python name -> wire name); `outputs`
    (Python name -> wire name) become properties the engine answers."""

    class StandIn(pulumi.CustomResource):
        def __init__(self, resource_name: str, opts: pulumi.ResourceOptions | None = None, **kwargs: Any) -> None:
            unknown = set(kwargs) - set(inputs)
            if unknown:
                raise TypeError(f"{token}: unexpected arguments {sorted(unknown)}")
            props: dict[str, Any] = {inputs[k]: v for k, v in kwargs.items()}
            props.update({wire: None for wire in outputs.values() if wire not in props})
            super().__init__(token, resource_name, props, opts)

        def __getattr__(self, name: str) -> Any:  # the Python name of a property the SDK set by its wire name
            wire = outputs.get(name) or inputs.get(name)
            if wire is None or wire not in self.__dict__:
                raise AttributeError(name)
            return self.__dict__[wire]

    StandIn.__name__ = StandIn.__qualname__ = token.rsplit(":", 1)[-1]
    return StandIn


def function(token: str, outputs: dict[str, str]) -> Any:
    """A provider function for `token`, invoked as the real SDK invokes it; `outputs` (Python name -> wire
    name) are the result's attributes."""

    def invoke(opts: pulumi.InvokeOptions | None = None, **kwargs: Any) -> Any:
        value = pulumi.runtime.invoke(token, kwargs, opts=opts).value or {}
        result = type(token.rsplit(":", 1)[-1] + "Result", (), {})()
        for python, wire in outputs.items():
            setattr(result, python, value.get(wire))
        return result

    return invoke
