"""``cosim run -o results.mat``: a Dymola result file (format 1.1, binTrans), decoded here
with scipy.io.loadmat by the layout Dymola, DyMat and OpenModelica use, independently of
cosim's own reader, and compared with the CSV file of the same run."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.io import loadmat

from cosim.cli import main
from cosim.results import read_results

FEEDBACK = Path(__file__).resolve().parents[2] / "ssp_examples" / "feedback.ssp"


def strings(matrix: np.ndarray) -> list[str]:
    """The strings of a char matrix stored one per column (the transposed layout)."""
    return ["".join(column).rstrip() for column in matrix.T]


def decode_dymola(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    mat = loadmat(str(path), chars_as_strings=False)
    assert [line.rstrip() for line in ("".join(row) for row in mat["Aclass"])] == \
        ["Atrajectory", "1.1", "", "binTrans"]
    names, descriptions = strings(mat["name"]), strings(mat["description"])
    info = mat["dataInfo"]
    assert info.shape == (4, len(names))
    signals = {}
    for k, name in enumerate(names):
        block, column = info[0, k], info[1, k]
        # block 0 is the abscissa (time, from data_2's first row); 1 constants; 2 trajectories
        data = mat["data_2"] if block in (0, 2) else mat["data_1"]
        signals[name] = np.sign(column) * data[abs(column) - 1]
    assert mat["data_1"][0, 0] == signals["time"][0]
    assert mat["data_1"][0, -1] == signals["time"][-1]
    return signals, dict(zip(names, descriptions))


def test_mat_holds_the_numbers_of_the_csv(tmp_path, capsys):
    mat, csv = tmp_path / "out.mat", tmp_path / "out.csv"
    assert main(["run", str(FEEDBACK), "-o", str(mat), "--quiet"]) == 0
    assert main(["run", str(FEEDBACK), "-o", str(csv), "--quiet"]) == 0
    signals, descriptions = decode_dymola(mat)
    header = csv.read_text().splitlines()[0].split(",")
    table = np.loadtxt(csv, delimiter=",", skiprows=1)
    assert list(signals) == header == ["time", "Plant.x", "Controller.y"]
    assert table.shape == (501, 3)
    for k, name in enumerate(header):
        assert np.array_equal(signals[name], table[:, k])  # %.17g text: the same doubles
    assert descriptions == {"time": "Time in [s]", "Plant.x": "[mm]", "Controller.y": "[m]"}
    assert table[-1, 1] == 800.0 or abs(table[-1, 1] - 800.0) < 1e-3


def test_units_read_back_from_the_descriptions(tmp_path, capsys):
    mat = tmp_path / "out.mat"
    assert main(["run", str(FEEDBACK), "-o", str(mat), "--quiet", "--stop", "0.1"]) == 0
    values, units = read_results(mat)
    assert units == {"Plant.x": "mm", "Controller.y": "m"}
    assert values.dtype.names == ("time", "Plant.x", "Controller.y")
    assert len(values) == 11
