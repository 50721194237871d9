"""`python -m preflight` is `gpu-stacks`."""

import sys

from preflight.cli import main

sys.exit(main())
