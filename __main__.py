"""Entry point Pulumi runs for every stack: `pulumi up --stack inference-t4`.

Wiring only; the program lives in `components.program` so that it can be imported and tested.
"""

from components.program import main

main()
