"""The rules a puzzle carries beyond rows and columns: the variants of Sudoku as one frozen value.

Glossary: N = side, cell = row-major index, mask = digits as bits (bit d-1 for digit d), group =
cells whose digits differ (a row, a column, a box or region, an extra unit, a cage), full group =
a group of N cells (each digit exactly once). The classic grid is `Rules()`: nothing extra.

- diagonals (X-sudoku): both main diagonals are groups;
- windows (windoku): the boxes set one cell in from the grid's boxes (four on 9x9) are groups;
- units: extra groups of listed cells (at most N each);
- regions (jigsaw): N connected regions of N cells replace the boxes;
- cages (killer): cells whose digits differ, with an optional sum;
- candidates (pencil-mark): the digits each cell may hold, a mask per cell;
- anti_knight, anti_king: two cells a chess knight's (king's diagonal) move apart differ; each
  such pair is a group of two cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

KINDS = ("x", "windoku", "extra-units", "jigsaw", "killer", "pencil-mark", "anti-knight",
         "anti-king")  # in naming order
CLASSIC_KIND = "classic"
WHAT = {"x": "diagonals (X-sudoku)", "windoku": "windoku windows",
        "extra-units": "extra units", "jigsaw": "jigsaw regions", "killer": "killer cages",
        "pencil-mark": "pencil-mark candidates", "anti-knight": "anti-knight moves",
        "anti-king": "anti-king moves"}  # a kind as a backend's refusal names it


def name_cell(side: int, cell: int) -> str:
    """Players' notation: r1c1 is the top-left cell."""
    return f"r{cell // side + 1}c{cell % side + 1}"


def name_cells(side: int, cells: Sequence[int]) -> str:
    """Cells in players' notation, 'r1c1 r1c2' (a cell off the grid by its row-major index)."""
    return " ".join(name_cell(side, c) if 0 <= c < side * side else str(c) for c in cells)


def name_span(side: int, cells: Sequence[int]) -> str:
    """A group named by its first and last cells: 'r1c1-r2c1' (one cell: 'r1c1')."""
    first, last = name_cell(side, min(cells)), name_cell(side, max(cells))
    return first if first == last else f"{first}-{last}"


def digits_of(mask: int) -> list[int]:
    """The digits of a mask, ascending."""
    return [d + 1 for d in range(mask.bit_length()) if mask >> d & 1]


@dataclass(frozen=True, order=True)
class Cage:
    """Cells whose digits differ and, when `total` is set, add up to it."""

    cells: tuple[int, ...]
    total: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))


def _sorted_groups(groups: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(sorted(g)) for g in groups))


@dataclass(frozen=True)
class Rules:
    """What a puzzle asks beyond rows, columns and boxes; `Rules()` is the classic grid.

    Cells are kept sorted and groups ordered by their first cell, so that equal rules compare
    equal however they were written."""

    diagonals: bool = False
    windows: bool = False
    units: tuple[tuple[int, ...], ...] = ()
    regions: tuple[tuple[int, ...], ...] = ()
    cages: tuple[Cage, ...] = ()
    candidates: tuple[int, ...] = ()
    anti_knight: bool = False
    anti_king: bool = False
    _features: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "units", _sorted_groups(self.units))
        put(self, "regions", _sorted_groups(self.regions))
        put(self, "cages", tuple(sorted(Cage(tuple(c.cells), c.total) for c in self.cages)))
        put(self, "candidates", tuple(self.candidates))
        found = {"x": self.diagonals, "windoku": self.windows, "extra-units": self.units,
                 "jigsaw": self.regions, "killer": self.cages, "pencil-mark": self.candidates,
                 "anti-knight": self.anti_knight, "anti-king": self.anti_king}
        put(self, "_features", frozenset(k for k, v in found.items() if v))

    @property
    def classic(self) -> bool:
        """Nothing beyond rows, columns and boxes."""
        return not self._features

    @property
    def features(self) -> frozenset[str]:
        """The kinds of rule this holds ('x', 'killer', ...); empty for the classic grid."""
        return self._features

    @property
    def kind(self) -> str:
        """'classic', a kind ('x', 'windoku', 'jigsaw', 'killer', 'pencil-mark', 'extra-units')
        or a combination joined by '+' ('x+killer')."""
        return "+".join(k for k in KINDS if k in self._features) or CLASSIC_KIND

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form: only what is set."""
        out: dict[str, Any] = {key: True for key in FLAGS if getattr(self, key)}
        for key in ("units", "regions"):
            if getattr(self, key):
                out[key] = [list(g) for g in getattr(self, key)]
        if self.cages:
            out["cages"] = [[list(c.cells), c.total] for c in self.cages]
        if self.candidates:
            out["candidates"] = list(self.candidates)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """The rules of a `to_dict` form."""
        return cls(units=tuple(tuple(g) for g in data.get("units", ())),
                   regions=tuple(tuple(g) for g in data.get("regions", ())),
                   cages=tuple(Cage(tuple(c), t) for c, t in data.get("cages", ())),
                   candidates=tuple(data.get("candidates", ())),
                   **{key: bool(data.get(key)) for key in FLAGS})

    def signature(self) -> str:
        """A stable text of the rules, for the puzzle's digest."""
        import json

        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def problem(self, side: int) -> str | None:
        """Why these rules cannot hold on a grid of `side` (a cell off the grid, regions that do
        not tile it, ...), or None when they can."""
        for check in (_units_problem, _regions_problem, _cages_problem, _candidates_problem):
            why = check(self, side)
            if why:
                return why
        return None


CLASSIC = Rules()
FLAGS = ("diagonals", "windows", "anti_knight", "anti_king")  # the rules that are on or off
KNIGHT = ((1, -2), (1, 2), (2, -1), (2, 1))  # moves to a later row: each pair once
KING = ((1, -1), (1, 1))  # the diagonal steps (the others share a row or a column)


# --- validation: each a reason or None ---------------------------------------------------------

def _cells_problem(side: int, cells: Sequence[int], what: str) -> str | None:
    off = [c for c in cells if not 0 <= c < side * side]
    if off:
        return f"{what} has cell {off[0]} (row-major), off the {side}x{side} grid"
    if len(set(cells)) != len(cells):
        return f"{what} names a cell twice"
    if not 1 <= len(cells) <= side:
        return f"{what} has {len(cells)} cells: a group holds 1 to {side}"
    return None


def _units_problem(rules: Rules, side: int) -> str | None:
    for unit in rules.units:
        why = _cells_problem(side, unit, f"unit {name_cells(side, unit)}")
        if why:
            return why
    return None


def _regions_problem(rules: Rules, side: int) -> str | None:
    if not rules.regions:
        return None
    if len(rules.regions) != side:
        return f"{len(rules.regions)} regions on a {side}x{side} grid: it needs {side}"
    for k, region in enumerate(rules.regions, 1):
        if len(region) != side:
            return f"region {k} has {len(region)} cells, not {side}"
        why = _cells_problem(side, region, f"region {k}")
        if why:
            return why
        if not connected(side, region):
            return f"region {k} ({name_span(side, region)}) is not connected"
    if len({c for r in rules.regions for c in r}) != side * side:
        return "the regions overlap: each cell belongs to exactly one"
    return None


def _cages_problem(rules: Rules, side: int) -> str | None:
    seen: set[int] = set()
    for cage in rules.cages:
        why = _cells_problem(side, cage.cells, f"cage {name_cells(side, cage.cells)}")
        if why:
            return why
        if cage.total is not None and cage.total < 1:
            return f"cage {name_span(side, cage.cells)} has sum {cage.total}: a sum is positive"
        if seen & set(cage.cells):
            return f"cage {name_span(side, cage.cells)} overlaps another cage"
        seen |= set(cage.cells)
    return None


def _candidates_problem(rules: Rules, side: int) -> str | None:
    if not rules.candidates:
        return None
    if len(rules.candidates) != side * side:
        return f"{len(rules.candidates)} candidate sets for {side * side} cells"
    full = (1 << side) - 1
    for cell, mask in enumerate(rules.candidates):
        if not 0 < mask <= full:
            return f"{name_cell(side, cell)} has no candidate from 1 to {side}"
    return None


def connected(side: int, cells: Iterable[int]) -> bool:
    """Whether the cells form one orthogonally connected piece."""
    left = set(cells)
    if not left:
        return True
    stack = [left.pop()]
    while stack:
        cell = stack.pop()
        row, col = divmod(cell, side)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < side and 0 <= c < side and r * side + c in left:
                left.discard(r * side + c)
                stack.append(r * side + c)
    return not left


# --- the groups of a shape under rules -----------------------------------------------------------

def diagonal_cells(side: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The main diagonal (r1c1 to rNcN) and the anti-diagonal (r1cN to rNc1)."""
    return (tuple(i * side + i for i in range(side)),
            tuple(i * side + side - 1 - i for i in range(side)))


def window_cells(box_rows: int, box_cols: int) -> tuple[tuple[int, ...], ...]:
    """The windoku windows: boxes of the grid's size set one cell in and one cell apart (four
    on 9x9, rows and columns 2-4 and 6-8)."""
    side = box_rows * box_cols
    tops = range(1, side - box_rows + 1, box_rows + 1)
    lefts = range(1, side - box_cols + 1, box_cols + 1)
    return tuple(tuple((top + i) * side + left + j for i in range(box_rows)
                       for j in range(box_cols)) for top in tops for left in lefts)


def move_pairs(side: int, moves: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Every pair of cells one of `moves` (row step, column step) apart."""
    return tuple((r * side + c, (r + dr) * side + c + dc) for r in range(side)
                 for c in range(side) for dr, dc in moves
                 if r + dr < side and 0 <= c + dc < side)


@lru_cache(maxsize=4096)
def sum_sets(size: int, total: int, side: int, allowed: int) -> tuple[int, ...]:
    """The masks of `size` distinct digits from `allowed` (1..side) that add up to `total`."""
    digits = [d for d in digits_of(allowed) if d <= side]
    return tuple(sum(1 << (d - 1) for d in combo) for combo in combinations(digits, size)
                 if sum(combo) == total)


def reachable(mask: int, count: int, target: int) -> bool:
    """Whether `count` distinct digits of `mask` may add up to `target`: it lies between the sums
    of the smallest and of the largest `count` of them."""
    if count == 0:
        return target == 0
    digits = digits_of(mask)
    return len(digits) >= count and sum(digits[:count]) <= target <= sum(digits[-count:])
