"""MRV backtracking: the most constrained cell first, chosen once (static) or at every node.

Glossary: free[u] = bitmask of the digits unit u still lacks (bit v-1 for digit v); an OpenCell
is (row unit, column unit, box unit, cell) of an empty cell, `entries` the open cells in search
order; the candidates of a cell are the AND of its three free masks. Placing a digit clears its
bit in three units; removing it sets it back.
The dynamic order also looks at the other viewpoint when no cell is forced (option `hidden`): a
digit with one place left in a unit is a one-candidate choice, a digit with none a dead end.
The search is one loop over preallocated per-depth arrays: nothing is allocated per node; the
clock is read every CHECK_EVERY nodes. The hidden-single scan is the engine's
(propagation.lone_digits, given the free masks). Nodes count values placed; backtracks count
cells emptied after every candidate failed.
A variant (sudokucp.rules) runs `search_rules`, the same loop over every group of its layout (a
free mask per group, the full groups first: only they force a digit's last place), each cell's
candidates ANDed in, and each cage sum pruning the candidates of its cells: a digit stays only
while the cage's free cells can still make what is left of its sum with its unused digits.
"""

from __future__ import annotations

from typing import Literal

from sudokucp.backends.base import (
    CHECK_MASK,
    TIMED_OUT,
    Backend,
    Found,
    SearchOutcome,
    Tracer,
)
from sudokucp.clock import expired
from sudokucp.engine.groups import Groups, pick
from sudokucp.engine.propagation import lone_digits
from sudokucp.puzzle import Grid, Puzzle, geometry
from sudokucp.rules import CLASSIC_KIND, KINDS

OpenCell = tuple[int, int, int, int]  # row unit, column unit, box unit, cell


def build_free(puzzle: Puzzle) -> list[int] | Literal[False]:
    """Free-digit masks per unit after the givens; False (a contradiction) when a given repeats
    in a unit."""
    n = puzzle.side
    free = [(1 << n) - 1] * (3 * n)
    for cell, value in enumerate(puzzle.cells):
        if value:
            bit = 1 << (value - 1)
            for unit in geometry(puzzle.shape).cell_units[cell]:
                if not free[unit] & bit:
                    return False
                free[unit] ^= bit
    return free


def list_empties(puzzle: Puzzle) -> list[OpenCell]:
    """An OpenCell per empty cell, row-major."""
    units = geometry(puzzle.shape).cell_units
    return [(*units[cell], cell) for cell, value in enumerate(puzzle.cells) if not value]


def sort_static(free: list[int], entries: list[OpenCell]) -> list[OpenCell]:
    """Entries sorted once by their number of candidates, ties row-major (the seeds' order)."""
    return sorted(entries, key=lambda e: ((free[e[0]] & free[e[1]] & free[e[2]]).bit_count(), e[3]))


def decode(puzzle: Puzzle, entries: list[OpenCell], bits: list[int]) -> Grid:
    """The full grid from the digit bit placed at each depth."""
    grid = list(puzzle.cells)
    for entry, bit in zip(entries, bits):
        grid[entry[3]] = bit.bit_length()
    return tuple(grid)


def unit_choice(free: list[int], cands: list[int], units: tuple[tuple[int, ...], ...],
                entries: list[OpenCell], k: int) -> int | None:
    """The bit of a digit with one place left in a unit, its cell's entry swapped into place k;
    0 when a digit has no place left (a dead end); None when neither. cands must hold the
    candidates of every open cell, 0 for the filled ones."""
    found = lone_digits(cands, units, free)
    if not found:
        return None if found is None else 0
    u, lone = found
    bit = lone & -lone
    for cell in units[u]:
        if cands[cell] & bit:
            break
    pick = next(i for i in range(k, len(entries)) if entries[i][3] == cell)
    entries[k], entries[pick] = entries[pick], entries[k]
    return bit


def retreat(free: list[int], entries: list[OpenCell], bits: list[int], masks: list[int],
            k: int) -> tuple[int, int, int]:
    """Empty the cells from depth k-1 back to the deepest with a candidate left to try:
    (that depth, its candidates, cells emptied with none left); depth -1 when the tree is done."""
    emptied = 0
    while True:
        k -= 1
        if k < 0:
            return k, 0, emptied
        a, b, c, _ = entries[k]
        bit = bits[k]
        free[a] |= bit
        free[b] |= bit
        free[c] |= bit
        if masks[k]:
            return k, masks[k], emptied
        emptied += 1


def search(puzzle: Puzzle, free: list[int], entries: list[OpenCell], limit: int,
           deadline: float | None, dynamic: bool, hidden: bool,
           solutions: list[Grid] | Found | None = None,
           trace: Tracer | None = None) -> SearchOutcome:
    """Depth-first search over `entries`: (solutions, exhausted, stats); solutions are added to
    `solutions` (a new list by default).

    entries[:k] hold the cells filled at depths 0..k-1; the dynamic order swaps the best of
    entries[k:] into place k, the static order takes entries[k] as it is. With `hidden`, a digit
    with one place left in a unit is taken as a one-candidate cell when no cell has fewer than two.
    `trace` (sudokucp.teaching.trace) hears of each digit placed and each failed node.
    """
    m = len(entries)
    bits = [0] * m  # digit bit placed at each depth
    masks = [0] * m  # candidates still to try at each depth
    cands = [0] * puzzle.shape.cells  # candidates of the open cells at the last full scan
    units = geometry(puzzle.shape).units
    solutions = [] if solutions is None else solutions
    stats: dict[str, float] = {"nodes": 0, "backtracks": 0}
    worst = puzzle.side + 1  # more candidates than any cell can have
    nodes = backtracks = k = 0
    try:
        while True:
            if k == m:
                solutions.append(decode(puzzle, entries, bits))
                if len(solutions) == limit:
                    return solutions, False, stats
                mask = 0
            else:
                if dynamic:  # the entry with the fewest candidates goes to place k
                    best, mask, pick = worst, 0, k
                    for i in range(k, m):
                        a, b, c, cell = entries[i]
                        cand = free[a] & free[b] & free[c]
                        cands[cell] = cand
                        count = cand.bit_count()
                        if count < best:
                            best, mask, pick = count, cand, i
                            if count < 2:
                                break
                    found = None
                    if hidden and best > 1:  # no cell forced: a unit may force a digit, or fail
                        found = unit_choice(free, cands, units, entries, k)
                    if found is not None:
                        mask = found
                    elif mask:
                        entries[k], entries[pick] = entries[pick], entries[k]
                else:
                    a, b, c, _ = entries[k]
                    mask = free[a] & free[b] & free[c]
                if not mask:
                    backtracks += 1
                    if trace is not None:
                        trace.backtrack(k)
            if not mask:
                k, mask, emptied = retreat(free, entries, bits, masks, k)
                backtracks += emptied
                if trace is not None:
                    trace.retreat(k, emptied)
                if k < 0:
                    return solutions, True, stats
            bit = mask & -mask
            masks[k] = mask ^ bit
            bits[k] = bit
            a, b, c, cell = entries[k]
            free[a] ^= bit
            free[b] ^= bit
            free[c] ^= bit
            cands[cell] = 0
            nodes += 1
            if trace is not None:
                trace.place(k + 1, cell, bit.bit_length())
            if not nodes & CHECK_MASK and expired(deadline):
                stats[TIMED_OUT] = 1
                return solutions, False, stats
            k += 1
    finally:
        stats.update(nodes=nodes, backtracks=backtracks)


def search_rules(puzzle: Puzzle, limit: int, deadline: float | None, dynamic: bool,
                 hidden: bool, solutions: Found) -> SearchOutcome:
    """The search of `search` on a variant's groups: (solutions, exhausted, stats)."""
    g = Groups(puzzle)
    stats: dict[str, float] = {"nodes": 0, "backtracks": 0}
    if not g.take_givens(puzzle.cells):
        return solutions, True, stats
    cells = [c for c, v in enumerate(puzzle.cells) if not v]
    if not dynamic:
        cells.sort(key=lambda c: (g.candidates(c).bit_count(), c))
    m, grid = len(cells), list(puzzle.cells)
    bits, masks, cands = [0] * m, [0] * m, [0] * puzzle.shape.cells
    full_units = g.units[:g.nfull]
    nodes = backtracks = k = 0
    try:
        while True:
            if k == m:
                solutions.append(tuple(grid))
                if len(solutions) == limit:
                    return solutions, False, stats
                mask = 0
            else:
                mask = pick(g, cells, cands, full_units, k, dynamic, hidden)
                if not mask:
                    backtracks += 1
            while not mask:  # back to the deepest cell with a candidate left
                k -= 1
                if k < 0:
                    return solutions, True, stats
                g.remove(cells[k], bits[k])
                grid[cells[k]] = 0
                mask = masks[k]
                backtracks += not mask
            bit = mask & -mask
            masks[k], bits[k] = mask ^ bit, bit
            g.place(cells[k], bit)
            grid[cells[k]] = bit.bit_length()
            nodes += 1
            if not nodes & CHECK_MASK and expired(deadline):
                stats[TIMED_OUT] = 1
                return solutions, False, stats
            k += 1
    finally:
        stats.update(nodes=nodes, backtracks=backtracks)


class MRV(Backend):
    """Backtracking that fills the most constrained cell first.

    order: "dynamic" picks at every node, "static" sorts the cells once by candidate count.
    hidden: with the dynamic order, also take a digit's last place in a unit (False: cells only).
    """

    name = "mrv"
    checker = {"classic": 1, "large": 2, "variant": 1, "hard": 2}
    description = "backtracking, fewest candidates first: dynamic (every node) or static (once)"
    defaults = {"order": "dynamic", "hidden": True}
    choices = {"order": ("dynamic", "static")}
    tracer: Tracer | None = None  # set by sudokucp.teaching.trace
    traceable = True
    stats_keys = ("nodes", "backtracks")
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # a variant: search_rules (not traced)

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        if not puzzle.rules.classic:
            return search_rules(puzzle, limit, deadline, self.options["order"] == "dynamic",
                                self.options["hidden"], self.collector())
        free = build_free(puzzle)
        if free is False:
            return [], True, {"nodes": 0, "backtracks": 0}
        entries = list_empties(puzzle)
        dynamic = self.options["order"] == "dynamic"
        if not dynamic:
            entries = sort_static(free, entries)
        return search(puzzle, free, entries, limit, deadline, dynamic, self.options["hidden"],
                      self.collector(), self.tracer)
