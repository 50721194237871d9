"""Every private or undocumented part of pulumi and pulumi-policy the toolkit relies on, in one module.

Everything else imports these names from here (tests/sdk/test_sdk_internals.py fails on any module that
reaches the SDKs' internals itself), and tests/sdk/test_sdk_internals.py holds one contract test per
internal that asserts the exact shape relied on: an upgrade of pulumi or pulumi-policy that changes
one fails that one named test, saying what changed and that this module is where to adapt, instead
of making offline plans quietly differ from `pulumi preview`. A private name is looked up with
`_internal`, which raises `SdkContractError` naming the internal and this file.

Checked against the versions uv.lock pins (the contract tests fail when the lock moves without this
list being checked again): pulumi 3.272.0 and pulumi-policy 1.21.0, observed 2026-11-22, sources
github.com/pulumi/pulumi `sdk/python/lib/pulumi/` and github.com/pulumi/pulumi-policy
`sdk/python/lib/pulumi_policy/`.

- `runtime_config`: `pulumi.runtime.config.CONFIG`, the context variable `set_all_config` fills.
  Used for: `components.config` validates the whole stack's config at once. Public alternative:
  none: `pulumi.Config` and `pulumi.runtime.get_config` read one key already known; nothing lists
  the keys.
- `recorded_inputs`: `pulumi.runtime.rpc.deserialize_properties(..., keep_unknowns=True)`. Used for:
  a registration's inputs as the engine gets them, unknowns kept. Public alternative: none (`rpc` is
  undocumented).
- `MockMonitor`: `pulumi.runtime.mocks.MockMonitor`: `RegisterResource(request)`, `make_urn(parent,
  type_, name)`, and the fields of `RegisterResourceRequest` read. Used for:
  `engine.run.runtime.RecordingMonitor` records each registration. Public alternative: partly:
  `pulumi.runtime.set_mocks(monitor=...)` is public; the class and its methods are not documented.
- `stack_outputs`: the `outputs` dict of the root `Stack` resource (`runtime/stack.py`) that
  `pulumi.export` fills. Used for: the plan shows what the program exported. Public alternative:
  partly: `pulumi.runtime.get_root_resource` is public, the attribute is not.
- `is_output_unknown`: that an unknown input deserializes to an instance of `type(pulumi.UNKNOWN)`.
  Used for: recorded inputs hold one per unknown value. Public alternative: the sentinel
  `pulumi.UNKNOWN` is public, its class (`pulumi.output.Unknown`) is not.
- `type_hints`: the namespace of `pulumi.output`, where `pulumi.Input[T]`'s forward reference
  `"Output[T]"` (and its `T`) resolve. Used for: `components.inputs` reads a component's Args types.
  Public alternative: none: `pulumi.Output` is public, the `T` the reference names is not.
- `getter_name`: the `_pulumi_name` attribute `pulumi.getter` puts on an Args property's getter.
  Used for: `fakeazure.enums` maps a Python property to its wire name. Public alternative: none.
- `invoke_failure`: the message of a failed invoke, `invoke of {tok} failed: {reason} ({property})`
  (`runtime/invoke.py`). Used for: the plan shows a provider function's refusal as Azure's answer,
  not a program bug. Public alternative: none: a plain `Exception`.
- `component_provider`: `pulumi.provider.experimental.component.ComponentProvider(components, name,
  version=)`, a `pulumi.provider.Provider`. Used for: `components.package` reads the package schema
  and constructs components in-process. Public alternative: partly:
  `pulumi.provider.experimental.component_provider_host`, public, only serves the package (and is
  used for that).
- `input_property_error`: `pulumi.provider.server.InputPropertyError`. Used for: tests: what
  `construct` raises for a missing required input. Public alternative: none: not exported by
  `pulumi.provider`.
- `analyzer_pb2`, `analyzer_pb2_grpc`, `provider_pb2`, `provider_pb2_grpc`, `resource_pb2`,
  `resource_pb2_grpc`, `engine_pb2`, `engine_pb2_grpc`: the generated modules under
  `pulumi.runtime.proto`. Used for: the engine's requests to a policy pack and a provider; the
  resource monitor and engine services a program talks to (`engine.run.monitor`). Public
  alternative: the protocol (`proto/pulumi/analyzer.proto`, `provider.proto`, `resource.proto`,
  `engine.proto`) is public; this import path is not.
- `policy_servicer`: `pulumi_policy.policy._PolicyAnalyzerServicer(name, version, policies, level)`
  with `Configure`, `Analyze`, `AnalyzeStack`, `GetAnalyzerInfo`. Used for: `engine.run.policy_run`
  sends the pack the engine's requests in-process, through the servicer `PolicyPack` serves. Public
  alternative: none: `PolicyPack` only serves over gRPC, blocking.
- `policy_properties_read_once`: the `json_format` module `pulumi_policy.policy` converts each resource's
  properties with (`MessageToDict`), once per policy in `Analyze` and `AnalyzeStack` (26 times a resource with
  this pack), each result then copied by `deserialize_properties` for the policy. Used for:
  `engine.run.policy_run.analyze` has each message converted once while the pack runs; every policy still gets
  containers of its own. Public alternative: none (tests/sdk/test_sdk_policy_properties.py holds its contract
  test).
- `UnknownValueError`: `pulumi_policy.proxy.UnknownValueError`. Used for: raised when a policy reads
  a preview unknown through the servicer's proxies. Public alternative: none: not exported by
  `pulumi_policy`.
- `property_types`: `pulumi._types._types_from_py_properties(cls)`, a `functools.cache`d dict of each
  property's Pulumi name to its type (Output and Optional unwrapped), which the SDK reads once per class, the
  first time it serialises an input or deserialises an output of that class. Used for:
  `engine.run.sdk_types` reads the classes a plan used in the process every program's child is forked
  from, so each child inherits the reading instead of repeating it (issue 41); `property_types_read`, the
  cache's size, lets tests see that a child read none again. Public alternative: none.
- `violation_message`: the diagnostic message format, the policy's description, a newline, then the
  violation's message (`policy.py`, `_create_report_violation`). Used for: the plan shows the
  violation's own message. Public alternative: none.
- `alias_urns_made_when_read`: `pulumi.resource.collapse_alias_to_urn`, which `Resource.__init__` calls for
  each alias to fill `_aliases`, read only by `runtime.resource.all_aliases` for an engine without alias specs.
  Used for: `engine.run.runtime.run_hosted` has a resource's alias URNs made only if read (every engine a
  program runs against here has alias specs). Public alternative: none.
- `stack_traces_without_source_lines`: `pulumi.runtime.resource._get_stack_trace`, which `register_resource` and
  `read_resource` call per registration for the request's `stackTrace` and `sourcePosition`: frames above the
  third `__init__` from the top (the user's code), each as a file URI and a line. Used for:
  `engine.run.runtime.run_hosted` makes the same message without reading each frame's source line (a
  `stat` per frame, each file's source read once per child) and with each file's URI made once. Public
  alternative: none (tests/sdk/test_sdk_stack_trace.py holds its contract test).

Wire constants, not SDK internals: `SECRET_SIG_KEY`, `SECRET_SIG` (github.com/pulumi/pulumi
`sdk/go/common/resource/sig/sig.go`) and `UNKNOWN_VALUES` (`sdk/go/common/resource/plugin/rpc.go`)
are the engine's protocol. They are written here once instead of read from the SDKs' private copies
(`rpc._special_sig_key`, `rpc._special_secret_sig`, `pulumi_policy.proxy.UNKNOWN_*_VALUE`); the
contract tests check those copies still agree. `secret`, `is_secret` and `unwrap_secret` replace
`rpc.wrap_rpc_secret`, `rpc.is_rpc_secret` and `rpc.unwrap_rpc_secret` on top of them.

Public APIs used instead of internals reached before: `pulumi.runtime.reset_options` (not
`pulumi.runtime.settings.reset_options`), `pulumi.ConfigTypeError` (not
`pulumi.config.ConfigTypeError`), `pulumi_policy.Secret` and the `pulumi_policy` root's classes (not
matching a class by name or importing `pulumi_policy.policy`).

Why a sub-package of its own (`azure_gpu_stacks.sdk`, a leaf importing nothing of ours that every
layer may import, tests/repository/test_layout.py): `components`, `policies`, `fakeazure` and `preflight` all
need some of these, and `components` depends on nothing of ours; and `gpu-stacks diff BASE` runs the
BASE revision's `azure_gpu_stacks.components`, while this adapter must match the installed SDKs,
which both plans share, so it cannot live under `components`.
"""

from __future__ import annotations

import contextlib
import importlib
import pathlib
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, Final, Protocol, get_type_hints

import pulumi
from pulumi import _types
from pulumi import output as _output
from pulumi.runtime import config as _config
from pulumi.runtime import mocks as _mocks
from pulumi.runtime import rpc as _rpc
from pulumi.runtime.proto import (
    analyzer_pb2,
    analyzer_pb2_grpc,
    engine_pb2,
    engine_pb2_grpc,
    provider_pb2,
    provider_pb2_grpc,
    resource_pb2,
    resource_pb2_grpc,
)

if TYPE_CHECKING:
    import pulumi_policy
    from pulumi_policy.proxy import UnknownValueError

__all__ = [
    "SECRET_SIG",
    "SECRET_SIG_KEY",
    "UNKNOWN_STRING_VALUE",
    "UNKNOWN_VALUES",
    "MockMonitor",
    "PolicyServicer",
    "SdkContractError",
    "UnknownValueError",
    "alias_urns_made_when_read",
    "analyzer_pb2",
    "analyzer_pb2_grpc",
    "component_provider",
    "engine_pb2",
    "engine_pb2_grpc",
    "input_property_error",
    "getter_name",
    "invoke_failure",
    "is_output_unknown",
    "is_secret",
    "is_unknown_sentinel",
    "policy_properties_read_once",
    "policy_servicer",
    "property_types",
    "property_types_read",
    "provider_pb2",
    "provider_pb2_grpc",
    "recorded_inputs",
    "resource_pb2",
    "resource_pb2_grpc",
    "runtime_config",
    "secret",
    "stack_outputs",
    "stack_traces_without_source_lines",
    "type_hints",
    "unwrap_secret",
    "violation_message",
]

ADAPTER = "sdk/internals.py"
CHECKED_AGAINST: Final = {"pulumi": "3.272.0", "pulumi-policy": "1.21.0"}


class SdkContractError(RuntimeError):
    """An internal this module relies on is gone from the installed SDK."""


def _internal(owner: object, name: str) -> Any:
    try:
        return getattr(owner, name)
    except AttributeError:
        checked = ", ".join(f"{k} {v}" for k, v in CHECKED_AGAINST.items())
        where = getattr(owner, "__name__", type(owner).__name__)
        raise SdkContractError(
            f"{where}.{name} is gone from the installed SDK (checked against {checked}); "
            f"adapt {ADAPTER} (tests/sdk/test_sdk_internals.py names what changed)"
        ) from None


# --- the engine's wire constants ----------------------------------------------------------------

# The envelope the engine wraps a secret value in: {SECRET_SIG_KEY: SECRET_SIG, "value": ...}.
SECRET_SIG_KEY: Final = "4dabf18193072939515e22adb298388d"
SECRET_SIG: Final = "1b47061264138c4ac30d75fd1eb44270"

# The sentinels that stand for a value unknown during preview, one per kind.
UNKNOWN_VALUES: Final = {
    "boolean": "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
    "number": "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
    "string": "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
    "array": "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
    "asset": "030794c1-ac77-496b-92df-f27374a8bd58",
    "archive": "e48ece36-62e2-4504-bad9-02848725956a",
    "object": "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
}
UNKNOWN_STRING_VALUE: Final = UNKNOWN_VALUES["string"]  # what the engine sends for any unknown input
_SENTINELS: Final = frozenset(UNKNOWN_VALUES.values())


def is_unknown_sentinel(value: Any) -> bool:
    return isinstance(value, str) and value in _SENTINELS


def secret(value: Any) -> dict[str, Any]:
    """`value` in the engine's secret envelope."""
    return {SECRET_SIG_KEY: SECRET_SIG, "value": value}


def is_secret(value: Any) -> bool:
    return isinstance(value, dict) and value.get(SECRET_SIG_KEY) == SECRET_SIG


def unwrap_secret(value: Any) -> Any:
    """The value inside a secret envelope; anything else unchanged."""
    return value["value"] if is_secret(value) else value


# --- pulumi ---------------------------------------------------------------------------------------


def runtime_config() -> dict[str, str]:
    """Every config value the runtime holds (`set_all_config`), keys `<namespace>:<key>`."""
    return dict(_internal(_config, "CONFIG").get())


def recorded_inputs(properties: Any) -> dict[str, Any]:
    """A registration's `object` Struct as Python values: secrets enveloped, unknowns kept."""
    deserialize: Callable[..., dict[str, Any]] = _internal(_rpc, "deserialize_properties")
    return deserialize(properties, keep_unknowns=True)


MockMonitor: type[Any] = _internal(_mocks, "MockMonitor")


def stack_outputs() -> dict[str, Any]:
    """What the running program exported (`pulumi.export`), by name, as given (Outputs unresolved)."""
    root = pulumi.runtime.get_root_resource()
    return {} if root is None else dict(_internal(root, "outputs") or {})


_UNKNOWN_OUTPUT: Final = type(pulumi.UNKNOWN)


def is_output_unknown(value: Any) -> bool:
    """Whether `value` is the SDK's unknown (a recorded input, or an output resolved with unknowns)."""
    return isinstance(value, _UNKNOWN_OUTPUT)


def type_hints(cls: Any) -> dict[str, Any]:
    """`typing.get_type_hints` of an Args type, extras kept, with `pulumi.Input[T]` resolvable."""
    return get_type_hints(cls, localns=dict(vars(_output)), include_extras=True)


def property_types(cls: type) -> dict[str, Any]:
    """Each property's Pulumi name to its type, as the SDK reads it (and keeps it, per class, for the process)."""
    read: Callable[[type], dict[str, Any]] = _internal(_types, "_types_from_py_properties")
    return dict(read(cls))


def property_types_read() -> int:
    """How many classes' property types this process has read and keeps."""
    return int(_internal(_types, "_types_from_py_properties").cache_info().currsize)


def getter_name(fget: Any) -> str | None:
    """The wire (camelCase) name `@pulumi.getter` gave an Args property's getter; None for others."""
    name = getattr(fget, "_pulumi_name", None)
    return name if isinstance(name, str) else None


def component_provider(components: Sequence[type[pulumi.ComponentResource]], name: str, version: str) -> Any:
    """pulumi's component provider over `components` (a `pulumi.provider.Provider`), in-process.
    Imported on use: `pulumi up` of a stack never loads the provider machinery."""
    from pulumi.provider.experimental import component

    return _internal(component, "ComponentProvider")(list(components), name, version=version)


def input_property_error() -> type[Exception]:
    """What the provider raises for a bad or missing input (`construct`)."""
    from pulumi.provider import server

    error: type[Exception] = _internal(server, "InputPropertyError")
    return error


INVOKE_FAILED: Final = "invoke of "


def invoke_failure(exc: BaseException) -> str | None:
    """A failed provider function's message (`invoke of <token> failed: <reason> (<property>)`),
    without the empty `()` a function-wide failure ends with; None for any other error."""
    text = str(exc)
    return text.removesuffix(" ()") if text.startswith(INVOKE_FAILED) else None


# --- pulumi-policy ----------------------------------------------------------------------------------
# Imported on use: a stack's program (`pulumi up`) reads config through this module and never needs
# pulumi-policy, whose import costs it tens of milliseconds.


def __getattr__(name: str) -> Any:
    if name == "UnknownValueError":
        from pulumi_policy import proxy

        return _internal(proxy, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class PolicyServicer(Protocol):
    """The analyzer servicer's methods this toolkit calls, each `(request, context)`."""

    def Configure(self, request: Any, context: Any) -> Any: ...
    def Analyze(self, request: Any, context: Any) -> Any: ...
    def AnalyzeStack(self, request: Any, context: Any) -> Any: ...
    def GetAnalyzerInfo(self, request: Any, context: Any) -> Any: ...


def policy_servicer(
    name: str, version: str, policies: Sequence[pulumi_policy.Policy], level: pulumi_policy.EnforcementLevel
) -> PolicyServicer:
    """The servicer `PolicyPack` serves over gRPC, built in-process for `policies`."""
    from pulumi_policy import policy

    servicer: PolicyServicer = _internal(policy, "_PolicyAnalyzerServicer")(name, version, list(policies), level)
    return servicer


class _EachMessageReadOnce:
    """`google.protobuf.json_format` as the policy servicer calls it, with `MessageToDict(message)` made once per
    message (kept, with the message, while the block lasts) and every other name the module's own."""

    def __init__(self, json_format: Any) -> None:
        self._json_format = json_format
        self._made: dict[int, tuple[Any, Any]] = {}

    def MessageToDict(self, message: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N802 - the module's name
        if args or kwargs:
            return self._json_format.MessageToDict(message, *args, **kwargs)
        found = self._made.get(id(message))
        if found is None or found[0] is not message:
            found = (message, self._json_format.MessageToDict(message))
            self._made[id(message)] = found
        return found[1]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._json_format, name)


@contextlib.contextmanager
def policy_properties_read_once() -> Iterator[None]:
    """While it lasts, the policy servicer converts each resource's properties (a protobuf `Struct`) to Python
    once, not once per policy: `MessageToDict` was about a quarter of the pack's time (measured 2026-11-27). Each
    policy still gets its own containers: `deserialize_properties` builds new dicts and lists from the converted
    value and changes nothing in it. Restored afterwards."""
    from pulumi_policy import policy

    json_format = _internal(policy, "json_format")
    policy.json_format = _EachMessageReadOnce(json_format)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        policy.json_format = json_format  # type: ignore[attr-defined]


def violation_message(diagnostic: Any) -> str:
    """A diagnostic's message without the policy description the servicer puts first."""
    return str(diagnostic.message).removeprefix(f"{diagnostic.description}\n")


# --- a resource's alias URNs ----------------------------------------------------------------------


class _AliasUrn:
    """The URN `collapse_alias_to_urn` makes of one alias, made only when awaited: an `Awaitable[str]`,
    which is an `Input[str]` wherever the SDK reads a resource's `_aliases`."""

    __slots__ = ("_collapse", "_arguments")

    def __init__(self, collapse: Callable[..., Any], *arguments: Any) -> None:
        self._collapse = collapse
        self._arguments = arguments

    def __await__(self) -> Generator[Any, None, Any]:
        return self._collapse(*self._arguments).future().__await__()


def _plain(value: Any, *also: Any) -> bool:
    return value is ... or isinstance(value, str) or any(value is allowed for allowed in also)


def _collapse_cannot_fail(alias: Any) -> bool:
    """An alias whose URN the SDK's collapse always makes: an `Alias` of plain values (every azure-native
    resource's, `Alias(type_=...)` once per older API version of its type). Another (a name or type of None,
    which the collapse refuses, an Output, a URN string) is collapsed at once, as the SDK does."""
    return (
        isinstance(alias, pulumi.Alias)
        and _plain(alias.name)
        and _plain(alias.type_)
        and _plain(alias.project, None)
        and _plain(alias.stack, None)
        and (_plain(alias.parent, None) or isinstance(alias.parent, pulumi.Resource))
    )


@contextlib.contextmanager
def alias_urns_made_when_read() -> Iterator[None]:
    """While it lasts, a new resource's `_aliases` hold each alias's URN as an awaitable made when read,
    instead of an Output computed at once (`Resource.__init__` collapses every alias to a URN the moment the
    resource is made). Only `all_aliases` reads them, for an engine without alias specs; every engine that
    runs a program here answers that it has them (`RESOURCE_MONITOR_FEATURE_ALIAS_SPECS`), so the SDK sends
    each alias as a spec and the URNs were made for nothing: 25 for a resource group (its older API
    versions), about three quarters of a program's run on resource groups (measured 2026-11-27). Restored
    afterwards."""
    module = importlib.import_module("pulumi.resource")
    collapse: Callable[..., Any] = _internal(module, "collapse_alias_to_urn")

    def when_read(alias: Any, name: str, type_: str, parent: Any) -> Any:
        if _collapse_cannot_fail(alias):
            return _AliasUrn(collapse, alias, name, type_, parent)
        return collapse(alias, name, type_, parent)

    module.collapse_alias_to_urn = when_read  # type: ignore[attr-defined]
    try:
        yield
    finally:
        module.collapse_alias_to_urn = collapse  # type: ignore[attr-defined]


# --- a registration's stack trace ---------------------------------------------------------------------


def _file_uri(filename: str) -> str | None:
    """`filename` as the SDK sends it (`_get_source_position_for_frame`): its `file://` URI; None where the SDK
    sends no position (no file name, or a path `as_uri` refuses: a relative one, `<string>`)."""
    if filename == "":
        return None
    try:
        return pathlib.Path(filename).as_uri()
    except BaseException:  # noqa: BLE001 - as the SDK: any failure is "no position"
        return None


@contextlib.contextmanager
def stack_traces_without_source_lines() -> Iterator[None]:
    """While it lasts, the SDK's stack trace of each registration (`_get_stack_trace`) is made from the frames
    themselves: the same `StackTrace` message (the frames above the third `__init__` from the top, outermost
    last, each file's URI and line), without `traceback.extract_stack`'s reading of every frame's source line (a
    `stat` per frame and each file's source read, in every program's child) and with each file's URI made once.
    It was about a quarter of a program's run (measured 2026-11-27). Restored afterwards."""
    module = importlib.import_module("pulumi.runtime.resource")
    sdk_trace: Callable[[], Any] = _internal(module, "_get_stack_trace")
    source_pb2: Any = _internal(module, "source_pb2")
    uris: dict[str, str | None] = {}

    def position(filename: str, line: int | None) -> Any:
        if line is None:
            return None
        if filename not in uris:
            uris[filename] = _file_uri(filename)
        uri = uris[filename]
        return None if uri is None else source_pb2.SourcePosition(uri=uri, line=line)

    def stack_trace() -> Any:
        # (file, line, function) of each frame from this one outwards: `traceback.extract_stack()` reversed
        frames = []
        frame: FrameType | None = sys._getframe(0)
        while frame is not None:
            code = frame.f_code
            frames.append((code.co_filename, frame.f_lineno, code.co_name))
            frame = frame.f_back
        limit = getattr(sys, "tracebacklimit", None)  # which `extract_stack` honours, innermost frames kept
        if limit is not None:
            frames = frames[: max(limit, 0)]
            if not frames:  # the SDK's own fails on an empty stack: left to it
                return sdk_trace()
        inits = 0
        for index, (_, _, name) in enumerate(frames):
            if name == "__init__":
                inits += 1
                if inits == 3:
                    break
        else:
            return source_pb2.StackTrace()
        if index >= len(frames) - 1:  # the third `__init__` is the outermost frame: nothing above it
            return source_pb2.StackTrace()
        return source_pb2.StackTrace(
            frames=[source_pb2.StackFrame(pc=position(file, line)) for file, line, _ in frames[index + 1 :]]
        )

    module._get_stack_trace = stack_trace  # type: ignore[attr-defined]
    try:
        yield
    finally:
        module._get_stack_trace = sdk_trace  # type: ignore[attr-defined]
