"""Benchmark: what Pulumi's project and stack rules (issue 12) cost `gpu-stacks check` of the shipped stacks.

Both variants run in this one invocation, as fresh processes, alternating so that other work on the
machine hits both alike; the best of each is kept. "Without" is the same CLI with the new rules
switched off in-process (no project-config validation, namespace or stack-name checks, PyYAML's own
YAML resolution and last-key-wins instead of the CLI's, no forgetting of program modules, no
StackReference check).

    python bench/engine_rules_bench.py [--repeat 5]

Target (issue 12): with / without <= 1.05.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import load_line, machine_line, measure

CHECK = ["check", "--jobs", "1"]


def without_rules() -> int:
    """The CLI with issue 12's rules replaced by what ran before them."""
    import yaml
    from azure_gpu_stacks.engine import cli
    from azure_gpu_stacks.engine.run import plan, project, runtime
    from azure_gpu_stacks.inputs import pulumi_yaml

    pulumi_yaml.PulumiYamlLoader.resolve = yaml.SafeLoader.resolve  # type: ignore[method-assign]
    pulumi_yaml.PulumiYamlLoader.construct_mapping = yaml.SafeLoader.construct_mapping  # type: ignore[method-assign]
    project.apply_project_config = lambda stack, name, declarations, values, label: values  # type: ignore[assignment]
    project.check_namespace = lambda *args: None  # type: ignore[assignment]
    project.stack_name_problem = lambda name: None  # type: ignore[assignment]
    runtime._forget_program_modules = lambda loaded, root: None  # type: ignore[assignment]
    plan.StackReferences.check = lambda self: None  # type: ignore[method-assign]
    return cli.main(CHECK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(machine_line())
    print(load_line("before"))
    with_rules = [sys.executable, "-m", "azure_gpu_stacks.engine", *CHECK]
    without = [sys.executable, __file__, "--inner-without-rules"]
    timed: dict[str, list[float]] = {"with": [], "without": []}
    for _ in range(args.repeat):
        timed["with"].append(measure(with_rules).seconds)
        timed["without"].append(measure(without).seconds)
    best_with, best_without = min(timed["with"]), min(timed["without"])
    print(f"check shipped, new rules     {best_with:6.2f} s  (best of {args.repeat})")
    print(f"check shipped, without them  {best_without:6.2f} s  (best of {args.repeat})")
    print(f"ratio                        {best_with / best_without:6.3f}   target <= 1.05")


if __name__ == "__main__":
    if sys.argv[1:] == ["--inner-without-rules"]:
        sys.exit(without_rules())
    main()
