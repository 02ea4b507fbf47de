"""OR-tools CP-SAT: an integer per cell with AllDifferent per unit, or a Boolean per (cell, digit).

Glossary: x = the model's variables, n = side, limit = solutions wanted (0 = all).
Counting enumerates through a solution callback that stops the search at the limit, on one worker
whatever `workers` says; the count is exact only when CP-SAT ends with OPTIMAL or INFEASIBLE. An
exception from the collector (a streaming caller whose output closed) stops the search and is
raised once CP-SAT has returned.
The model of a shape is built once per instance (`_prepare`, before the clock); a grid pins its
givens in it (each given's variable narrowed to its value, `encode_s`) and unpins them after.
A variant (sudokucp.rules) gets a model of its own, built inside the clock (`encode_s`): every
group AllDifferent (or exactly/at most one per digit), a cage's sum a linear equality (or a
choice among the digit sets that make it), the candidates the domains.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, OptionError, SearchOutcome
from sudokucp.layout import Layout, layout
from sudokucp.puzzle import Puzzle, Shape, geometry
from sudokucp.rules import CLASSIC_KIND, KINDS, digits_of, sum_sets

Pin = Callable[[int, int], tuple[int, int]]  # (cell, given) -> (variable index, its value)


@dataclass(frozen=True)
class ShapeModel:
    """A shape's model with no givens: the cells' values, and the variable a given pins."""

    model: Any
    cells: list[Any]  # a variable or linear expression per cell
    pin: Pin


def build_integer(model: Any, shape: Shape) -> tuple[list[Any], Pin]:
    """An integer variable per cell, AllDifferent per unit; a given fixes its cell's variable."""
    n = shape.side
    cells = [model.new_int_var(1, n, "") for _ in range(shape.cells)]
    for unit in geometry(shape).units:
        model.add_all_different([cells[c] for c in unit])
    return cells, lambda cell, given: (cells[cell].index, given)


def build_boolean(model: Any, shape: Shape) -> tuple[list[Any], Pin]:
    """One Boolean per (cell, digit), exactly one per cell and per (unit, digit); the cells'
    values are sum(d * x[cell, d]) and a given sets its (cell, digit) Boolean."""
    n = shape.side
    digits = range(1, n + 1)
    x = [[model.new_bool_var("") for _ in digits] for _ in range(shape.cells)]
    for row in x:
        model.add_exactly_one(row)
    for unit in geometry(shape).units:
        for d in range(n):
            model.add_exactly_one([x[c][d] for c in unit])
    cells = [sum(d * b for d, b in zip(digits, row)) for row in x]
    return cells, lambda cell, given: (x[cell][given - 1].index, 1)


BUILDERS = {"integer": build_integer, "boolean": build_boolean}


def allowed_digits(lay: Layout, puzzle: Puzzle, cell: int) -> list[int]:
    """The digits a cell of a variant may hold: its given, else its candidates."""
    given = puzzle.cells[cell]
    return [given] if given else digits_of(lay.allowed[cell])


def build_rules_integer(model: Any, puzzle: Puzzle) -> list[Any]:
    """A variant's integer model: a domain per cell (given or candidates), AllDifferent per
    group, a linear equality per cage sum."""
    from ortools.sat.python import cp_model

    lay = layout(puzzle.shape, puzzle.rules)
    cells = [model.new_int_var_from_domain(
        cp_model.Domain.from_values(allowed_digits(lay, puzzle, c)), "")
        for c in range(puzzle.shape.cells)]
    for group in lay.groups:
        model.add_all_different([cells[c] for c in group])
    for group, total in lay.sums:
        model.add(sum(cells[c] for c in group) == total)
    return cells


def build_rules_boolean(model: Any, puzzle: Puzzle) -> list[Any]:
    """A variant's one-hot model: exactly one digit per cell among those allowed, each digit
    exactly once in a full group and at most once in a smaller one, a cage sum as a choice of
    digit sets (a linear sum over d * x wakes CP-SAT's LP: 100x slower on killers)."""
    lay, n = layout(puzzle.shape, puzzle.rules), puzzle.side
    x = [[model.new_bool_var("") for _ in range(n)] for _ in range(puzzle.shape.cells)]
    for cell, row in enumerate(x):
        model.add_exactly_one(row)
        allowed = set(allowed_digits(lay, puzzle, cell))
        for d in range(n):
            if d + 1 not in allowed:
                model.add(row[d] == 0)
    for g, group in enumerate(lay.groups):
        add = model.add_exactly_one if lay.is_full(g) else model.add_at_most_one
        for d in range(n):
            add([x[c][d] for c in group])
    for group, total in lay.sums:
        add_digit_sets(model, x, group, total, lay)
    return [sum((d + 1) * b for d, b in enumerate(row)) for row in x]


def add_digit_sets(model: Any, x: list[list[Any]], group: tuple[int, ...], total: int,
                   lay: Layout) -> None:
    """A cage's sum as a choice among the sets of distinct digits that make it: one set chosen,
    each of its digits somewhere in the cage, a digit in a cell only if a chosen set has it."""
    allowed = 0
    for c in group:
        allowed |= lay.allowed[c]
    sets = sum_sets(len(group), total, lay.side, allowed)
    chosen = [model.new_bool_var("") for _ in sets]
    if not chosen:  # no digits make the sum: the puzzle has no solution
        model.add_bool_or([model.new_constant(0)])
    model.add_exactly_one(chosen)
    for mask, pick in zip(sets, chosen):
        for d in digits_of(mask):
            model.add_bool_or([pick.Not(), *(x[c][d - 1] for c in group)])
    for d in range(1, lay.side + 1):
        having = [pick for mask, pick in zip(sets, chosen) if mask >> (d - 1) & 1]
        for c in group:
            model.add_bool_or([x[c][d - 1].Not(), *having])


RULE_BUILDERS = {"integer": build_rules_integer, "boolean": build_rules_boolean}


@contextmanager
def pinned(shaped: ShapeModel, puzzle: Puzzle) -> Iterator[None]:
    """The puzzle's givens fixed in the shape's model (each pinned variable's domain narrowed to
    its value), put back as they were afterwards."""
    variables = shaped.model.proto.variables
    saved = []
    for cell, given in enumerate(puzzle.cells):
        if given:
            index, value = shaped.pin(cell, given)
            domain = variables[index].domain
            saved.append((domain, domain[0], domain[1]))
            domain[0] = domain[1] = value
    try:
        yield
    finally:
        for domain, low, high in saved:
            domain[0], domain[1] = low, high


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


MAX_WORKERS = 10_000  # CP-SAT refuses num_workers above it (MODEL_INVALID)


class CPSat(Backend):
    """CP-SAT on the integer model (AllDifferent) or the one-hot Boolean model (exactly-one)."""

    name = "cpsat"
    checker = {"variant": 2, "hard": 1}
    description = "OR-tools CP-SAT: AllDifferent per unit (model=integer) or one-hot exactly-one"
    extra = "ortools"
    module = "ortools"
    loads = ("ortools.sat.python.cp_model",)
    package = "ortools"
    defaults = {"model": "integer", "workers": 1}
    choices = {"model": ("integer", "boolean")}
    counting = "nearly constant memory: CP-SAT's own bookkeeping grows slightly"
    stats_keys = ("encode_s", "solve_s", "branches", "conflicts")
    kinds = frozenset({CLASSIC_KIND, *KINDS})

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.models: dict[Shape, ShapeModel] = {}  # built by _prepare
        if not 1 <= self.options["workers"] <= MAX_WORKERS:
            raise OptionError(f"option 'workers' of 'cpsat' is a number of threads from 1 to "
                              f"{MAX_WORKERS:,} (CP-SAT's bound), not {self.options['workers']}")

    @property
    def cores(self) -> int:
        """CP-SAT's worker threads: the harness keeps that many cores free for one run."""
        return self.options["workers"]

    def _prepare(self, shape: Shape) -> None:
        """The shape's model, built once: each grid pins its givens in it while it is solved."""
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        cells, pin = BUILDERS[self.options["model"]](model, shape)
        self.models[shape] = ShapeModel(model, cells, pin)

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        from ortools.sat.python import cp_model

        start = time.perf_counter()
        if puzzle.rules.classic:
            shaped = self.models[puzzle.shape]
        else:  # a variant: a model of its own
            model = cp_model.CpModel()
            shaped = ShapeModel(model, RULE_BUILDERS[self.options["model"]](model, puzzle),
                                lambda cell, given: (0, 0))
        solver = self._solver(cp_model, deadline, enumerate_all=limit != 1)
        with pinned(shaped, puzzle) if puzzle.rules.classic else nullcontext():
            pinned_at = time.perf_counter()
            solutions, complete, status = self._run(cp_model, solver, shaped, limit)
        if status == cp_model.MODEL_INVALID:
            why = shaped.model.validate() or solver.solution_info() or "no reason given"
            raise RuntimeError(f"CP-SAT rejected the model or its parameters: {why}")
        stats = self._stats(solver, pinned_at - start, time.perf_counter() - pinned_at)
        if deadline is not None and not complete and not (limit and len(solutions) >= limit):
            stats[TIMED_OUT] = 1  # CP-SAT's own limit stopped it
        return solutions, complete, stats

    def _run(self, cp_model: Any, solver: Any, shaped: ShapeModel, limit: int
             ) -> tuple[Any, bool, Any]:
        """Solve the pinned model: (solutions, exhausted, CP-SAT's status)."""
        if limit == 1:
            status = solver.solve(shaped.model)
            found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
            solutions = [tuple(solver.value(v) for v in shaped.cells)] if found else []
            return solutions, status == cp_model.INFEASIBLE, status
        collector = make_collector(cp_model.CpSolverSolutionCallback, shaped.cells, limit,
                                   self.collector())
        status = solver.solve(shaped.model, collector)
        if collector.raised is not None:
            raise collector.raised
        return collector.solutions, status in (cp_model.OPTIMAL, cp_model.INFEASIBLE), status

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
    def _stats(solver: Any, encode: float, solve: float) -> dict[str, float]:
        return {"encode_s": encode, "solve_s": solve, "branches": solver.num_branches,
                "conflicts": solver.num_conflicts}
