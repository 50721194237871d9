"""`python -m azure_gpu_stacks.engine` is `gpu-stacks`."""

from azure_gpu_stacks.engine.cli import run

run()
