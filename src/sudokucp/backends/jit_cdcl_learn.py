"""Conflict analysis and the clause pool of the `jit` clause-learning search."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit_cdcl_propagate import add_watch, rebuild_watches
from sudokucp.backends.jit_cdcl_state import (
    K_BIN,
    K_CELL,
    K_POOL,
    K_UNIT,
    NO_REASON,
    Q_CA,
    Q_CB,
    Q_CKIND,
    Q_LEVEL,
    Q_NCL,
    Q_POOL,
    Q_TRAIL,
    V_LEVEL,
    V_OUT,
    V_REASON,
    V_SEEN,
    V_TMP,
    V_TRAIL,
    bump,
)

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


