import socket

import pulumi
from retired_vm import retired_vm_without_budget

monitor = pulumi.runtime.settings.get_monitor()
address = monitor.RegisterResource._target.decode().removeprefix("unix:")

for garbage in (b"\x00" * 64, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\xff" * 4096, b"GET / HTTP/1.1\r\n\r\n"):
    with socket.socket(socket.AF_UNIX) as raw:
        raw.connect(address)
        raw.sendall(garbage)

retired_vm_without_budget()
