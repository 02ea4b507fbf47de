"""Cells of puzzle text: the layouts a line may take, their tokens, values, and the grid they build.

Layouts: characters ('8.9..7', '9 . . | 1 . .'; '.', '0', '_' blank; 1-9 then A = 10, B = 11 ...,
either case), numbers (separated by spaces, commas or semicolons, inside [ ], [| |] or { } brackets
and quotes) and tab-separated fields (an empty field or '•' is a blank). A line's layout is found by
the first detector of LAYOUTS that accepts it; counting its tokens leniently (a bad character still
counts as a cell) decides what the line is, and the strict reading names the line and column.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from sudokucp.check import find_conflicts
from sudokucp.puzzle import DIGITS, MAX_SIDE, Grid, Puzzle, PuzzleError, Shape

Token = tuple[str, int]  # text, column (1-based)
Cell = tuple[int, str, int, int]  # value, text, line, column

CHAR_SEPARATORS = frozenset(" \t|-+")
NUMBER_MARKS = frozenset(",;[]{}")
NUMBER_TOKEN = re.compile(r"[^\s,;|\[\]{}\"']+")
BLANK_TOKENS = frozenset({"", ".", "_", "0", "•"})
LETTERS = {ch: i + 1 for i, ch in enumerate(DIGITS) if ch.isalpha()}
LETTERS |= {ch.lower(): value for ch, value in LETTERS.items()}
VALUES = {token: 0 for token in BLANK_TOKENS} | LETTERS | {
    f"{n:0{width}}": n for width in (1, 2) for n in range(10**width)}  # the common tokens
MIN_TABBED_FIELDS = 4


def _sides() -> frozenset[int]:
    sides = set()
    for side in range(4, MAX_SIDE + 1):
        try:
            Shape.for_side(side)
        except PuzzleError:
            continue
        sides.add(side)
    return frozenset(sides)


SIDES = _sides()
CELL_COUNTS = frozenset(side * side for side in SIDES)


# --- layouts: detectors and tokenizers --------------------------------------------------------

def is_tabbed(text: str) -> bool:
    """A row of tab-separated fields of one cell each ('8<TAB>•<TAB>9<TAB><TAB>7')."""
    if text.count("\t") < MIN_TABBED_FIELDS - 1:
        return False
    fields = text.split("\t")
    return len(fields) >= MIN_TABBED_FIELDS and all(len(f.strip()) <= 2 for f in fields)


def is_numeric(text: str) -> bool:
    """Numbers with commas, semicolons or brackets, or space-separated numbers of two digits
    (between '|' box borders too)."""
    if not NUMBER_MARKS.isdisjoint(text):
        return True
    words = text.replace("|", " ").split()
    return (len(words) > 1 and any(len(w) == 2 for w in words)
            and all(len(w) <= 2 and (w in BLANK_TOKENS or w.isascii() and w.isdigit())
                    for w in words))


def char_tokens(text: str) -> Iterator[Token]:
    """Every character but the separators ' ', tab, '|', '-' and '+'."""
    return ((ch, col) for col, ch in enumerate(text, 1) if ch not in CHAR_SEPARATORS)


def number_tokens(text: str) -> Iterator[Token]:
    """Runs of characters between spaces, commas, semicolons, brackets and quotes."""
    return ((m.group(), m.start() + 1) for m in NUMBER_TOKEN.finditer(text))


def field_tokens(text: str) -> Iterator[Token]:
    """Every tab-separated field, stripped; an empty field is a cell too."""
    col = 1
    for field in text.split("\t"):
        yield field.strip(), col + len(field) - len(field.lstrip())
        col += len(field) + 1


def _count_chars(text: str) -> int:
    return len(text) - sum(map(text.count, CHAR_SEPARATORS))


def _count_numbers(text: str) -> int:
    return len(NUMBER_TOKEN.findall(text))


def _count_fields(text: str) -> int:
    return text.count("\t") + 1


@dataclass(frozen=True)
class Layout:
    """How one line is cut into cells, how many it holds, and how a bad token is refused."""

    detect: Callable[[str], bool]
    tokens: Callable[[str], Iterator[Token]]
    count: Callable[[str], int]
    refuse: Callable[[str], str]


def _refuse_field(token: str) -> str:
    return (f"field {token!r} is not a digit: use 1-9, A-Z for 10 and up or a number, and an "
            f"empty field, '.' or '•' for a blank")


def _refuse_number(token: str) -> str:
    return f"token {token!r} is not a number (use ASCII digits, 0 or . for a blank)"


def _refuse_char(token: str) -> str:
    return (f"character {token!r} (U+{ord(token):04X}) is not allowed: use 1-9, A-Z for 10 and "
            f"up, and . 0 or _ for a blank")


LAYOUTS: dict[str, Layout] = {
    "fields": Layout(is_tabbed, field_tokens, _count_fields, _refuse_field),
    "numbers": Layout(is_numeric, number_tokens, _count_numbers, _refuse_number),
    "characters": Layout(lambda text: True, char_tokens, _count_chars, _refuse_char),
}


CHARACTERS = LAYOUTS["characters"]
WORD = re.compile(r"[^\s|]+")  # a run of characters between spaces, tabs and '|'


def layout_of(text: str) -> Layout:
    """The first layout whose detector accepts the text."""
    return next(layout for layout in LAYOUTS.values() if layout.detect(text))


def count_cells(text: str) -> int:
    """Cell-like tokens of a line, bad ones included: what the line would hold."""
    return layout_of(text).count(text)


def fits(count: int, shape: Shape | None) -> bool:
    """True when `count` cells make a whole grid (of `shape` when given)."""
    return count == shape.cells if shape is not None else count in CELL_COUNTS


# --- strict reading ---------------------------------------------------------------------------

LONGEST = 9  # digits of a number token read as it is; a longer one is TOO_LARGE for any grid
TOO_LARGE = 10**LONGEST

def value_of(token: str) -> int | None:
    """The value a token stands for (0 = blank), or None when it stands for none."""
    value = VALUES.get(token)
    if value is None and token.isascii() and token.isdigit():
        return int(token) if len(token) <= LONGEST else TOO_LARGE  # int() of 5000 digits raises
    return value


def cells_of(text: str, line: int, offset: int = 0) -> list[Cell]:
    """Every cell of one line; the first token that is no digit raises with its place."""
    layout = layout_of(text)
    if layout is CHARACTERS and ("-" in text or "+" in text or " " in text or "\t" in text):
        _refuse_words(text, line, offset)
    get = VALUES.get
    cells = [(get(token, -1), token, line, col + offset) for token, col in layout.tokens(text)]
    if min(cells, default=(0,))[0] < 0:
        return [_rare(cell, layout) if cell[0] < 0 else cell for cell in cells]
    return cells


def _refuse_words(text: str, line: int, offset: int) -> None:
    """In a row of characters: a sign joined to a digit ('-5', '+5', '5-'), or, where the cells
    are one character apart, a word of several ('1.5', 'abc'), is refused with its place."""
    words = [(m.group(), m.start() + 1) for m in WORD.finditer(text)]
    cells = [(word, col) for word, col in words if _count_chars(word)]
    spaced = sum(_count_chars(word) == 1 for word, _ in cells) * 2 > len(cells) > 1
    for word, col in cells:
        if "-" in word or "+" in word:
            raise PuzzleError(_refuse_signed(word), line=line, column=col + offset)
        if spaced and _count_chars(word) > 1:
            raise PuzzleError(_refuse_word(word), line=line, column=col + offset)


def _cut(word: str) -> str:
    """A token as a message quotes it: 40 characters at most."""
    return word if len(word) <= 40 else word[:37] + "..."


def _refuse_signed(word: str) -> str:
    return (f"token {_cut(word)!r} has a sign: a cell holds a digit (1-9, A-Z for 10 and up) or a "
            f"blank (. 0 or _), never a signed number")


def _refuse_word(word: str) -> str:
    return (f"token {_cut(word)!r} is not a digit: the cells of this row are one character each, "
            f"apart (use 1-9, A-Z for 10 and up, and . 0 or _ for a blank)")


def _rare(cell: Cell, layout: Layout) -> Cell:
    """A cell whose token is not among the common ones: a long number, or a bad token."""
    _, token, line, col = cell
    value = value_of(token)
    if value is None:
        raise PuzzleError(layout.refuse(token), line=line, column=col)
    return value, token, line, col


def shape_for(count: int, shape: Shape | None) -> Shape:
    """The shape of a grid of `count` cells; the given one must match."""
    if shape is None:
        return Shape.for_cells(count)
    if count != shape.cells:
        raise PuzzleError(f"wrong cell count: found {count}, expected {shape.cells} for {shape}")
    return shape


def build(cells: Sequence[Cell], shape: Shape | None, name: str = "") -> Puzzle:
    """A puzzle from its cells: shape from the count, digits within the shape, no duplicate."""
    shape = shape_for(len(cells), shape)
    grid = tuple(cell[0] for cell in cells)
    if max(grid) > shape.side:
        value, text, line, col = next(cell for cell in cells if cell[0] > shape.side)
        raise PuzzleError(_too_large(value, text, shape), line=line, column=col)
    _refuse_duplicates(shape, grid, cells)
    return Puzzle(shape, grid, name)


def _too_large(value: int, text: str, shape: Shape) -> str:
    if text.isalpha():
        top = DIGITS[shape.side - 1]
        digits = f"1-{top}" if shape.side <= 9 else f"1-9 and A-{top}"
        return f"character {text!r} is not a digit of a {shape} grid (its digits are {digits})"
    shown = str(value) if value < TOO_LARGE else f"{text[:12]}... ({len(text)} digits)"
    return f"value {shown} is larger than {shape.side}, the largest digit of a {shape} grid"


class DuplicateGiven(PuzzleError):
    """A digit twice in a unit among the givens: the text was read, the grid is invalid."""


def _refuse_duplicates(shape: Shape, grid: Grid, cells: Sequence[Cell]) -> None:
    for conflict in find_conflicts(shape, grid):
        _, _, line, col = cells[conflict.second]
        raise DuplicateGiven(f"duplicate given: {conflict.describe(shape)}", line=line, column=col)


def build_rows(rows: Sequence[list[Cell]], lines: Sequence[int], shape: Shape | None,
               name: str = "") -> Puzzle:
    """A puzzle from the rows of a multi-line grid; a count that fits no shape names the row."""
    cells = [cell for row in rows for cell in row]
    if not fits(len(cells), shape):
        _refuse_rows([len(row) for row in rows], lines, shape)
    return build(cells, shape, name)


def _refuse_rows(counts: list[int], lines: Sequence[int], shape: Shape | None) -> None:
    """Raise for the row that breaks the grid: one of another length, too few or too many."""
    side = shape.side if shape is not None else Counter(counts).most_common(1)[0][0]
    for count, line in zip(counts, lines):
        if count != side:
            raise PuzzleError(f"{count} cells in this row, {side} in a row of the grid",
                              line=line)
    if side in SIDES and len(counts) < side:
        raise PuzzleError(f"the grid ends after {len(counts)} rows of {side} cells: a "
                          f"{side}x{side} grid has {side} rows", line=lines[-1])
    if side in SIDES and len(counts) > side:
        raise PuzzleError(f"{len(counts)} rows of {side} cells: a {side}x{side} grid has "
                          f"{side} rows", line=lines[side])


def read_solution(text: str, shape: Shape, line: int, offset: int) -> Grid:
    """A solution column: every cell filled with a digit of `shape`."""
    try:
        cells = cells_of(text, line, offset)
        solution = build(cells, shape).cells
    except PuzzleError as err:
        column = err.column if err.column is not None else offset + 1
        raise PuzzleError(f"solution: {err.reason}", line=line, column=column) from None
    if 0 in solution:
        col = cells[solution.index(0)][3]
        raise PuzzleError("solution: a blank cell", line=line, column=col)
    return solution
