"""The results log of a bench folder: append-only JSONL, one line per finished run (each grid and
solution written once, to puzzles.jsonl beside it: harness/puzzlelog.py), and the rule that
--resume keeps: the runs logged were made with the settings asked for now."""

from __future__ import annotations

import json
import platform
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sudokucp.harness.puzzlelog import PUZZLES, Stored, expand, read_stored
from sudokucp.result import Row, RowError

RESULTS = "results.jsonl"


class BenchError(Exception):
    """A bench that cannot start or go on: no puzzle, a folder that is in use or cannot be
    written, other settings on --resume. The message says what and where."""


class TornLine(RowError):
    """A log line that is not JSON: cut short by a disk that filled, or no record at all."""


def read_row(line: bytes, stored: Stored | None = None) -> Row:
    """The row of one line of the log, its grid and solutions taken from `stored` where it names
    them; TornLine when it is not JSON, RowError (naming the field) when it is JSON but no row."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise TornLine("is not a result record") from None
    return Row.from_dict(expand(data, stored or Stored()))


def line_note(path: Path, number: int, err: RowError) -> str:
    """'results.jsonl: line 3: field 'seconds' is 'abc', not a number (...); skipped'."""
    joint = " " if isinstance(err, TornLine) else ": "
    return f"{path}: line {number}{joint}{err}; skipped"


class ResultLog:
    """The append-only JSONL file: one line per finished run, each written straight to the file
    (a disk that fills mid-line leaves a torn last line, which `load` cuts off), after the
    records of puzzles.jsonl it names."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.puzzles = self.path.with_name(PUZZLES)
        self.handle: Any = None
        self.records: Any = None  # puzzles.jsonl, open
        self.stored: Stored | None = None  # what puzzles.jsonl holds, once read

    def load(self) -> tuple[list[Row], list[str]]:
        """Rows already written and a note per line that is no row; a torn last line (not JSON)
        of either file is cut off."""
        if not self.path.exists():
            return [], []
        notes = self._load_stored()
        rows, offset, torn = [], 0, None
        for number, line in enumerate(self.path.read_bytes().splitlines(keepends=True), 1):
            try:
                if line.strip():
                    rows.append(read_row(line, self.stored))
                    torn = None
            except RowError as err:
                notes.append(line_note(self.path, number, err))
                torn = offset if isinstance(err, TornLine) else None
            offset += len(line)
        if torn is not None:  # the last record was cut short: drop it so appends start clean
            notes[-1] = notes[-1].replace("skipped", "it will be run again")
            with self.path.open("r+b") as handle:
                handle.truncate(torn)
        return rows, notes

    def _load_stored(self) -> list[str]:
        """Read puzzles.jsonl (none: nothing stored), cutting a torn last line off; its notes."""
        if not self.puzzles.exists():
            self.stored = Stored()
            return []
        self.stored, notes, torn = read_stored(
            self.puzzles, self.puzzles.read_bytes().splitlines(keepends=True))
        if torn is not None:  # the row that needed it was never written
            notes[-1] = notes[-1].replace("skipped", "cut off")
            with self.puzzles.open("r+b") as handle:
                handle.truncate(torn)
        return notes

    def open(self, *, append: bool) -> None:
        mode = "ab" if append else "wb"
        try:
            self.handle = self.path.open(mode, buffering=0)
        except OSError as err:
            raise self._failed(err, self.path) from None
        try:
            if append and self.stored is None:
                self._load_stored()
            self.records = self.puzzles.open(mode, buffering=0)
        except OSError as err:
            raise self._failed(err, self.puzzles) from None
        if not append:
            self.stored = Stored()

    def write(self, row: Row) -> None:
        """Append the records the row needs, then its line; a disk that fills leaves at most a
        torn line, and a BenchError."""
        records, data = self.stored.compact(row)
        if records:
            self._append(self.records, self.puzzles, "".join(json.dumps(r) + "\n"
                                                             for r in records))
            self.stored.keep(records)
        self._append(self.handle, self.path, json.dumps(data) + "\n")

    def _append(self, handle: Any, path: Path, text: str) -> None:
        data = memoryview(text.encode())
        try:
            while data:
                data = data[handle.write(data):]
        except OSError as err:
            raise self._failed(err, path) from None

    @staticmethod
    def _failed(err: OSError, path: Path) -> BenchError:
        return BenchError(f"cannot write {path}: {err.strerror}; every run written before "
                          f"is kept: make room, then run the same command with --resume")

    def close(self) -> None:
        for name in ("handle", "records"):
            if getattr(self, name) is not None:
                getattr(self, name).close()
                setattr(self, name, None)


SETTINGS = {"--limit": ("limit", ""), "--timeout": ("timeout", " s"),
            "--memory": ("memory_mb", " MB"),
            "--cpu-limit": ("cpu_limit", " s")}  # option: the Row field it sets, its unit


def changed_settings(old: Sequence[Row], settings: Mapping[str, Any],
                     versions: Mapping[str, str]) -> list[str]:
    """How `settings` (option: value) and `versions` (backend label: version) differ from the
    logged runs' and this Python's: '--timeout 2 s there, 1 s now'."""
    changes = []
    for option, (name, unit) in SETTINGS.items():
        if option not in settings:
            continue
        now = settings[option]
        there = sorted({getattr(row, name) for row in old} - {now}, key=str)
        if there:
            shown = ", ".join(_value(v, unit) for v in there)
            changes.append(f"{option} {shown} there, {_value(now, unit)} now")
    known = [(f"{label} version", "backend", now, [r for r in old if r.backend == label])
             for label, now in versions.items()]
    known.append(("Python", "python", platform.python_version(), old))
    for what, item, now, rows in known:
        there = sorted({r.versions.get(item) for r in rows} - {now, None})
        if there:
            changes.append(f"{what} {', '.join(there)} there, {now} now")
    return changes


def _value(value: Any, unit: str) -> str:
    return "none" if value is None else f"{value:g}{unit}"


def check_settings(log: ResultLog, old: Sequence[Row], settings: Mapping[str, Any],
                   versions: Mapping[str, str]) -> None:
    """Refuse to resume runs made with other settings: their rows would stand for this bench."""
    changes = changed_settings(old, settings, versions)
    if changes:
        raise BenchError(f"{log.path}: --resume with other settings than the runs there "
                         f"({'; '.join(changes)}): use the same settings, leave out --resume "
                         f"to start over, or choose another --out")
