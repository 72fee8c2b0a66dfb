"""The ``sweep`` verb: parameter sweeps and Monte Carlo studies on Dask workers."""
from __future__ import annotations

import argparse
import logging
import sys

from cosim.commands.lazy import lazy_import

api = lazy_import("cosim.api")
from cosim.commands.system import add_run_settings, step_settings
from cosim.sweeps import SweepInterrupted

DESCRIPTION = """\
Run an .ssp, SSP folder, .ssd or .fmu once per combination of parameter values, in
parallel on a local Dask cluster or a Dask scheduler, and write one table: a row per run
(or per run and time with --series) with the run's number, its parameters and its outputs.
Failed runs are listed with their error; the others go on. Needs the sweep extra:
pip install 'cosim[sweep]'."""
EXAMPLES = """examples:
  cosim sweep system.ssp --param Plant.k=1:2:11 --param Plant.d=0.1,0.2 -o sweep.parquet
  cosim sweep system.ssp --zip --param Plant.k=1,2,3 --param Plant.d=0.1,0.2,0.3 -o zip.csv
  cosim sweep system.ssp --samples 1000 --distribution 'Plant.k=normal(1.5,0.1)' --seed 1 \\
      --scheduler tcp://10.0.0.5:8786 --record Plant.x --series -o mc.parquet
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    sweep = subparsers.add_parser(
        "sweep", help="run a system many times: parameter sweeps and Monte Carlo on Dask",
        description=DESCRIPTION,
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sweep.add_argument("target", help="an .ssp, SSP folder, .ssd or .fmu")
    sweep.add_argument("--param", action="append", default=[],
                       metavar="COMP.VAR=START:STOP:N|V1,V2,...",
                       help="N values from START to STOP, or a list; repeatable")
    mode = sweep.add_mutually_exclusive_group()
    mode.add_argument("--grid", dest="mode", action="store_const", const="grid",
                      default="grid", help="run every combination of the values (default)")
    mode.add_argument("--zip", dest="mode", action="store_const", const="zip",
                      help="run the k-th values of every --param together")
    sweep.add_argument("--samples", type=int, metavar="K",
                       help="Monte Carlo: run every combination with K random draws of the "
                            "--distribution parameters")
    sweep.add_argument("--distribution", action="append", default=[],
                       metavar="COMP.VAR=normal(MU,SIGMA)",
                       help="normal(MU,SIGMA), uniform(A,B) or lognormal(MU,SIGMA) (of the "
                            "logarithm); repeatable")
    sweep.add_argument("--seed", type=int, help="seed of the random draws (default: fresh, "
                                                "printed in the summary)")
    where = sweep.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N",
                       help="processes of a local cluster (default: one per core)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="a Dask scheduler whose workers have cosim installed")
    add_run_settings(sweep)
    sweep.add_argument("--record", action="append", default=[], metavar="COMP.VAR",
                       help="an output of the table (default: every output connector); "
                            "repeatable")
    sweep.add_argument("--series", action="store_true",
                       help="full time series instead of the final values")
    sweep.add_argument("--batch-size", type=int, metavar="N",
                       help="runs per Dask task (default: about half a second of runs)")
    sweep.add_argument("-o", "--output", required=True, help="result table, .parquet or .csv")
    sweep.add_argument("--quiet", action="store_true",
                       help="no progress bar; only failed runs are printed (on stderr)")
    sweep.set_defaults(handler=_sweep)


def _sweep(args: argparse.Namespace) -> int:
    step_size, step_sizes = step_settings(args.step)
    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    try:
        result = api.sweep(args.target, parameters=args.param, mode=args.mode,
                           samples=args.samples, distributions=args.distribution,
                           seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                           stop_time=args.stop, step_size=step_size, tolerance=args.tolerance,
                           start_time=args.start, step_sizes=step_sizes, variant=args.variant,
                           record=args.record, series=args.series, output=args.output,
                           algorithm=args.algorithm, batch_size=args.batch_size,
                           progress=not args.quiet)
    except SweepInterrupted as interrupted:
        print(interrupted.result.summary())
        raise
    if not args.quiet:
        print(result.summary())
    elif result.failures:
        print(result.summary().split("\n", 1)[1], file=sys.stderr)
    return 1 if result.failures else 0
