"""Conflict analysis and the clause pool of the `jit` clause-learning search."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit.cdcl_propagate import add_watch, rebuild_watches
from sudokucp.backends.jit.cdcl_state import (
    K_BIN,
    K_CELL,
    K_POOL,
    K_UNIT,
    M_KEEP,
    NO_REASON,
    Q_CA,
    Q_CB,
    Q_CKIND,
    Q_LEVEL,
    Q_MINIMIZE,
    Q_NCL,
    Q_POOL,
    Q_TRAIL,
    V_CLEAR,
    V_LEVEL,
    V_OUT,
    V_REASON,
    V_SEEN,
    V_STACK,
    V_TMP,
    V_TRAIL,
    bump,
    internal,
)

LBD_CAP = 31  # count_levels stops counting there

# --- learning ------------------------------------------------------------------------------------

@internal
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


@internal
def reason_of(v, iv, units, pool, meta, out, n):
    """The clause that implied variable v (which must not be a decision), into `out`."""
    r = iv[V_REASON, v]
    if r >= 0:
        return clause_of(np.int64(K_POOL), r, np.int64(0), units, pool, meta, out, n)
    t = -2 - r
    kind = t % 3
    return clause_of(kind, t // 3, v, units, pool, meta, out, n)


@internal
def analyze(iv, act, fregs, units, pool, meta, regs, n):
    """First-UIP analysis of the conflict in regs: the learned clause goes to iv[V_OUT] (asserting
    literal first, then one of the highest level); returns (length, backjump level, LBD)."""
    tmp, out, seen = iv[V_TMP], iv[V_OUT], iv[V_SEEN]
    level, lvl = iv[V_LEVEL], regs[Q_LEVEL]
    size = clause_of(regs[Q_CKIND], regs[Q_CA], regs[Q_CB], units, pool, meta, tmp, n)
    path = 0
    length = np.int64(1)  # typed: a literal compiles the callees once more
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
    kept = np.int64(1)
    for t in range(1, length):
        if out[t] >= 0:
            out[kept] = out[t]
            kept += 1
    length = kept
    clear = iv[V_CLEAR]
    marked = np.int64(0)  # vars marked seen by the recursive check, cleared below
    if regs[Q_MINIMIZE]:
        marked = minimise(out, length, iv, units, pool, meta, n)
    else:
        for t in range(1, length):  # drop literals implied by others of the clause (local)
            if local_redundant(out[t] >> 1, iv, units, pool, meta, n):
                out[t] = -1 - out[t]
    kept = np.int64(1)
    for t in range(1, length):
        q = out[t]
        seen[(q if q >= 0 else -1 - q) >> 1] = 0
        if q >= 0:
            out[kept] = q
            kept += 1
    for t in range(marked):
        seen[clear[t]] = 0
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


@internal
def local_redundant(v, iv, units, pool, meta, n):
    """Whether every other literal of v's reason is in the clause (seen) or holds at level 0."""
    if iv[V_REASON, v] == NO_REASON:
        return False
    seen, level, tmp = iv[V_SEEN], iv[V_LEVEL], iv[V_TMP]
    size = reason_of(v, iv, units, pool, meta, tmp, n)
    for j in range(size):
        w = tmp[j] >> 1
        if w != v and not seen[w] and level[w] > 0:
            return False
    return True


@internal
def minimise(out, length, iv, units, pool, meta, n):
    """Recursive minimising (MiniSat's): mark out[t] (t >= 1) as -1 - out[t] when the clause's
    other literals imply it through reasons alone; returns the vars it marked seen (V_CLEAR)."""
    level = iv[V_LEVEL]
    levels = np.int64(0)  # a bit per level (mod 64) of the clause: no literal of another goes
    for t in range(1, length):
        levels |= 1 << (level[out[t] >> 1] & 63)
    marked = np.int64(0)
    for t in range(1, length):
        v = out[t] >> 1
        if iv[V_REASON, v] == NO_REASON:
            continue
        ok, marked = implied(v, levels, marked, iv, units, pool, meta, n)
        if ok:
            out[t] = -1 - out[t]
    return marked


@internal
def implied(v0, levels, marked, iv, units, pool, meta, n):
    """Whether v0 follows from the seen vars by reasons (depth first); the vars it proves get
    seen and are listed in V_CLEAR from `marked` on, undone when it fails."""
    seen, level, tmp = iv[V_SEEN], iv[V_LEVEL], iv[V_TMP]
    stack, clear = iv[V_STACK], iv[V_CLEAR]
    top = marked
    stack[0] = v0
    depth = 1
    while depth:
        depth -= 1
        v = stack[depth]
        size = reason_of(v, iv, units, pool, meta, tmp, n)
        for j in range(size):
            u = tmp[j] >> 1
            if u == v or seen[u] or level[u] == 0:
                continue
            if iv[V_REASON, u] == NO_REASON or not (levels >> (level[u] & 63)) & 1:
                for i in range(top, marked):
                    seen[clear[i]] = 0
                return False, top
            seen[u] = 1
            stack[depth] = u
            depth += 1
            clear[marked] = u
            marked += 1
    return True, marked


@njit(cache=True, inline="always")
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
        if total >= LBD_CAP:
            break
    return total


@internal
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


@internal
def reduce_pool(iv, pool, meta, watch, lists, regs):
    """Keep the clauses of LBD <= 2 (blocking ones: 0), the reasons of assignments and the better
    half of the rest (by LBD, newer first); compact, renumber the reasons, rebuild the watches."""
    count = regs[Q_NCL]
    half = count // 2  # the better half: lower LBD first, the newer first among equals
    buckets = iv[V_TMP]  # by LBD: a count, not a sort (np.argsort compiles numba's quicksort,
    for lbd in range(LBD_CAP + 1):  # seconds of a cold start)
        buckets[lbd] = 0
    for i in range(count):
        lbd = meta[2, i]
        buckets[lbd if lbd < LBD_CAP else LBD_CAP] += 1  # `min` compiles a function of its own
    below = 0
    cut = 0  # the LBD where the better half ends
    while cut <= LBD_CAP and below + buckets[cut] <= half:
        below += buckets[cut]
        cut += 1
    need = half - below  # of the clauses of LBD `cut`, the newest this many
    keep = meta[M_KEEP]  # 1 for a clause kept, then its new number (no array to allocate)
    for i in range(count - 1, -1, -1):
        lbd = meta[2, i] if meta[2, i] < LBD_CAP else LBD_CAP
        keep[i] = 0
        if lbd <= 2 or lbd < cut:
            keep[i] = 1
        elif lbd == cut and need > 0:
            keep[i] = 1
            need -= 1
    for t in range(regs[Q_TRAIL]):
        r = iv[V_REASON, iv[V_TRAIL, t] >> 1]
        if r >= 0:
            keep[r] = 1
    at = 0
    kept = 0
    for i in range(count):
        if not keep[i]:
            continue
        start, length, lbd = meta[0, i], meta[1, i], meta[2, i]
        for t in range(length):
            pool[at + t] = pool[start + t]
        meta[0, kept], meta[1, kept], meta[2, kept] = at, length, lbd
        keep[i] = kept
        at += length
        kept += 1
    for t in range(regs[Q_TRAIL]):
        v = iv[V_TRAIL, t] >> 1
        if iv[V_REASON, v] >= 0:
            iv[V_REASON, v] = keep[iv[V_REASON, v]]
    regs[Q_NCL] = kept
    regs[Q_POOL] = at
    rebuild_watches(pool, meta, watch, lists, regs)


