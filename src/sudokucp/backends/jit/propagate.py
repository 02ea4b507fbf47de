"""Propagation of the `jit` depth-first kernel on one row of candidate masks: placing and striking,
naked singles (drain), hidden singles, pointing and claiming (locked)."""

from __future__ import annotations

from numba import njit

from sudokucp.backends.jit.bits import full_mask
from sudokucp.backends.jit.layout import (
    G_C,
    G_DIRTY,
    G_HIDDEN,
    G_HSEG,
    G_N,
    G_R,
    G_UNITS,
    G_VSEG,
    R_NODES,
    S_FAIL,
    S_QLEN,
    S_QUEUE,
    S_SOLVED,
)

# --- placing and striking ------------------------------------------------------------------------

@njit(cache=True, inline="always")
def mark(cell, cunits, scr, geo):
    """Flag the row, column and box (or region) of `cell` as changed, for the hidden singles and
    the matching filter (a variant's other units are looked at on every pass: dfs.fixpoint)."""
    d = geo[G_DIRTY]
    h = geo[G_HIDDEN]
    for k in range(3):
        scr[d + cunits[cell, k]] = 1
        scr[h + cunits[cell, k]] = 1


@njit(cache=True, inline="always")
def strike(cand, cell, bits, cunits, scr, geo):
    """Remove `bits` from a cell; queue it when one is left; False when none is."""
    m = cand[cell]
    if not m & bits:
        return True
    m &= ~bits
    cand[cell] = m
    if m == 0:
        scr[S_FAIL] = -1 - cell
        return False
    if not m & (m - 1):
        scr[S_QUEUE + scr[S_QLEN]] = cell
        scr[S_QLEN] += 1
    mark(cell, cunits, scr, geo)
    return True


@njit(cache=True, inline="always")
def assign(cand, cell, bit, cunits, scr, geo):
    """Set a cell to one digit and queue it; False when the digit is not a candidate."""
    return strike(cand, cell, cand[cell] & ~bit, cunits, scr, geo)


@njit(cache=True, inline="always")
def drain(cand, peers, cunits, scr, geo, regs):
    """Strike every queued cell's digit from its peers (naked singles, to a fixpoint)."""
    qlen = scr[S_QLEN]
    if qlen == 0:
        return True
    dirty, fresh = geo[G_DIRTY], geo[G_HIDDEN]
    placed = 0
    ok = True
    while qlen > 0 and ok:
        qlen -= 1
        cell = scr[S_QUEUE + qlen]
        bit = cand[cell]
        placed += 1
        for t in range(peers.shape[1]):
            p = peers[cell, t]
            m = cand[p]
            if not m & bit:
                continue
            m &= ~bit
            cand[p] = m
            if m == 0:
                scr[S_FAIL] = -1 - p
                ok = False
                break
            if not m & (m - 1):
                scr[S_QUEUE + qlen] = p
                qlen += 1
            for k in range(3):
                u = cunits[p, k]
                scr[dirty + u] = 1
                scr[fresh + u] = 1
    scr[S_QLEN] = qlen
    scr[S_SOLVED] += placed
    regs[R_NODES] += placed
    return ok


# --- the techniques ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def hidden(cand, units, peers, cunits, scr, geo, regs):
    """Place every digit with one place left in a unit changed since it was last looked at; -1 on
    a contradiction (a digit with no place), else the digits placed."""
    n = geo[G_N]
    full = full_mask(n)
    fresh = geo[G_HIDDEN]
    changed = 0
    for u in range(geo[G_UNITS]):
        if not scr[fresh + u]:
            continue
        scr[fresh + u] = 0
        once = twice = 0  # the digits of one cell or more, of two or more
        for k in range(n):
            twice |= once & cand[units[u, k]]
            once |= cand[units[u, k]]
        if once != full:
            scr[S_FAIL] = u
            return -1
        lone = once & ~twice
        if not lone:
            continue
        for k in range(n):
            cell = units[u, k]
            m = cand[cell]
            h = m & lone
            if h and m != h:
                if h & (h - 1):
                    scr[S_FAIL] = u
                    return -1  # two digits need the same cell
                if not assign(cand, cell, h, cunits, scr, geo):
                    return -1
                changed += 1
                if not drain(cand, peers, cunits, scr, geo, regs):
                    return -1
    return changed


@njit(cache=True, _nrt=False)
def segments(cand, scr, geo):
    """OR of the open cells' masks of every box-line crossing (row and column segments)."""
    n, r, c = geo[G_N], geo[G_R], geo[G_C]
    hs, vs = geo[G_HSEG], geo[G_VSEG]
    for i in range(n):  # row i, box column k: c cells
        for k in range(r):
            m = 0
            base = i * n + k * c
            for j in range(c):
                x = cand[base + j]
                if x & (x - 1):
                    m |= x
            scr[hs + i * r + k] = m
    for j in range(n):  # column j, box row k: r cells
        for k in range(c):
            m = 0
            for i in range(k * r, k * r + r):
                x = cand[i * n + j]
                if x & (x - 1):
                    m |= x
            scr[vs + j * c + k] = m


@njit(cache=True, _nrt=False)
def locked(cand, cunits, scr, geo):
    """Pointing and claiming over every box-line crossing; -1 on a contradiction, else changes."""
    n, r, c = geo[G_N], geo[G_R], geo[G_C]
    segments(cand, scr, geo)
    rows = crossings(cand, cunits, scr, geo, geo[G_HSEG], r, c, n, 1)
    if rows < 0:
        return -1
    columns = crossings(cand, cunits, scr, geo, geo[G_VSEG], c, r, 1, n)
    return -1 if columns < 0 else rows + columns


@njit(cache=True, inline="always")
def crossings(cand, cunits, scr, geo, seg, segs, width, across, along):
    """Pointing and claiming along the rows (or the columns): each line's `segs` segments of
    `width` cells, their masks at scr[seg + line * segs + k]; a band is `segs` lines; cell =
    line * across + place * along. -1 on a contradiction, else changes."""
    changed = 0
    for i in range(geo[G_N]):
        band = (i // segs) * segs
        for k in range(segs):
            m = scr[seg + i * segs + k]
            if not m:
                continue
            box_rest = 0
            for i2 in range(band, band + segs):
                if i2 != i:
                    box_rest |= scr[seg + i2 * segs + k]
            line_rest = 0
            for k2 in range(segs):
                if k2 != k:
                    line_rest |= scr[seg + i * segs + k2]
            point = m & ~box_rest  # the box's places of these digits lie in this line
            claim = m & ~line_rest  # the line's places of these digits lie in this box
            for k2 in range(segs):  # the line's other boxes lose the pointing digits
                out = strike_run(cand, cunits, scr, geo, i, k2 * width, width, across, along,
                                 point if k2 != k else 0)
                if out < 0:
                    return -1
                changed += out
            for i2 in range(band, band + segs):  # the box's other lines lose the claimed ones
                out = strike_run(cand, cunits, scr, geo, i2, k * width, width, across, along,
                                 claim if i2 != i else 0)
                if out < 0:
                    return -1
                changed += out
    return changed


@njit(cache=True, inline="always")
def strike_run(cand, cunits, scr, geo, line, first, width, across, along, bits):
    """`bits` struck from `width` cells of a line from place `first` (cell = line * across +
    place * along); -1 on a contradiction, else the cells changed."""
    changed = 0
    for j in range(first, first + width if bits else first):
        x = line * across + j * along
        if cand[x] & bits:
            changed += 1
            if not strike(cand, x, bits, cunits, scr, geo):
                return -1
    return changed
