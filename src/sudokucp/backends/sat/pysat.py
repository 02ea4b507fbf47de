"""The CNF of sudokucp.encodings.cnf solved by python-sat's CDCL solvers (CaDiCaL, Glucose,
MapleChrono, ...).

Glossary: n = side, var(cell, d) = cell * n + d (1..n^3), sel = the selector of one count.
Two ways to give the solver a grid (option `givens`):
- `assume`: one solver per (shape, encoding, solver name) per process holds the shape's clauses and
  the givens are assumptions, so that solver serves every grid of the shape. Counting adds a
  blocking clause (-sel | not this grid) per solution while assuming `sel`, and retires them with
  the unit clause (-sel) afterwards: what the solver keeps stays implied by the shape's clauses.
- `simplify`: a fresh solver per grid on the clauses the givens leave (`cnf.simplify`), blocking
  clauses added as they are. A variant (its own clauses, `cnf.encode_rules`) is always put so.
The shape's clauses (and, for `assume`, its solver) are built before the clock by `_prepare`; a
grid's own solver or assumptions are `encode_s`, inside it.
The deadline interrupts the solver from a timer thread; CaDiCaL, which takes no interrupt, runs in
chunks of conflicts (conf_budget) sized to the time left. The defaults (CaDiCaL 1.9.5, simplify)
did best on the Gecode 25x25 grids (reports/families.md); assumptions were far slower there.
"""

from __future__ import annotations

import atexit
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, SearchOutcome
from sudokucp.encodings import cnf
from sudokucp.puzzle import Grid, Puzzle, Shape
from sudokucp.rules import CLASSIC_KIND, KINDS

# python-sat's solvers that take assumptions and a limit (Lingeling takes no limit, Kissat no
# assumptions); names as pysat.solvers.SolverNames spells them.
SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose42", "maplechrono", "maplecm",
           "maplesat", "mergesat3", "minisat22")
GIVENS = ("simplify", "assume")
FIRST_BUDGET = 1000  # conflicts of CaDiCaL's first chunk when a deadline is set
COUNTERS = ("conflicts", "decisions", "propagations", "restarts")
INTERRUPTED = "Caught keyboard interrupt"  # the message of python-sat's error on SIGINT


def solve_until(solver: Any, assumptions: list[int], deadline: float | None,
                chunks: bool) -> bool | None:
    """True (a model), False (none under the assumptions) or None (the deadline came first);
    Ctrl-C during the search raises KeyboardInterrupt."""
    try:
        return _solve_until(solver, assumptions, deadline, chunks)
    except Exception as err:
        if INTERRUPTED in str(err):  # python-sat's own SIGINT handler, inside the C solver
            raise KeyboardInterrupt from None
        raise


def _solve_until(solver: Any, assumptions: list[int], deadline: float | None,
                 chunks: bool) -> bool | None:
    if deadline is None:
        return solver.solve(assumptions=assumptions)
    if chunks:
        return solve_in_chunks(solver, assumptions, deadline)
    left = deadline - time.perf_counter()
    if left <= 0:
        return None
    timer = threading.Timer(left, solver.interrupt)
    timer.start()
    try:
        return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
        timer.join()
        solver.clear_interrupt()


def solve_in_chunks(solver: Any, assumptions: list[int], deadline: float) -> bool | None:
    """solve_limited in conflict budgets: each doubles, or shrinks to half the time left at the
    rate seen, so the last chunk ends near the deadline."""
    budget = FIRST_BUDGET
    while time.perf_counter() < deadline:
        solver.conf_budget(budget)
        begin = time.perf_counter()
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        now = time.perf_counter()
        rate = budget / max(now - begin, 1e-6)
        budget = int(max(1.0, min(2.0 * budget, rate * (deadline - now) / 2)))
    return None


@dataclass
class Assumed:
    """A solver holding one shape's clauses, and the highest variable it uses so far."""

    solver: Any
    top: int

    def selector(self) -> int:
        """A variable no clause has used yet."""
        self.top += 1
        return self.top


_SHAPES: dict[tuple[Shape, str, str], Assumed] = {}


def shape_solver(shape: Shape, encoding: str, name: str) -> Assumed:
    """The process's solver for this shape, encoding and solver name, built on first use."""
    key = (shape, encoding, name)
    if key not in _SHAPES:
        from pysat.solvers import Solver

        if not _SHAPES:
            atexit.register(release_shapes)
        enc = cnf.encode(shape, encoding)
        _SHAPES[key] = Assumed(Solver(name=name, bootstrap_with=enc.cnf()), enc.variables)
    return _SHAPES[key]


def release_shapes() -> None:
    """Delete the cached solvers while python-sat is still loaded (at exit)."""
    while _SHAPES:
        _SHAPES.popitem()[1].solver.delete()


@dataclass
class Session:
    """One grid put to a solver: how to solve again, read a grid, block it, and clean up."""

    solver: Any
    assumptions: list[int]
    grid: Any  # model -> Grid
    block: Any  # Grid, model -> clause
    close: Any = None
    extra: list[int] = field(default_factory=list)  # assumptions added while counting


def assumed(puzzle: Puzzle, encoding: str, name: str) -> Session:
    """The shape's solver with the givens as assumptions; blocking clauses under a selector."""
    held, n = shape_solver(puzzle.shape, encoding, name), puzzle.side
    givens = [cell * n + v for cell, v in enumerate(puzzle.cells) if v]
    free = [cell for cell, v in enumerate(puzzle.cells) if not v]
    session = Session(held.solver, givens, lambda model: decode_all(model, n), None)

    def block_grid(grid: Grid, model: list[int]) -> list[int]:
        if not session.extra:
            session.extra.append(held.selector())
            session.assumptions = givens + session.extra
            session.close = lambda: held.solver.add_clause([-session.extra[0]])
        return [-session.extra[0]] + [-(cell * n + grid[cell]) for cell in free]

    session.block = block_grid
    return session


def simplified(puzzle: Puzzle, encoding: str, name: str, simple: cnf.Simplified) -> Session:
    """A fresh solver on the clauses the givens leave."""
    from pysat.solvers import Solver

    solver = Solver(name=name, bootstrap_with=simple.clauses)
    return Session(solver, [], lambda model: cnf.decode(model, simple, puzzle.cells,
                                                        puzzle.side),
                   lambda grid, model: cnf.block(model), solver.delete)


def decode_all(model: list[int], n: int) -> Grid:
    """The grid of a model over every variable: in each cell, the digit whose variable is true."""
    true = [v for v in model[:n ** 3] if v > 0]
    grid = [0] * (n * n)
    for v in true:
        grid[(v - 1) // n] = (v - 1) % n + 1
    return tuple(grid)


class PySAT(Backend):
    """A CDCL solver from python-sat on the shared CNF."""

    name = "pysat"
    description = ("CNF (one variable per cell and digit) solved by CaDiCaL, Glucose, Maple... "
                   "through python-sat; givens simplified in, or assumed on one solver per shape")
    extra = "sat"
    module = "pysat"
    loads = ("pysat.solvers",)
    package = "python-sat"
    defaults = {"solver": "cadical195", "encoding": "extended", "givens": "simplify"}
    choices = {"solver": SOLVERS, "encoding": cnf.ENCODINGS, "givens": GIVENS}
    counting = ("grows with the count: each solution adds a blocking clause the solver keeps "
                "(a few hundred bytes a 9x9 solution)")
    stats_keys = (*COUNTERS, "encode_s", "solve_s")
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # a variant: its own clauses, givens simplified in

    def _prepare(self, shape: Shape) -> None:
        """The shape's clauses; with givens=assume, the process's solver holding them too."""
        encoding = self.options["encoding"]
        cnf.encode(shape, encoding)
        if self.options["givens"] == "assume":
            shape_solver(shape, encoding, self.options["solver"])

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        start = time.perf_counter()
        stats: dict[str, float] = dict.fromkeys(COUNTERS, 0)
        session = self._session(puzzle)
        built = time.perf_counter()
        stats.update(encode_s=built - start, solve_s=0.0)
        if not isinstance(session, Session):  # settled by the givens alone
            return session, True, stats
        before = session.solver.accum_stats()
        found = self.collector()
        try:
            complete = self._count(session, limit, deadline, found, stats)
            after = session.solver.accum_stats()
        finally:
            if session.close:
                session.close()
        stats.update({k: after.get(k, 0) - before.get(k, 0) for k in COUNTERS})
        stats["solve_s"] = time.perf_counter() - built
        return found, complete, stats

    def _session(self, puzzle: Puzzle) -> Session | list[Grid]:
        """The grid put to a solver; or its solutions when the givens settle it (none when they
        break a unit, the givens themselves when they fill the grid)."""
        encoding, name = self.options["encoding"], self.options["solver"]
        if self.options["givens"] == "assume" and puzzle.rules.classic:
            return assumed(puzzle, encoding, name)
        simple = cnf.simplify(cnf.encoding_for(puzzle, encoding), puzzle.cells)
        if simple is None:
            return []
        if not len(simple.free):
            return [puzzle.cells]
        return simplified(puzzle, encoding, name, simple)

    def _count(self, session: Session, limit: int, deadline: float | None, found: Any,
               stats: dict[str, float]) -> bool:
        """Solve, block, solve again up to the limit; True when the solver ran dry."""
        chunks = self.options["solver"].startswith("cadical")
        while True:
            answer = solve_until(session.solver, session.assumptions, deadline, chunks)
            if answer is None:
                stats[TIMED_OUT] = 1
                return False
            if not answer:
                return True
            model = session.solver.get_model()
            grid = session.grid(model)
            found.append(grid)
            if len(found) == limit:
                return False
            session.solver.add_clause(session.block(grid, model))
