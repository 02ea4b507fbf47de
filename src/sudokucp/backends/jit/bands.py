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
bands9.py's: the same rules with the geometry in constants, on a band-major state row. The entry
points take no tables there (t is NINE_TABLES), and each version compiles one set of steps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit import bands9 as nine
from sudokucp.backends.jit.band_layout import (
    B_BANDS,
    B_BITS,
    B_C,
    B_KEEP,
    B_LIMIT,
    B_N,
    B_R,
    B_WIDTH,
    NINE,
    NINE_TABLES,
    T_BAND,
    T_BAND_OF,
    T_BIT,
    T_BOX,
    T_CELL,
    T_COL,
    T_COLUMN,
    T_DIGIT_OF,
    T_FILTER,
    T_MINI,
    T_ROW,
    T_SHRINK,
    buffers,
    layout,
    tables,
)
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


# --- placing and propagating ---------------------------------------------------------------------

@njit(cache=True, error_model="numpy", inline="always")
def place(st, d, b, p, t, geo):
    """Set digit d at bit p of band b: strike the cell from the band's other digits, the row and
    box from the digit's band, the column from its other bands; returns the (digit, band) masks
    it changed as bits d * bands + band (the digit's, then the band's of the other digits)."""
    n, nb = geo[B_N], geo[B_BANDS]
    cell = 1 << p
    k = d * nb + b
    st[k] &= ~(t[t[T_ROW] + p] | t[t[T_BOX] + p]) | cell
    st[n * nb + b] &= ~cell
    column = t[t[T_COL] + t[t[T_COLUMN] + p]]
    changed = 1 << k
    for b2 in range(nb):
        if b2 != b and st[d * nb + b2] & column:
            st[d * nb + b2] &= ~column
            changed |= 1 << (d * nb + b2)
    row, mini = t[t[T_ROW] + p], t[t[T_MINI] + p]
    for d2 in range(n):  # marked only when the band filter or a row's single may follow
        m = st[d2 * nb + b]
        if d2 != d and m & cell:
            m &= ~cell
            st[d2 * nb + b] = m
            line = m & row
            if not m & mini or not line & (line - 1):
                changed |= 1 << (d2 * nb + b)
    return changed


@njit(cache=True, error_model="numpy", inline="always")
def columns(s, n, r):
    """The columns (N bits) where a band mask has a cell."""
    row_mask = (1 << n) - 1
    found = 0
    for i in range(r):
        found |= (s >> (i * n)) & row_mask
    return found


@njit(cache=True, error_model="numpy", inline="always")
def point(st, d, b, s, t, geo):
    """A box of the band whose places of digit d lie in one column: strike that column from the
    digit's other bands (pointing, box to column); the masks changed, as place() returns them."""
    n, r, c, nb = geo[B_N], geo[B_R], geo[B_C], geo[B_BANDS]
    found = columns(s, n, r)
    changed = 0
    for j in range(r):
        seg = (found >> (j * c)) & ((1 << c) - 1)
        if seg and not seg & (seg - 1):
            column = t[t[T_COL] + j * c + low_index(seg)]
            for b2 in range(nb):
                if b2 != b and st[d * nb + b2] & column:
                    st[d * nb + b2] &= ~column
                    changed |= 1 << (d * nb + b2)
    return changed


@njit(cache=True, error_model="numpy", inline="always")
def claim(st, d, done, t, geo):
    """A column (not `done`) whose places of digit d lie in one band, so in one box: strike the
    digit from the box's other columns (claiming, column to box); the masks changed."""
    n, r, nb = geo[B_N], geo[B_R], geo[B_BANDS]
    once = 0
    twice = 0
    for b in range(nb):
        found = columns(st[d * nb + b], n, r)
        twice |= once & found
        once |= found
    changed = 0
    lone = once & ~twice & ~done
    for b in range(nb):
        k = d * nb + b
        mine = columns(st[k], n, r) & lone
        while mine:
            j = low_index(mine)
            mine &= mine - 1
            box = t[t[T_BOX] + j]  # bit j is in row 0 of the band, in the column's box
            strike = box & ~t[t[T_COL] + j]
            if st[k] & strike:
                st[k] &= ~strike
                changed |= 1 << k
    return changed


@njit(cache=True, error_model="numpy", _nrt=False)
def put(st, d, b, p, t, geo):
    """place() as a call of its own, for the placings outside propagate (givens, guesses):
    numba inlines place() only where it is hot, which keeps the compile shorter."""
    return place(st, d, b, p, t, geo)


@njit(cache=True, error_model="numpy", _nrt=False)
def propagate(st, dirty, t, geo, regs):
    """Propagate the (digit, band) masks marked in `dirty` to a fixpoint; False on a
    contradiction. Values placed are counted in regs[R_NODES]."""
    n, r, nb = geo[B_N], geo[B_R], geo[B_BANDS]
    row_mask = (1 << n) - 1
    shrink, filt = t[T_SHRINK], t[T_FILTER]
    while True:
        digits = 0  # digits whose masks changed: their columns are looked at below
        while dirty:
            k = low_index(dirty)
            dirty &= dirty - 1
            d = t[t[T_DIGIT_OF] + k]
            b = t[t[T_BAND_OF] + k]
            digits |= 1 << d
            s = st[k]
            if not s & st[n * nb + b]:  # only placed cells left, one per row they are in
                if popcount(s) < r:
                    return False  # a row of the band without the digit
                continue
            occupied = 0
            for i in range(r):
                occupied |= t[shrink + ((s >> (i * n)) & row_mask)] << (i * r)
            s &= t[filt + occupied]
            if s == 0:
                return False
            st[k] = s
            dirty |= point(st, d, b, s, t, geo)
            for i in range(r):  # read again after each placing: it strikes its row and box
                line = (st[k] >> (i * n)) & row_mask
                if line and not line & (line - 1):
                    p = i * n + low_index(line)
                    if st[n * nb + b] >> p & 1:
                        dirty |= place(st, d, b, p, t, geo)
                        regs[R_NODES] += 1
        placed = 0
        while digits:  # a column of a digit with one place left
            d = low_index(digits)
            digits &= digits - 1
            once = 0
            twice = 0
            done = 0  # the columns where the digit is placed already
            for b in range(nb):
                s = st[d * nb + b]
                done |= columns(s & ~st[n * nb + b], n, r)
                for i in range(r):
                    line = (s >> (i * n)) & row_mask
                    twice |= once & line
                    once |= line
            if once != row_mask:
                return False
            if done == row_mask:
                continue
            dirty |= claim(st, d, done, t, geo)
            lone = once & ~twice & ~done
            while lone:
                j = low_index(lone)
                lone &= lone - 1
                for b in range(nb):
                    s = st[d * nb + b]
                    for i in range(r):
                        p = i * n + j
                        if s >> p & 1 and st[n * nb + b] >> p & 1:
                            dirty |= place(st, d, b, p, t, geo)
                            regs[R_NODES] += 1
                            placed += 1
        for b in range(nb):  # cells with one digit left, or none
            open_cells = st[n * nb + b]
            if not open_cells:
                continue
            once = 0
            twice = 0
            for d in range(n):
                m = st[d * nb + b] & open_cells
                twice |= once & m
                once |= m
            if open_cells & ~once:
                return False
            lone = once & ~twice
            while lone:
                p = low_index(lone)
                lone &= lone - 1
                if not st[n * nb + b] >> p & 1:
                    continue
                for d in range(n):
                    if st[d * nb + b] >> p & 1:
                        dirty |= place(st, d, b, p, t, geo)
                        regs[R_NODES] += 1
                        placed += 1
                        break
        if not dirty and not placed:
            return True


# --- branching -----------------------------------------------------------------------------------

@njit(cache=True, error_model="numpy", _nrt=False)
def branch(st, geo, frame):
    """Fill `frame` with a cell of the fewest candidates (band in F_INDEX, bit in F_DIGIT) and
    its digits as a mask in F_REST; two candidates end the look at once."""
    n, nb = geo[B_N], geo[B_BANDS]
    best = 99
    for b in range(nb):
        open_cells = st[n * nb + b]
        while open_cells:
            p = low_index(open_cells)
            open_cells &= open_cells - 1
            digits = 0
            for d in range(n):
                if st[d * nb + b] >> p & 1:
                    digits |= 1 << d
            k = popcount(digits)
            if k < best:
                best = k
                frame[F_INDEX], frame[F_DIGIT], frame[F_REST] = b, p, digits
                if k == 2:
                    return


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
