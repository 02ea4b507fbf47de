"""A backend to copy: the smallest complete search written to the contract of `base.py`.

To add a backend: copy this file to `backends/<name>.py`, rename the class, write `_search` (and
`_prepare` if something can be built once per shape), and add one line to `BACKENDS` in
`backends/names.py` ("name": "sudokucp.backends.<name>:Class"). The tests then hold it to the
contract like every other (tests/test_contract.py reads the registry).
A backend kept outside the package needs no registration: `--backend mypkg.mymod:MyBackend`.

This one fills the first empty cell with each digit its row, column and box allow, in turn.
"""

from __future__ import annotations

from typing import Any

from sudokucp.backends.base import CHECK_MASK, TIMED_OUT, Backend, SearchOutcome
from sudokucp.clock import expired
from sudokucp.puzzle import Puzzle, Shape, geometry


class Template(Backend):
    """Plain backtracking over a list of cells; a model for new backends."""

    name = "template"  # the registry key; `label` adds the options that differ from defaults
    description = "example backend: first empty cell, digits ascending (copy it to add one)"
    extra = None  # the pip extra that brings `module`, e.g. "sat"
    module = None  # third-party module tried by available(), e.g. "pycosat" (import it in _search)
    defaults = {"reverse": False}  # every option with its default; values are coerced to its type
    choices: dict = {}  # allowed values of an option, when they are few
    stats_keys = ("nodes",)  # the stats every result holds: the contract tests check them

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)  # checks and coerces the options into self.options
        self.peers: dict[Shape, tuple[tuple[int, ...], ...]] = {}  # built by _prepare

    def _prepare(self, shape: Shape) -> None:
        """Optional: what every search of a shape shares, built before the clock, once per shape
        per instance (a model, a compiled kernel); its seconds are stats["build_s"]."""
        self.peers[shape] = geometry(shape).peers

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        """Return (solutions up to limit or all for 0, search exhausted, stats)."""
        grid = list(puzzle.cells)
        peers = self.peers[puzzle.shape]
        digits = range(puzzle.side, 0, -1) if self.options["reverse"] else range(1, puzzle.side + 1)
        empties = [c for c, v in enumerate(grid) if not v]
        if any(v and v in (grid[p] for p in peers[c]) for c, v in enumerate(grid)):
            return [], True, {"nodes": 0}  # clashing givens: proved unsolvable
        solutions = self.collector()  # counts every grid, keeps what the caller asked for
        stats = {"nodes": 0}

        def fill(k: int) -> bool:
            """Fill empties[k:]; True when the search must stop (limit reached or time up)."""
            if k == len(empties):
                solutions.append(tuple(grid))
                return len(solutions) == limit
            cell = empties[k]
            used = {grid[p] for p in peers[cell]}
            for digit in digits:
                if digit in used:
                    continue
                stats["nodes"] += 1
                if not stats["nodes"] & CHECK_MASK and expired(deadline):
                    stats[TIMED_OUT] = 1  # the contract: say that the clock stopped the search
                    return True
                grid[cell] = digit
                if fill(k + 1):
                    return True
            grid[cell] = 0
            return False

        stopped = fill(0)
        return solutions, not stopped, stats
