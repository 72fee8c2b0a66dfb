"""The Rust backend's program (``cosim compile --backend rust --program``) against the C FMU
run by ``cosim run``: the four stiff problems and the compiler's acceptance models give the
same columns and the same numbers (to the requested tolerance); what the backend does not
support is refused, located; an unchanged model is not built again."""
from __future__ import annotations

import csv
import subprocess
from pathlib import Path

import numpy as np
import pytest

from compiler.api import flatten_model
from compiler.errors import CompilerError
from compiler.rust.build import find_rustc
from compiler.rust.compile import rust_from_flat
from cosim import api
from tests.compiler.rust_cases import MODELS, RUST_TEST_MARKS, STIFF, TOLERANCE

pytestmark = RUST_TEST_MARKS
# loops in the derivatives (their Jacobian crosses them), a relation switching an Integer
LOOPS = Path(__file__).parent / "rust_models" / "Loops.mo"

CASES = {
    "Robertson": (STIFF / "Robertson.mo", None),
    "VanDerPol": (STIFF / "VanDerPol.mo", None),
    "Hires": (STIFF / "Hires.mo", None),
    "Oregonator": (STIFF / "Oregonator.mo", None),
    "Counters": (MODELS / "Events.mo", "Events.Counters"),
    "CallsInEvents": (MODELS / "Events.mo", "Events.CallsInEvents"),
    "ShortRod": (MODELS / "Heat.mo", "Heat.ShortRod"),
    "Decay": (MODELS / "Interface.mo", "Interface.Decay"),
    "Stops": (MODELS / "Interface.mo", "Interface.Stops"),
    "Nonlinear": (LOOPS, "Loops.Nonlinear"),
    "Linear": (LOOPS, "Loops.Linear"),
    "Switched": (LOOPS, "Loops.Switched"),
    # a run of picoseconds: steps and events must not merge into t = 0
    "Picoseconds": (Path(__file__).parent / "msl_models" / "TimeScales.mo",
                    "TimeScales.ChargedRC"),
}


def read_csv(path: Path) -> tuple[list[str], np.ndarray]:
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    return rows[0], np.array([[float(cell) for cell in row] for row in rows[1:]])


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rust-programs")

    def build(path: Path, model: str | None) -> Path:
        return rust_from_flat(flatten_model(path, model), "program", folder)

    return build


def run_program(binary: Path, output: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *arguments, "-o", str(output)], capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rust_program_writes_what_cosim_run_writes(program, tmp_path, name):
    path, model = CASES[name]
    result = run_program(program(path, model), tmp_path / "rust.csv")
    assert result.returncode == 0, result.stderr
    api.run(path, model=model, output=tmp_path / "c.csv")
    rust_header, rust = read_csv(tmp_path / "rust.csv")
    c_header, c = read_csv(tmp_path / "c.csv")
    assert rust_header == c_header
    assert rust.shape == c.shape
    np.testing.assert_allclose(rust, c, rtol=TOLERANCE, atol=TOLERANCE * 1e-6)


def test_the_program_takes_parameters_stop_time_and_step(program, tmp_path):
    """Dahlquist x' = -k x, x(0) = 1 with k = 2 set on the command line: the exponential."""
    binary = program(STIFF / "Dahlquist.mo", None)
    result = run_program(binary, tmp_path / "out.csv", "--stop", "3", "--step", "0.01",
                         "--param", "k=2")
    assert result.returncode == 0, result.stderr
    header, values = read_csv(tmp_path / "out.csv")
    assert header == ["time", "Dahlquist.x"]
    assert values[-1, 0] == pytest.approx(3.0)
    np.testing.assert_allclose(values[:, 0], np.linspace(0.0, 3.0, 301), rtol=0, atol=1e-12)
    exact = np.exp(-2.0 * values[:, 0])
    assert np.max(np.abs(values[:, 1] - exact) / (TOLERANCE * (np.abs(exact) + 1))) <= 1.0


def test_a_failing_assert_stops_the_program_with_the_located_message(program, tmp_path):
    binary = program(MODELS / "Interface.mo", "Interface.Guarded")
    result = run_program(binary, tmp_path / "out.csv")
    assert result.returncode != 0
    assert "Interface.mo:41:5: assertion failed" in result.stderr
    assert "x too small" in result.stderr


def test_an_unknown_parameter_is_a_usage_error(program, tmp_path):
    result = run_program(program(STIFF / "Dahlquist.mo", None), tmp_path / "out.csv",
                         "--param", "nothing=1")
    assert result.returncode != 0
    assert "--param nothing: no variable of that name" in result.stderr


def test_functions_with_arrays_are_refused_at_the_function(tmp_path):
    flat = flatten_model(MODELS / "Functions.mo", "Functions.UseFunctions")
    with pytest.raises(CompilerError, match=r"Functions\.mo:\d+:\d+: .*array .* is not "
                                            r"supported by the Rust backend"):
        rust_from_flat(flat, "source", tmp_path)


def test_an_unchanged_model_is_not_built_again(tmp_path, monkeypatch):
    flat = flatten_model(STIFF / "Dahlquist.mo")
    first = rust_from_flat(flat, "program", tmp_path / "first")
    import compiler.rust.compile as rust_compile

    def no_build(*_args, **_kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(rust_compile, "build", no_build)
    second = rust_from_flat(flatten_model(STIFF / "Dahlquist.mo"), "program", tmp_path / "second")
    assert second.read_bytes() == first.read_bytes()


def test_the_source_is_one_rust_file_that_rustc_builds_alone(tmp_path):
    source = rust_from_flat(flatten_model(STIFF / "VanDerPol.mo"), "source", tmp_path)
    assert source.name == "VanDerPol.rs"
    text = source.read_text()
    assert "extern crate" not in text and "\nuse " not in text.split("mod support")[0]
    result = subprocess.run([find_rustc(), "--edition", "2018", "-O", source.name],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    run = subprocess.run([str(tmp_path / "VanDerPol"), "--stop", "0.5"], capture_output=True,
                         text=True)
    assert run.returncode == 0 and run.stdout.startswith("time,VanDerPol.y1,VanDerPol.y2\n")


def test_wasm_builds_where_the_toolchain_has_the_target_and_says_why_not_elsewhere(tmp_path):
    from compiler.errors import PackageError
    from compiler.rust.build import WASM_TARGET, wasm_unavailable

    flat = flatten_model(STIFF / "Dahlquist.mo")
    why = wasm_unavailable(find_rustc())
    if why is None:
        module = rust_from_flat(flat, "wasm", tmp_path)
        assert module.name == "Dahlquist.wasm"
        assert module.read_bytes()[:4] == b"\0asm"
    else:
        assert f"rustup target add {WASM_TARGET}" in why
        with pytest.raises(PackageError, match=f"cannot build Dahlquist for {WASM_TARGET}: "):
            rust_from_flat(flat, "wasm", tmp_path)
        assert not list(tmp_path.iterdir())


def test_cosim_compile_backend_rust_writes_the_source_the_program_and_the_fmu(tmp_path, capsys):
    from cosim.cli import main

    model = str(STIFF / "Dahlquist.mo")
    assert main(["compile", model, "--backend", "rust", "-o", str(tmp_path / "model.rs")]) == 0
    assert (tmp_path / "model.rs").read_text().startswith("//! Dahlquist")
    assert main(["compile", model, "--backend", "rust", "--program", "-o",
                 str(tmp_path / "model")]) == 0
    run = subprocess.run([str(tmp_path / "model"), "--stop", "1", "--step", "0.5"],
                         capture_output=True, text=True)
    assert run.stdout.splitlines()[0] == "time,Dahlquist.x" and len(run.stdout.splitlines()) == 4
    assert main(["compile", model, "--backend", "rust", "--fmu", "-o", str(tmp_path)]) == 0
    assert (tmp_path / "Dahlquist.fmu").is_file()
    # the C backend makes FMUs only: the Rust options are refused with the reason
    assert main(["compile", model, "--program"]) != 0
    assert "--program, --fmu and --target go with --backend rust" in capsys.readouterr().err
