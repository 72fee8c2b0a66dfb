"""``cosim run`` end to end: result files (CSV and Dymola .mat read back with scipy), the
summary line, command-line overrides, and errors as one located line with exit code 1 (an
FMU failing mid-run keeps every row written before)."""
from __future__ import annotations

import numpy as np
from test_master_run import expected_integral, pack, source_and_integrator

from cosim import api
from cosim.cli import main
from cosim.results import read_mat


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["run", *[str(a) for a in argv]])
    out, err = capsys.readouterr()
    return code, out, err


def test_run_writes_csv_and_prints_a_summary(tmp_path, built, capsys):
    system = pack(tmp_path, built, source_and_integrator({"factor": 2.0, "offset": 0.5}))
    output = tmp_path / "out.csv"
    code, out, err = run(capsys, system, "-o", output, "--record", "Source.der(x)")
    # (stderr may hold a progress bar when a loaded machine makes the run last over a second)
    assert code == 0 and "error" not in err
    assert out.startswith("100 steps of 0.01 s to t = 1 in ")
    assert out.endswith(f"results in {output}\n")
    lines = output.read_text().splitlines()
    assert lines[0] == "time,Source.x,I.x,Source.der(x)"
    table = np.loadtxt(output, delimiter=",", skiprows=1)
    assert table.shape == (101, 4)
    assert np.allclose(table[:, 2], expected_integral(2.0, 0.5), rtol=1e-9)
    assert np.allclose(table[:, 3], -table[:, 1], rtol=1e-12)


def test_run_writes_a_dymola_mat_file(tmp_path, built, capsys):
    system = pack(tmp_path, built, source_and_integrator())
    output = tmp_path / "out.mat"
    code, _, _ = run(capsys, system, "-o", output, "--stop", "0.5", "--step", "0.05",
                     "--param", "Source.x0=3", "--quiet")
    assert code == 0
    table = read_mat(output)
    assert table.dtype.names == ("time", "Source.x", "I.x")
    expected = api.run(system, stop_time=0.5, step_size=0.05, parameters={"Source.x0": 3.0})
    for name in table.dtype.names:
        assert np.array_equal(table[name], expected.values[name])


def test_fmu_target_with_per_component_step(tmp_path, built, capsys):
    output = tmp_path / "lag.csv"
    code, out, _ = run(capsys, built["Lag"], "--param", "Lag.x0=1", "--stop", "1", "--step",
                       "0.1", "-o", output)
    assert code == 0 and out.startswith("10 steps of 0.1 s to t = 1")
    table = np.loadtxt(output, delimiter=",", skiprows=1)
    assert np.allclose(table[:, 1], np.exp(-table[:, 0]), rtol=1e-7)


def test_fmu_error_mid_run_keeps_the_rows(tmp_path, built, capsys):
    output = tmp_path / "fail.csv"
    code, out, err = run(capsys, built["Fail"], "--stop", "1", "--step", "0.01", "-o", output)
    assert (code, out) == (1, "")
    assert err == ("Fail at t = 0.5: error: fmi3DoStep returned Error: x = 0.500992: the model "
                   "fails after t_fail = 0.5 / integration failed at t = 0.5: the model's "
                   "equations failed\n")
    table = np.loadtxt(output, delimiter=",", skiprows=1)
    assert table.shape == (51, 2) and table[-1, 0] == 0.5
    mat = tmp_path / "fail.mat"
    assert run(capsys, built["Fail"], "--stop", "1", "--step", "0.01", "-o", mat)[0] == 1
    assert np.array_equal(read_mat(mat)["Fail.x"], table[:, 1])


def test_errors_are_one_located_line(tmp_path, built, capsys):
    system = pack(tmp_path, built, source_and_integrator())
    cases = [
        (["--param", "Nope.k=1"], "error: parameter 'Nope.k': no component of that name "
                                  "(components: I, Source)\n"),
        (["--param", "Source.x0=abc"], "SystemStructure.ssd:"),
        (["--record", "I.nothing"], "error: record 'I.nothing': the FMU of 'I' has no "
                                    "variable 'nothing'\n"),
        (["--step", "I=0.015"], "component 'I': step size 0.015 is not a whole multiple of "
                                "the base step 0.01\n"),
        (["--param", "x0"], "error: --param x0: expected NAME=VALUE\n"),
        (["-o", tmp_path / "out.txt"], "out.txt: error: unknown result format '.txt': use "
                                       ".csv or .mat\n"),
    ]
    for extra, message in cases:
        code, out, err = run(capsys, system, *extra)
        assert code == 1 and out == "", extra
        assert message in err and err.count("\n") == 1, (extra, err)
    code, _, err = run(capsys, tmp_path / "model.mo")
    assert (code, err) == (1, f"{tmp_path / 'model.mo'}: error: cannot read: No such file or "
                              "directory\n")
    code, _, err = run(capsys, tmp_path / "missing.ssp")
    assert (code, err) == (1, f"{tmp_path / 'missing.ssp'}: error: no such file or folder\n")
