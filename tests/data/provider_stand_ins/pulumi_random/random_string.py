"""The real package's per-resource module (`from pulumi_random import random_string`), as the stand-in."""

from pulumi_random import RandomString

__all__ = ["RandomString"]
