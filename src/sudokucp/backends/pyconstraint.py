"""python-constraint2: a variable per cell, AllDifferentConstraint per unit, givens as one value.

The default `backtracking` solver picks the next variable at every step (most constraints, then
fewest values left); the package's own default, `optimized`, fixes the order once and is much slower
on sparse grids. `minconflicts` is a local search: it may find a solution, never proves anything.
The search runs inside the package and cannot be interrupted: the time limit is looked at only
between two solutions, so only a kill from outside bounds a run. The Problem holds the givens
as domains, so it is built per grid, inside the clock (`encode_s`: a few hundred microseconds).
A variant (sudokucp.rules) has AllDifferent on every group of its layout, its candidates as the
domains, and on each cage with a sum a constraint of its own (`cage_sum`): the package's
ExactSumConstraint knows nothing of distinct digits and left niallsudoku 5503 and 6249 unsolved
after 300 s; this one keeps a value only while the other free cells can still make the rest of
the sum with distinct digits of their domains.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.clock import expired
from sudokucp.layout import layout
from sudokucp.puzzle import Grid, Puzzle, geometry
from sudokucp.rules import CLASSIC_KIND, KINDS, digits_of, sum_sets

SOLVERS = {
    "backtracking": "BacktrackingSolver",
    "optimized": "OptimizedBacktrackingSolver",
    "recursive": "RecursiveBacktrackingSolver",
    "minconflicts": "MinConflictsSolver",
}


def build_problem(constraint: Any, solver: Any, puzzle: Puzzle) -> Any:
    """The Problem of `puzzle`: cells 0..N*N-1, domains 1..N or the given, AllDifferent units."""
    problem = constraint.Problem(solver)
    if not puzzle.rules.classic:
        return add_rules(constraint, problem, puzzle)
    digits = list(range(1, puzzle.side + 1))
    for cell, given in enumerate(puzzle.cells):
        problem.addVariable(cell, [given] if given else digits)
    for unit in geometry(puzzle.shape).units:
        problem.addConstraint(constraint.AllDifferentConstraint(), list(unit))
    return problem


def add_rules(constraint: Any, problem: Any, puzzle: Puzzle) -> Any:
    """A variant's problem: candidates as domains (narrowed to the digits of the sets that make
    the cell's cage sum), AllDifferent per group, ExactSum per cage."""
    lay = layout(puzzle.shape, puzzle.rules)
    masks = list(lay.allowed)
    for cells, total in lay.sums:
        allowed = union = 0
        for cell in cells:
            allowed |= masks[cell]
        for mask in sum_sets(len(cells), total, puzzle.side, allowed):
            union |= mask
        for cell in cells:
            masks[cell] &= union
    for cell, given in enumerate(puzzle.cells):
        allowed = digits_of(masks[cell])
        problem.addVariable(cell, ([given] if given in allowed else []) if given else allowed)
    for group in lay.groups:
        problem.addConstraint(constraint.AllDifferentConstraint(), list(group))
    for cells, total in lay.sums:
        problem.addConstraint(cage_sum(constraint)(total), list(cells))
    return problem


def reachable(pool: list[int], count: int, target: int) -> bool:
    """Whether `count` distinct values of the sorted `pool` may add up to `target`."""
    if count == 0:
        return target == 0
    return len(pool) >= count and sum(pool[:count]) <= target <= sum(pool[-count:])


@cache
def cage_sum(constraint: Any) -> type:
    """The class of a cage's sum over distinct digits, on python-constraint2's Constraint."""

    class CageSum(constraint.Constraint):
        """The digits of the cells, all different, add up to `total`."""

        def __init__(self, total: int) -> None:
            self.total = total

        def __call__(self, variables: Any, domains: Any, assignments: Any,
                     forwardcheck: bool = False, _unassigned: Any = None) -> bool:
            used, left, free = set(), self.total, []
            for v in variables:
                if v in assignments:
                    used.add(assignments[v])
                    left -= assignments[v]
                else:
                    free.append(v)
            pool = sorted({x for v in free for x in domains[v]} - used)
            if not reachable(pool, len(free), left):
                return False
            if forwardcheck:
                for v in free:
                    domain = domains[v]
                    for x in domain[:]:
                        rest = [y for y in pool if y != x]
                        if x in used or not reachable(rest, len(free) - 1, left - x):
                            domain.hideValue(x)
                    if not domain:
                        return False
            return True

    return CageSum


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
    kinds = frozenset({CLASSIC_KIND, *KINDS})

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
