"""Azure VM sizes the toolkit knows: specs, GPUs, InfiniBand, quota family, prices, lifecycle."""

from azure_gpu_stacks.components.catalog.model import (
    Catalog,
    Lifecycle,
    UnknownVmSize,
    VmSize,
    catalog,
    load_catalog,
    normalize_region,
    normalize_size_name,
)

__all__ = [
    "Catalog",
    "Lifecycle",
    "UnknownVmSize",
    "VmSize",
    "catalog",
    "load_catalog",
    "normalize_region",
    "normalize_size_name",
]
