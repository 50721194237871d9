"""A generated monorepo of many Pulumi projects: what `gpu-stacks check --root` sees at a platform team.

`write_monorepo(root, projects, stacks)` writes `projects` projects of `stacks` stacks each, in one git
repository (one commit), varied the way teams vary them:
- the layout: `teams/team-NN/` projects, `stackConfigDir` `stacks`, `config` or the project itself;
- a module beside each program (`naming.py`, the import graph `--affected` follows);
- StackReferences: each project after the first references the stack of the same place in the
  project before it (a network stack's outputs), through `stack-outputs/ORG/PROJECT/STACK.json`;
- with `full=True` (the benchmark), the shipped program (azure_gpu_stacks.stack.program) with the
  generated stacks of `fleet.py`: every component, GPU sizes of each family, node counts, regions,
  budgets; with `full=False` (the tests), a small program: a resource group, and on every seventh
  stack a VM of a retired size, which Azure refuses and the pack flags, so reports have findings.

    python bench/monorepo.py 50 20 /tmp/mono   # 50 projects, 1,000 stacks
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ORGANIZATION = "organization"  # what a DIY backend answers (engine.run.runtime.DIY_ORGANIZATION)
STACK_DIRS = ("stacks", "config", ".")

SMALL_PROGRAM = '''"""A small program: a resource group named by a shared module, maybe a VM, maybe a reference."""

import pulumi
from pulumi_azure_native import compute, resources

import naming

config = pulumi.Config()
rg = resources.ResourceGroup(
    "rg", resource_group_name=naming.group(pulumi.get_stack()), location=config.get("location") or "eastus"
)
size = config.get("size")
if size:
    compute.VirtualMachine(
        "trainer", resource_group_name=rg.name, hardware_profile=compute.HardwareProfileArgs(vm_size=size)
    )
network = config.get("network")
if network:
    pulumi.export("subnet", pulumi.StackReference(network).get_output("subnetId"))
pulumi.export("group", rg.name)
'''

FULL_PROGRAM = '''"""The shipped program, and a network stack's outputs through a StackReference when configured."""

import pulumi
from azure_gpu_stacks.stack.program import main

import naming

network = naming.network(pulumi.get_stack())
if network:
    pulumi.export(naming.output("subnet"), pulumi.StackReference(network).get_output("subnetId"))
main()
'''

NAMING = '''"""Names shared by the team's stacks."""


def group(stack: str) -> str:
    return f"rg-{stack}"


def output(name: str) -> str:
    return f"network-{name}"


def network(stack: str) -> str | None:
    """The network stack a stack tPP-sSSS reads: tPP-1-sSSS's, for even SSS (the shipped program's namespace
    takes no other keys, so the name is the program's)."""
    project, place = int(stack[1:3]), int(stack[5:8])
    if project == 0 or place % 2:
        return None
    return f"organization/azure-gpu-stacks/t{project - 1:02d}-s{place:03d}"
'''


def _project_name(index: int, full: bool) -> str:
    # The shipped program reads its config under the namespace azure-gpu-stacks (stack.config.PROJECT),
    # which Pulumi only accepts in a project of that name.
    return "azure-gpu-stacks" if full else f"team-{index:02d}"


def stack_name(project: int, place: int) -> str:
    return f"t{project:02d}-s{place:03d}"


def write_monorepo(root: Path, projects: int, stacks: int, *, full: bool = False) -> Path:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    documents = list(_full_documents(projects * stacks).values()) if full else []
    for p in range(projects):
        directory = root / "teams" / f"team-{p:02d}"
        stack_dir_name = STACK_DIRS[p % len(STACK_DIRS)]
        stack_dir = directory / stack_dir_name
        stack_dir.mkdir(parents=True, exist_ok=True)
        name = _project_name(p, full)
        project: dict[str, object] = {"name": name, "runtime": "python"}
        if stack_dir_name != ".":
            project["stackConfigDir"] = stack_dir_name
        (directory / "Pulumi.yaml").write_text(yaml.safe_dump(project, sort_keys=False))
        (directory / "__main__.py").write_text(FULL_PROGRAM if full else SMALL_PROGRAM)
        (directory / "naming.py").write_text(NAMING)
        (directory / "README.md").write_text(f"Team {p:02d}'s GPU stacks.\n")
        for s in range(stacks):
            stack = stack_name(p, s)
            if full:
                document = documents[p * stacks + s]
            else:
                config: dict[str, object] = {f"{name}:location": ["eastus", "westus2", "westeurope"][s % 3]}
                if s % 7 == 3:
                    config[f"{name}:size"] = "Standard_NC6"  # retired: refused and flagged
                document = {"config": config}
            if p > 0 and s % 2 == 0:  # references the stack of the same place in the project before
                referenced = f"{ORGANIZATION}/{_project_name(p - 1, full)}/{stack_name(p - 1, s)}"
                if not full:  # the full program names the stack itself (naming.network)
                    document.setdefault("config", {})[f"{name}:network"] = referenced
                outputs = directory / "stack-outputs" / f"{referenced}.json"
                outputs.parent.mkdir(parents=True, exist_ok=True)
                outputs.write_text(json.dumps({"subnetId": f"/subscriptions/0/subnets/{stack_name(p - 1, s)}"}))
            (stack_dir / f"Pulumi.{stack}.yaml").write_text(yaml.safe_dump(document, sort_keys=False))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "fleet")
    return root


def _full_documents(count: int) -> dict[str, dict[str, object]]:
    sys.path.insert(0, str(HERE))
    from fleet import stack_documents

    return stack_documents(count)


def git(root: Path, *argv: str) -> str:
    return subprocess.run(["git", "-C", str(root), *argv], check=True, capture_output=True, text=True).stdout


if __name__ == "__main__":
    print(write_monorepo(Path(sys.argv[3]), int(sys.argv[1]), int(sys.argv[2]), full=True))
