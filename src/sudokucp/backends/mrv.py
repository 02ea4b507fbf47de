"""MRV backtracking: the most constrained cell first, chosen once (static) or at every node.

Glossary: free[u] = bitmask of the digits unit u still lacks (bit v-1 for digit v); an entry is
(row unit, column unit, box unit, cell) of an empty cell; the candidates of a cell are the AND of
its three free masks. Placing a digit clears its bit in three units; removing it sets it back.
The dynamic order also looks at the other viewpoint when no cell is forced (option `hidden`): a
digit with one place left in a unit is a one-candidate choice, a digit with none a dead end.
The search is one loop over preallocated per-depth arrays: nothing is allocated per node.
Nodes count values placed; backtracks count cells emptied after every candidate failed.
"""

from __future__ import annotations

from time import perf_counter

from sudokucp.backends.base import Backend, SearchOutcome
from sudokucp.puzzle import Grid, Puzzle, geometry

CHECK_EVERY = 1024  # nodes between two looks at the clock (a power of two)

Entry = tuple[int, int, int, int]  # row unit, column unit, box unit, cell


def build_free(puzzle: Puzzle) -> list[int] | None:
    """Free-digit masks per unit after the givens; None when a given repeats in a unit."""
    n = puzzle.side
    free = [(1 << n) - 1] * (3 * n)
    for cell, value in enumerate(puzzle.cells):
        if value:
            bit = 1 << (value - 1)
            for unit in geometry(puzzle.shape).cell_units[cell]:
                if not free[unit] & bit:
                    return None
                free[unit] ^= bit
    return free


def list_empties(puzzle: Puzzle) -> list[Entry]:
    """An entry per empty cell, row-major."""
    units = geometry(puzzle.shape).cell_units
    return [(*units[cell], cell) for cell, value in enumerate(puzzle.cells) if not value]


def sort_static(free: list[int], entries: list[Entry]) -> list[Entry]:
    """Entries sorted once by their number of candidates, ties row-major (the seeds' order)."""
    return sorted(entries, key=lambda e: ((free[e[0]] & free[e[1]] & free[e[2]]).bit_count(), e[3]))


def decode(puzzle: Puzzle, entries: list[Entry], bits: list[int]) -> Grid:
    """The full grid from the digit bit placed at each depth."""
    grid = list(puzzle.cells)
    for entry, bit in zip(entries, bits):
        grid[entry[3]] = bit.bit_length()
    return tuple(grid)


def find_hidden(free: list[int], cands: list[int],
                units: tuple[tuple[int, ...], ...]) -> tuple[int, int]:
    """A digit with one place left in a unit: (cell, its bit); (-1, 0) when a digit has no
    place (dead end); (-1, -1) when neither. cands holds 0 for filled cells."""
    for u, unit in enumerate(units):
        missing = free[u]
        if not missing:
            continue
        once = twice = 0
        for cell in unit:
            x = cands[cell]
            twice |= once & x
            once |= x
        if missing & ~once:
            return -1, 0
        single = missing & ~twice
        if single:
            bit = single & -single
            for cell in unit:
                if cands[cell] & bit:
                    return cell, bit
    return -1, -1


def search(puzzle: Puzzle, free: list[int], entries: list[Entry], limit: int,
           deadline: float | None, dynamic: bool,
           hidden: bool) -> tuple[list[Grid], bool, int, int]:
    """Depth-first search over `entries`; returns (solutions, exhausted, nodes, backtracks).

    entries[:k] hold the cells filled at depths 0..k-1; the dynamic order swaps the best of
    entries[k:] into place k, the static order takes entries[k] as it is. With `hidden`, a digit
    with one place left in a unit is taken as a one-candidate cell when no cell has fewer than two.
    """
    m = len(entries)
    bits = [0] * m  # digit bit placed at each depth
    masks = [0] * m  # candidates still to try at each depth
    cands = [0] * puzzle.shape.cells  # candidates of the open cells at the last full scan
    units = geometry(puzzle.shape).units
    solutions: list[Grid] = []
    end = float("inf") if deadline is None else deadline
    nodes = backtracks = 0
    worst = puzzle.side + 1  # more candidates than any cell can have
    k = 0
    while True:
        if k == m:
            solutions.append(decode(puzzle, entries, bits))
            if len(solutions) == limit:
                return solutions, False, nodes, backtracks
            mask = 0
        elif dynamic:
            best, mask = worst, 0
            for i in range(k, m):
                a, b, c, cell = entries[i]
                cand = free[a] & free[b] & free[c]
                cands[cell] = cand
                count = cand.bit_count()
                if count < best:
                    best, mask, pick = count, cand, i
                    if count < 2:
                        break
            if hidden and best > 1:
                cell, bit = find_hidden(free, cands, units)
                if bit >= 0:
                    mask = bit
                    if bit:
                        pick = next(i for i in range(k, m) if entries[i][3] == cell)
            if mask:
                entries[k], entries[pick] = entries[pick], entries[k]
            else:
                backtracks += 1
        else:
            a, b, c, _ = entries[k]
            mask = free[a] & free[b] & free[c]
            if not mask:
                backtracks += 1
        while not mask:  # retreat to the deepest cell with a candidate left
            k -= 1
            if k < 0:
                return solutions, True, nodes, backtracks
            a, b, c, cell = entries[k]
            bit = bits[k]
            free[a] |= bit
            free[b] |= bit
            free[c] |= bit
            mask = masks[k]
            if not mask:
                backtracks += 1
        bit = mask & -mask
        masks[k] = mask ^ bit
        bits[k] = bit
        a, b, c, cell = entries[k]
        free[a] ^= bit
        free[b] ^= bit
        free[c] ^= bit
        cands[cell] = 0
        nodes += 1
        if not nodes & (CHECK_EVERY - 1) and perf_counter() > end:
            return solutions, False, nodes, backtracks
        k += 1


class MRV(Backend):
    """Backtracking that fills the most constrained cell first.

    order: "dynamic" picks at every node, "static" sorts the cells once by candidate count.
    hidden: with the dynamic order, also take a digit's last place in a unit (False: cells only).
    """

    name = "mrv"
    description = "backtracking, fewest candidates first: dynamic (every node) or static (once)"
    defaults = {"order": "dynamic", "hidden": True}
    choices = {"order": ("dynamic", "static")}

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        free = build_free(puzzle)
        if free is None:
            return [], True, {"nodes": 0, "backtracks": 0}
        entries = list_empties(puzzle)
        dynamic = self.options["order"] == "dynamic"
        if not dynamic:
            entries = sort_static(free, entries)
        solutions, complete, nodes, backtracks = search(puzzle, free, entries, limit, deadline,
                                                        dynamic, self.options["hidden"])
        return solutions, complete, {"nodes": nodes, "backtracks": backtracks}
