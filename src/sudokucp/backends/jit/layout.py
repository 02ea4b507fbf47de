"""The layout of the `jit` depth-first kernel: field numbers of its arrays and the geo array of
a shape (no numba here: the bit intrinsics are in bits.py).

Glossary: n = side, cand = one row of candidate masks (bit d-1 for digit d), a cell is placed
once its mask has one bit (it is then queued exactly once and struck from its peers), u = unit
(rows, columns, boxes: the tables of sudokucp.puzzle.geometry), geo = shape and options in one
array (fields G_*), regs = the search's registers (R_*), scr = scratch (S_*, offsets in geo).
"""

from __future__ import annotations

import numpy as np

# geo: shape, options, scratch offsets
G_N, G_R, G_C, G_CELLS, G_LEVEL, G_BRANCH, G_LIMIT, G_KEEP = range(8)
G_DIRTY, G_WEIGHT, G_HSEG, G_VSEG, G_AD, G_VIEWS, G_HIDDEN, G_SIZE = range(8, 16)
# levels and branchings (the option values, in order)
SINGLES, LOCKED, ALLDIFF, FULL, DUAL = range(5)
BRANCH_CELL, BRANCH_SMALLEST, BRANCH_WDEG = range(3)
# regs
R_DEPTH, R_NODES, R_GUESSES, R_BACKTRACKS, R_PHASE, R_FOUND, R_STORED, R_NEED = range(8)
REGS_LEN = 8
# frames: one row per depth
F_KIND, F_INDEX, F_DIGIT, F_REST, F_SOLVED = range(5)
FRAME_LEN = 5
# scratch: queue length, cells placed, last failure, then the queue
S_QLEN, S_SOLVED, S_FAIL, S_QUEUE = range(4)
# mate, the matching filter's hints (the last value of each variable), by its dimensions: one
# row per unit (alldiff, full) or, with the views, a second layer of one row per view and digit
UNIT_HINTS, VIEW_HINTS = 2, 3
# what run() returns
EXHAUSTED, BUDGET, LIMIT, FULL_BUFFER = range(4)


def layout(n: int, r: int, c: int, level: int, branch: int, limit: int, keep: int) -> np.ndarray:
    """The geo array of a shape and options, with the scratch offsets."""
    cells = n * n
    dirty = S_QUEUE + cells
    weight = dirty + 3 * n
    hseg = weight + 3 * n + 1  # the last weight is for failures no unit is blamed for
    vseg = hseg + n * r
    ad = vseg + n * c
    views = ad + 9 * n
    hidden = views + 3 * n * n
    size = hidden + 3 * n
    return np.array([n, r, c, cells, level, branch, limit, keep, dirty, weight, hseg, vseg, ad,
                     views, hidden, size], dtype=np.int64)

