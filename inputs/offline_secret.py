"""What an offline run gives a program in place of each `secure:` config value it cannot decrypt.

It is a well-formed OpenSSH public key line, so that programs validating key formats accept it; it opens
nothing. It is not the user's value: the fake leaves the value rules of a resource holding it to Azure, as for
a value unknown during a preview (`holds_offline_secret`).
"""

OFFLINE_SECRET = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9mZmxpbmUtcGxhY2Vob2xkZXItbm90LWEta2V5 offline-placeholder"


def holds_offline_secret(value: object) -> bool:
    """Whether the placeholder is anywhere in `value` (as a whole string or inside one, a connection string)."""
    if isinstance(value, str):
        return OFFLINE_SECRET in value
    if isinstance(value, dict):
        return any(holds_offline_secret(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(holds_offline_secret(v) for v in value)
    return False
