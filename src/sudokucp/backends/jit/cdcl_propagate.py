"""Assigning, undoing and unit propagation of the `jit` clause-learning search: the candidate masks
of cells and unit-digits stand for the exactly-one constraints; learned clauses are watched."""

from __future__ import annotations

from numba import njit

from sudokucp.backends.jit.bits import low_index
from sudokucp.backends.jit.cdcl_state import (
    K_BIN,
    K_CELL,
    K_OVERFLOW,
    K_POOL,
    K_UNIT,
    Q_ARENA,
    Q_CA,
    Q_CB,
    Q_CKIND,
    Q_HEAD,
    Q_LEVEL,
    Q_NCL,
    Q_NODES,
    Q_PLACED,
    Q_TRAIL,
    V_LEVEL,
    V_PHASE,
    V_REASON,
    V_TRAIL,
    V_VAL,
    heap_insert,
    internal,
)

# --- assigning -----------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def value(iv, lit):
    """1 when the literal is true, 0 when false, -1 when its variable is unassigned."""
    x = iv[V_VAL, lit >> 1]
    if x < 0:
        return -1
    return x ^ (lit & 1)


@njit(cache=True, inline="always")
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


@internal
def enqueue(lit, reason, iv, cells, uds, cunits, cpos, regs, n):
    """Assign a literal at the current level, at the end of the trail. A call, not inlined: its
    callers are outside propagation, and each inlined copy is typed and lowered again."""
    placed = put(lit, reason, regs[Q_LEVEL], regs[Q_TRAIL], iv, cells, uds, cunits, cpos, n)
    regs[Q_TRAIL] += 1
    regs[Q_PLACED] += placed
    regs[Q_NODES] += placed


@internal
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


@njit(cache=True, inline="always")
def conflict(regs, kind, a, b):
    regs[Q_CKIND], regs[Q_CA], regs[Q_CB] = kind, a, b
    return True


@njit(cache=True, inline="always")
def add_watch(lit, clause, blocker, watch, lists, regs):
    """Append (clause, blocker) to the list of `lit`, moving the list to the arena's end when it
    is full; False when the arena has no room left."""
    start, length, cap = lists[0, lit], lists[1, lit], lists[2, lit]
    if length == cap:
        new_cap = 2 * cap if cap > 2 else 4  # max(4, 2 * cap); `max` compiles a function
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


@internal
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


@internal
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


@njit(cache=True, inline="always")
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


