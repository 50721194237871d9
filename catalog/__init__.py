"""Azure VM sizes the toolkit knows: specs, GPUs, InfiniBand, quota family, prices, lifecycle."""

from . import clock
from .model import (
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
from .verdict import ANNOUNCED, SizeVerdict, Standing, size_verdict

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
