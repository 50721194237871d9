"""The offline engine and the `gpu-stacks` CLI: plan, check and report stacks without Azure.

Rooms, one job each: `run` (programs and the policy pack), `estimate` (cost and quota), `report`
(formats), `diff` (comparing revisions); `cli` wires the commands."""
