"""The ctypes layer: every function bound from the table, status checking with the FMU's own
message and the time, unsafe or incomplete FMUs refused, and the C tables' orders matching
the Python ones they are filled from."""
from __future__ import annotations

import re
import zipfile

import pytest
from conftest import fake_fmu

from cosim.errors import CosimError
from cosim.fmi import FmiCallError, FmuError, instantiate, open_fmu
from cosim.fmi.signatures import FMI3
from cosim.fmi.types import VALUE_TYPES
from cosim.master.components import ME_FUNCTIONS
from cosim.native import template_dir


def test_every_fmi3_function_of_our_runtime_is_bound(tmp_path, built):
    fmu = open_fmu(built["Lag"], tmp_path)
    library = fmu.library("CS")
    assert library.missing == []
    assert library.fmi3DoStep.argtypes == FMI3["fmi3DoStep"][1]
    assert library.address("fmi3DoStep") != 0


def test_failed_call_names_instance_time_and_message(tmp_path, built):
    fmu = open_fmu(built["Fail"], tmp_path)
    instance = instantiate(fmu, "F1", "CS")
    instance.set("Float64", [fmu.info.variable("t_fail").value_reference], [0.25])
    instance.enter_initialization(0.0, 1.0, 1e-6)
    instance.exit_initialization()
    instance.do_step(0.0, 0.2)
    with pytest.raises(FmiCallError) as error:
        instance.do_step(0.2, 0.2)
    assert (error.value.function, error.value.status, error.value.time) == ("fmi3DoStep", 3, 0.2)
    assert str(error.value).startswith("F1 at t = 0.20000000000000001: fmi3DoStep returned "
                                       "Error: x = 0.25")
    instance.free()


def test_fmu_without_binary_or_with_unsafe_entries(tmp_path):
    path = tmp_path / "m.fmu"
    path.write_bytes(fake_fmu({"y": ("output", "Real")}))
    with pytest.raises(FmuError) as error:
        open_fmu(path, tmp_path / "work")
    assert str(error.value) == (f"{path}: no binary for this platform: looked for "
                                f"binaries/linux64/m.so and binaries/x86_64-linux/m.so")
    evil = tmp_path / "evil.fmu"
    with zipfile.ZipFile(evil, "w") as archive:
        archive.writestr("../outside.txt", "x")
    with pytest.raises(CosimError) as error:
        open_fmu(evil, tmp_path / "work")
    assert str(error.value) == f"{evil}: entry '../outside.txt' escapes the extraction folder"
    assert not (tmp_path / "outside.txt").exists()


def _c_enum(header: str, name: str) -> list[str]:
    text = (template_dir() / header).read_text()
    body = re.search(r"typedef enum \{([^}]*)\} " + name + ";", text).group(1)
    return [item.strip() for item in body.split(",") if item.strip()]


def test_c_enums_match_the_python_tables():
    types = _c_enum("master_loop.h", "ValueType")
    assert types == ["VT_" + t.upper() for t in VALUE_TYPES] + ["VT_COUNT"]
    roles = _c_enum("me_driver.h", "MeFunction")
    assert len(roles) - 1 == len(ME_FUNCTIONS[3]) == len(ME_FUNCTIONS[2])
    for version, source in ((3, "me_fmi3.c"), (2, "me_fmi2.c")):
        text = (template_dir() / source).read_text()
        names = re.findall(r'"(fmi\w+)"', text.split("ADAPTER = {")[1])
        assert tuple(names) == tuple(n for n in ME_FUNCTIONS[version] if n)
