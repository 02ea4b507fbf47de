"""The arrays of a variant that groups.py's search reads (Python, no numba): its tables
(groups, peers, cage sums, the combos of digits by size and sum), the offsets of geo, the
scratch row, and a search's state (Groups) with fresh buffers; see groups.py's glossary."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np

from sudokucp.backends.jit.layout import FRAME_LEN, REGS_LEN
from sudokucp.layout import layout
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.rules import Rules

TABLE_SIDE = 16  # the combos table (2^N masks) up to this side; bounds above it
# geo: shape, options, group counts, scratch offsets
G_N, G_CELLS, G_LIMIT, G_KEEP, G_NFULL, G_TABLE, G_QUEUE, G_GDIRTY, G_SDIRTY, G_SIZE = range(10)
S_QLEN, S_SOLVED = range(2)  # scratch: queue length, cells placed, then the queue and the flags


class Groups(NamedTuple):
    """The groups kernel's state: a variant's tables, geo, and one search's buffers."""

    gcells: Any  # the groups' cells, full groups first (padded with -1)
    peers: Any
    cgroups: Any  # each cell's groups
    allowed: Any  # each cell's digits before the givens
    qcells: Any  # the cage sums' cells
    qtotal: Any
    csum: Any  # each cell's cage sum, -1: none
    combos: Any
    starts: Any
    geo: Any
    cand: Any  # a row of candidate masks per depth
    frames: Any  # layout's frames: the cell in F_INDEX
    regs: Any
    sols: Any
    scr: Any


def padded(rows: Sequence[Sequence[int]]) -> np.ndarray:
    """Rows of ints as an int64 table padded with -1 (one column at least)."""
    table = np.full((len(rows), max([1, *map(len, rows)])), -1, np.int64)
    for i, row in enumerate(rows):
        table[i, :len(row)] = row
    return table


@lru_cache(maxsize=64)
def tables(shape: Shape, rules: Rules) -> tuple[np.ndarray, ...]:
    """gcells (full groups first), peers, cgroups, allowed, qcells, qtotal, csum, combos,
    starts, and nfull: what the kernel reads of a variant."""
    lay = layout(shape, rules)
    order = sorted(range(len(lay.groups)), key=lambda g: not lay.is_full(g))
    at = {g: i for i, g in enumerate(order)}
    cgroups = [sorted(at[g] for g in groups) for groups in lay.cell_groups]
    csum = np.full(shape.cells, -1, np.int64)
    for q, (cells, _) in enumerate(lay.sums):
        csum[list(cells)] = q
    qtotal = np.array([total for _, total in lay.sums], np.int64)
    nfull = sum(1 for g in order if lay.is_full(g))
    allowed = np.array(lay.allowed, np.uint64).view(np.int64)  # 64 digits: the sign bit too
    return (padded([lay.groups[g] for g in order]), padded(lay.peers), padded(cgroups), allowed,
            padded([cells for cells, _ in lay.sums]), qtotal, csum, *sum_table(shape.side),
            nfull)


@cache
def sum_table(side: int) -> tuple[np.ndarray, np.ndarray]:
    """combos (every digit mask ordered by size and sum) and starts (see the glossary); empty
    combos above TABLE_SIDE."""
    stride = side * (side + 1) // 2 + 1
    if side > TABLE_SIDE:
        return np.zeros(0, np.int64), np.zeros(1, np.int64)
    masks = np.arange(1 << side, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(side)) & 1
    keys = bits.sum(axis=1) * stride + bits @ np.arange(1, side + 1)
    order = np.argsort(keys, kind="stable")
    starts = np.searchsorted(keys[order], np.arange((side + 1) * stride + 1))
    return masks[order], starts.astype(np.int64)


def geometry(side: int, groups: int, sums: int, nfull: int, limit: int, keep: int
             ) -> np.ndarray:
    """The geo array of a variant's search, with the scratch offsets."""
    cells = side * side
    queue = S_SOLVED + 1
    gdirty = queue + cells
    sdirty = gdirty + groups
    return np.array([side, cells, limit, keep, nfull, side <= TABLE_SIDE, queue, gdirty, sdirty,
                     sdirty + sums], np.int64)


def state(puzzle: Puzzle, limit: int, keep: int, capacity: int) -> Groups:
    """A fresh state of a variant's search: its tables, geo and buffers (a solution buffer of
    `capacity` grids); keep 1: every grid handed over."""
    *arrays, nfull = tables(puzzle.shape, puzzle.rules)
    found, cells = Groups(*arrays, *(None,) * 6), puzzle.shape.cells
    geo = geometry(puzzle.side, len(found.gcells), len(found.qtotal), nfull, limit, keep)
    return found._replace(geo=geo, cand=np.empty((cells + 2, cells), np.int64),
                          frames=np.zeros((cells + 2, FRAME_LEN), np.int64),
                          regs=np.zeros(REGS_LEN, np.int64),
                          sols=np.zeros((capacity, cells), np.uint8),
                          scr=np.zeros(int(geo[G_SIZE]), np.int64))
