"""The layout of the `jit` depth-first kernel: field numbers of its arrays, the bit intrinsics,
the geo array of a shape (imported only when a kernel runs).

Glossary: n = side, cand = one row of candidate masks (bit d-1 for digit d), a cell is placed
once its mask has one bit (it is then queued exactly once and struck from its peers), u = unit
(rows, columns, boxes: the tables of sudokucp.puzzle.geometry), geo = shape and options in one
array (fields G_*), regs = the search's registers (R_*), scr = scratch (S_*, offsets in geo).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

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


@intrinsic
def popcount(typingctx, x):
    """Number of bits set (LLVM ctpop)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def cycles(typingctx):
    """The processor's cycle counter (LLVM readcyclecounter: rdtsc on x86, 0 where there is
    none), for the time of each grid of a batch without a clock call."""
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@intrinsic
def low_index(typingctx, x):
    """Index of the lowest bit set (LLVM cttz)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


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

