"""Entry point of the component package: the Pulumi CLI runs this file as the plugin.

It serves the components of the installed `azure-gpu-stacks` distribution, which the plugin's
virtual environment gets from requirements.txt here.
"""

from __future__ import annotations


def main() -> None:
    from azure_gpu_stacks.components.package import host

    host()


if __name__ == "__main__":
    main()
