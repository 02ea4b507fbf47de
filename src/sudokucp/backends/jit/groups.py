"""The `jit` backend's search over a variant's groups (sudokucp.layout): a propagating
depth-first search on candidate masks, driver.py's resumable loop over these steps; imported
only when a variant runs.

Glossary: cand = one row of candidate masks (bit d-1 for digit d), a cell is placed once its
mask has one bit (queued exactly once then, and struck from its `peers`); g = group, a row of
`gcells` padded with -1, the full groups (N cells: each digit once) first, geo[G_NFULL] of
them: only they force a digit's last place (hidden singles); q = cage sum, a row of `qcells`
padded with -1, its total in `qtotal`, `csum` the sum of each cell (-1: none; cages do not
overlap); `combos` = every digit mask ordered by (size, sum), those of size m and sum t from
`starts[m * stride + t]` to the next start (stride = N(N+1)/2 + 1). A cage sum keeps a digit in
its open cells only while a combo of the open cells' count holds it, makes what is left of the
sum, avoids the cage's placed digits, lies within the open cells' candidates and meets each of
them; where the side is too large for the table (TABLE_SIDE), bounds instead: what is left lies
between the sums of the smallest and of the largest digits that could go with it.
Stats as dfs.py's: nodes = cells placed, guesses = alternatives tried, backtracks = refuted.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit.bits import full_mask, low_index, popcount, spread_at
from sudokucp.backends.jit.driver import copy_down, resume, write_masks
from sudokucp.backends.jit.group_tables import (
    G_CELLS,
    G_GDIRTY,
    G_KEEP,
    G_LIMIT,
    G_N,
    G_NFULL,
    G_QUEUE,
    G_SDIRTY,
    G_SIZE,
    G_TABLE,
    S_QLEN,
    S_SOLVED,
    state,
)
from sudokucp.backends.jit.layout import F_INDEX, F_REST, F_SOLVED, R_NODES
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.rules import Rules

__all__ = ["run", "state", "warm"]


def warm() -> None:
    """One search of a 4x4 killer: run() compiled, or loaded from numba's cache."""
    from sudokucp.rules import Cage

    puzzle = Puzzle(Shape(2, 2), (0,) * 16, "", Rules(cages=(Cage((0, 1), 3),)))
    run(np.zeros(16, np.uint8), state(puzzle, 1, 1, 1), -1)


# --- propagation ---------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def touch(cell, cgroups, csum, scr, geo):
    """Flag the full groups and the cage sum of a cell whose candidates changed."""
    nfull, gd = geo[G_NFULL], geo[G_GDIRTY]
    for k in range(cgroups.shape[1]):
        g = cgroups[cell, k]
        if g < 0 or g >= nfull:
            break
        scr[gd + g] = 1
    q = csum[cell]
    if q >= 0:
        scr[geo[G_SDIRTY] + q] = 1


@njit(cache=True, inline="always")
def keep_only(cand, cell, bits, cgroups, csum, scr, geo):
    """Keep a cell's candidates among `bits`; queue it when one is left; False when none is."""
    m = cand[cell]
    if not m & ~bits:
        return True
    m &= bits
    if m == 0:
        return False
    cand[cell] = m
    if not m & (m - 1):
        scr[geo[G_QUEUE] + scr[S_QLEN]] = cell
        scr[S_QLEN] += 1
    touch(cell, cgroups, csum, scr, geo)
    return True


@njit(cache=True, _nrt=False)
def drain(cand, peers, cgroups, csum, scr, geo, regs):
    """Strike every queued cell's digit from its peers (naked singles, to a fixpoint)."""
    queue = geo[G_QUEUE]
    while scr[S_QLEN] > 0:
        scr[S_QLEN] -= 1
        cell = scr[queue + scr[S_QLEN]]
        bit = cand[cell]
        scr[S_SOLVED] += 1
        regs[R_NODES] += 1
        for t in range(peers.shape[1]):
            p = peers[cell, t]
            if p < 0:
                break
            if cand[p] & bit and not keep_only(cand, p, ~bit, cgroups, csum, scr, geo):
                return False
    return True


@njit(cache=True, _nrt=False)
def hidden(cand, gcells, cgroups, csum, scr, geo):
    """Place each digit with one place left in a changed full group; -1 on a contradiction (a
    digit with no place), else the digits placed."""
    n, gd = geo[G_N], geo[G_GDIRTY]
    full = full_mask(n)
    placed = 0
    for g in range(geo[G_NFULL]):
        if not scr[gd + g]:
            continue
        scr[gd + g] = 0
        once, twice = spread_at(cand, gcells, g, n)
        if once != full:
            return -1
        lone = once & ~twice
        for i in range(n):
            cell = gcells[g, i]
            h = cand[cell] & lone
            if h and cand[cell] != h:
                if h & (h - 1):
                    return -1  # two digits need the same cell
                keep_only(cand, cell, h, cgroups, csum, scr, geo)
                placed += 1
    return placed


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
def cage_digits(cand, q, qcells, qtotal, combos, starts, geo):
    """The digits the open cells of cage sum q may keep (0: none, the sum cannot be made):
    those of the combos of as many digits as open cells, within their candidates and not
    placed in the cage, making what is left of the sum and meeting every open cell (bounds
    above TABLE_SIDE)."""
    n = geo[G_N]
    stride = n * (n + 1) // 2 + 1
    used, union, count, left = 0, 0, 0, qtotal[q]
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
    ok = 0
    if not geo[G_TABLE]:
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
    key = count * stride + left
    for j in range(starts[key], starts[key + 1]):
        s = combos[j]
        if s & ~union or (s & ~ok) == 0:  # out of reach, or nothing new
            continue
        meets = True
        for i in range(qcells.shape[1]):
            c = qcells[q, i]
            if c < 0:
                break
            m = cand[c]
            if m & (m - 1) and not m & s:
                meets = False
                break
        if meets:
            ok |= s
    return ok


@njit(cache=True, _nrt=False)
def sums(cand, qcells, qtotal, combos, starts, cgroups, csum, scr, geo):
    """Prune the open cells of each changed cage sum to the digits that can still make it; -1
    on a contradiction, else the cells changed."""
    sd = geo[G_SDIRTY]
    changed = 0
    for q in range(qcells.shape[0]):
        if not scr[sd + q]:
            continue
        scr[sd + q] = 0
        ok = cage_digits(cand, q, qcells, qtotal, combos, starts, geo)
        if ok == 0:
            return -1
        for i in range(qcells.shape[1]):
            c = qcells[q, i]
            if c < 0:
                break
            m = cand[c]
            if m & (m - 1) and m & ~ok:
                if not keep_only(cand, c, ok, cgroups, csum, scr, geo):
                    return -1
                changed += 1
    return changed


@njit(cache=True, _nrt=False)
def fixpoint(cand, s):
    """Naked singles, cage sums and hidden singles until nothing changes; False on a
    contradiction."""
    cgroups, csum, scr, geo = s.cgroups, s.csum, s.scr, s.geo
    while True:
        if not drain(cand, s.peers, cgroups, csum, scr, geo, s.regs):
            return False
        out = sums(cand, s.qcells, s.qtotal, s.combos, s.starts, cgroups, csum, scr, geo)
        if out < 0:
            return False
        if out:
            continue
        out = hidden(cand, s.gcells, cgroups, csum, scr, geo)
        if out < 0:
            return False
        if out == 0:
            return True


# --- the steps (driver.py's) ---------------------------------------------------------------------

@njit(cache=True, inline="always")
def begin(grid, s):
    """The allowed digits and the givens loaded into depth 0 and propagated; the cells placed,
    -1 when they clash."""
    geo, scr, row = s.geo, s.scr, s.cand[0]
    for i in range(scr.shape[0]):
        scr[i] = 0
    for g in range(geo[G_NFULL]):
        scr[geo[G_GDIRTY] + g] = 1
    for q in range(s.qcells.shape[0]):
        scr[geo[G_SDIRTY] + q] = 1
    for c in range(geo[G_CELLS]):
        m = s.allowed[c]
        if grid[c]:
            bit = 1 << (np.int64(grid[c]) - 1)
            if not m & bit:
                return -1
            m = bit
        row[c] = m
        if not m & (m - 1):
            scr[geo[G_QUEUE] + scr[S_QLEN]] = c
            scr[S_QLEN] += 1
    return scr[S_SOLVED] if fixpoint(row, s) else -1


@njit(cache=True, inline="always")
def choose(s, d):
    """Branch on the open cell with the fewest candidates (the first with two)."""
    cand = s.cand[d]
    best = -1
    low = 99
    for c in range(s.geo[G_CELLS]):
        m = cand[c]
        if m & (m - 1):
            k = popcount(m)
            if k < low:
                best, low = c, k
                if k == 2:
                    break
    s.frames[d, F_INDEX], s.frames[d, F_REST] = best, cand[best]


@njit(cache=True, inline="always")
def descend(s, d, alt):
    """Depth d copied to d + 1, the digit `alt` placed in frames[d]'s cell and propagated; the
    cells placed, -1 when refuted."""
    cand, scr, geo = s.cand, s.scr, s.geo
    row = copy_down(cand, d, geo[G_CELLS])
    scr[S_QLEN] = 0
    scr[S_SOLVED] = s.frames[d, F_SOLVED]
    for i in range(geo[G_GDIRTY], geo[G_SIZE]):  # a failed node may leave flags set
        scr[i] = 0
    if keep_only(row, s.frames[d, F_INDEX], alt, s.cgroups, s.csum, scr, geo) \
            and fixpoint(row, s):
        return scr[S_SOLVED]
    return -1


@njit(cache=True, _nrt=False)
def run(grid, s, budget):
    """Search on from the registers for at most `budget` guesses (driver.resume)."""
    geo = s.geo
    return resume(begin, choose, descend, write_masks, grid, s, geo[G_CELLS], geo[G_LIMIT],
                  geo[G_KEEP], budget)
