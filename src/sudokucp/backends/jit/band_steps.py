"""The band-wise search's general steps (bands.py's, for every shape but 9x9, where bands9.py's
serve): placing a digit, propagating the (digit, band) masks marked changed to a fixpoint (the
band filter, pointing, claiming, hidden and naked singles) and choosing the cell to branch on."""

from __future__ import annotations

from numba import njit

from sudokucp.backends.jit.band_layout import (
    B_BANDS,
    B_C,
    B_N,
    B_R,
    T_BAND_OF,
    T_BOX,
    T_COL,
    T_COLUMN,
    T_DIGIT_OF,
    T_FILTER,
    T_MINI,
    T_ROW,
    T_SHRINK,
)
from sudokucp.backends.jit.bits import first_holding, lone_cells, low_index, popcount, strike_masks
from sudokucp.backends.jit.layout import F_DIGIT, F_INDEX, F_REST, R_NODES

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
    changed = 1 << k | strike_masks(st, d * nb, 1, nb, b, column)
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
            changed |= strike_masks(st, d * nb, 1, nb, b, column)
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
            lone = lone_cells(st, b, nb, n, open_cells, open_cells)
            if lone < 0:
                return False
            while lone:
                p = low_index(lone)
                lone &= lone - 1
                if st[n * nb + b] >> p & 1:  # one digit left: placed
                    dirty |= place(st, first_holding(st, b, nb, n, p), b, p, t, geo)
                    regs[R_NODES] += 1
                    placed += 1
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
