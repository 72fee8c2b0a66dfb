"""``cosim info`` and ``cosim validate``: what they print and their exit codes."""
from __future__ import annotations

import pytest
from conftest import fake_fmu, ssd, ssm, ssv, write_files
from test_ssp_writer import DESCRIPTION, RESOURCES

from cosim import api
from cosim.cli import main
from cosim.ssp.builder import structure_from_description
from cosim.ssp.writer import pack_ssp

GOOD_FMUS = {
    "resources/Plant.fmu": fake_fmu({"y": ("output", "Real"), "u": ("input", "Real"),
                                     "k": ("parameter", "Real"), "n": ("parameter", "Integer"),
                                     "on": ("parameter", "Boolean"),
                                     "label": ("parameter", "String")}),
    "resources/Ctrl.fmu": fake_fmu({"u": ("input", "Real"), "r": ("input", "Real"),
                                    "y": ("output", "Real")}),
    "resources/G.fmu": fake_fmu({"u": ("input", "Real")}),
}


@pytest.fixture
def demo(tmp_path):
    return pack_ssp(tmp_path / "demo.ssp", structure_from_description(DESCRIPTION),
                    resources=GOOD_FMUS)


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_info_shows_the_system(capsys, demo):
    code, out, err = run(capsys, "info", demo)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:2] == [
        "SystemStructure.ssd: system structure 'demo' (SSP 1.0)",
        "experiment: start 0, stop 2.5, step 0.001 (osp:FixedStepAlgorithm baseStepSize), "
        "tolerance 1e-06"]
    for expected in (
            "  Plant  FMU  resources/Plant.fmu, step size hint 0.002",
            "      output               y  Real [mm]",
            "  Sub  system",
            "  Sub.G  FMU  resources/G.fmu",
            "  Plant.y -> Ctrl.u  [mm -> m: x*0.001 + 0]",
            "  Ctrl.y -> Plant.u  linear: 2*x + 1",
            "  Sub.in -> Sub.G.u",
            "  Plant.k = 3.0  (SystemStructure.ssd:14)",
            "  Plant.label = 'x<&>'  (SystemStructure.ssd:49)"):
        assert expected in lines
    assert out == api.info(demo).text() + "\n"


def test_validate_clean_and_with_problems(capsys, demo, tmp_path):
    code, out, _ = run(capsys, "validate", demo)
    assert (code, out) == (0, f"{demo}: 0 problems, 0 warnings\n")
    broken = pack_ssp(tmp_path / "broken.ssp", structure_from_description(DESCRIPTION),
                      resources=RESOURCES)  # empty files where the FMUs should be
    code, out, _ = run(capsys, "validate", broken)
    assert code == 1
    assert out.splitlines()[0] == ("resources/Plant.fmu: error: component 'Plant': not a "
                                   "readable zip archive: File is not a zip file")
    assert out.splitlines()[-1] == f"{broken}: 3 problems, 0 warnings"


def test_strict_refuses_with_one_located_line(capsys, tmp_path):
    text = ssd('''<ssd:System name="r"><ssd:Elements>
        <ssd:Component name="A" source="missing.fmu"/></ssd:Elements></ssd:System>''')
    folder = write_files(tmp_path, {"SystemStructure.ssd": text})
    code, out, err = run(capsys, "validate", folder, "--strict")
    assert (code, out) == (1, "")
    assert err == "SystemStructure.ssd:4: error: component 'A': source file 'missing.fmu' not found\n"
    code, out, _ = run(capsys, "validate", folder)
    assert code == 1 and out.endswith(f"{folder}: 1 problem, 0 warnings\n")
    code, _, err = run(capsys, "info", folder, "--strict")
    assert code == 1 and err.startswith("SystemStructure.ssd:4: error: ")


def test_variant_and_schema_dir_flags(capsys, tmp_path, schema_2):
    write_files(tmp_path, {"SystemStructure.ssd": ssd('<ssd:System name="a"/>', version="2.0"),
                           "B.ssd": ssd('<ssd:System name="b"/>')})
    code, out, _ = run(capsys, "info", tmp_path, "--variant", "B")
    assert code == 0 and out.startswith("B.ssd: system structure 'test' (SSP 1.0)")
    code, out, _ = run(capsys, "validate", tmp_path)
    assert (code, out.splitlines()[-1]) == (0, f"{tmp_path}: 0 problems, 2 warnings")
    code, out, _ = run(capsys, "validate", tmp_path, "--schema-dir", schema_2)
    assert (code, out) == (0, "SystemStructure.ssd: warning: the system has no FMU component "
                              f"to run\n{tmp_path}: 0 problems, 1 warning\n")
    code, _, err = run(capsys, "info", tmp_path, "--variant", "C")
    assert (code, err) == (1, f"{tmp_path}: error: no variant 'C' (variants: B, SystemStructure)\n")


def test_bare_parameter_files(capsys, tmp_path):
    write_files(tmp_path, {
        "v.ssv": ssv('<ssv:Parameter name="g"><ssv:Real value="9.81" unit="m/s2"/></ssv:Parameter>'),
        "m.ssm": ssm('<ssm:MappingEntry source="g" target="Plant.g">'
                     '<ssc:LinearTransformation factor="2"/></ssm:MappingEntry>')})
    code, out, _ = run(capsys, "info", tmp_path / "v.ssv")
    assert (code, out) == (0, "parameter set 'values' (SSP 1.0)\n  g = 9.81 Real [m/s2]\n")
    code, out, _ = run(capsys, "info", tmp_path / "m.ssm")
    assert (code, out) == (0, "parameter mapping (SSP 1.0)\n  g -> Plant.g  linear: 2*x + 0\n")
    code, out, _ = run(capsys, "validate", tmp_path / "m.ssm")
    assert (code, out) == (0, f"{tmp_path / 'm.ssm'}: 0 problems, 0 warnings\n")


def test_missing_target_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["info"])
    assert caught.value.code == 2
    assert "the following arguments are required: target" in capsys.readouterr().err
    code, _, err = run(capsys, "info", "/nonexistent/system.ssp")
    assert (code, err) == (1, "/nonexistent/system.ssp: error: no such file or folder\n")
