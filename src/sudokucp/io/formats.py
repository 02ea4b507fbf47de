"""Readers: the puzzles of a file as it streams, one grid from text; the writers' table.

A file holds puzzles one per line (the forms of records.py) or grids over several lines (rows in
any layout of tokens.py), with or without blank lines between them. Skipped: '#' lines, '[Section]'
headers, rules such as '------+------' and bracket lines such as '|];;'. A title such as 'Grid 01'
becomes the comment of the grid after it; a CSV header ('quizzes,solutions') says which column
holds the puzzle and which the solution. Every line is judged as it comes: a bad one yields an
entry with its error (line, column, reason) and the reading goes on. A line that holds one grid's
cells and nothing else is read at once by plain.py, which hands anything unusual back to this
reader; lines.py decodes, numbers and sorts the lines.
A '# variant:' line opens a variant block, an f-puzzles string or link is one puzzle, and a .json
file may hold a killer's cages or an f-puzzles object: io/variants.py reads the block,
io/fpuzzles.py the others.
The writers need only the shape and live in puzzle.py; WRITERS names them for `--format`.
"""

from __future__ import annotations

import sys
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sudokucp.io import fpuzzles, variants
from sudokucp.io.lines import (  # MAX_LINE and UTF16_MARKS: for backends/jit/lines.py
    BLANK,
    BROKEN,
    CELLS,
    COMMENT,
    HEADER,
    MAX_LINE,  # noqa: F401
    TITLE,
    UTF16_MARKS,  # noqa: F401
    Line,
    numbered_lines,
)
from sudokucp.io.plain import plain_puzzle, repeats
from sudokucp.io.records import Record, csv_header, split_record
from sudokucp.io.tokens import (
    SIDES,
    DuplicateGiven,
    build,
    build_rows,
    cells_of,
    count_cells,
    fits,
    layout_of,
    read_solution,
    value_of,
)
from sudokucp.puzzle import (
    MAX_SIDE,
    Grid,
    Puzzle,
    PuzzleError,
    Shape,
    Writer,
    to_grid,
    to_line,
    to_numeric,
)

__all__ = ["WRITERS", "DuplicateGiven", "Entry", "iter_entries", "load_puzzles", "parse_grid",
           "parse_many", "read_puzzles", "to_grid", "to_line", "to_numeric"]

FPUZZLES = fpuzzles.FPUZZLES_START  # in every f-puzzles string
MAX_LOOKAHEAD = 2 * MAX_SIDE  # lines looked at past a line to tell a 16x16 row from a 4x4 puzzle
Source = str | Path | Iterable[str] | Iterable[bytes]


@dataclass(frozen=True, slots=True)
class Entry:
    """One puzzle of a many-puzzle file, or the error that stopped it; `solution` from the file."""

    line: int
    puzzle: Puzzle | None = None
    error: PuzzleError | None = None
    comment: str = ""
    solution: Grid | None = None


# --- the reader: one line at a time, a grid's rows together -----------------------------------

def _placed(err: PuzzleError, line: int) -> PuzzleError:
    """The error at `line` unless it names its own, without the traceback that raised it."""
    return type(err)(sys.intern(err.reason), line=err.line if err.line is not None else line,
                     column=err.column)


def _is_row(count: int) -> bool:
    """A line of `count` cells may be a row of a grid (no row is longer than MAX_SIDE)."""
    return 0 < count <= MAX_SIDE


def _record_count(line: Line) -> int:
    return count_cells(split_record(line.text).puzzle)


def _lines_read_better(block: list[Line], count: int) -> bool:
    """Whether `count` lines of `count` cells each are one puzzle per line rather than the rows of
    one grid: read as a grid a digit repeats in a unit, read one by one none does."""
    try:
        rows = [[cell[0] for cell in cells_of(line.text, line.number)] for line in block]
    except PuzzleError:
        return False
    grid, alone = [value for row in rows for value in row], Shape.for_cells(count)
    return repeats(Shape.for_cells(len(grid)), grid) and not any(repeats(alone, r) for r in rows)


class _Reader:
    """One file being read: the lines looked ahead, the CSV columns, a title waiting for a grid."""

    def __init__(self, lines: Iterator[Line], shape: Shape | None, stem: str) -> None:
        self.lines, self.shape, self.stem = lines, shape, stem
        self.ahead: deque[Line] = deque()
        self.columns = None
        self.title = ""

    def entries(self) -> Iterator[Entry]:
        while (line := self._next()) is not None:
            if line.kind == BROKEN:
                yield Entry(line.number, error=line.error)
            elif line.kind == TITLE:
                self.title = line.text.strip()
            elif line.kind == HEADER and "," in line.text:  # a lone 'puzzle' is only a title
                self.columns = csv_header(line.text)
            elif line.kind == CELLS:
                yield self._entry(line)
            elif line.kind == COMMENT and variants.is_header(line.text):
                yield self._variant(line)

    def _variant(self, first: Line) -> Entry:
        """A variant block: the header and the lines up to a blank one (or another header)."""
        block, broken = [(first.number, first.text)], None
        while (line := self._next()) is not None:
            if line.kind == BLANK or line.kind == COMMENT and variants.is_header(line.text):
                self.ahead.appendleft(line)
                break
            if line.kind == BROKEN:
                broken = broken or line.error
            else:
                block.append((line.number, line.text))
        comment = self._title()
        if broken is not None:
            return Entry(first.number, error=broken, comment=comment)
        try:
            puzzle = variants.read_block(block, self.shape, f"{self.stem}:{first.number}")
        except PuzzleError as err:
            return Entry(first.number, error=_placed(err, first.number), comment=comment)
        return Entry(first.number, puzzle, comment=comment)

    def _next(self) -> Line | None:
        return self.ahead.popleft() if self.ahead else next(self.lines, None)

    def _peek_rows(self, count: int) -> list[Line]:
        """Up to `count` cell lines ahead in this block, passing over comments; none consumed."""
        rows: list[Line] = []
        for i in range(MAX_LOOKAHEAD):
            if i == len(self.ahead):
                line = next(self.lines, None)
                if line is None:
                    break
                self.ahead.append(line)
            line = self.ahead[i]
            if line.kind != COMMENT and (line.kind != CELLS or len(rows) == count):
                break
            if line.kind == CELLS:
                rows.append(line)
        return rows

    def _take(self, row: Line) -> None:
        """Consume the lines ahead up to `row`."""
        while self.ahead.popleft() is not row:
            pass

    def _title(self) -> str:
        title, self.title = self.title, ""
        return title

    def _entry(self, line: Line) -> Entry:
        if line.plain and self.columns is None:
            puzzle = plain_puzzle(line.text, self.shape, f"{self.stem}:{line.number}")
            if puzzle is not None:
                return Entry(line.number, puzzle, comment=self._title())
        if FPUZZLES in line.text and fpuzzles.fpuzzles_payload(line.text):
            return self._fpuzzles(line)
        record = split_record(line.text, self.columns)
        if self._starts_grid(line, count_cells(record.puzzle)):
            return self._grid(line)
        return self._single(line, record)

    def _fpuzzles(self, line: Line) -> Entry:
        comment = self._title()
        try:
            puzzle = fpuzzles.read_fpuzzles(line.text, f"{self.stem}:{line.number}", line.number)
        except PuzzleError as err:
            return Entry(line.number, error=_placed(err, line.number), comment=comment)
        return Entry(line.number, puzzle, comment=comment)

    def _starts_grid(self, line: Line, count: int) -> bool:
        """A line starts a grid when it may be a row but no whole puzzle, and so may the next."""
        if self.columns is not None or not _is_row(count):
            return False
        if fits(count, self.shape):
            return count in SIDES and self.shape is None and self._square_is_row(line, count)
        following = self._peek_rows(1)
        if not following:
            return False
        next_count = _record_count(following[0])
        return _is_row(next_count) and not fits(next_count, self.shape)

    def _square_is_row(self, line: Line, count: int) -> bool:
        """16, 36 or 64 cells, a whole grid or a row: a row of a 16x16 (36x36, 64x64) grid when
        one is above 4 (6, 8), or when 16 (36, 64) such lines make a block that reads as a grid
        with no digit twice in a unit, or as well as the lines read one grid each."""
        tokens = layout_of(line.text).tokens(line.text)
        top = round(count**0.5)
        if any((value_of(token) or 0) > top for token, _ in tokens):
            return True
        block = [line, *self._peek_rows(count)]
        return len(block) == count and not _lines_read_better(block, count)

    def _grid(self, first: Line) -> Entry:
        """The rows of a grid: until a blank line, a whole one-line puzzle, or all its rows."""
        rows, counts = [first], [count_cells(first.text)]
        while following := self._peek_rows(1):
            row, count = following[0], count_cells(following[0].text)
            side = Counter(counts).most_common(1)[0][0]
            if not _is_row(count) or count != side and fits(_record_count(row), self.shape):
                break
            self._take(row)
            rows.append(row)
            counts.append(count)
            if len(rows) == side or len(rows) > MAX_SIDE:
                break
        return self._grid_entry(rows)

    def _grid_entry(self, rows: list[Line]) -> Entry:
        number, comment = rows[0].number, self._title()
        try:
            cells = [cells_of(row.text, row.number) for row in rows]
            puzzle = build_rows(cells, [row.number for row in rows], self.shape,
                                f"{self.stem}:{number}")
        except PuzzleError as err:
            return Entry(number, error=_placed(err, number), comment=comment)
        return Entry(number, puzzle, comment=comment)

    def _single(self, line: Line, record: Record) -> Entry:
        name = f"{self.stem}#{record.index}" if record.index else f"{self.stem}:{line.number}"
        comment = record.comment or self._title()
        try:
            puzzle, solution = self._read_record(record, line.number, name)
        except PuzzleError as err:
            return Entry(line.number, error=_placed(err, line.number), comment=comment)
        return Entry(line.number, puzzle, comment=comment, solution=solution)

    def _read_record(self, record: Record, number: int, name: str) -> tuple[Puzzle, Grid | None]:
        if not record.puzzle:
            raise PuzzleError("no puzzle on this line (its puzzle field is empty)")
        puzzle = build(cells_of(record.puzzle, number, record.offset), self.shape, name)
        if not record.solution:
            return puzzle, None
        return puzzle, read_solution(record.solution, puzzle.shape, number,
                                     record.solution_offset)


# --- sources and the public readers -----------------------------------------------------------

def _open(source: Source) -> tuple[Iterator[str | bytes], str]:
    """Lines of a path, of standard input for '-', or of lines given; with a name stem."""
    if not isinstance(source, (str, Path)):
        return iter(source), ""
    if str(source) == "-":
        return iter(sys.stdin.buffer), "stdin"
    path = Path(source)
    try:
        handle = path.open("rb")
    except OSError as err:
        raise PuzzleError(f"cannot read {path}: {err.strerror or err}") from None
    return _closing(handle, path), path.stem


def _closing(handle, path: Path) -> Iterator[bytes]:
    with handle:
        try:
            yield from handle
        except OSError as err:
            raise PuzzleError(f"cannot read {path}: {err.strerror or err}") from None


def iter_entries(source: Source, *, shape: Shape | None = None) -> Iterator[Entry]:
    """Every entry of a puzzle file ('-' for standard input, or lines), yielded as it is read."""
    if isinstance(source, (str, Path)) and str(source).lower().endswith(".json"):
        found = _json_entries(Path(source))
        if found is not None:
            return iter(found)
    raw, stem = _open(source)
    return _Reader(numbered_lines(raw), shape, stem).entries()


def _json_entries(path: Path) -> list[Entry] | None:
    """The puzzle of a variant's JSON file (a killer's cages, an f-puzzles object), or None
    when the file holds something else for the line reader."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise PuzzleError(f"cannot read {path}: {getattr(err, 'strerror', None) or err}"
                          ) from None
    try:
        puzzles = fpuzzles.json_puzzles(text, path.stem)
    except PuzzleError as err:
        return [Entry(1, error=err.at_line(1))]
    return None if puzzles is None else [Entry(1, p) for p in puzzles]


def parse_many(text: str, *, shape: Shape | None = None, stem: str = "") -> Iterator[Entry]:
    """Every puzzle of a text: one per line, or grids over several lines.

    An error stops only the puzzle it is in."""
    return _Reader(numbered_lines(text.split("\n")), shape, stem).entries()


def read_puzzles(source: Source, *, shape: Shape | None = None) -> list[Entry]:
    """Every entry of a puzzle file ('-' for standard input)."""
    return list(iter_entries(source, shape=shape))


def load_puzzles(source: Source, *, shape: Shape | None = None) -> list[Puzzle]:
    """The puzzles of a file; the first bad entry raises with its line."""
    puzzles = []
    for entry in iter_entries(source, shape=shape):
        if entry.error is not None:
            raise entry.error
        puzzles.append(entry.puzzle)
    return puzzles


def parse_grid(text: str, *, shape: Shape | None = None, name: str = "") -> Puzzle:
    """One grid from text in any supported layout, on one line or over several; a variant block
    or an f-puzzles string too."""
    if FPUZZLES in text and fpuzzles.fpuzzles_payload(text):
        return fpuzzles.read_fpuzzles(text, name)
    if variants.has_block(text):
        block = [(i, line.rstrip("\r")) for i, line in enumerate(text.split("\n"), 1)]
        start = next(k for k, (_, line) in enumerate(block) if variants.is_header(line))
        return variants.read_block(block[start:], shape, name)
    rows = []
    for line in numbered_lines(text.split("\n")):
        if line.kind == BROKEN:
            raise line.error
        if line.kind in (CELLS, HEADER):
            rows.append(line)
    if not rows:
        raise PuzzleError("no grid found (the text is empty or only comments)")
    plain = plain_puzzle(rows[0].text, shape, name) if len(rows) == 1 and rows[0].plain else None
    if plain is not None:
        return plain
    cells = [cells_of(row.text, row.number) for row in rows]
    if len(rows) == 1:
        return build(cells[0], shape, name)
    return build_rows(cells, [row.number for row in rows], shape, name)


WRITERS: dict[str, Writer] = {"grid": to_grid, "line": to_line, "numeric": to_numeric}
