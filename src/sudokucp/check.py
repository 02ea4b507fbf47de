"""The judge: whether a grid solves a puzzle, and which cells conflict. Belongs to no backend."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sudokucp.layout import Layout, layout
from sudokucp.puzzle import Puzzle, Shape, cell_name, geometry
from sudokucp.rules import digits_of, name_cell, name_span

CLASSIC_UNITS = ("row ", "column ", "box ")  # groups a variant's judge names as the classic one


@dataclass(frozen=True)
class Conflict:
    """A digit placed twice in one unit."""

    unit: int
    digit: int
    first: int
    second: int

    def describe(self, shape: Shape) -> str:
        where = geometry(shape).unit_name(self.unit)
        return (f"digit {self.digit} twice in {where} ({cell_name(shape, self.first)} and "
                f"{cell_name(shape, self.second)})")


def find_conflicts(shape: Shape, cells: Sequence[int]) -> list[Conflict]:
    """Every repeated digit in a unit, blanks ignored, ordered by unit."""
    conflicts = []
    for u, unit in enumerate(geometry(shape).units):
        seen: dict[int, int] = {}
        for cell in unit:
            digit = cells[cell]
            if digit in seen:
                conflicts.append(Conflict(u, digit, seen[digit], cell))
            elif digit:
                seen[digit] = cell
    return conflicts


def explain(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Why `grid` does not solve `puzzle`; empty when it does."""
    shape, n = puzzle.shape, puzzle.side
    if len(grid) != shape.cells:
        return [f"the grid has {len(grid)} cells, expected {shape.cells}"]
    problems = []
    for cell, (given, value) in enumerate(zip(puzzle.cells, grid)):
        if not 1 <= value <= n:
            problems.append(f"{cell_name(shape, cell)} holds {value}, not a digit 1-{n}")
        elif given and given != value:
            problems.append(f"{cell_name(shape, cell)} changes the given {given} to {value}")
    if puzzle.rules.classic:
        return problems + [c.describe(shape) for c in find_conflicts(shape, grid)]
    return problems + explain_rules(layout(shape, puzzle.rules), grid)


def explain_rules(lay: Layout, grid: Sequence[int]) -> list[str]:
    """Each rule of a variant the grid breaks, with its own reason; rows, columns and boxes say
    it as the classic judge does."""
    problems = []
    for cell, value in enumerate(grid):
        if 1 <= value <= lay.side and not lay.allowed[cell] >> (value - 1) & 1:
            marks = " ".join(map(str, digits_of(lay.allowed[cell])))
            problems.append(f"{name_cell(lay.side, cell)} is {value}, not one of its candidates "
                            f"{marks}")
    for name, cells in zip(lay.names, lay.groups):
        problems += _repeats(lay, name.startswith(CLASSIC_UNITS), name, cells, grid)
    for cells, total in lay.sums:
        found = sum(grid[c] for c in cells)
        if found != total and all(1 <= grid[c] <= lay.side for c in cells):
            problems.append(f"cage {name_span(lay.side, cells)} sums to {found}, not {total}")
    return problems


def _repeats(lay: Layout, classic: bool, name: str, cells: Sequence[int],
             grid: Sequence[int]) -> list[str]:
    """The digits repeated in one group: a row, column or box as the classic judge says it."""
    seen: dict[int, int] = {}
    out = []
    for cell in cells:
        digit = grid[cell]
        if digit in seen:
            pair = f"({name_cell(lay.side, seen[digit])} and {name_cell(lay.side, cell)})"
            out.append(f"digit {digit} twice in {name} {pair}" if classic
                       else f"{name} repeats {digit} {pair}")
        elif digit:
            seen[digit] = cell
    return out


def is_solution(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """True when `grid` keeps every given and fills every unit with 1..N exactly once."""
    n = puzzle.side
    if len(grid) != puzzle.shape.cells:
        return False
    if any(g and g != v for g, v in zip(puzzle.cells, grid)):
        return False
    full = set(range(1, n + 1))
    if puzzle.rules.classic:
        return all({grid[c] for c in unit} == full for unit in geometry(puzzle.shape).units)
    return keeps_rules(layout(puzzle.shape, puzzle.rules), grid)


def keeps_rules(lay: Layout, grid: Sequence[int]) -> bool:
    """Whether a grid of digits 1..N keeps every group distinct, every cage's sum and every
    cell's candidates."""
    if any(not 1 <= v <= lay.side or not lay.allowed[c] >> (v - 1) & 1
           for c, v in enumerate(grid)):
        return False
    if any(len({grid[c] for c in g}) != len(g) for g in lay.groups):
        return False
    return all(sum(grid[c] for c in cells) == total for cells, total in lay.sums)


CHUNK = 1 << 12  # rows judged at once by solved_rows (rows x units x side masks: in cache)


def solved_rows(shape: Shape, givens: Any, grids: Any) -> Any:
    """Whole arrays judged at once: row i is True when grids[i] solves givens[i] (both
    (rows x cells) integer arrays, 0 = blank). The same rule as is_solution, vectorised."""
    import numpy as np

    givens, grids = np.asarray(givens), np.asarray(grids)
    if givens.shape != grids.shape or givens.ndim != 2 or grids.shape[1] != shape.cells:
        raise ValueError(f"expected two arrays of {shape} grids of the same size, not "
                         f"{givens.shape} and {grids.shape}")
    n = shape.side
    kind = np.int16 if n <= 14 else np.int32 if n <= 30 else np.int64  # the masks' width
    units = np.array(geometry(shape).units, np.intp)
    full, one = (1 << n) - 1, kind(1)
    ok = np.empty(len(grids), np.bool_)
    for start in range(0, len(grids), CHUNK):
        g, s = (narrow(np, a[start:start + CHUNK], n, kind) for a in (givens, grids))
        digits = ((s >= 1) & (s <= n)).all(axis=1)
        kept = ((g == 0) | (g == s)).all(axis=1)
        masks = np.left_shift(one, np.clip(s, 1, n) - 1, dtype=kind)
        covered = (np.bitwise_or.reduce(masks[:, units], axis=2) == full).all(axis=1)
        ok[start:start + CHUNK] = digits & kept & covered
    return ok


def narrow(np: Any, values: Any, n: int, kind: Any) -> Any:
    """Integer values as `kind`, those outside -1..n+1 first clipped there (no wrap-around)."""
    if values.dtype.kind == "u" and values.dtype.itemsize < np.dtype(kind).itemsize:
        return values.astype(kind)
    return np.clip(values, -1, n + 1).astype(kind)
