"""A results folder read back: the runs of its results.jsonl judged as bench judged them (the last
run of each key, answers past the time limit as time-outs, cross-validation), without writing to
it, and the settings those runs carry."""

from __future__ import annotations

import gc
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from sudokucp.check import explain, is_solution, solved_rows
from sudokucp.harness.puzzlelog import PUZZLES, Stored, read_stored
from sudokucp.harness.runcheck import Disagreement, cross_validate, enforce_time_limit, latest
from sudokucp.harness.runlog import RESULTS
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import SYMBOLS, Puzzle, Shape
from sudokucp.reporting.log_rows import read_lines
from sudokucp.result import Row, Status


class FolderError(Exception):
    """A folder that holds no readable results log; the message says which and why."""


@dataclass
class ResultsFolder:
    """The judged runs of a folder, the disagreements found, and notes on unreadable lines."""

    path: Path
    rows: list[Row]
    disagreements: list[Disagreement]
    notes: list[str] = field(default_factory=list)


def read_rows(path: Path) -> tuple[list[Row], list[str]]:
    """Every readable line of a results log (left as it is, as puzzles.jsonl beside it), and a
    note per unreadable line; the file read a block at a time, never whole."""
    stored, notes = read_puzzles(path.with_name(PUZZLES))
    try:
        with path.open("rb") as handle:
            rows, more = read_lines(path, log_lines(handle), stored)
            return rows, notes + more
    except FileNotFoundError:
        raise FolderError(f"{path.parent}: no {path.name} there (is it a folder that "
                          f"`sudoku-cp bench --out` wrote?)") from None
    except OSError as err:
        raise FolderError(f"cannot read {path}: {err.strerror}") from None


def read_puzzles(path: Path) -> tuple[Stored, list[str]]:
    """The grids and solutions of a folder's puzzles.jsonl (none in a log from before it), and
    a note per line that is no record."""
    try:
        with path.open("rb") as handle:
            stored, notes, _ = read_stored(path, log_lines(handle))
    except FileNotFoundError:
        return Stored(), []
    except OSError as err:
        raise FolderError(f"cannot read {path}: {err.strerror}") from None
    return stored, notes


BLOCK = 1 << 24  # bytes of the log read at a time


def log_lines(handle: BinaryIO, block: int = BLOCK) -> Iterator[bytes]:
    """The lines of an open file as bytes.splitlines gives those of its whole text: each
    block cut after its last newline, the rest carried to the next."""
    rest = b""
    while chunk := handle.read(block):
        text = rest + chunk
        cut = text.rfind(b"\n") + 1
        rest = text[cut:]
        yield from text[:cut].splitlines()
    yield from rest.splitlines()


def load_folder(folder: str | Path) -> ResultsFolder:
    """The runs of `folder`/results.jsonl as bench's tables show them; FolderError when there is
    no folder, no log, or no run in it."""
    path = Path(folder)
    if not path.is_dir():
        raise FolderError(f"{path}: no such folder")
    with gc_paused():
        rows, notes = read_rows(path / RESULTS)
        if not rows:
            raise FolderError(f"{path / RESULTS}: no run recorded")
        judged = rechecked(latest(rows))
        checked, disagreements = cross_validate([enforce_time_limit(row) for row in judged])
    return ResultsFolder(path, checked, disagreements, notes)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic collector off for a while (as it was after): reading a million rows
    makes millions of objects and no cycle, and each full collection would walk them all."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def rechecked(rows: list[Row]) -> list[Row]:
    """The rows with every claimed solution judged again against the row's grid, as bench judged
    it: the log's `verified` flag is not trusted; a refused solution makes the row WRONG. Each
    distinct (grid, solution) is judged once, the classic grids of a shape in one batch."""
    verdicts = judged(rows)
    return [_recheck(row, verdicts) for row in rows]


Verdicts = dict[tuple[str, str, str], str | None]  # (box, grid, solution): why refused, or None


def _recheck(row: Row, verdicts: Verdicts) -> Row:
    if not row.solutions:
        return row
    for line in row.solutions:
        why = verdicts[row.box, row.grid, line]
        if why is not None:
            return _refuted(row, why)
    return replace(row, verified=True) if row.verified is not True else row


def judged(rows: list[Row]) -> Verdicts:
    """Why each distinct claimed solution of the rows is refused (None when it solves its grid):
    classic grids judged in batches by sudokucp.check.solved_rows, variants one by one."""
    puzzles: dict[tuple[str, str], Puzzle | str] = {}
    batches: dict[Shape, list[tuple[str, str, str]]] = defaultdict(list)
    verdicts: Verdicts = {}
    for row in rows:
        for line in row.solutions:
            claim = (row.box, row.grid, line)
            if claim in verdicts:
                continue
            place = (row.box, row.grid)
            if place not in puzzles:
                puzzles[place] = _puzzle_of(row)
            puzzle = puzzles[place]
            verdicts[claim] = None
            if isinstance(puzzle, str):
                verdicts[claim] = (f"its grid cannot be read ({puzzle}), so its solutions "
                                   f"cannot be checked")
            elif puzzle.rules.classic and _length(line) == puzzle.shape.cells:
                batches[puzzle.shape].append(claim)
            else:
                verdicts[claim] = _refusal(puzzle, _cells_of(line))
    for shape, claims in batches.items():
        givens = np.array([puzzles[box, grid].cells for box, grid, _ in claims], np.int64)
        grids = _cells_array([line for _, _, line in claims], shape.cells)
        for claim, ok in zip(claims, solved_rows(shape, givens, grids)):
            if not ok:
                verdicts[claim] = _refusal(puzzles[claim[:2]], _cells_of(claim[2]))
    return verdicts


def _refusal(puzzle: Puzzle, cells: tuple[int, ...]) -> str | None:
    """Why `cells` do not solve `puzzle`, or None when they do."""
    if is_solution(puzzle, cells):
        return None
    return "invalid solution: " + "; ".join(explain(puzzle, cells)[:3])


def _puzzle_of(row: Row) -> Puzzle | str:
    """The puzzle of a row's grid (in its box shape when given), or why there is none."""
    try:
        shape = _box_shape(row.box) if row.box else None
        return parse_grid(row.grid, shape=shape)
    except ValueError as err:  # a PuzzleError, mostly
        return str(err)


@lru_cache(maxsize=64)
def _box_shape(box: str) -> Shape:
    """The shape of a row's box ('3x3'), read once per distinct text."""
    return Shape.parse(f"box {box}")


SYMBOL_VALUES = {symbol: value for value, symbol in enumerate(SYMBOLS)}
BYTE_VALUES = np.array([SYMBOL_VALUES.get(chr(byte), -1) for byte in range(128)], np.int64)


def _cells_array(lines: list[str], cells: int) -> np.ndarray:
    """The values of solution lines of `cells` symbols each, a row per line (-1 for a symbol
    `to_line` never writes): ASCII lines read in one pass, the others one by one."""
    text = "".join(lines)
    if not text.isascii() or " " in text:  # past a side of 35, numbers apart
        return np.array([_cells_of(line) for line in lines], np.int64)
    codes = np.frombuffer(text.encode("ascii"), np.uint8).reshape(len(lines), cells)
    return BYTE_VALUES[codes]


def _cells_of(line: str) -> tuple[int, ...]:
    """The values of a solution as `to_line` wrote it (-1 for a symbol it never writes)."""
    if " " in line:  # past a side of 35: numbers apart, '.' for a blank
        return tuple(0 if w == "." else int(w) if w.isascii() and w.isdigit() else -1
                     for w in line.split(" "))
    return tuple(SYMBOL_VALUES.get(symbol, -1) for symbol in line)


def _length(line: str) -> int:
    """The cells of a line as `to_line` wrote it."""
    return line.count(" ") + 1 if " " in line else len(line)


def _refuted(row: Row, why: str) -> Row:
    """The row WRONG, its solutions unverified; one that bench found WRONG keeps its reason."""
    error = row.error if row.status is Status.WRONG and row.error else why
    return replace(row, status=Status.WRONG, verified=False, error=error)


def settings_of(rows: list[Row]) -> dict[str, Any]:
    """The settings the runs themselves record, keyed as the summary's settings lines."""
    versions = {row.backend: row.versions.get("backend") or "?" for row in rows}
    pythons = sorted({row.versions.get("python") or "?" for row in rows})
    datasets = Counter(row.dataset for row in {row.hash: row for row in rows}.values())
    return {"read": len(rows), "python": ", ".join(pythons),
            "backends": dict(sorted(versions.items())),
            "limit": _one(row.limit for row in rows),
            "timeout": _one(row.timeout for row in rows),
            "memory_mb": _one(row.memory_mb for row in rows),
            "measure": _one(row.measure for row in rows),
            "repeat": max((row.repeat for row in rows), default=0) + 1,
            "datasets": dict(sorted(datasets.items()))}


def _one(values: Any) -> Any:
    """The value every run shares; the largest when they differ (as a resume would refuse)."""
    found = sorted(set(values), key=lambda v: (v is not None, v or 0))
    return found[-1] if found else None
