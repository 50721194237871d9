"""`python -m azure_gpu_stacks.engine` is `gpu-stacks`."""

from .cli import run

run()
