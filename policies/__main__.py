"""The policy pack as the Pulumi CLI runs it: `pulumi preview --policy-pack <this directory>`.

The CLI starts `venv/bin/python -u -m pulumi.policy <engine> <this directory>` here, which runs this
file; building the `PolicyPack` starts its gRPC server and blocks. Nothing else belongs here: the
policies are in `azure_gpu_stacks.policies.registry`, imported from the `azure-gpu-stacks`
distribution that requirements.txt installs into that virtual environment, and nothing is imported
from around this directory, so the pack runs from wherever it is copied.
"""

import sys
from pathlib import Path

# The CLI runs the pack with this directory first on sys.path, where `config.py` or `values.py`
# would shadow any top-level module of that name (pulumi/pulumi-policy, sdk/python/lib/pulumi_policy/
# __main__.py runs the pack's __main__ with its directory as sys.path[0]); the pack's own modules are
# always imported by their namespaced names.
_PACK_DIR = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _PACK_DIR]

from azure_gpu_stacks.policies.registry import PACK_NAME, policies  # noqa: E402
from pulumi_policy import EnforcementLevel, PolicyPack  # noqa: E402 - after the sys.path repair above

PolicyPack(
    name=PACK_NAME,
    policies=policies(),
    enforcement_level=EnforcementLevel.ADVISORY,  # only for a policy without its own level; every policy has one
    description="Guard rails for GPU compute on Azure: retired sizes, cost alerts, GPU scheduling, exposure.",
)
