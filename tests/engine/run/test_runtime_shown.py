"""How recorded inputs are shown: secret leaves masked, secrets of unknown origin hidden whole."""

from __future__ import annotations

from azure_gpu_stacks.engine.run.runtime import RecordedResource
from azure_gpu_stacks.sdk.internals import secret

KEY = "ssh-ed25519 AAAAplaceholder offline"


def recorded(inputs: dict[str, object], secrets: frozenset[str]) -> RecordedResource:
    return RecordedResource("urn:x", "t", "n", None, True, False, inputs, secret_values=secrets)


def test_shown_inputs_mask_only_the_secret_leaf_of_a_secret_property() -> None:
    inputs = {"profile": secret({"user": "azureuser", "keys": [{"keyData": KEY}], "size": 2.0})}

    assert recorded(inputs, frozenset({KEY})).shown_inputs() == {
        "profile": {"user": "azureuser", "keys": [{"keyData": "[secret]"}], "size": 2.0}
    }


def test_shown_inputs_hide_a_secret_property_that_holds_no_known_secret() -> None:
    inputs = {"profile": secret({"password": "hunter2"}), "token": secret("abc")}

    assert recorded(inputs, frozenset({KEY})).shown_inputs() == {"profile": "[secret]", "token": "[secret]"}


def test_plain_inputs_keep_the_secret_values() -> None:
    inputs = {"profile": secret({"keys": [{"keyData": KEY}]})}

    assert recorded(inputs, frozenset({KEY})).plain_inputs() == {"profile": {"keys": [{"keyData": KEY}]}}
