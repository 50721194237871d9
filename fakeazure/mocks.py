"""Pulumi's `Mocks` adapter: every resource registration and provider function goes to the fake ARM.

Under Pulumi's mock runtime the program runs as it would under `pulumi up`, but instead of the
azure-native provider answering each registration, the fake ARM does: it returns the id and the
outputs Azure would, or records the error Azure would give and lets the run go on, so that one run
reports every problem. Components are echoed back unchanged; resources of other providers are answered
as Pulumi's mocks answer them, with plausible outputs for random and tls (`fakeazure.other_providers`).
"""

from __future__ import annotations

from typing import Any

import pulumi

from ..catalog.retired_offers import advisory, retired_offer
from ..sdk.internals import is_secret, secret
from ..sdk.values import unwrap_secrets
from . import other_providers
from .backend import DependencyFailed, FakeArm, Refusal
from .errors import ArmError
from .lookups import answer, read
from .models import resource_type
from .models.resources import RESOURCE_GROUP
from .planned import planned_outputs, previewed_outputs

AZURE_NATIVE = "azure-native:"


class FakeArmMocks(pulumi.runtime.Mocks):
    """Drives `FakeArm` from Pulumi's mock runtime."""

    def __init__(self, arm: FakeArm, *, preview: bool = False, known_outputs: bool = True):
        self.arm = arm
        # a program may create a child's parent after the child (`FakeArm.parents_may_follow`); `FakeArm.settle`
        # at its end refuses a child whose parent never came
        arm.parents_may_follow = True
        self.preview = preview
        # False: outputs as `pulumi preview` gives them (`planned`), what `check` and `plan` show by
        # default; True: every output known, as after `pulumi up` (the component tests' harness).
        self.known_outputs = known_outputs
        # (type, name) of registrations with an input unknown until deployment, to the top-level inputs that hold
        # one: the mock monitor drops unknowns before `new_resource` sees the inputs, so the engine's monitor
        # notes them here first.
        self.unknown_inputs: dict[tuple[str, str], frozenset[str]] = {}
        self.provider_locations: dict[str, str] = {}  # explicit azure-native providers' (`other_providers`)

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str | None, dict[str, Any]]:
        if args.custom is False:
            return None, dict(args.inputs)
        if not args.typ.startswith(AZURE_NATIVE):
            made_up_id, state = other_providers.answer(args.typ, args.name, args.inputs)
            self.provider_locations.update(other_providers.provider_location(args.typ, made_up_id, args.inputs))
            return made_up_id, state
        if args.resource_id:  # `<Resource>.get(name, id)`: a read of what exists, never a create
            return self._read(args)
        props = unwrap_secrets(dict(args.inputs))
        if args.typ == RESOURCE_GROUP:
            props = other_providers.located_by_provider(props, args.provider, self.provider_locations)
        seed = f"{args.typ}::{args.name}"
        offer = retired_offer(args.typ, props, self.arm.now.date())
        if offer is not None and offer.refusal is None:
            self.arm.advisories.append(advisory(args.name, offer))
        if self.preview:
            return self._preview(args, props, seed)
        try:
            if offer is not None and offer.refusal is not None:
                raise offer_refused(*offer.refusal)  # Azure's own code and words (catalog.retired_offers)
            partly_known = (args.typ, args.name) in self.unknown_inputs
            res = self.arm.put(args.typ, args.name, props, seed, partly_known=partly_known)
        except ArmError as error:
            res = self.arm.refuse(args.typ, args.name, props, seed, error)
        except DependencyFailed as cause:
            res = self.arm.skip(args.typ, args.name, props, seed, cause)
        if not self.known_outputs:
            return res.id, planned_outputs(args.inputs, res.outputs)
        secret_inputs = {k for k, v in args.inputs.items() if is_secret(v)}
        outputs = {k: (secret(v) if k in secret_inputs else v) for k, v in res.outputs.items()}
        return res.id, outputs

    def _preview(
        self, args: pulumi.runtime.MockResourceArgs, props: dict[str, Any], seed: str
    ) -> tuple[str, dict[str, Any]]:
        """As a provider answers `pulumi preview`: checks on known values, no id, and outputs from the type's
        response schema, every one the inputs do not give unknown (`fakeazure.planned`)."""
        try:
            self.arm.check_preview(args.typ, props)
        except ArmError as error:
            self.arm.refusals.append(Refusal(args.name, args.typ, error.code, error.message))
        return "", previewed_outputs(args.typ, args.inputs, self._preview_name(args, props, seed))

    def _preview_name(self, args: pulumi.runtime.MockResourceArgs, props: dict[str, Any], seed: str) -> dict[str, Any]:
        """The name azure-native's preview keeps known (pulumi/pulumi-azure-native#282): the name input, or the
        auto-name it gives; unknown while the name input itself is."""
        rtype = resource_type(args.typ)
        given = props.get(rtype.name_input) if rtype.name_input else None
        if isinstance(given, str) and given:
            return {"name": given}
        if rtype.name_input in self.unknown_inputs.get((args.typ, args.name), ()):
            return {}
        return {"name": self.arm.autoname(args.name, rtype, seed)}

    def _read(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        """A read answers from the subscription; an unknown id is kept for the run's caller to refuse
        (raising here would leave the SDK's pending work behind), and reads as an empty resource."""
        try:
            found = read(self.arm, str(args.resource_id))
        except ArmError as error:
            self.arm.unknown_reads.append(f"{args.typ}.get('{args.name}', id): {error}")
            return str(args.resource_id), {}
        return found.id, answer(found)

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        # The mock monitor iterates the failures; an empty list, never None. An ARM error becomes a
        # failure, which the SDK raises as "invoke of <token> failed: <code>: <message>".
        try:
            return self.arm.invoke(args.token, unwrap_secrets(dict(args.args))), []
        except ArmError as error:
            return {}, [("", str(error))]


def offer_refused(code: str, message: str) -> ArmError:
    """The error Azure answers the create of a retired offer with, under Azure's own code."""
    return type(code, (ArmError,), {"code": code})(message)
