"""The hybrid's branching rules: which alternatives a search node tries, last first.

A rule is a function (board, weights) -> list of (cell, bit), the alternative to try first at the
end; together the alternatives cover every solution of the node (the digits of one cell, or the
places of one digit in one unit). `weights` holds a number per unit, grown by the search each time
a guess in one of its cells is refuted; only `wdeg` reads it.

- smallest: Knuth's exact-cover rule, the search's rule before the rules below existed: the first
  open cell with the fewest candidates or, when that is three or more, a digit with two (or
  three) places left in a unit.
- cell: the first open cell with the fewest candidates, nothing else.
- degree: the open cell with the fewest candidates, ties going to the one with the most open
  peers (most constrained peers); the unit-digit rule when it has three or more.
- wdeg: the open cell with the least candidates per weight of its units (dom/wdeg); the
  unit-digit rule when it has three or more.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sudokucp.engine.propagation import Board, Place

Rule = Callable[[Board, list[int]], list[Place]]


def fewest(cand: list[int]) -> int:
    """The first open cell with the fewest candidates (counted and searched at C speed)."""
    counts = list(map(int.bit_count, cand))
    return counts.index(min(filter(None, counts)))


def digits(cell: int, m: int) -> list[Place]:
    """The alternatives of one cell: each of its digits, the lowest last (tried first)."""
    out = []
    while m:
        bit = m & -m
        m ^= bit
        out.append((cell, bit))
    out.reverse()
    return out


def unit_digit(b: Board, low: int) -> list[Place] | None:
    """The places of a digit with two places left in some unit (three when `low` exceeds three),
    fewer than `low`; None when no unit has one."""
    cand, free, best = b.cand, b.free, None
    for u, unit in enumerate(b.t.units):
        if not free[u]:
            continue
        c1 = c2 = c3 = c4 = 0  # digits with at least 1, 2, 3, 4 places in the unit
        for c in unit:
            x = cand[c]
            c4 |= c3 & x
            c3 |= c2 & x
            c2 |= c1 & x
            c1 |= x
        if c2 & ~c3:
            best = (unit, c2 & ~c3)
            break
        if low > 3 and best is None and c3 & ~c4:
            best = (unit, c3 & ~c4)
    if best is None:
        return None
    unit, found = best
    bit = found & -found
    return [(c, bit) for c in reversed(unit) if cand[c] & bit]


def smallest(b: Board, weights: list[int]) -> list[Place]:
    """Knuth's rule: the smallest choice, a cell's digits or a unit's places of one digit."""
    cell = fewest(b.cand)
    m = b.cand[cell]
    low = m.bit_count()
    return (low > 2 and unit_digit(b, low)) or digits(cell, m)


def cell(b: Board, weights: list[int]) -> list[Place]:
    """The digits of the first open cell with the fewest candidates."""
    c = fewest(b.cand)
    return digits(c, b.cand[c])


def degree(b: Board, weights: list[int]) -> list[Place]:
    """The digits of the open cell with the fewest candidates, ties to the most open peers."""
    cand, t = b.cand, b.t
    counts = list(map(int.bit_count, cand))
    # Settled boards hold no cell with one candidate and nearly always one with two.
    low = 2 if 2 in counts and 1 not in counts else min(filter(None, counts))
    # Byte c holds c's count (at most 35) plus 0x7F: its bit 7 is set when c is open.
    packed = bytes(counts)
    opened = int.from_bytes(packed, "little") + t.sevens
    best, most, c = -1, -1, packed.find(low)
    while c >= 0:
        k = (opened & t.peer_bytes[c]).bit_count()  # open peers
        if k > most:
            best, most = c, k
        c = packed.find(low, c + 1)
    return digits(best, cand[best])


def degree_unit(b: Board, weights: list[int]) -> list[Place]:
    """`degree`, or the unit-digit rule when the fewest candidates are three or more."""
    cand = b.cand
    low = min(map(int.bit_count, filter(None, cand)))
    return (low > 2 and unit_digit(b, low)) or degree(b, weights)


def wdeg(b: Board, weights: list[int]) -> list[Place]:
    """The least candidates per weight of the cell's units (dom/wdeg); the unit rule from three."""
    cand, cell_units = b.cand, b.t.cell_units
    best, low, heavy = -1, 1, 0
    if b.t.general:  # any number of units per cell
        for c, m in enumerate(cand):
            if m:
                k, w = m.bit_count(), 1 + sum(weights[u] for u in cell_units[c])
                if best < 0 or k * heavy < low * w:
                    best, low, heavy = c, k, w
    else:
        for c, m in enumerate(cand):
            if m:
                k = m.bit_count()
                r, q, x = cell_units[c]
                w = 1 + weights[r] + weights[q] + weights[x]
                if best < 0 or k * heavy < low * w:
                    best, low, heavy = c, k, w
    m = cand[best]
    k = m.bit_count()
    return (k > 2 and unit_digit(b, k)) or digits(best, m)


def random_tie(rng: random.Random) -> Rule:
    """A rule for restarts: a cell with the fewest candidates drawn at random, its digits lowest
    first (a random digit order made the 25x25 runs longer: reports/hybrid.md)."""

    def rule(b: Board, weights: list[int]) -> list[Place]:
        cand = b.cand
        counts = list(map(int.bit_count, cand))
        low = min(filter(None, counts))
        start = rng.randrange(len(counts))  # the first such cell from a random place, wrapping
        cell = counts.index(low, start) if low in counts[start:] else counts.index(low)
        return digits(cell, cand[cell])

    return rule


RULES: dict[str, Rule] = {f.__name__: f for f in (smallest, cell, degree, degree_unit, wdeg)}
