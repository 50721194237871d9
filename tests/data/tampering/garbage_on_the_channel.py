import os
import socket

import pulumi
from retired_vm import retired_vm_without_budget

GARBAGE = (b"\x00" * 64, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\xff" * 4096, b"GET / HTTP/1.1\r\n\r\n")

target = getattr(pulumi.runtime.settings.get_monitor().RegisterResource, "_target", None)
if target is not None:  # a gRPC channel (a program executed under its project's interpreter): garbage to its address
    for garbage in GARBAGE:
        with socket.socket(socket.AF_UNIX) as raw:
            raw.connect(target.decode().removeprefix("unix:"))
            raw.sendall(garbage)
else:  # a forked program's one connection to its engine, a socket pair: garbage on every Unix socket it holds
    for fd in range(3, 256):
        try:
            held = socket.socket(fileno=os.dup(fd))
        except OSError:
            continue
        with held:
            if held.family == socket.AF_UNIX:
                for garbage in GARBAGE:
                    held.sendall(garbage)

retired_vm_without_budget()
