"""Entry point Pulumi runs for every stack: `pulumi up --stack inference-t4`.

Wiring only; the program lives in `azure_gpu_stacks.stack.program` so that it can be imported and tested.
"""

from azure_gpu_stacks.stack.program import main

main()
