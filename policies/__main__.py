"""The policy pack as the Pulumi CLI runs it: `pulumi preview --policy-pack policies`.

The CLI starts `python -u -m pulumi.policy <engine> .` in this directory, which runs this file;
building the `PolicyPack` starts its gRPC server and blocks. Nothing else belongs here: the policies
are in `policies.registry`.
"""

import sys
from pathlib import Path

# The pack runs with this directory, not the repository, on sys.path; the repository root makes
# `policies.*` and `components.catalog` importable even where the repository is not pip-installed
# into the pack's virtual environment.
_REPOSITORY_ROOT = str(Path(__file__).resolve().parents[1])
if _REPOSITORY_ROOT not in sys.path:
    sys.path.insert(0, _REPOSITORY_ROOT)

from pulumi_policy import EnforcementLevel, PolicyPack

from policies.registry import PACK_NAME, policies

PolicyPack(
    name=PACK_NAME,
    policies=policies(),
    enforcement_level=EnforcementLevel.ADVISORY,  # only for a policy without its own level; every policy has one
    description="Guard rails for GPU compute on Azure: retired sizes, cost alerts, GPU scheduling, exposure.",
)
