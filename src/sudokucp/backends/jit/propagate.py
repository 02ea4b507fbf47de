"""Propagation of the `jit` depth-first kernel on one row of candidate masks: placing and striking,
naked singles (drain), hidden singles, pointing and claiming (locked)."""

from __future__ import annotations

from numba import njit

from sudokucp.backends.jit.layout import (
    G_C,
    G_DIRTY,
    G_HIDDEN,
    G_HSEG,
    G_N,
    G_R,
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
    """Flag the three units of `cell` as changed, for the hidden singles and the matching filter."""
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
    m = cand[cell]
    if not m & bit:
        scr[S_FAIL] = -1 - cell
        return False
    if m == bit:
        return True  # placed already: queued when it got down to one
    cand[cell] = bit
    scr[S_QUEUE + scr[S_QLEN]] = cell
    scr[S_QLEN] += 1
    mark(cell, cunits, scr, geo)
    return True


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
    full = (1 << n) - 1
    fresh = geo[G_HIDDEN]
    changed = 0
    for u in range(3 * n):
        if not scr[fresh + u]:
            continue
        scr[fresh + u] = 0
        once = 0
        twice = 0
        for k in range(n):
            m = cand[units[u, k]]
            twice |= once & m
            once |= m
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
    hs, vs = geo[G_HSEG], geo[G_VSEG]
    segments(cand, scr, geo)
    changed = 0
    for i in range(n):
        band = (i // r) * r
        for k in range(r):
            m = scr[hs + i * r + k]
            if not m:
                continue
            box_rest = 0
            for i2 in range(band, band + r):
                if i2 != i:
                    box_rest |= scr[hs + i2 * r + k]
            line_rest = 0
            for k2 in range(r):
                if k2 != k:
                    line_rest |= scr[hs + i * r + k2]
            point = m & ~box_rest  # the box's places of these digits lie in this row
            claim = m & ~line_rest  # the row's places of these digits lie in this box
            if point:
                for k2 in range(r):
                    if k2 == k:
                        continue
                    for j in range(k2 * c, k2 * c + c):
                        if cand[i * n + j] & point:
                            changed += 1
                            if not strike(cand, i * n + j, point, cunits, scr, geo):
                                return -1
            if claim:
                for i2 in range(band, band + r):
                    if i2 == i:
                        continue
                    for j in range(k * c, k * c + c):
                        if cand[i2 * n + j] & claim:
                            changed += 1
                            if not strike(cand, i2 * n + j, claim, cunits, scr, geo):
                                return -1
    for j in range(n):
        stack = (j // c) * c
        for k in range(c):
            m = scr[vs + j * c + k]
            if not m:
                continue
            box_rest = 0
            for j2 in range(stack, stack + c):
                if j2 != j:
                    box_rest |= scr[vs + j2 * c + k]
            line_rest = 0
            for k2 in range(c):
                if k2 != k:
                    line_rest |= scr[vs + j * c + k2]
            point = m & ~box_rest
            claim = m & ~line_rest
            if point:
                for k2 in range(c):
                    if k2 == k:
                        continue
                    for i in range(k2 * r, k2 * r + r):
                        if cand[i * n + j] & point:
                            changed += 1
                            if not strike(cand, i * n + j, point, cunits, scr, geo):
                                return -1
            if claim:
                for i in range(k * r, k * r + r):
                    for j2 in range(stack, stack + c):
                        if j2 != j and cand[i * n + j2] & claim:
                            changed += 1
                            if not strike(cand, i * n + j2, claim, cunits, scr, geo):
                                return -1
    return changed

