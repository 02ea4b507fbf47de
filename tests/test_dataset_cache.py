"""The converted file of a data set, checked against the SHA-256 recorded when it was made, on
every use: converted again from the checked upstream file, or refused in one line without it;
and `datasets add` / $SUDOKUCP_MIRROR messages that name the real cause."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from sudokucp import datasets
from sudokucp.cli import main
from sudokucp.datasets.catalog import BY_NAME, DataSet

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
TINY = f"# a header\n{PUZZLE}\n".encode()


@pytest.fixture
def tiny(monkeypatch, tmp_path) -> Path:
    """A set 'tiny' pinned to TINY, the cache in tmp_path, its upstream file beside it."""
    data = DataSet("tiny", "one grid", 1, "9x9", "MIT", "someone/somewhere", "tiny.txt",
                   "https://example.invalid/tiny.txt", "lines", "tiny.txt",
                   hashlib.sha256(TINY).hexdigest(), len(TINY), "0" * 40)
    monkeypatch.setitem(BY_NAME, "tiny", data)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    (tmp_path / "tiny-copy.txt").write_bytes(TINY)
    return tmp_path / "tiny-copy.txt"


OTHER = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _tamper(path: Path) -> None:
    """Replace the first puzzle of a converted file by another one."""
    path.write_text(path.read_text().replace(PUZZLE, OTHER, 1))


def test_a_tampered_cache_is_converted_again_from_the_upstream_file(tiny, tmp_path, capsys):
    assert main(["datasets", "add", "tiny", str(tiny)]) == 0
    converted = tmp_path / "cache" / "tiny.txt"
    made = converted.read_text()
    _tamper(converted)
    capsys.readouterr()
    assert main(["solve", "tiny", "-b", "mrv", "--format", "line"]) == 0  # converted again
    assert converted.read_text() == made
    assert capsys.readouterr().out.split()[0] == SOLUTION
    _tamper(converted)
    assert datasets.fetch("tiny") == converted and converted.read_text() == made


def test_a_tampered_cache_without_its_upstream_file_is_refused(tiny, tmp_path, capsys):
    assert main(["datasets", "add", "tiny", str(tiny)]) == 0
    (tmp_path / "cache" / "raw" / "tiny.txt").unlink()
    _tamper(tmp_path / "cache" / "tiny.txt")
    capsys.readouterr()
    bench = ["bench", "--puzzles", "tiny", "--backends", "naive", "--out", str(tmp_path / "b")]
    for command in (["solve", "tiny"], ["datasets", "fetch", "tiny"], bench):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "does not match the SHA-256 recorded" in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1, err


def test_add_names_a_device_or_a_pipe(tiny, tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for source in ("/dev/zero", str(fifo)):
        assert main(["datasets", "add", "tiny", source]) == 2
        err = capsys.readouterr().err
        assert "is not a regular file" in err and "no such file" not in err


def test_a_mirror_that_is_no_url_blames_the_scheme(tiny, monkeypatch, capsys):
    pytest.importorskip("pooch", reason="downloads need the [datasets] extra (pooch)")
    monkeypatch.setenv(datasets.MIRROR_ENV, "file:///etc")
    assert main(["datasets", "fetch", "tiny"]) == 2
    err = capsys.readouterr().err
    assert "not file://" in err and "SHA-256" not in err.split("by hand")[0]
