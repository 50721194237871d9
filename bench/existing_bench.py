"""`--existing` files of many resource groups, each in its own subscription (a tenant-wide `az group
list` per subscription, joined): reading and adopting them must grow linearly. Prints the time per
resource at 3,000 and at 30,000 groups and their ratio (target <= 1.5; a quadratic path gives ~10).

    .venv/bin/python bench/existing_bench.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from azure_gpu_stacks.engine.run.plan import read_existing
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.existing import adopt


def groups(count: int) -> list[dict[str, str]]:
    return [
        {
            "id": f"/subscriptions/{i:08d}-0000-0000-0000-000000000000/resourceGroups/rg{i}",
            "name": f"rg{i}",
            "type": "Microsoft.Resources/resourceGroups",
            "location": "eastus",
        }
        for i in range(count)
    ]


def per_resource(path: Path, count: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        adopt(FakeArm(default_location="eastus"), read_existing(path))
        best = min(best, time.perf_counter() - start)
    return best / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures = {}
        for count in (3_000, 30_000):
            path = Path(tmp) / f"groups-{count}.json"
            path.write_text(json.dumps(groups(count)))
            figures[count] = per_resource(path, count, args.repeat)
            print(f"{count:>6,} groups: {figures[count] * 1e6:.1f} us per group")
    print(f"ratio 30,000 / 3,000 per group: {figures[30_000] / figures[3_000]:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
