"""The repository root is the `azure_gpu_stacks` import package.

Each room folder (`catalog/`, `components/`, `engine/`, ...) installs as `azure_gpu_stacks.<room>`
(pyproject.toml, `[tool.setuptools.package-dir]`), and the rooms import each other relatively
(`from ..catalog.verdict import size_verdict`). This file marks the root as the package those
imports climb to, so any tool that resolves imports from the tree (structure drawings, import
contracts) sees the doors between rooms. Nothing is defined here and nothing imports it: the
installed distribution is a namespace package, and Pulumi runs `__main__.py` beside it as a program.
"""
