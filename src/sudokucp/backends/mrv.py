"""MRV backtracking: the most constrained cell first, chosen once (static) or at every node.

The state is the searches' one (sudokucp.engine.groups.Groups), for any rule set: free[u] =
bitmask of the digits group u still lacks (bit v-1 for digit v), the full groups first; the
candidates of a cell are its allowed digits ANDed with the free masks of its groups, each cage
sum of the cell pruning them (a digit stays only while the cage's free cells can still make what
is left of its sum with its unused digits). A classic grid's groups are its rows, columns and
boxes. `cells` holds the open cells in search order.
The dynamic order also looks at the other viewpoint when no cell is forced (option `hidden`): a
digit with one place left in a full group is a one-candidate choice, a digit with none a dead end
(the engine's hidden-single scan, propagation.lone_digits).
The search is one loop over preallocated per-depth arrays; the clock is read every CHECK_EVERY
nodes. Nodes count values placed; backtracks count cells emptied after every candidate failed.
"""

from __future__ import annotations

from sudokucp.backends.base import CHECK_MASK, TIMED_OUT, Backend, Found, SearchOutcome, Tracer
from sudokucp.clock import expired
from sudokucp.engine.groups import Groups
from sudokucp.puzzle import Grid, Puzzle
from sudokucp.rules import CLASSIC_KIND, KINDS


def static_order(g: Groups, cells: list[int]) -> list[int]:
    """Cells sorted once by their number of candidates, ties row-major (the seeds' order)."""
    return sorted(cells, key=lambda c: (g.candidates(c).bit_count(), c))


def retreat(g: Groups, cells: list[int], grid: list[int], bits: list[int], masks: list[int],
            k: int) -> tuple[int, int, int]:
    """Empty the cells from depth k-1 back to the deepest with a candidate left to try:
    (that depth, its candidates, cells emptied with none left); depth -1 when the tree is done."""
    emptied = 0
    while True:
        k -= 1
        if k < 0:
            return k, 0, emptied
        g.remove(cells[k], bits[k])
        grid[cells[k]] = 0
        if masks[k]:
            return k, masks[k], emptied
        emptied += 1


def search(puzzle: Puzzle, g: Groups, cells: list[int], limit: int, deadline: float | None,
           dynamic: bool, hidden: bool, solutions: list[Grid] | Found,
           trace: Tracer | None = None) -> SearchOutcome:
    """Depth-first search over `cells` (the open cells of `g`): (solutions, exhausted, stats);
    solutions are added to `solutions`.

    cells[:k] hold the cells filled at depths 0..k-1; the dynamic order swaps the best of
    cells[k:] into place k, the static order takes cells[k] as it is (Groups.pick).
    `trace` (sudokucp.teaching.trace) hears of each digit placed and each failed node.
    """
    m, grid = len(cells), list(puzzle.cells)
    bits, masks = [0] * m, [0] * m  # digit bit placed, candidates still to try, per depth
    stats: dict[str, float] = {"nodes": 0, "backtracks": 0}
    nodes = backtracks = k = 0
    try:
        while True:
            if k == m:
                solutions.append(tuple(grid))
                if len(solutions) == limit:
                    return solutions, False, stats
                mask = 0
            else:
                mask = g.pick(cells, k, dynamic, hidden)
                if not mask:
                    backtracks += 1
                    if trace is not None:
                        trace.backtrack(k)
            if not mask:
                k, mask, emptied = retreat(g, cells, grid, bits, masks, k)
                backtracks += emptied
                if trace is not None:
                    trace.retreat(k, emptied)
                if k < 0:
                    return solutions, True, stats
            bit = mask & -mask
            masks[k], bits[k] = mask ^ bit, bit
            cell = cells[k]
            g.place(cell, bit)
            grid[cell] = bit.bit_length()
            nodes += 1
            if trace is not None:
                trace.place(k + 1, cell, bit.bit_length())
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
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # any rule set: the search runs on Groups

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        g = Groups(puzzle)
        if not g.take_givens(puzzle.cells):
            return [], True, {"nodes": 0, "backtracks": 0}
        cells = [c for c, v in enumerate(puzzle.cells) if not v]
        dynamic = self.options["order"] == "dynamic"
        if not dynamic:
            cells = static_order(g, cells)
        return search(puzzle, g, cells, limit, deadline, dynamic, self.options["hidden"],
                      self.collector(), self.tracer)
