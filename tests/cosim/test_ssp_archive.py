"""Untrusted .ssp archives: every unsafe entry is refused with one line naming archive and entry."""
from __future__ import annotations

import io
import stat
import struct
import zipfile

import pytest
from conftest import ssd, zip_bytes

from cosim.ssp import Limits, SspError, extract, load, materialize
from cosim.ssp.archive import open_archive

SIMPLE = ssd('<ssd:System name="root"/>')


def write_zip(path, entries) -> str:
    """``entries``: name -> bytes, or ZipInfo -> bytes for entries with special attributes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry, data in entries.items():
            archive.writestr(entry, data)
    return str(path)


def refusal(path, **options) -> str:
    with pytest.raises(SspError) as caught:
        load(path, **options)
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("entry, problem", [
    ("../evil.txt", "escapes the extraction folder"),
    ("resources/../../evil.txt", "escapes the extraction folder"),
    ("..\\evil.txt", "escapes the extraction folder"),
    ("/etc/evil.txt", "is an absolute path"),
    ("C:/evil.txt", "is an absolute path"),
])
def test_entries_that_escape_are_refused(tmp_path, entry, problem):
    path = write_zip(tmp_path / "bad.ssp", {"SystemStructure.ssd": SIMPLE, entry: b"x"})
    assert refusal(path) == f"{path}: entry '{entry}' {problem}"


def test_symlink_entry_is_refused(tmp_path):
    link = zipfile.ZipInfo("resources/link")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    path = write_zip(tmp_path / "link.ssp", {"SystemStructure.ssd": SIMPLE, link: "/etc/passwd"})
    assert refusal(path) == f"{path}: entry 'resources/link' is a symbolic link"


def test_too_many_entries_are_refused(tmp_path):
    entries = {"SystemStructure.ssd": SIMPLE, **{f"r/{i}.txt": b"x" for i in range(4)}}
    path = write_zip(tmp_path / "many.ssp", entries)
    assert refusal(path, limits=Limits(max_entries=4)) == \
        f"{path}: archive has 5 entries, more than the limit of 4"
    load(path, limits=Limits(max_entries=5))


def test_total_declared_size_is_limited(tmp_path):
    path = write_zip(tmp_path / "big.ssp", {"SystemStructure.ssd": SIMPLE,
                                            "resources/big.bin": b"\x01" * 5000})
    assert refusal(path, limits=Limits(max_total_size=4000)) == \
        f"{path}: entry 'resources/big.bin': archive expands to more than the limit of 4000 bytes"


def test_differing_duplicates_and_encrypted_entries_are_refused(tmp_path):
    with pytest.warns(UserWarning):
        path = write_zip(tmp_path / "dup.ssp", {"SystemStructure.ssd": SIMPLE,
                                                zipfile.ZipInfo("SystemStructure.ssd"):
                                                    SIMPLE + " "})
    assert refusal(path) == \
        f"{path}: entry 'SystemStructure.ssd' appears twice with different contents"
    path = tmp_path / "enc.ssp"
    path.write_bytes(patch_headers(zip_bytes({"SystemStructure.ssd": SIMPLE,
                                              "resources/secret.bin": b"x"}),
                                   6, 8, "<H", lambda flags: flags | 1, b"resources/secret.bin"))
    assert refusal(path) == f"{path}: entry 'resources/secret.bin' is encrypted"


def test_identical_duplicates_are_used_once_with_a_warning(tmp_path, caplog):
    with pytest.warns(UserWarning):
        path = write_zip(tmp_path / "dup.ssp", {"SystemStructure.ssd": SIMPLE,
                                                zipfile.ZipInfo("SystemStructure.ssd"): SIMPLE})
    structure, _ = load(path)
    assert structure.name
    assert f"{path}: warning: 1 entry appears twice with the same content " \
           f"('SystemStructure.ssd'); each is used once" in caplog.text
    folder = extract(path, tmp_path / "out")
    assert (folder / "SystemStructure.ssd").read_text() == SIMPLE


def test_compression_bomb_is_refused_while_streaming(tmp_path):
    # Honest headers, within the size limit: only the decompression ratio gives it away.
    bomb = SIMPLE.encode() + b" " * (4 << 20)
    path = write_zip(tmp_path / "bomb.ssp", {"SystemStructure.ssd": bomb})
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("SystemStructure.ssd")
        assert info.file_size / info.compress_size > 200
    assert refusal(path) == \
        f"{path}: entry 'SystemStructure.ssd' expands more than 200:1 (a compression bomb?)"
    load(path, limits=Limits(max_ratio=5000))
    with pytest.raises(SspError, match="compression bomb"):
        extract(path, tmp_path / "out")


def patch_headers(data: bytes, local: int, central: int, fmt: str, change, name=None) -> bytes:
    """Apply ``change`` to one field of the local and central headers of entries (``name``
    or all): the field sits at byte ``local`` / ``central`` of each header."""
    data = bytearray(data)
    for signature, offset, name_at in ((b"PK\x03\x04", local, 30), (b"PK\x01\x02", central, 46)):
        start = 0
        while (start := data.find(signature, start)) != -1:
            if name is None or data[start + name_at:start + name_at + len(name)] == name:
                value = struct.unpack_from(fmt, data, start + offset)[0]
                struct.pack_into(fmt, data, start + offset, change(value))
            start += 4
    return bytes(data)


def test_entry_larger_than_its_header_says_is_refused(tmp_path):
    data = zip_bytes({"SystemStructure.ssd": SIMPLE, "resources/a.bin": bytes(range(256)) * 64})
    path = tmp_path / "lying.ssp"
    path.write_bytes(patch_headers(data, 22, 24, "<I", lambda size: 100, b"resources/a.bin"))
    with pytest.raises(SspError) as caught:
        extract(path, tmp_path / "out")
    assert str(caught.value).startswith(f"{path}: entry 'resources/a.bin' cannot be read: ")
    assert "CRC" in str(caught.value)


def test_nested_archive_gets_the_same_checks(tmp_path):
    inner = zip_bytes({"SystemStructure.ssd": SIMPLE, "../evil.txt": b"x"})
    outer = ssd('''
        <ssd:System name="root"><ssd:Elements>
          <ssd:Component name="sub" type="application/x-ssp-package" source="resources/sub.ssp"/>
        </ssd:Elements></ssd:System>''')
    path = tmp_path / "outer.ssp"
    path.write_bytes(zip_bytes({"SystemStructure.ssd": outer, "resources/sub.ssp": inner}))
    structure, diagnostics = load(path)
    assert structure.system.elements[0].nested is None
    assert [str(d) for d in diagnostics if d.severity == "error"] == [
        "resources/sub.ssp: component 'sub': entry '../evil.txt' escapes the extraction folder"]
    assert refusal(path, strict=True) == \
        "resources/sub.ssp: component 'sub': entry '../evil.txt' escapes the extraction folder"


def test_archive_nesting_depth_is_limited(tmp_path):
    component = '''<ssd:System name="root"><ssd:Elements><ssd:Component name="sub"
        type="application/x-ssp-package" source="sub.ssp"/></ssd:Elements></ssd:System>'''
    innermost = zip_bytes({"SystemStructure.ssd": SIMPLE})
    middle = zip_bytes({"SystemStructure.ssd": ssd(component), "sub.ssp": innermost})
    path = tmp_path / "deep.ssp"
    path.write_bytes(zip_bytes({"SystemStructure.ssd": ssd(component), "sub.ssp": middle}))
    structure, diagnostics = load(path)
    assert structure.system.elements[0].nested.system.elements[0].nested.system.name == "root"
    assert not diagnostics
    with pytest.raises(SspError) as caught:
        load(path, strict=True, limits=Limits(max_depth=1))
    assert str(caught.value) == \
        "sub.ssp/sub.ssp: component 'sub': archives nested deeper than 1 levels"


def _as_deflate64(data: bytes) -> bytes:
    """Mark every deflated entry as Deflate64 (method 9).

    A raw deflate stream that never uses length code 285 decodes identically as Deflate64;
    zlib only emits code 285 for matches of 258 bytes, which text without long repeats lacks.
    """
    def method(value):
        assert value == zipfile.ZIP_DEFLATED
        return 9

    return patch_headers(data, 8, 10, "<H", method)


def test_deflate64_archive_loads(tmp_path):
    text = ssd('''
        <ssd:System name="deflate64"><ssd:Elements>
          <ssd:Component name="A" source="resources/A.fmu"/>
        </ssd:Elements></ssd:System>''')
    path = tmp_path / "d64.ssp"
    path.write_bytes(_as_deflate64(zip_bytes({"SystemStructure.ssd": text,
                                              "resources/A.fmu": b"not really an fmu"})))
    with zipfile.ZipFile(path) as archive:
        assert archive.getinfo("SystemStructure.ssd").compress_type == 9
    structure, _ = load(path)
    assert structure.system.name == "deflate64"
    assert materialize(structure.package, "resources/A.fmu", tmp_path / "m").read_bytes() == \
        b"not really an fmu"


def test_extract_and_materialize_nested_members(tmp_path):
    inner = zip_bytes({"SystemStructure.ssd": SIMPLE, "resources/P.fmu": b"payload"})
    path = tmp_path / "outer.ssp"
    path.write_bytes(zip_bytes({"SystemStructure.ssd": SIMPLE, "resources/sub.ssp": inner}))
    folder = extract(path, tmp_path / "x")
    assert (folder / "resources" / "sub.ssp").read_bytes() == inner
    from cosim.ssp.model import PackageRef

    ref = PackageRef(str(path), True, ("resources/sub.ssp",))
    copy = materialize(ref, "resources/P.fmu", tmp_path / "m")
    assert copy == tmp_path / "m" / "resources" / "P.fmu" and copy.read_bytes() == b"payload"


def test_not_a_zip_is_refused(tmp_path):
    path = tmp_path / "text.ssp"
    path.write_text("hello")
    assert refusal(path) == f"{path}: not a readable zip archive: File is not a zip file"
    with pytest.raises(SspError):
        open_archive(io.BytesIO(b"PK\x05\x06" + b"\0" * 10), "broken")
