"""The clause-learning search of the `jit` backend (numba); imported only when it runs.

A CDCL solver specialised to Sudoku: one boolean x(c, d) per cell and digit (var = c * n + d,
literal 2 * var for "c holds d", 2 * var + 1 for its negation). The exactly-one constraints are not
clauses: at-most-one is propagated from the candidate masks (a digit placed strikes its cell's other
digits and its peers' copies) and at-least-one from the masks of each cell and each unit-digit
(naked and hidden singles), each implication keeping a structural reason. Only learned clauses (and
the clauses that block solutions already found) live in the pool, watched by two literals on
per-literal lists with a blocking literal each.

Conflicts are analysed to the first unique implication point; then every digit in the clause that
a placement struck is replaced by that placement (a resolution on the binary at-most-one clause,
which shortens the clause: one placement strikes up to 3N digits), and literals implied by the
rest are dropped. Decisions follow VSIDS activities and give the variable the value of the
target assignment (the longest conflict-free trail seen, CaDiCaL's target phases), its saved
phase, or place the digit; restarts follow the Luby sequence or Glucose's LBD average; the pool
keeps the clauses of lowest LBD when it is cut, every few thousand conflicts.

The search is resumable: its whole state lives in the arrays of `state`, so `run` stops after
`budget` conflicts and decisions and a later call goes on. This module holds the search loop;
the state is in jit_cdcl_state, propagation in jit_cdcl_propagate, analysis in jit_cdcl_learn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit.cdcl_learn import add_clause, analyze, reduce_pool
from sudokucp.backends.jit.cdcl_propagate import (
    backtrack,
    enqueue,
    propagate,
    rebuild_watches,
)
from sudokucp.backends.jit.cdcl_state import (
    DECAY,
    FIRST_REDUCE,
    GROW,
    K_OVERFLOW,
    MARGIN,
    NO_REASON,
    PHASE_TARGET,
    PHASE_TRUE,
    Q_ARENA,
    Q_CKIND,
    Q_CONFLICTS,
    Q_DECISIONS,
    Q_FOUND,
    Q_GLUCOSE,
    Q_HEAD,
    Q_HEAPN,
    Q_KEEP,
    Q_LBD_SUM,
    Q_LEARNED,
    Q_LEVEL,
    Q_LIMIT,
    Q_LUBY,
    Q_LUBY_UNIT,
    Q_MINIMIZE,
    Q_NCL,
    Q_NEXT_REDUCE,
    Q_NEXT_RESTART,
    Q_NODES,
    Q_PHASE,
    Q_PLACED,
    Q_POLARITY,
    Q_POOL,
    Q_PROBE,
    Q_PROBED,
    Q_RECENT,
    Q_REDUCES,
    Q_RESTART_AT,
    Q_RESTARTS,
    Q_STORED,
    Q_TARGET,
    Q_TRAIL,
    RECENT,
    REDUCE_STEP,
    V_HEAP,
    V_HPOS,
    V_OUT,
    V_PHASE,
    V_SEEN,
    V_TARGET,
    V_TRAIL,
    V_VAL,
    grow,
    heap_pop,
    internal,
    luby,
    state,
)
from sudokucp.backends.jit.layout import BUDGET, EXHAUSTED, FULL_BUFFER, LIMIT

ROOT = np.int64(0)  # level 0, typed: a literal argument compiles a callee once more
DECIDED = np.int64(NO_REASON)  # the reason of a decision or a root fact, typed likewise

__all__ = ["BUDGET", "EXHAUSTED", "GROW", "LIMIT", "Q_MINIMIZE", "Q_PROBED", "grow", "run", "state"]


# --- the search ----------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def reset(iv, act, cells, uds, lists, n):
    """The arrays of a fresh search: nothing assigned, every candidate open, no watch lists
    (loops: a slice assignment lowers to much more code)."""
    full = (1 << n) - 1
    for v in range(iv.shape[1]):
        iv[V_VAL, v] = -1
        iv[V_PHASE, v] = 1
        iv[V_HPOS, v] = -1
        iv[V_SEEN, v] = 0
        iv[V_TARGET, v] = -1
    for v in range(act.shape[0]):
        act[v] = 0.0
    for c in range(cells.shape[1]):
        cells[0, c] = full
        cells[1, c] = -1
    for ud in range(uds.shape[1]):
        uds[0, ud] = full
        uds[1, ud] = -1
    for row in range(lists.shape[0]):
        for lit in range(lists.shape[1]):
            lists[row, lit] = 0


@internal
def begin(grid, units, peers, cunits, cpos, iv, act, cells, uds, lims, pool, meta, watch, lists,
          regs, fregs, n):
    """Load the givens at level 0 and propagate; False when they contradict each other."""
    reset(iv, act, cells, uds, lists, n)
    fregs[0] = 1.0
    fregs[1] = 0.0
    for name in (Q_HEAD, Q_TRAIL, Q_LEVEL, Q_PLACED, Q_HEAPN, Q_NCL, Q_POOL, Q_CONFLICTS,
                 Q_DECISIONS, Q_RESTARTS, Q_FOUND, Q_STORED, Q_LUBY, Q_LEARNED, Q_NODES,
                 Q_REDUCES, Q_ARENA, Q_RECENT, Q_LBD_SUM, Q_RESTART_AT, Q_TARGET):
        regs[name] = 0
    regs[Q_NEXT_RESTART] = regs[Q_LUBY_UNIT]
    regs[Q_NEXT_REDUCE] = FIRST_REDUCE
    regs[Q_PHASE] = 1
    for v in range(n * n * n):  # every activity is 0: the heap in the variables' order
        iv[V_HEAP, v] = v
        iv[V_HPOS, v] = v
    regs[Q_HEAPN] = n * n * n
    for c in range(n * n):
        if grid[c]:
            w = c * n + grid[c] - 1
            if iv[V_VAL, w] == 0:
                return False
            if iv[V_VAL, w] < 0:
                enqueue(2 * w, DECIDED, iv, cells, uds, cunits, cpos, regs, n)
                if propagate(iv, cells, uds, units, peers, cunits, cpos, pool, meta, watch, lists,
                             regs, n):
                    return False
    return not propagate(iv, cells, uds, units, peers, cunits, cpos, pool, meta, watch, lists,
                         regs, n)


@internal
def probe(iv, act, cells, uds, units, peers, cunits, cpos, lims, pool, meta, watch, lists, regs,
          n):
    """Failed literals at the root: a digit whose placement propagates to a conflict is struck
    (it holds in no solution), pass after pass until none fails; False when the root fails."""
    changed = True
    while changed:
        changed = False
        for v in range(n * n * n):
            if iv[V_VAL, v] >= 0:
                continue
            lims[0] = regs[Q_TRAIL]
            regs[Q_LEVEL] = 1
            enqueue(2 * v, DECIDED, iv, cells, uds, cunits, cpos, regs, n)
            failed = propagate(iv, cells, uds, units, peers, cunits, cpos, pool, meta, watch,
                               lists, regs, n)
            backtrack(ROOT, iv, act, cells, uds, cunits, cpos, lims, regs, n)
            if failed:
                regs[Q_PROBED] += 1
                changed = True
                enqueue(2 * v + 1, DECIDED, iv, cells, uds, cunits, cpos, regs, n)
                if propagate(iv, cells, uds, units, peers, cunits, cpos, pool, meta, watch, lists,
                             regs, n):
                    return False
    iv[V_PHASE, :] = 1
    return True


@njit(cache=True, inline="always")
def start(grid, units, peers, cunits, cpos, iv, act, cells, uds, lims, pool, meta, watch, lists,
          regs, fregs, n):
    """begin(), then the failed literals when asked (Q_PROBE); False when the root fails."""
    if not begin(grid, units, peers, cunits, cpos, iv, act, cells, uds, lims, pool, meta, watch,
                 lists, regs, fregs, n):
        return False
    return not regs[Q_PROBE] or probe(iv, act, cells, uds, units, peers, cunits, cpos, lims, pool,
                                      meta, watch, lists, regs, n)


@njit(cache=True, inline="always")
def store(cells, sols, regs):
    """Count a solution and write it to the buffer if it has room."""
    regs[Q_FOUND] += 1
    if regs[Q_STORED] < sols.shape[0]:
        row = sols[regs[Q_STORED]]
        for c in range(cells.shape[1]):
            row[c] = cells[1, c] + 1
        regs[Q_STORED] += 1


@internal
def block(iv, act, cells, uds, cunits, cpos, lims, pool, meta, watch, lists, regs, n):
    """Back to level 0 and forbid the solution just found; False when no other can exist."""
    out = iv[V_OUT]
    for c in range(n * n):
        out[c] = 2 * (c * n + cells[1, c]) + 1
    backtrack(ROOT, iv, act, cells, uds, cunits, cpos, lims, regs, n)
    kept = np.int64(0)  # typed: a literal would compile add_clause once more
    for t in range(n * n):
        if iv[V_VAL, out[t] >> 1] < 0:  # unassigned
            out[kept] = out[t]
            kept += 1
    if kept == 0:
        return False
    if kept == 1:
        enqueue(out[0], DECIDED, iv, cells, uds, cunits, cpos, regs, n)
        return True
    if add_clause(out, kept, np.int64(0), pool, meta, watch, lists, regs) == -2:
        rebuild_watches(pool, meta, watch, lists, regs)
    return True


@njit(cache=True, inline="always")
def restart_due(regs, fregs, recent):
    """Luby: the conflicts of this run reached its cut-off; Glucose: the recent clauses' LBD is
    well above the average of all."""
    if not regs[Q_GLUCOSE]:
        return regs[Q_CONFLICTS] >= regs[Q_NEXT_RESTART]
    if regs[Q_CONFLICTS] - regs[Q_RESTART_AT] < RECENT:
        return False
    return regs[Q_LBD_SUM] * MARGIN * regs[Q_CONFLICTS] > fregs[1] * RECENT


@njit(cache=True, inline="always")
def learn(lbd, regs, fregs, recent):
    """Record a learned clause's LBD in the overall and the recent sums."""
    fregs[1] += lbd
    slot = regs[Q_CONFLICTS] % RECENT
    regs[Q_LBD_SUM] += lbd - recent[slot]
    recent[slot] = lbd


@njit(cache=True, inline="always")
def keep_target(iv, lims, regs):
    """On a conflict: the trail below the conflict's level, when longer than the target's, is
    the new target assignment (CaDiCaL's target phases)."""
    free = lims[regs[Q_LEVEL] - 1]
    if free > regs[Q_TARGET]:
        for t in range(free):
            lit = iv[V_TRAIL, t]
            iv[V_TARGET, lit >> 1] = 1 - (lit & 1)
        regs[Q_TARGET] = free


@njit(cache=True, inline="always")
def phase(iv, regs, v):
    """The value a decision gives v: true (place the digit), the saved one, or the target's."""
    mode = regs[Q_POLARITY]
    if mode == PHASE_TRUE:
        return 1
    if mode == PHASE_TARGET and iv[V_TARGET, v] >= 0:
        return iv[V_TARGET, v]
    return iv[V_PHASE, v]


@njit(cache=True, _nrt=False)
def run(grid, s, budget):
    """Search on from the registers for at most `budget` conflicts and decisions (< 0: no bound);
    returns EXHAUSTED, BUDGET, LIMIT or FULL_BUFFER as dfs.run does, or GROW. The steps take the
    arrays they read: a call that passes the whole state measured slower at 25x25."""
    units, peers, cunits, cpos, iv, act, cells, uds = s.units, s.peers, s.cunits, s.cpos, s.iv, \
        s.act, s.cells, s.uds
    lims, pool, meta, watch, lists, regs, fregs = s.lims, s.pool, s.meta, s.watch, s.lists, \
        s.regs, s.fregs
    recent, sols = s.recent, s.sols
    n = units.shape[1]
    if regs[Q_PHASE] == 0 and not start(grid, units, peers, cunits, cpos, iv, act, cells, uds,
                                        lims, pool, meta, watch, lists, regs, fregs, n):
        regs[Q_PHASE] = 2
    if regs[Q_PHASE] == 2:
        return EXHAUSTED
    spent = 0
    room = n * n * n  # the longest clause there can be
    while True:
        if regs[Q_POOL] + room > pool.shape[0] or regs[Q_NCL] + 2 > meta.shape[1]:
            reduce_pool(iv, pool, meta, watch, lists, regs)
            if regs[Q_POOL] + 2 * room > pool.shape[0] or 2 * regs[Q_NCL] + 2 > meta.shape[1]:
                return GROW
        if propagate(iv, cells, uds, units, peers, cunits, cpos, pool, meta, watch, lists, regs,
                     n):
            if regs[Q_CKIND] == K_OVERFLOW:  # the arena is full: lay the lists out again
                rebuild_watches(pool, meta, watch, lists, regs)
                backtrack(ROOT, iv, act, cells, uds, cunits, cpos, lims, regs, n)
                regs[Q_HEAD] = 0
                continue
            regs[Q_CONFLICTS] += 1
            spent += 1
            if regs[Q_LEVEL] == 0:
                regs[Q_PHASE] = 2
                return EXHAUSTED
            if regs[Q_POLARITY] == PHASE_TARGET:
                keep_target(iv, lims, regs)
            length, back, lbd = analyze(iv, act, fregs, units, pool, meta, regs, n)
            learn(lbd, regs, fregs, recent)
            backtrack(back, iv, act, cells, uds, cunits, cpos, lims, regs, n)
            out = iv[V_OUT]
            if length == 1:
                enqueue(out[0], DECIDED, iv, cells, uds, cunits, cpos, regs, n)
            else:
                i = add_clause(out, length, lbd, pool, meta, watch, lists, regs)
                if i == -2:  # the arena is full: lay the lists out again
                    rebuild_watches(pool, meta, watch, lists, regs)
                    i = regs[Q_NCL] - 1
                regs[Q_LEARNED] += 1
                enqueue(out[0], i, iv, cells, uds, cunits, cpos, regs, n)
            fregs[0] *= DECAY
            continue
        if regs[Q_PLACED] == n * n:
            store(cells, sols, regs)
            limit = regs[Q_LIMIT]
            if limit and regs[Q_FOUND] >= limit:
                return LIMIT
            if not block(iv, act, cells, uds, cunits, cpos, lims, pool, meta, watch, lists, regs,
                         n):
                regs[Q_PHASE] = 2
                return EXHAUSTED
            if regs[Q_KEEP] and regs[Q_STORED] == sols.shape[0]:
                return FULL_BUFFER
            continue
        if regs[Q_CONFLICTS] >= regs[Q_NEXT_REDUCE]:
            regs[Q_REDUCES] += 1
            regs[Q_NEXT_REDUCE] = regs[Q_CONFLICTS] + FIRST_REDUCE + REDUCE_STEP * regs[Q_REDUCES]
            reduce_pool(iv, pool, meta, watch, lists, regs)
        if restart_due(regs, fregs, recent) and regs[Q_LEVEL] > 0:
            backtrack(ROOT, iv, act, cells, uds, cunits, cpos, lims, regs, n)
            regs[Q_RESTARTS] += 1
            regs[Q_LUBY] += 1
            regs[Q_NEXT_RESTART] = regs[Q_CONFLICTS] + regs[Q_LUBY_UNIT] * luby(regs[Q_LUBY])
            regs[Q_RESTART_AT] = regs[Q_CONFLICTS]
            continue
        if 0 <= budget <= spent:
            return BUDGET
        v = -1
        while regs[Q_HEAPN] > 0:
            v = heap_pop(iv, act, regs)
            if iv[V_VAL, v] < 0:
                break
            v = -1
        if v < 0:
            return EXHAUSTED  # cannot happen: a grid with every cell placed is caught above
        spent += 1
        regs[Q_DECISIONS] += 1
        lims[regs[Q_LEVEL]] = regs[Q_TRAIL]
        regs[Q_LEVEL] += 1
        lit = 2 * v + 1 - phase(iv, regs, v)
        enqueue(lit, DECIDED, iv, cells, uds, cunits, cpos, regs, n)
