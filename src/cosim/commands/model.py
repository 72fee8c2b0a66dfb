"""Verbs on single models: ``check``, ``flatten`` (the front end) and ``compile``; a model is a
Modelica ``.mo`` file or a Python ``.py`` file of ``cosim.build`` classes."""
from __future__ import annotations

import argparse
import json

from compiler import api as compiler_api
from compiler.rust.build import WASM_TARGET
from cosim.commands.lazy import lazy_import
from cosim.errors import CosimError

api = lazy_import("cosim.api")


def register(subparsers: argparse._SubParsersAction) -> None:
    check = subparsers.add_parser(
        "check", help="parse and flatten a model and print a summary",
        description="Parse and flatten a Modelica (or Python) model; print its variables, "
                    "states and equations. Exit 1 with 'file:line:col: error: message' on an "
                    "error.")
    _model_arguments(check)
    check.add_argument("--blocks", action="store_true",
                       help="also causalize the model and print its blocks in BLT order")
    check.add_argument("--dae", action="store_true",
                       help="also print the DAE classification report (ODE or DAE, "
                            "differential, algebraic and residual equations, index, states)")
    check.add_argument("--json", action="store_true",
                       help="print the summary and the DAE classification report as JSON")
    check.add_argument("--require-ode", action="store_true",
                       help="refuse a model that stays a DAE after trivial factoring "
                            "(E_NONTRIVIAL_DAE, naming every residual equation)")
    check.set_defaults(handler=_check)
    flatten = subparsers.add_parser(
        "flatten", help="print a model as flat Modelica",
        description="Parse and flatten a Modelica (or Python) model and print the flat model.")
    _model_arguments(flatten)
    flatten.set_defaults(handler=_flatten)
    compile_ = subparsers.add_parser(
        "compile", help="compile a model into an FMI 3.0 FMU",
        description="Compile a Modelica (or Python) model into an FMI 3.0 FMU (Model Exchange "
                    "and Co-Simulation, C sources and a binary for this platform). Unchanged "
                    "models come from the cache ($COSIM_CACHE_DIR, default ~/.cache/cosim).")
    _model_arguments(compile_)
    compile_.add_argument("-o", "--output", metavar="OUT.fmu",
                          help="the FMU to write, or a folder (existing, or ending in /) "
                               "for <modelIdentifier>.fmu (default: the current folder)")
    compile_.add_argument("--fmi-arrays", action="store_true",
                          help="show arrays among the inputs, outputs and parameters as FMI 3.0 "
                               "array variables (default: one scalar variable per element)")
    compile_.add_argument("--backend", choices=("c", "rust"), default="c",
                          help="c (default): an FMU of C code built with gcc; rust: one Rust "
                               "source file (-o model.rs) with its own runtime, built with "
                               "rustc alone by --program, --fmu or --target")
    made = compile_.add_mutually_exclusive_group()
    made.add_argument("--program", action="store_true",
                      help="with --backend rust: build the program (./model --stop 10 "
                           "--step 0.01 --param k=2 -o out.csv writes cosim run's columns)")
    made.add_argument("--fmu", action="store_true",
                      help="with --backend rust: build an FMI 3.0 FMU whose binary is the "
                           "Rust code")
    made.add_argument("--target", choices=(WASM_TARGET,),
                      help="with --backend rust: build the fmi3 functions as a WebAssembly "
                           "module (needs that target's Rust standard library)")
    compile_.set_defaults(handler=_compile)


def _model_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the .mo file, or a .py file of cosim.build classes")
    parser.add_argument("--model", help="class to use (default: the last class in the file)")
    parser.add_argument("--lib", action="append", default=[], metavar="DIR",
                        help="library location: a package folder, a .mo file or a folder of "
                             "packages (repeatable; MODELICAPATH is searched after)")


def _flat(args: argparse.Namespace):
    return api.flatten(args.file, model=args.model, libs=args.lib)


def _check(args: argparse.Namespace) -> int:
    from compiler.causalize import causalize
    from compiler.classify import classify, require_ode

    flat = _flat(args)
    summary = compiler_api.summarize(flat)
    report = classify(flat) if args.json or args.dae or args.require_ode else None
    if args.json:
        print(json.dumps({"summary": _summary_json(summary), **report.to_json()}, indent=2))
    else:
        # --blocks prints the system summary and its blocks in place of the flat counts
        print(causalize(flat).blocks_text() if args.blocks else summary)
        if args.dae:
            print(report.text())
    if args.require_ode:
        require_ode(report)
    return 0


def _summary_json(summary) -> dict:
    return {name: getattr(summary, name) for name in summary.__slots__}


def _flatten(args: argparse.Namespace) -> int:
    print(_flat(args), end="")
    return 0


def _compile(args: argparse.Namespace) -> int:
    from compiler.compile import fmu_from_flat

    if args.backend == "rust":
        return _compile_rust(args)
    if args.program or args.fmu or args.target:
        raise CosimError("--program, --fmu and --target go with --backend rust (the C "
                         "backend always makes an FMU)")
    print(fmu_from_flat(_flat(args), output=args.output, fmi_arrays=args.fmi_arrays))
    return 0


def _compile_rust(args: argparse.Namespace) -> int:
    from compiler.rust.compile import rust_from_flat

    if args.fmi_arrays:
        raise CosimError("--fmi-arrays is not supported by the Rust backend")
    kind = ("fmu" if args.fmu else "program" if args.program else
            "wasm" if args.target else "source")
    print(rust_from_flat(_flat(args), kind, output=args.output))
    return 0
