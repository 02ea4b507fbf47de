"""Regin's matching filter for the `jit` depth-first kernel: per unit (every naked and hidden
subset)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokucp.backends.jit.bits import full_mask, low_index
from sudokucp.backends.jit.layout import G_AD, G_DIRTY, G_N, G_UNITS, S_FAIL
from sudokucp.backends.jit.propagate import drain, strike


@njit(cache=True, _nrt=False)
def reach(start, adj, allowed):
    """Nodes reachable from `start` along `adj` (bitmask rows) inside `allowed`."""
    seen = 1 << start
    frontier = seen
    while frontier:
        j = low_index(frontier)
        frontier &= frontier - 1
        new = adj[j] & allowed & ~seen
        seen |= new
        frontier |= new
    return seen


@njit(cache=True, _nrt=False)
def gac(dom, pos, k, hint, out, work):
    """Regin's filter on an alldifferent of k bitmask domains `dom`: the values each keeps go to
    `out`; -1 when no perfect matching exists, else the number of variables that lost values."""
    n = hint.shape[0]
    varval, valvar, fromv = work[:n], work[n:2 * n], work[2 * n:3 * n]
    adj, radj, queue = work[3 * n:4 * n], work[4 * n:5 * n], work[5 * n:6 * n]
    for v in range(n):
        valvar[v] = -1
    used = 0
    for i in range(k):  # greedy, keeping the last matching where it still holds
        h = hint[pos[i]]
        if not (h >= 0 and (dom[i] >> h) & 1 and not (used >> h) & 1):
            free = dom[i] & ~used
            h = low_index(free) if free else -1
        varval[i] = h
        if h >= 0:
            valvar[h] = i
            used |= 1 << h
    for x0 in range(k):  # an augmenting path for each variable left unmatched
        if varval[x0] >= 0:
            continue
        seen = 0
        head = 0
        tail = 1
        queue[0] = x0
        found = -1
        while head < tail and found < 0:
            x = queue[head]
            head += 1
            m = dom[x] & ~seen
            while m:
                v = low_index(m)
                m &= m - 1
                seen |= 1 << v
                fromv[v] = x
                y = valvar[v]
                if y < 0:
                    found = v
                    break
                queue[tail] = y
                tail += 1
        if found < 0:
            return -1  # Hall's condition fails: more variables than values for them
        v = found
        while True:
            x = fromv[v]
            old = varval[x]
            varval[x] = v
            valvar[v] = x
            if x == x0:
                break
            v = old
    for i in range(k):
        hint[pos[i]] = varval[i]
        radj[i] = 0
        out[i] = dom[i]
    for i in range(k):  # i -> j when i may take j's value
        m = dom[i]
        row = 0
        while m:
            v = low_index(m)
            m &= m - 1
            row |= 1 << valvar[v]
        row &= ~(1 << i)
        adj[i] = row
        while row:
            j = low_index(row)
            row &= row - 1
            radj[j] |= 1 << i
    everyone = full_mask(k)
    left = everyone
    changed = 0
    while left:
        s = low_index(left)
        comp = reach(s, adj, left) & reach(s, radj, left)
        left &= ~comp
        if comp == everyone:
            break  # one component: every value of every variable has a matching
        values = 0
        rest = comp
        while rest:
            j = low_index(rest)
            rest &= rest - 1
            values |= 1 << varval[j]
        rest = comp
        while rest:
            j = low_index(rest)
            rest &= rest - 1
            if dom[j] & ~values:
                out[j] = dom[j] & values
                changed += 1
    return changed


@njit(cache=True, _nrt=False)
def match_unit(u, cand, units, cunits, mate, scr, geo):
    """The filter on one unit: its open cells against its missing digits (every naked and hidden
    subset); -1 on a contradiction, else the cells changed."""
    n = geo[G_N]
    a = geo[G_AD]
    pos, dom, out, work = scr[a:a + n], scr[a + n:a + 2 * n], scr[a + 2 * n:a + 3 * n], \
        scr[a + 3 * n:a + 9 * n]
    k = np.int64(0)  # typed: a literal would compile gac once more
    for p in range(n):
        m = cand[units[u, p]]
        if m & (m - 1):
            pos[k] = p
            dom[k] = m
            k += 1
    if k <= 1:
        return 0
    changed = gac(dom, pos, k, mate[u], out, work)
    if changed < 0:
        scr[S_FAIL] = u
        return -1
    if changed:
        for i in range(k):
            if out[i] != dom[i] and not strike(cand, units[u, pos[i]], dom[i] & ~out[i], cunits,
                                               scr, geo):
                return -1
    return changed


@njit(cache=True, _nrt=False)
def alldiff(cand, units, peers, cunits, mate, scr, geo, regs):
    """The matching filter on every unit changed since its last run, each followed by the naked
    singles it made (the filter needs placed digits struck); -1 on a contradiction."""
    d = geo[G_DIRTY]
    changed = 0
    for u in range(geo[G_UNITS]):
        if scr[d + u]:
            out = match_unit(u, cand, units, cunits, mate, scr, geo)
            if out < 0:
                return -1
            scr[d + u] = 0
            if out and not drain(cand, peers, cunits, scr, geo, regs):
                return -1
            changed += out
    return changed
