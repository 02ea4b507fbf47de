"""The resumable depth-first loop of the jit kernels (dfs, bands), written once.

A kernel's state is a NamedTuple of arrays with `frames`, `regs` and `sols` among them (their
fields in layout.py); the kernel supplies its steps, passed to `resume` as compiled functions
(numba compiles the loop once per set of steps; the steps are inlined in it, so that no call
passes the state's arrays):
- begin(grid, s): load the givens into depth 0 and propagate; the cells placed, -1 on a clash;
- choose(s, d): fill frames[d] with what to branch on, its alternatives as a mask in F_REST;
- descend(s, d, alt): copy depth d to d + 1, apply one alternative (a bit of the mask) and
  propagate; the cells placed at d + 1, -1 when refuted (the kernel's own bookkeeping done);
- write(s, d, row): the solved grid at depth d as digits in `row`.
The loop stops after `budget` guesses (< 0: no bound), or when the solution buffer is full, and
a later call goes on from the registers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit.bits import cycles, low_index
from sudokucp.backends.jit.layout import (
    BUDGET,
    EXHAUSTED,
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


@njit(cache=True, inline="always")
def opening(begin, grid, s):
    """The registers cleared, the givens loaded and propagated; False when they fail."""
    regs = s.regs
    for i in range(REGS_LEN):
        regs[i] = 0
    regs[R_PHASE] = 1
    solved = begin(grid, s)
    if solved < 0:
        regs[R_PHASE] = 2
        return False
    s.frames[0, F_SOLVED] = solved
    regs[R_NEED] = 1
    return True


@njit(cache=True, inline="always")
def resume(begin, choose, descend, write, grid, s, cells, limit, keep, budget):
    """Search on from the registers; returns EXHAUSTED, BUDGET, LIMIT (limit solutions found) or
    FULL_BUFFER (the caller empties it, keep 1: every grid handed over)."""
    regs, frames, sols = s.regs, s.frames, s.sols
    if regs[R_PHASE] == 0:
        opening(begin, grid, s)
    if regs[R_PHASE] == 2:
        return EXHAUSTED
    d = regs[R_DEPTH]
    spent = 0
    while True:
        if regs[R_NEED]:
            regs[R_NEED] = 0
            if frames[d, F_SOLVED] == cells:
                frames[d, F_REST] = 0
                regs[R_FOUND] += 1
                if regs[R_STORED] < sols.shape[0]:
                    write(s, d, sols[regs[R_STORED]])
                    regs[R_STORED] += 1
                if limit and regs[R_FOUND] >= limit:
                    regs[R_DEPTH] = d
                    return LIMIT
                if keep and regs[R_STORED] == sols.shape[0]:
                    regs[R_DEPTH] = d
                    return FULL_BUFFER
            else:
                choose(s, d)
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
        solved = descend(s, d, alt)
        if solved >= 0:
            d += 1
            frames[d, F_SOLVED] = solved
            regs[R_NEED] = 1
        else:
            regs[R_BACKTRACKS] += 1


@njit(cache=True, inline="always")
def batch(run, grids, s, out, cells):
    """Every row of `grids` searched to the end (no budget) by a kernel's `run` (its loop in a
    function of its own) on one state: into `out` (an Answers)
    the first solutions (as many as out.solutions has room for per grid, zeros after), the count
    up to the limit, whether the search was exhausted, and nodes, guesses, backtracks per grid,
    then its processor cycles when out.stats has a fourth column."""
    regs, sols, kept = s.regs, s.sols, out.solutions.shape[1]
    timed = out.stats.shape[1] > 3
    for i in range(grids.shape[0]):
        t0 = cycles() if timed else 0
        regs[R_PHASE] = 0
        status = run(grids[i], s, np.int64(-1))  # typed as a budget from Python: one compile
        out.counts[i] = regs[R_FOUND]
        out.complete[i] = status == EXHAUSTED
        stored = regs[R_STORED]
        for j in range(kept):
            for c in range(cells):
                out.solutions[i, j, c] = sols[j, c] if j < stored else 0
        out.stats[i, 0] = regs[R_NODES]
        out.stats[i, 1] = regs[R_GUESSES]
        out.stats[i, 2] = regs[R_BACKTRACKS]
        if timed:
            out.stats[i, 3] = cycles() - t0


@njit(cache=True, inline="always")
def write_masks(s, d, row):
    """The write step of the kernels whose state holds a row of candidate masks per depth
    (`cand`: dfs): each cell's one digit."""
    cand = s.cand[d]
    for c in range(row.shape[0]):
        row[c] = low_index(cand[c]) + 1


@njit(cache=True, inline="always")
def copy_down(rows, d, width):
    """Row d of a per-depth array copied to row d + 1 (a loop: a slice copy compiles numba's
    shape checks and messages); row d + 1."""
    row = rows[d + 1]
    for k in range(width):
        row[k] = rows[d, k]
    return row
