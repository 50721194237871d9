"""A generated fleet of N stacks: what one `gpu-stacks check` sees in a monorepo of many teams.

Each stack is one of the shipped stacks (all four components) with a team's realistic variation:
another GPU size of the same family, another node count or budget, another region where the size
is offered. The project is a temporary copy (Pulumi.yaml, __main__.py) whose `stacks/` holds the
generated files, so `gpu-stacks check --project DIR` runs the real program on every one.

    python bench/fleet.py 48 /tmp/fleet48      # writes the project, prints its directory
"""

from __future__ import annotations

import copy
import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
NAMESPACE = "azure-gpu-stacks"

# (shipped stack, section, overrides): cycled through, so every N mixes every component.
VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    ("inference-t4", "vm", {}),
    ("training-a100", "trainingCluster", {}),
    ("aml-gpu", "amlCluster", {}),
    ("aks-gpu", "aksGpuPool", {}),
    ("inference-t4", "vm", {"vmSize": "Standard_NC8as_T4_v3", "shutdownTime": "2100"}),
    ("training-a100", "trainingCluster", {"nodeCount": 4}),
    ("aml-gpu", "amlCluster", {"vmSize": "Standard_NC48ads_A100_v4", "maxNodeCount": 2}),
    ("aks-gpu", "aksGpuPool", {"vmSize": "Standard_NC8as_T4_v3", "maxCount": 6}),
    ("inference-t4", "vm", {"vmSize": "Standard_NC16as_T4_v3", "autoShutdown": False}),
    ("training-a100", "trainingCluster", {"nodeCount": 3, "spot": False}),
    ("aml-gpu", "amlCluster", {"maxNodeCount": 8, "vmPriority": "LowPriority"}),
    ("aks-gpu", "aksGpuPool", {"maxCount": 10, "systemNodeCount": 3}),
]
REGIONS = ["eastus", "westus2", "southcentralus", "westeurope"]


def stack_documents(count: int) -> dict[str, dict[str, Any]]:
    """`count` stack files by name, deterministic for a given count."""
    shipped = {
        name: yaml.safe_load((REPO / "stacks" / f"Pulumi.{name}.yaml").read_text()) for name in {v[0] for v in VARIANTS}
    }
    documents = {}
    for index in range(count):
        base, section, overrides = VARIANTS[index % len(VARIANTS)]
        document = copy.deepcopy(shipped[base])
        config = document["config"]
        config[f"{NAMESPACE}:{section}"].update(overrides)
        config["azure-native:location"] = REGIONS[(index // len(VARIANTS)) % len(REGIONS)]
        team = f"team-{index:03d}"
        config[f"{NAMESPACE}:tags"] = {"team": team, "workload": base}
        config[f"{NAMESPACE}:costAlert"]["contactEmails"] = [f"{team}@example.com"]
        documents[f"{team}-{base}"] = document
    return documents


def write_fleet(count: int, root: Path) -> Path:
    """A project at `root` with `count` generated stacks; returns `root`."""
    if root.exists():
        shutil.rmtree(root)
    (root / "stacks").mkdir(parents=True)
    shutil.copy(REPO / "Pulumi.yaml", root / "Pulumi.yaml")
    shutil.copy(REPO / "__main__.py", root / "__main__.py")
    for name, document in stack_documents(count).items():
        (root / "stacks" / f"Pulumi.{name}.yaml").write_text(yaml.safe_dump(document, sort_keys=False))
    return root


if __name__ == "__main__":
    print(write_fleet(int(sys.argv[1]), Path(sys.argv[2])))
