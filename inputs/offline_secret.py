"""What an offline run gives a program in place of each `secure:` config value it cannot decrypt.

It is a well-formed OpenSSH public key line, so that programs validating key formats accept it; it opens
nothing. It is not the user's value: the fake judges no rule on it (a secret's real value is unknown offline,
as Azure's answer to it is).
"""

OFFLINE_SECRET = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9mZmxpbmUtcGxhY2Vob2xkZXItbm90LWEta2V5 offline-placeholder"
