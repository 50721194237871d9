"""The one place the toolkit reaches behind pulumi's and pulumi-policy's public APIs: `internals.py`."""
