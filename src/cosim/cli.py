"""The ``cosim`` command: argument parsing, error reporting and exit codes only.

Exit codes: 0 success, 1 an error in the user's input or a failed run, 2 usage error.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from compiler.errors import CompilerError
from cosim.commands import COMMAND_MODULES
from cosim.errors import CosimError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cosim",
        description="Compile Modelica to FMI 3.0 FMUs and run SSP co-simulations.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--verbose", action="store_true",
                        help="errors in full: every variable and equation they concern (by "
                             "default the first few and how many more)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except (CompilerError, CosimError) as error:
        if args.debug:
            raise
        where = f"{error.location}: " if error.location else ""
        details = getattr(error, "details", None) if args.verbose else None
        print(f"{where}error: {details or error.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
