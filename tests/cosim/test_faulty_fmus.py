"""FMUs that fail: an FMU call returning Error or Fatal (FMI 3.0 and 2.0), NaN outputs, and an
input an FMU refuses. The run stops with one line naming the instance, the function (or
variable), the time and the FMU's own message; exit code 1; the result files (CSV and .mat)
hold every communication point before the failure. The FMUs are hand-written C (faulty/).
"""
from __future__ import annotations

import numpy as np
import pytest

from cosim import api
from cosim.cli import main
from cosim.errors import CosimError
from cosim.master.failures import NonFiniteError
from cosim.results import read_mat

GRID_TO_1 = np.round(np.arange(11) * 0.1, 12)  # the default experiment: h = 0.1


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["run", *[str(a) for a in argv], "--quiet"])
    out, err = capsys.readouterr()
    return code, out, err


def check_rows_up_to_1(table: np.ndarray, column: str) -> None:
    """Rows at t = 0, 0.1, ..., 1: those before the failure; y = u + t = t."""
    assert np.allclose(table["time"], GRID_TO_1, atol=1e-12)
    assert np.allclose(table[column], GRID_TO_1, atol=1e-12)


def csv_table(path) -> np.ndarray:
    return np.genfromtxt(path, delimiter=",", names=True, deletechars="")


@pytest.mark.parametrize("name, isolate, line", [
    ("ErrorAfter1", None, "ErrorAfter1 at t = 1: error: fmi3DoStep returned Error: the solver "
                          "diverged at t = 1"),
    ("ErrorAfter1", False, "ErrorAfter1 at t = 1: error: fmi3DoStep returned Error: the solver "
                           "diverged at t = 1"),
    ("FatalAfter1", None, "FatalAfter1 at t = 1: error: fmi3DoStep returned Fatal: memory "
                          "corrupted at t = 1"),
    ("Error2After1", None, "Error2After1 at t = 1: error: fmi2DoStep returned Error: the solver "
                           "diverged at t = 1"),
])
def test_error_status_stops_the_run_and_keeps_the_rows(tmp_path, built, capsys, name, isolate,
                                                       line):
    flags = {None: [], True: ["--isolate"], False: ["--no-isolate"]}[isolate]
    for suffix in (".csv", ".mat"):
        output = tmp_path / f"{name}{suffix}"
        code, out, err = run(capsys, built[name], "-o", output, *flags)
        assert (code, out, err) == (1, "", line + "\n")
        table = csv_table(output) if suffix == ".csv" else read_mat(output)
        check_rows_up_to_1(table, f"{name}.y")


def test_the_api_error_carries_the_rows_before_the_failure(built):
    with pytest.raises(CosimError) as caught:
        api.run(built["ErrorAfter1"])
    assert (caught.value.function, caught.value.status, caught.value.instance,
            caught.value.time) == ("fmi3DoStep", 3, "ErrorAfter1", 1.0)
    check_rows_up_to_1(caught.value.result.values, "ErrorAfter1.y")


@pytest.mark.parametrize("isolate", [None, False])
def test_nan_output_stops_the_run_naming_instance_variable_and_time(tmp_path, built, capsys,
                                                                      isolate):
    output = tmp_path / "nan.csv"
    flags = ["--no-isolate"] if isolate is False else []
    code, out, err = run(capsys, built["NanAfter1"], "-o", output, *flags)
    assert (code, out) == (1, "")
    assert err == ("NanAfter1.fmu: error: instance 'NanAfter1': output 'y' is NaN at t=1.1 "
                   "(--allow-nonfinite only warns)\n")
    check_rows_up_to_1(csv_table(output), "NanAfter1.y")


def test_allow_nonfinite_only_warns(tmp_path, built, capsys, caplog):
    output = tmp_path / "nan.mat"
    code, _, _ = run(capsys, built["NanAfter1"], "-o", output, "--allow-nonfinite")
    assert code == 0
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "instance 'NanAfter1': output 'y' is NaN at t=1.1 (10 non-finite values in all, allowed)"]
    table = read_mat(output)
    assert len(table) == 21
    check_rows_up_to_1(table[:11], "NanAfter1.y")
    assert np.isnan(table["NanAfter1.y"][11:]).all()


def test_infinity_from_our_own_fmu_is_caught_at_initialization(built):
    with pytest.raises(NonFiniteError) as caught:
        api.run(built["Gain"], parameters={"Gain.b": float("inf")})
    assert str(caught.value) == ("Gain.fmu: instance 'Gain': output 'y' is +Inf at t=0 "
                                 "(--allow-nonfinite only warns)")
    result = api.run(built["Gain"], parameters={"Gain.b": float("-inf")}, allow_nonfinite=True,
                     stop_time=0.05, step_size=0.01)
    assert result.steps == 5 and (result.values["Gain.y"] == -np.inf).all()


@pytest.mark.parametrize("isolate, where", [(False, "Healthy"), (True, "Healthy at t = 0")])
def test_a_refused_input_names_the_setter(built, isolate, where):
    # Isolated, setters travel with the next call (here entering initialization, at t = 0):
    # the error still names the setter.
    with pytest.raises(CosimError) as caught:
        api.run(built["Healthy"], parameters={"Healthy.u": 2e6}, isolate=isolate)
    assert str(caught.value) == f"{where}: fmi3SetFloat64 returned Error: u = 2e+06 is out of range"
