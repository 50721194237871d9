"""An offline plan of one stack: run its program against the fake ARM and collect what happened.

A `Plan` is the one document every report is made from: the recorded resources, the stack
outputs, what ARM would refuse, warnings the program logged, the policy violations and the cost,
each a frozen dataclass. It is made once all of them are known and is not changed afterwards.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, cast

from ...catalog.az_files import AzFileError, SkuOffer, Usage, read_aml_usage, read_skus, read_usage
from ...catalog.clock import instant_on
from ...catalog.pricing import NO_COST, CostEstimate, estimate_resources, low_priority_warnings
from ...components.checks import AS_OF_CONFIG_KEY
from ...fakeazure import FakeArm, Refusal
from ...fakeazure.enums import violations as enum_violations
from ...fakeazure.existing import Existing, ExistingFileError, adopt
from ...fakeazure.existing import parse as parse_existing
from ...fakeazure.models.authorization import object_id_of
from ...fakeazure.other_providers import is_modeled
from ...inputs.files import InputFileError, escaped, load_json
from ...sdk.internals import invoke_failure
from ...stack.config import LOCATION_KEY, ConfigError
from ..errors import InputError
from ..secrets import Mask, credential_leaves
from . import children, heap, monitor, program_host
from .identity import DeploymentIdentity
from .interpreter import host_command, missing_environment, python_for
from .isolation import (
    ENGINE_GRACE_S,
    Limits,
    ProgramFailed,
    isolation_available,
    run_executed,
    run_isolated,
)
from .parallel import plans_again
from .policy_config import PolicySettings, configure, with_day
from .policy_run import analyze, pack_policies
from .program_values import (
    exportable,
    exports_checked,
    masked,
    masked_values,
    secret_strings,
)
from .project import Project, StackSettings, load_stack
from .python_syntax import newer_python_note
from .runtime import (
    DIY_ORGANIZATION,
    SECRET_SHOWN_AS,
    ProgramEngine,
    RecordedResource,
    main_file_runner,
    program_environment,
    run_hosted,
    shown,
)
from .sdk_majors import other_major_note
from .sdk_types import read_classes_of
from .stack_references import StackReferences
from .violation import Violation


@dataclass(frozen=True)
class Plan:
    """Built once, complete, after the run, the policy pack and the cost; never changed afterwards.
    Reports read its typed parts; JSON is made from them only at the edge (`to_json`). A plan crosses
    processes (`--jobs`) pickled as it is."""

    project: str
    stack: str
    stack_file: str
    resources: tuple[RecordedResource, ...]
    outputs: Mapping[str, Any]
    secret_outputs: frozenset[str]
    refusals: tuple[Refusal, ...]
    skipped: tuple[tuple[str, str], ...]
    warnings: tuple[str, ...]
    placeholders: tuple[str, ...]
    as_of: dt.date  # the day every verdict of the plan is for: the run's one day (`plan_stack`'s `day`)
    violations: tuple[Violation, ...] = ()
    cost: CostEstimate = NO_COST
    program_output: str = ""  # what the program printed (stdout and stderr), secrets masked
    errors: tuple[str, ...] = ()  # what the program logged with pulumi.log.error
    # every secret the run knows of (`engine.secrets`), for the output edge to mask wherever it shows
    secret_values: frozenset[str] = frozenset()
    identity: DeploymentIdentity | None = None  # the subscription, tenant and deployer the plan ran as

    def __post_init__(self) -> None:
        # Sequences handed in as lists are kept as tuples: nothing can append to a plan.
        for name in ("resources", "refusals", "skipped", "warnings", "placeholders", "violations", "errors"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "secret_outputs", frozenset(self.secret_outputs))
        object.__setattr__(self, "secret_values", frozenset(self.secret_values))

    @cached_property
    def mandatory(self) -> int:
        """Mandatory policy violations: the one place they are counted (exit code, verdicts, reports)."""
        return sum(1 for v in self.violations if v.mandatory)

    @cached_property
    def not_checked(self) -> tuple[str, ...]:
        """URNs of resources the offline engine does not model: other providers' (random, tls, azuread,
        kubernetes...), recorded and answered as Pulumi's mocks answer them, and azure-native types without
        a rule (`other_providers.is_modeled`): nothing they ask for is checked offline."""
        return tuple(r.urn for r in self.resources if not is_modeled(r.type, r.custom))

    @cached_property
    def advisory(self) -> int:
        """Policy violations that do not stop the stack."""
        return len(self.violations) - self.mandatory

    @cached_property
    def exit_code(self) -> int:
        """0 clean; 1 when Azure would refuse something, a mandatory policy fails, or the program
        logged an error (`pulumi preview` shows it and still exits 0, pulumi/pulumi#5085: a gate
        that passed it would hide what the program itself calls an error)."""
        return 1 if self.refusals or self.mandatory or self.errors else 0

    def shown_outputs(self) -> dict[str, Any]:
        """Outputs for people and JSON: secrets as "[secret]", values unknown until deployment as None."""
        return {k: (SECRET_SHOWN_AS if k in self.secret_outputs else shown(v)) for k, v in self.outputs.items()}

    def to_json(self) -> dict[str, Any]:
        # `notChecked` only where there is something to say, so the JSON of a plan of Azure resources
        # alone is what it was before the key existed.
        not_checked = {"notChecked": list(self.not_checked)} if self.not_checked else {}
        return {
            "project": self.project,
            "stack": self.stack,
            "asOf": self.as_of.isoformat(),
            "resources": [r.to_json() for r in self.resources],
            "outputs": self.shown_outputs(),
            "refusals": [{k: v for k, v in refusal_json(r).items() if k != "type"} for r in self.refusals],
            "violations": [v.to_json() for v in self.violations],
            "cost": self.cost.to_json(),
            "warnings": list(self.warnings),
            "programOutput": self.program_output,
            "errors": list(self.errors),
            **not_checked,
        }


def refusal_json(refusal: Refusal) -> dict[str, str]:
    """A refusal of the fake ARM (a frozen dataclass of its own) as JSON. A plan's JSON has always left
    out its `type` (the plan's resources carry it); the diff's JSON keeps it."""
    return {"resource": refusal.resource, "type": refusal.type, "code": refusal.code, "message": refusal.message}


@dataclass(frozen=True)
class ReferenceFiles:
    """What a run is told beyond the project: subscription facts from the Azure CLI that make the
    fake ARM stricter, other stacks' outputs, and the organization the stack belongs to."""

    usage: Path | None = None
    aml_usage: Path | None = None  # --aml-usage: Azure ML's own quota, `az ml compute list-usage`
    skus: Path | None = None
    stack_outputs: Mapping[str, Path] = field(default_factory=dict)  # --stack-outputs ORG/PROJECT/STACK=FILE
    existing: tuple[
        Path, ...
    ] = ()  # --existing: resources the program looks up or joins, as `az resource show` prints them
    organization: str = DIY_ORGANIZATION
    # What runs `pulumi up`: "User" or "ServicePrincipal"; None: from the environment (deployer_type).
    deployer: str | None = None


# `--identity` values and the principal types ARM names them by.
IDENTITIES = {"user": "User", "service-principal": "ServicePrincipal"}


def deployer_type(environ: Mapping[str, str]) -> str:
    """The principal type pulumi-azure-native deploys as: a service principal when its client id is set
    (ARM_CLIENT_ID, as the pull-request workflow's OpenID Connect login sets it), else the Azure CLI's user.
    Source: pulumi/pulumi-azure-native docs/installation-configuration.md (observed 2026-11-22)."""
    return "ServicePrincipal" if environ.get("ARM_CLIENT_ID") else "User"


@dataclass(frozen=True)
class ReferenceData:
    """What the files a `ReferenceFiles` names hold, read and checked (`read_reference`)."""

    usage: dict[str, Usage] | None = None
    aml_usage: dict[str, Usage] | None = None
    skus: dict[str, SkuOffer] | None = None
    existing: tuple[Existing, ...] = ()


def read_reference(reference: ReferenceFiles) -> ReferenceData:
    """Every file the reference names, read; InputError naming the first that cannot be read."""
    try:
        usage = read_usage(reference.usage) if reference.usage else None
        aml_usage = read_aml_usage(reference.aml_usage) if reference.aml_usage else None
        skus = read_skus(reference.skus) if reference.skus else None
    except AzFileError as exc:
        raise InputError(str(exc)) from None
    existing = tuple(item for path in reference.existing for item in read_existing(path))
    return ReferenceData(usage, aml_usage, skus, existing)


def check_reference_files(reference: ReferenceFiles) -> None:
    """Read every file the reference names, as each plan will; InputError naming the first that cannot be read."""
    read_reference(reference)


def make_arm(
    settings: StackSettings, reference: ReferenceFiles, day: dt.date, data: ReferenceData | None = None
) -> FakeArm:
    """The fake ARM of one plan, with what the reference's files hold (`data`, read here when not given)."""
    data = data if data is not None else read_reference(reference)
    deployer = reference.deployer or deployer_type(os.environ)
    arm = FakeArm(
        default_location=settings.config.get(LOCATION_KEY),
        usage=data.usage,
        aml_usage=data.aml_usage,
        skus=data.skus,
        deployer_principal_type=deployer,
        now=instant_on(day),
    )
    if data.existing:
        adopt(arm, list(data.existing))
    return arm


def read_existing(path: Path) -> list[Existing]:
    """The resources of one `--existing` file, each checked."""
    try:
        return parse_existing(load_json(path, "existing", str(path)), str(path))
    except (InputFileError, ExistingFileError) as exc:
        raise InputError(str(exc)) from None


def plan_stack(
    project: Project,
    stack: str,
    reference: ReferenceFiles | None = None,
    *,
    day: dt.date,
    preview: bool = False,
    policy_settings: Mapping[str, PolicySettings] | None = None,
    limits: Limits | None = None,
) -> Plan:
    """Plan one stack and run it through the policy pack; raises InputError when it cannot be evaluated.

    One day, `day` (the command resolves it once: `policy_config.run_day`), is what the components (the
    program's `gpu-stacks:asOf` config), the fake ARM, the size policies (their `asOf`, written here by
    `with_day`) and the cost report all judge on. The program runs in a child process
    (`azure_gpu_stacks.engine.run.isolation`) under `limits`.
    """
    # The stack file is read here, before the engine process is forked: a bad one is its one line without a fork.
    # Its readers never block (`inputs.files`: a FIFO, a device or a file over the cap is refused unread), and a
    # command line that names its stacks has read it in this process already, for the secrets it declares
    # (`commands.options.declared_secrets`).
    stack_settings = load_stack(project, stack)
    policies = list(pack_policies())
    settings = with_day(policies, policy_settings if policy_settings is not None else configure(policies, None), day)
    _learn_from_the_last_plan()
    reference = reference or ReferenceFiles()
    try:
        data = read_reference(reference)  # so are the files beside it (--usage, --skus, --existing...)
        plan = _in_engine_process(
            # a partial rather than a closure: what the engine process runs can also be pickled (tests/plan_server.py)
            functools.partial(_plan, project, stack_settings, reference, data, preview, settings, day, limits),
            project,
            stack,
            limits or Limits(),
        )
    except InputError as exc:  # a program may put a declared secret in what it raises: never shown
        raise type(exc)(Mask(stack_settings.declared_secrets)(str(exc))) from None
    if plans_again():
        global _last_resources
        _last_resources = plan.resources
    return plan


_last_resources: tuple[RecordedResource, ...] = ()  # the last plan's, in a process that plans again


def _learn_from_the_last_plan() -> None:
    """The SDK's reading of the classes the last plan of this process used (`sdk_types`) and the fake ARM's enum
    tables of the nested Args classes its inputs filled (`fakeazure.enums`; the preload reads each type's own),
    made here before the next plan's children are forked, so they inherit them instead of reading them again
    (about a third of a shipped stack's program, a tenth of its engine process). Only a process that plans again
    keeps a plan for this (`parallel.plans_again`), and it reads them only when it does plan again: a command
    that makes one plan never pays for it."""
    global _last_resources
    if _last_resources:
        read_classes_of(_last_resources)
        for resource in _last_resources:  # the fake ARM's reading of the nested Args classes its enum check used
            with contextlib.suppress(Exception):  # only speed depends on this
                enum_violations(resource.type, resource.plain_inputs())
        _last_resources = ()


def _in_engine_process(plan: Callable[[], Plan], project: Project, stack: str, limits: Limits) -> Plan:
    """`plan()` in an engine process forked from this one, which never starts gRPC itself: the engine's
    side (a socket pair it answers, or for an executed program a gRPC server with its threads and its socket
    file) lives and dies with that process (`engine.run.children`), so every
    later fork from here (the next stack's engine, a `--jobs` worker) is a fork of a process without
    threads. The plan, or the InputError, comes back pickled; a process that dies or passes its deadline
    is one line. Where fork is unavailable the plan is made here."""
    if not isolation_available():  # pragma: no cover - macOS and Windows
        return plan()
    children.install_sigterm_cleanup()
    executed = True  # a probe that fails is said by the engine process, which probes again
    with contextlib.suppress(InputError):  # probed once here, inherited by every engine process forked after
        executed = python_for(project, timeout_s=limits.timeout_s) is not None
    deadline = 2 * limits.timeout_s + ENGINE_GRACE_S
    label = f"{stack}: the offline engine's process"
    if not executed:  # the program is forked from the engine process and served over a socket pair: no socket file
        return cast(Plan, children.call(plan, deadline, label))
    with children.private_directory() as directory:

        def in_child() -> Plan:
            monitor.serve_under(directory)
            return plan()

        return cast(Plan, children.call(in_child, deadline, label))


def _plan(
    project: Project,
    settings: StackSettings,
    reference: ReferenceFiles,
    data: ReferenceData,
    preview: bool,
    policy_settings: Mapping[str, PolicySettings],
    day: dt.date,
    limits: Limits | None,
) -> Plan:
    # the credentials of the --existing resources as their files hold them, before the program can change them
    existing_credentials = {leaf for item in data.existing for leaf in credential_leaves(item.properties)}
    arm = make_arm(settings, reference, day, data)
    references = StackReferences(project.root, project.name, reference.organization, reference.stack_outputs)
    stack_file = project.relative(settings.file)
    # the environment Pulumi.yaml names (made by the command, when asked), probed within --timeout
    python = python_for(project, timeout_s=(limits or Limits()).timeout_s)

    engine = ProgramEngine(
        project=project.name,
        stack=settings.name,
        # the components judge sizes on the run's day (`components.checks.deployment_day`)
        config={**settings.config, AS_OF_CONFIG_KEY: day.isoformat()},
        secret_keys=settings.secret_keys,
        arm=arm,
        preview=preview,
        known_outputs=False,  # `pulumi preview`'s rules for outputs Azure computes (`fakeazure.planned`)
        organization=reference.organization,
        root_directory=project.root,
        references=references,
        # a program forked from here talks to this process over a socket pair; one executed under the project's
        # interpreter, over gRPC
        over_socket=python is None and isolation_available(),
    )

    def check_engine() -> None:
        """What the engine's side found is the cause of whatever the program then did."""
        failure = engine.engine_failure()
        if failure is not None and not isinstance(failure, InputError):
            raise InputError(f"{stack_file}: the offline engine failed: {type(failure).__name__}: {failure}")
        if failure is not None:
            raise failure
        references.check()  # a missing StackReference is the cause, not what followed from it
        _check_reads(arm)

    label = f"{stack_file}: the program"
    try:
        if python is None:
            output = _run_forked(project, engine, stack_file, limits or Limits(), label)
        else:
            output = _run_executed(python, project, engine, limits or Limits(), label)
    except InputError:
        check_engine()
        raise
    except (Exception, SystemExit) as exc:  # where the program runs in this process (no fork)
        check_engine()
        raise InputError(describe_program_error(exc, project, stack_file)) from None
    check_engine()
    if arm.unknown_groups:  # after the program's own failure, which is the cause where there is one
        raise InputError(arm.unknown_groups[0])
    result = engine.result()
    result.outputs = {key: exportable(key, value) for key, value in result.outputs.items()}
    refusals, skipped = list(arm.refusals), list(arm.skipped)
    secrets = secret_strings(
        result,
        (v for k, v in settings.config.items() if k in settings.secret_keys),
        existing_credentials,
        referenced=references.secret_leaves,
    )
    warnings = settings.warnings + [masked(log.message, secrets) for log in result.logs if log.severity == "warning"]
    errors = [masked(log.message, secrets) for log in result.logs if log.severity != "warning"]
    warnings += [f"{name}: not created, it depends on a refused resource ({dep})" for name, dep in skipped]
    warnings += arm.advisories
    if python is None and (note := missing_environment(project)) is not None:
        warnings.append(note)
    cost = estimate_resources(result.resources, settings.config.get(LOCATION_KEY), usage=project.usage)
    warnings += project.usage.unknown_resources({r.name for r in result.resources})
    # Every recorded resource, refused by the fake ARM or not, goes to the pack: one run, every problem.
    violations = analyze(result.resources, policy_settings)
    return Plan(
        project=project.name,
        stack=settings.name,
        stack_file=stack_file,
        resources=tuple(result.resources),
        outputs=masked_values(result.outputs, secrets),
        secret_outputs=frozenset(result.secret_outputs),
        refusals=tuple(refusals),
        skipped=tuple(skipped),
        warnings=(*warnings, *low_priority_warnings(cost)),
        placeholders=tuple(settings.placeholders),
        as_of=day,
        violations=violations,
        cost=cost,
        program_output=masked(output, secrets),
        errors=tuple(errors),
        secret_values=secrets,
        identity=DeploymentIdentity(arm.subscription_id, arm.tenant_id, object_id_of(arm.client_id)),
    )


def _run_forked(project: Project, engine: ProgramEngine, stack_file: str, limits: Limits, label: str) -> str:
    """The program forked from this process, with gpu-stacks' own SDK (no environment named): what it printed."""
    connection: list[object] = []  # the child's connection to the engine, made before its limits are set

    def run_in_child() -> None:
        heap.leave_to_exit()  # the child ends as soon as the program has: nothing it made needs collecting
        # a forked child ends with the program: nothing it imported needs forgetting (in-process where fork is not)
        with program_environment(project.program, project.root, forget_modules=not isolation_available()):
            run_hosted(exports_checked(main_file_runner(project.program)), engine.host_arguments())

    _, output = run_isolated(
        run_in_child,
        lambda exc: describe_program_error(exc, project, stack_file),
        limits,
        label,
        server=engine.server,
        connect=lambda: connection.append(engine.connect()),
    )
    if isolation_available() and not engine.monitor.stack_finished:  # the program's "ok" alone is not an end
        raise ProgramFailed(f"{label} reported success, but the engine never saw its stack finish")
    return output


def _run_executed(python: Path, project: Project, engine: ProgramEngine, limits: Limits, label: str) -> str:
    """The program under the project's own interpreter, `program_host.py` executed as the language host's
    exec script is: what it printed; ProgramFailed with the one line of what the host reported."""
    directory = project.program if project.program.is_dir() else project.program.parent
    program = "." if project.program.is_dir() else project.program.name  # as `program_environment`
    argv, env = host_command(python, program, engine.host_arguments())
    reports, output = run_executed(argv, env, directory, limits, label, server=engine.server)
    outcome = next(r for r in reversed(reports) if "ok" in r or "failed" in r)
    if "failed" in outcome:
        raise ProgramFailed(describe_reported(outcome["failed"], limits, label, python))
    if not engine.monitor.stack_finished:  # "ok" from the program's process, but the engine saw no end
        raise ProgramFailed(f"{label} reported success, but the engine never saw its stack finish")
    return output


def describe_reported(failure: Any, limits: Limits, label: str, python: Path) -> str:
    """One line for what an executed host reported (`program_host.Report`), as the fork path says it."""
    kind = failure.get("kind") if isinstance(failure, dict) else None
    if kind == "memory":
        return f"{label} ran out of memory: it needed more than {limits.memory_mib:,} MiB (--memory-limit)"
    if kind == "exit":
        return f"{label} called sys.exit({escaped(str(failure.get('code')))}) before it finished"
    if kind != "raised":
        return f"{label} ended with a report gpu-stacks does not know: {escaped(str(failure))[:200]}"
    message = str(failure.get("message") or "")
    if failure.get("plain"):
        return escaped(one_line(message))
    where = f" (at {escaped(str(failure['where']))})" if failure.get("where") else ""
    hint = ""
    if failure.get("type") == "ModuleNotFoundError":
        hint = f"; allowed: install it in {python.parent.parent}, the environment Pulumi.yaml names"
    return f"{raised_line(str(failure.get('type')), message)}{where}{hint}"


def one_line(message: str) -> str:
    """A message of the SDK's own that spans lines (ConfigMissingError's "...\n\tplease set a value using the
    command ...", pulumi/pulumi `sdk/python/lib/pulumi/config.py`) as the one line an error is."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip())


def raised_line(type_name: str, message: str) -> str:
    """`the program raised <type>: <message>`, the message made one safe line."""
    return f"the program raised {escaped(type_name)}{f': {escaped(message)}' if message else ''}"


def _check_reads(arm: FakeArm) -> None:
    """A `<Resource>.get` of an id no --existing file held: the run cannot be evaluated."""
    if arm.unknown_reads:
        raise InputError(arm.unknown_reads[0])


def describe_program_error(exc: BaseException, project: Project, stack_file: str) -> str:
    """One line for a program that raised: the clean message of errors meant for users, else where."""
    if isinstance(exc, InputError):  # raised by the run itself (a StackReference with no outputs, an export
        return str(exc)  # Pulumi cannot send...)
    if isinstance(exc, ConfigError):
        # The program can only name the stack file by convention (stacks/Pulumi.<stack>.yaml);
        # name the file that was actually read.
        return str(ConfigError(stack_file, exc.problems))
    if isinstance(exc, program_host.USER_ERRORS):
        return one_line(str(exc))
    if isinstance(exc, SystemExit):
        return f"the program called sys.exit({exc.code!r})"
    if (failure := invoke_failure(exc)) is not None:  # a provider function's error (Azure's answer), not a program bug
        return failure
    place = program_host.where(exc, str(project.root))
    said = f"{raised_line(type(exc).__name__, str(exc))}{f' (at {place})' if place else ''}"
    if isinstance(exc, ImportError) and (note := missing_environment(project)) is not None:
        said += f"; {note}"
    if (newer := newer_python_note(exc)) is not None:
        said += f"; {newer}"
    if isinstance(exc, (ImportError, AttributeError)) and (major := other_major_note(str(exc))) is not None:
        said += f"; {major}"  # last: a quote after it would make the span between quotes read as one value
    return said
