"""Property-based: whatever a stack file holds, loading it either succeeds or raises one ConfigError
whose every line names a key path under the stack's namespaces. Nothing else escapes."""

from __future__ import annotations

import json
from typing import Any

from azure_gpu_stacks.stack.config import ConfigError, StackConfig, load_stack_config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SOURCE = "stacks/Pulumi.fuzz.yaml"
SECTION_KEYS = sorted({f.alias or n for model in (StackConfig,) for n, f in model.model_fields.items()} - {"location"})

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["Standard_NC4as_T4_v3", "Standard_NC6", "nc4as_t4_v3", "eastus", "PT15M", "a@b.co"]),
)
trees = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.text(max_size=12), st.sampled_from(["vmSize", "amount", "spot", "contactEmails"])),
            children,
            max_size=5,
        ),
    ),
    max_leaves=25,
)


def flat(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, allow_nan=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    location=st.one_of(st.sampled_from(["eastus", "West Europe", "moon", ""]), st.text(max_size=10)),
    sections=st.dictionaries(
        st.one_of(st.sampled_from(SECTION_KEYS), st.text(min_size=1, max_size=10)), trees, max_size=4
    ),
)
def test_config_any_input_loads_or_gives_a_config_error(location: str, sections: dict[str, Any]) -> None:
    values = {"azure-native:location": location, **{f"azure-gpu-stacks:{k}": flat(v) for k, v in sections.items()}}
    try:
        load_stack_config(values, source=SOURCE)
    except ConfigError as err:
        assert str(err).startswith(SOURCE + ": ")
        assert err.problems, "a ConfigError names at least one problem"
        assert all(p.key.startswith(("azure-gpu-stacks", "azure-native:location")) for p in err.problems)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["vmSize", "spot", "osDiskSizeGb", "sshAllowedCidrs", "evictionPolicy", "shutdownTime"]), trees
    )
)
def test_config_vm_section_problems_name_the_vm_key(section: dict[str, Any]) -> None:
    values = {
        "azure-native:location": "eastus",
        "azure-gpu-stacks:sshPublicKey": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFuzz fuzz",
        "azure-gpu-stacks:vm": json.dumps(section, allow_nan=True),
    }
    try:
        load_stack_config(values, source=SOURCE)
    except ConfigError as err:
        assert all(p.key.startswith("azure-gpu-stacks:vm") for p in err.problems)
