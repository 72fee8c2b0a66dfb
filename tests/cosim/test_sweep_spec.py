"""Sweep specifications and designs, without a cluster: parsing of --param and
--distribution, grid/zip/Monte Carlo tables of runs, their one-line errors, the result table's
columns, batch sizes, and the message when the sweep extra is missing."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from cosim.cli import main
from cosim.sweeps import (
    Axis, Distribution, SweepError, build_design, explicit_design, parse_axis,
    parse_distribution,
)
from cosim.sweeps.execute import Batches
from cosim.sweeps.spec import as_axes, as_distributions
from cosim.sweeps.table import collect, layout_of, make_chunk


def test_range_includes_both_ends():
    axis = parse_axis("Plant.k=1:2:5")
    assert axis == Axis("Plant.k", (1.0, 1.25, 1.5, 1.75, 2.0))
    assert parse_axis("Plant.k = -1e-3:1e-3:3").values == (-1e-3, 0.0, 1e-3)
    assert parse_axis("Plant.k=3:3:1").values == (3.0,)
    assert parse_axis("Plant.k=0:1:11").values[-1] == 1.0


def test_lists_keep_the_types_written():
    axis = parse_axis("Plant.n=1,2,30")
    assert axis.values == (1, 2, 30) and all(type(v) is int for v in axis.values)
    assert parse_axis("Plant.k=0.5, 1e3").values == (0.5, 1000.0)
    assert parse_axis("Plant.on=true,False").values == (True, False)
    assert parse_axis("Plant.mode=fast,slow").values == ("fast", "slow")
    assert parse_axis("Plant.k=2").values == (2,)


@pytest.mark.parametrize("text, message", [
    ("Plant.k=1:2", "expected START:STOP:N"),
    ("Plant.k=1:2:3:4", "expected START:STOP:N"),
    ("Plant.k=1::3", "expected START:STOP:N"),
    ("Plant.k=a:2:3", "START 'a' is not a number"),
    ("Plant.k=1:b:3", "STOP 'b' is not a number"),
    ("Plant.k=1:2:2.5", "N must be a whole number of at least 1, not '2.5'"),
    ("Plant.k=1:2:0", "N must be a whole number of at least 1, not '0'"),
    ("Plant.k=1,,2", "empty value in the list V1,V2,..."),
    ("Plant.k=", "expected COMP.VAR=START:STOP:N or COMP.VAR=V1,V2,..."),
    ("1:2:3", "expected COMP.VAR=START:STOP:N or COMP.VAR=V1,V2,..."),
])
def test_bad_parameter_specifications(text, message):
    with pytest.raises(SweepError) as error:
        parse_axis(text)
    assert (error.value.location, error.value.message) == (f"--param {text}", message)


def test_distributions():
    assert parse_distribution("Plant.k=normal(1.5, 0.1)") == \
        Distribution("Plant.k", "normal", (1.5, 0.1))
    assert parse_distribution("Plant.k=uniform(-1,1)").kind == "uniform"
    assert parse_distribution("Plant.k=LogNormal(0,0.5)").kind == "lognormal"


@pytest.mark.parametrize("text, message", [
    ("Plant.k=normal(1)", "expected normal(MU,SIGMA)"),
    ("Plant.k=uniform(1,2,3)", "expected uniform(A,B)"),
    ("Plant.k=normal(1,-2)", "SIGMA must be positive"),
    ("Plant.k=lognormal(0,0)", "SIGMA must be positive"),
    ("Plant.k=uniform(2,1)", "B must be greater than A"),
    ("Plant.k=gauss(0,1)", "unknown distribution 'gauss' (normal, uniform, lognormal)"),
    ("Plant.k=normal(x,1)", "MU 'x' is not a number"),
    ("Plant.k=normal(inf,1)", "the arguments of normal must be finite"),
    ("Plant.k=1.5", "expected a distribution such as normal(MU,SIGMA)"),
])
def test_bad_distributions(text, message):
    with pytest.raises(SweepError) as error:
        parse_distribution(text)
    assert (error.value.location, error.value.message) == (f"--distribution {text}", message)


def test_grid_varies_the_last_parameter_fastest():
    design = build_design([Axis("a.x", (1, 2)), Axis("b.y", (10, 20, 30))])
    assert design.names == ("a.x", "b.y")
    assert design.rows == ((1, 10), (1, 20), (1, 30), (2, 10), (2, 20), (2, 30))
    assert design.parameters(4) == {"a.x": 2, "b.y": 20}
    assert design.seed is None


def test_zip_pairs_the_values_and_repeats_a_single_one():
    design = build_design([Axis("a.x", (1, 2, 3)), Axis("b.y", (5,)), Axis("c.z", (7, 8, 9))],
                          mode="zip")
    assert design.rows == ((1, 5, 7), (2, 5, 8), (3, 5, 9))
    with pytest.raises(SweepError) as error:
        build_design([Axis("a.x", (1, 2, 3)), Axis("b.y", (1, 2))], mode="zip")
    assert (error.value.location, error.value.message) == (
        "--zip", "zipped parameters need the same number of values (a.x has 3, b.y has 2)")


def test_monte_carlo_draws_from_the_seeded_generator():
    distributions = [Distribution("a.x", "normal", (1.0, 0.1)),
                     Distribution("b.y", "uniform", (0.0, 2.0)),
                     Distribution("c.z", "lognormal", (0.0, 0.5))]
    design = build_design([Axis("d.w", (1, 2))], samples=50, distributions=distributions,
                          seed=42)
    assert design.names == ("d.w", "a.x", "b.y", "c.z") and len(design) == 100
    generator = np.random.default_rng(42)
    expected = np.column_stack([generator.normal(1.0, 0.1, 50), generator.uniform(0, 2, 50),
                                generator.lognormal(0.0, 0.5, 50)])
    rows = np.array(design.rows)
    assert np.array_equal(rows[:50, 1:], expected)  # the same draws for every combination
    assert np.array_equal(rows[50:, 1:], expected)
    assert list(rows[:, 0]) == [1] * 50 + [2] * 50
    assert design.seed == 42
    unseeded = build_design(samples=3, distributions=distributions[:1])
    assert unseeded.seed is not None
    again = build_design(samples=3, distributions=distributions[:1], seed=unseeded.seed)
    assert again.rows == unseeded.rows


@pytest.mark.parametrize("arguments, location, message", [
    ({}, "", "nothing to sweep: give --param, or --samples with --distribution"),
    ({"axes": [Axis("a.x", (1,)), Axis("a.x", (2,))]}, "--param a.x",
     "parameter 'a.x' is given twice"),
    ({"distributions": [Distribution("a.x", "normal", (0, 1))]}, "--distribution a.x",
     "--distribution needs --samples K"),
    ({"samples": 10}, "--samples", "--samples needs at least one --distribution"),
    ({"samples": 0, "distributions": [Distribution("a.x", "normal", (0, 1))]}, "--samples",
     "at least one sample is needed, not 0"),
    ({"axes": [Axis("a.x", (1,))], "mode": "cube"}, "", "unknown mode 'cube' (grid or zip)"),
])
def test_bad_designs(arguments, location, message):
    with pytest.raises(SweepError) as error:
        build_design(**arguments)
    assert (error.value.location, error.value.message) == (location, message)


def test_explicit_runs():
    design = explicit_design([{"a.x": 1.0, "b.y": 2}, {"b.y": np.int64(3), "a.x": 1.5}])
    assert design.names == ("a.x", "b.y") and design.rows == ((1.0, 2), (1.5, 3))
    assert type(design.rows[1][1]) is int
    with pytest.raises(SweepError) as error:
        explicit_design([{"a.x": 1.0}, {"a.x": 2.0, "b.y": 1}])
    assert error.value.message == "runs[1] does not set the same parameters as runs[0] " \
                                  "(differ in b.y)"


def test_api_forms_of_parameters_and_distributions():
    assert as_axes({"a.x": "1:2:3", "b.y": [4, 5]}) == [Axis("a.x", (1.0, 1.5, 2.0)),
                                                        Axis("b.y", (4, 5))]
    assert [type(v) for v in as_axes({"a.x": np.linspace(0, 1, 2)})[0].values] == [float] * 2
    assert as_axes("a.x=1,2") == [Axis("a.x", (1, 2))]
    assert as_distributions({"a.x": "uniform(0,1)"}) == [Distribution("a.x", "uniform",
                                                                      (0.0, 1.0))]


def test_table_of_final_values_and_of_series():
    design = build_design([Axis("a.k", (1, 2, 3)), Axis("a.mode", ("x", "yy"))])
    final = layout_of(design, ("a.y", "b.y"), series=False)
    assert final.names == ("run", "a.k", "a.mode", "a.y", "b.y")
    assert final.kinds() == ("int64", "int64", "string", "float64", "float64")
    chunks = [make_chunk(final, design, [5, 1], [np.array([5.0, 50.0]), np.array([1.0, 10.0])]),
              make_chunk(final, design, [0], [np.array([0.0, 0.5])])]
    table = collect(final, chunks)
    assert table["run"].tolist() == [0, 1, 5]
    assert table["a.k"].tolist() == [1, 1, 3] and table["a.mode"].tolist() == ["x", "yy", "yy"]
    assert table["b.y"].tolist() == [0.5, 10.0, 50.0]
    series = layout_of(design, ("a.y",), series=True)
    assert series.names == ("run", "a.k", "a.mode", "time", "a.y")
    runs = [np.array([[0.0, 1.0], [0.5, 2.0]]), np.array([[0.0, 3.0], [0.5, 4.0], [1.0, 5.0]])]
    table = collect(series, [make_chunk(series, design, [3, 2], runs)])
    assert table["run"].tolist() == [2, 2, 2, 3, 3]
    assert table["time"].tolist() == [0.0, 0.5, 1.0, 0.0, 0.5]
    assert table["a.y"].tolist() == [3.0, 4.0, 5.0, 1.0, 2.0]
    assert len(collect(series, [])) == 0


def test_a_recorded_output_cannot_also_be_a_parameter():
    design = build_design([Axis("a.k", (1, 2))])
    with pytest.raises(SweepError) as error:
        layout_of(design, ("a.k", "a.y"), series=False)
    assert (error.value.location, error.value.message) == (
        "--record a.k", "'a.k' is both a swept parameter and a recorded output")


def test_batches_last_half_a_second_and_shrink_at_the_end():
    batches = Batches(n_runs=2000, threads=2)
    assert batches.take() == range(0, 2)        # until a run's time is known
    batches.observe(0.001)                     # 1 ms a run: 500 runs make half a second
    assert batches.take() == range(2, 502)
    # at most what is left over the 4 batches in flight: the workers finish together
    assert batches.take() == range(502, 502 + 375)
    sizes = []
    while (runs := batches.take()) is not None:
        sizes.append(len(runs))
    assert sizes == sorted(sizes, reverse=True)
    assert min(sizes[:-1]) == 50 and sizes[-1] <= 50  # no batch under 50 ms but the last
    assert sum(sizes) == 2000 - 877
    assert batches.worker_died(range(10, 12)) == []  # its runs go again, alone
    assert [batches.take(), batches.take()] == [range(10, 11), range(11, 12)]
    assert batches.worker_died(range(11, 12)) == []  # a second chance: it may not be to blame
    assert batches.take() == range(11, 12)
    assert batches.worker_died(range(11, 12)) == [11]
    assert batches.suspects == [] and batches.take() not in (range(10, 11), range(11, 12))
    fixed = Batches(n_runs=5, threads=2, fixed=2)
    assert [fixed.take(), fixed.take(), fixed.take(), fixed.take()] == \
        [range(0, 2), range(2, 4), range(4, 5), None]


def test_spec_errors_on_the_command_line(capsys):
    assert main(["sweep", "system.ssp", "--param", "Plant.k=1:2", "-o", "x.csv"]) == 1
    assert capsys.readouterr().err == "--param Plant.k=1:2: error: expected START:STOP:N\n"
    assert main(["sweep", "system.ssp", "--samples", "4", "--distribution",
                 "Plant.k=normal(1,0)", "-o", "x.csv"]) == 1
    assert capsys.readouterr().err == \
        "--distribution Plant.k=normal(1,0): error: SIGMA must be positive\n"


def test_without_the_sweep_extra_a_line_says_how_to_get_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    assert main(["sweep", str(tmp_path / "system.ssp"), "--param", "Plant.k=1,2",
                 "-o", str(tmp_path / "out.csv")]) == 1
    assert capsys.readouterr().err == (
        "error: sweeps need dask.distributed and pyarrow ('distributed' is not installed): "
        "pip install 'cosim[sweep]'\n")
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.delitem(sys.modules, "distributed")
    assert main(["sweep", str(tmp_path / "system.ssp"), "--param", "Plant.k=1,2",
                 "-o", str(tmp_path / "out.parquet")]) == 1
    assert "('pyarrow' is not installed): pip install 'cosim[sweep]'" in capsys.readouterr().err
