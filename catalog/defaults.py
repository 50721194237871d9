"""The sizes the components use when a stack or a caller names none: one home for each default.

Docstrings and docs that name a default read it from here (`components.docs`), so a change here is
the whole change.
"""

# The cheapest current NVIDIA GPU size (1x T4): development first; a stack that needs more says so.
DEFAULT_GPU_VM_SIZE = "Standard_NC4as_T4_v3"
# The AKS system pool's size: cluster services need no GPU.
DEFAULT_CPU_VM_SIZE = "Standard_D4s_v5"
# InfiniBand training clusters: 8x A100 40 GB with HDR InfiniBand
# (https://learn.microsoft.com/azure/virtual-machines/setup-infiniband, observed 2026-11-22).
DEFAULT_IB_VM_SIZE = "Standard_ND96asr_v4"
