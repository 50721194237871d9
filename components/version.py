"""The one version of azure-gpu-stacks.

The Python package (pyproject.toml reads this file: `dynamic = ["version"]`), the Pulumi component
package (`provider/__main__.py` hosts the components under it) and the policy pack
(`policies/PulumiPolicy.yaml`, and `policies/requirements.txt`, which pins this distribution; the
tests check both equal) all carry this version. Release: docs/releasing.md.
"""

from __future__ import annotations

# A plain literal: setuptools reads it without importing the package (no pulumi at build time).
__version__ = "0.2.0"
