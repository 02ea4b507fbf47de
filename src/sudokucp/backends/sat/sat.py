"""CNF solved by pycosat (PicoSAT): the shape's clauses from sudokucp.encodings.cnf, built once
per shape.

Glossary: n = side, var(cell, d) = cell * n + d (1..n^3), free = variables the givens leave open.
The givens simplify the cached clauses (satisfied clauses dropped, false literals removed) and the
free variables are renumbered 1..F for PicoSAT (`encode_s`, inside the clock; the shape's clauses
are built before it, by `_prepare`).
A time limit is kept by solving in chunks of propagations (`prop_limit`), growing each time, since
PicoSAT cannot be stopped from outside a call; an exhausted solution iterator counts as proof only
when no chunk limit could have cut it short.
Counting cannot run in constant memory: PicoSAT rules out each model found with a blocking clause
it keeps (itersolve), and the chunks hand the blocks found so far to the next call (kept packed,
4 bytes a literal). `--memory` caps it.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable
from typing import Any

from sudokucp.backends.base import TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.clock import expired
from sudokucp.encodings.cnf import (
    ENCODINGS,
    Clauses,
    Simplified,
    block,
    decode,
    encode,
    encoding_for,
    simplify,
)
from sudokucp.puzzle import Grid, Puzzle, Shape
from sudokucp.rules import CLASSIC_KIND, KINDS

FIRST_CHUNK = 200_000  # propagations of the first chunk when a deadline is set


class Chunks:
    """pycosat.solve in growing propagation budgets until an answer or the deadline."""

    def __init__(self, pycosat: Any, deadline: float) -> None:
        self.pycosat, self.deadline, self.budget, self.count = pycosat, deadline, FIRST_CHUNK, 0

    def solve(self, clauses: Clauses, variables: int) -> list[int] | str:
        """A model, 'UNSAT', or 'UNKNOWN' when the deadline passed first."""
        while self.deadline > time.perf_counter():
            start = time.perf_counter()
            answer = self.pycosat.solve(clauses, vars=variables, prop_limit=self.budget)
            self.count += 1
            if answer != "UNKNOWN":
                return answer
            self.grow(time.perf_counter() - start)
        return "UNKNOWN"

    def grow(self, seconds: float) -> None:
        """Double the budget, or less when the time left would not cover it at the rate seen."""
        rate = self.budget / max(seconds, 1e-6)
        left = self.deadline - time.perf_counter()
        self.budget = int(min(2 * self.budget, max(rate * left, 1)))


class PycoSAT(Backend):
    """PicoSAT through pycosat on the minimal or extended CNF."""

    name = "sat"
    checker = {"large": 0, "variant": 0, "hard": 0}
    description = ("CNF (one variable per cell and digit) solved by PicoSAT through pycosat; "
                   "time limit kept between propagation chunks")
    extra = "sat"
    module = "pycosat"
    package = "pycosat"
    defaults = {"encoding": "extended"}
    choices = {"encoding": ENCODINGS}
    counting = ("grows with the count: each solution adds a blocking clause that PicoSAT keeps "
                "(about 1 KB a 9x9 solution)")
    stats_keys = ("variables", "clauses", "base_clauses", "encode_s", "solve_s")
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # a variant's clauses: cnf.encode_rules

    def _prepare(self, shape: Shape) -> None:
        """The shape's clauses (cnf.encode keeps them for the process)."""
        encode(shape, self.options["encoding"])

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        import pycosat

        start = time.perf_counter()
        enc = encoding_for(puzzle, self.options["encoding"])
        stats: dict[str, float] = {"variables": 0, "clauses": 0, "base_clauses": enc.clauses}
        simple = simplify(enc, puzzle.cells)
        encoded = time.perf_counter()
        stats["encode_s"] = encoded - start
        if simple is None:  # the givens break a unit: proved unsolvable without a solver
            stats["solve_s"] = 0.0
            return [], True, stats
        stats.update(variables=len(simple.free), clauses=len(simple.clauses))
        found = self.collector()

        def grid_of(model: list[int]) -> Grid:
            return decode(model, simple, puzzle.cells, puzzle.side)

        if deadline is None:
            complete = self._iterate(pycosat, simple, limit, found, grid_of)
        else:
            chunks = Chunks(pycosat, deadline)
            complete = self._chunked(pycosat, chunks, simple, limit, found, grid_of)
            stats["chunks"] = chunks.count
            if not complete and not (limit and len(found) >= limit) and expired(deadline):
                stats[TIMED_OUT] = 1
        stats["solve_s"] = time.perf_counter() - encoded
        return found, complete, stats

    @staticmethod
    def _iterate(pycosat: Any, simple: Simplified, limit: int, found: Found,
                 grid_of: Callable[[list[int]], Grid]) -> bool:
        """Without a deadline: itersolve up to the limit; running dry proves the count."""
        variables = len(simple.free)
        if not variables:
            found.append(grid_of([]))
            return True
        for model in pycosat.itersolve(simple.clauses, vars=variables):
            found.append(grid_of(model))
            if len(found) == limit:
                return False
        return True

    @staticmethod
    def _chunked(pycosat: Any, chunks: Chunks, simple: Simplified, limit: int, found: Found,
                 grid_of: Callable[[list[int]], Grid]) -> bool:
        """With a deadline: itersolve within a budget, then a chunked solve that tells running
        dry (UNSAT: the count is exact) from running out of propagations. Whether exhausted."""
        variables = len(simple.free)
        if not variables:
            found.append(grid_of([]))
            return True
        blocks: Clauses = []  # one clause per model found, ruling it out, packed (array 'i')
        while time.perf_counter() < chunks.deadline:
            clauses = simple.clauses + blocks
            if limit != 1:
                start = time.perf_counter()
                for model in pycosat.itersolve(clauses, vars=variables, prop_limit=chunks.budget):
                    found.append(grid_of(model))
                    blocks.append(array("i", block(model)))
                    clauses.append(blocks[-1])
                    if len(found) == limit or expired(chunks.deadline):
                        return False
                chunks.grow(time.perf_counter() - start)
            answer = chunks.solve(clauses, variables)
            if answer in ("UNSAT", "UNKNOWN"):
                return answer == "UNSAT"
            found.append(grid_of(answer))
            blocks.append(array("i", block(answer)))
            if len(found) == limit:
                return False
        return False
