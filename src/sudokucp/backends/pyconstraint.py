"""python-constraint2: a variable per cell, AllDifferentConstraint per unit, givens as one value.

The default `backtracking` solver picks the next variable at every step (most constraints, then
fewest values left); the package's own default, `optimized`, fixes the order once and is much slower
on sparse grids. `minconflicts` is a local search: it may find a solution, never proves anything.
The search runs inside the package and cannot be interrupted: the time limit is looked at only
between two solutions, so only a kill from outside bounds a run. The Problem holds the givens
as domains, so it is built per grid, inside the clock (`encode_s`: a few hundred microseconds).
"""

from __future__ import annotations

import time
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.clock import expired
from sudokucp.puzzle import Grid, Puzzle, geometry

SOLVERS = {
    "backtracking": "BacktrackingSolver",
    "optimized": "OptimizedBacktrackingSolver",
    "recursive": "RecursiveBacktrackingSolver",
    "minconflicts": "MinConflictsSolver",
}


def build_problem(constraint: Any, solver: Any, puzzle: Puzzle) -> Any:
    """The Problem of `puzzle`: cells 0..N*N-1, domains 1..N or the given, AllDifferent units."""
    problem = constraint.Problem(solver)
    digits = list(range(1, puzzle.side + 1))
    for cell, given in enumerate(puzzle.cells):
        problem.addVariable(cell, [given] if given else digits)
    for unit in geometry(puzzle.shape).units:
        problem.addConstraint(constraint.AllDifferentConstraint(), list(unit))
    return problem


def to_grid(solution: dict[int, int], size: int) -> Grid:
    """Row-major cells of a solution dictionary."""
    return tuple(solution[cell] for cell in range(size))


class PyConstraint(Backend):
    """python-constraint2 with a selectable solver; counting through getSolutionIter."""

    name = "pyconstraint"
    description = ("python-constraint2: AllDifferent per unit, dynamic-order backtracking; "
                   "cannot be interrupted inside a search (the time limit is checked between "
                   "solutions only: needs an outside kill)")
    extra = "csp"
    module = "constraint"
    package = "python-constraint2"
    defaults = {"solver": "backtracking", "steps": 1000}
    choices = {"solver": tuple(SOLVERS)}
    interruptible = False
    stats_keys = ("encode_s", "solve_s")

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.complete = self.options["solver"] != "minconflicts"  # local search proves nothing

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        import constraint

        start = time.perf_counter()
        kind = self.options["solver"]
        solver_class = getattr(constraint, SOLVERS[kind])
        solver = solver_class(self.options["steps"]) if kind == "minconflicts" else solver_class()
        problem = build_problem(constraint, solver, puzzle)
        built = time.perf_counter()
        if kind == "minconflicts":
            solutions, complete = self._local(problem, puzzle), False
        else:
            solutions, complete = self._iterate(problem, puzzle, limit, deadline)
        stats = {"encode_s": built - start, "solve_s": time.perf_counter() - built}
        if not complete and not (limit and len(solutions) >= limit) and expired(deadline):
            stats[TIMED_OUT] = 1
        return solutions, complete, stats

    @staticmethod
    def _local(problem: Any, puzzle: Puzzle) -> list[Grid]:
        """One try of min-conflicts local search: a solution or nothing, never a proof."""
        found = problem.getSolution()
        return [to_grid(found, puzzle.shape.cells)] if found else []

    def _iterate(self, problem: Any, puzzle: Puzzle, limit: int,
                 deadline: float | None) -> tuple[Found, bool]:
        """Solutions up to the limit; the iterator running dry proves the count."""
        solutions = self.collector()
        for found in problem.getSolutionIter():
            solutions.append(to_grid(found, puzzle.shape.cells))
            if len(solutions) == limit:
                return solutions, False
            if expired(deadline):
                return solutions, False
        return solutions, True
