"""Stand-in for pulumi-tls (see ../README.md)."""

from provider_stand_in import resource_class

PrivateKey = resource_class(
    "tls:index/privateKey:PrivateKey",
    {"algorithm": "algorithm", "rsa_bits": "rsaBits", "ecdsa_curve": "ecdsaCurve"},
    {
        "public_key_openssh": "publicKeyOpenssh",
        "public_key_pem": "publicKeyPem",
        "private_key_pem": "privateKeyPem",
        "public_key_fingerprint_sha256": "publicKeyFingerprintSha256",
    },
)
