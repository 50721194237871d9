"""The policy pack as the Pulumi CLI runs it: `pulumi preview --policy-pack policies`.

The CLI starts `python -u -m pulumi.policy <engine> .` in this directory, which runs this file;
building the `PolicyPack` starts its gRPC server and blocks. Nothing else belongs here: the policies
are in `policies.registry`.
"""

import sys
from pathlib import Path

# The CLI runs the pack with this directory first on sys.path, where `config.py` or `values.py`
# would shadow any top-level module of that name; the pack's modules are imported as `policies.*`
# from the repository root instead, which also makes `components.catalog` importable where the
# repository is not pip-installed into the pack's virtual environment.
_PACK_DIR = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _PACK_DIR]
if str(_PACK_DIR.parent) not in sys.path:
    sys.path.insert(0, str(_PACK_DIR.parent))

from pulumi_policy import EnforcementLevel, PolicyPack

from policies.registry import PACK_NAME, policies

PolicyPack(
    name=PACK_NAME,
    policies=policies(),
    enforcement_level=EnforcementLevel.ADVISORY,  # only for a policy without its own level; every policy has one
    description="Guard rails for GPU compute on Azure: retired sizes, cost alerts, GPU scheduling, exposure.",
)
