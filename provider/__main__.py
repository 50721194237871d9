"""Entry point of the component package: the Pulumi CLI runs this file as the plugin.

It serves the components of the checkout it sits in: the repository root goes first on the import
path, so `components` is this tag's code even if another version is installed in the plugin's
virtual environment (which only supplies the dependencies, from requirements.txt here).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPOSITORY_ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    if str(REPOSITORY_ROOT) not in sys.path:
        sys.path.insert(0, str(REPOSITORY_ROOT))
    from components.package import host

    host()


if __name__ == "__main__":
    main()
