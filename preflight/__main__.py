"""`python -m azure_gpu_stacks.preflight` is `gpu-stacks`."""

import sys

from azure_gpu_stacks.preflight.cli import main

sys.exit(main())
