"""The GPU kernel (numba's CUDA target): one thread searches one grid, sizes fixed per shape.

Glossary: N = side, C = cells, m = the candidate masks of the current node (bit d-1 = digit d),
a frame = the masks before a guess, the guessed cell and the digits left to try there.

Each thread copies its grid into local memory, places naked and hidden singles to a fixpoint by
sweeping every unit (a digit fixed twice, a cell left empty or a digit left without a place is a
contradiction), branches on the open cell with the fewest candidates and keeps its frames on an
explicit stack in local memory. It stops at `limit` solutions (0: all), when the stack is
exhausted, after `budget` guesses, or when the stack is full; the host hands the last two on.
Imported only where numba's CUDA target (a device or its simulator) is wanted.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import cuda, int32, uint16, uint32

from sudokucp.puzzle import Shape, geometry

EXHAUSTED, LIMIT, BUDGET, DEPTH = 0, 1, 2, 3  # a thread's status: how its search ended
STATUSES = ("exhausted", "limit", "budget", "depth")


def frames(shape: Shape) -> int:
    """Default stack depth: guesses nested at once before a grid is handed on."""
    return 2 * shape.side + 8


@cache
def build(shape: Shape, depth: int) -> Any:
    """The kernel for one shape and stack depth, compiled on its first launch.

    kernel[blocks, threads](grids, limit, budget, solutions, counts, status, guesses):
    grids (M x C) uint8 in; solutions (M x S x C) uint8, counts, status (M) int32 and
    guesses (M) int32 out; the first S solutions of grid i land in solutions[i]."""
    g = geometry(shape)
    n, cells, full = shape.side, shape.cells, (1 << shape.side) - 1
    units_table = np.array(g.units, np.int32)
    nunits = units_table.shape[0]
    kind = uint16 if n <= 16 else uint32

    @cuda.jit(device=True)
    def settle(m):
        """Singles to a fixpoint; the open cells left (0: solved), or -1 on a contradiction."""
        units = cuda.const.array_like(units_table)
        changed = True
        left = 0
        while changed:
            changed = False
            left = 0
            for u in range(nunits):
                seen = np.int32(0)
                twice = np.int32(0)
                fixed = np.int32(0)
                for k in range(n):
                    x = np.int32(m[units[u, k]])
                    if x == 0:
                        return -1
                    twice |= seen & x
                    seen |= x
                    if x & (x - 1) == 0:
                        if fixed & x:
                            return -1
                        fixed |= x
                if seen != full:
                    return -1
                once = seen & ~twice
                for k in range(n):
                    c = units[u, k]
                    x = np.int32(m[c])
                    if x & (x - 1) != 0:
                        y = x & ~fixed
                        h = y & once
                        if h != 0:
                            if h & (h - 1) != 0:
                                return -1
                            y = h
                        if y == 0:
                            return -1
                        if y != x:
                            m[c] = y
                            changed = True
                        if y & (y - 1) != 0:
                            left += 1
        return left // 3  # every open cell was counted once per unit it lies in

    @cuda.jit(device=True)
    def choose(m):
        """The open cell with the fewest candidates (-1 when none is open)."""
        best, where = n + 1, -1
        for c in range(cells):
            k = cuda.popc(np.int32(m[c]))
            if 1 < k < best:
                best, where = k, c
                if k == 2:
                    break
        return where

    @cuda.jit(device=True)
    def record(m, out, slot):
        """Write the solved masks as digits into out[slot]."""
        for c in range(cells):
            x = np.int32(m[c])
            d = 1
            while x > 1:
                x >>= 1
                d += 1
            out[slot, c] = d

    @cuda.jit
    def kernel(grids, limit, budget, solutions, counts, status, guesses):
        i = cuda.grid(1)
        if i >= grids.shape[0]:
            return
        m = cuda.local.array(cells, kind)
        stack = cuda.local.array((depth, cells), kind)
        where = cuda.local.array(depth, int32)
        rest = cuda.local.array(depth, int32)
        for c in range(cells):
            v = np.int32(grids[i, c])
            m[c] = full if v == 0 else np.int32(1) << (v - 1)
        top, found, tried, ended = 0, 0, 0, EXHAUSTED
        keep = solutions.shape[1]
        while True:
            left = settle(m)
            if left == 0:
                if found < keep:
                    record(m, solutions[i], found)
                found += 1
                if limit > 0 and found >= limit:
                    ended = LIMIT
                    break
            elif left > 0:
                if top == depth:
                    ended = DEPTH
                    break
                c = choose(m)
                for k in range(cells):
                    stack[top, k] = m[k]
                where[top] = c
                rest[top] = np.int32(m[c])
                top += 1
            # take the next digit of the deepest frame that has one left
            while top > 0 and rest[top - 1] == 0:
                top -= 1
            if top == 0:
                break
            if tried >= budget:  # the host passes a large budget for none
                ended = BUDGET
                break
            r = rest[top - 1]
            d = r & ~(r - 1)
            rest[top - 1] = r & ~d
            for k in range(cells):
                m[k] = stack[top - 1, k]
            m[where[top - 1]] = d
            if rest[top - 1] == 0:  # its last digit: the frame is no longer needed
                top -= 1
            tried += 1
        counts[i] = found
        status[i] = ended
        guesses[i] = tried

    return kernel
