"""Benchmark: a monorepo of 50 projects and 1,000 stacks checked whole, affected-only, from a warm cache,
and in 8 shards merged (issue 26). Ratios within one run; each check is a fresh process (spawn to exit),
its peak RSS from the kernel (`wait4`).

    python bench/fleet_bench.py [--projects 50] [--stacks 20] [--shards 8] [--jobs N] [--repeat 3]
    python bench/fleet_bench.py --generate-only DIR   # write the monorepo to DIR and stop

Each phase says on stderr when it starts (a 1,000-stack run takes half an hour on two cores), and each
result line is written as soon as it is measured.

Targets:
- affected-only after one stack file changed, cold cache <= 1.5x checking that one stack alone;
- a full run with a warm cache <= 0.1x the cold full run;
- the slowest of N=8 shards plus the merge <= 0.2x the unsharded run (shards run one after another
  here; each is reported), the merged report byte-identical to the unsharded one;
- the merge's peak memory flat in the number of stacks (shards of 1x, 4x and 16x the stacks);
- the cold run's CPU per stack within 1.0x the runtime floor of stacks of the same shapes (issue 41: the
  monorepo's stacks are the shipped program with fleet.py's variations, so a per-stack regression shows).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fleet import write_fleet
from floors import runtime_floor
from monorepo import stack_name, write_monorepo

GPU_STACKS = [sys.executable, "-m", "azure_gpu_stacks.engine"]
FLOOR_STACKS = 24  # stacks of fleet.py's shapes whose runtime floor each stack's cost is compared with


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_rss_mb: float
    code: int
    cpu_seconds: float  # user + system of the process and the children it waited for (workers, programs)


def timed(argv: list[str], cwd: Path, stdout: Path | None = None) -> Run:
    """One fresh process to completion: wall time, peak RSS, exit code; stdout to a file or discarded."""
    with open(stdout or os.devnull, "wb") as out:
        start = time.perf_counter()
        process = subprocess.Popen([*GPU_STACKS, *argv], cwd=cwd, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise RuntimeError(f"gpu-stacks {' '.join(argv)} exited {code}: {process.stderr.read().decode()}")  # type: ignore[union-attr]
    return Run(seconds, usage.ru_maxrss / 1024, code, usage.ru_utime + usage.ru_stime)


def best(runs: list[Run]) -> Run:
    """The fastest of repeated runs (a shared machine only ever adds time)."""
    return min(runs, key=lambda r: r.seconds)


def scaled_shards(shards: list[Path], factor: int, directory: Path) -> list[Path]:
    """The same shards holding `factor` times the stacks (each record repeated under new places: copy C of
    the stack at place P is at place C * total + P, in the same shard)."""
    directory.mkdir(parents=True, exist_ok=True)
    with shards[0].open() as first:
        total = json.loads(first.readline())["stacks"]
    out = []
    for path in shards:
        target = directory / path.name
        with path.open() as source, target.open("w") as sink:
            header = json.loads(source.readline())
            sink.write(json.dumps({**header, "stacks": total * factor}) + "\n")
            lines = source.readlines()
            for copy in range(factor):
                for line in lines:
                    item = json.loads(line)
                    sink.write(json.dumps({**item, "place": copy * total + item["place"]}) + "\n")
        out.append(target)
    return out


def phase(text: str) -> None:
    """Say on stderr that a phase starts, with the time: a long run shows where it is."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}...", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--projects", type=int, default=50)
    parser.add_argument("--stacks", type=int, default=20, help="stacks per project")
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--repeat", type=int, default=3, help="runs of the one-stack and affected checks (best)")
    parser.add_argument("--generate-only", type=Path, metavar="DIR", help="write the monorepo to DIR and stop")
    options = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each line as it is measured
    jobs = ["--jobs", str(options.jobs)]
    total = options.projects * options.stacks
    if options.generate_only is not None:
        phase(f"writing {total} stacks in {options.projects} projects")
        repo = write_monorepo(options.generate_only, options.projects, options.stacks, full=True)
        print(f"{repo}: {options.projects} projects, {sum(1 for _ in repo.rglob('Pulumi.*.yaml'))} stack files")
        return
    with tempfile.TemporaryDirectory(prefix="fleet-bench-") as temporary:
        work = Path(temporary)
        phase(f"writing {total} stacks in {options.projects} projects")
        repo = write_monorepo(work / "repo", options.projects, options.stacks, full=True)
        root = repo.name
        print(
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
            f"{len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, load {os.getloadavg()}"
        )
        print(f"monorepo: {options.projects} projects, {total} stacks (bench/monorepo.py, full program)")

        # The stack that changes: in the last project, at an odd place, so no other stack references it.
        last = options.projects - 1
        project_dir = next((repo / "teams").glob(f"team-{last:02d}"))
        stack = stack_name(last, 1)
        stack_id = f"teams/team-{last:02d}:{stack}"
        stack_file = next(project_dir.rglob(f"Pulumi.{stack}.yaml"))

        alone_argv = ["check", "--root", root, "--no-cache", *jobs, stack_id]

        cache = work / "cache"
        phase(f"full run, cold cache ({total} stacks)")
        cold = timed(
            ["check", "--root", root, "--cache-dir", str(cache), "--format", "json", *jobs], work, work / "cold.json"
        )
        print(
            f"full run, cold cache                   {cold.seconds:7.2f} s  {cold.peak_rss_mb:5.0f} MB  "
            f"cpu {cold.cpu_seconds:.2f} s"
        )
        # What each stack costs, against what its program costs under Pulumi's own mocks (floors.py) for stacks of
        # the same shapes (fleet.py's, which the monorepo's full program plans): a per-stack regression shows here.
        phase("runtime floor of the same stack shapes")
        floor = runtime_floor(write_fleet(FLOOR_STACKS, work / "floor-fleet"))
        per_stack, floor_per_stack = cold.cpu_seconds / total, floor.seconds / FLOOR_STACKS
        print(
            f"cold run, cpu per stack                {1000 * per_stack:7.0f} ms  vs runtime floor "
            f"{1000 * floor_per_stack:.0f} ms a stack ({FLOOR_STACKS} stacks of the same shapes) = "
            f"{per_stack / floor_per_stack:.2f}x (issue 41: each stack within 1.0x its runtime floor)"
        )
        phase("full run, warm cache")
        warm = timed(
            ["check", "--root", root, "--cache-dir", str(cache), "--format", "json", *jobs], work, work / "warm.json"
        )
        same = (work / "cold.json").read_bytes() == (work / "warm.json").read_bytes()
        print(
            f"full run, warm cache                   {warm.seconds:7.2f} s  {warm.peak_rss_mb:5.0f} MB  "
            f"{warm.seconds / cold.seconds:.3f}x cold (target <= 0.1x; "
            f"cpu {warm.cpu_seconds / cold.cpu_seconds:.3f}x)  "
            f"report {'identical' if same else 'DIFFERS'}"
        )

        stack_file.write_text(stack_file.read_text() + "# one change\n")
        alone_runs, affected_runs = [], []
        for attempt in range(options.repeat):  # alternating, each affected run with an empty (cold) cache
            phase(f"one stack alone and affected-only, round {attempt + 1} of {options.repeat}")
            alone_runs.append(timed(alone_argv, work))
            affected_argv = [
                "check",
                "--root",
                root,
                "--cache-dir",
                str(work / f"empty-{attempt}"),
                "--affected",
                "HEAD",
            ]
            affected_runs.append(timed([*affected_argv, "--format", "json", *jobs], work, work / "affected.json"))
        alone, affected = best(alone_runs), best(affected_runs)
        print(
            f"one stack alone (--no-cache)           {alone.seconds:7.2f} s  {alone.peak_rss_mb:5.0f} MB  "
            f"cpu {alone.cpu_seconds:.2f} s  (best of {options.repeat})"
        )
        document = json.loads((work / "affected.json").read_text())
        checked = [c["stack"] for c in document["affected"]["checked"]]
        print(
            f"affected-only, one stack file changed  {affected.seconds:7.2f} s  {affected.peak_rss_mb:5.0f} MB  "
            f"{affected.seconds / alone.seconds:.2f}x one stack alone (target <= 1.5x; "
            f"cpu {affected.cpu_seconds:.2f} s, {affected.cpu_seconds / alone.cpu_seconds:.2f}x)  checked {checked}, "
            f"{len(document['affected']['unchanged'])} unchanged"
        )
        subprocess.run(["git", "-C", str(repo), "checkout", "-q", "--", "."], check=True)

        shards = []
        shard_runs = []
        for index in range(1, options.shards + 1):
            phase(f"shard {index}/{options.shards}")
            path = work / f"shard-{index}.jsonl"
            run = timed(
                ["check", "--root", root, "--no-cache", "--shard", f"{index}/{options.shards}", *jobs], work, path
            )
            shards.append(path)
            shard_runs.append(run)
        merges, helps = [], []
        for attempt in range(options.repeat):  # alternating: the merge against the CLI's own start
            phase(f"merge and gpu-stacks --help, round {attempt + 1} of {options.repeat}")
            merges.append(timed(["merge", *map(str, shards), "--format", "json"], work, work / "merged.json"))
            helps.append(timed(["--help"], work))
        merge, start = best(merges), best(helps)
        identical = (work / "merged.json").read_bytes() == (work / "cold.json").read_bytes()
        slowest = max(shard_runs, key=lambda r: r.seconds)
        print(
            "shards (--no-cache, one after another): "
            + ", ".join(
                f"{r.seconds:.2f} s (cpu {r.cpu_seconds:.2f}, {len(p.read_text().splitlines()) - 1} stacks)"
                for r, p in zip(shard_runs, shards)
            )
        )
        print(
            f"merge (json)                           {merge.seconds:7.2f} s  {merge.peak_rss_mb:5.0f} MB  "
            f"cpu {merge.cpu_seconds:.2f} s  (best of {options.repeat})"
        )
        print(
            f"gpu-stacks --help                      {start.seconds:7.2f} s  {start.peak_rss_mb:5.0f} MB  "
            f"cpu {start.cpu_seconds:.2f} s  (merge {merge.seconds / start.seconds:.2f}x)"
        )
        print(
            f"slowest shard + merge                  {slowest.seconds + merge.seconds:7.2f} s  "
            f"{(slowest.seconds + merge.seconds) / cold.seconds:.3f}x the unsharded cold run (target <= 0.2x; "
            f"cpu {(slowest.cpu_seconds + merge.cpu_seconds) / cold.cpu_seconds:.3f}x)  "
            f"merged report {'identical' if identical else 'DIFFERS'}"
        )

        for fmt in ("json", "markdown", "sarif"):
            phase(f"merge memory, {fmt}")
            figures = []
            for factor in (1, 4, 16):
                scaled = scaled_shards(shards, factor, work / f"x{factor}")
                figures.append((factor * total, timed(["merge", *map(str, scaled), "--format", fmt], work)))
            print(
                f"merge memory ({fmt:8}): "
                + ", ".join(f"{n} stacks {r.peak_rss_mb:.0f} MB" for n, r in figures)
                + f"  (+{figures[-1][1].peak_rss_mb - figures[0][1].peak_rss_mb:.0f} MB for "
                f"{figures[-1][0] - figures[0][0]} more)"
            )


if __name__ == "__main__":
    main()
