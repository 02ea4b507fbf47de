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
rest are dropped. Decisions follow VSIDS activities and place a digit (positive phase) or follow
the saved phase; restarts follow the Luby sequence or Glucose's LBD average; the pool keeps the
clauses of lowest LBD when it is cut, every few thousand conflicts.

The search is resumable: its whole state lives in the arrays of `state`, so `run` stops after
`budget` conflicts and decisions and a later call goes on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit_kernel import low_index

# rows of `iv`, the per-variable arrays
V_VAL, V_LEVEL, V_REASON, V_PHASE, V_HPOS, V_SEEN, V_TRAIL, V_HEAP, V_TMP, V_OUT = range(10)
IV_ROWS = 10
# regs
(Q_HEAD, Q_TRAIL, Q_LEVEL, Q_PLACED, Q_HEAPN, Q_NCL, Q_POOL, Q_CONFLICTS, Q_DECISIONS,
 Q_RESTARTS, Q_PHASE, Q_FOUND, Q_STORED, Q_CKIND, Q_CA, Q_CB, Q_NEXT_RESTART, Q_LUBY,
 Q_NEXT_REDUCE, Q_REDUCES, Q_LEARNED, Q_NODES, Q_LIMIT, Q_KEEP, Q_POSITIVE, Q_GLUCOSE,
 Q_ARENA, Q_RECENT, Q_LBD_SUM, Q_RESTART_AT) = range(30)
QREGS = 30
# conflict kinds and reason kinds (a reason >= 0 is a pool clause; below, -2 - (payload*3 + kind))
K_CELL, K_UNIT, K_BIN, K_POOL, K_OVERFLOW = range(5)
NO_REASON = -1
# what run() returns (as jit_kernel)
EXHAUSTED, BUDGET, LIMIT, FULL_BUFFER = range(4)
GROW = 4  # the pool is full of clauses it may not drop: the caller enlarges it (see grow)
LUBY_UNIT = 100  # conflicts per unit of the Luby sequence
RECENT = 50  # Glucose: conflicts in the recent LBD average
MARGIN = 0.8  # Glucose: restart when recent average * MARGIN > overall average
FIRST_REDUCE, REDUCE_STEP = 2000, 300  # conflicts before the first cut of the pool, then more
DECAY = 1 / 0.95


def state(n: int, limit: int, keep: int, capacity: int) -> tuple[np.ndarray, ...]:
    """Fresh arrays for one search: iv, act, cells, uds, lims, pool, meta, watch, lists, regs,
    fregs, recent, sols (the solution buffer of `capacity` grids)."""
    cells = n * n
    nv = cells * n
    pool = min(1 << 21, max(1 << 14, 64 * nv))
    clauses = pool // 8
    regs = np.zeros(QREGS, np.int64)
    regs[Q_LIMIT], regs[Q_KEEP] = limit, keep
    return (np.zeros((IV_ROWS, nv), np.int64), np.zeros(nv, np.float64),
            np.zeros((2, cells), np.int64), np.zeros((2, 3 * cells), np.int64),
            np.zeros(nv + 1, np.int64), np.zeros(pool, np.int32),
            np.zeros((3, clauses), np.int64), np.zeros((2, 8 * clauses), np.int32),
            np.zeros((3, 2 * nv), np.int64), regs, np.ones(2, np.float64),
            np.zeros(RECENT, np.int64), np.zeros((capacity, cells), np.int64))


def grow(arrays: list[np.ndarray]) -> None:
    """Double the clause pool, its table and the watch arena of a state, in place in the list."""
    for at in (5, 6, 7):
        old = arrays[at]
        new = np.zeros((*old.shape[:-1], 2 * old.shape[-1]), old.dtype)
        new[..., :old.shape[-1]] = old
        arrays[at] = new


def positions(units: np.ndarray, cunits: np.ndarray) -> np.ndarray:
    """cpos[c, k]: the place of cell c in its k-th unit (row, column, box)."""
    cpos = np.zeros(cunits.shape, np.int64)
    for u in range(units.shape[0]):
        for p, cell in enumerate(units[u]):
            cpos[cell, int(np.nonzero(cunits[cell] == u)[0][0])] = p
    return cpos


# --- the heap of variables by activity -----------------------------------------------------------

@njit(cache=True)
def heap_up(iv, act, i):
    heap, hpos = iv[V_HEAP], iv[V_HPOS]
    v = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        if act[heap[parent]] >= act[v]:
            break
        heap[i] = heap[parent]
        hpos[heap[i]] = i
        i = parent
    heap[i] = v
    hpos[v] = i


@njit(cache=True)
def heap_down(iv, act, i, size):
    heap, hpos = iv[V_HEAP], iv[V_HPOS]
    v = heap[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and act[heap[child + 1]] > act[heap[child]]:
            child += 1
        if act[heap[child]] <= act[v]:
            break
        heap[i] = heap[child]
        hpos[heap[i]] = i
        i = child
    heap[i] = v
    hpos[v] = i


@njit(cache=True)
def heap_insert(iv, act, regs, v):
    if iv[V_HPOS, v] >= 0:
        return
    i = regs[Q_HEAPN]
    regs[Q_HEAPN] += 1
    iv[V_HEAP, i] = v
    iv[V_HPOS, v] = i
    heap_up(iv, act, i)


@njit(cache=True)
def heap_pop(iv, act, regs):
    heap = iv[V_HEAP]
    v = heap[0]
    regs[Q_HEAPN] -= 1
    size = regs[Q_HEAPN]
    iv[V_HPOS, v] = -1
    if size > 0:
        heap[0] = heap[size]
        iv[V_HPOS, heap[0]] = 0
        heap_down(iv, act, 0, size)
    return v


@njit(cache=True)
def bump(iv, act, fregs, v):
    """VSIDS: raise a variable's activity, rescaling all when it grows too large."""
    act[v] += fregs[0]
    if act[v] > 1e100:
        for w in range(act.shape[0]):
            act[w] *= 1e-100
        fregs[0] *= 1e-100
    if iv[V_HPOS, v] >= 0:
        heap_up(iv, act, iv[V_HPOS, v])


# --- assigning -----------------------------------------------------------------------------------

@njit(cache=True)
def value(iv, lit):
    """1 when the literal is true, 0 when false, -1 when its variable is unassigned."""
    x = iv[V_VAL, lit >> 1]
    if x < 0:
        return -1
    return x ^ (lit & 1)


@njit(cache=True)
def put(lit, reason, level, tail, iv, cells, uds, cunits, cpos, n):
    """Assign a literal at trail position `tail` and keep the masks in step; 1 for a placement."""
    v = lit >> 1
    positive = 1 - (lit & 1)
    iv[V_VAL, v] = positive
    iv[V_LEVEL, v] = level
    iv[V_REASON, v] = reason
    iv[V_TRAIL, tail] = lit
    c = v // n
    d = v - c * n
    if positive:
        cells[1, c] = d
        for k in range(3):
            uds[1, cunits[c, k] * n + d] = cpos[c, k]
    else:
        cells[0, c] &= ~(1 << d)
        for k in range(3):
            uds[0, cunits[c, k] * n + d] &= ~(1 << cpos[c, k])
    return positive


@njit(cache=True)
def enqueue(lit, reason, iv, cells, uds, cunits, cpos, regs, n):
    """Assign a literal at the current level, at the end of the trail."""
    placed = put(lit, reason, regs[Q_LEVEL], regs[Q_TRAIL], iv, cells, uds, cunits, cpos, n)
    regs[Q_TRAIL] += 1
    regs[Q_PLACED] += placed
    regs[Q_NODES] += placed


@njit(cache=True)
def backtrack(level, iv, act, cells, uds, cunits, cpos, lims, regs, n):
    """Undo every assignment above `level`, saving phases and returning variables to the heap."""
    if regs[Q_LEVEL] <= level:
        return
    stop = lims[level]
    for t in range(regs[Q_TRAIL] - 1, stop - 1, -1):
        lit = iv[V_TRAIL, t]
        v = lit >> 1
        c = v // n
        d = v - c * n
        if lit & 1:
            cells[0, c] |= 1 << d
            for k in range(3):
                uds[0, cunits[c, k] * n + d] |= 1 << cpos[c, k]
        else:
            cells[1, c] = -1
            regs[Q_PLACED] -= 1
            for k in range(3):
                uds[1, cunits[c, k] * n + d] = -1
        iv[V_PHASE, v] = iv[V_VAL, v]
        iv[V_VAL, v] = -1
        heap_insert(iv, act, regs, v)
    regs[Q_TRAIL] = stop
    regs[Q_HEAD] = stop
    regs[Q_LEVEL] = level


@njit(cache=True)
def conflict(regs, kind, a, b):
    regs[Q_CKIND], regs[Q_CA], regs[Q_CB] = kind, a, b
    return True


@njit(cache=True)
def add_watch(lit, clause, blocker, watch, lists, regs):
    """Append (clause, blocker) to the list of `lit`, moving the list to the arena's end when it
    is full; False when the arena has no room left."""
    start, length, cap = lists[0, lit], lists[1, lit], lists[2, lit]
    if length == cap:
        new_cap = max(4, 2 * cap)
        top = regs[Q_ARENA]
        if top + new_cap > watch.shape[1]:
            return False
        for t in range(length):
            watch[0, top + t] = watch[0, start + t]
            watch[1, top + t] = watch[1, start + t]
        start = top
        lists[0, lit], lists[2, lit] = top, new_cap
        regs[Q_ARENA] = top + new_cap
    watch[0, start + length] = clause
    watch[1, start + length] = blocker
    lists[1, lit] = length + 1
    return True


@njit(cache=True)
def rebuild_watches(pool, meta, watch, lists, regs):
    """Lay the watch lists out afresh, contiguous, from the first two literals of each clause."""
    lists[1, :] = 0
    for i in range(regs[Q_NCL]):
        start = meta[0, i]
        lists[1, pool[start]] += 1
        lists[1, pool[start + 1]] += 1
    top = 0
    for lit in range(lists.shape[1]):
        lists[0, lit] = top
        lists[2, lit] = 2 * lists[1, lit]
        top += lists[2, lit]
        lists[1, lit] = 0
    regs[Q_ARENA] = top
    for i in range(regs[Q_NCL]):
        start = meta[0, i]
        for k in range(2):
            lit = pool[start + k]
            at = lists[0, lit] + lists[1, lit]
            watch[0, at] = i
            watch[1, at] = pool[start + 1 - k]
            lists[1, lit] += 1


@njit(cache=True)
def propagate(iv, cells, uds, units, peers, cunits, cpos, pool, meta, watch, lists, regs, n):
    """Unit propagation over the structure and the watched clauses; True on a conflict (kept in
    regs as kind and payload). The trail's head and tail live in locals until it returns."""
    head, tail, level = regs[Q_HEAD], regs[Q_TRAIL], regs[Q_LEVEL]
    placed = 0
    failed = False
    while head < tail and not failed:
        lit = iv[V_TRAIL, head]
        head += 1
        v = lit >> 1
        c = v // n
        d = v - c * n
        if not lit & 1:  # c holds d: at most one digit per cell, one place per unit
            m = cells[0, c] & ~(1 << d)
            while m and not failed:
                w = c * n + low_index(m)
                m &= m - 1
                if iv[V_VAL, w] < 0:
                    placed += put(2 * w + 1, -2 - (v * 3 + K_BIN), level, tail, iv, cells, uds,
                                  cunits, cpos, n)
                    tail += 1
                elif iv[V_VAL, w] == 1:
                    failed = conflict(regs, K_BIN, v, w)
            for k in range(3):  # the places d still has in the cell's units
                if failed:
                    break
                u = cunits[c, k]
                m = uds[0, u * n + d] & ~(1 << cpos[c, k])
                while m:
                    w = units[u, low_index(m)] * n + d
                    m &= m - 1
                    if iv[V_VAL, w] < 0:
                        placed += put(2 * w + 1, -2 - (v * 3 + K_BIN), level, tail, iv, cells,
                                      uds, cunits, cpos, n)
                        tail += 1
                    elif iv[V_VAL, w] == 1:
                        failed = conflict(regs, K_BIN, v, w)
                        break
            false_lit = 2 * v + 1
        else:  # c lost d: at least one digit per cell, one place per unit-digit
            if cells[1, c] < 0:
                m = cells[0, c]
                if m == 0:
                    failed = conflict(regs, K_CELL, c, 0)
                elif not m & (m - 1):
                    w = c * n + low_index(m)
                    if iv[V_VAL, w] < 0:
                        placed += put(2 * w, -2 - (c * 3 + K_CELL), level, tail, iv, cells, uds,
                                      cunits, cpos, n)
                        tail += 1
            for k in range(3):
                if failed:
                    break
                ud = cunits[c, k] * n + d
                if uds[1, ud] < 0:
                    m = uds[0, ud]
                    if m == 0:
                        failed = conflict(regs, K_UNIT, ud, 0)
                    elif not m & (m - 1):
                        w = units[cunits[c, k], low_index(m)] * n + d
                        if iv[V_VAL, w] < 0:
                            placed += put(2 * w, -2 - (ud * 3 + K_UNIT), level, tail, iv, cells,
                                          uds, cunits, cpos, n)
                            tail += 1
            false_lit = 2 * v
        if not failed:
            tail, more = watched(false_lit, level, tail, iv, cells, uds, cunits, cpos, pool, meta,
                                 watch, lists, regs, n)
            if tail < 0:
                tail = -1 - tail
                failed = True
            placed += more
    regs[Q_HEAD], regs[Q_TRAIL] = head, tail
    regs[Q_PLACED] += placed
    regs[Q_NODES] += placed
    return failed


@njit(cache=True)
def watched(false_lit, level, tail, iv, cells, uds, cunits, cpos, pool, meta, watch, lists, regs,
            n):
    """Visit the clauses watching a literal that just became false; returns the trail's new
    tail (-1 - tail on a conflict) and the placements made."""
    base = lists[0, false_lit]
    size = lists[1, false_lit]
    placed = 0
    i = 0
    j = 0
    while i < size:
        ci = watch[0, base + i]
        blocker = watch[1, base + i]
        i += 1
        if value(iv, blocker) == 1:
            watch[0, base + j], watch[1, base + j] = ci, blocker
            j += 1
            continue
        start = meta[0, ci]
        if pool[start] == false_lit:  # keep the false literal second
            pool[start] = pool[start + 1]
            pool[start + 1] = false_lit
        first = pool[start]
        if first != blocker and value(iv, first) == 1:
            watch[0, base + j], watch[1, base + j] = ci, first
            j += 1
            continue
        moved = False
        for t in range(2, meta[1, ci]):
            q = pool[start + t]
            if value(iv, q) != 0:
                if not add_watch(q, ci, first, watch, lists, regs):
                    conflict(regs, K_OVERFLOW, 0, 0)  # the lists are laid out again
                    return -1 - tail, placed
                pool[start + 1] = q
                pool[start + t] = false_lit
                moved = True
                break
        if moved:
            continue
        watch[0, base + j], watch[1, base + j] = ci, first
        j += 1
        if value(iv, first) == 0:
            while i < size:
                watch[0, base + j], watch[1, base + j] = watch[0, base + i], watch[1, base + i]
                i += 1
                j += 1
            lists[1, false_lit] = j
            conflict(regs, K_POOL, ci, 0)
            return -1 - tail, placed
        placed += put(first, ci, level, tail, iv, cells, uds, cunits, cpos, n)
        tail += 1
    lists[1, false_lit] = j
    return tail, placed


# --- learning ------------------------------------------------------------------------------------

@njit(cache=True)
def clause_of(kind, a, b, units, pool, meta, out, n):
    """Write the literals of a structural or pooled clause to `out`; returns its length."""
    if kind == K_CELL:
        for d in range(n):
            out[d] = 2 * (a * n + d)
        return n
    if kind == K_UNIT:
        u = a // n
        d = a - u * n
        for p in range(n):
            out[p] = 2 * (units[u, p] * n + d)
        return n
    if kind == K_BIN:
        out[0] = 2 * a + 1
        out[1] = 2 * b + 1
        return 2
    start = meta[0, a]
    for t in range(meta[1, a]):
        out[t] = pool[start + t]
    return meta[1, a]


@njit(cache=True)
def reason_of(v, iv, units, pool, meta, out, n):
    """The clause that implied variable v (which must not be a decision), into `out`."""
    r = iv[V_REASON, v]
    if r >= 0:
        return clause_of(K_POOL, r, 0, units, pool, meta, out, n)
    t = -2 - r
    kind = t % 3
    return clause_of(kind, t // 3, v, units, pool, meta, out, n)


@njit(cache=True)
def analyze(iv, act, fregs, units, pool, meta, regs, n):
    """First-UIP analysis of the conflict in regs: the learned clause goes to iv[V_OUT] (asserting
    literal first, then one of the highest level); returns (length, backjump level, LBD)."""
    tmp, out, seen = iv[V_TMP], iv[V_OUT], iv[V_SEEN]
    level, lvl = iv[V_LEVEL], regs[Q_LEVEL]
    size = clause_of(regs[Q_CKIND], regs[Q_CA], regs[Q_CB], units, pool, meta, tmp, n)
    path = 0
    length = 1
    idx = regs[Q_TRAIL] - 1
    p = -1
    while True:
        for t in range(size):
            q = tmp[t]
            v = q >> 1
            if p >= 0 and v == p >> 1:
                continue
            if not seen[v] and level[v] > 0:
                seen[v] = 1
                bump(iv, act, fregs, v)
                if level[v] >= lvl:
                    path += 1
                else:
                    out[length] = q
                    length += 1
        while not seen[iv[V_TRAIL, idx] >> 1]:
            idx -= 1
        p = iv[V_TRAIL, idx]
        idx -= 1
        seen[p >> 1] = 0
        path -= 1
        if path <= 0:
            break
        size = reason_of(p >> 1, iv, units, pool, meta, tmp, n)
    out[0] = p ^ 1
    for t in range(1, length):  # a digit struck by a placement: name the placement instead
        q = out[t]
        r = iv[V_REASON, q >> 1]
        if q & 1 or r >= 0 or r == NO_REASON or (-2 - r) % 3 != K_BIN:
            continue
        w = (-2 - r) // 3
        seen[q >> 1] = 0
        if seen[w] or level[w] == 0:
            out[t] = -1  # the placement is named already (or holds at level 0)
        else:
            seen[w] = 1
            out[t] = 2 * w + 1
    kept = 1
    for t in range(1, length):
        if out[t] >= 0:
            out[kept] = out[t]
            kept += 1
    length = kept
    for t in range(1, length):  # drop literals implied by others of the clause (local minimising)
        v = out[t] >> 1
        if iv[V_REASON, v] == NO_REASON:
            continue
        size = reason_of(v, iv, units, pool, meta, tmp, n)
        redundant = True
        for j in range(size):
            w = tmp[j] >> 1
            if w != v and not seen[w] and level[w] > 0:
                redundant = False
                break
        if redundant:
            out[t] = -1 - out[t]
    kept = 1
    for t in range(1, length):
        q = out[t]
        seen[(q if q >= 0 else -1 - q) >> 1] = 0
        if q >= 0:
            out[kept] = q
            kept += 1
    length = kept
    back = 0
    if length > 1:
        best = 1
        for t in range(2, length):
            if level[out[t] >> 1] > level[out[best] >> 1]:
                best = t
        out[1], out[best] = out[best], out[1]
        back = level[out[1] >> 1]
    return length, back, count_levels(out, length, level)


@njit(cache=True)
def count_levels(out, length, level):
    """Number of distinct decision levels among the clause's literals (its LBD)."""
    total = 0
    for t in range(length):
        lv = level[out[t] >> 1]
        fresh = True
        for j in range(t):
            if level[out[j] >> 1] == lv:
                fresh = False
                break
        if fresh:
            total += 1
        if total > 30:
            break
    return total


@njit(cache=True)
def add_clause(lits, length, lbd, pool, meta, watch, lists, regs):
    """Store a clause (run() keeps room for one), its first two literals watched; -2 when the
    watch arena is full (the caller lays the lists out again)."""
    i = regs[Q_NCL]
    start = regs[Q_POOL]
    for t in range(length):
        pool[start + t] = lits[t]
    meta[0, i], meta[1, i], meta[2, i] = start, length, lbd
    regs[Q_NCL] += 1
    regs[Q_POOL] += length
    if not (add_watch(lits[0], i, lits[1], watch, lists, regs)
            and add_watch(lits[1], i, lits[0], watch, lists, regs)):
        return -2
    return i


@njit(cache=True)
def reduce_pool(iv, pool, meta, watch, lists, regs):
    """Keep the clauses of LBD <= 2 (blocking ones: 0), the reasons of assignments and the better
    half of the rest (by LBD, newer first); compact, renumber the reasons, rebuild the watches."""
    count = regs[Q_NCL]
    keys = np.empty(count, np.int64)
    for i in range(count):
        keys[i] = meta[2, i] * (count + 1) + (count - i)
    order = np.argsort(keys)
    keep = np.zeros(count, np.bool_)
    for j in range(count):
        i = order[j]
        keep[i] = meta[2, i] <= 2 or j < count // 2
    for t in range(regs[Q_TRAIL]):
        r = iv[V_REASON, iv[V_TRAIL, t] >> 1]
        if r >= 0:
            keep[r] = True
    renumber = np.full(count, -1, np.int64)
    at = 0
    kept = 0
    for i in range(count):
        if not keep[i]:
            continue
        start, length, lbd = meta[0, i], meta[1, i], meta[2, i]
        for t in range(length):
            pool[at + t] = pool[start + t]
        meta[0, kept], meta[1, kept], meta[2, kept] = at, length, lbd
        renumber[i] = kept
        at += length
        kept += 1
    for t in range(regs[Q_TRAIL]):
        v = iv[V_TRAIL, t] >> 1
        if iv[V_REASON, v] >= 0:
            iv[V_REASON, v] = renumber[iv[V_REASON, v]]
    regs[Q_NCL] = kept
    regs[Q_POOL] = at
    rebuild_watches(pool, meta, watch, lists, regs)


@njit(cache=True)
def luby(i):
    """The i-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 ..."""
    size = 1
    seq = 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return 1 << seq


# --- the search ----------------------------------------------------------------------------------

@njit(cache=True)
def begin(grid, masks, units, peers, cunits, cpos, iv, act, cells, uds, lims, pool, meta, watch,
          lists, regs, fregs, n):
    """Load the givens at level 0, strike the digits outside `masks` (what a stronger propagation
    found at the root), and propagate; False when they contradict each other."""
    iv[V_VAL, :] = -1
    iv[V_PHASE, :] = 1
    iv[V_HPOS, :] = -1
    iv[V_SEEN, :] = 0
    cells[0, :] = (1 << n) - 1
    cells[1, :] = -1
    uds[0, :] = (1 << n) - 1
    uds[1, :] = -1
    lists[:, :] = 0
    act[:] = 0.0
    fregs[0] = 1.0
    fregs[1] = 0.0
    for name in (Q_HEAD, Q_TRAIL, Q_LEVEL, Q_PLACED, Q_HEAPN, Q_NCL, Q_POOL, Q_CONFLICTS,
                 Q_DECISIONS, Q_RESTARTS, Q_FOUND, Q_STORED, Q_LUBY, Q_LEARNED, Q_NODES,
                 Q_REDUCES, Q_ARENA, Q_RECENT, Q_LBD_SUM, Q_RESTART_AT):
        regs[name] = 0
    regs[Q_NEXT_RESTART] = LUBY_UNIT
    regs[Q_NEXT_REDUCE] = FIRST_REDUCE
    regs[Q_PHASE] = 1
    for v in range(n * n * n):
        heap_insert(iv, act, regs, v)
    for c in range(n * n):
        if grid[c]:
            w = c * n + grid[c] - 1
            if iv[V_VAL, w] == 0:
                return False
            if iv[V_VAL, w] < 0:
                enqueue(2 * w, NO_REASON, iv, cells, uds, cunits, cpos, regs, n)
                if propagate(iv, cells, uds, units, peers, cunits, cpos, pool, meta, watch, lists,
                             regs, n):
                    return False
    for c in range(n * n):
        gone = ~masks[c] & ((1 << n) - 1)
        while gone:
            w = c * n + low_index(gone)
            gone &= gone - 1
            if iv[V_VAL, w] == 1:
                return False
            if iv[V_VAL, w] < 0:
                enqueue(2 * w + 1, NO_REASON, iv, cells, uds, cunits, cpos, regs, n)
    return not propagate(iv, cells, uds, units, peers, cunits, cpos, pool, meta, watch, lists,
                         regs, n)


@njit(cache=True)
def store(cells, sols, regs):
    """Count a solution and write it to the buffer if it has room."""
    regs[Q_FOUND] += 1
    if regs[Q_STORED] < sols.shape[0]:
        row = sols[regs[Q_STORED]]
        for c in range(cells.shape[1]):
            row[c] = cells[1, c] + 1
        regs[Q_STORED] += 1


@njit(cache=True)
def block(iv, act, cells, uds, cunits, cpos, lims, pool, meta, watch, lists, regs, n):
    """Back to level 0 and forbid the solution just found; False when no other can exist."""
    out = iv[V_OUT]
    for c in range(n * n):
        out[c] = 2 * (c * n + cells[1, c]) + 1
    backtrack(0, iv, act, cells, uds, cunits, cpos, lims, regs, n)
    kept = 0
    for t in range(n * n):
        if value(iv, out[t]) < 0:
            out[kept] = out[t]
            kept += 1
    if kept == 0:
        return False
    if kept == 1:
        enqueue(out[0], NO_REASON, iv, cells, uds, cunits, cpos, regs, n)
        return True
    if add_clause(out, kept, 0, pool, meta, watch, lists, regs) == -2:
        rebuild_watches(pool, meta, watch, lists, regs)
    return True


@njit(cache=True)
def restart_due(regs, fregs, recent):
    """Luby: the conflicts of this run reached its cut-off; Glucose: the recent clauses' LBD is
    well above the average of all."""
    if not regs[Q_GLUCOSE]:
        return regs[Q_CONFLICTS] >= regs[Q_NEXT_RESTART]
    if regs[Q_CONFLICTS] - regs[Q_RESTART_AT] < RECENT:
        return False
    return regs[Q_LBD_SUM] * MARGIN * regs[Q_CONFLICTS] > fregs[1] * RECENT


@njit(cache=True)
def learn(lbd, regs, fregs, recent):
    """Record a learned clause's LBD in the overall and the recent sums."""
    fregs[1] += lbd
    slot = regs[Q_CONFLICTS] % RECENT
    regs[Q_LBD_SUM] += lbd - recent[slot]
    recent[slot] = lbd


@njit(cache=True)
def run(grid, masks, units, peers, cunits, cpos, iv, act, cells, uds, lims, pool, meta, watch,
        lists, regs, fregs, recent, sols, budget):
    """Search on from the registers for at most `budget` conflicts and decisions (< 0: no bound);
    returns EXHAUSTED, BUDGET, LIMIT or FULL_BUFFER as jit_kernel.run does, or GROW."""
    n = units.shape[1]
    if regs[Q_PHASE] == 0 and not begin(grid, masks, units, peers, cunits, cpos, iv, act, cells,
                                        uds, lims, pool, meta, watch, lists, regs, fregs, n):
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
                backtrack(0, iv, act, cells, uds, cunits, cpos, lims, regs, n)
                regs[Q_HEAD] = 0
                continue
            regs[Q_CONFLICTS] += 1
            spent += 1
            if regs[Q_LEVEL] == 0:
                regs[Q_PHASE] = 2
                return EXHAUSTED
            length, back, lbd = analyze(iv, act, fregs, units, pool, meta, regs, n)
            learn(lbd, regs, fregs, recent)
            backtrack(back, iv, act, cells, uds, cunits, cpos, lims, regs, n)
            out = iv[V_OUT]
            if length == 1:
                enqueue(out[0], NO_REASON, iv, cells, uds, cunits, cpos, regs, n)
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
            backtrack(0, iv, act, cells, uds, cunits, cpos, lims, regs, n)
            regs[Q_RESTARTS] += 1
            regs[Q_LUBY] += 1
            regs[Q_NEXT_RESTART] = regs[Q_CONFLICTS] + LUBY_UNIT * luby(regs[Q_LUBY])
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
        lit = 2 * v if regs[Q_POSITIVE] or iv[V_PHASE, v] == 1 else 2 * v + 1
        enqueue(lit, NO_REASON, iv, cells, uds, cunits, cpos, regs, n)
