"""Readers: one-line grids, multi-line grids, numeric tokens, many-puzzle files; the writers' table.

Characters: '.', '0', '_' blank; 1-9 then A = 10, B = 11 ... (either case). Numeric grids separate
numbers with spaces, commas or semicolons. Separators '|', '-', '+' and spaces are ignored.
The writers need only the shape and live in puzzle.py; WRITERS names them for `--format`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sudokucp.check import find_conflicts
from sudokucp.puzzle import (
    DIGITS,
    Grid,
    Puzzle,
    PuzzleError,
    Shape,
    Writer,
    to_grid,
    to_line,
    to_numeric,
)

BLANKS = frozenset("._0")
SEPARATORS = frozenset(" \t|-+")
VALUES = {ch: i + 1 for i, ch in enumerate(DIGITS)} | {
    ch.lower(): i + 1 for i, ch in enumerate(DIGITS) if ch.isalpha()}
NUMERIC_SPLIT = re.compile(r"[\s,;]+")
ASCII_DIGITS = frozenset("0123456789")

Cell = tuple[int, int, int]  # value, line, column (1-based)


@dataclass(frozen=True)
class Entry:
    """One puzzle of a many-puzzle file, or the error that stopped it."""

    line: int
    puzzle: Puzzle | None = None
    error: PuzzleError | None = None
    comment: str = ""


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith(("#", "["))


def _is_rule(line: str) -> bool:
    """A separator line such as '------+-------'."""
    return all(ch in SEPARATORS or ch == "=" for ch in line)


def _char_cells(line: str, number: int) -> list[Cell]:
    cells = []
    for col, ch in enumerate(line, 1):
        if ch in BLANKS:
            cells.append((0, number, col))
        elif ch in VALUES:
            cells.append((VALUES[ch], number, col))
        elif ch not in SEPARATORS:
            raise PuzzleError(f"character {ch!r} (U+{ord(ch):04X}) is not allowed: use 1-9, "
                              f"A-Z for 10 and up, and . 0 or _ for a blank",
                              line=number, column=col)
    return cells


def _numeric_cells(line: str, number: int) -> list[Cell]:
    cells = []
    for match in re.finditer(r"[^\s,;]+", line):
        token, col = match.group(), match.start() + 1
        if token in ("_", "."):
            cells.append((0, number, col))
        elif set(token) <= ASCII_DIGITS:
            cells.append((int(token), number, col))
        else:
            raise PuzzleError(f"token {token!r} is not a number (use ASCII digits, 0 or . for "
                              f"a blank)", line=number, column=col)
    return cells


def _fits(count: int, shape: Shape | None) -> bool:
    if shape is not None:
        return count == shape.cells
    try:
        Shape.for_cells(count)
    except PuzzleError:
        return False
    return True


def _grid_cells(lines: list[tuple[int, str]], shape: Shape | None) -> list[Cell]:
    """Cells of one grid from its numbered lines, choosing character or numeric reading."""
    text = "\n".join(line for _, line in lines)
    if "," in text or ";" in text:
        return [c for number, line in lines for c in _numeric_cells(line, number)]
    chars = [c for number, line in lines for c in _char_cells(line, number)]
    tokens = NUMERIC_SPLIT.split(text.strip())
    if (any(len(t) > 1 for t in tokens) and all(set(t) <= ASCII_DIGITS for t in tokens)
            and _fits(len(tokens), shape) and not _fits(len(chars), shape)):
        return [c for number, line in lines for c in _numeric_cells(line, number)]
    return chars


def _build(cells: list[Cell], shape: Shape | None, name: str) -> Puzzle:
    if shape is None:
        shape = Shape.for_cells(len(cells))
    elif len(cells) != shape.cells:
        raise PuzzleError(f"wrong cell count: found {len(cells)}, expected {shape.cells} "
                          f"for {shape}")
    for value, line, col in cells:
        if value > shape.side:
            raise PuzzleError(f"value {value} is larger than {shape.side}, the largest digit "
                              f"of a {shape} grid", line=line, column=col)
    grid = tuple(v for v, _, _ in cells)
    _refuse_duplicates(shape, grid, cells)
    return Puzzle(shape, grid, name)


def _refuse_duplicates(shape: Shape, grid: Grid, cells: list[Cell]) -> None:
    for conflict in find_conflicts(shape, grid):
        _, line, col = cells[conflict.second]
        raise PuzzleError(f"duplicate given: {conflict.describe(shape)}", line=line, column=col)


def parse_grid(text: str, *, shape: Shape | None = None, name: str = "") -> Puzzle:
    """One grid from text in any supported layout."""
    lines = [(i, line) for i, line in enumerate(_clean(text).splitlines(), 1)
             if not _is_comment(line) and not _is_rule(line.strip())]
    if not lines:
        raise PuzzleError("no grid found (the text is empty or only comments)")
    return _build(_grid_cells(lines, shape), shape, name)


def _clean(text: str) -> str:
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _split_fields(line: str) -> tuple[str, str, str]:
    """(name, puzzle, comment) of a one-puzzle line: 'index<TAB>puzzle<TAB>comment',
    'puzzle:count', 'puzzle label' or a bare puzzle."""
    if "\t" in line:
        fields = [f.strip() for f in line.split("\t")]
        if len(fields) >= 2 and fields[0].isdigit() and fields[0].isascii():
            return fields[0], fields[1], " ".join(fields[2:])
        return "", fields[0], " ".join(fields[1:])
    if "," in line or ";" in line:
        return "", line, ""
    head, _, rest = line.strip().partition(" ")
    puzzle, _, extra = head.partition(":")
    return "", puzzle, " ".join(x for x in (extra, rest.strip()) if x)


def _one_per_line(lines: list[tuple[int, str]], shape: Shape | None) -> bool:
    """True when each line holds a whole puzzle, False when the lines form one grid."""
    counts = []
    for number, line in lines:
        try:
            counts.append(len(_grid_cells([(number, _split_fields(line)[1])], shape)))
        except PuzzleError:
            counts.append(-1)
    if len(lines) == 1:
        return True
    if len(set(counts)) == 1 and counts[0] == len(lines):
        return False
    return _fits(counts[0], shape)


def parse_many(text: str, *, shape: Shape | None = None, stem: str = "") -> Iterator[Entry]:
    """Every puzzle of a text: one per line, or multi-line grids separated by blank lines.

    An error stops only the puzzle it is in."""
    for block in _blocks(_clean(text)):
        if _one_per_line(block, shape):
            for number, line in block:
                yield _entry_from_line(number, line, shape, stem)
        else:
            yield _entry_from_block(block, shape, stem)


def _blocks(text: str) -> Iterator[list[tuple[int, str]]]:
    block: list[tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            if block:
                yield block
            block = []
        elif not _is_comment(line) and not _is_rule(line.strip()):
            block.append((number, line))
    if block:
        yield block


def _entry_from_line(number: int, line: str, shape: Shape | None, stem: str) -> Entry:
    index, grid, comment = _split_fields(line)
    name = f"{stem}#{index}" if index else f"{stem}:{number}"
    try:
        cells = _grid_cells([(number, grid)], shape)
        offset = line.find(grid)
        cells = [(v, number, col + offset) for v, _, col in cells]
        return Entry(number, _build(cells, shape, name), comment=comment)
    except PuzzleError as err:
        return Entry(number, error=err.at_line(number), comment=comment)


def _entry_from_block(block: list[tuple[int, str]], shape: Shape | None, stem: str) -> Entry:
    number = block[0][0]
    try:
        return Entry(number, _build(_grid_cells(block, shape), shape, f"{stem}:{number}"))
    except PuzzleError as err:
        return Entry(number, error=err.at_line(number))


def read_text(source: str | Path) -> tuple[str, str]:
    """(text, stem) of a file path, or of standard input for '-'."""
    if str(source) == "-":
        return sys.stdin.read(), "stdin"
    path = Path(source)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PuzzleError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        return data.decode("utf-8-sig"), path.stem
    except UnicodeDecodeError as err:
        raise PuzzleError(f"{path} is not UTF-8 text (byte {err.start})") from None


def read_puzzles(source: str | Path, *, shape: Shape | None = None) -> list[Entry]:
    """Every entry of a puzzle file ('-' for standard input)."""
    text, stem = read_text(source)
    return list(parse_many(text, shape=shape, stem=stem))


def load_puzzles(source: str | Path, *, shape: Shape | None = None) -> list[Puzzle]:
    """The puzzles of a file; the first bad entry raises with its line."""
    puzzles = []
    for entry in read_puzzles(source, shape=shape):
        if entry.error is not None:
            raise entry.error
        puzzles.append(entry.puzzle)
    return puzzles


WRITERS: dict[str, Writer] = {"grid": to_grid, "line": to_line, "numeric": to_numeric}
