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
one, its digits in turn. The search is driver.py's resumable loop over these steps, its state
band_layout.Bands. For shapes whose bands fit in 63 bits (kernels.band_fits); at 9x9 bands9.py's
steps and entry points serve instead (the same rules with the geometry in constants), here
band_steps.py's placing, propagating and branching.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit.band_layout import (
    B_BANDS,
    B_BITS,
    B_KEEP,
    B_LIMIT,
    B_N,
    B_WIDTH,
    T_BAND,
    T_BIT,
    T_CELL,
    layout,
    state,
    tables,
)
from sudokucp.backends.jit.band_steps import branch, propagate, put
from sudokucp.backends.jit.bits import low_index, popcount
from sudokucp.backends.jit.driver import batch, copy_down, resume
from sudokucp.backends.jit.layout import F_DIGIT, F_INDEX, R_NODES

__all__ = ["layout", "run", "run_many", "state", "tables"]


@njit(cache=True, error_model="numpy", _nrt=False)
def solved_count(st, geo):
    """Cells placed in a state."""
    n, nb = geo[B_N], geo[B_BANDS]
    total = 0
    for b in range(nb):
        total += popcount(st[n * nb + b])
    return nb * geo[B_BITS] - total


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


# --- the steps (driver.py's) ---------------------------------------------------------------------

@njit(cache=True, error_model="numpy", inline="always")
def begin(grid, s):
    """The givens loaded into depth 0 and propagated; the cells placed, -1 on a clash."""
    st = s.stack[0]
    dirty = load(grid, st, s.t, s.geo, s.regs)
    if dirty < 0 or not propagate(st, dirty, s.t, s.geo, s.regs):
        return -1
    return solved_count(st, s.geo)


@njit(cache=True, error_model="numpy", inline="always")
def choose(s, d):
    """A cell of the fewest candidates (band_steps.branch)."""
    branch(s.stack[d], s.geo, s.frames[d])


@njit(cache=True, error_model="numpy", inline="always")
def descend(s, d, alt):
    """Depth d copied to d + 1, the digit `alt` placed in frames[d]'s cell and propagated; the
    cells placed, -1 when refuted."""
    t, geo = s.t, s.geo
    st = copy_down(s.stack, d, geo[B_WIDTH])
    s.regs[R_NODES] += 1
    changed = put(st, low_index(alt), s.frames[d, F_INDEX], s.frames[d, F_DIGIT], t, geo)
    return solved_count(st, geo) if propagate(st, changed, t, geo, s.regs) else -1


@njit(cache=True, error_model="numpy", inline="always")
def write(s, d, row):
    """The digits of the solved state at depth d written to a row of cells."""
    st, t, geo = s.stack[d], s.t, s.geo
    n, nb = geo[B_N], geo[B_BANDS]
    for digit in range(n):
        for b in range(nb):
            m = st[digit * nb + b]
            while m:
                p = low_index(m)
                m &= m - 1
                row[t[t[T_CELL] + b * geo[B_BITS] + p]] = digit + 1


# --- the entry points ----------------------------------------------------------------------------

@njit(cache=True, error_model="numpy", _nrt=False)
def run(grid, s, budget):
    """Search on from the registers for at most `budget` guesses (driver.resume)."""
    geo = s.geo
    return resume(begin, choose, descend, write, grid, s, geo[B_N] * geo[B_N], geo[B_LIMIT],
                  geo[B_KEEP], budget)


@njit(cache=True, error_model="numpy", _nrt=False)
def run_many(grids, s, out):
    """Solve every row of `grids` to the end on one state, into `out` (driver.batch)."""
    batch(run, grids, s, out, s.geo[B_N] * s.geo[B_N])
