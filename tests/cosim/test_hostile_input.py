"""Untrusted files given to ``cosim run``: each is refused with one line naming the file and
the place (exit code 1): empty and non-zip files, an archive without SystemStructure.ssd, a
component whose FMU is missing, an FMU without a binary for this platform, malformed XML in
the SSD, SSV, SSM, SSB or modelDescription.xml (with the line), and archive limits.
"""
from __future__ import annotations

import pytest
from conftest import model_description, ssd, ssm, ssv, zip_bytes

from cosim.cli import main
from cosim.fmi import open_fmu
from cosim.ssp import DEFAULT_LIMITS, Limits, SspError, read

COMPONENT = ssd('''<ssd:System name="root"><ssd:Elements>
  <ssd:Component name="A" source="resources/A.fmu"/></ssd:Elements></ssd:System>''')
DESCRIPTION = model_description({"y": ("output", "Float64")}, fmi="3.0")


def refused(capsys, path) -> str:
    code = main(["run", str(path), "--quiet"])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "") and err.count("\n") == 1, err
    return err[:-1]


@pytest.mark.parametrize("suffix", [".ssp", ".fmu"])
def test_empty_and_non_zip_files(tmp_path, capsys, suffix):
    for content in (b"", b"just text"):
        path = tmp_path / f"target{suffix}"
        path.write_bytes(content)
        assert refused(capsys, path) == \
            f"{path}: error: not a readable zip archive: File is not a zip file"


def test_archive_without_system_structure(tmp_path, capsys):
    path = tmp_path / "nossd.ssp"
    path.write_bytes(zip_bytes({"resources/readme.txt": "x", "Other.ssd": COMPONENT}))
    assert refused(capsys, path) == f"{path}: error: no SystemStructure.ssd (variants: Other)"


def test_component_whose_fmu_is_missing(tmp_path, capsys):
    path = tmp_path / "missing.ssp"
    path.write_bytes(zip_bytes({"SystemStructure.ssd": COMPONENT}))
    assert refused(capsys, path) == \
        "SystemStructure.ssd:4: error: component 'A': FMU 'resources/A.fmu' not found"


def test_fmu_without_a_binary_for_this_platform(tmp_path, capsys):
    fmu = zip_bytes({"modelDescription.xml": DESCRIPTION, "binaries/win64/m.dll": b"MZ"})
    path = tmp_path / "nobinary.ssp"
    path.write_bytes(zip_bytes({"SystemStructure.ssd": COMPONENT, "resources/A.fmu": fmu}))
    assert refused(capsys, path) == (
        "SystemStructure.ssd:4: error: component 'A' (resources/A.fmu): no binary for this "
        "platform: looked for binaries/x86_64-linux/m.so")
    alone = tmp_path / "m.fmu"
    alone.write_bytes(fmu)
    assert refused(capsys, alone) == (f"{alone}: error: no binary for this platform: looked "
                                      f"for binaries/x86_64-linux/m.so")


def test_malformed_model_description_names_file_and_line(tmp_path, capsys):
    broken = DESCRIPTION.replace("<ModelVariables>", "<ModelVariables>\n<Float64 name=")
    path = tmp_path / "broken.fmu"
    path.write_bytes(zip_bytes({"modelDescription.xml": broken}))
    message = refused(capsys, path)
    assert message.startswith(f"{path}: error: cannot read the model description: ")
    assert message.endswith("(modelDescription.xml, line 2)")


@pytest.mark.parametrize("member, text", [
    ("SystemStructure.ssd", COMPONENT.replace("</ssd:Elements>", "</ssd:Element>")),
    ("values.ssv", ssv('<ssv:Parameter name="k"><ssv:Real value="1"></ssv:Parameter>')),
    ("map.ssm", ssm('<ssm:MappingEntry source="a" target="b">')),
    ("dictionary.ssb", '<?xml version="1.0"?>\n<ssb:SignalDictionary version="1.0">\n<x'),
])
def test_malformed_ssp_xml_names_file_and_line(tmp_path, member, text):
    path = tmp_path / member
    path.write_text(text)
    with pytest.raises(SspError) as caught:
        read(path, strict=True)
    assert str(caught.value).startswith(f"{member}:")
    assert caught.value.where.line is not None and "\n" not in str(caught.value)


def test_default_limits_are_well_above_real_fmus():
    assert (DEFAULT_LIMITS.max_total_size, DEFAULT_LIMITS.max_entries) == (2 * 1024**3, 100_000)


def test_limits_apply_to_fmus_too(tmp_path):
    path = tmp_path / "many.fmu"
    path.write_bytes(zip_bytes({"modelDescription.xml": DESCRIPTION,
                                **{f"resources/{i}.txt": b"x" for i in range(5)}}))
    with pytest.raises(SspError) as caught:
        open_fmu(path, tmp_path / "out", limits=Limits(max_entries=5))
    assert str(caught.value) == f"{path}: archive has 6 entries, more than the limit of 5"
