"""`gpu-stacks diff BASE`: real edits of the shipped stacks in a git repository, compared with BASE.

One repository (the shipped project plus `dev-t4`, a copy of inference-t4) is committed as BASE, then
edited the way pull requests edit it; one diff of every stack is shared by the tests that read it.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.diff.report import render_json, render_text, stack_text
from azure_gpu_stacks.engine.diff.run import DiffReport, run_diff
from azure_gpu_stacks.engine.run.plan import ReferenceFiles

from tests.conftest import REPO
from tests.json_schemas import schema_errors
from tests.policy_helpers import catalog_size

AKS_POOL_URN = (
    "urn:pulumi:aks-gpu::azure-gpu-stacks::azure-gpu-stacks:index:AksGpuPool"
    "$azure-native:containerservice:AgentPool::aks-gpu-pool"
)


REGION = "eastus"  # every shipped stack's azure-native:location


def payg(size: str) -> float:
    return float(catalog_size(size)["prices"][REGION]["payg"])


def month(usd_per_hour: float) -> float:
    return usd_per_hour * 730  # the reports' month, as they say: "730 h a month"


def usd(amount: float, sign: bool = False) -> str:
    return f"{amount:+,.2f}" if sign else f"{amount:,.2f}"


# What the stacks the pull request edits cost a month, from the catalog's prices and what each stack file
# runs: aks-gpu 0..3 GPU nodes beside 2 Standard_D4s_v5 system nodes (the pull request: T4 -> 8-core T4);
# training-a100 2 -> 3 ND96asr_v4 nodes around the clock; inference-t4 one T4 VM, idle from the 19:00
# shutdown to 09:00 (10 h on a day); aml-gpu 0..4 NC24ads_A100_v4 nodes (removed).
T4, T4_8, SYSTEM = payg("Standard_NC4as_T4_v3"), payg("Standard_NC8as_T4_v3"), payg("Standard_D4s_v5")
ND = payg("Standard_ND96asr_v4")
AKS_BUSY, AKS_BUSY_AFTER, AKS_IDLE = month(3 * T4 + 2 * SYSTEM), month(3 * T4_8 + 2 * SYSTEM), month(2 * SYSTEM)
ND_2, ND_3 = month(2 * ND), month(3 * ND)
T4_BUSY, T4_IDLE = month(T4), month(T4 * 10 / 24)
AML_BUSY = month(4 * payg("Standard_NC24ads_A100_v4"))
TOTAL_BUSY = (AKS_BUSY_AFTER - AKS_BUSY) + (ND_3 - ND_2) + T4_BUSY - AML_BUSY
TOTAL_IDLE = (ND_3 - ND_2) + T4_IDLE


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return done.stdout


def link_environment(root: Path) -> None:
    """The environment the shipped Pulumi.yaml names (`.venv`, untracked as in the repository): this one."""
    (root / ".venv").symlink_to(sys.prefix)
    (root / ".gitignore").write_text(".venv\n")


def project_repo(root: Path, stacks: tuple[str, ...] | None = None) -> Path:
    """The shipped project (all stacks, or those named) committed as the only commit of a new repository."""
    root.mkdir(parents=True)
    for name in ("Pulumi.yaml", "__main__.py"):
        shutil.copy(REPO / name, root / name)
    link_environment(root)
    (root / "stacks").mkdir()
    for f in (REPO / "stacks").glob("Pulumi.*.yaml"):
        if stacks is None or f.name.removeprefix("Pulumi.").removesuffix(".yaml") in stacks:
            shutil.copy(f, root / "stacks" / f.name)
    git(root, "init", "-q")
    return root


def commit(repo: Path, message: str = "base") -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=ci@example.com", "-c", "user.name=ci", "commit", "-q", "-m", message)


def edit(file: Path, old: str, new: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {file}"
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def snapshot(repo: Path) -> dict[str, str]:
    """What a diff must leave alone: HEAD, branches, the index, the working tree, the worktrees.

    `--no-optional-locks` keeps `git status` from refreshing (rewriting) the index itself, so the
    index file's bytes can be compared.
    """
    return {
        "head": git(repo, "rev-parse", "HEAD"),
        "branches": git(repo, "branch", "-a", "-v"),
        "index": hashlib.sha256((repo / ".git" / "index").read_bytes()).hexdigest(),
        "staged": git(repo, "ls-files", "--stage"),
        "status": git(repo, "--no-optional-locks", "status", "--porcelain", "--untracked-files=all"),
        "tree": "\n".join(
            f"{p.relative_to(repo)} {hashlib.sha256(p.read_bytes()).hexdigest()}"
            for p in sorted(repo.rglob("*"))
            if p.is_file() and ".git" not in p.parts
        ),
        "worktrees": git(repo, "worktree", "list", "--porcelain").replace(str(repo), "REPO"),
        "stash": git(repo, "stash", "list"),
    }


@dataclass
class PullRequest:
    repo: Path
    report: DiffReport
    before: dict[str, str]
    after: dict[str, str]

    def text(self, stack: str) -> str:
        return "\n".join(next(stack_text(s) for s in self.report.stacks if s.stack == stack))


NC4, NC8 = "Standard_NC4as_T4_v3", "Standard_NC8as_T4_v3"
POOL_SETTING = "enableEncryptionAtHost"
VM_SETTING = "securityProfile.encryptionAtHost"


def no_encryption_at_host(resource: str, size_path: str, size: str, setting: str) -> str:
    """warn-gpu-host-without-encryption-at-host on a size the catalog records nothing about (NCasT4_v3's)."""
    return (
        f"warn-gpu-host-without-encryption-at-host: {resource}: {size_path} '{size}' runs without encryption at host "
        f"({setting} is not set): its temporary disk and disk caches stay unencrypted on the host (the catalog does "
        f"not record whether {size} supports it: `az vm list-skus --size {size}` shows EncryptionAtHostSupported); "
        f"set {setting} to true once the subscription has registered Microsoft.Compute/EncryptionAtHost."
    )


@pytest.fixture(scope="module")
def pr(tmp_path_factory: pytest.TempPathFactory) -> PullRequest:
    repo = project_repo(tmp_path_factory.mktemp("diff") / "repo")
    stacks = repo / "stacks"
    shutil.copy(stacks / "Pulumi.inference-t4.yaml", stacks / "Pulumi.dev-t4.yaml")
    commit(repo)
    # The pull request's edits, none of them staged or committed.
    edit(stacks / "Pulumi.aks-gpu.yaml", "vmSize: Standard_NC4as_T4_v3 ", "vmSize: Standard_NC8as_T4_v3 ")
    edit(stacks / "Pulumi.training-a100.yaml", "nodeCount: 2", "nodeCount: 3")
    edit(stacks / "Pulumi.inference-t4.yaml", "amount: 300", "amount: 450")
    edit(stacks / "Pulumi.dev-t4.yaml", "sshAllowedCidrs: []", 'sshAllowedCidrs: ["0.0.0.0/0"]')
    (stacks / "Pulumi.aml-gpu.yaml").unlink()
    team2 = (
        (stacks / "Pulumi.inference-t4.yaml")
        .read_text(encoding="utf-8")
        .replace("workload: inference", "workload: team2")
    )
    (stacks / "Pulumi.team2-t4.yaml").write_text(team2, encoding="utf-8")
    before = snapshot(repo)
    report = run_diff(repo, "HEAD", [], ReferenceFiles(), None, jobs=2, day=utc_today())
    return PullRequest(repo, report, before, snapshot(repo))


def test_diff_leaves_the_checkout_index_and_worktrees_untouched(pr: PullRequest) -> None:
    assert pr.after == pr.before
    assert "nodeCount: 3" in (pr.repo / "stacks" / "Pulumi.training-a100.yaml").read_text(encoding="utf-8")


def test_diff_size_change_of_the_aks_gpu_pool_replaces_it_and_is_called_out(pr: PullRequest) -> None:
    assert pr.text("aks-gpu") == (
        f"aks-gpu: +0 ~0 -0, replaces 1, {usd(AKS_BUSY_AFTER - AKS_BUSY, sign=True)} USD/month busy, +0.00 idle\n"
        "  +- aks-gpu-pool [azure-native:containerservice:AgentPool] replace\n"
        '       vmSize: "Standard_NC4as_T4_v3" -> "Standard_NC8as_T4_v3"  '
        "[forces replacement: the provider replaces it; "
        "pulumi/pulumi-azure-native provider/pkg/gen/replacement.go (forceNewMap)]\n"
        "  16 resources unchanged\n"
        f"  cost: busy {usd(AKS_BUSY)} -> {usd(AKS_BUSY_AFTER)} USD/month "
        f"({usd(AKS_BUSY_AFTER - AKS_BUSY, sign=True)}); "
        f"idle {usd(AKS_IDLE)} -> {usd(AKS_IDLE)} (+0.00)\n"
        # The encryption-at-host advisory names the size, so the new size's is new and the old size's resolved.
        f"  new [advisory] {no_encryption_at_host('aks-gpu-pool', 'vmSize', NC8, POOL_SETTING)}\n"
        f"  resolved [advisory] {no_encryption_at_host('aks-gpu-pool', 'vmSize', NC4, POOL_SETTING)}\n"
        "  quota standardNCASv3_T4Family in eastus: 12 -> 24 vCPUs\n"
        "  quota cores in eastus: 20 -> 32 vCPUs"
    )
    text = render_text(pr.report)
    assert (
        "GPU pools and clusters replaced (deleted, then created):\n"
        "  ! aks-gpu: aks-gpu-pool [azure-native:containerservice:AgentPool]: every node of the pool is drained and "
        "deleted; GPU pods are evicted and wait until the new pool's nodes are up; "
        f"NOT acknowledged (--allow-replace '{AKS_POOL_URN}')\n"
    ) in text
    assert text.index("GPU pools and clusters replaced") < text.index("aks-gpu: +0")


def test_diff_node_count_of_the_training_cluster_updates_it_in_place(pr: PullRequest) -> None:
    text = pr.text("training-a100")

    assert text.startswith(
        f"training-a100: +0 ~1 -0, {usd(ND_3 - ND_2, sign=True)} USD/month busy, {usd(ND_3 - ND_2, sign=True)} idle\n"
        "  ~ train-vmss [azure-native:compute:VirtualMachineScaleSet] update\n"
        "       sku.capacity: 2 -> 3\n"
        "  7 resources unchanged\n"
        f"  cost: busy {usd(ND_2)} -> {usd(ND_3)} USD/month ({usd(ND_3 - ND_2, sign=True)}); "
        f"idle {usd(ND_2)} -> {usd(ND_3)} ({usd(ND_3 - ND_2, sign=True)})\n"
    )
    # The always-on advisory names the new idle-day cost.
    assert (
        "  new [advisory] warn-always-on-infiniband-cluster: train-vmss: 'train-vmss' runs 3 x Standard_ND96asr_v4 "
        f"around the clock: about {usd(3 * 24 * ND)} USD for every day nothing trains" in text
    )
    assert text.endswith(
        "  quota standardNDASv4_A100Family in eastus: 192 -> 288 vCPUs\n  quota cores in eastus: 192 -> 288 vCPUs"
    )


def test_diff_budget_change_updates_the_budget_and_shows_it_beside_the_cost(pr: PullRequest) -> None:
    assert pr.text("inference-t4") == (
        "inference-t4: +0 ~1 -0, +0.00 USD/month busy, +0.00 idle\n"
        "  ~ cost-alert-budget [azure-native:consumption:Budget] update\n"
        "       amount: 300 -> 450\n"
        "  10 resources unchanged\n"
        f"  cost: busy {usd(T4_BUSY)} -> {usd(T4_BUSY)} USD/month (+0.00); "
        f"idle {usd(T4_IDLE)} -> {usd(T4_IDLE)} (+0.00)\n"
        "  budget: 300.00 -> 450.00 USD/month"
    )


def test_diff_new_stack_adds_every_resource_and_its_cost(pr: PullRequest) -> None:
    assert pr.text("team2-t4") == (
        f"team2-t4 (new stack): +11 ~0 -0, {usd(T4_BUSY, sign=True)} USD/month busy, {usd(T4_IDLE, sign=True)} idle\n"
        "  + rg [azure-native:resources:ResourceGroup]\n"
        "  + gpu-vm [azure-gpu-stacks:index:GpuVm]\n"
        "  + cost-alert [azure-gpu-stacks:index:CostAlert]\n"
        "  + cost-alert-budget [azure-native:consumption:Budget]\n"
        "  + gpu-vm-vnet [azure-native:network:VirtualNetwork]\n"
        "  + gpu-vm-nsg [azure-native:network:NetworkSecurityGroup]\n"
        "  + gpu-vm-subnet [azure-native:network:Subnet]\n"
        "  + gpu-vm-nic [azure-native:network:NetworkInterface]\n"
        "  + gpu-vm-vm [azure-native:compute:VirtualMachine]\n"
        "  + gpu-vm-gpu-driver [azure-native:compute:VirtualMachineExtension]\n"
        "  + gpu-vm-shutdown [azure-native:devtestlab:GlobalSchedule]\n"
        f"  cost: busy 0.00 -> {usd(T4_BUSY)} USD/month ({usd(T4_BUSY, sign=True)}); "
        f"idle 0.00 -> {usd(T4_IDLE)} ({usd(T4_IDLE, sign=True)})\n"
        "  budget: none -> 450.00 USD/month\n"
        f"  new [advisory] {no_encryption_at_host('gpu-vm-vm', 'hardwareProfile.vmSize', NC4, VM_SETTING)}\n"
        "  quota standardNCASv3_T4Family in eastus: 0 -> 4 vCPUs\n"
        "  quota cores in eastus: 0 -> 4 vCPUs"
    )


def test_diff_removed_stack_removes_every_resource_and_its_cost(pr: PullRequest) -> None:
    assert pr.text("aml-gpu") == (
        f"aml-gpu (stack removed): +0 ~0 -13, {usd(-AML_BUSY, sign=True)} USD/month busy, +0.00 idle\n"
        "  - rg [azure-native:resources:ResourceGroup]\n"
        "  - aml [azure-gpu-stacks:index:AmlCluster]\n"
        "  - cost-alert [azure-gpu-stacks:index:CostAlert]\n"
        "  - cost-alert-budget [azure-native:consumption:Budget]\n"
        "  - staml [azure-native:storage:StorageAccount]\n"
        "  - aml-log [azure-native:operationalinsights:Workspace]\n"
        "  - craml [azure-native:containerregistry:Registry]\n"
        "  - aml-gpu-alerts [azure-native:monitor:ActionGroup]\n"
        "  - kvaml [azure-native:keyvault:Vault]\n"
        "  - aml-appi [azure-native:applicationinsights:Component]\n"
        "  - aml-ws [azure-native:machinelearningservices:Workspace]\n"
        # the idle alert names the cluster by its configured name, so it registers without waiting for it
        "  - aml-gpu-idle [azure-native:monitor:MetricAlert]\n"
        "  - aml-cluster [azure-native:machinelearningservices:Compute]\n"
        f"  cost: busy {usd(AML_BUSY)} -> 0.00 USD/month ({usd(-AML_BUSY, sign=True)}); idle 0.00 -> 0.00 (+0.00)\n"
        "  budget: 1,000.00 -> none USD/month\n"
        # Azure ML's own counters, not Microsoft.Compute's family and `cores`.
        "  quota Standard NCADSA100v4 Family Cluster Dedicated vCPUs in eastus: 96 -> 0 vCPUs\n"
        "  quota Total Cluster Dedicated Regional vCPUs in eastus: 96 -> 0 vCPUs"
    )


def test_diff_ssh_opened_to_the_internet_is_a_new_mandatory_violation(pr: PullRequest) -> None:
    assert pr.text("dev-t4") == (
        "dev-t4: +0 ~1 -0, +0.00 USD/month busy, +0.00 idle\n"
        "  ~ gpu-vm-nsg [azure-native:network:NetworkSecurityGroup] update\n"
        '       securityRules: [] -> [{"access": "Allow", "destinationAddressPrefix": "*", '
        '"destinationPortRange": "22", '
        '"direction": "Inbound", "name": "allow-ssh-0", "priority": 100, "protocol": "Tcp", '
        '"sourceAddressPrefix": "0.0.0.0/0", "sourcePortRange": "*"}]\n'
        "  10 resources unchanged\n"
        f"  cost: busy {usd(T4_BUSY)} -> {usd(T4_BUSY)} USD/month (+0.00); "
        f"idle {usd(T4_IDLE)} -> {usd(T4_IDLE)} (+0.00)\n"
        "  new [mandatory] disallow-internet-ssh-rdp: gpu-vm-nsg: rule 'allow-ssh-0' allows SSH (22) from any internet "
        "address; allow only known ranges (e.g. 203.0.113.0/24) or reach the VMs through Azure Bastion or a VPN."
    )


# What every money figure of the diff says of its prices: the oldest price used and its source (aks-gpu's CPU system
# pool's, the catalog's Standard_D4s_v5 in eastus).
_OLDEST = catalog().get("Standard_D4s_v5").price("eastus")
assert _OLDEST is not None
_OLDEST_SOURCE = catalog().prices.sources[_OLDEST.source]
PRICES = (
    f"catalog list prices (each resource in its region: eastus; Linux; oldest price used: observed "
    f"{_OLDEST.observed_text}, {_OLDEST_SOURCE.description} ({_OLDEST_SOURCE.url}))"
)


def test_diff_verdict_totals_and_exit_code(pr: PullRequest) -> None:
    text = render_text(pr.report)
    assert text.endswith(
        f"total: {usd(TOTAL_BUSY, sign=True)} USD/month busy, {usd(TOTAL_IDLE, sign=True)} USD/month idle "
        f"({PRICES}, 730 h a month)\n"
        "FAILED: the change introduces problems: aks-gpu (1 unacknowledged GPU pool/cluster replacement); "
        "dev-t4 (1 new mandatory violation)."
    )
    assert pr.report.exit_code == 1
    document = render_json(pr.report)
    assert [(s["stack"], s["status"]) for s in document["stacks"]] == [
        ("aks-gpu", "changed"),
        ("aml-gpu", "removed"),
        ("batch-gpu", "unchanged"),
        ("dev-t4", "changed"),
        ("inference-t4", "changed"),
        ("team2-t4", "added"),
        ("training-a100", "changed"),
    ]
    assert document["total"] == {
        "busyMonthlyUsdDelta": round(TOTAL_BUSY, 2),
        "idleMonthlyUsdDelta": round(TOTAL_IDLE, 2),
        "prices": PRICES,
    }
    assert document["gpuReplacements"][0]["urn"] == AKS_POOL_URN
    assert document["gpuReplacements"][0]["changes"] == [
        {
            "path": "vmSize",
            "old": "Standard_NC4as_T4_v3",
            "new": "Standard_NC8as_T4_v3",
            "replaces": {
                "how": "provider",
                "source": "pulumi/pulumi-azure-native provider/pkg/gen/replacement.go (forceNewMap)",
            },
        }
    ]
    json.dumps(document)  # one JSON document, nothing that does not serialize


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_diff_bad_revision_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    repo = project_repo(tmp_path / "repo", ("inference-t4",))
    commit(repo)
    code, out, err = run(capsys, "diff", "no-such-branch", "--project", str(repo))
    assert (code, out) == (2, "")
    assert err == (
        f"gpu-stacks: error: BASE 'no-such-branch': no such revision in {repo}; allowed: a branch, tag or commit such "
        "as origin/main (in CI, check out with fetch-depth: 0 so the base branch is there)\n"
    )


def test_diff_project_missing_at_base_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text("before the project\n", encoding="utf-8")
    commit(repo)
    short = git(repo, "rev-parse", "--short=7", "HEAD").strip()
    shutil.copytree(
        project_repo(tmp_path / "project", ("inference-t4",)),
        repo / "infra",
        ignore=shutil.ignore_patterns(".git", ".venv"),
    )
    link_environment(repo / "infra")
    code, out, err = run(capsys, "diff", "HEAD", "--project", str(repo / "infra"))
    assert (code, out) == (2, "")
    assert err == (
        f"gpu-stacks: error: infra/Pulumi.yaml: not in BASE HEAD ({short}); the project does not exist there, "
        "so there is nothing to compare\n"
    )


def test_diff_project_that_does_not_plan_at_base_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    repo = project_repo(tmp_path / "repo", ("inference-t4",))
    stack = repo / "stacks" / "Pulumi.inference-t4.yaml"
    edit(stack, "vmSize: Standard_NC4as_T4_v3 ", "vmSize: Standard_NC6s_v3 ")
    commit(repo)
    short = git(repo, "rev-parse", "--short=7", "HEAD").strip()
    edit(stack, "vmSize: Standard_NC6s_v3 ", "vmSize: Standard_NC4as_T4_v3 ")  # the pull request fixes it
    code, out, err = run(capsys, "diff", "HEAD", "--project", str(repo), "-j", "1")
    assert (code, out) == (2, "")
    assert err == (
        f"gpu-stacks: error: the project does not plan at BASE HEAD ({short}): stacks/Pulumi.inference-t4.yaml: "
        "azure-gpu-stacks:vm.vmSize: 'Standard_NC6s_v3' was retired on 2025-09-30 and can no longer be deployed; "
        "allowed: a current size, e.g. Standard_NC40ads_H100_v5\n"
    )


def test_diff_retired_size_introduced_exits_2_naming_the_stack_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    repo = project_repo(tmp_path / "repo", ("inference-t4",))
    commit(repo)
    edit(repo / "stacks" / "Pulumi.inference-t4.yaml", "vmSize: Standard_NC4as_T4_v3 ", "vmSize: Standard_NC6s_v3 ")
    code, out, err = run(capsys, "diff", "HEAD", "--project", str(repo), "-j", "1")
    assert (code, out) == (2, "")
    assert err == (
        "gpu-stacks: error: stacks/Pulumi.inference-t4.yaml: azure-gpu-stacks:vm.vmSize: "
        "'Standard_NC6s_v3' was retired "
        "on 2025-09-30 and can no longer be deployed; allowed: a current size, e.g. Standard_NC40ads_H100_v5\n"
    )


def test_diff_markdown_draws_each_changed_stack_as_it_will_be(pr: PullRequest) -> None:
    from azure_gpu_stacks.engine.diff.markdown import render_markdown

    comment = render_markdown(pr.report)
    stacks = comment.split("<details><summary><code>")[1:]
    drawn = {block.split("</code>")[0]: "```mermaid\nflowchart LR" in block for block in stacks}

    # the reviewer sees the head revision's graph (resources, parents, cost per component) beside its changes;
    # a removed stack has nothing left to draw
    assert drawn == {
        "aks-gpu": True,
        "aml-gpu (stack removed)": False,
        "dev-t4": True,
        "inference-t4": True,
        "team2-t4 (new stack)": True,
        "training-a100": True,
    }
    a100 = next(block for block in stacks if block.startswith("training-a100"))
    assert "train-vmss" in a100.split("```mermaid")[1]


def test_diff_markdown_puts_the_verdict_gpu_warning_and_one_row_per_stack_first(pr: PullRequest) -> None:
    from azure_gpu_stacks.engine.diff.markdown import render_markdown

    comment = render_markdown(pr.report)
    top = comment.split("\n\n<details>")[0]
    short = pr.report.base.short
    assert top == (
        "<!-- gpu-stacks diff -->\n"
        "### gpu-stacks diff: 2 of 7 stacks introduce problems\n"
        "\n"
        f"Against `HEAD` ({short}), offline. Cost: **{usd(TOTAL_BUSY, sign=True)} USD/month busy**, "
        f"{usd(TOTAL_IDLE, sign=True)} USD/month idle "
        f"({PRICES}, 730 h a month).\n"
        "\n"
        "> [!WARNING]\n"
        "> **GPU pools and clusters replaced** (deleted, then created):\n"
        "> - `aks-gpu`: `aks-gpu-pool` (azure-native:containerservice:AgentPool): "
        "every node of the pool is drained and "
        "deleted; GPU pods are evicted and wait until the new pool's nodes are up; **not acknowledged**: "
        f"`--allow-replace '{AKS_POOL_URN}'` or `# gpu-stacks: allow-replace {AKS_POOL_URN}` in the stack file\n"
        "\n"
        "| Stack | Change | Busy USD/month | Idle USD/month | Problems |\n"
        "| --- | --- | ---: | ---: | --- |\n"
        f"| `aks-gpu` | +0 ~0 -0, replaces 1 | {usd(AKS_BUSY_AFTER - AKS_BUSY, sign=True)} | +0.00 "
        "| 1 unacknowledged GPU pool/cluster replacement |\n"
        f"| `aml-gpu (stack removed)` | +0 ~0 -13 | {usd(-AML_BUSY, sign=True)} | +0.00 | none |\n"
        "| `dev-t4` | +0 ~1 -0 | +0.00 | +0.00 | 1 new mandatory violation |\n"
        "| `inference-t4` | +0 ~1 -0 | +0.00 | +0.00 | none |\n"
        f"| `team2-t4 (new stack)` | +11 ~0 -0 | {usd(T4_BUSY, sign=True)} | {usd(T4_IDLE, sign=True)} | none |\n"
        f"| `training-a100` | +0 ~1 -0 | {usd(ND_3 - ND_2, sign=True)} | {usd(ND_3 - ND_2, sign=True)} | none |\n"
        "\n"
        "Unchanged (1): `batch-gpu`"
    )
    # six changed stacks, each folded; the five with a head revision also fold their drawing inside
    assert comment.count("<details>") == comment.count("</details>") == 6 + 5
    assert (
        f"<details><summary><code>training-a100</code>: +0 ~1 -0, {usd(ND_3 - ND_2, sign=True)} USD/month busy, "
        f"{usd(ND_3 - ND_2, sign=True)} idle</summary>\n"
        "\n"
        "| Action | Resource | Type | Property | Old → new | Note |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        "| update | `train-vmss` | azure-native:compute:VirtualMachineScaleSet | sku.capacity | 2 → 3 |  |\n"
        "\n"
        "7 resources unchanged.\n"
        "\n"
        f"Cost: busy {usd(ND_2)} → {usd(ND_3)} USD/month ({usd(ND_3 - ND_2, sign=True)}); "
        f"idle {usd(ND_2)} → {usd(ND_3)} ({usd(ND_3 - ND_2, sign=True)}).\n"
    ) in comment
    # Between them, the always-on advisory: new at 3 nodes, resolved at 2 (its message names the idle-day cost).
    assert (
        "| resolved: `warn-always-on-infiniband-cluster` | advisory | `train-vmss` | 'train-vmss' runs 2 x " in comment
    )
    assert (
        "| Quota family | Region | vCPUs before | after |\n"
        "| --- | --- | ---: | ---: |\n"
        "| standardNDASv4_A100Family | eastus | 192 | 288 |\n"
        "| cores | eastus | 192 | 288 |\n"
        "\n"
        "<details><summary>"  # the stack's drawing follows its tables
    ) in comment


def test_diff_cli_allow_replace_acknowledges_the_gpu_pool_and_exits_0(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    repo = project_repo(tmp_path / "repo", ("aks-gpu",))
    commit(repo)
    edit(repo / "stacks" / "Pulumi.aks-gpu.yaml", "vmSize: Standard_NC4as_T4_v3 ", "vmSize: Standard_NC8as_T4_v3 ")
    code, out, err = run(
        capsys, "diff", "HEAD", "--project", str(repo), "--format", "json", "-j", "1", "--allow-replace", AKS_POOL_URN
    )
    document = json.loads(out)
    assert (code, err, document["exitCode"]) == (0, "", 0)
    assert schema_errors("diff", document) == [] and document["formatVersion"] == 1
    [gpu] = document["gpuReplacements"]
    assert (gpu["stack"], gpu["name"], gpu["action"], gpu["gpuReplacement"]["acknowledged"]) == (
        "aks-gpu",
        "aks-gpu-pool",
        "replace",
        True,
    )
    assert document["stacks"][0]["problems"] == []


def test_diff_project_without_stacks_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    repo = project_repo(tmp_path / "repo", ())
    (repo / "stacks" / ".keep").write_text("", encoding="utf-8")
    commit(repo)
    code, out, err = run(capsys, "diff", "HEAD", "--project", str(repo))
    assert (code, out, err) == (
        2,
        "",
        "gpu-stacks: error: stacks/: no stack files to diff, at BASE or in the working tree\n",
    )
