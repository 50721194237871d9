"""Azure VM sizes the toolkit knows: specs, GPUs, InfiniBand, quota family, prices, lifecycle."""

from azure_gpu_stacks.catalog import clock
from azure_gpu_stacks.catalog.model import (
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
from azure_gpu_stacks.catalog.verdict import ANNOUNCED, SizeVerdict, Standing, size_verdict

__all__ = [
    "ANNOUNCED",
    "SizeVerdict",
    "Standing",
    "size_verdict",
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
