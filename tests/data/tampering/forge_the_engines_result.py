import os
import pickle
import stat
import struct

from azure_gpu_stacks.engine.errors import InputError
from retired_vm import retired_vm_without_budget

# What an engine process sends its caller: one length-prefixed pickle (engine.run.children). Written on every pipe the
# program holds, a forked program that inherited the engine's end would have its own words taken as the plan's.
BODY = pickle.dumps(("raised", InputError("FORGED: the program wrote the engine's answer")))
FRAME = struct.pack("!Q", len(BODY)) + BODY

for fd in range(3, 256):
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            os.write(fd, FRAME)
    except OSError:
        continue

retired_vm_without_budget()
