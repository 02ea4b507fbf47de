"""The layout of the `jit` depth-first kernel: field numbers of its arrays and the geo array of
a shape, the kernels' states as NamedTuples of arrays, and a batch's answers (no numba here, and
numpy imported when an array is made: the backend's Python side reads these names).

Glossary: n = side, cand = one row of candidate masks (bit d-1 for digit d), a cell is placed
once its mask has one bit (it is then queued exactly once and struck from its peers), u = unit
(rows, columns, boxes: the tables of sudokucp.puzzle.geometry), geo = shape and options in one
array (fields G_*), regs = the search's registers (R_*), scr = scratch (S_*, offsets in geo).
"""

from __future__ import annotations

from typing import Any, NamedTuple

# geo: shape, options, scratch offsets
G_N, G_R, G_C, G_CELLS, G_LEVEL, G_BRANCH, G_LIMIT, G_KEEP = range(8)
G_DIRTY, G_WEIGHT, G_HSEG, G_VSEG, G_AD, G_HIDDEN, G_SIZE = range(8, 15)
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


def layout(n: int, r: int, c: int, level: int, branch: int, limit: int, keep: int) -> Any:
    """The geo array of a shape and options, with the scratch offsets."""
    import numpy as np

    cells = n * n
    dirty = S_QUEUE + cells
    weight = dirty + 3 * n
    hseg = weight + 3 * n + 1  # the last weight is for failures no unit is blamed for
    vseg = hseg + n * r
    ad = vseg + n * c
    hidden = ad + 9 * n
    size = hidden + 3 * n
    return np.array([n, r, c, cells, level, branch, limit, keep, dirty, weight, hseg, vseg, ad,
                     hidden, size], dtype=np.int64)



class Dfs(NamedTuple):
    """The dfs kernel's state: the shape's tables, geo, and one search's buffers."""

    units: Any  # 3N x N cells of each unit
    peers: Any  # cells x peers
    cunits: Any  # cells x 3: the units of each cell
    geo: Any
    cand: Any  # a row of candidate masks per depth
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


def state(tables: tuple[Any, Any, Any], geo: Any, capacity: int) -> Dfs:
    """A fresh dfs state of a shape's tables (units, peers, cunits) and geo, with a solution
    buffer of `capacity` grids; mate None at the levels without the matching filter."""
    import numpy as np

    n, cells, level = int(geo[G_N]), int(geo[G_CELLS]), geo[G_LEVEL]
    mate = None if level < ALLDIFF else np.full((3 * n, n), -1, np.int64)
    return Dfs(*tables, geo, np.empty((cells + 2, cells), np.int64),
               np.zeros((cells + 2, FRAME_LEN), np.int64), np.zeros(REGS_LEN, np.int64),
               np.zeros((capacity, cells), np.uint8), mate, np.zeros(int(geo[G_SIZE]), np.int64))
