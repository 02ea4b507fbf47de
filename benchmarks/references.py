"""Reference models that benchmarks/models.py times beside the `cpsat` and `sat` backends: the
shortest faithful CP-SAT model and the textbook pycosat encoding, as backends so that the harness
runs them like any other (`references:BareCpsat`, `references:TextbookPycosat`; `common.measure`
puts benchmarks/ on the workers' path). Not part of the package.

Each builds its model inside `_search`, per puzzle, as the backends do: their times cover model
building, and `encode_s` says how much of it that was (the backends' per-grid key).
"""

from __future__ import annotations

import time
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.puzzle import Grid, Puzzle, geometry


class BareCpsat(Backend):
    """The shortest faithful CP-SAT model: an integer per cell, AllDifferent per unit, solved on
    one worker with CP-SAT's defaults otherwise."""

    name = "bare-cpsat"
    description = "reference: the shortest CP-SAT model (integer per cell, AllDifferent per unit)"
    module = "ortools"
    loads = ("ortools.sat.python.cp_model",)
    package = "ortools"

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        from ortools.sat.python import cp_model

        start = time.perf_counter()
        n = puzzle.side
        model = cp_model.CpModel()
        cells = [model.new_int_var(v or 1, v or n, "") for v in puzzle.cells]
        for unit in geometry(puzzle.shape).units:
            model.add_all_different([cells[c] for c in unit])
        built = time.perf_counter()
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.log_search_progress = False
        solver.parameters.catch_sigint_signal = False
        if deadline is not None:  # the limit covers the search, from the end of the build
            solver.parameters.max_time_in_seconds = max(deadline - start, 1e-3)
        found = self.collector()
        if limit == 1:
            status = solver.solve(model)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                found.append(tuple(solver.value(v) for v in cells))
            complete = status == cp_model.INFEASIBLE
        else:
            solver.parameters.enumerate_all_solutions = True
            status = solver.solve(model, stopping_at(cp_model, cells, limit, found))
            complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        stats = {"encode_s": built - start, "solve_s": time.perf_counter() - built}
        if deadline is not None and not complete and not (limit and len(found) >= limit):
            stats[TIMED_OUT] = 1
        return found, complete, stats


def stopping_at(cp_model: Any, cells: list, limit: int, found: Found) -> Any:
    """A solution callback that keeps every solution in `found` and stops at `limit`."""

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(tuple(self.value(v) for v in cells))
            if limit and len(found) >= limit:
                self.stop_search()

    return Collector()


def textbook_clauses(puzzle: Puzzle) -> list[list[int]]:
    """The pycosat example's CNF: each cell one digit (pairs), digits distinct in every unit
    (pairs), a unit clause per given; every clause rebuilt for every puzzle."""
    n = puzzle.side

    def v(i: int, j: int, d: int) -> int:
        return n * n * (i - 1) + n * (j - 1) + d

    res = []
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            res.append([v(i, j, d) for d in range(1, n + 1)])
            res += [[-v(i, j, d), -v(i, j, e)]
                    for d in range(1, n + 1) for e in range(d + 1, n + 1)]
    for unit in geometry(puzzle.shape).units:
        cells = [(c // n + 1, c % n + 1) for c in unit]
        for a, (i, j) in enumerate(cells):
            for k, m in cells[a + 1:]:
                res += [[-v(i, j, d), -v(k, m, d)] for d in range(1, n + 1)]
    res += [[v(c // n + 1, c % n + 1, g)] for c, g in enumerate(puzzle.cells) if g]
    return res


class TextbookPycosat(Backend):
    """The pycosat example's encoding, rebuilt per puzzle and solved by PicoSAT, read back."""

    name = "textbook-pycosat"
    description = "reference: the pycosat example's Sudoku CNF, rebuilt and solved per puzzle"
    module = "pycosat"
    package = "pycosat"
    interruptible = False  # one C call: only the harness's kill stops it

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        import pycosat

        start = time.perf_counter()
        clauses = textbook_clauses(puzzle)
        built = time.perf_counter()
        found, complete = self.collector(), True
        for model in pycosat.itersolve(clauses):
            found.append(decode(set(model), puzzle.side))
            if len(found) == limit:
                complete = False
                break
        stats = {"encode_s": built - start, "solve_s": time.perf_counter() - built,
                 "clauses": len(clauses)}
        return found, complete, stats


def decode(model: set[int], n: int) -> Grid:
    """The grid a model of the textbook CNF sets (0 where no digit is true)."""
    return tuple(next((d for d in range(1, n + 1) if c * n + d in model), 0)
                 for c in range(n * n))
