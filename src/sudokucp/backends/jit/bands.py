"""The band-wise search of the `jit` backend at 9x9 (numba); imported only when it runs.

The grid is cut into its three bands of three rows; each digit's candidate places in a band are
one 27-bit mask (bit 9 * row-in-band + column, so that cell x is bit x % 27 of band x // 27), at
k = 9 * band + digit, then the unsolved cells of each band: a band's nine masks lie side by
side, so that a placing strikes its cell from all of them in one straight loop. Propagation, to
a fixpoint, over the masks marked changed:
- the band filter: the digit is once in each of the band's rows and boxes, so the (row, box)
  pairs of its three places form a permutation; a table gives, for the pattern of the nine
  mini-rows (a row's cells in one box) that still hold candidates, the cells of the mini-rows
  that some permutation uses (none: a contradiction): pointing and claiming within the band;
- box-to-column pointing and column-to-box claiming across the bands;
- row singles, column singles, and naked singles over a band's digits at once.
Branching: the cell of two candidates whose digits, placed, would strike the most places, else
the first of the fewest. The search is driver.py's resumable loop over these steps, its state
band_layout.Bands. Every loop has a fixed length and no table of a shape is read: the kernel
serves 9x9 alone (a general version for the shapes whose bands fit in 63 bits was no faster
than dfs at 4x4 to 12x12, where search=bands now runs dfs).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit.band_layout import B_KEEP, B_LIMIT, WIDTH, layout, state, tables
from sudokucp.backends.jit.bits import first_holding, lone_cells, low_index, popcount, strike_masks
from sudokucp.backends.jit.driver import batch, copy_down, resume
from sudokucp.backends.jit.layout import F_DIGIT, F_INDEX, F_REST, R_NODES

__all__ = ["layout", "run", "run_many", "state"]

ROW = 0x1FF  # a row's nine bits
BAND = (1 << 27) - 1
OPEN = 27  # the unsolved cells of band b at OPEN + b
SHRINK, FILTER, ROWS, BOXES, COLUMN = tables()
KEEP = BAND & ~(ROWS | BOXES) | 1 << np.arange(27)  # a bit -> the band without its row and box
CLAIM = BOXES[:9] & ~COLUMN[:9]  # a column -> the other cells of its box in a band
ALONE = np.array([line if bin(line).count("1") == 1 else 0 for line in range(512)],
                 np.int64)  # a row's 9 bits -> its place when it has one
LONE = np.array([sum(((pattern >> (3 * j)) & 7) << (3 * j) for j in range(3)
                     if bin((pattern >> (3 * j)) & 7).count("1") == 1)
                 for pattern in range(512)], np.int64)  # 9 columns -> those alone in their box


@njit(cache=True, error_model="numpy", inline="always")
def place(st, d, b, p):
    """Digit d at bit p of band b: struck from the cell's other digits and from the row, box and
    column of the digit; the masks changed, bit k each."""
    cell = 1 << p
    base = 9 * b
    changed = 0
    for d2 in range(9):
        old = st[base + d2]
        st[base + d2] = old & ~cell
        changed |= np.int64(old & cell != 0) << (base + d2)
    k = base + d
    mine = st[k]
    st[k] = (mine | cell) & KEEP[p]
    left = st[OPEN + b] & ~cell
    st[OPEN + b] = left
    if not mine & left:  # the cell was the digit's last place in the band: no cell loses it
        changed &= ~(1 << k)
    return changed | strike_masks(st, d, 9, 3, b, COLUMN[p])


@njit(cache=True, error_model="numpy", _nrt=False)
def put(st, d, b, p):
    """place() as a call of its own, for the givens and the guesses."""
    return place(st, d, b, p)


@njit(cache=True, error_model="numpy", inline="always")
def point(st, k, s):
    """A box of the band where mask k's places lie in one column: that column struck from the
    digit's other bands; the masks changed."""
    lone = LONE[(s | s >> 9 | s >> 18) & ROW]
    if not lone:
        return 0
    return strike_masks(st, k % 9, 9, 3, k // 9, lone | lone << 9 | lone << 18)


@njit(cache=True, error_model="numpy", inline="always")
def claim(st, d, lone):
    """Each column of `lone` (its places of digit d in one band, so in one box): the digit struck
    from the box's other columns; the masks changed."""
    changed = 0
    for b in range(3):
        k = 9 * b + d
        s = st[k]
        mine = (s | s >> 9 | s >> 18) & lone
        strike = 0
        while mine:
            strike |= CLAIM[low_index(mine)]
            mine &= mine - 1
        if s & strike:
            st[k] = s & ~strike
            changed |= 1 << k
    return changed


@njit(cache=True, error_model="numpy", inline="always")
def column_singles(st, d):
    """Digit d's columns: -1 when one has no place left, else the masks that claiming changed
    and, from bit 32, bit 9 * band + column for each column with one unsolved place left."""
    once = 0
    twice = 0
    done = 0
    bands_once = 0
    bands_twice = 0
    where = 0
    for b in range(3):
        s = st[9 * b + d]
        placed = s & ~st[OPEN + b]
        done |= (placed | placed >> 9 | placed >> 18) & ROW
        found = (s | s >> 9 | s >> 18) & ROW
        where |= found << (9 * b)
        bands_twice |= bands_once & found
        bands_once |= found
        for i in range(3):
            line = (s >> (9 * i)) & ROW
            twice |= once & line
            once |= line
    if once != ROW:
        return -1
    changed = claim(st, d, bands_once & ~bands_twice & ~done)
    lone = once & ~twice & ~done
    return changed | (where & (lone | lone << 9 | lone << 18)) << 32


@njit(cache=True, error_model="numpy", _nrt=False)
def propagate(st, dirty, regs):
    """The masks marked in `dirty` to a fixpoint; False on a
    contradiction. The band filter, the row singles, the naked and the column singles are
    written out here rather than called: numba counts references to `st` and `regs` on entering
    and leaving each inlined step that holds a loop, an atomic add and subtract each time."""
    digits = 0
    while True:
        while dirty:  # the band filter on each mask marked, then the rows with one place
            k = low_index(dirty)
            dirty &= dirty - 1
            b = k // 9
            s = st[k]
            if not s & st[OPEN + b]:  # only placed cells left, one per row they are in
                if popcount(s) < 3:
                    return False  # a row of the band without the digit
                continue
            occupied = SHRINK[s & ROW] | SHRINK[(s >> 9) & ROW] << 3 | SHRINK[(s >> 18) & ROW] << 6
            s &= FILTER[occupied & ROW]  # the mask: no index wraparound
            if s == 0:
                return False
            st[k] = s
            dirty |= point(st, k, s)
            digits |= 1 << (k % 9)
            lone = (ALONE[s & ROW] | ALONE[(s >> 9) & ROW] << 9 | ALONE[(s >> 18) & ROW] << 18) \
                & st[OPEN + b]
            while lone:
                p = low_index(lone)
                lone &= lone - 1
                if st[k] >> p & 1:  # a placing strikes its row and box
                    dirty |= place(st, k % 9, b, p)
                    regs[R_NODES] += 1
        for b in range(3):  # the cells with one digit left take it; none left: a contradiction
            lone = lone_cells(st, 9 * b, 1, 9, st[OPEN + b])
            if lone < 0:
                return False
            while lone:
                p = low_index(lone)
                lone &= lone - 1
                if st[OPEN + b] >> p & 1:  # one digit left: placed
                    d = first_holding(st, 9 * b, 1, 9, p)
                    if d == 9:  # a placing of this pass struck it: no digit left
                        return False
                    dirty |= place(st, d, b, p)
                    regs[R_NODES] += 1
        if dirty:
            continue
        while digits:  # the columns of a digit with one place left; none left: a contradiction
            d = low_index(digits)
            digits &= digits - 1
            found = column_singles(st, d)
            if found < 0:
                return False
            dirty |= found
            lone = dirty >> 32  # (column, band) places to fill, packed above the masks
            dirty &= (1 << 32) - 1
            while lone:
                q = low_index(lone)
                lone &= lone - 1
                j, b = q % 9, q // 9
                hit = st[9 * b + d] & st[OPEN + b] & COLUMN[j]
                if hit:
                    dirty |= place(st, d, b, low_index(hit))
                    regs[R_NODES] += 1
        if not dirty:
            return True


@njit(cache=True, error_model="numpy", _nrt=False)
def branch(st, frame):
    """The cell of two candidates whose digits strike the most places (impact), else the first
    of the fewest candidates: its band in F_INDEX, its bit in F_DIGIT, its digits in F_REST."""
    best = 99
    best_pair = -1
    for b in range(3):
        open_cells = st[OPEN + b]
        if not open_cells:
            continue
        once = 0
        twice = 0
        thrice = 0
        for d in range(9):
            m = st[9 * b + d] & open_cells
            thrice |= twice & m
            twice |= once & m
            once |= m
        pair = twice & ~thrice
        while pair:
            p = low_index(pair)
            pair &= pair - 1
            digits = digits_at(st, b, p)
            d1 = low_index(digits)
            d2 = low_index(digits & (digits - 1))
            score = impact(st, d1, b, p) + impact(st, d2, b, p)
            if score > best_pair:
                best_pair = score
                frame[F_INDEX], frame[F_DIGIT], frame[F_REST] = b, p, digits
        while open_cells and best > 3 and best_pair < 0:
            p = low_index(open_cells)
            open_cells &= open_cells - 1
            digits = digits_at(st, b, p)
            if popcount(digits) < best:
                best = popcount(digits)
                frame[F_INDEX], frame[F_DIGIT], frame[F_REST] = b, p, digits


@njit(cache=True, error_model="numpy", inline="always")
def impact(st, d, b, p):
    """The places of digit d that placing it at bit p of band b would strike."""
    found = popcount(st[9 * b + d] & ~KEEP[p] & BAND)
    for b2 in range(3):
        if b2 != b:
            found += popcount(st[9 * b2 + d] & COLUMN[p])
    return found


@njit(cache=True, error_model="numpy", inline="always")
def digits_at(st, b, p):
    """The digits left at bit p of band b, as a mask."""
    digits = 0
    for d in range(9):
        digits |= (st[9 * b + d] >> p & 1) << d
    return digits


@njit(cache=True, error_model="numpy", _nrt=False)
def load(grid, st, regs):
    """The givens placed on a fresh state, each counted in regs[R_NODES]; the masks changed, -1
    when two givens clash."""
    for k in range(OPEN):
        st[k] = BAND
    for b in range(3):
        st[OPEN + b] = BAND
    dirty = np.int64(0)
    for x in range(81):
        v = grid[x]
        if v:
            b, p, d = x // 27, x % 27, v - 1
            if not st[9 * b + d] >> p & 1:
                return -1
            if st[OPEN + b] >> p & 1:
                dirty |= place(st, d, b, p)
                regs[R_NODES] += 1
    return dirty


@njit(cache=True, error_model="numpy", _nrt=False)
def solved_digits(st, row):
    """The digits of a solved state written to a row of 81 cells."""
    for k in range(OPEN):
        s = st[k]
        while s:
            p = low_index(s)
            s &= s - 1
            row[k // 9 * 27 + p] = k % 9 + 1


@njit(cache=True, error_model="numpy", inline="always")
def solved_count(st):
    """Cells placed in a state."""
    return 81 - popcount(st[OPEN]) - popcount(st[OPEN + 1]) - popcount(st[OPEN + 2])


# --- the steps (driver.py's) ---------------------------------------------------------------------

@njit(cache=True, error_model="numpy", inline="always")
def begin(grid, s):
    """The givens loaded into depth 0 and propagated; the cells placed, -1 on a clash."""
    st = s.stack[0]
    dirty = load(grid, st, s.regs)
    if dirty < 0 or not propagate(st, dirty, s.regs):
        return -1
    return solved_count(st)


@njit(cache=True, error_model="numpy", inline="always")
def choose(s, d):
    """The cell to branch on (branch)."""
    branch(s.stack[d], s.frames[d])


@njit(cache=True, error_model="numpy", inline="always")
def descend(s, d, alt):
    """Depth d copied to d + 1, the digit `alt` placed in frames[d]'s cell and propagated; the
    cells placed, -1 when refuted."""
    st = copy_down(s.stack, d, WIDTH)
    s.regs[R_NODES] += 1
    changed = put(st, low_index(alt), s.frames[d, F_INDEX], s.frames[d, F_DIGIT])
    return solved_count(st) if propagate(st, changed, s.regs) else -1


@njit(cache=True, error_model="numpy", inline="always")
def write(s, d, row):
    """The solved grid at depth d as digits."""
    solved_digits(s.stack[d], row)


# --- the entry points ----------------------------------------------------------------------------

@njit(cache=True, error_model="numpy", _nrt=False)
def run(grid, s, budget):
    """Search on from the registers for at most `budget` guesses (driver.resume)."""
    return resume(begin, choose, descend, write, grid, s, 81, s.geo[B_LIMIT],
                  s.geo[B_KEEP], budget)


@njit(cache=True, error_model="numpy", _nrt=False)
def run_many(grids, s, out):
    """Solve every row of `grids` to the end on one state, into `out` (driver.batch)."""
    batch(run, grids, s, out, 81)
