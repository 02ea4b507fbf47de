"""Puzzle and Shape: the grid every backend reads, with geometry cached per shape.

Glossary: N = side (digits 1..N), r x c = box rows x box columns (N = r*c), cell = row-major index,
unit = a row, a column or a box (a tuple of N cells), peers = the other cells sharing a unit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

from sudokucp.rules import CLASSIC, Rules

Grid = tuple[int, ...]

DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # symbol of value v is DIGITS[v - 1]
SYMBOLS = "." + DIGITS  # SYMBOLS[v] writes value v, '.' for a blank
LINE_SIDE = len(DIGITS)  # up to this side a grid's line has one character per cell
MAX_SIDE = 64  # larger sides write and read their digits as numbers (10, 36, 64)


class PuzzleError(ValueError):
    """Bad puzzle text or values; carries the place (line, column) and the reason."""

    def __init__(self, reason: str, *, line: int | None = None, column: int | None = None):
        self.reason, self.line, self.column = reason, line, column
        super().__init__(self.describe())

    def describe(self) -> str:
        """Message naming the place then the reason."""
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def at_line(self, line: int) -> PuzzleError:
        """The same error, placed at `line` of an enclosing file when it has no line of its own."""
        return self if self.line is not None else PuzzleError(self.reason, line=line,
                                                              column=self.column)


@dataclass(frozen=True, order=True)
class Shape:
    """Box rows x box columns; the grid side is their product."""

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1 or not 4 <= self.side <= MAX_SIDE:
            raise PuzzleError(f"no supported shape has {self.box_rows}x{self.box_cols} boxes "
                              f"(the side must be 4 to {MAX_SIDE})")

    @property
    def side(self) -> int:
        return self.box_rows * self.box_cols

    @property
    def cells(self) -> int:
        return self.side * self.side

    def __str__(self) -> str:
        return f"{self.side}x{self.side}"

    @classmethod
    def for_side(cls, side: int) -> Shape:
        """The most square r x c boxes with r <= c for a side (6 -> 2x3, 12 -> 3x4)."""
        rows = 0
        if 4 <= side <= MAX_SIDE:  # the range first: a huge side never reaches the loop
            rows = max((r for r in range(2, int(side**0.5) + 1) if side % r == 0), default=0)
        if not rows:
            raise PuzzleError(f"a side of {side} fits no supported shape "
                              f"(sides 4 to {MAX_SIDE} that are not prime)")
        return cls(rows, side // rows)

    @classmethod
    def for_cells(cls, count: int) -> Shape:
        """The shape whose grid has `count` cells."""
        side = round(count**0.5) if 0 < count <= MAX_SIDE**2 else 0
        if not side or side * side != count:
            raise PuzzleError(f"{count} cells fits no supported shape (expected a square count "
                              f"such as 16, 36, 81, 144, 256 or 625)")
        return cls.for_side(side)

    @classmethod
    def parse(cls, text: str) -> Shape:
        """'9x9' or '9' names a side; 'box 2x3', '2x3' with unequal parts names the boxes;
        '30x30:5x6' names both (the boxes' product must be the side)."""
        if ":" in text:
            return cls._parse_boxed(text)
        spec = text.strip().lower().removeprefix("box").strip()
        parts = spec.replace("×", "x").split("x")
        try:
            numbers = [int(p) for p in parts if p.strip()]
        except ValueError:
            raise PuzzleError(f"cannot read shape {text!r}: write 9x9, 6x6 or box 2x3") from None
        boxed = text.strip().lower().startswith("box")
        if len(numbers) == 1 or (len(numbers) == 2 and numbers[0] == numbers[1] >= 4
                                 and not boxed):
            return cls.for_side(numbers[0])
        if len(numbers) == 2:
            return cls(numbers[0], numbers[1])
        raise PuzzleError(f"cannot read shape {text!r}: write 9x9, 6x6 or box 2x3")

    @classmethod
    def _parse_boxed(cls, text: str) -> Shape:
        """'30x30:5x6': the side, then the box rows x box columns."""
        side_text, _, box_text = text.partition(":")
        side = cls.parse(side_text).side if side_text.strip() else 0
        shape = cls.parse(f"box {box_text}")
        if side != shape.side:
            raise PuzzleError(f"cannot read shape {text!r}: {box_text.strip()} boxes make a "
                              f"side of {shape.side}, not {side or side_text.strip()!r}")
        return shape


@dataclass(frozen=True)
class Geometry:
    """Precomputed tables for one shape: units, the units of each cell, peers."""

    shape: Shape
    units: tuple[tuple[int, ...], ...]  # rows, then columns, then boxes
    cell_units: tuple[tuple[int, int, int], ...]  # (row unit, column unit, box unit) per cell
    peers: tuple[tuple[int, ...], ...]

    def unit_name(self, unit: int) -> str:
        n = self.shape.side
        kind = ("row", "column", "box")[unit // n]
        return f"{kind} {unit % n + 1}"


@cache
def geometry(shape: Shape) -> Geometry:
    """Units and peers of `shape`, computed once."""
    n, r, c = shape.side, shape.box_rows, shape.box_cols
    rows = [tuple(i * n + j for j in range(n)) for i in range(n)]
    cols = [tuple(i * n + j for i in range(n)) for j in range(n)]
    boxes = [tuple((br * r + i) * n + bc * c + j for i in range(r) for j in range(c))
             for br in range(c) for bc in range(r)]
    units = tuple(rows + cols + boxes)
    cell_units = tuple((cell // n, n + cell % n, 2 * n + box_of(shape, cell))
                       for cell in range(n * n))
    peers = tuple(tuple(sorted({p for u in cu for p in units[u]} - {cell}))
                  for cell, cu in enumerate(cell_units))
    return Geometry(shape, units, cell_units, peers)


def box_of(shape: Shape, cell: int) -> int:
    """Index of the box holding `cell`, row-major over boxes."""
    n = shape.side
    return (cell // n // shape.box_rows) * shape.box_rows + (cell % n) // shape.box_cols


def cell_name(shape: Shape, cell: int) -> str:
    """Players' notation: r1c1 is the top-left cell."""
    return f"r{cell // shape.side + 1}c{cell % shape.side + 1}"


def symbol(value: int) -> str:
    """One character for a value: 1-9, then A = 10, B = 11, ... Z = 35; '.' for empty; the
    number itself past 35."""
    return SYMBOLS[value] if value < len(SYMBOLS) else str(value)


@dataclass(frozen=True)
class Puzzle:
    """A grid to solve: shape, row-major cells (0 = empty), an optional name, and the rules
    beyond rows, columns and boxes (sudokucp.rules; none for the classic grid)."""

    shape: Shape
    cells: Grid
    name: str = field(default="", compare=False)
    rules: Rules = CLASSIC

    def __post_init__(self) -> None:
        cells = tuple(self.cells)
        object.__setattr__(self, "cells", cells)
        n = self.shape.side
        if len(cells) != n * n:
            raise PuzzleError(f"wrong cell count: found {len(cells)}, expected "
                              f"{self.shape.cells} for {self.shape}")
        if not self.rules.classic and (why := self.rules.problem(n)):
            raise PuzzleError(why)
        if min(cells) >= 0 and max(cells) <= n:  # at once; the loop below names the bad cell
            return
        for cell, value in enumerate(cells):
            if not 0 <= value <= n:
                raise PuzzleError(f"value {value} at {cell_name(self.shape, cell)} is larger than "
                                  f"{n}, the largest digit of a {self.shape} grid")

    @classmethod
    def from_checked(cls, shape: Shape, cells: Grid, name: str = "") -> Puzzle:
        """A puzzle of cells already checked to fit `shape` (a tuple of N*N values 0..N), made
        without checking them again: the readers' fast path. Sets every field."""
        puzzle = object.__new__(cls)
        puzzle.__dict__.update(shape=shape, cells=cells, name=name)
        return puzzle

    @classmethod
    def empty(cls, shape: Shape, name: str = "") -> Puzzle:
        return cls(shape, (0,) * shape.cells, name)

    @property
    def side(self) -> int:
        return self.shape.side

    @property
    def geometry(self) -> Geometry:
        return geometry(self.shape)

    @property
    def givens(self) -> int:
        return sum(1 for v in self.cells if v)

    @property
    def kind(self) -> str:
        """The variant: 'classic', 'x', 'windoku', 'jigsaw', 'killer', 'pencil-mark',
        'extra-units' or a combination such as 'x+killer'."""
        return self.rules.kind

    @cached_property
    def digest(self) -> str:
        """Stable short hash of shape and cells (and of the rules of a variant), for keys."""
        import hashlib

        text = f"{self.shape.box_rows}x{self.shape.box_cols}:{self.to_line()}"
        if not self.rules.classic:
            text += f"|{self.rules.signature()}"
        return hashlib.sha1(text.encode()).hexdigest()[:16]

    def to_line(self) -> str:
        return to_line(self.shape, self.cells)

    def pretty(self) -> str:
        return to_grid(self.shape, self.cells)

    def with_cells(self, cells: Grid) -> Puzzle:
        return Puzzle(self.shape, tuple(cells), self.name, self.rules)

    def __str__(self) -> str:
        return self.to_line()


# --- writers: they need only the shape -------------------------------------------------------

Writer = Callable[[Shape, Sequence[int]], str]


def to_line(shape: Shape, cells: Sequence[int]) -> str:
    """One line, '.' for blanks, letters for 10 and up; past a side of 35 (LINE_SIDE) the
    numbers separated by spaces, '.' for blanks ('12 . 36 ...')."""
    if shape.side > LINE_SIDE:
        return " ".join(str(v) if v else "." for v in cells)
    return "".join(map(SYMBOLS.__getitem__, cells))


def line_side(line: str) -> int:
    """The side of a grid written by `to_line`: one character a cell, or numbers apart."""
    import math

    return math.isqrt(line.count(" ") + 1 if " " in line else len(line))


def to_grid(shape: Shape, cells: Sequence[int]) -> str:
    """A pretty grid with '|' between boxes and a rule between bands; past a side of 35 the
    digits are numbers, right-aligned in columns of two."""
    n, r, c = shape.side, shape.box_rows, shape.box_cols
    width = 1 if n <= LINE_SIDE else len(str(n))
    glyph = symbol if n <= LINE_SIDE else (lambda v: f"{v if v else '.':>{width}}")
    rows = []
    for i in range(n):
        row = cells[i * n:(i + 1) * n]
        stacks = [" ".join(glyph(v) for v in row[j:j + c]) for j in range(0, n, c)]
        rows.append(" | ".join(stacks))
        if (i + 1) % r == 0 and i + 1 < n:
            rows.append("-+-".join("-" * ((width + 1) * c - 1) for _ in range(n // c)))
    return "\n".join(rows)


def to_numeric(shape: Shape, cells: Sequence[int]) -> str:
    """Rows of space-separated numbers, 0 for blanks."""
    n = shape.side
    width = len(str(n))
    return "\n".join(" ".join(f"{v:>{width}}" for v in cells[i * n:(i + 1) * n])
                     for i in range(n))
