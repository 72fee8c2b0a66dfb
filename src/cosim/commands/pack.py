"""The ``pack`` verb: an SSP folder with Modelica components -> a self-contained ``.ssp``."""
from __future__ import annotations

import argparse

from cosim.commands.lazy import lazy_import

api = lazy_import("cosim.api")


def register(subparsers: argparse._SubParsersAction) -> None:
    pack = subparsers.add_parser(
        "pack", help="compile the Modelica components and write a self-contained .ssp",
        description="Compile every text/x-modelica component into an FMU (through the cache) "
                    "and write an .ssp whose SSDs name those FMUs (resources/<component>.fmu); "
                    "parameter files and other resources are copied as they are.")
    pack.add_argument("target", help="an SSP folder, its SystemStructure.ssd, or an .ssp")
    pack.add_argument("-o", "--output", required=True, metavar="NAME.ssp",
                      help="the archive to write")
    pack.set_defaults(handler=_pack)


def _pack(args: argparse.Namespace) -> int:
    print(api.pack(args.target, args.output))
    return 0
