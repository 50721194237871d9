"""Many Pulumi projects at once: `gpu-stacks check --root DIR` and `gpu-stacks merge` (issue 26).

`discover` finds the projects and their stacks; `imports` reads each program's import graph without
running it; `affected` picks the stacks a git change can alter, with the reasons; `cache` keys each
stack's result by everything that can change it; `records` turns a plan into the parts of every
report; `shards` writes and reads a shard's JSON Lines; `render` streams one report out of records,
the same bytes whether they come from one run, a cache or merged shards; `check` wires them together.
"""
