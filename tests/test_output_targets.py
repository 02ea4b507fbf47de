"""Every file or folder a command writes is checked before any work (made, a folder, writable),
and a write that fails (a full disk) is one line naming the file, with nothing half-written left.

A folder that refuses new files is locked by its mode, or for root (whom modes do not stop) by
the immutable flag (conftest's locked_folder); a file in place of a folder, a missing parent and
a full disk (simulated) work for anyone."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest

from sudokucp.cli import main
from sudokucp.io import files

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
GRIDS_4X4 = str(PUZZLES / "examples" / "4x4.txt")
FULL = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def no_work(monkeypatch):
    """Generation, the ladder's runs and a trace's search fail the test if they start."""
    def forbidden(*args, **kwargs):
        raise AssertionError("the work started before its output was checked")

    monkeypatch.setattr("sudokucp.generators.generator.generate", forbidden)
    monkeypatch.setattr("sudokucp.teaching.ladder.climb", forbidden)
    monkeypatch.setattr("sudokucp.teaching.trace.run", forbidden)


def one_line(err: str) -> str:
    """The one message of a refusal (progress lines aside), with no traceback."""
    messages = [line for line in err.splitlines() if line.startswith("sudoku-cp")]
    assert "Traceback" not in err and len(messages) == 1, err
    return err


def everything_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# --- the helpers --------------------------------------------------------------------------------

def test_writable_folder_makes_the_folder_and_its_parents(tmp_path):
    assert files.writable_folder(tmp_path / "a" / "b") == tmp_path / "a" / "b"
    assert everything_in(tmp_path) == ["a", "a/b"]  # the probe file is gone


def test_a_file_in_the_way_is_named(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(files.NotWritable, match=r"in .*f: it is a file, not a folder"):
        files.writable_folder(tmp_path / "f")
    with pytest.raises(files.NotWritable, match=r"out.txt: .*f is a file, not a folder"):
        files.writable_file(tmp_path / "f" / "sub" / "out.txt")
    with pytest.raises(files.NotWritable, match="it is a folder"):
        files.writable_file(tmp_path)


def test_an_unwritable_folder_is_refused(locked_folder):
    folder, reason = locked_folder
    with pytest.raises(files.NotWritable, match=reason):
        files.writable_folder(folder)
    with pytest.raises(files.NotWritable, match=rf"x.txt: {reason} \(in the folder"):
        files.writable_file(folder / "x.txt")


def test_a_failed_atomic_write_names_the_file_and_leaves_nothing(tmp_path):
    def fill(tmp: str) -> None:
        Path(tmp).write_text("half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), tmp)

    with pytest.raises(OSError) as caught:
        files.atomic_write(tmp_path / "out.csv", fill)
    assert caught.value.filename == str(tmp_path / "out.csv")
    assert everything_in(tmp_path) == []


# --- generate -o --------------------------------------------------------------------------------

@pytest.mark.parametrize("target, message", [
    ("DIR", "it is a folder"),
    ("FILE/x.txt", "FILE is a file, not a folder"),
    ("FILE/deeper/x.txt", "FILE is a file, not a folder"),
])
def test_generate_checks_its_file_before_generating(tmp_path, capsys, no_work, target, message):
    (tmp_path / "DIR").mkdir()
    (tmp_path / "FILE").write_text("x")
    before = everything_in(tmp_path)
    assert main(["generate", "--shape", "4x4", "-o", str(tmp_path / target)]) == 2
    assert message in one_line(capsys.readouterr().err)
    assert everything_in(tmp_path) == before


def test_generate_refuses_an_unwritable_folder(locked_folder, capsys, no_work):
    folder, reason = locked_folder
    assert main(["generate", "--shape", "4x4", "-o", str(folder / "x.txt")]) == 2
    assert reason in one_line(capsys.readouterr().err)
    assert everything_in(folder) == []


def test_generate_makes_a_missing_folder_and_leaves_no_temporary_file(tmp_path, capsys):
    target = tmp_path / "new" / "puzzles.txt"
    assert main(["generate", "--shape", "4x4", "--count", "2", "-o", str(target)]) == 0
    assert len([x for x in target.read_text().splitlines() if not x.startswith("#")]) == 2
    assert everything_in(tmp_path) == ["new", "new/puzzles.txt"]


class FillingFile(io.StringIO):
    """A file that takes its first write (the header), then finds the disk full."""

    def write(self, text: str) -> int:
        if self.getvalue():
            raise FULL
        return super().write(text)


def test_generate_on_a_full_disk_says_so_and_keeps_nothing(tmp_path, capsys, monkeypatch):
    from sudokucp.cli import output

    def opened(path, *args, **kwargs):
        Path(path).write_text("")  # the temporary file exists, as it would
        return FillingFile()

    monkeypatch.setattr(output, "open", opened, raising=False)
    target = tmp_path / "puzzles.txt"
    assert main(["generate", "--shape", "4x4", "-o", str(target)]) == 2
    err = one_line(capsys.readouterr().err)
    assert f"cannot write {target}: No space left on device" in err
    assert everything_in(tmp_path) == []


# --- ladder --out -------------------------------------------------------------------------------

@pytest.mark.parametrize("target, message", [
    ("FILE", "it is a file, not a folder"),
    ("FILE/sub", "FILE is a file, not a folder"),
    ("DIR", "ladder.md: it is a folder"),
])
def test_ladder_checks_its_folder_before_the_runs(tmp_path, capsys, no_work, target, message):
    (tmp_path / "FILE").write_text("x")
    (tmp_path / "DIR" / "ladder.md").mkdir(parents=True)
    assert main(["ladder", GRIDS_4X4, "--out", str(tmp_path / target)]) == 2
    assert message in one_line(capsys.readouterr().err)


def test_ladder_refuses_an_unwritable_folder(locked_folder, capsys, no_work):
    folder, reason = locked_folder
    assert main(["ladder", GRIDS_4X4, "--out", str(folder)]) == 2
    assert reason in one_line(capsys.readouterr().err)


def test_ladder_on_a_full_disk_prints_the_table_and_names_the_file(tmp_path, capsys,
                                                                   monkeypatch):
    from sudokucp.teaching import ladder

    written = ladder.write_text

    def write_text(path: Path, text: str) -> None:
        if path.name == "ladder.csv":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        written(path, text)

    monkeypatch.setattr(ladder, "write_text", write_text)
    out = tmp_path / "report"
    assert main(["ladder", GRIDS_4X4, "--sample", "1", "--rungs", "singles", "--out",
                 str(out)]) == 2
    printed = capsys.readouterr()
    err = one_line(printed.err)
    assert f"cannot write {out / 'ladder.csv'}: No space left on device" in err
    assert "table is printed above" in err and "| `singles` |" in printed.out
    assert everything_in(out) == ["ladder_runs.csv"]  # written before the disk filled


# --- trace --out / --html -----------------------------------------------------------------------

@pytest.mark.parametrize("option", ["--out", "--html"])
def test_trace_checks_its_files_before_the_search(tmp_path, capsys, no_work, option):
    (tmp_path / "FILE").write_text("x")
    assert main(["trace", GRIDS_4X4, option, str(tmp_path / "FILE" / "t")]) == 2
    assert "FILE is a file, not a folder" in one_line(capsys.readouterr().err)
