"""Benchmark: a newcomer's first command, `make plan` in a fresh clone, against a plain pip install.

Both sides start from a fresh `git clone` of this repository's HEAD and from EMPTY package caches
(a fresh machine has none), so both download the same wheels from the package registry:

- A, the README's set-up: `make plan`, which installs the pinned uv into .tools/ with pip, creates
  .venv from uv.lock (`uv sync --locked`) and plans the inference-t4 stack offline;
- B, the baseline: `python3 -m venv .venv` and `pip install -r` the same pinned requirements
  (exported from uv.lock by `uv export`), then the same `gpu-stacks plan inference-t4`.

The pairs run alternately (A B A B ...) so a drift in the machine or the network hits both; the
figure to quote is the median of the per-pair ratios A/B (target <= 0.30).

    python bench/setup_bench.py [--pairs 2] [--warm]

`--warm` keeps one cache per side across runs instead (a returning developer or a CI cache).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STACK = "inference-t4"


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Seconds `argv` took; stops the benchmark with its output if it fails."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(
            f"{' '.join(argv)} failed in {cwd} (exit {done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )
    return took


def fresh_clone(into: Path) -> Path:
    clone = into / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(clone)], check=True)
    return clone


def readme_setup(workdir: Path, caches: Path) -> float:
    """A: `make plan` in a fresh clone."""
    clone = fresh_clone(workdir)
    env = {**os.environ, "UV_CACHE_DIR": str(caches / "uv"), "PIP_CACHE_DIR": str(caches / "pip-a")}
    return run(["make", "plan", f"STACK={STACK}"], clone, env)


def pip_setup(workdir: Path, caches: Path, requirements: Path) -> float:
    """B: venv + `pip install -r` of the same pinned requirements, then the same plan."""
    clone = fresh_clone(workdir)
    env = {**os.environ, "PIP_CACHE_DIR": str(caches / "pip-b")}
    took = run([sys.executable, "-m", "venv", ".venv"], clone, env)
    took += run([".venv/bin/python", "-m", "pip", "install", "--quiet", "-r", str(requirements), "-e", "."], clone, env)
    return took + run([".venv/bin/gpu-stacks", "plan", STACK], clone, env)


def exported_requirements(into: Path) -> Path:
    """uv.lock's pins (with the dev group) as a requirements file, the project itself left out."""
    uv = REPO / ".tools" / "bin" / "uv"
    if not uv.exists():
        sys.exit("run `make .tools/bin/uv` first (the benchmark exports the lock's pins with uv)")
    target = into / "requirements.txt"
    subprocess.run(
        [
            str(uv),
            "export",
            "--locked",
            "--no-hashes",
            "--no-emit-project",
            "--format",
            "requirements-txt",
            "-o",
            str(target),
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=2, help="A/B pairs to run (default 2)")
    parser.add_argument("--warm", action="store_true", help="keep each side's cache between runs")
    args = parser.parse_args()

    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, caches {'warm' if args.warm else 'empty'} each run",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="setup-bench-") as tmp:
        root = Path(tmp)
        requirements = exported_requirements(root)
        kept = root / "kept-caches"
        ratios = []
        for pair in range(1, args.pairs + 1):
            times = []
            for side in (readme_setup, pip_setup):
                workdir = root / f"{side.__name__}-{pair}"
                workdir.mkdir()
                caches = kept if args.warm else workdir / "caches"
                times.append(side(workdir, caches) if side is readme_setup else side(workdir, caches, requirements))
                shutil.rmtree(workdir / "clone", ignore_errors=True)
            ratios.append(times[0] / times[1])
            print(
                f"pair {pair}: make plan {times[0]:6.1f} s   pip install + plan {times[1]:6.1f} s   ratio "
                f"{ratios[-1]:.2f}x",
                flush=True,
            )
        print(f"median ratio make plan / pip install: {statistics.median(ratios):.2f}x (target <= 0.30x)")


if __name__ == "__main__":
    main()
