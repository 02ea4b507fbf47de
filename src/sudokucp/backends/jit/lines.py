"""solve_lines: a text of one-line grids read and solved in compiled code, with no Python object
per grid; each line it cannot read goes to the ordinary reader (sudokucp.io.formats) for the entry
or the message that reader makes of it today.

Reading (`read_lines`): scan.py sorts the lines and parses the plain grids of one shape. When other
lines are there, the ordinary reader reads the text with every plain grid's line left blank (a
blank line, like a plain grid, ends a grid of several rows and makes no entry), so that its
entries and messages are its own, at their lines. It reads the whole text itself when its reading
would differ otherwise: UTF-16, a carriage return inside a line (it numbers the pieces as lines),
or a CSV header (the lines after it are read by their columns).
Solving (`solve_grids`): the batch call of the shape's depth-first kernel (bands at 9x9, dfs
elsewhere) over the grids; each grid's time is its share of the call by the processor's cycle
counter. `FileBatch` is `solve`'s use of both on a file.

Glossary: plain line = a grid's cells and nothing else, one character each; rest = the ordinary
reader's entries (puzzles in other layouts, or errors) of the other lines.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from sudokucp.backends.jit.kernels import ready
from sudokucp.backends.jit.layout import tables
from sudokucp.clock import cpu_seconds
from sudokucp.io.formats import MAX_LINE, UTF16_MARKS, Entry, iter_entries
from sudokucp.io.plain import NOT_A_VALUE, SHAPE_CHARS, SHAPES, VALUE_TABLE
from sudokucp.io.records import csv_header
from sudokucp.io.variants import has_block
from sudokucp.puzzle import MAX_SIDE, Puzzle, Shape
from sudokucp.result import Result
from sudokucp.rules import CLASSIC

MAX_KEPT = 64  # solutions a batch keeps per grid (solve --limit K batches up to this K)
CHUNK = 4096  # grids per compiled call in FileBatch: solve shows each chunk as it is solved
LOOKED_AT = 100  # lines looked at for the shape when none is given
PLAIN, SKIP, OTHER, SPLIT = range(4)  # scan.py's kinds of line


@dataclass(frozen=True)
class Lines:
    """A text read: the grids of one shape read in compiled code, and the rest."""

    shape: Shape | None  # of the grids (None: no line was a plain grid of a shape)
    numbers: Any  # int64 (grids,): the line of each grid, from 1
    grids: Any  # uint8 (grids x cells): the givens, 0 for a blank
    rest: tuple[Entry, ...]  # the ordinary reader's entries of the other lines, in order
    seconds: float  # the compiled reading alone


@dataclass(frozen=True)
class Solved:
    """The answers of a batch, one row per grid."""

    solutions: Any  # uint8 (grids x kept x cells): the first solutions, zeros after the count
    counts: Any  # int64 (grids,): solutions counted, up to the limit
    complete: Any  # bool (grids,): search exhausted, so the count is exact
    stats: Any  # int64 (grids x 3): nodes, guesses, backtracks
    seconds: Any  # float64 (grids,): each grid's share of the call's wall time, by its cycles
    cpu: Any  # float64 (grids,): the same share of the call's CPU time
    call_s: float  # the compiled call


@dataclass(frozen=True)
class LineBatch:
    """What solve_lines returns: the text read, and the answers of its grids (row for row)."""

    lines: Lines
    solved: Solved


def solve_lines(data: bytes | Any, shape: Shape | None = None, *, backend: Any,
                limit: int = 1, kept: int = 1, stem: str = "") -> LineBatch:
    """Read and solve the one-line grids of a text (bytes, or an array of rows: uint8 or 'S'),
    `kept` solutions kept per grid up to `limit` counted (0: all), by `backend` (a Jit); the
    other lines' entries are the ordinary reader's (`lines.rest`), their puzzles left to the
    caller."""
    lines = read_lines(data, shape, stem=stem)
    return LineBatch(lines, solve_grids(backend, lines.grids, lines.shape, limit=limit, kept=kept))


# --- reading -------------------------------------------------------------------------------------

def read_lines(data: bytes | Any, shape: Shape | None = None, *, stem: str = "") -> Lines:
    """The grids of a text read in compiled code, and the ordinary reader's entries of the rest
    (their puzzles named after `stem` as a file's are)."""
    raw = as_bytes(data)
    found = shape or first_shape(raw)
    if raw[:2] in UTF16_MARKS or found is None or found.cells <= MAX_SIDE or holds_variant(raw):
        return whole(raw, shape, stem)  # no line can be read at once (as io/plain.py says)
    count = raw.count(b"\n") + (1 if raw and not raw.endswith(b"\n") else 0)
    kinds, starts = np.empty(count, np.uint8), np.empty(count, np.int64)
    grids = np.empty((count, found.cells), np.uint8)
    k = ready("scan", "scan")
    t0 = time.perf_counter()
    plain = k.scan(np.frombuffer(raw, np.uint8), value_table(found.side), tables(found, CLASSIC)[2],
                   found.cells, MAX_LINE, kinds, starts, grids, np.zeros(3 * found.side, np.int64))
    seconds = time.perf_counter() - t0
    rest: tuple[Entry, ...] = ()
    if (kinds >= OTHER).any():
        if (kinds == SPLIT).any():
            return whole(raw, shape, stem)
        pieces = raw.split(b"\n")
        if any(is_header(pieces[i]) for i in np.flatnonzero(kinds == OTHER).tolist()):
            return whole(raw, shape, stem)
        blanked = [b"" if kind == PLAIN else piece for piece, kind in zip(pieces, kinds.tolist())]
        rest = tuple(named(entry, stem) for entry in iter_entries(blanked, shape=shape))
    return Lines(found, starts[:plain] + 1, grids[:plain], rest, seconds)


def holds_variant(raw: bytes) -> bool:
    """Whether a text has a variant block, whose grid line alone is not the puzzle."""
    return b"ariant" in raw and has_block(raw.decode("utf-8", "replace"))


def as_bytes(data: bytes | Any) -> bytes:
    """A text as bytes: bytes as they are, the rows of an array (uint8 lines x characters, or
    byte strings 'S', a shorter one without numpy's NUL padding) one line each."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    rows = np.asarray(data)
    if rows.dtype.kind == "S" and rows.ndim == 1:
        if rows.dtype.itemsize and len(rows):
            chars = rows.view(np.uint8).reshape(len(rows), rows.dtype.itemsize)
            if chars[:, -1].all():  # every row fills the width: no padding to strip
                rows = chars
        if rows.dtype.kind == "S":
            return b"".join(row + b"\n" for row in rows.tolist())
    if rows.dtype != np.uint8 or rows.ndim != 2:
        raise TypeError("solve_lines reads bytes, or an array of rows (uint8 lines x characters, "
                        f"or byte strings), not {type(data).__name__} of {rows.dtype}")
    newline = np.full((len(rows), 1), ord("\n"), np.uint8)
    return np.concatenate([rows, newline], axis=1).tobytes()


def first_shape(raw: bytes) -> Shape | None:
    """The shape of the first plain-sized line among the first LOOKED_AT (None: no such line)."""
    for piece in raw[:LOOKED_AT * 1024].split(b"\n", LOOKED_AT)[:LOOKED_AT]:
        shape = SHAPES.get(len(piece.removesuffix(b"\r")))
        if shape is not None:
            return shape
    return None


@cache
def value_table(side: int) -> Any:
    """Each byte's value in a grid of this side (0 a blank), NOT_A_VALUE for any other byte."""
    table = np.full(256, NOT_A_VALUE, np.uint8)
    for ch in SHAPE_CHARS[side]:
        table[ch] = VALUE_TABLE[ch]
    return table


def is_header(piece: bytes) -> bool:
    """Whether a line may be a CSV header ('quizzes,solutions'); when in doubt, yes."""
    text = piece.decode("utf-8", "replace")
    return "," in text and csv_header(text.strip()) is not None


def named(entry: Entry, stem: str) -> Entry:
    """An entry of lines read without a file, its puzzle named as the file's would be (the
    reader names a puzzle by its stem then ':line' or '#index')."""
    if entry.puzzle is None or not stem:
        return entry
    puzzle = Puzzle.from_checked(entry.puzzle.shape, entry.puzzle.cells,
                                 stem + entry.puzzle.name)
    return Entry(entry.line, puzzle, entry.error, entry.comment, entry.solution)


def whole(raw: bytes, shape: Shape | None, stem: str) -> Lines:
    """A text read by the ordinary reader alone."""
    rest = tuple(named(entry, stem) for entry in iter_entries(raw.split(b"\n"), shape=shape))
    return Lines(None, np.zeros(0, np.int64), np.zeros((0, 0), np.uint8), rest, 0.0)


# --- solving -------------------------------------------------------------------------------------

def solve_grids(backend: Any, grids: Any, shape: Shape | None, *, limit: int = 1,
                kept: int = 1) -> Solved:
    """The dfs kernel's batch over (grids x cells) uint8 givens, with the backend's options."""
    if not 1 <= kept <= MAX_KEPT:
        raise ValueError(f"a batch keeps 1 to {MAX_KEPT} solutions per grid, not {kept}")
    m = len(grids)
    if not m:
        cells = shape.cells if shape is not None else 0
        return Solved(np.zeros((0, kept, cells), np.uint8), np.zeros(0, np.int64),
                      np.zeros(0, np.bool_), np.zeros((0, 3), np.int64), np.zeros(0),
                      np.zeros(0), 0.0)
    grids = np.ascontiguousarray(grids, np.uint8)
    backend.run_batch(grids[:0], shape, limit, kept, timed=True)  # compiled before the clock
    t0, c0 = time.perf_counter(), cpu_seconds()
    out = backend.run_batch(grids, shape, limit, kept, timed=True)
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    cycles = out.stats[:, 3].astype(np.float64)
    share = cycles / cycles.sum() if cycles.sum() > 0 else np.full(m, 1 / m)
    return Solved(out.solutions, out.counts, out.complete, out.stats[:, :3], share * wall,
                  share * cpu, wall)


# --- solve on a file -----------------------------------------------------------------------------

Solver = Callable[..., Result]  # cli.solve's: (puzzle, limit, keep, on_solution) -> Result


class FileBatch:
    """`solve` with jit on a file of one-line grids: the file read at once, its grids solved CHUNK
    at a time as solve shows them, each with the Result that Backend.solve would give."""

    def __init__(self, backend: Any, lines: Lines, limit: int, keep: int | None, stem: str,
                 first: dict[str, float]) -> None:
        self.backend, self.lines, self.limit, self.keep = backend, lines, limit, keep
        self.stem = stem  # the file's, as the ordinary reader names its puzzles
        self.first = first  # load_s and build_s, in the first result's stats as solve() does
        self.results: dict[int, Result] = {}  # by id() of a puzzle handed out and not yet solved

    @classmethod
    def open(cls, backend: Any, path: str, shape: Shape | None, limit: int,
             keep: int | None) -> FileBatch | None:
        """The batch of a file when its grids can be solved so (None: solve them one by one)."""
        if keep != 0 and not 1 <= limit <= MAX_KEPT:  # every solution shown: it streams
            return None
        try:
            raw = Path(path).read_bytes()
        except OSError:
            return None  # the ordinary reader says why
        load_s = backend.load()
        start = time.perf_counter()
        lines = read_lines(raw, shape, stem=Path(path).stem)
        if not len(lines.numbers) or backend.kernel(lines.shape) == "cdcl":
            return None
        backend.run_batch(lines.grids[:0], lines.shape, limit, 1)  # compiled (or loaded)
        build_s = time.perf_counter() - start - lines.seconds
        return cls(backend, lines, limit, keep, Path(path).stem,
                   {"load_s": load_s, "build_s": build_s})

    def entries(self) -> Iterator[Entry]:
        """Every entry of the file in order: the grids read here, the rest as the reader made
        them; a grid's result is made with its chunk, for `solver`."""
        grids = self._grid_entries()
        rest = ((entry.line, entry) for entry in self.lines.rest)
        for _, entry in heapq.merge(grids, rest, key=lambda pair: pair[0]):
            yield entry

    def _grid_entries(self) -> Iterator[tuple[int, Entry]]:
        lines, shape = self.lines, self.lines.shape
        kept = self.limit if self.keep is None else 1
        for start in range(0, len(lines.numbers), CHUNK):
            grids = lines.grids[start:start + CHUNK]
            solved = solve_grids(self.backend, grids, shape, limit=self.limit, kept=kept)
            rows = zip(lines.numbers[start:start + CHUNK].tolist(), grids.tolist(),
                       solved.solutions.tolist(), solved.counts.tolist(),
                       solved.complete.tolist(), solved.stats.tolist(), solved.seconds.tolist(),
                       solved.cpu.tolist())
            for number, cells, *row in rows:
                puzzle = Puzzle.from_checked(shape, tuple(cells), f"{self.stem}:{number}")
                self.results[id(puzzle)] = self._result(puzzle, *row)
                yield number, Entry(number, puzzle)

    def _result(self, puzzle: Puzzle, solutions: list, count: int, complete: bool,
                stats: list[int], seconds: float, cpu: float) -> Result:
        """The Result Backend.solve gives for a grid, from its row of the batch."""
        shown = count if self.keep is None else min(count, self.keep)
        figures = dict(zip(("nodes", "guesses", "backtracks"), stats))
        if self.first:
            figures |= {key: value for key, value in self.first.items() if value}
            self.first = {}
        status = self.backend._status(count, complete, self.limit, None, False)
        return Result(self.backend.label, puzzle.name, status,
                      tuple(map(tuple, solutions[:shown])), complete, seconds, figures,
                      found=None if count == shown else count, cpu=cpu)

    def solver(self, fallback: Solver) -> Solver:
        """solve's solver: a grid of the batch gets its result, any other puzzle `fallback`."""
        def solve(puzzle: Puzzle, limit: int, keep: int | None, on_solution: Any) -> Result:
            result = self.results.pop(id(puzzle), None)
            return fallback(puzzle, limit, keep, on_solution) if result is None else result
        return solve
