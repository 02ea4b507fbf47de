"""The layout of the `jit` depth-first kernel: field numbers of its arrays, the tables and the
geo array of a shape under its rules, the kernels' states as NamedTuples of arrays, and a batch's
answers (no numba here, and numpy imported when an array is made: the backend's Python side reads
these names).

Glossary: n = side, cand = one row of candidate masks (bit d-1 for digit d; for a variant one
more, a cell that stays empty: the padding of `peers`), a cell is placed once its mask has one
bit (it is then queued exactly once and struck from its peers), u = unit, a full group (N cells:
rows, columns, boxes or regions, then a variant's full extras; sudokucp.layout), geo = shape and
options in one array (fields G_*), regs = the search's registers (R_*), scr = scratch (S_*,
offsets in geo).
A cage sum is a row of `qcells` padded with -1, its total in `qtotal`; `combos` = every digit
mask ordered by (size, sum), those of size m and sum t from `starts[m * stride + t]` to the next
start (stride = N(N+1)/2 + 1), up to TABLE_SIDE.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple

# geo: shape, options, counts, scratch offsets
G_N, G_R, G_C, G_CELLS, G_LEVEL, G_BRANCH, G_LIMIT, G_KEEP, G_UNITS, G_SUMS = range(10)
G_TABLE, G_DIRTY, G_WEIGHT, G_HSEG, G_VSEG, G_AD, G_HIDDEN, G_SIZE = range(10, 18)
TABLE_SIDE = 16  # the combos table (2^N masks) up to this side; bounds above it
# levels and branchings (the option values, in order)
SINGLES, LOCKED, ALLDIFF, FULL = range(4)
BRANCH_CELL, BRANCH_WDEG = range(2)
# regs
R_DEPTH, R_NODES, R_GUESSES, R_BACKTRACKS, R_PHASE, R_FOUND, R_STORED, R_NEED = range(8)
REGS_LEN = 8
# frames: one row per depth
F_INDEX, F_DIGIT, F_REST, F_SOLVED = range(4)
FRAME_LEN = 4
# scratch: queue length, cells placed, last failure, then the queue
S_QLEN, S_SOLVED, S_FAIL, S_QUEUE = range(4)
# what run() returns
EXHAUSTED, BUDGET, LIMIT, FULL_BUFFER = range(4)


def layout(n: int, r: int, c: int, level: int, branch: int, limit: int, keep: int,
           units: int = 0, sums: int = 0) -> Any:
    """The geo array of a shape, options and counts (units: 3N unless given), with the scratch
    offsets: each row of flags or weights has one per unit and cage sum, and one for failures
    nothing is blamed for."""
    import numpy as np

    cells = n * n
    units = units or 3 * n
    flags = units + sums + 1
    dirty = S_QUEUE + cells
    weight = dirty + flags
    hseg = weight + flags
    vseg = hseg + n * r
    ad = vseg + n * c
    hidden = ad + 9 * n
    size = hidden + flags
    return np.array([n, r, c, cells, level, branch, limit, keep, units, sums, n <= TABLE_SIDE,
                     dirty, weight, hseg, vseg, ad, hidden, size], dtype=np.int64)


def padded(rows: Sequence[Sequence[int]], pad: int = -1) -> Any:
    """Rows of ints as an int64 table padded with `pad` (one column at least)."""
    import numpy as np

    table = np.full((len(rows), max([1, *map(len, rows)])), pad, np.int64)
    for i, row in enumerate(rows):
        table[i, :len(row)] = row
    return table


@lru_cache(maxsize=64)
def tables(shape: Any, rules: Any) -> tuple[Any, ...]:
    """units, peers (padded with the empty cell), cunits (each cell's row, column and box or
    region), allowed, qcells, qtotal, combos and starts: what the kernel reads of a shape under
    its rules (sudokucp.layout)."""
    import numpy as np

    from sudokucp.layout import layout as groups_of

    lay = groups_of(shape, rules)
    full = [g for g in range(len(lay.groups)) if lay.is_full(g)]
    allowed = np.array(lay.allowed, np.uint64).view(np.int64)  # 64 digits: the sign bit too
    return (np.array([lay.groups[g] for g in full], np.int64), padded(lay.peers, shape.cells),
            np.array([groups[:3] for groups in lay.cell_groups], np.int64), allowed,
            padded([cells for cells, _ in lay.sums]),
            np.array([total for _, total in lay.sums], np.int64),
            *(sum_table(shape.side) if lay.sums else no_table()))


def no_table() -> tuple[Any, Any]:
    """Empty combos and starts: no cage sum to read them, or a side above TABLE_SIDE."""
    import numpy as np

    return np.zeros(0, np.int64), np.zeros(1, np.int64)


@cache
def sum_table(side: int) -> tuple[Any, Any]:
    """combos (every digit mask ordered by size and sum) and starts (see the glossary); empty
    combos above TABLE_SIDE."""
    import numpy as np

    stride = side * (side + 1) // 2 + 1
    if side > TABLE_SIDE:
        return no_table()
    masks = np.arange(1 << side, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(side)) & 1
    keys = bits.sum(axis=1) * stride + bits @ np.arange(1, side + 1)
    order = np.argsort(keys, kind="stable")
    starts = np.searchsorted(keys[order], np.arange((side + 1) * stride + 1))
    return masks[order], starts.astype(np.int64)


class Dfs(NamedTuple):
    """The dfs kernel's state: the tables of a shape under its rules, geo, and one search's
    buffers."""

    units: Any  # units x N cells of each unit
    peers: Any  # cells x peers
    cunits: Any  # cells x 3: the row, column and box (or region) of each cell
    allowed: Any  # each cell's digits before the givens
    qcells: Any  # the cage sums' cells
    qtotal: Any
    combos: Any
    starts: Any
    geo: Any
    cand: Any  # a row of candidate masks per depth, the empty cell last
    frames: Any  # a row of FRAME_LEN per depth
    regs: Any
    sols: Any  # uint8 solution buffer (capacity x cells)
    mate: Any  # the matching filter's hints, a row per unit: None at the levels without it
    scr: Any


class Answers(NamedTuple):
    """What a batch (run_many) writes, one row per grid."""

    solutions: Any  # uint8 (grids x kept x cells): the first solutions, zeros after the count
    counts: Any  # int64 (grids,): solutions counted, up to the limit
    complete: Any  # bool (grids,): search exhausted, so the count is exact
    stats: Any  # int64 (grids x 3 or 4): nodes, guesses, backtracks (and processor cycles)


def answers(grids: int, kept: int, cells: int, timed: bool = False) -> Answers:
    """Zeroed answers of a batch of `grids` grids, `kept` solutions each."""
    import numpy as np

    return Answers(np.zeros((grids, kept, cells), np.uint8), np.zeros(grids, np.int64),
                   np.zeros(grids, np.bool_), np.zeros((grids, 4 if timed else 3), np.int64))


def state(tables: tuple[Any, ...], geo: Any, capacity: int) -> Dfs:
    """A fresh dfs state of a shape's tables (see `tables`) and geo, with a solution buffer of
    `capacity` grids; mate None at the levels without the matching filter."""
    import numpy as np

    n, cells, level = int(geo[G_N]), int(geo[G_CELLS]), geo[G_LEVEL]
    mate = None if level < ALLDIFF else np.full((int(geo[G_UNITS]), n), -1, np.int64)
    width = max(cells, int(tables[1].max()) + 1)  # the padding's empty cell: a variant's alone
    return Dfs(*tables, geo, np.zeros((cells + 2, width), np.int64),
               np.zeros((cells + 2, FRAME_LEN), np.int64), np.zeros(REGS_LEN, np.int64),
               np.zeros((capacity, cells), np.uint8), mate, np.zeros(int(geo[G_SIZE]), np.int64))
