"""The yardsticks benchmarks/hybrid.py measures the hybrid backend against, as backends the
harness loads by import path (`measure(["hybrid", "yardstick:Yardstick", ...])`); they are not
part of the package.

`Solver` is a plain pure-Python solver of the kind one writes in an afternoon: naked and hidden
singles to a fixpoint, then the open cell with the fewest candidates (MRV), depth first.
Candidates are bitmasks (bit d-1 for digit d); it works for any r x c shape and takes the
project's Puzzle only for its cells and geometry. `Yardstick` is that solver behind the backend
contract. `Norvig` runs Peter Norvig's solver from a local copy of his sudoku.py
(`yardstick:Norvig:path=/path/to/sudoku.py`; nothing is fetched).

Neither looks at a deadline (that would change the code being measured): `interruptible = False`,
so the harness's outside kill ends a run past its limit. Both find a first solution only.

Glossary: cand[c] = candidates of open cell c (0 once placed), vals[c] = bit placed in c (0 =
open), todo = (cell, bit) pairs to place. A contradiction is `False`.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Literal

from sudokucp.backends.base import Backend, OptionError, SearchOutcome
from sudokucp.puzzle import Puzzle, geometry

Grid = tuple[int, ...]


class Solver:
    """Singles + MRV on one shape's tables; solve(puzzle) gives the first solution or None."""

    def __init__(self, puzzle: Puzzle) -> None:
        g = geometry(puzzle.shape)
        self.units, self.peers = g.units, g.peers
        self.full = (1 << puzzle.side) - 1

    def settle(self, cand: list[int], vals: list[int], todo: list[tuple[int, int]]) -> bool:
        """Place the queued digits and every naked and hidden single that follows."""
        peers, full = self.peers, self.full
        while True:
            while todo:
                c, bit = todo.pop()
                if vals[c]:
                    if vals[c] == bit:
                        continue
                    return False
                if not cand[c] & bit:
                    return False
                vals[c], cand[c] = bit, 0
                for p in peers[c]:
                    m = cand[p]
                    if m & bit:
                        m ^= bit
                        if not m:
                            return False
                        cand[p] = m
                        if not m & (m - 1):
                            todo.append((p, m))
            for unit in self.units:  # one sweep over every unit for hidden singles
                once = twice = placed = 0
                for c in unit:
                    m = cand[c]
                    twice |= once & m
                    once |= m
                    placed |= vals[c]
                if once | placed != full:
                    return False
                lone = once & ~twice
                while lone:
                    bit = lone & -lone
                    lone ^= bit
                    todo.append((next(c for c in unit if cand[c] & bit), bit))
            if not todo:
                return True

    def search(self, cand: list[int], vals: list[int]) -> list[int] | Literal[False]:
        """Depth first from a settled state: the solved vals, or False."""
        best, low = -1, 99
        for c, m in enumerate(cand):
            if m:
                k = m.bit_count()
                if k < low:
                    best, low = c, k
                    if k == 2:
                        break
        if best < 0:
            return vals
        m = cand[best]
        while m:
            bit = m & -m
            m ^= bit
            c2, v2 = cand[:], vals[:]
            if self.settle(c2, v2, [(best, bit)]):
                found = self.search(c2, v2)
                if found:
                    return found
        return False

    def solve(self, puzzle: Puzzle) -> Grid | None:
        """The first solution of `puzzle`, None when it has none."""
        n = len(puzzle.cells)
        cand, vals = [self.full] * n, [0] * n
        todo = [(c, 1 << (v - 1)) for c, v in enumerate(puzzle.cells) if v]
        found = self.settle(cand, vals, todo) and self.search(cand, vals)
        return tuple(v.bit_length() for v in found) if found else None


def solve(puzzle: Puzzle) -> Grid | None:
    """The yardstick's first solution of `puzzle` (None: no solution)."""
    return Solver(puzzle).solve(puzzle)


def first_only(name: str, limit: int) -> None:
    """Refuse a count: these solvers stop at their first solution."""
    if limit != 1:
        raise NotImplementedError(f"{name} finds a first solution only (limit 1), not limit "
                                  f"{limit}")


class Yardstick(Backend):
    """The afternoon solver above, first solution only; no stats (it counts nothing)."""

    name = "yardstick"
    description = "singles + MRV in about 100 lines of plain Python (benchmarks/yardstick.py)"
    interruptible = False  # no look at the deadline: the harness's kill stops it

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        first_only(self.name, limit)
        grid = solve(puzzle)
        return ([grid] if grid else []), grid is None, {}


@cache
def norvig_module(path: str) -> ModuleType:
    """A local copy of Norvig's sudoku.py, imported once per process."""
    file = Path(path)
    spec = importlib.util.spec_from_file_location("norvig_sudoku", file)
    if not path or not file.is_file() or spec is None or spec.loader is None:
        raise OptionError(f"norvig: path={path!r} is not a local copy of Norvig's sudoku.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not all(hasattr(module, name) for name in ("solve", "squares")):
        raise OptionError(f"norvig: {path} has no solve() and squares: not Norvig's sudoku.py")
    return module


class Norvig(Backend):
    """Norvig's solve(grid string) -> {square: digit} from his sudoku.py; 9x9, first solution.
    The file is imported by the constructor, before any clock."""

    name = "norvig"
    description = "Peter Norvig's constraint propagation + search, from a local sudoku.py"
    defaults = {"path": ""}
    interruptible = False  # his search never looks at a clock: the harness's kill stops it

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.sudoku = norvig_module(self.options["path"])

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        first_only(self.name, limit)
        if puzzle.side != 9:
            raise NotImplementedError(f"Norvig's solver takes 9x9 grids, not {puzzle.shape}")
        values = self.sudoku.solve("".join(map(str, puzzle.cells)))
        if not values:
            return [], True, {}
        return [tuple(int(values[s]) for s in self.sudoku.squares)], False, {}
