"""The CrossGuard policy pack of azure-gpu-stacks.

`pulumi preview --policy-pack policies` runs `__main__.py`, which builds the `PolicyPack` from
`azure_gpu_stacks.policies.registry`. Each policy lives in its own module; `preflight` runs the same policies offline.
Importing this package does no I/O and starts nothing.
"""
