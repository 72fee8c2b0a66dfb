"""The Python API of cosim: one function per CLI verb, with the same arguments.

``compile`` turns a Modelica model into an FMU; ``info`` and ``validate`` read SSP targets;
``run`` simulates an SSP, an FMU or a Modelica model; ``sweep`` runs one many times with other
parameters on Dask workers; ``pack`` writes a self-contained SSP; ``plot`` draws a result file.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from cosim.master import RunResult, Settings, simulate
from cosim.modelica import check_modelica, has_modelica
from cosim.results import read_results
from cosim.results.plot import plot_results, require_matplotlib
from cosim.errors import CosimError
from cosim.fmi.summary import FmuInfo
from cosim.master.checks import fmu_checks, ssp_refusals
from cosim.ssp.fmu_check import check_fmu_interfaces, read_model_descriptions
from cosim.ssp.loader import read
from cosim.ssp.errors import raise_on_problems
from cosim.ssp.model import SystemStructure
from cosim.ssp.parameters import resolve_parameters
from cosim.ssp.report import Info, ValidationReport

if TYPE_CHECKING:
    from cosim.sweeps import SweepResult


def compile(path, model: str | None = None,
            libs: Sequence[str | os.PathLike] = (),
            output: str | os.PathLike | None = None, fmi_arrays: bool = False) -> Path:
    """Compile ``model`` of the Modelica file ``path`` into an FMI 3.0 FMU; return its path.

    Parameters
    ----------
    path : str, PathLike or a cosim.build model class
        The ``.mo`` file, a Python file of ``cosim.build`` model classes, or such a class.
    model : str, optional
        The class to compile (default: the file's last class).
    libs : sequence of str or PathLike
        Library locations (package folders, ``.mo`` files, folders of packages), searched
        before ``MODELICAPATH``.
    output : str or PathLike, optional
        The ``.fmu`` to write, or a folder (existing, or a path ending in a separator) for
        ``<modelIdentifier>.fmu`` (default: the current folder).
    fmi_arrays : bool
        Show arrays among the inputs, outputs and parameters as FMI 3.0 array variables (one
        value reference with ``<Dimension>``s) instead of one scalar per element.

    Raises
    ------
    compiler.errors.CompilerError
        Located in the Modelica source (``file:line:col``).

    Notes
    -----
    Compiled FMUs are cached by content under ``$COSIM_CACHE_DIR`` (default
    ``~/.cache/cosim``): an unchanged model is flattened again but not recompiled.
    """
    from compiler import compile_fmu
    from cosim.build.compile import compile_python, is_python_model

    if is_python_model(path):
        return compile_python(path, model, tuple(libs), output, fmi_arrays=fmi_arrays)
    return compile_fmu(path, model, tuple(libs), output, fmi_arrays=fmi_arrays)


def flatten(path, model: str | None = None, libs: Sequence[str | os.PathLike] = ()):
    """The ``compiler.flat.FlatModel`` of a Modelica (``.mo``) or Python (``.py`` file, or a
    ``cosim.build`` class) model, ``model`` naming the class in the file."""
    from compiler.api import flatten_model
    from cosim.build.compile import flatten_python, is_python_model

    if is_python_model(path):
        return flatten_python(path, model, tuple(libs))
    return flatten_model(path, model, tuple(libs))


def check(path, model: str | None = None, libs: Sequence[str | os.PathLike] = (),
          require_ode: bool = False):
    """The DAE classification report (``compiler.classify.DaeReport``) of a model, as
    ``cosim check --json`` prints it: equations classified as differential or algebraic, the
    trivially factored count, the class ``ode`` or ``dae`` with the residual equations by
    location, aliases, blocks, the index before reduction and the states.

    ``require_ode`` raises ``compiler.classify.NontrivialDae`` (code ``E_NONTRIVIAL_DAE``,
    naming every residual equation's location) for a model that stays a DAE.
    """
    from compiler.classify import classify, require_ode as refuse_dae

    report = classify(flatten(path, model, libs))
    return refuse_dae(report) if require_ode else report


def diagram(target, kind: str | None = None, model: str | None = None,
            libs: Sequence[str | os.PathLike] = (), variant: str | None = None,
            output: str | os.PathLike | None = None):
    """A picture of ``target`` (a ``cosim.diagrams.Graph``; written to ``output``, whose suffix
    .svg, .dot or .mmd picks the format, when given; then its path is returned).

    ``kind``: ``schematic``, ``incidence``, ``blocks`` (of a ``.mo`` or ``.py`` model or a
    ``cosim.build`` class, ``model`` naming the class) or ``system`` (of an SSP); by
    default ``system`` for an SSP, ``schematic`` for a model.
    """
    from cosim.diagrams import diagram as draw

    graph = draw(target, kind, model, tuple(libs), variant)
    return graph if output is None else graph.write(output)


def info(path: str | os.PathLike, variant: str | None = None, strict: bool = False
         ) -> Info | FmuInfo:
    """Components, connectors, connections, resolved parameters and experiment of ``path``.

    ``path`` is an ``.ssp`` archive, an unpacked SSP folder, or an ``.ssd``, ``.ssv``, ``.ssm``
    or ``.ssb`` file; ``variant`` names a variant SSD; ``strict`` raises the first problem.
    Modelica components are compiled (through the FMU cache): their errors are diagnostics.
    A bare ``.fmu`` gives its interfaces, experiment and variables (``FmuInfo``), with what
    ``run`` would refuse as diagnostics.
    """
    if _is_fmu(path, variant):
        model, diagnostics = fmu_checks(path)
        if model is None:
            raise_on_problems(tuple(diagnostics))
        if strict:
            raise_on_problems(tuple(diagnostics))
        return FmuInfo(str(path), model, tuple(diagnostics))
    document, diagnostics = read(path, variant, strict)
    if not isinstance(document, SystemStructure):
        return Info(document, (), diagnostics)
    with tempfile.TemporaryDirectory(prefix="cosim-info-") as work:
        problems = check_modelica(document, work)[1] if has_modelica(document) else []
    diagnostics += tuple(problems)
    if strict:
        raise_on_problems(diagnostics)
    return Info(document, resolve_parameters(document)[0], diagnostics)


def validate(path: str | os.PathLike, variant: str | None = None, strict: bool = False,
             schema_dir: str | os.PathLike | None = None) -> ValidationReport:
    """Schema, semantic and FMU-interface problems of ``path``.

    Modelica components are compiled (through the FMU cache) and checked as FMUs; errors in
    their sources are diagnostics located in the ``.mo`` file.
    ``schema_dir`` is a folder of SSP XSDs (default: the SSP 1.0 XSDs that fmpy ships);
    ``strict`` raises the first problem as an ``SspError`` instead of reporting it. Everything
    ``run`` would refuse (unsupported connections, array sizes that do not match, parameter
    values out of range, interfaces the FMU lacks) is reported too. ``path`` may be a bare
    ``.fmu``: its archive, binary, model description (fmpy's checks) and what ``run`` would
    refuse of it.
    """
    if _is_fmu(path, variant):
        diagnostics = tuple(fmu_checks(path)[1])
    else:
        diagnostics = _ssp_diagnostics(path, variant, strict, schema_dir)
    report = ValidationReport(str(path), diagnostics)
    if strict:
        raise_on_problems(report.diagnostics)
    return report


def _is_fmu(path, variant) -> bool:
    if Path(path).suffix.lower() != ".fmu":
        return False
    if variant is not None:
        raise CosimError("a variant can be chosen only for an SSP", str(path))
    return True


def _ssp_diagnostics(path, variant, strict, schema_dir) -> tuple:
    document, diagnostics = read(path, variant, strict, schema_dir=schema_dir)
    if isinstance(document, SystemStructure):
        with tempfile.TemporaryDirectory(prefix="cosim-validate-") as work:
            problems = []
            if has_modelica(document):  # their FMUs are checked as the others
                document, problems = check_modelica(document, work)
            descriptions, unreadable = read_model_descriptions(document)
            diagnostics += tuple(problems) + tuple(unreadable) + tuple(
                check_fmu_interfaces(document, descriptions))
            diagnostics += tuple(ssp_refusals(document, descriptions, diagnostics))
    return diagnostics


def run(path, stop_time: float | None = None,
        step_size: float | None = None, tolerance: float | None = None,
        parameters: Mapping[str, object] | None = None, variant: str | None = None,
        record: tuple[str, ...] | list[str] = (), output: str | os.PathLike | None = None,
        step_sizes: Mapping[str, float] | None = None, start_time: float | None = None,
        algorithm: str = "gauss-seidel", progress: bool = False, isolate: bool | None = None,
        allow_nonfinite: bool = False, timeout: float | None = None,
        model: str | None = None, libs: Sequence[str | os.PathLike] = (),
        plot: str | os.PathLike | None = None, signals: Sequence[str] = (),
        interface: str | None = None, event_rows: bool = True,
        input: str | os.PathLike | None = None, _stuck_exit: bool = False) -> RunResult:
    """Simulate ``path``: an ``.ssp`` archive, an unpacked SSP folder, an ``.ssd``, an ``.fmu``
    or a Modelica ``.mo`` file.

    Parameters
    ----------
    path : str, PathLike or a cosim.build model class
        The target; an ``.fmu`` runs as a system of one component named after the file, a
        ``.mo`` file is compiled (as by ``compile``, through its cache) and runs as a
        system of one component named after the model's FMI identifier (``Pkg_Model``); a
        Python model (a class, or a ``.py`` file and ``model``) as one named after its class.
    stop_time, step_size, tolerance, start_time : float, optional
        Override the file's experiment (step size: the base communication step, in s).
    parameters : mapping, optional
        ``{"component.variable": value}``, applied before initialization over the SSP's
        parameter bindings; values may be text as on the command line.
    variant : str, optional
        A variant ``.ssd`` beside ``SystemStructure.ssd``.
    record : sequence of str
        Extra ``component.variable`` columns besides every output connector.
    output : str or PathLike, optional
        ``.csv`` or ``.mat`` (Dymola) file written while the run goes.
    step_sizes : mapping, optional
        ``{"component": step}``: multi-rate, each a whole multiple of the base step.
    algorithm : {"gauss-seidel", "jacobi"}
    progress : bool
        Show a progress bar on stderr for runs longer than a second.
    isolate : bool, optional
        Host FMUs in worker processes, so that a crash ends the run with an error instead of
        ending Python: ``None`` (default) isolates the FMUs cosim did not build, ``True``
        all, ``False`` none.
    allow_nonfinite : bool
        Only warn when an FMU gives NaN or Inf (by default the run stops with an error).
    timeout : float, optional
        Wall-clock seconds for the whole run; past them it stops with ``RunTimeout`` (after
        the step or, for Model Exchange, the integrator step that passes it; an isolated FMU
        stuck in a call is stopped at once). A call into an FMU loaded into this process
        (``isolate=False``) cannot be interrupted: the command line ends the process 2 s
        after the deadline, keeping the rows so far; the API waits for the call.
    model : str, optional
        For a ``.mo`` or ``.py`` target: the class to run (default: the file's last class).
    libs : sequence of str or PathLike
        For a ``.mo`` or Python target: library locations searched before ``MODELICAPATH``.
    plot : str or PathLike, optional
        An image (``.png``, ``.pdf``, ``.svg``) of the results over time, one axis per unit;
        needs matplotlib (the ``plot`` extra).
    signals : sequence of str
        The columns to plot (default: all).
    interface : {"cs", "me", "se"}, optional
        The FMU interface of components whose SSD does not choose one (``implementation``
        ``any`` or absent): Co-Simulation, Model Exchange (integrated by cosim's Radau IIA) or
        Scheduled Execution; default: the first the FMU offers, in that order.
    event_rows : bool
        Also write a row just before and just after each event inside a communication step
        (Model Exchange, Co-Simulation in Event Mode) and after each jump of an input file,
        as Dymola and fmpy do; ``False``: one row per communication point.
    input : str or PathLike, optional
        A CSV file of input values over time (``time,<component.variable or variable>,...``):
        continuous Float inputs are interpolated linearly, the others hold their last value
        and change at the rows' times (events); values are set at each communication point.

    Returns
    -------
    RunResult
        ``values`` is a numpy structured array with fields ``time`` and the column names.

    Raises
    ------
    CosimError
        With ``result`` (a ``RunResult`` of the rows computed before the failure) when the run
        started: an FMU call failed, an isolated FMU crashed, a value was not finite, or the
        timeout passed. Result files keep the same rows.
    compiler.errors.CompilerError
        For a ``.mo`` target that does not compile, located in the Modelica source.
    """
    settings = _settings(start_time, stop_time, step_size, tolerance, step_sizes, record,
                         algorithm, parameters, isolate=isolate, allow_nonfinite=allow_nonfinite,
                         timeout=timeout, interface=interface, event_rows=event_rows,
                         inputs=None if input is None else str(input),
                         stuck_exit=_stuck_exit)
    if plot is not None:
        require_matplotlib()  # before the run, not after it
    result = simulate(path, settings, variant=variant, output=output, progress=progress,
                      model=model, libs=tuple(libs))
    if plot is not None:
        title = path.__name__ if isinstance(path, type) else Path(path).name
        plot_results(result.values, plot, signals, dict(zip(result.columns, result.units)),
                     title=title)
    return result


def _settings(start_time, stop_time, step_size, tolerance, step_sizes, record, algorithm,
              parameters=None, isolate=None, allow_nonfinite=False, timeout=None,
              interface=None, event_rows=True, inputs=None, stuck_exit=False) -> Settings:
    return Settings(start_time=start_time, stop_time=stop_time, step_size=step_size,
                    tolerance=tolerance, step_sizes=tuple((step_sizes or {}).items()),
                    parameters=tuple((parameters or {}).items()), record=tuple(record),
                    algorithm=algorithm, isolate=isolate, allow_nonfinite=allow_nonfinite,
                    timeout=timeout, interface=interface, event_rows=event_rows,
                    inputs=inputs, stuck_exit=stuck_exit)


def sweep(path: str | os.PathLike, parameters: Sequence[str] | Mapping[str, object] = (),
          mode: str = "grid", samples: int | None = None,
          distributions: Sequence[str] | Mapping[str, str] = (), seed: int | None = None,
          runs: Sequence[Mapping[str, object]] | None = None, workers: int | None = None,
          scheduler: object = None, stop_time: float | None = None,
          step_size: float | None = None, tolerance: float | None = None,
          start_time: float | None = None, step_sizes: Mapping[str, float] | None = None,
          variant: str | None = None, record: Sequence[str] = (), series: bool = False,
          output: str | os.PathLike | None = None, algorithm: str = "gauss-seidel",
          batch_size: int | None = None, progress: bool = False) -> SweepResult:
    """Run ``path`` many times with other parameter values, in parallel on Dask workers.

    Parameters
    ----------
    path : str or PathLike
        The target, as for ``run``.
    parameters : sequence of str, or mapping
        ``"comp.var=START:STOP:N"`` (N values, both ends included) or ``"comp.var=v1,v2"``;
        or ``{"comp.var": "1:2:5" or [values]}``.
    mode : {"grid", "zip"}
        Every combination of the parameters' values, or their k-th values together (a
        parameter of one value keeps it in every run).
    samples : int, optional
        Monte Carlo: run each combination with ``samples`` draws of ``distributions``.
    distributions : sequence of str, or mapping
        ``"comp.var=normal(MU,SIGMA)"``, ``uniform(A,B)`` or ``lognormal(MU,SIGMA)`` (of
        the logarithm); or ``{"comp.var": "normal(0,1)"}``.
    seed : int, optional
        Seed of numpy's ``default_rng`` for the draws (default: a fresh one, reported in
        the result's ``design.seed``).
    runs : sequence of mapping, optional
        Instead of the above: the runs' ``{"comp.var": value}``, all with the same names.
    workers : int, optional
        Processes of a local cluster, one thread each (default: one per core).
    scheduler : str or distributed.Client, optional
        A Dask scheduler's address (``tcp://host:port``) or a client, instead of a local
        cluster; the workers need cosim installed.
    stop_time, step_size, tolerance, start_time, step_sizes, variant, algorithm
        As for ``run``, the same for every run.
    record : sequence of str
        The outputs in the table (default: every output connector).
    series : bool
        Full time series (a ``time`` column, a row per run and time) instead of final values.
    output : str or PathLike, optional
        ``.parquet`` or ``.csv`` file, appended to as runs finish.
    batch_size : int, optional
        Runs per Dask task (default: about half a second of runs).
    progress : bool
        A progress bar over runs on stderr.

    Returns
    -------
    SweepResult
        ``values``: structured array of ``run``, the parameters, (``time``,) the outputs,
        sorted by run; ``failures``: the runs that failed, with their parameters and error.
        Ctrl-C raises ``SweepInterrupted`` (a ``KeyboardInterrupt``) holding the result of
        the finished runs, which are also in ``output``.
    """
    from cosim.sweeps import SweepError, build_design, explicit_design
    from cosim.sweeps.runner import run_sweep
    from cosim.sweeps.spec import as_axes, as_distributions

    if runs is not None:
        if parameters or samples is not None or distributions:
            raise SweepError("runs= replaces parameters, samples and distributions")
        design = explicit_design(runs)
    else:
        design = build_design(as_axes(parameters), mode, samples,
                              as_distributions(distributions), seed)
    # a sweep's table holds the communication points: no event rows
    settings = _settings(start_time, stop_time, step_size, tolerance, step_sizes, record,
                         algorithm, event_rows=False)
    return run_sweep(path, design, settings, variant=variant, series=series, output=output,
                     workers=workers, scheduler=scheduler, batch_size=batch_size,
                     progress=progress)


def pack(path: str | os.PathLike, output: str | os.PathLike) -> Path:
    """Compile the Modelica components of ``path`` and write the self-contained ``output``.

    ``path`` is an SSP folder, its ``SystemStructure.ssd`` or an ``.ssp``; ``output`` an
    ``.ssp`` whose SSDs name the compiled FMUs (``resources/<component>.fmu``), with every
    other file of the package as it was. Returns ``output``'s path.
    """
    from cosim.packing import pack as pack_package

    return pack_package(path, output)


def plot(results: str | os.PathLike, output: str | os.PathLike,
         signals: Sequence[str] = ()) -> Path:
    """Plot a result file (``.csv`` or ``.mat``) over time into ``output``; returns its path.

    One axis per unit: a ``.mat`` file records the units (``[m]`` in its descriptions), a CSV
    file none, so its signals share one axis. ``signals`` picks columns (default: all).
    Needs matplotlib (the ``plot`` extra).
    """
    require_matplotlib()
    values, units = read_results(results)
    return plot_results(values, output, signals, units, title=Path(results).name)
