"""Inputs from a CSV file (``--input``, ``input=``) into a hand-written third-party FMU
(Typed3: y = 2 u, i64_out = i64, s_out = "<" s ">", flag_out = not flag), against fmpy's
input handling and the exact values.
"""
from __future__ import annotations

import numpy as np
import pytest
from fmpy import simulate_fmu

from cosim import api
from cosim.cli import main
from cosim.master.plan import PlanError

TABLE = """time,u[1],u[2],u[3],i64,s,flag
0,0,0,0,1,"a",0
0.5,5,10,15,1,"a",0
0.5,5,10,15,2,"b, c",1
1,10,20,30,3,"d",1
"""


@pytest.fixture
def inputs(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text(TABLE)
    return path


@pytest.mark.parametrize("interface, isolate", [("cs", False), ("me", True)])
def test_continuous_inputs_are_linear_and_the_others_held(built, inputs, interface, isolate):
    result = api.run(built["Typed3"], input=inputs, interface=interface, isolate=isolate,
                     stop_time=1.0, step_size=0.1, event_rows=False)
    values, t = result.values, result.values["time"]
    # a row at t_k shows the outputs after the step from t_(k-1): inputs set at t_(k-1)
    before = np.concatenate(([0.0], t[:-1]))
    for j in (1, 2, 3):
        assert np.allclose(values[f"Typed3.y[{j}]"], 2 * 10 * j * before, rtol=1e-14)
    held = np.where(before < 0.5 - 1e-9, 1, np.where(before < 1 - 1e-9, 2, 3))
    assert list(values["Typed3.i64_out"]) == list(held)
    assert list(values["Typed3.s_out"]) == [{1: "<a>", 2: "<b, c>", 3: "<d>"}[h] for h in held]
    assert list(values["Typed3.flag_out"]) == [h == 1 for h in held]


def test_a_jump_of_a_held_input_gives_a_row_after_it(built, inputs):
    result = api.run(built["Typed3"], input=inputs, stop_time=1.0, step_size=0.1)
    t, i64 = result.values["time"], result.values["Typed3.i64_out"]
    at = np.flatnonzero(np.isclose(t, 0.5))
    assert len(at) == 2 and list(i64[at]) == [1, 2]  # before the jump, then after it
    assert len(result.values) == 12


def test_inputs_agree_with_fmpy(built, tmp_path):
    path = tmp_path / "in.csv"
    path.write_text("time,u[1],u[2],u[3],i64\n0,0,1,2,5\n1,10,-20,30,5\n2,10,-20,30,-7\n")
    theirs = simulate_fmu(str(built["Typed3"]), stop_time=2.0, output_interval=0.1,
                          input=_fmpy_input(path), output=["y", "i64_out"])
    ours = api.run(built["Typed3"], input=path, stop_time=2.0, step_size=0.1,
                   event_rows=False).values
    assert np.array_equal(ours["time"], theirs["time"])
    for j in range(3):
        assert np.allclose(ours[f"Typed3.y[{j + 1}]"], theirs["y"][:, j], rtol=1e-14)
    assert list(ours["Typed3.i64_out"]) == list(theirs["i64_out"])


def _fmpy_input(path):
    """The same table as fmpy takes it: the array ``u`` as one field of shape (3,)."""
    table = np.genfromtxt(path, delimiter=",", names=True, deletechars="")
    signals = np.zeros(len(table), dtype=[("time", "f8"), ("u", "f8", (3,)), ("i64", "i8")])
    signals["time"] = table["time"]
    signals["u"] = np.column_stack([table[f"u[{j}]"] for j in (1, 2, 3)])
    signals["i64"] = table["i64"]
    return signals


def test_64_bit_inputs_are_exact(built, tmp_path):
    path = tmp_path / "in.csv"
    path.write_text("time,i64,u64\n0,-9223372036854775808,0\n"
                    "1,9223372036854775807,18446744073709551615\n")
    values = api.run(built["Typed3"], input=path, stop_time=2.0, step_size=0.5).values
    assert values["Typed3.i64_out"].tolist()[-1] == 2**63 - 1
    assert values["Typed3.u64_out"].tolist()[-1] == 2**64 - 1
    assert values["Typed3.i64_out"].tolist()[1] == -2**63


@pytest.mark.parametrize("text, line", [
    ("time,nothing\n0,1\n", "in.csv: error: column 'nothing' is no variable of the system"),
    ("time,y[1]\n0,1\n", "in.csv: error: column 'y[1]': 'y' is a output, not an input"),
    ("time,i64\n0,1\n-1,2\n", "in.csv:3: error: time -1 is before the row above it (0)"),
    ("time,i64\n0,1.5\n", "in.csv:2: error: column 'i64': '1.5' is not a Int64 value"),
    ("time,u\n0,1 2\n", "in.csv:2: error: column 'u': 2 values for the 3 elements of 'u'"),
    ("time,i64\n0\n", "in.csv:2: error: 1 values in a row of 2 columns"),
])
def test_a_bad_input_file_is_one_located_line(built, tmp_path, capsys, monkeypatch, text,
                                              line):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.csv").write_text(text)
    assert main(["run", str(built["Typed3"]), "--input", "in.csv", "--quiet"]) == 1
    assert capsys.readouterr().err == line + "\n"


def test_an_input_fed_twice_is_refused(built, tmp_path):
    # the whole array and one of its elements from the same file feed one element twice
    path = tmp_path / "in.csv"
    path.write_text("time,u,u[2]\n0,1 2 3,4\n")
    with pytest.raises(PlanError) as caught:
        api.run(built["Typed3"], input=path)
    assert str(caught.value) == ("Typed3.fmu: input file column 'u[2]': the input is already "
                                 "fed by input file column 'u'")
