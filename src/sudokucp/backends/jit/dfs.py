"""The propagating depth-first search of the `jit` backend (numba); imported only when it runs.

The search is resumable: every bit of its state lives in the arrays it is given, so `run` stops
after `budget` guesses (or when the solution buffer is full) and a later call goes on.
Propagation levels (jit_layout): singles (naked and hidden), locked (+ pointing and claiming),
alldiff (singles + Regin's matching filter per unit: every naked and hidden subset), full
(alldiff + locked), dual (alldiff + the filter on each digit's row x column, row x box and
column x box views: every fish and every locked set).

Three compiled versions of each entry point, by the type of `mate` (the matching filter's state):
None at singles and locked, where numba drops the filter's branches before typing them, so that
this light version compiles in about half the time; at alldiff and full an array of two
dimensions (the units' hints), whose version leaves out the views; at dual one of three (the
units' and the views' hints). `start` is inlined in `run` and `run` in `run_many`, so that a batch
compiles neither apart: numba optimizes the whole of a compiled callee again in each caller.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit.bits import cycles, low_index, popcount
from sudokucp.backends.jit.layout import (
    ALLDIFF,
    BRANCH_SMALLEST,
    BRANCH_WDEG,
    BUDGET,
    DUAL,
    EXHAUSTED,
    F_DIGIT,
    F_INDEX,
    F_KIND,
    F_REST,
    F_SOLVED,
    FRAME_LEN,
    FULL,
    FULL_BUFFER,
    G_AD,
    G_BRANCH,
    G_CELLS,
    G_DIRTY,
    G_HIDDEN,
    G_KEEP,
    G_LEVEL,
    G_LIMIT,
    G_N,
    G_SIZE,
    G_WEIGHT,
    LIMIT,
    LOCKED,
    R_BACKTRACKS,
    R_DEPTH,
    R_FOUND,
    R_GUESSES,
    R_NEED,
    R_NODES,
    R_PHASE,
    R_STORED,
    REGS_LEN,
    S_FAIL,
    S_QLEN,
    S_SOLVED,
    UNIT_HINTS,
    VIEW_HINTS,
    layout,
)
from sudokucp.backends.jit.matching import alldiff, views
from sudokucp.backends.jit.propagate import assign, drain, hidden, locked

__all__ = ["BUDGET", "EXHAUSTED", "LIMIT", "buffers", "layout", "run", "run_many", "start"]


@njit(cache=True, _nrt=False)
def fixpoint(cand, units, peers, cunits, mate, scr, geo, regs):
    """Propagate the queued placements at the chosen level until nothing changes (`mate` None:
    no matching filter, whatever the level)."""
    level = geo[G_LEVEL]
    cells = geo[G_CELLS]
    while True:
        if not drain(cand, peers, cunits, scr, geo, regs):
            return False
        if scr[S_SOLVED] == cells:
            return True
        out = hidden(cand, units, peers, cunits, scr, geo, regs)
        if out < 0:
            return False
        if out:
            continue
        if level in (LOCKED, FULL):
            out = locked(cand, cunits, scr, geo)
            if out < 0:
                return False
            if out:
                continue
        if mate is not None:  # a type test: numba prunes the branch where mate is None
            if level >= ALLDIFF:
                out = alldiff(cand, units, peers, cunits, mate if mate.ndim == UNIT_HINTS
                              else mate[0], scr, geo, regs)
                if out < 0:
                    return False
                if out:
                    continue
            if mate.ndim == VIEW_HINTS and level == DUAL:  # a constant: pruned in the others
                out = views(cand, peers, cunits, mate[1], scr, geo, regs)
                if out < 0:
                    return False
                if out:
                    continue
        return True


# --- branching -----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def branch(cand, units, cunits, scr, geo, frame):
    """Fill `frame` with the alternatives of the cell with the fewest candidates (per failure weight
    of its units for wdeg) or, for BRANCH_SMALLEST, of a unit-digit with fewer places."""
    n, cells, mode = geo[G_N], geo[G_CELLS], geo[G_BRANCH]
    w = geo[G_WEIGHT]
    best = -1
    low = 99
    score_w = 1
    for c in range(cells):
        m = cand[c]
        if m & (m - 1):
            k = popcount(m)
            if mode == BRANCH_WDEG:
                wc = scr[w + cunits[c, 0]] + scr[w + cunits[c, 1]] + scr[w + cunits[c, 2]]
                if best < 0 or k * score_w < low * wc:
                    best, low, score_w = c, k, wc
            elif k < low:
                best, low = c, k
                if k == 2:
                    break
    if mode == BRANCH_SMALLEST and low > 2:
        places = scr[geo[G_AD]:geo[G_AD] + n]
        best_u = -1
        best_d = 0
        for u in range(3 * n):  # a unit-digit with fewer places than the best cell has digits
            for d in range(n):
                places[d] = 0
            for p in range(n):
                m = cand[units[u, p]]
                if m & (m - 1):
                    while m:
                        d = low_index(m)
                        m &= m - 1
                        places[d] |= 1 << p
            for d in range(n):
                k = popcount(places[d])
                if 1 < k < low:
                    best_u, best_d, low = u, d, k
            if low == 2:
                break
        if best_u >= 0:
            bit = 1 << best_d
            rest = 0
            for p in range(n):
                if cand[units[best_u, p]] & bit:
                    rest |= 1 << p
            frame[F_KIND], frame[F_INDEX], frame[F_DIGIT], frame[F_REST] = 1, best_u, bit, rest
            return
    frame[F_KIND], frame[F_INDEX], frame[F_DIGIT], frame[F_REST] = 0, best, 0, cand[best]


@njit(cache=True, _nrt=False)
def blame(scr, geo, cunits):
    """dom/wdeg: add one to the weight of the unit (or the cell's units) where a guess failed."""
    w = geo[G_WEIGHT]
    f = scr[S_FAIL]
    if f >= 0:
        scr[w + f] += 1
    else:
        cell = -1 - f
        for k in range(3):
            scr[w + cunits[cell, k]] += 1


# --- the search ----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def store(cand, sols, regs, geo):
    """Count a solution and write it to the buffer if it has room (or when told to keep all)."""
    regs[R_FOUND] += 1
    if regs[R_STORED] < sols.shape[0]:
        row = sols[regs[R_STORED]]
        for c in range(geo[G_CELLS]):
            row[c] = low_index(cand[c]) + 1
        regs[R_STORED] += 1


@njit(cache=True, inline="always")
def start(grid, units, peers, cunits, geo, cand, frames, regs, mate, scr):
    """Load the givens into level 0 and propagate; False when they clash or propagation fails."""
    n = geo[G_N]
    row = cand[0]
    row[:] = (1 << n) - 1
    for i in range(REGS_LEN):
        regs[i] = 0
    if mate is not None:
        mate[:, :] = -1
    scr[S_QLEN] = 0
    scr[S_SOLVED] = 0
    for u in range(3 * n):
        scr[geo[G_DIRTY] + u] = 1
        scr[geo[G_HIDDEN] + u] = 1
        scr[geo[G_WEIGHT] + u] = 1
    regs[R_PHASE] = 1
    for c in range(geo[G_CELLS]):
        v = grid[c]
        if v and not assign(row, c, 1 << (v - 1), cunits, scr, geo):
            return False
    if not fixpoint(row, units, peers, cunits, mate, scr, geo, regs):
        return False
    frames[0, F_SOLVED] = scr[S_SOLVED]
    regs[R_DEPTH] = 0
    regs[R_NEED] = 1
    return True


@njit(cache=True, inline="always")
def run(grid, units, peers, cunits, geo, cand, frames, regs, sols, mate, scr, budget):
    """Search on from the registers for at most `budget` guesses (< 0: no bound); returns
    EXHAUSTED, BUDGET, LIMIT (limit solutions found) or FULL_BUFFER (the caller empties it)."""
    n, cells, limit = geo[G_N], geo[G_CELLS], geo[G_LIMIT]
    if regs[R_PHASE] == 0 and not start(grid, units, peers, cunits, geo, cand, frames, regs,
                                         mate, scr):
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
                store(cand[d], sols, regs, geo)
                if limit and regs[R_FOUND] >= limit:
                    regs[R_DEPTH] = d
                    return LIMIT
                if geo[G_KEEP] and regs[R_STORED] == sols.shape[0]:
                    regs[R_DEPTH] = d
                    return FULL_BUFFER
            else:
                branch(cand[d], units, cunits, scr, geo, frames[d])
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
        alt = rest & -rest
        frames[d, F_REST] = rest ^ alt
        regs[R_GUESSES] += 1
        row = cand[d + 1]
        for c in range(cells):  # a loop: a slice copy compiles numba's shape checks and messages
            row[c] = cand[d, c]
        scr[S_QLEN] = 0
        scr[S_SOLVED] = frames[d, F_SOLVED]
        for u in range(3 * n):
            scr[geo[G_DIRTY] + u] = 0
            scr[geo[G_HIDDEN] + u] = 0
        if frames[d, F_KIND] == 0:
            ok = assign(row, frames[d, F_INDEX], alt, cunits, scr, geo)
        else:
            ok = assign(row, units[frames[d, F_INDEX], low_index(alt)], frames[d, F_DIGIT],
                        cunits, scr, geo)
        if ok:
            ok = fixpoint(row, units, peers, cunits, mate, scr, geo, regs)
        if ok:
            d += 1
            frames[d, F_SOLVED] = scr[S_SOLVED]
            regs[R_NEED] = 1
        else:
            regs[R_BACKTRACKS] += 1
            if geo[G_BRANCH] == BRANCH_WDEG:
                blame(scr, geo, cunits)


def buffers(geo: np.ndarray, capacity: int) -> tuple[np.ndarray | None, ...]:
    """Fresh state arrays for one search: cand, frames, regs, sols (uint8 digits), mate (the
    matching filter's hints: None at the levels without it, see UNIT_HINTS), scr."""
    n, cells = int(geo[G_N]), int(geo[G_CELLS])
    level = geo[G_LEVEL]
    mate = None if level < ALLDIFF else np.full((3 * n, n), -1, np.int64) if level < DUAL \
        else np.full((2, 3 * n, n), -1, np.int64)
    return (np.empty((cells + 2, cells), np.int64), np.zeros((cells + 2, FRAME_LEN), np.int64),
            np.zeros(REGS_LEN, np.int64), np.zeros((capacity, cells), np.uint8), mate,
            np.zeros(int(geo[G_SIZE]), np.int64))


@njit(cache=True, _nrt=False)
def run_many(grids, units, peers, cunits, geo, cand, frames, regs, sols, mate, scr, out_sols,
             out_counts, out_complete, out_stats):
    """Solve every row of `grids` to the end (no budget) on one search's buffers: the first
    solutions (as many as `out_sols` has room for per grid, zeros after), the count up to the
    limit, whether the search was exhausted, and nodes, guesses, backtracks per grid, then its
    processor cycles when `out_stats` has a fourth column."""
    cells, kept = geo[G_CELLS], out_sols.shape[1]
    timed = out_stats.shape[1] > 3
    for i in range(grids.shape[0]):
        t0 = cycles() if timed else 0
        regs[R_PHASE] = 0
        status = run(grids[i], units, peers, cunits, geo, cand, frames, regs, sols, mate, scr,
                     np.int64(-1))  # typed as the budget of a call from Python: one compile
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
