"""The engine's precomputed tables, one set per shape: what Norvig's `units` and `peers` are to
his solver. Nothing is fixed to 9x9: the tables cover any r x c boxes.

Glossary: n = side, u = a unit's index (rows 0..n-1, columns n..2n-1, boxes 2n..3n-1), a crossing
= the cells a box shares with one row or column it meets.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, reduce
from operator import or_

from sudokucp.puzzle import Shape, geometry


@dataclass(frozen=True)
class Tables:
    """Everything the engine looks up for one shape, as tuples of ints."""

    n: int
    full: int  # every digit: (1 << n) - 1
    units: tuple[tuple[int, ...], ...]  # rows 0..n-1, columns n..2n-1, boxes 2n..3n-1
    cell_units: tuple[tuple[int, int, int], ...]
    peers: tuple[tuple[int, ...], ...]
    crossings: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    # (box ∩ line, box − line, line − box) for every box and every row or column crossing it
    unit_bits: tuple[int, ...]  # per cell, bit u set for each of its three units
    reach: tuple[int, ...]  # per cell, the unit bits of the cell and of all its peers
    box_groups: tuple[tuple[int, ...], ...]  # crossings of a box with its rows, with its columns
    line_groups: tuple[tuple[int, ...], ...]  # crossings of a row or a column with the boxes
    peer_bytes: tuple[int, ...]  # per cell, 0x80 in the byte of each peer (byte i = cell i)
    sevens: int  # 0x7F in the byte of every cell (degree: a count + 0x7F has bit 7 when open)
    crossing_units: tuple[tuple[int, int], ...]  # per crossing, (its box's u, its line's u)


@cache
def tables(shape: Shape) -> Tables:
    """The tables of `shape`, computed once."""
    g, n = geometry(shape), shape.side
    crossings, box_groups, line_groups = [], [], [[] for _ in range(2 * n)]
    crossing_units = []
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
        box_groups += [tuple(group) for group in groups]
    unit_bits = tuple(sum(1 << u for u in cu) for cu in g.cell_units)
    reach = tuple(reduce(or_, (unit_bits[p] for p in peers), unit_bits[c])
                  for c, peers in enumerate(g.peers))
    return Tables(n, (1 << n) - 1, g.units, g.cell_units, g.peers, tuple(crossings), unit_bits,
                  reach, tuple(box_groups), tuple(tuple(group) for group in line_groups),
                  tuple(sum(0x80 << 8 * p for p in peers) for peers in g.peers),
                  int.from_bytes(b"\x7f" * shape.cells, "little"), tuple(crossing_units))
