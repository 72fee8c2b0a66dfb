"""Verbs on SSP system structures: ``run``, ``info`` and ``validate``."""
from __future__ import annotations

import argparse
import logging
import sys

from cosim.commands.lazy import lazy_import

api = lazy_import("cosim.api")
from cosim.commands.plot import signal_list
from cosim.errors import CosimError


def register(subparsers: argparse._SubParsersAction) -> None:
    target_help = "an .ssp archive, an unpacked SSP folder, or an .ssd/.ssv/.ssm/.ssb file"

    run = subparsers.add_parser(
        "run", help="simulate an SSP system, an FMU or a Modelica model",
        description="Simulate an .ssp archive, an unpacked SSP folder, an .ssd, an .fmu (a "
                    "system of one component named after the file) or a Modelica .mo file "
                    "(compiled through the cache of 'cosim compile', then run as its FMU). "
                    "Settings given here override the file's.")
    run.add_argument("target", help="an .ssp, SSP folder, .ssd, .fmu or .mo")
    run.add_argument("--model", help="for a .mo target: the class to run (default: the last "
                                     "class in the file)")
    run.add_argument("--lib", action="append", default=[], metavar="DIR",
                     help="for a .mo target: a library location (repeatable; MODELICAPATH is "
                          "searched after)")
    add_run_settings(run)
    run.add_argument("--param", action="append", default=[], metavar="COMP.VAR=VALUE",
                     help="set a parameter before initialization; repeatable")
    run.add_argument("--record", action="append", default=[], metavar="COMP.VAR",
                     help="also record this variable (or one element, COMP.VAR[i,j]); "
                          "repeatable")
    run.add_argument("--input", metavar="IN.csv",
                     help="input values over time: time,<COMP.VAR or VAR>,...; continuous "
                          "Float inputs interpolated linearly, the others held (events at "
                          "their changes)")
    run.add_argument("--interface", choices=("cs", "me", "se"),
                     help="the FMU interface where the SSD does not choose one: "
                          "Co-Simulation, Model Exchange (cosim's Radau IIA) or Scheduled "
                          "Execution (default: the first the FMU offers, in that order)")
    run.add_argument("--no-event-rows", dest="event_rows", action="store_false",
                     help="one row per communication point (default: also a row just before "
                          "and after each event inside a step)")
    isolation = run.add_mutually_exclusive_group()
    isolation.add_argument("--isolate", dest="isolate", action="store_true", default=None,
                           help="host every FMU in a worker process of its own (default: only "
                                "FMUs that cosim did not build), so a crash cannot take the "
                                "run down")
    isolation.add_argument("--no-isolate", dest="isolate", action="store_false",
                           help="load every FMU into this process (fastest; a crash ends it)")
    run.add_argument("--allow-nonfinite", action="store_true",
                     help="only warn when an FMU gives NaN or Inf (default: stop the run)")
    run.add_argument("--timeout", type=float, metavar="SECONDS",
                     help="stop the run after this much wall-clock time, keeping the results")
    run.add_argument("-o", "--output", help="result file, .csv or .mat (Dymola)")
    run.add_argument("--plot", metavar="OUT.png",
                     help="also plot the results over time, one axis per unit (.png, .pdf, "
                          ".svg; needs matplotlib)")
    run.add_argument("--signals", metavar="A.Y,B.X",
                     help="comma-separated columns to plot (default: all)")
    run.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    run.set_defaults(handler=_run)

    info = subparsers.add_parser(
        "info", help="show components, connectors, connections, parameters and experiment")
    info.add_argument("target", help=target_help)
    info.add_argument("--variant", help="variant .ssd beside SystemStructure.ssd")
    info.add_argument("--strict", action="store_true", help="refuse on the first problem")
    info.set_defaults(handler=_info)

    validate = subparsers.add_parser(
        "validate", help="check against the SSP schemas, the semantics and the FMUs")
    validate.add_argument("target", help=target_help)
    validate.add_argument("--variant", help="variant .ssd beside SystemStructure.ssd")
    validate.add_argument("--strict", action="store_true", help="refuse on the first problem")
    validate.add_argument("--schema-dir", help="folder of SSP XSDs (default: fmpy's SSP 1.0)")
    validate.set_defaults(handler=_validate)


def add_run_settings(parser: argparse.ArgumentParser) -> None:
    """The flags of the experiment and the master, shared by ``run`` and ``sweep``."""
    parser.add_argument("--start", type=float, help="start time in s")
    parser.add_argument("--stop", type=float, help="stop time in s")
    parser.add_argument("--step", action="append", default=[], metavar="H|COMP=H",
                        help="base communication step in s, or a component's own step "
                             "(a whole multiple of the base step); repeatable")
    parser.add_argument("--tolerance", type=float,
                        help="relative tolerance of the FMUs' solvers")
    parser.add_argument("--variant", help="variant .ssd beside SystemStructure.ssd")
    parser.add_argument("--algorithm", choices=("gauss-seidel", "jacobi"),
                        default="gauss-seidel")


def step_settings(steps: list[str]) -> tuple[float | None, dict[str, float]]:
    """``(step_size, step_sizes)`` of the ``--step H|COMP=H`` flags."""
    step_size, step_sizes = None, {}
    for item in steps:
        if "=" in item:
            name, value = _assignment(item, "--step")
            step_sizes[name] = _float(value, "--step")
        else:
            step_size = _float(item, "--step")
    return step_size, step_sizes


def _info(args: argparse.Namespace) -> int:
    print(api.info(args.target, variant=args.variant, strict=args.strict).text())
    return 0


def _validate(args: argparse.Namespace) -> int:
    report = api.validate(args.target, variant=args.variant, strict=args.strict,
                          schema_dir=args.schema_dir)
    print(report.text())
    return 0 if report.ok else 1


def _assignment(text: str, flag: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise CosimError(f"{flag} {text}: expected NAME=VALUE")
    return name.strip(), value.strip()


def _float(text: str, flag: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise CosimError(f"{flag} {text}: not a number") from None


def _run(args: argparse.Namespace) -> int:
    step_size, step_sizes = step_settings(args.step)
    parameters = dict(_assignment(item, "--param") for item in args.param)
    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    result = api.run(args.target, stop_time=args.stop, step_size=step_size,
                     tolerance=args.tolerance, parameters=parameters, variant=args.variant,
                     record=args.record, output=args.output, step_sizes=step_sizes,
                     start_time=args.start, algorithm=args.algorithm,
                     progress=not args.quiet, isolate=args.isolate,
                     allow_nonfinite=args.allow_nonfinite, timeout=args.timeout,
                     model=args.model, libs=args.lib,
                     plot=args.plot, signals=signal_list(args.signals),
                     interface=args.interface, event_rows=args.event_rows, input=args.input,
                     _stuck_exit=True)
    if not args.quiet:
        print(result.summary())
    return 0
