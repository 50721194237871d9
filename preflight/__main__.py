"""`python -m azure_gpu_stacks.preflight` is `gpu-stacks`."""

from azure_gpu_stacks.preflight.cli import run

run()
