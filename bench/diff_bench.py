"""Benchmark: `gpu-stacks diff BASE` of the shipped stacks against `gpu-stacks check` of them, in one run.

The shipped project (Pulumi.yaml, __main__.py, stacks/) is committed to a temporary git repository
as BASE, and the working tree gets one edit (the AKS GPU pool's size), as a pull request would. Then
`check` and `diff HEAD` of that project run alternately, each a fresh process timed from spawn to
exit (bench/floors.py `measure`), and the best of each is compared. `diff` plans every stack twice
(at BASE and in the working tree) in one process, so it pays the import of the SDKs once.

    python bench/diff_bench.py [--repeat 3] [--jobs N]

Target (issue 18): diff <= 2.2x check, both with the same --jobs.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import REPO, Measured, import_floor, load_line, measure

TARGET = 2.2


def pull_request(root: Path) -> Path:
    """The shipped project committed as BASE, with one uncommitted edit."""
    project = root / "repo"
    project.mkdir()
    for name in ("Pulumi.yaml", "__main__.py"):
        shutil.copy(REPO / name, project / name)
    shutil.copytree(REPO / "stacks", project / "stacks")
    (project / ".venv").symlink_to(sys.prefix)  # the environment Pulumi.yaml names (untracked): this one
    git = ["git", "-C", str(project), "-c", "user.email=bench@example.com", "-c", "user.name=bench"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], check=True)
    stack = project / "stacks" / "Pulumi.aks-gpu.yaml"
    stack.write_text(stack.read_text().replace("Standard_NC4as_T4_v3 ", "Standard_NC8as_T4_v3 ", 1))
    return project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (the best is kept)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    print(load_line("before"))
    imports = import_floor(args.repeat)
    with tempfile.TemporaryDirectory(prefix="diff-bench-") as tmp:
        project = pull_request(Path(tmp))
        cli = [sys.executable, "-m", "azure_gpu_stacks.engine"]
        options = ["--project", str(project), "--jobs", str(args.jobs)]
        check_cmd = [*cli, "check", *options]
        diff_cmd = [*cli, "diff", "HEAD", *options]
        checks: list[Measured] = []
        diffs: list[Measured] = []
        for _ in range(args.repeat):  # alternate, so that load on the machine hits both alike
            checks.append(measure(check_cmd, project))
            diffs.append(measure(diff_cmd, project))
    check = min(checks, key=lambda m: m.seconds)
    diff = min(diffs, key=lambda m: m.seconds)
    ratio = diff.seconds / check.seconds
    print(f"import floor                  {imports.seconds:7.2f} s  {imports.peak_rss_mb:6.0f} MB")
    print(f"check shipped (--jobs {args.jobs})      {check.seconds:7.2f} s  {check.peak_rss_mb:6.0f} MB  (4 plans)")
    print(
        f"diff HEAD shipped (--jobs {args.jobs})  {diff.seconds:7.2f} s  {diff.peak_rss_mb:6.0f} MB  (8 plans, "
        "one import)"
    )
    print(
        f"diff / check                  {ratio:7.2f}x  (target <= {TARGET}x)  {'met' if ratio <= TARGET else 'MISSED'}"
    )
    print(load_line("after"))


if __name__ == "__main__":
    main()
