"""Cage sums for the `jit` depth-first kernel (numba): a cage keeps a digit in its open cells only
while a combo of the open cells' count holds it, makes what is left of the sum, avoids the
cage's placed digits, lies within the open cells' candidates and meets each of them; where the
side is too large for the combos table (layout.TABLE_SIDE), bounds instead: what is left lies
between the sums of the smallest and of the largest digits that could go with it. The tables
and glossary are layout.py's."""

from __future__ import annotations

from numba import njit

from sudokucp.backends.jit.bits import full_mask, low_index, popcount
from sudokucp.backends.jit.layout import G_N, G_TABLE, G_UNITS, S_FAIL
from sudokucp.backends.jit.propagate import strike


@njit(cache=True, _nrt=False)
def smallest(mask, k):
    """The sum of the k smallest digits of a mask; -1 when it has fewer."""
    total = 0
    for _ in range(k):
        if mask == 0:
            return -1
        total += low_index(mask) + 1
        mask &= mask - 1
    return total


@njit(cache=True, _nrt=False)
def bounded(union, count, left):
    """The digits of `union` that some `count` of its digits making `left` may hold, by the
    bounds alone (no table)."""
    ok = 0
    m = union
    while m:
        bit = m & -m
        m ^= bit
        rest, need = union ^ bit, left - low_index(bit) - 1
        others = popcount(rest)
        lo = smallest(rest, count - 1)
        hi = smallest(rest, others) - smallest(rest, others - count + 1)
        if 0 <= lo <= need <= hi:
            ok |= bit
    return ok


@njit(cache=True, _nrt=False)
def cage_digits(cand, q, s):
    """The digits the open cells of cage sum q may keep (0: none, the sum cannot be made)."""
    qcells, n = s.qcells, s.geo[G_N]
    stride = n * (n + 1) // 2 + 1
    used, union, count, left = 0, 0, 0, s.qtotal[q]
    for i in range(qcells.shape[1]):
        c = qcells[q, i]
        if c < 0:
            break
        m = cand[c]
        if m & (m - 1):
            union |= m
            count += 1
        else:
            used |= m
            left -= low_index(m) + 1
    union &= ~used
    if count == 0:
        return full_mask(n) if left == 0 else 0
    if left < 1 or left >= stride:
        return 0
    if not s.geo[G_TABLE]:
        return bounded(union, count, left)
    ok = 0
    key = count * stride + left
    for j in range(s.starts[key], s.starts[key + 1]):
        combo = s.combos[j]
        if combo & ~union or (combo & ~ok) == 0:  # out of reach, or nothing new
            continue
        meets = True
        for i in range(qcells.shape[1]):
            c = qcells[q, i]
            if c < 0:
                break
            m = cand[c]
            if m & (m - 1) and not m & combo:
                meets = False
                break
        if meets:
            ok |= combo
    return ok


@njit(cache=True, _nrt=False)
def sums(cand, s):
    """Prune the open cells of each cage sum to the digits that can still make it; -1 on a
    contradiction (its weight, for dom/wdeg, after the units'), else the cells changed."""
    qcells, scr, geo = s.qcells, s.scr, s.geo
    changed = 0
    for q in range(qcells.shape[0]):
        ok = cage_digits(cand, q, s)
        if ok == 0:
            scr[S_FAIL] = geo[G_UNITS] + q
            return -1
        for i in range(qcells.shape[1]):
            c = qcells[q, i]
            if c < 0:
                break
            m = cand[c]
            if m & (m - 1) and m & ~ok:
                if not strike(cand, c, m & ~ok, s.cunits, scr, geo):
                    return -1
                changed += 1
    return changed
