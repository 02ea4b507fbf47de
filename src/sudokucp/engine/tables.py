"""The engine's precomputed tables, one set per shape and rules: what Norvig's `units` and `peers`
are to his solver. Nothing is fixed to 9x9: the tables cover any r x c boxes.

Glossary: n = side, u = a unit's index, a unit = a full group (N cells, each digit once: on the
classic grid rows 0..n-1, columns n..2n-1, boxes 2n..3n-1; a variant's rows and columns first,
then its other full groups), a crossing = the cells two units share (a box with a row or column
it meets on the classic grid), a cage sum = cells whose digits add up to a total. A variant's
non-full groups (short extra units, cages, the 2-cell groups of move rules) only make peers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache, reduce
from math import comb
from operator import or_
from typing import NamedTuple

from sudokucp.layout import layout
from sudokucp.puzzle import Shape, geometry
from sudokucp.rules import CLASSIC, Rules, sum_sets

SUM_SETS = 4096  # a cage sum lists its digit sets when there are at most this many to try


class CageSum(NamedTuple):
    """Cells whose digits add up to `total`, with the digit sets that can make it."""

    cells: tuple[int, ...]
    total: int
    sets: tuple[int, ...] | None  # masks of the digits that add up to total; None: too many


# A sweep: (kind, pieces, rests), pieces that split a unit: a digit in one of them only leaves
# that piece's rest cells (empty: none), counted as pointing (kind 0) or claiming (kind 1). A
# plain tuple, unpacked at tuple speed by the locked sweep.
Sweep = tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]]


@dataclass(frozen=True)
class Tables:
    """Everything the engine looks up for one shape and rules, as tuples of ints."""

    n: int
    full: int  # every digit: (1 << n) - 1
    units: tuple[tuple[int, ...], ...]  # rows 0..n-1, columns n..2n-1, then boxes (or groups)
    cell_units: tuple[tuple[int, ...], ...]  # classic: (row, column, box) per cell
    peers: tuple[tuple[int, ...], ...]
    crossings: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    # (box ∩ line, box − line, line − box) for every box and every row or column crossing it
    unit_bits: tuple[int, ...]  # per cell, bit u set for each of its units (and cage sums)
    reach: tuple[int, ...]  # per cell, the unit bits of the cell and of all its peers
    peer_bytes: tuple[int, ...]  # per cell, 0x80 in the byte of each peer (byte i = cell i)
    sevens: int  # 0x7F in the byte of every cell (degree: a count + 0x7F has bit 7 when open)
    crossing_units: tuple[tuple[int, int], ...]  # per crossing, (its box's u, its line's u)
    # A variant's tables (general): crossings are (U ∩ V, U − V, V − U) for every two units
    # U, V sharing two cells or more, crossing_units (U, V).
    allowed: tuple[int, ...]  # per cell, the digits it may hold
    other_peers: tuple[tuple[int, ...], ...]  # per cell, the peers sharing no unit with it
    pieces: tuple[tuple[int, ...], ...]  # the locked sweep's cell sets: crossings' first
    sweeps: tuple[tuple[Sweep, ...], ...]  # per unit, the locked sweep's groups of pieces
    first_swept: int = 0  # the locked sweep takes the units from here on first (the boxes)
    general: bool = False  # the tables of a variant
    sums: tuple[CageSum, ...] = ()  # cage sum k is dirty bit len(units) + k

def tables(shape: Shape, rules: Rules = CLASSIC) -> Tables:
    """The tables of `shape` under `rules`, computed once (the last few variants are kept)."""
    return classic_tables(shape) if rules.classic else rules_tables(shape, rules)


@cache
def classic_tables(shape: Shape) -> Tables:
    """The tables of the classic grid of `shape`."""
    g, n = geometry(shape), shape.side
    crossings, crossing_units, line_groups = [], [], [[] for _ in range(2 * n)]
    sweeps: list[tuple[Sweep, ...]] = [() for _ in range(3 * n)]
    for x, box in enumerate(g.units[2 * n:], 2 * n):
        in_box = set(box)
        groups: tuple[list[int], list[int]] = ([], [])
        for u, line in enumerate(g.units[:2 * n]):
            inter = tuple(c for c in line if c in in_box)
            if inter:
                groups[u // n].append(len(crossings))
                line_groups[u].append(len(crossings))
                crossing_units.append((x, u))
                crossings.append((inter, tuple(c for c in box if c not in inter),
                                  tuple(c for c in line if c not in in_box)))
        sweeps[x] = tuple(sweep(0, group, crossings, 2) for group in groups)
    for u, group in enumerate(line_groups):
        sweeps[u] = (sweep(1, group, crossings, 1),)
    unit_bits = tuple(sum(1 << u for u in cu) for cu in g.cell_units)
    reach = tuple(reduce(or_, (unit_bits[p] for p in peers), unit_bits[c])
                  for c, peers in enumerate(g.peers))
    return Tables(n, (1 << n) - 1, g.units, g.cell_units, g.peers, tuple(crossings), unit_bits,
                  reach, tuple(sum(0x80 << 8 * p for p in peers) for peers in g.peers),
                  int.from_bytes(b"\x7f" * shape.cells, "little"), tuple(crossing_units),
                  ((1 << n) - 1,) * shape.cells, ((),) * shape.cells,
                  tuple(inter for inter, _, _ in crossings), tuple(sweeps), 2 * n)


def sweep(kind: int, group: list[int], crossings: list[tuple[tuple[int, ...], ...]],
          rest: int) -> Sweep:
    """The classic sweep of a group of crossings splitting a box or a line: a digit in one of
    them leaves its `rest` part (2: the line's, 1: the box's)."""
    return kind, tuple(group), tuple(crossings[k][rest] for k in group)


@lru_cache(maxsize=64)
def rules_tables(shape: Shape, rules: Rules) -> Tables:
    """The tables of a variant: its full groups are the units (each once), every group makes
    peers, each cage with a sum is a CageSum, each cell keeps its allowed digits."""
    lay, n = layout(shape, rules), shape.side
    units = tuple(dict.fromkeys(tuple(sorted(g)) for i, g in enumerate(lay.groups)
                                if lay.is_full(i)))
    at: list[list[int]] = [[] for _ in range(shape.cells)]
    for u, unit in enumerate(units):
        for c in unit:
            at[c].append(u)
    sums = tuple(CageSum(cells, total, digit_sets(n, cells, total, lay.allowed))
                 for cells, total in lay.sums)
    bits = [sum(1 << u for u in cu) for cu in at]
    for k, cage in enumerate(sums, len(units)):
        for c in cage.cells:
            bits[c] |= 1 << k
    crossings, crossing_units, unit_crossings = pair_crossings(units)
    pieces, sweeps = pair_sweeps(crossings, crossing_units, unit_crossings)
    reach = tuple(reduce(or_, (bits[p] for p in peers), bits[c])
                  for c, peers in enumerate(lay.peers))
    return Tables(n, lay.full, units, tuple(map(tuple, at)), lay.peers, crossings, tuple(bits),
                  reach, tuple(sum(0x80 << 8 * p for p in peers) for peers in lay.peers),
                  int.from_bytes(b"\x7f" * shape.cells, "little"), crossing_units, lay.allowed,
                  others(lay.peers, bits, (1 << len(units)) - 1), pieces,
                  sweeps, 0, True, sums)


def pair_sweeps(crossings: tuple[tuple[tuple[int, ...], ...], ...],
                crossing_units: tuple[tuple[int, int], ...],
                unit_crossings: tuple[tuple[int, ...], ...]) -> tuple[
        tuple[tuple[int, ...], ...], tuple[tuple[Sweep, ...], ...]]:
    """A variant's locked-sweep pieces and sweeps: unit U with each unit V it crosses splits
    into U ∩ V (piece k of crossing k), whose digits leave V − U, and U − V (a piece of its own);
    counted as pointing when U is the crossing's first unit, as claiming when its second."""
    pieces = [inter for inter, _, _ in crossings]
    sweeps = []
    for u, ks in enumerate(unit_crossings):
        mine = []
        for k in ks:
            inter, one, two = crossings[k]
            kind = int(crossing_units[k][0] != u)
            rest, own = (one, two) if kind else (two, one)
            mine.append((kind, (k, len(pieces)), (rest, ())))
            pieces.append(own)
        sweeps.append(tuple(mine))
    return tuple(pieces), tuple(sweeps)


def others(peers: tuple[tuple[int, ...], ...], bits: list[int],
           units: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, its peers sharing none of its units (the mask `units` of unit bits)."""
    return tuple(tuple(p for p in near if not bits[p] & bits[c] & units)
                 for c, near in enumerate(peers))


def digit_sets(n: int, cells: tuple[int, ...], total: int,
               allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """The digit sets (masks) that may fill `cells` to `total`; None when too many to list."""
    digits = reduce(or_, (allowed[c] for c in cells), 0)
    if comb(digits.bit_count(), len(cells)) > SUM_SETS:
        return None
    return sum_sets(len(cells), total, n, digits)


def pair_crossings(units: tuple[tuple[int, ...], ...]) -> tuple[
        tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...],
        tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]:
    """(U ∩ V, U − V, V − U) of every two units sharing two cells or more, their (U, V), and
    per unit the crossings it is part of."""
    crossings, pairs = [], []
    of: list[list[int]] = [[] for _ in units]
    sets = [set(unit) for unit in units]
    for u, one in enumerate(units):
        for v in range(u + 1, len(units)):
            inter = tuple(c for c in one if c in sets[v])
            if len(inter) >= 2:
                of[u].append(len(crossings))
                of[v].append(len(crossings))
                pairs.append((u, v))
                crossings.append((inter, tuple(c for c in one if c not in sets[v]),
                                  tuple(c for c in units[v] if c not in sets[u])))
    return tuple(crossings), tuple(pairs), tuple(map(tuple, of))
