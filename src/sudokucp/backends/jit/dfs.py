"""The propagating depth-first search of the `jit` backend (numba); imported only when it runs.

The search is driver.py's resumable loop over this kernel's steps (begin, choose, descend) and
its state (layout.Dfs: tables, geo and buffers by name).
Propagation levels (layout.py): singles (naked and hidden), locked (+ pointing and claiming),
alldiff (singles + Regin's matching filter per unit: every naked and hidden subset), full
(alldiff + locked).

Two compiled versions of each entry point, by the type of `mate` (the matching filter's state):
None at singles and locked, where numba drops the filter's branches before typing them, so that
this light version compiles in about half the time; at alldiff and full an array of the units'
hints.
"""

from __future__ import annotations

from numba import njit

from sudokucp.backends.jit.bits import full_mask, popcount
from sudokucp.backends.jit.driver import batch, copy_down, resume, write_masks
from sudokucp.backends.jit.layout import (
    ALLDIFF,
    BRANCH_WDEG,
    F_INDEX,
    F_REST,
    F_SOLVED,
    FULL,
    G_BRANCH,
    G_CELLS,
    G_DIRTY,
    G_HIDDEN,
    G_KEEP,
    G_LEVEL,
    G_LIMIT,
    G_N,
    G_SUMS,
    G_UNITS,
    G_WEIGHT,
    LOCKED,
    S_FAIL,
    S_QLEN,
    S_SOLVED,
    layout,
    state,
    tables,
)
from sudokucp.backends.jit.matching import alldiff
from sudokucp.backends.jit.propagate import assign, drain, hidden, locked, strike
from sudokucp.backends.jit.sums import sums

__all__ = ["layout", "run", "run_many", "state", "tables"]


@njit(cache=True, _nrt=False)
def fixpoint(cand, mate, s):
    """Propagate the queued placements at the chosen level until nothing changes (`mate`, an
    argument so that numba prunes on its type: None, no matching filter whatever the level); a
    variant's units past its rows, columns and boxes and its cage sums are looked at on every
    pass (cells flag only their first three units: propagate.mark)."""
    units, peers, cunits, scr, geo, regs = s.units, s.peers, s.cunits, s.scr, s.geo, s.regs
    level = geo[G_LEVEL]
    cells = geo[G_CELLS]
    while True:
        if not drain(cand, peers, cunits, scr, geo, regs):
            return False
        for u in range(3 * geo[G_N], geo[G_UNITS]):
            scr[geo[G_DIRTY] + u] = 1
            scr[geo[G_HIDDEN] + u] = 1
        out = 0  # each step runs while the ones before it changed nothing (-1: a contradiction)
        if geo[G_SUMS]:  # before the test of a full grid: the sums must hold in it too
            out = sums(cand, s)
        if not out and scr[S_SOLVED] == cells:
            return True
        if not out:
            out = hidden(cand, units, peers, cunits, scr, geo, regs)
        if not out and level in (LOCKED, FULL):
            out = locked(cand, cunits, scr, geo)
        if mate is not None and not out and level >= ALLDIFF:  # mate: pruned where it is None
            out = alldiff(cand, units, peers, cunits, mate, scr, geo, regs)
        if out <= 0:
            return out == 0


# --- the steps (driver.py's) ---------------------------------------------------------------------

@njit(cache=True, inline="always")
def begin(grid, s):
    """The allowed digits and the givens loaded into depth 0 and propagated; the cells placed, -1
    on a clash."""
    geo, scr, row = s.geo, s.scr, s.cand[0]
    full = full_mask(geo[G_N])
    for c in range(geo[G_CELLS]):
        row[c] = full
    clear_hints(s.mate)
    scr[S_QLEN] = 0
    scr[S_SOLVED] = 0
    for u in range(geo[G_UNITS] + geo[G_SUMS]):
        scr[geo[G_DIRTY] + u] = 1
        scr[geo[G_HIDDEN] + u] = 1
        scr[geo[G_WEIGHT] + u] = 1
    for c in range(geo[G_CELLS]):
        v = grid[c]
        keep = s.allowed[c] & (1 << (v - 1) if v else full)
        if not strike(row, c, full & ~keep, s.cunits, scr, geo):
            return -1
    if not fixpoint(row, s.mate, s):
        return -1
    return scr[S_SOLVED]


@njit(cache=True, _nrt=False)
def clear_hints(mate):
    """The matching filter's hints forgotten (nothing to do where mate is None)."""
    if mate is not None:
        mate[:, :] = -1


@njit(cache=True, inline="always")
def choose(s, d):
    """Fill frames[d] with the digits of the open cell with the fewest candidates (per failure
    weight of its units for wdeg)."""
    cand, cunits, scr, geo, frame = s.cand[d], s.cunits, s.scr, s.geo, s.frames[d]
    w = geo[G_WEIGHT]
    wdeg = geo[G_BRANCH] == BRANCH_WDEG
    best = -1
    low = 99
    score_w = 1
    for c in range(geo[G_CELLS]):
        m = cand[c]
        if m & (m - 1):
            k = popcount(m)
            if wdeg:
                wc = scr[w + cunits[c, 0]] + scr[w + cunits[c, 1]] + scr[w + cunits[c, 2]]
                if best < 0 or k * score_w < low * wc:
                    best, low, score_w = c, k, wc
            elif k < low:
                best, low = c, k
                if k == 2:
                    break
    frame[F_INDEX], frame[F_REST] = best, cand[best]


@njit(cache=True, inline="always")
def descend(s, d, alt):
    """Depth d copied to d + 1, the alternative `alt` of frames[d] placed and propagated; the
    cells placed, -1 when refuted (dom/wdeg: the failure blamed)."""
    cand, frames, scr, geo, cunits = s.cand, s.frames, s.scr, s.geo, s.cunits
    row = copy_down(cand, d, geo[G_CELLS])
    scr[S_QLEN] = 0
    scr[S_SOLVED] = frames[d, F_SOLVED]
    for u in range(geo[G_UNITS] + geo[G_SUMS]):
        scr[geo[G_DIRTY] + u] = 0
        scr[geo[G_HIDDEN] + u] = 0
    if assign(row, frames[d, F_INDEX], alt, cunits, scr, geo) and fixpoint(row, s.mate, s):
        return scr[S_SOLVED]
    if geo[G_BRANCH] == BRANCH_WDEG:
        blame(scr, geo, cunits)
    return -1


@njit(cache=True, _nrt=False)
def blame(scr, geo, cunits):
    """dom/wdeg: add one to the weight of the unit or cage sum (or the cell's) where a guess
    failed."""
    w = geo[G_WEIGHT]
    f = scr[S_FAIL]
    if f >= 0:
        scr[w + f] += 1
    else:
        cell = -1 - f
        for k in range(3):
            scr[w + cunits[cell, k]] += 1


# --- the entry points ----------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def run(grid, s, budget):
    """Search on from the registers for at most `budget` guesses (driver.resume)."""
    geo = s.geo
    return resume(begin, choose, descend, write_masks, grid, s, geo[G_CELLS], geo[G_LIMIT],
                  geo[G_KEEP], budget)


@njit(cache=True, _nrt=False)
def run_many(grids, s, out):
    """Solve every row of `grids` to the end on one state, into `out` (driver.batch)."""
    batch(run, grids, s, out, s.geo[G_CELLS])
