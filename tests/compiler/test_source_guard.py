"""Modelica source files that are not text, are empty or are huge: one ``file: message`` line
(with line and column where a byte is at fault), a ``CompilerError``, memory bounded."""
from __future__ import annotations

import pytest

from compiler.errors import CompilerError
from compiler.source_guard import DEFAULT_MAX_BYTES, SourceError, read_source


def refusal(path, **options) -> str:
    with pytest.raises(SourceError) as caught:
        read_source(path, **options)
    assert isinstance(caught.value, CompilerError)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_text_is_returned_without_a_byte_order_mark(tmp_path):
    path = tmp_path / "M.mo"
    path.write_bytes(b"\xef\xbb\xbfmodel M \"\xc3\xa9t\xc3\xa9\" end M;\n")
    assert read_source(path) == 'model M "été" end M;\n'


def test_empty_and_blank_files(tmp_path):
    empty, blank = tmp_path / "empty.mo", tmp_path / "blank.mo"
    empty.write_bytes(b"")
    blank.write_bytes(b" \n\t\n")
    assert refusal(empty) == f"{empty}: file is empty"
    assert refusal(blank) == f"{blank}: file holds only white space"


def test_binary_content_names_line_and_column(tmp_path):
    path = tmp_path / "lib.mo"
    path.write_bytes(b"model M\n  Real x\x00\x01;\nend M;")
    assert refusal(path) == f"{path}:2:9: binary content (a NUL byte), not Modelica text"


def test_latin1_text_is_not_utf8(tmp_path):
    path = tmp_path / "latin.mo"
    path.write_bytes(b"model M\n\"caf\xe9\"\nend M;")
    assert refusal(path) == f"{path}:2:5: not UTF-8 text (byte 0xe9)"


def test_huge_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.mo"
    with open(path, "wb") as stream:  # sparse: 3 GiB on disk costs nothing
        stream.truncate(3 * 1024**3)
    assert refusal(path) == (f"{path}: file is {3 * 1024**3} bytes, more than the limit of "
                             f"{DEFAULT_MAX_BYTES} bytes for Modelica source")
    small = tmp_path / "small.mo"
    small.write_text("model M end M;")
    assert refusal(small, max_bytes=10) == (f"{small}: file is 14 bytes, more than the limit "
                                            f"of 10 bytes for Modelica source")
    assert read_source(small, max_bytes=14) == "model M end M;"


def test_missing_file(tmp_path):
    path = tmp_path / "nope.mo"
    assert refusal(path) == f"{path}: cannot read: No such file or directory"


def test_the_front_end_reads_through_the_guard(tmp_path):
    from compiler.api import check

    binary = tmp_path / "binary.mo"
    binary.write_bytes(b"model A\x00 end A;")
    with pytest.raises(CompilerError, match="binary content"):
        check(binary)
    empty = tmp_path / "empty.mo"
    empty.write_text("")
    with pytest.raises(CompilerError, match="file is empty"):
        check(empty)
