"""Azure VM sizes the toolkit knows: specs, GPUs, InfiniBand, quota family, prices, lifecycle."""

from azure_gpu_stacks.catalog import clock
from azure_gpu_stacks.catalog.model import (
    ANNOUNCED,
    Catalog,
    Lifecycle,
    Status,
    UnconfirmedSize,
    UnknownVmSize,
    VmSize,
    catalog,
    load_catalog,
    normalize_region,
    normalize_size_name,
)

__all__ = [
    "ANNOUNCED",
    "Catalog",
    "Lifecycle",
    "Status",
    "UnconfirmedSize",
    "UnknownVmSize",
    "VmSize",
    "catalog",
    "clock",
    "load_catalog",
    "normalize_region",
    "normalize_size_name",
]
