"""Plots of results: ``cosim run --plot`` and ``cosim plot``: a PNG with one axis per unit,
the chosen signals on them, and a one-line hint when matplotlib is missing."""
from __future__ import annotations

import builtins
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

from cosim import api
from cosim.cli import main
from cosim.results import as_structured
from cosim.results.plot import MISSING_MATPLOTLIB, group_by_unit, plot_results

FEEDBACK = Path(__file__).resolve().parents[2] / "ssp_examples" / "feedback.ssp"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG, after checking its signature and every chunk's CRC."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks = 8, []
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        assert zlib.crc32(kind + body) == crc
        chunks.append(kind)
        offset += 12 + length
    assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND" and b"IDAT" in chunks
    return struct.unpack(">II", data[16:24])


def axes_of(monkeypatch) -> list:
    """Collects the figures drawn, to count their axes."""
    from matplotlib.figure import Figure

    figures = []
    original = Figure.savefig

    def savefig(self, *args, **kwargs):
        figures.append(self)
        return original(self, *args, **kwargs)
    monkeypatch.setattr(Figure, "savefig", savefig)
    return figures


def test_run_plots_one_axis_per_unit(tmp_path, monkeypatch, capsys):
    figures = axes_of(monkeypatch)
    image = tmp_path / "out.png"
    assert main(["run", str(FEEDBACK), "--plot", str(image), "--quiet"]) == 0
    assert png_size(image) == (800, 600)  # 8 x (2 axes x 2.6 + 0.8) inches at 100 dpi
    (figure,) = figures
    assert [a.get_ylabel() for a in figure.axes] == ["[mm]", "[m]"]
    assert [[line.get_label() for line in a.lines] for a in figure.axes] == \
        [["Plant.x"], ["Controller.y"]]
    assert figure.axes[-1].get_xlabel() == "time [s]"
    x, y = figure.axes[0].lines[0].get_data()
    assert len(x) == 501 and y[-1] == pytest.approx(800.0, rel=1e-6)


def test_plot_of_a_mat_file_with_chosen_signals(tmp_path, monkeypatch, capsys):
    mat = tmp_path / "out.mat"
    assert main(["run", str(FEEDBACK), "-o", str(mat), "--quiet"]) == 0
    figures = axes_of(monkeypatch)
    image = tmp_path / "y.png"
    assert main(["plot", str(mat), "--signals", "Controller.y", "-o", str(image)]) == 0
    assert capsys.readouterr().out == f"{image}\n"
    assert png_size(image) == (800, 340)
    (figure,) = figures
    assert [[line.get_label() for line in a.lines] for a in figure.axes] == [["Controller.y"]]


def test_plot_of_a_csv_file_shares_one_axis(tmp_path, monkeypatch, capsys):
    csv = tmp_path / "out.csv"
    assert main(["run", str(FEEDBACK), "-o", str(csv), "--quiet"]) == 0
    figures = axes_of(monkeypatch)
    path = api.plot(csv, tmp_path / "all.png")
    png_size(path)
    (figure,) = figures
    assert len(figure.axes) == 1  # a CSV file records no units
    assert [line.get_label() for line in figure.axes[0].lines] == ["Plant.x", "Controller.y"]


def test_unknown_signal_is_one_line(tmp_path, capsys):
    csv = tmp_path / "out.csv"
    assert main(["run", str(FEEDBACK), "-o", str(csv), "--quiet", "--stop", "0.1"]) == 0
    assert main(["plot", str(csv), "--signals", "Plant.v", "-o", str(tmp_path / "x.png")]) == 1
    assert capsys.readouterr().err == ("error: no signal 'Plant.v' in the results "
                                       "(signals: Plant.x, Controller.y)\n")
    assert not (tmp_path / "x.png").exists()


def test_missing_matplotlib_is_one_line_before_running(tmp_path, monkeypatch, capsys):
    real_import = builtins.__import__

    def without_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(f"No module named '{name}'")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", without_matplotlib)
    output = tmp_path / "out.csv"
    assert main(["run", str(FEEDBACK), "--plot", str(tmp_path / "p.png"), "-o", str(output),
                 "--quiet"]) == 1
    assert capsys.readouterr().err == f"error: {MISSING_MATPLOTLIB}\n"
    assert MISSING_MATPLOTLIB == "plotting needs matplotlib: pip install 'cosim[plot]'"
    assert not output.exists()  # refused before the run
    assert main(["plot", str(tmp_path / "none.csv"), "-o", str(tmp_path / "p.png")]) == 1
    assert capsys.readouterr().err == f"error: {MISSING_MATPLOTLIB}\n"


def test_signals_group_by_unit_in_order():
    units = {"a.x": "m", "b.v": "m/s", "c.x": "m", "d.n": None}
    assert group_by_unit(["a.x", "b.v", "c.x", "d.n"], units) == \
        [("m", ["a.x", "c.x"]), ("m/s", ["b.v"]), (None, ["d.n"])]


def test_plot_results_writes_svg_too(tmp_path):
    t = np.linspace(0, 1, 11)
    values = as_structured(np.column_stack([t, t ** 2]), ("p.y",))
    path = plot_results(values, tmp_path / "p.svg", units={"p.y": "m"})
    assert path.read_text().lstrip().startswith("<?xml") and "<svg" in path.read_text()
