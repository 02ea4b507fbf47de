"""A shape's groups under its rules: rows, columns, boxes or jigsaw regions, then the variants'
diagonals, windows, extra units, cages and move pairs, with each cell's peers, the cage sums and
the digits each cell may hold (`layout`, cached). The engine, the judge, the encodings and the
backends read a puzzle's constraints from it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sudokucp.puzzle import Shape, geometry
from sudokucp.rules import KING, KNIGHT, Rules, diagonal_cells, move_pairs, name_span, window_cells


@dataclass(frozen=True)
class Layout:
    """Every group of a shape under rules, with names, peers, sums and allowed digits."""

    side: int
    groups: tuple[tuple[int, ...], ...]  # rows, columns, boxes or regions, then the extras
    names: tuple[str, ...]
    peers: tuple[tuple[int, ...], ...]  # per cell, every cell sharing a group with it
    cell_groups: tuple[tuple[int, ...], ...]  # per cell, the groups holding it
    sums: tuple[tuple[tuple[int, ...], int], ...]  # (cells, total) of each cage with a sum
    allowed: tuple[int, ...]  # per cell, the digits it may hold (a mask)

    @property
    def full(self) -> int:
        return (1 << self.side) - 1

    def is_full(self, group: int) -> bool:
        """Whether the group has N cells: each digit exactly once."""
        return len(self.groups[group]) == self.side


def extra_groups(shape: Shape, rules: Rules) -> list[tuple[str, tuple[int, ...]]]:
    """The named groups beyond rows and columns: boxes or regions, diagonals, windows, units,
    cages, then the pairs of the anti-knight and anti-king rules."""
    n = shape.side
    if rules.regions:
        out = [(f"region {k}", r) for k, r in enumerate(rules.regions, 1)]
    else:
        out = [(f"box {k}", b) for k, b in enumerate(geometry(shape).units[2 * n:], 1)]
    if rules.diagonals:
        out += [(f"diagonal {name_span(n, d)}", d) for d in diagonal_cells(n)]
    if rules.windows:
        out += [(f"window {k}", w) for k, w in
                enumerate(window_cells(shape.box_rows, shape.box_cols), 1)]
    out += [(f"unit {name_span(n, u)}", u) for u in rules.units]
    out += [(f"cage {name_span(n, c.cells)}", c.cells) for c in rules.cages if len(c.cells) > 1]
    for on, what, moves in ((rules.anti_knight, "knight's move", KNIGHT),
                            (rules.anti_king, "king's move", KING)):
        if on:
            out += [(f"{what} {name_span(n, p)}", p) for p in move_pairs(n, moves)]
    return out


@lru_cache(maxsize=256)
def layout(shape: Shape, rules: Rules) -> Layout:
    """The groups of `shape` under `rules` (cached for the last few rules seen)."""
    n = shape.side
    lines = geometry(shape).units[:2 * n]
    named = [(f"row {i + 1}", u) for i, u in enumerate(lines[:n])]
    named += [(f"column {j + 1}", u) for j, u in enumerate(lines[n:])]
    named += extra_groups(shape, rules)
    groups = tuple(tuple(g) for _, g in named)
    cell_groups: list[list[int]] = [[] for _ in range(n * n)]
    for g, cells in enumerate(groups):
        for cell in cells:
            cell_groups[cell].append(g)
    peers = tuple(tuple(sorted({p for g in cg for p in groups[g]} - {cell}))
                  for cell, cg in enumerate(cell_groups))
    sums = tuple((c.cells, c.total) for c in rules.cages if c.total is not None)
    allowed = rules.candidates or ((1 << n) - 1,) * (n * n)
    return Layout(n, groups, tuple(name for name, _ in named), peers,
                  tuple(tuple(cg) for cg in cell_groups), sums, tuple(allowed))
