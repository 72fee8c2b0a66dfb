"""The runtime's objects are compiled once into the object cache and linked into every model
built with that cache (compiler.fmu.runtime_objects); the FMU's sources/ still build the
binary alone, and every way of building gives the same results."""
from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import numpy as np
from fmpy import simulate_fmu

from compiler.fmu import package_fmu
from compiler.fmu.runtime_files import RUNTIME_SOURCES, fmi_headers_dir
from compiler.fmu.runtime_objects import runtime_objects
from tests.runtime.fixtures import FIXTURES

OPTIONS = dict(stop_time=2.0, output_interval=0.02, relative_tolerance=1e-8)


def cached_build(name: str, folder: Path, cache: Path) -> Path:
    fixture = FIXTURES[name]
    packaged = package_fmu(fixture.interface, fixture.source, folder / f"{name}.fmu", object_cache=cache)
    assert packaged.compiler_warnings == ""
    return packaged.path


def assert_same_results(fmu_a: Path, fmu_b: Path) -> None:
    for kind in ("CoSimulation", "ModelExchange"):
        a, b = (simulate_fmu(str(path), fmi_type=kind, **OPTIONS) for path in (fmu_a, fmu_b))
        for column in a.dtype.names:
            assert np.array_equal(a[column], b[column]), (kind, column)


def test_models_share_one_build_of_the_runtime(fmus, tmp_path):
    cache = tmp_path / "cache"
    first = cached_build("Dahlquist", tmp_path, cache)
    (folder,) = cache.glob("runtime-*")
    objects = {path.name: path.stat().st_mtime_ns for path in folder.iterdir()}
    assert set(objects) == {f"{Path(name).stem}.o" for name in RUNTIME_SOURCES}
    second = cached_build("BouncingBall", tmp_path, cache)
    assert {path.name: path.stat().st_mtime_ns for path in folder.iterdir()} == objects
    # the exact solution x0 exp(-k t) (x0 = 1, k = 1), and the full build of the fixtures
    result = simulate_fmu(str(first), **OPTIONS)
    assert np.allclose(result["x"], np.exp(-result["time"]), rtol=1e-6, atol=0.0)
    assert_same_results(first, fmus["Dahlquist"])
    assert_same_results(second, fmus["BouncingBall"])


def test_the_sources_of_a_cached_build_build_the_binary_alone(tmp_path):
    built = cached_build("BouncingBall", tmp_path, tmp_path / "cache")
    sources = tmp_path / "sources"
    with zipfile.ZipFile(built) as archive:
        names = [name for name in archive.namelist() if name.startswith("sources/")]
        archive.extractall(tmp_path, names)
    binary = tmp_path / "BouncingBall.so"
    subprocess.run(["gcc", "-std=c99", "-O2", "-fPIC", "-shared", "-I.", f"-I{fmi_headers_dir()}",
                    *sorted(path.name for path in sources.glob("*.c")), "-o", str(binary), "-lm"],
                   cwd=sources, check=True)
    rebuilt = tmp_path / "rebuilt" / "BouncingBall.fmu"
    rebuilt.parent.mkdir()
    with zipfile.ZipFile(built) as original, zipfile.ZipFile(rebuilt, "w") as copy:
        for item in original.infolist():
            data = original.read(item)
            if item.filename.endswith("BouncingBall.so"):
                data = binary.read_bytes()
            copy.writestr(item, data)
    assert_same_results(rebuilt, built)


def test_other_flags_are_another_build_of_the_runtime(tmp_path):
    plain = runtime_objects(("crossing.c",), tmp_path)
    checked = runtime_objects(("crossing.c",), tmp_path, ("-DNDEBUG",))
    assert plain.objects[0].parent != checked.objects[0].parent
    assert plain.warnings == checked.warnings == ""
    assert runtime_objects(("crossing.c",), tmp_path).objects == plain.objects
