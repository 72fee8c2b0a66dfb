"""The ``plot`` verb: a result file -> a PNG (or PDF, SVG) of its signals over time."""
from __future__ import annotations

import argparse

from cosim.commands.lazy import lazy_import

api = lazy_import("cosim.api")


def register(subparsers: argparse._SubParsersAction) -> None:
    plot = subparsers.add_parser(
        "plot", help="plot a result file (.csv or .mat) over time",
        description="Plot the signals of a result file over time, one axis per unit.")
    plot.add_argument("results", help="a result file of cosim run (.csv or .mat)")
    plot.add_argument("--signals", metavar="A.Y,B.X",
                      help="comma-separated columns to plot (default: all)")
    plot.add_argument("-o", "--output", required=True, metavar="OUT.png",
                      help="the image to write (.png, .pdf or .svg)")
    plot.set_defaults(handler=_plot)


def signal_list(text: str | None) -> tuple[str, ...]:
    """The names of a ``--signals a.y,b.x`` flag (empty: all)."""
    return tuple(s.strip() for s in (text or "").split(",") if s.strip())


def _plot(args: argparse.Namespace) -> int:
    print(api.plot(args.results, args.output, signals=signal_list(args.signals)))
    return 0
