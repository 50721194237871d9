"""The components as a Pulumi component package, for TypeScript, Go, C#, Java and YAML programs.

Pulumi's component provider (`pulumi.provider.experimental`, pulumi 3.272) infers the package
schema from the components' type annotations and builds components from the inputs a program
sends (`construct`). As our modules are written, its analyzer cannot read two things:

- `from __future__ import annotations` (house style) leaves every annotation a string, and the
  analyzer reads `__annotations__` without evaluating them (`'str' object has no attribute
  '__mro__'`, ran 2026-11-22);
- `Literal[...]`, our closed choices, makes it raise `TypeError: issubclass() arg 1 must be a class`
  (ran 2026-11-22). In the schema a closed choice becomes its base type (string); the field's
  docstring names the allowed values, and the component still refuses anything else.

`hostable(component)` gives the analyzer a view it can read: a subclass with the same name, module
and qualified name (so the analyzer still finds the field docstrings in the source), whose
annotations are evaluated as Python would without the future import, Literals replaced by their
base type. Its `__init__` hands the component's own the args as declared (whole-number floats from
the engine back to ints, see `_as_declared`). The component classes are left untouched, so Python
users, their type checkers and their runtime behaviour see no difference.
"""

from __future__ import annotations

import inspect
import json
import sys
import types
import typing
from collections import abc
from functools import cache
from typing import Any, ForwardRef, Literal, NotRequired, Required, get_args, get_origin

import pulumi

from ..sdk.internals import component_provider
from .registry import component_classes
from .version import __version__

PACKAGE_NAME = "azure-gpu-stacks"
TOKEN_PREFIX = f"{PACKAGE_NAME}:index:"


def type_token(component: type[pulumi.ComponentResource]) -> str:
    """The token a program uses for the component, e.g. azure-gpu-stacks:index:GpuVm."""
    return TOKEN_PREFIX + component.__name__


def hostable(component: type[pulumi.ComponentResource]) -> type[pulumi.ComponentResource]:
    """The component as the provider's analyzer can read it (see the module docstring)."""

    readable_args = _readable(args_type(component))

    def __init__(self: Any, name: str, args: Any, opts: pulumi.ResourceOptions | None = None) -> None:
        init: Any = component.__init__  # the component's own signature, not ComponentResource's
        init(self, name, _as_declared(args, readable_args), opts)

    __init__.__annotations__ = {"args": readable_args}
    outputs = {key: _readable(value) for key, value in python_annotations(component).items()}
    return type(component.__name__, (component,), _class_namespace(component, outputs, __init__=__init__))


def provider() -> Any:
    """The component provider over every registered component (pulumi's ComponentProvider)."""
    return component_provider(hostable_components(), PACKAGE_NAME, __version__)


def hostable_components() -> list[type[pulumi.ComponentResource]]:
    return [hostable(c) for c in component_classes()]


def schema() -> dict[str, Any]:
    """The package schema, as `pulumi package add` receives it from the provider."""
    return json.loads(provider().schema)


def host() -> None:
    """Serve the component package to the Pulumi engine (the plugin's entry point)."""
    from pulumi.provider.experimental import component_provider_host

    component_provider_host(hostable_components(), PACKAGE_NAME, version=__version__)


def _class_namespace(original: type, annotations: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "__module__": original.__module__,
        "__qualname__": original.__qualname__,
        "__doc__": original.__doc__,
        "__annotations__": annotations,
        **extra,
    }


@cache
def _hostable_typeddict(td: type) -> type:
    """A TypedDict's fields, evaluated, with optional keys marked NotRequired."""
    fields: dict[str, Any] = {}
    for key, value in python_annotations(td).items():
        value = _readable(value)
        # `total=False` makes keys optional without a marker; say it the way the analyzer reads.
        if key in getattr(td, "__optional_keys__", ()) and get_origin(value) not in (NotRequired, Required):
            value = NotRequired[value]
        fields[key] = value
    return type(td.__name__, (), _class_namespace(td, fields))


def _as_declared(value: Any, annotation: Any) -> Any:
    """A value from the engine as the annotation declares it: whole-number floats become ints.

    The engine sends every number as a float, and pulumi 3.272's ComponentProvider converts
    integer inputs to int and then overwrites them with the raw value
    (`map_input_properties`: no `continue` after the conversion), so `osDiskSizeGb: 256` from YAML
    would reach the component as 256.0. Python callers never pass through here.
    """
    annotation = _unwrapped(annotation)
    if isinstance(value, pulumi.Output):
        return value.apply(lambda resolved: _as_declared(resolved, annotation))
    if annotation is int and isinstance(value, float) and value.is_integer():
        return int(value)
    origin, args = get_origin(annotation), get_args(annotation)
    if isinstance(value, list) and origin in (list, abc.Sequence, abc.MutableSequence) and args:
        return [_as_declared(item, args[0]) for item in value]
    if isinstance(value, dict) and origin in (dict, abc.Mapping, abc.MutableMapping) and len(args) == 2:
        return {key: _as_declared(item, args[1]) for key, item in value.items()}
    if isinstance(value, dict) and isinstance(annotation, type) and "__annotations__" in vars(annotation):
        fields = vars(annotation)["__annotations__"]  # an Args or nested TypedDict, made hostable
        return {key: _as_declared(item, fields[key]) if key in fields else item for key, item in value.items()}
    return value


def _unwrapped(annotation: Any) -> Any:
    """The declared type inside NotRequired, Required, Optional and pulumi.Input."""
    while True:
        origin, args = get_origin(annotation), get_args(annotation)
        if origin in (NotRequired, Required):
            annotation = args[0]
        elif origin in (typing.Union, types.UnionType) and any(get_origin(a) is abc.Awaitable for a in args):
            annotation = args[0]  # pulumi.Input[T] is Union[T, Awaitable[T], Output[T]]
        elif origin in (typing.Union, types.UnionType) and type(None) in args:
            annotation = next(a for a in args if a is not type(None))
        else:
            return annotation


def python_annotations(cls: type) -> dict[str, Any]:
    """A class's own public annotations, evaluated as Python would without the future import."""
    return {
        key: _evaluate(value, cls.__module__, f"{cls.__name__}.{key}")
        for key, value in inspect.get_annotations(cls).items()
        if not key.startswith("_")
    }


def args_type(component: type[pulumi.ComponentResource]) -> type:
    """The Args TypedDict a component's constructor takes."""
    raw = inspect.get_annotations(component.__init__).get("args")
    if raw is None:
        raise TypeError(
            f"{component.__name__}.__init__ has no annotated `args` parameter; the package schema is read from it"
        )
    return typing.cast(type, _evaluate(raw, component.__module__, f"{component.__name__}.__init__.args"))


def _evaluate(annotation: Any, module: str, where: str) -> Any:
    if isinstance(annotation, ForwardRef):
        annotation = annotation.__forward_arg__
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, vars(sys.modules[module]))  # our own modules' annotation text
        except NameError as exc:
            raise TypeError(
                f"{where}: annotation {annotation!r} names something the module does not import at run time: {exc}"
            ) from None
    return annotation


def _readable(annotation: Any) -> Any:
    """The annotation with Literals as their base type and nested TypedDicts made hostable."""
    if typing.is_typeddict(annotation):
        return _hostable_typeddict(annotation)
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Literal:
        kinds = {type(choice) for choice in args}
        if len(kinds) != 1:
            raise TypeError(
                f"{annotation}: a Literal mixing {sorted(k.__name__ for k in kinds)} has no one schema type"
            )
        return kinds.pop()
    if origin is None or not args:
        return annotation
    readable = tuple(_readable(a) for a in args)
    if readable == args:
        return annotation
    if origin is types.UnionType:  # `X | Y` cannot be subscripted; typing.Union means the same
        origin = typing.Union
    return origin[readable if len(readable) > 1 else readable[0]]
