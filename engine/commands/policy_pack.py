"""`gpu-stacks policy-pack path|export DIR`: the installed policy pack, or a copy of it to publish."""

from __future__ import annotations

import argparse
from pathlib import Path

from .said import Said

NAME = "policy-pack"
HELP = "the installed policy pack: its directory, or a copy to publish"
DESCRIPTION = None


def add_arguments(p: argparse.ArgumentParser) -> None:
    actions = p.add_subparsers(dest="pack_action", required=True, metavar="ACTION")
    actions.add_parser(
        "path", help='print the pack\'s directory: pulumi preview --policy-pack "$(gpu-stacks policy-pack path)"'
    )
    export = actions.add_parser("export", help="write the pack into DIR, ready for `pulumi policy publish`")
    export.add_argument("dir", type=Path, metavar="DIR", help="a new or empty directory")
    export.add_argument(
        "--requirement",
        metavar="SPEC",
        help="the distribution line of the copy's requirements.txt (default: azure-gpu-stacks==<this version>), "
        "e.g. 'azure-gpu-stacks @ git+https://github.com/<org>/azure-gpu-stacks@v<version>' (<org>: the GitHub "
        "owner of the repository, docs/releasing.md)",
    )


def run(args: argparse.Namespace) -> Said:
    from ..run import policy_pack

    said = Said()
    if args.pack_action == "path":
        said.text(str(policy_pack.ready_pack_dir()))
    else:
        said.text(str(policy_pack.export(args.dir, args.requirement)))
    return said
