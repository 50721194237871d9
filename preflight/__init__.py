"""The offline engine and the `gpu-stacks` CLI: plan, check and report stacks without Azure."""
