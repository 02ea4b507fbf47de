"""The yardstick: a plain pure-Python solver of the kind one writes in an afternoon, naked and
hidden singles to a fixpoint, then the open cell with the fewest candidates (MRV), depth first.

Candidates are bitmasks (bit d-1 for digit d); it works for any r x c shape and takes the
project's Puzzle only for its cells and geometry. benchmarks/hybrid.py measures the hybrid
backend against it; it is not part of the package.

Glossary: cand[c] = candidates of open cell c (0 once placed), vals[c] = bit placed in c (0 =
open), todo = (cell, bit) pairs to place. A contradiction is `False`.
"""

from __future__ import annotations

from typing import Literal

from sudokucp.puzzle import Puzzle, geometry

Grid = tuple[int, ...]


class Yardstick:
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
    return Yardstick(puzzle).solve(puzzle)
