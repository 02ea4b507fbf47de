"""The common case read at once: a line that holds one grid's cells and nothing else (81 digits
and blanks, or the N*N cells of any shape, one character each).

Tables made once per shape carry the work: a byte table turns characters into values, and a
table of unit bits finds a digit twice in a unit with one sum and one OR. Anything unusual (a
space, a comment, a value the shape has no digit for, a repeated given) returns None, and the
general reader (formats.py, tokens.py) reads the line again: what is accepted, and every
message, stay the general reader's.

Glossary: plain line = only cell characters, as many as a grid of some shape has; bits = one per
(unit, digit), set by a cell that holds the digit.
"""

from __future__ import annotations

from functools import cache, reduce
from operator import getitem, or_

from sudokucp.check import find_conflicts
from sudokucp.io.tokens import SIDES
from sudokucp.puzzle import DIGITS, LINE_SIDE, Grid, Puzzle, Shape, geometry

BLANKS = "._0"  # the one-character blanks of tokens.BLANK_TOKENS ('•' is not ASCII)
CELL_CHARS = (BLANKS + DIGITS + DIGITS.lower()).encode("ascii")
NOT_A_VALUE = 0xFF  # larger than any side
TABLE_SIDE = 16  # unit bits tabled up to 16x16 (about 0.5 MB); larger grids: unit by unit


def _value_table() -> bytes:
    """A bytes.translate table: each byte's value (0 for a blank), NOT_A_VALUE for the others."""
    table = bytearray([NOT_A_VALUE]) * 256
    for ch in BLANKS:
        table[ord(ch)] = 0
    for value, ch in enumerate(DIGITS, 1):
        table[ord(ch)] = table[ord(ch.lower())] = value
    return bytes(table)


VALUE_TABLE = _value_table()
SHAPE_CHARS = tuple((BLANKS + DIGITS[:side] + DIGITS[:side].lower()).encode("ascii")
                    for side in range(LINE_SIDE + 1))  # the characters of the cells of each side
# a grid of fewer cells than LINE_SIDE may be a row of a larger one: the general reader decides;
# past LINE_SIDE a grid has no line of one character per cell
SHAPES = {side * side: Shape.for_side(side) for side in SIDES
          if side * side > LINE_SIDE and side <= LINE_SIDE}


def plain_text(raw: str | bytes) -> str | None:
    """The line without its end ('\\n', '\\r\\n') when it is a plain line; None otherwise."""
    if isinstance(raw, bytes):
        body = raw.removesuffix(b"\n").removesuffix(b"\r")
        if len(body) in SHAPES and not body.translate(None, CELL_CHARS):
            return body.decode("ascii")
        return None
    text = raw.removesuffix("\n").removesuffix("\r")
    if len(text) in SHAPES and text.isascii() and not text.encode().translate(None, CELL_CHARS):
        return text
    return None


def plain_puzzle(text: str, shape: Shape | None, name: str = "") -> Puzzle | None:
    """The puzzle of a plain line that makes a valid grid (of `shape` when given): the shape's
    digits only, none twice in a unit. None when anything is off."""
    count = len(text)
    if shape is None:
        shape = SHAPES.get(count)
        if shape is None:
            return None
    elif count != shape.cells or count <= LINE_SIDE or shape.side > LINE_SIDE:
        return None
    line = text.encode("ascii", "replace")  # '?' is no cell character: refused below
    if line.translate(None, SHAPE_CHARS[shape.side]):
        return None  # a character that is no digit of the shape
    cells = tuple(line.translate(VALUE_TABLE))
    return None if repeats(shape, cells) else Puzzle.from_checked(shape, cells, name)


def repeats(shape: Shape, cells: Grid) -> bool:
    """Whether a digit is twice in a unit: two cells set the same (unit, digit) bit, so the sum of
    the cells' bits differs from their OR."""
    if shape.side > TABLE_SIDE:
        return bool(find_conflicts(shape, cells))
    bits = [*filter(None, map(getitem, unit_bits(shape), cells))]  # the givens' bits
    return sum(bits) != reduce(or_, bits, 0)


@cache
def unit_bits(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """Per cell, per value: the bits of (row, value), (column, value) and (box, value); 0 for a
    blank. Bit u*N + v-1 stands for value v in unit u."""
    n = shape.side
    return tuple((0, *(sum(1 << (u * n + v - 1) for u in units) for v in range(1, n + 1)))
                 for units in geometry(shape).cell_units)
