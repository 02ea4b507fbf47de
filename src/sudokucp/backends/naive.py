"""The seeds' naive backtracking: empty cells row-major, digits ascending, recursive or stacked.

Both variants walk the same tree, so they count the same nodes (values placed) and backtracks
(cells emptied after every digit failed). The used digits are the searches' one state
(sudokucp.engine.groups.Groups), for any rule set: a digit is tried when every group of its cell
lacks it, the cell's candidates hold it, and each cage sum of the cell can still be made; a
classic grid's groups are its rows, columns and boxes.
"""

from __future__ import annotations

import sys

from sudokucp.backends.base import CHECK_MASK, TIMED_OUT, Backend, Found, SearchOutcome, Tracer
from sudokucp.clock import expired
from sudokucp.engine.groups import Groups
from sudokucp.puzzle import Puzzle
from sudokucp.rules import CLASSIC_KIND, KINDS


class _Stop(Exception):
    """The deadline passed: unwinds the search."""


class UsedDigits:
    """The grid being filled over the searches' state, with place and remove by value."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.groups = Groups(puzzle)
        self.grid = list(puzzle.cells)
        self.consistent = self.groups.take_givens(puzzle.cells)

    def used(self, cell: int) -> int:
        """Bit v set for each digit v the cell may not take."""
        return ~(self.groups.candidates(cell) << 1)

    def place(self, cell: int, value: int) -> None:
        self.groups.place(cell, 1 << (value - 1))
        self.grid[cell] = value

    def remove(self, cell: int) -> None:
        self.groups.remove(cell, 1 << (self.grid[cell] - 1))
        self.grid[cell] = 0


class TracedUsedDigits(UsedDigits):
    """Used digits that tell a tracer of each digit placed or removed, at the depth of its cell."""

    def __init__(self, puzzle: Puzzle, empties: list[int], tracer: Tracer) -> None:
        self.depth = {cell: k + 1 for k, cell in enumerate(empties)}  # givens have none
        self.tracer = tracer
        super().__init__(puzzle)

    def place(self, cell: int, value: int) -> None:
        super().place(cell, value)
        if cell in self.depth:
            self.tracer.place(self.depth[cell], cell, value)

    def remove(self, cell: int) -> None:
        super().remove(cell)
        self.tracer.retract(self.depth[cell])


class TracedCounts(dict):
    """The counts of a traced search: each backtrack counted is a failed node told to the
    tracer (the deepest open one), so the search itself has no test for tracing."""

    def __init__(self, tracer: Tracer) -> None:
        super().__init__(nodes=0, backtracks=0)
        self.tracer = tracer

    def __setitem__(self, key: str, value: int) -> None:
        super().__setitem__(key, value)
        if key == "backtracks":
            self.tracer.backtrack()


class _Naive(Backend):
    tracer: Tracer | None = None  # set by sudokucp.teaching.trace: traced digits and counts
    traceable = True
    stats_keys = ("nodes", "backtracks")
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # any rule set: UsedDigits over Groups

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        empties = [c for c, v in enumerate(puzzle.cells) if not v]
        board = UsedDigits(puzzle) if self.tracer is None else \
            TracedUsedDigits(puzzle, empties, self.tracer)
        if not board.consistent:
            return [], True, {"nodes": 0, "backtracks": 0}
        self.counts = {"nodes": 0, "backtracks": 0} if self.tracer is None else \
            TracedCounts(self.tracer)
        self.deadline = deadline
        solutions = self.collector()
        try:
            complete = self._walk(board, empties, puzzle.side, limit, solutions)
        except _Stop:
            return solutions, False, {**self.counts, TIMED_OUT: 1}
        return solutions, complete, dict(self.counts)

    def _tick(self) -> None:
        self.counts["nodes"] += 1
        if not self.counts["nodes"] & CHECK_MASK and expired(self.deadline):
            raise _Stop

    def _walk(self, board: UsedDigits, empties: list[int], n: int, limit: int,
              solutions: Found) -> bool:
        raise NotImplementedError


class NaiveRecursive(_Naive):
    """Recursive: one call per empty cell, as in the seeds' estValide / backtrack."""

    name = "naive"
    description = "seeds' backtracking: row-major, digits ascending, recursive"

    def _walk(self, board: UsedDigits, empties: list[int], n: int, limit: int,
              solutions: Found) -> bool:
        """True when the tree was exhausted, False when the limit stopped it."""
        depth = len(empties) + 100
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, depth + 1000))
        try:
            return not self._fill(board, empties, 0, n, limit, solutions)
        finally:
            sys.setrecursionlimit(old)

    def _fill(self, board: UsedDigits, empties: list[int], k: int, n: int, limit: int,
              solutions: Found) -> bool:
        """Fill empties[k:]; True when the limit is reached and the search must stop."""
        if k == len(empties):
            solutions.append(tuple(board.grid))
            return len(solutions) == limit
        cell = empties[k]
        used = board.used(cell)
        for value in range(1, n + 1):
            if used >> value & 1:
                continue
            self._tick()
            board.place(cell, value)
            if self._fill(board, empties, k + 1, n, limit, solutions):
                return True
            board.remove(cell)
        self.counts["backtracks"] += 1
        return False


class NaiveIterative(_Naive):
    """Iterative: an explicit stack holding the next digit to try per open cell."""

    name = "naive-iterative"
    checker = {"classic": 2}
    description = "seeds' backtracking: row-major, digits ascending, explicit stack"

    def _walk(self, board: UsedDigits, empties: list[int], n: int, limit: int,
              solutions: Found) -> bool:
        next_value = [1] * (len(empties) + 1)
        k = 0
        while k >= 0:
            if k == len(empties):
                solutions.append(tuple(board.grid))
                if len(solutions) == limit:
                    return False
                k -= 1
                if k >= 0:
                    board.remove(empties[k])
                continue
            cell = empties[k]
            used = board.used(cell)
            value = next_value[k]
            while value <= n and used >> value & 1:
                value += 1
            if value > n:
                self.counts["backtracks"] += 1
                next_value[k] = 1
                k -= 1
                if k >= 0:
                    board.remove(empties[k])
                continue
            self._tick()
            board.place(cell, value)
            next_value[k] = value + 1
            k += 1
        return True
