"""The installed pulumi-azure-native read without importing it into the test process, and work that must import it
done in a forked child instead.

Importing SDK modules grows the test process for the rest of the session (every module of pulumi-azure-native:
about 440 MB), and each later fork of it, two for every in-process plan, copies those page tables again: a plan
forked from a 206 MB process cost 0.10 s of system time, from a 703 MB one 0.23 s (docs/testing.md). So the tests
read the SDK's source text where the text says what they need, and run the rest in `in_a_child`.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pulumi_azure_native
from azure_gpu_stacks.engine.run.isolation import Limits, run_isolated

SDK = Path(pulumi_azure_native.__file__).parent
API_VERSION = re.compile(r"Uses Azure REST API version ([0-9a-z-]+)")
T = TypeVar("T")


def in_a_child(work: Callable[[], T], label: str) -> T:
    """`work()` run in a forked child of this test process (which keeps nothing the child imports or allocates):
    what it returns, or the test fails with the one line saying what it raised."""
    result, _ = run_isolated(work, repr, Limits(timeout_s=600), label)
    return result


def sdk_class_source(token: str) -> str:
    """The installed SDK's source of `token`'s resource class, from its `@pulumi.type_token(...)` line on (the
    generated class is its file's last: the text `inspect.getsource` gives, and what follows it)."""
    _, module, kind = token.split(":")
    marker = f'@pulumi.type_token("{token}")\nclass {kind}('
    guess = SDK / module / (re.sub(r"(?<!^)(?=[A-Z])", "_", kind).lower() + ".py")
    for path in [guess, *sorted((SDK / module).glob("*.py"))]:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if (start := text.find(marker)) >= 0:
            return text[start:]
    raise LookupError(f"{token}: no class of the installed pulumi-azure-native has this type token")


def sdk_api_version(token: str) -> str:
    """The API version the installed SDK's class states in its docstring ("Uses Azure REST API version ...")."""
    return API_VERSION.findall(sdk_class_source(token))[0]


def _declared_classes() -> set[str]:
    pattern = re.compile(r'type_token\("(azure-native:\w+:\w+)"\)\nclass \w+\(pulumi\.CustomResource\)')
    return {m.group(1) for path in SDK.glob("*/*.py") for m in pattern.finditer(path.read_text(encoding="utf-8"))}


@functools.cache
def sdk_resource_classes() -> frozenset[str]:
    """The type token of every resource class of the installed SDK, read from its source files (each class follows
    its `@pulumi.type_token(...)` line). Read in a forked child: the text of its 5,000 files left this test process
    15 MB larger."""
    return frozenset(in_a_child(_declared_classes, "the SDK's resource classes"))


def sdk_constructor_inputs(token: str) -> set[str]:
    """The parameter names of `token`'s class's own constructor (`_internal_init`), read from its source text: the
    names `inspect.signature` gives once its module is imported."""
    source = sdk_class_source(token)
    kind = token.rsplit(":", 1)[-1]
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == kind)
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "_internal_init")
    arguments = init.args
    return {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]} | {
        a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None
    }
