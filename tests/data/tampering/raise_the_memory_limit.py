import resource

from retired_vm import retired_vm_without_budget

soft, hard = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
try:
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
except (ValueError, OSError):
    pass  # refused: the hard limit is the engine's
hoard = bytearray(1536 * 1024 * 1024)
retired_vm_without_budget()
