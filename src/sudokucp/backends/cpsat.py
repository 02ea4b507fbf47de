"""OR-tools CP-SAT: an integer per cell with AllDifferent per unit, or a Boolean per (cell, digit).

Glossary: x = the model's variables, n = side, limit = solutions wanted (0 = all).
Counting enumerates through a solution callback that stops the search at the limit, on one worker
whatever `workers` says; the count is exact only when CP-SAT ends with OPTIMAL or INFEASIBLE. An
exception from the collector (a streaming caller whose output closed) stops the search and is
raised once CP-SAT has returned.
"""

from __future__ import annotations

import time
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, OptionError, SearchOutcome
from sudokucp.puzzle import Puzzle, geometry


def build_integer(model: Any, puzzle: Puzzle) -> list[Any]:
    """An integer variable per cell (givens fixed), AllDifferent per unit; returns the cell vars."""
    n = puzzle.side
    cells = [model.new_int_var(v or 1, v or n, "") for v in puzzle.cells]
    for unit in geometry(puzzle.shape).units:
        model.add_all_different([cells[c] for c in unit])
    return cells


def build_boolean(model: Any, puzzle: Puzzle) -> list[Any]:
    """One Boolean per (cell, digit), exactly one per cell and per (unit, digit); returns the cell
    values as linear expressions sum(d * x[cell, d])."""
    n = puzzle.side
    digits = range(1, n + 1)
    x = [[model.new_bool_var("") for _ in digits] for _ in puzzle.cells]
    for cell, given in enumerate(puzzle.cells):
        model.add_exactly_one(x[cell])
        if given:
            model.add_bool_or([x[cell][given - 1]])
    for unit in geometry(puzzle.shape).units:
        for d in range(n):
            model.add_exactly_one([x[c][d] for c in unit])
    return [sum(d * b for d, b in zip(digits, row)) for row in x]


BUILDERS = {"integer": build_integer, "boolean": build_boolean}
MAX_WORKERS = 10_000  # CP-SAT refuses num_workers above it (MODEL_INVALID)


def make_collector(base: type, cells: list[Any], limit: int, found: Found) -> Any:
    """A CpSolverSolutionCallback that adds each solution to `found` and stops the search at
    `limit`."""

    class Collector(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.solutions, self.raised = found, None

        def on_solution_callback(self) -> None:
            try:
                self.solutions.append(tuple(self.value(v) for v in cells))
            except BaseException as err:  # a streaming caller gave up: stop, raise it after
                self.raised = err
                self.stop_search()
                return
            if limit and len(self.solutions) >= limit:
                self.stop_search()

    return Collector()


class CPSat(Backend):
    """CP-SAT on the integer model (AllDifferent) or the one-hot Boolean model (exactly-one)."""

    name = "cpsat"
    description = "OR-tools CP-SAT: AllDifferent per unit (model=integer) or one-hot exactly-one"
    extra = "ortools"
    module = "ortools"
    loads = ("ortools.sat.python.cp_model",)
    package = "ortools"
    defaults = {"model": "integer", "workers": 1}
    choices = {"model": ("integer", "boolean")}
    counting = "nearly constant memory: CP-SAT's own bookkeeping grows slightly"

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        if not 1 <= self.options["workers"] <= MAX_WORKERS:
            raise OptionError(f"option 'workers' of 'cpsat' is a number of threads from 1 to "
                              f"{MAX_WORKERS:,} (CP-SAT's bound), not {self.options['workers']}")

    @property
    def cores(self) -> int:
        """CP-SAT's worker threads: the harness keeps that many cores free for one run."""
        return self.options["workers"]

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        from ortools.sat.python import cp_model

        start = time.perf_counter()
        model = cp_model.CpModel()
        cells = BUILDERS[self.options["model"]](model, puzzle)
        built = time.perf_counter()
        limit_at = None if deadline is None else deadline + built - start  # the limit covers search
        solver = self._solver(cp_model, limit_at, enumerate_all=limit != 1)
        if limit == 1:
            status = solver.solve(model)
            found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
            solutions = [tuple(solver.value(v) for v in cells)] if found else []
            complete = status == cp_model.INFEASIBLE
        else:
            collector = make_collector(cp_model.CpSolverSolutionCallback, cells, limit,
                                       self.collector())
            status = solver.solve(model, collector)
            if collector.raised is not None:
                raise collector.raised
            solutions = collector.solutions
            complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        if status == cp_model.MODEL_INVALID:
            why = model.validate() or solver.solution_info() or "no reason given"
            raise RuntimeError(f"CP-SAT rejected the model or its parameters: {why}")
        stats = self._stats(solver, built - start, time.perf_counter() - built)
        if limit_at is not None and not complete and not (limit and len(solutions) >= limit):
            stats[TIMED_OUT] = 1  # CP-SAT's own limit stopped it, on a clock started after ours
        return solutions, complete, stats

    def _solver(self, cp_model: Any, deadline: float | None, *, enumerate_all: bool) -> Any:
        solver = cp_model.CpSolver()
        params = solver.parameters
        # several workers may report one solution twice while enumerating: enumerate with one
        params.num_workers = 1 if enumerate_all else self.options["workers"]
        params.log_search_progress = False
        params.catch_sigint_signal = False
        params.enumerate_all_solutions = enumerate_all
        if deadline is not None:
            params.max_time_in_seconds = max(deadline - time.perf_counter(), 1e-3)
        return solver

    @staticmethod
    def _stats(solver: Any, build: float, solve: float) -> dict[str, float]:
        return {"build_s": build, "solve_s": solve, "branches": solver.num_branches,
                "conflicts": solver.num_conflicts}
