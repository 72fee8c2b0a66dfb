"""Verbs on single models: ``check``, ``flatten`` (Modelica front end) and ``compile``."""
from __future__ import annotations

import argparse

from compiler import api


def register(subparsers: argparse._SubParsersAction) -> None:
    check = subparsers.add_parser(
        "check", help="parse and flatten a Modelica model and print a summary",
        description="Parse and flatten a Modelica model; print its variables, states and "
                    "equations. Exit 1 with 'file:line:col: error: message' on an error.")
    _model_arguments(check)
    check.add_argument("--blocks", action="store_true",
                       help="also causalize the model and print its blocks in BLT order")
    check.set_defaults(handler=_check)
    flatten = subparsers.add_parser(
        "flatten", help="print a Modelica model as flat Modelica",
        description="Parse and flatten a Modelica model and print the flat model.")
    _model_arguments(flatten)
    flatten.set_defaults(handler=_flatten)
    compile_ = subparsers.add_parser(
        "compile", help="compile a Modelica model into an FMI 3.0 FMU",
        description="Compile a Modelica model into an FMI 3.0 FMU (Model Exchange and "
                    "Co-Simulation, C sources and a binary for this platform). Unchanged models "
                    "come from the cache ($COSIM_CACHE_DIR, default ~/.cache/cosim).")
    _model_arguments(compile_)
    compile_.add_argument("-o", "--output", metavar="OUT.fmu",
                          help="the FMU to write, or a folder (existing, or ending in /) "
                               "for <modelIdentifier>.fmu (default: the current folder)")
    compile_.set_defaults(handler=_compile)


def _model_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the .mo file")
    parser.add_argument("--model", help="class to use (default: the last class in the file)")
    parser.add_argument("--lib", action="append", default=[], metavar="DIR",
                        help="library location: a package folder, a .mo file or a folder of "
                             "packages (repeatable; MODELICAPATH is searched after)")


def _check(args: argparse.Namespace) -> int:
    if args.blocks:
        from compiler import causalize_api
        print(causalize_api.check_blocks(args.file, model=args.model, libs=args.lib))
        return 0
    print(api.check(args.file, model=args.model, libs=args.lib))
    return 0


def _flatten(args: argparse.Namespace) -> int:
    print(api.flatten_model(args.file, model=args.model, libs=args.lib), end="")
    return 0


def _compile(args: argparse.Namespace) -> int:
    from compiler import compile_fmu

    print(compile_fmu(args.file, model=args.model, libs=args.lib, output=args.output))
    return 0
