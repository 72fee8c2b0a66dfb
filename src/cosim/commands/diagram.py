"""The ``diagram`` verb: a picture of a model or an SSP system as SVG, DOT or Mermaid."""
from __future__ import annotations

import argparse

from cosim.commands.lazy import lazy_import

api = lazy_import("cosim.api")


def register(subparsers: argparse._SubParsersAction) -> None:
    diagram = subparsers.add_parser(
        "diagram", help="draw a model or an SSP system (SVG, Graphviz DOT, Mermaid)",
        description="Draw a picture: 'schematic' (a class: components and connections, at "
                    "their Placement annotations when given), 'incidence' (its flat model: "
                    "which equation reads which variable), 'blocks' (its causalized system in "
                    "BLT order, loops marked) or 'system' (an SSP: components, connectors, "
                    "connections with units and transformations). The format follows the "
                    "output's suffix: .svg, .dot or .mmd.")
    diagram.add_argument("target", help="a .mo or .py model, or an .ssp, SSP folder or .ssd")
    diagram.add_argument("--kind", choices=("schematic", "incidence", "blocks", "system"),
                         help="the picture (default: system for an SSP, schematic for a model)")
    diagram.add_argument("-o", "--output", required=True, metavar="OUT.svg|.dot|.mmd")
    diagram.add_argument("--model", help="the class of a .mo or .py file (default: its last)")
    diagram.add_argument("--lib", action="append", default=[], metavar="DIR",
                         help="library location (repeatable; MODELICAPATH is searched after)")
    diagram.add_argument("--variant", help="variant .ssd beside SystemStructure.ssd")
    diagram.set_defaults(handler=_diagram)


def _diagram(args: argparse.Namespace) -> int:
    print(api.diagram(args.target, kind=args.kind, model=args.model, libs=args.lib,
                      variant=args.variant, output=args.output))
    return 0
