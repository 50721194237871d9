import os
import socket

from retired_vm import retired_vm_without_budget

# The program's only way to its engine is the connection it was given: it writes garbage on every Unix socket
# it holds, then registers its VM.
for fd in range(3, 256):
    try:
        held = socket.socket(fileno=os.dup(fd))
    except OSError:
        continue
    with held:
        if held.family == socket.AF_UNIX:
            for garbage in (
                b"\x00" * 64,
                b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\xff" * 4096,
                b"GET / HTTP/1.1\r\n\r\n",
            ):
                held.sendall(garbage)

retired_vm_without_budget()
