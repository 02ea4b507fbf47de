"""Reader and writer of the variants' text: the variant block.

The variant block (text), ended by a blank line or the end of the file:

    # variant: x killer          kinds among x windoku jigsaw killer pencil-mark extra-units
                                 anti-knight anti-king
    # name: an example           optional
    .....3...  (the grid: any layout the readers take, on one line or over N rows)
    regions:                     jigsaw: N rows of N labels, one label per region
    AAABBBCCC
    cage 13: r1c1 r2c1           killer: a cage with its sum ('cage: r1c1 r1c2' without one)
    unit: r1c1 r2c2 r3c3         extra-units: cells whose digits differ
    candidates:                  pencil-mark: N rows of N tokens, the digits a cell may hold
    123 . 45 ...                 ('.' for any digit)

x (both diagonals), windoku (the windows one cell in from the boxes), anti-knight and anti-king
(no two cells a knight's move, or a king's diagonal step, apart hold the same digit) need no
section. The
header names exactly the kinds the sections make; an error names its line and column.
f-puzzles strings and JSON files are read by io/fpuzzles.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from sudokucp.io.tokens import DuplicateGiven, cells_of, shape_for
from sudokucp.layout import layout
from sudokucp.puzzle import DIGITS, Grid, Puzzle, PuzzleError, Shape, to_line
from sudokucp.rules import CLASSIC_KIND, KINDS, Cage, Rules, digits_of, name_cell

HEADER = re.compile(r"^\s*#\s*variant\s*:", re.IGNORECASE)
NAME = re.compile(r"^\s*#\s*name\s*:(.*)$", re.IGNORECASE)
CAGE = re.compile(r"^\s*cage\s*(\d*)\s*:(.*)$", re.IGNORECASE)
UNIT = re.compile(r"^\s*unit\s*:(.*)$", re.IGNORECASE)
SECTION = re.compile(r"^\s*(regions|candidates)\s*:\s*$", re.IGNORECASE)
CELL = re.compile(r"r(\d+)c(\d+)", re.IGNORECASE)
RULE_CHARS = frozenset(" \t|-+=")
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # region labels written
ANY = "."  # a candidates token: every digit
MAX_DIGITS = 6  # of a number in a block: no grid's row, column or cage sum is longer
Block = Sequence[tuple[int, str]]  # numbered lines: the header first
Ref = tuple[int, int, int]  # a cell written rXcY: row, column (1-based), text column


def is_header(text: str) -> bool:
    """Whether a line opens a variant block ('# variant: killer')."""
    return bool(HEADER.match(text))


def has_block(text: str) -> bool:
    """Whether a text holds a variant block."""
    return "ariant" in text and any(is_header(line) for line in text.split("\n"))


# --- the variant block: read ---------------------------------------------------------------------

def read_block(lines: Block, shape: Shape | None = None, name: str = "") -> Puzzle:
    """The puzzle of a variant block (numbered lines, the header first); errors name the line
    and column."""
    header_line, header = lines[0]
    declared = _declared(header, header_line)
    parts = _Parts()
    for number, text in lines[1:]:
        name = parts.take(number, text) or name
    grid, shape, places = _grid(parts.grid, shape, header_line)
    n = shape.side
    rules = Rules(diagonals="x" in declared, windows="windoku" in declared,
                  units=tuple(_cells_of(refs, n, number) for number, refs in parts.units),
                  regions=_regions(parts.regions, n, parts.regions_line),
                  cages=_cages(parts.cages, n),
                  candidates=_candidates(parts.candidates, n, parts.candidates_line),
                  anti_knight="anti-knight" in declared, anti_king="anti-king" in declared)
    _agree(declared, rules, header_line)
    why = rules.problem(n)
    if why:
        raise PuzzleError(why, line=header_line)
    refuse_clashes(shape, grid, rules, places)
    return Puzzle(shape, grid, name, rules)


class _Parts:
    """The lines of a block sorted into the grid, the sections, the cages and the units."""

    def __init__(self) -> None:
        self.grid: list[tuple[int, str]] = []
        self.regions: list[tuple[int, str]] = []
        self.candidates: list[tuple[int, str]] = []
        self.cages: list[tuple[int, int | None, list[Ref]]] = []  # line, sum, cells
        self.units: list[tuple[int, list[Ref]]] = []
        self.regions_line = self.candidates_line = 0
        self.state = "grid"

    def take(self, number: int, text: str) -> str | None:
        """Sort one line; a '# name:' line's name is returned."""
        stripped = text.strip()
        if not stripped or set(stripped) <= RULE_CHARS:
            return None
        if stripped.startswith("#"):
            found = NAME.match(text)
            return found.group(1).strip() if found else None
        if section := SECTION.match(text):
            self._open(section.group(1).lower(), number)
        elif cage := CAGE.match(text):
            total = _number(cage.group(1), number, cage.start(1) + 1) if cage.group(1) else None
            self.cages.append((number, total, cell_refs(cage.group(2), number, cage.start(2))))
            self.state = "listed"
        elif unit := UNIT.match(text):
            self.units.append((number, cell_refs(unit.group(1), number, unit.start(1))))
            self.state = "listed"
        elif self.state in ("grid", "regions", "candidates"):
            getattr(self, self.state).append((number, text))
        else:
            raise PuzzleError("after the cages and units only cage, unit, regions: and "
                              "candidates: lines may follow", line=number, column=1)
        return None

    def _open(self, section: str, number: int) -> None:
        if getattr(self, f"{section}_line"):
            raise PuzzleError(f"a second '{section}:' section in one block", line=number)
        setattr(self, f"{section}_line", number)
        self.state = section


def _declared(header: str, number: int) -> set[str]:
    """The kinds the header names; an unknown word names its column."""
    body_at = header.index(":") + 1
    kinds: set[str] = set()
    for match in re.finditer(r"[^\s+,]+", header[body_at:]):
        word = match.group().lower()
        if word not in (*KINDS, CLASSIC_KIND):
            raise PuzzleError(f"unknown variant {match.group()!r} (kinds: {', '.join(KINDS)})",
                              line=number, column=body_at + match.start() + 1)
        kinds.add(word)
    kinds.discard(CLASSIC_KIND)
    return kinds


def _agree(declared: set[str], rules: Rules, number: int) -> None:
    """The header and the sections name the same kinds."""
    sections = {"extra-units": "unit line", "jigsaw": "regions: section",
                "killer": "cage line", "pencil-mark": "candidates: section"}
    for kind, section in sections.items():
        if kind in declared and kind not in rules.features:
            raise PuzzleError(f"the header names {kind} but the block has no {section}",
                              line=number)
        if kind in rules.features and kind not in declared:
            raise PuzzleError(f"the block has a {section} but the header does not name {kind}",
                              line=number)


def cell_refs(text: str, number: int, offset: int) -> list[Ref]:
    """Cells written 'r1c1 r2c1' (spaces or commas between) as (row, column, text column); a
    bad word names its column. They are checked against the grid once its side is known."""
    refs = []
    for match in re.finditer(r"[^\s,]+", text):
        found = CELL.fullmatch(match.group())
        if not found:
            raise PuzzleError(f"{match.group()!r} is not a cell (write r1c1 for row 1, "
                              f"column 1)", line=number, column=offset + match.start() + 1)
        at = offset + match.start() + 1
        refs.append((_number(found.group(1), number, at), _number(found.group(2), number, at), at))
    if not refs:
        raise PuzzleError("no cell listed (write r1c1 r1c2 ...)", line=number)
    return refs


def _number(digits: str, line: int, column: int) -> int:
    """A cage's sum or a cell's row or column: digits of no more than any grid needs."""
    if len(digits) > MAX_DIGITS:
        raise PuzzleError(f"{digits[:12]}... ({len(digits)} digits) is larger than any grid's "
                          f"rows, columns or cage sums", line=line, column=column)
    return int(digits)


def _cells_of(refs: Sequence[Ref], side: int, number: int) -> tuple[int, ...]:
    """Row-major cells of (row, column) references, each checked to lie on the grid."""
    cells = []
    for row, col, at in refs:
        if not (1 <= row <= side and 1 <= col <= side):
            raise PuzzleError(f"r{row}c{col} is off the {side}x{side} grid", line=number,
                              column=at)
        cell = (row - 1) * side + col - 1
        if cell in cells:
            raise PuzzleError(f"r{row}c{col} is listed twice", line=number, column=at)
        cells.append(cell)
    return tuple(cells)


def _grid(rows: list[tuple[int, str]], shape: Shape | None, header: int
          ) -> tuple[Grid, Shape, dict[int, tuple[int, int]]]:
    """The givens of the grid lines, the shape their count makes, and where each given is
    written (cell -> line, column)."""
    cells = [cell for number, text in rows for cell in cells_of(text, number)]
    if not cells:
        raise PuzzleError("the variant block has no grid (write it after the header)",
                          line=header)
    shape = shape_for(len(cells), shape)
    for value, token, number, column in cells:
        if value > shape.side:
            raise PuzzleError(f"{token!r} is not a digit of a {shape} grid", line=number,
                              column=column)
    places = {i: (c[2], c[3]) for i, c in enumerate(cells) if c[0]}
    return tuple(c[0] for c in cells), shape, places


def _regions(rows: list[tuple[int, str]], side: int, start: int) -> tuple[tuple[int, ...], ...]:
    """Regions from N rows of N labels (one character each, or words between spaces)."""
    if not start:
        return ()
    if len(rows) != side:
        raise PuzzleError(f"the regions: section has {len(rows)} rows, the grid {side}",
                          line=start)
    found: dict[str, list[int]] = {}
    for i, (number, text) in enumerate(rows):
        labels = _labels(text)
        if len(labels) != side:
            raise PuzzleError(f"{len(labels)} region labels in this row, {side} in a row of "
                              f"the grid", line=number)
        for j, (label, _) in enumerate(labels):
            found.setdefault(label, []).append(i * side + j)
    regions = tuple(tuple(cells) for cells in found.values())
    why = Rules(regions=regions).problem(side)
    if why:
        raise PuzzleError(why, line=start)
    return regions


def _labels(text: str) -> list[tuple[str, int]]:
    """(label, column) of each cell of a region row."""
    if " " in text.strip() or "\t" in text.strip():
        return [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
    return [(ch, i + 1) for i, ch in enumerate(text) if not ch.isspace()]


def _cages(cages: list[tuple[int, int | None, list[Ref]]], side: int) -> tuple[Cage, ...]:
    """The cages on the grid, each checked as it comes (a later one that overlaps is named)."""
    out: list[Cage] = []
    for number, total, refs in cages:
        out.append(Cage(_cells_of(refs, side, number), total))
        why = Rules(cages=tuple(out)).problem(side)
        if why:
            raise PuzzleError(why, line=number)
    return tuple(out)


def _candidates(rows: list[tuple[int, str]], side: int, start: int) -> tuple[int, ...]:
    """A mask per cell from N rows of N tokens ('.' for any digit)."""
    if not start:
        return ()
    if len(rows) != side:
        raise PuzzleError(f"the candidates: section has {len(rows)} rows, the grid {side}",
                          line=start)
    masks = []
    for number, text in rows:
        tokens = list(re.finditer(r"\S+", text))
        if len(tokens) != side:
            raise PuzzleError(f"{len(tokens)} candidate sets in this row, {side} in a row of "
                              f"the grid", line=number)
        masks += [_mask(m.group(), side, number, m.start() + 1) for m in tokens]
    return tuple(masks)


def _mask(token: str, side: int, number: int, column: int) -> int:
    if token == ANY:
        return (1 << side) - 1
    mask = 0
    for k, ch in enumerate(token.upper()):
        digit = DIGITS.find(ch) + 1
        if not 1 <= digit <= side:
            raise PuzzleError(f"{ch!r} is not a digit of a {side}x{side} grid (candidates are "
                              f"digits, or '.' for any)", line=number, column=column + k)
        mask |= 1 << (digit - 1)
    return mask


def refuse_clashes(shape: Shape, grid: Grid, rules: Rules,
                    places: Mapping[int, tuple[int, int]]) -> None:
    """A given outside its candidates, or repeated in a group, names its place."""
    lay = layout(shape, rules)
    where = places
    for cell, value in enumerate(grid):
        if value and not lay.allowed[cell] >> (value - 1) & 1:
            line, col = where.get(cell, (None, None))
            raise PuzzleError(f"{name_cell(shape.side, cell)} is given {value}, not one of its "
                              f"candidates {' '.join(map(str, digits_of(lay.allowed[cell])))}",
                              line=line, column=col)
    for name, cells in zip(lay.names, lay.groups):
        seen: dict[int, int] = {}
        for cell in cells:
            value = grid[cell]
            if value and value in seen:
                line, col = where.get(cell, (None, None))
                raise DuplicateGiven(f"duplicate given: digit {value} twice in {name} "
                                     f"({name_cell(shape.side, seen[value])} and "
                                     f"{name_cell(shape.side, cell)})", line=line, column=col)
            seen.setdefault(value, cell)


# --- the variant block: write --------------------------------------------------------------------

def to_text(puzzle: Puzzle) -> str:
    """The variant block of a puzzle (read back equal by read_block)."""
    n, rules = puzzle.side, puzzle.rules
    kinds = " ".join(k for k in KINDS if k in rules.features) or CLASSIC_KIND
    lines = [f"# variant: {kinds}"]
    if puzzle.name:
        lines.append(f"# name: {puzzle.name}")
    lines.append(to_line(puzzle.shape, puzzle.cells))
    if rules.regions:
        lines += ["regions:", *_region_rows(rules.regions, n)]
    lines += [f"cage{'' if c.total is None else f' {c.total}'}: {_refs(c.cells, n)}"
              for c in rules.cages]
    lines += [f"unit: {_refs(u, n)}" for u in rules.units]
    if rules.candidates:
        lines += ["candidates:", *_candidate_rows(rules.candidates, n)]
    return "\n".join(lines) + "\n"


def _refs(cells: Iterable[int], side: int) -> str:
    return " ".join(name_cell(side, c) for c in cells)


def _region_rows(regions: Sequence[Sequence[int]], side: int) -> list[str]:
    label = {cell: LABELS[k] for k, cells in enumerate(regions) for cell in cells}
    return ["".join(label[i * side + j] for j in range(side)) for i in range(side)]


def _candidate_rows(masks: Sequence[int], side: int) -> list[str]:
    full = (1 << side) - 1
    tokens = [ANY if m == full else "".join(DIGITS[d - 1] for d in digits_of(m)) for m in masks]
    width = max(map(len, tokens))
    return [" ".join(t.ljust(width) for t in tokens[i * side:(i + 1) * side]).rstrip()
            for i in range(side)]
