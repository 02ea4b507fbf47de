"""The band-wise search of the `jit` backend (numba); imported only when it runs.

A grid of r x c boxes is cut into bands of r rows (c bands); each digit's candidate places in a
band are one bit mask of r*N cells (27 bits at 9x9), so that one word holds a digit's rows, boxes
and columns of a whole band. A node's state is one row: a mask per (digit, band), then the
unsolved cells of each band. Propagation, to a fixpoint, over the (digit, band) masks marked
changed:
- the band filter: the digit is once in each of the band's r rows and r boxes, so the (row, box)
  pairs of its r places form a permutation; a table gives, for the pattern of the r*r mini-rows
  (a row's cells in one box) that still hold candidates, the cells of the mini-rows that some
  permutation uses (none: a contradiction). It strikes what pointing and claiming strike and more;
- a row left with one place places the digit there (a hidden single; a box's single follows
  from the filter and its row's);
- a column held by one band in one row places the digit there; a column with no candidate is a
  contradiction;
- a cell left with one digit takes it (naked singles, counted over the digits of a band at once);
  a cell left with none is a contradiction.
Placing strikes the cell from the band's other digits, the row and box from the digit's band and
the column from its other bands. Branching: a cell with the fewest candidates, two when there is
one, its digits in turn. The search is resumable as dfs.run's is: same registers, frames and
statuses, `budget` guesses per call. For shapes whose bands fit in 63 bits (kernels.band_fits).
At 9x9 the steps that read the state (loading, placing, propagating, branching, writing) are
bands9.py's: the same rules with the geometry in constants, on a band-major state row; at
other shapes band_steps.py's (placing, propagating, branching). The entry
points take no tables there (t is NINE_TABLES), and each version compiles one set of steps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit import bands9 as nine
from sudokucp.backends.jit.band_layout import (
    B_BANDS,
    B_BITS,
    B_KEEP,
    B_LIMIT,
    B_N,
    B_WIDTH,
    NINE,
    NINE_TABLES,
    T_BAND,
    T_BIT,
    T_CELL,
    buffers,
    layout,
    tables,
)
from sudokucp.backends.jit.band_steps import branch, propagate, put
from sudokucp.backends.jit.bits import cycles, low_index, popcount
from sudokucp.backends.jit.layout import (
    BUDGET,
    EXHAUSTED,
    F_DIGIT,
    F_INDEX,
    F_REST,
    F_SOLVED,
    FULL_BUFFER,
    LIMIT,
    R_BACKTRACKS,
    R_DEPTH,
    R_FOUND,
    R_GUESSES,
    R_NEED,
    R_NODES,
    R_PHASE,
    R_STORED,
    REGS_LEN,
)

__all__ = ["BUDGET", "EXHAUSTED", "LIMIT", "NINE_TABLES", "buffers", "layout", "run", "run_many",
           "tables"]


# --- the search ----------------------------------------------------------------------------------

@njit(cache=True, error_model="numpy", _nrt=False)
def solved_count(st, geo):
    """Cells placed in a state."""
    n, nb, bits = geo[B_N], geo[B_BANDS], geo[B_BITS]
    return nb * bits - sum_open(st, n, nb)


@njit(cache=True, error_model="numpy", inline="always")
def sum_open(st, n, nb):
    total = 0
    for b in range(nb):
        total += popcount(st[n * nb + b])
    return total


@njit(cache=True, error_model="numpy", _nrt=False)
def store(st, t, sols, regs, geo):
    """Count a solution and write it to the buffer if it has room."""
    regs[R_FOUND] += 1
    if regs[R_STORED] < sols.shape[0]:
        if t.ndim == NINE:
            nine.write(st, sols[regs[R_STORED]])
        else:
            write(st, t, sols[regs[R_STORED]], geo)
        regs[R_STORED] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def write(st, t, row, geo):
    """The digits of a solved state written to a row of cells."""
    n, nb = geo[B_N], geo[B_BANDS]
    for d in range(n):
        for b in range(nb):
            s = st[d * nb + b]
            while s:
                p = low_index(s)
                s &= s - 1
                row[t[t[T_CELL] + b * geo[B_BITS] + p]] = d + 1


@njit(cache=True, error_model="numpy", _nrt=False)
def load(grid, st, t, geo, regs):
    """The givens placed on a fresh state, each counted in regs[R_NODES]; the masks changed, -1
    when two givens clash."""
    n, nb, bits = geo[B_N], geo[B_BANDS], geo[B_BITS]
    full = (1 << bits) - 1
    for k in range(n * nb + nb):
        st[k] = full
    dirty = np.int64(0)  # typed: a literal would compile propagate once more
    for x in range(n * n):
        v = grid[x]
        if v:
            b, p = t[t[T_BAND] + x], t[t[T_BIT] + x]
            d = v - 1
            if not st[d * nb + b] >> p & 1:
                return -1
            if st[n * nb + b] >> p & 1:
                dirty |= put(st, d, b, p, t, geo)
                regs[R_NODES] += 1
    return dirty


@njit(cache=True, error_model="numpy", _nrt=False)
def start(grid, t, geo, stack, frames, regs):
    """Load the givens into level 0 and propagate; False when they clash or propagation fails."""
    st = stack[0]
    for i in range(REGS_LEN):
        regs[i] = 0
    regs[R_PHASE] = 1
    dirty = nine.load(grid, st, regs) if t.ndim == NINE else load(grid, st, t, geo, regs)
    if dirty < 0:
        return False
    ok = nine.propagate(st, dirty, regs) if t.ndim == NINE else propagate(st, dirty, t, geo, regs)
    if not ok:
        return False
    frames[0, F_SOLVED] = solved_count(st, geo)
    regs[R_DEPTH] = 0
    regs[R_NEED] = 1
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def run(grid, t, geo, stack, frames, regs, sols, budget):
    """Search on from the registers for at most `budget` guesses (< 0: no bound); returns
    EXHAUSTED, BUDGET, LIMIT or FULL_BUFFER, as dfs.run does. `t`: the shape's tables, or
    NINE_TABLES at 9x9 (bands9.py's steps, each compiled version holding one set)."""
    cells, limit, width = geo[B_N] * geo[B_N], geo[B_LIMIT], geo[B_WIDTH]
    if regs[R_PHASE] == 0 and not start(grid, t, geo, stack, frames, regs):
        regs[R_PHASE] = 2
    if regs[R_PHASE] == 2:
        return EXHAUSTED
    d = regs[R_DEPTH]
    spent = 0
    while True:
        if regs[R_NEED]:
            regs[R_NEED] = 0
            if frames[d, F_SOLVED] == cells:
                frames[d, F_REST] = 0
                store(stack[d], t, sols, regs, geo)
                if limit and regs[R_FOUND] >= limit:
                    regs[R_DEPTH] = d
                    return LIMIT
                if geo[B_KEEP] and regs[R_STORED] == sols.shape[0]:
                    regs[R_DEPTH] = d
                    return FULL_BUFFER
            elif t.ndim == NINE:
                nine.branch(stack[d], frames[d])
            else:
                branch(stack[d], geo, frames[d])
        rest = frames[d, F_REST]
        if rest == 0:
            d -= 1
            if d < 0:
                regs[R_PHASE] = 2
                regs[R_DEPTH] = 0
                return EXHAUSTED
            continue
        if 0 <= budget <= spent:
            regs[R_DEPTH] = d
            return BUDGET
        spent += 1
        digit = low_index(rest)
        frames[d, F_REST] = rest & (rest - 1)
        regs[R_GUESSES] += 1
        st = stack[d + 1]
        for k in range(width):
            st[k] = stack[d, k]
        b, p = frames[d, F_INDEX], frames[d, F_DIGIT]
        regs[R_NODES] += 1
        if t.ndim == NINE:
            ok = nine.propagate(st, nine.put(st, digit, b, p), regs)
        else:
            ok = propagate(st, put(st, digit, b, p, t, geo), t, geo, regs)
        if ok:
            d += 1
            frames[d, F_SOLVED] = solved_count(st, geo)
            regs[R_NEED] = 1
        else:
            regs[R_BACKTRACKS] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def run_many(grids, t, geo, stack, frames, regs, sols, out_sols, out_counts, out_complete,
             out_stats):
    """dfs.run_many's batch on the band-wise search: every row of `grids` to the end."""
    cells, kept = geo[B_N] * geo[B_N], out_sols.shape[1]
    timed = out_stats.shape[1] > 3
    for i in range(grids.shape[0]):
        t0 = cycles() if timed else 0
        regs[R_PHASE] = 0
        status = run(grids[i], t, geo, stack, frames, regs, sols, np.int64(-1))
        out_counts[i] = regs[R_FOUND]
        out_complete[i] = status == EXHAUSTED
        stored = regs[R_STORED]
        for j in range(kept):
            for c in range(cells):
                out_sols[i, j, c] = sols[j, c] if j < stored else 0
        out_stats[i, 0] = regs[R_NODES]
        out_stats[i, 1] = regs[R_GUESSES]
        out_stats[i, 2] = regs[R_BACKTRACKS]
        if timed:
            out_stats[i, 3] = cycles() - t0
