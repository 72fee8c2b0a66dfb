"""Parameter sweeps and Monte Carlo studies of a system on Dask (``dask.distributed``).

``spec`` parses ``--param``/``--distribution`` text, ``design`` makes the table of runs,
``runner.run_sweep`` checks it, sends the system to the workers once (``cluster``, ``worker``),
runs it in batches (``execute``) and writes the table as runs finish (``table``, ``result``;
``interrupt`` holds Ctrl-C back while a batch is written).
The package is ``sweeps`` so that it does not hide the function ``cosim.sweep``.
Of these modules only ``worker`` needs the ``sweep`` extra to be imported.
"""
from cosim.sweeps.design import Design, build_design, explicit_design
from cosim.sweeps.result import Failure, SweepInterrupted, SweepResult
from cosim.sweeps.spec import Axis, Distribution, SweepError, parse_axis, parse_distribution

__all__ = ["Design", "build_design", "explicit_design", "Failure", "SweepInterrupted",
           "SweepResult", "Axis", "Distribution", "SweepError", "parse_axis",
           "parse_distribution"]
