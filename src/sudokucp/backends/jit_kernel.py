"""The propagating depth-first search of the `jit` backend (numba); imported only when it runs.

Glossary: n = side, cand = one row of candidate masks (bit d-1 for digit d), a cell is placed
once its mask has one bit (it is then queued exactly once and struck from its peers), u = unit
(rows, columns, boxes: the tables of sudokucp.puzzle.geometry), geo = shape and options in one
array (fields G_*), regs = the search's registers (R_*), scr = scratch (S_*, offsets in geo).

The search is resumable: every bit of its state lives in the arrays it is given, so `run` stops
after `budget` guesses (or when the solution buffer is full) and a later call goes on.
Propagation levels: singles (naked and hidden), locked (+ pointing and claiming), alldiff
(singles + Regin's matching filter per unit: every naked and hidden subset), full (alldiff +
locked), dual (alldiff + the filter on each digit's row x column, row x box and column x box
views: every fish and every locked set).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

# geo: shape, options, scratch offsets
G_N, G_R, G_C, G_CELLS, G_LEVEL, G_BRANCH, G_LIMIT, G_KEEP = range(8)
G_DIRTY, G_WEIGHT, G_HSEG, G_VSEG, G_AD, G_VIEWS, G_HIDDEN, G_SIZE = range(8, 16)
# levels and branchings (the option values, in order)
SINGLES, LOCKED, ALLDIFF, FULL, DUAL = range(5)
BRANCH_CELL, BRANCH_SMALLEST, BRANCH_WDEG = range(3)
# regs
R_DEPTH, R_NODES, R_GUESSES, R_BACKTRACKS, R_PHASE, R_FOUND, R_STORED, R_NEED = range(8)
REGS_LEN = 8
# frames: one row per depth
F_KIND, F_INDEX, F_DIGIT, F_REST, F_SOLVED = range(5)
FRAME_LEN = 5
# scratch: queue length, cells placed, last failure, then the queue
S_QLEN, S_SOLVED, S_FAIL, S_QUEUE = range(4)
# what run() returns
EXHAUSTED, BUDGET, LIMIT, FULL_BUFFER = range(4)


@intrinsic
def popcount(typingctx, x):
    """Number of bits set (LLVM ctpop)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def low_index(typingctx, x):
    """Index of the lowest bit set (LLVM cttz)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


def layout(n: int, r: int, c: int, level: int, branch: int, limit: int, keep: int) -> np.ndarray:
    """The geo array of a shape and options, with the scratch offsets."""
    cells = n * n
    dirty = S_QUEUE + cells
    weight = dirty + 3 * n
    hseg = weight + 3 * n + 1  # the last weight is for failures no unit is blamed for
    vseg = hseg + n * r
    ad = vseg + n * c
    views = ad + 9 * n
    hidden = views + 3 * n * n
    size = hidden + 3 * n
    return np.array([n, r, c, cells, level, branch, limit, keep, dirty, weight, hseg, vseg, ad,
                     views, hidden, size], dtype=np.int64)


# --- placing and striking ------------------------------------------------------------------------

@njit(cache=True)
def mark(cell, cunits, scr, geo):
    """Flag the three units of `cell` as changed, for the hidden singles and the matching filter."""
    d = geo[G_DIRTY]
    h = geo[G_HIDDEN]
    for k in range(3):
        scr[d + cunits[cell, k]] = 1
        scr[h + cunits[cell, k]] = 1


@njit(cache=True)
def strike(cand, cell, bits, cunits, scr, geo):
    """Remove `bits` from a cell; queue it when one is left; False when none is."""
    m = cand[cell]
    if not m & bits:
        return True
    m &= ~bits
    cand[cell] = m
    if m == 0:
        scr[S_FAIL] = -1 - cell
        return False
    if not m & (m - 1):
        scr[S_QUEUE + scr[S_QLEN]] = cell
        scr[S_QLEN] += 1
    mark(cell, cunits, scr, geo)
    return True


@njit(cache=True)
def assign(cand, cell, bit, cunits, scr, geo):
    """Set a cell to one digit and queue it; False when the digit is not a candidate."""
    m = cand[cell]
    if not m & bit:
        scr[S_FAIL] = -1 - cell
        return False
    if m == bit:
        return True  # placed already: queued when it got down to one
    cand[cell] = bit
    scr[S_QUEUE + scr[S_QLEN]] = cell
    scr[S_QLEN] += 1
    mark(cell, cunits, scr, geo)
    return True


@njit(cache=True)
def drain(cand, peers, cunits, scr, geo, regs):
    """Strike every queued cell's digit from its peers (naked singles, to a fixpoint)."""
    qlen = scr[S_QLEN]
    if qlen == 0:
        return True
    dirty, fresh = geo[G_DIRTY], geo[G_HIDDEN]
    placed = 0
    ok = True
    while qlen > 0 and ok:
        qlen -= 1
        cell = scr[S_QUEUE + qlen]
        bit = cand[cell]
        placed += 1
        for t in range(peers.shape[1]):
            p = peers[cell, t]
            m = cand[p]
            if not m & bit:
                continue
            m &= ~bit
            cand[p] = m
            if m == 0:
                scr[S_FAIL] = -1 - p
                ok = False
                break
            if not m & (m - 1):
                scr[S_QUEUE + qlen] = p
                qlen += 1
            for k in range(3):
                u = cunits[p, k]
                scr[dirty + u] = 1
                scr[fresh + u] = 1
    scr[S_QLEN] = qlen
    scr[S_SOLVED] += placed
    regs[R_NODES] += placed
    return ok


# --- the techniques ------------------------------------------------------------------------------

@njit(cache=True)
def hidden(cand, units, peers, cunits, scr, geo, regs):
    """Place every digit with one place left in a unit changed since it was last looked at; -1 on
    a contradiction (a digit with no place), else the digits placed."""
    n = geo[G_N]
    full = (1 << n) - 1
    fresh = geo[G_HIDDEN]
    changed = 0
    for u in range(3 * n):
        if not scr[fresh + u]:
            continue
        scr[fresh + u] = 0
        once = 0
        twice = 0
        for k in range(n):
            m = cand[units[u, k]]
            twice |= once & m
            once |= m
        if once != full:
            scr[S_FAIL] = u
            return -1
        lone = once & ~twice
        if not lone:
            continue
        for k in range(n):
            cell = units[u, k]
            m = cand[cell]
            h = m & lone
            if h and m != h:
                if h & (h - 1):
                    scr[S_FAIL] = u
                    return -1  # two digits need the same cell
                if not assign(cand, cell, h, cunits, scr, geo):
                    return -1
                changed += 1
                if not drain(cand, peers, cunits, scr, geo, regs):
                    return -1
    return changed


@njit(cache=True)
def segments(cand, scr, geo):
    """OR of the open cells' masks of every box-line crossing (row and column segments)."""
    n, r, c = geo[G_N], geo[G_R], geo[G_C]
    hs, vs = geo[G_HSEG], geo[G_VSEG]
    for i in range(n):  # row i, box column k: c cells
        for k in range(r):
            m = 0
            base = i * n + k * c
            for j in range(c):
                x = cand[base + j]
                if x & (x - 1):
                    m |= x
            scr[hs + i * r + k] = m
    for j in range(n):  # column j, box row k: r cells
        for k in range(c):
            m = 0
            for i in range(k * r, k * r + r):
                x = cand[i * n + j]
                if x & (x - 1):
                    m |= x
            scr[vs + j * c + k] = m


@njit(cache=True)
def locked(cand, cunits, scr, geo):
    """Pointing and claiming over every box-line crossing; -1 on a contradiction, else changes."""
    n, r, c = geo[G_N], geo[G_R], geo[G_C]
    hs, vs = geo[G_HSEG], geo[G_VSEG]
    segments(cand, scr, geo)
    changed = 0
    for i in range(n):
        band = (i // r) * r
        for k in range(r):
            m = scr[hs + i * r + k]
            if not m:
                continue
            box_rest = 0
            for i2 in range(band, band + r):
                if i2 != i:
                    box_rest |= scr[hs + i2 * r + k]
            line_rest = 0
            for k2 in range(r):
                if k2 != k:
                    line_rest |= scr[hs + i * r + k2]
            point = m & ~box_rest  # the box's places of these digits lie in this row
            claim = m & ~line_rest  # the row's places of these digits lie in this box
            if point:
                for k2 in range(r):
                    if k2 == k:
                        continue
                    for j in range(k2 * c, k2 * c + c):
                        if cand[i * n + j] & point:
                            changed += 1
                            if not strike(cand, i * n + j, point, cunits, scr, geo):
                                return -1
            if claim:
                for i2 in range(band, band + r):
                    if i2 == i:
                        continue
                    for j in range(k * c, k * c + c):
                        if cand[i2 * n + j] & claim:
                            changed += 1
                            if not strike(cand, i2 * n + j, claim, cunits, scr, geo):
                                return -1
    for j in range(n):
        stack = (j // c) * c
        for k in range(c):
            m = scr[vs + j * c + k]
            if not m:
                continue
            box_rest = 0
            for j2 in range(stack, stack + c):
                if j2 != j:
                    box_rest |= scr[vs + j2 * c + k]
            line_rest = 0
            for k2 in range(c):
                if k2 != k:
                    line_rest |= scr[vs + j * c + k2]
            point = m & ~box_rest
            claim = m & ~line_rest
            if point:
                for k2 in range(c):
                    if k2 == k:
                        continue
                    for i in range(k2 * r, k2 * r + r):
                        if cand[i * n + j] & point:
                            changed += 1
                            if not strike(cand, i * n + j, point, cunits, scr, geo):
                                return -1
            if claim:
                for i in range(k * r, k * r + r):
                    for j2 in range(stack, stack + c):
                        if j2 != j and cand[i * n + j2] & claim:
                            changed += 1
                            if not strike(cand, i * n + j2, claim, cunits, scr, geo):
                                return -1
    return changed


@njit(cache=True)
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


@njit(cache=True)
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
    everyone = (1 << k) - 1
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


@njit(cache=True)
def match_unit(u, cand, units, cunits, mate, scr, geo):
    """The filter on one unit: its open cells against its missing digits (every naked and hidden
    subset); -1 on a contradiction, else the cells changed."""
    n = geo[G_N]
    a = geo[G_AD]
    pos, dom, out, work = scr[a:a + n], scr[a + n:a + 2 * n], scr[a + 2 * n:a + 3 * n], \
        scr[a + 3 * n:a + 9 * n]
    k = 0
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


@njit(cache=True)
def alldiff(cand, units, peers, cunits, mate, scr, geo, regs):
    """The matching filter on every unit changed since its last run, each followed by the naked
    singles it made (the filter needs placed digits struck); -1 on a contradiction."""
    n = geo[G_N]
    d = geo[G_DIRTY]
    changed = 0
    for u in range(3 * n):
        if scr[d + u]:
            out = match_unit(u, cand, units, cunits, mate, scr, geo)
            if out < 0:
                return -1
            scr[d + u] = 0
            if out and not drain(cand, peers, cunits, scr, geo, regs):
                return -1
            changed += out
    return changed


@njit(cache=True)
def build_views(cand, scr, geo):
    """Per digit: the columns (rc), boxes (rb) of each row and the boxes (cb) of each column that
    still hold it as a candidate."""
    n, r, c = geo[G_N], geo[G_R], geo[G_C]
    nn = n * n
    v = geo[G_VIEWS]
    rc, rb, cb = scr[v:v + nn], scr[v + nn:v + 2 * nn], scr[v + 2 * nn:v + 3 * nn]
    for i in range(3 * nn):
        scr[v + i] = 0
    for i in range(n):
        for j in range(n):
            m = cand[i * n + j]
            box = (i // r) * r + j // c
            while m:
                d = low_index(m)
                m &= m - 1
                rc[d * n + i] |= 1 << j
                rb[d * n + i] |= 1 << box
                cb[d * n + j] |= 1 << box


@njit(cache=True)
def strike_segment(cand, i, j0, di, dj, length, bit, cunits, scr, geo):
    """Strike `bit` from `length` cells starting at (i, j0), stepping (di, dj)."""
    n = geo[G_N]
    for t in range(length):
        cell = (i + t * di) * n + j0 + t * dj
        if cand[cell] & bit and not strike(cand, cell, bit, cunits, scr, geo):
            return False
    return True


@njit(cache=True)
def views(cand, peers, cunits, mate, scr, geo, regs):
    """The matching filter on each digit's three views: rows against columns (every fish), rows
    and columns against boxes (every locked set); -1 on a contradiction, else the changes."""
    n, r, c = geo[G_N], geo[G_R], geo[G_C]
    nn = n * n
    a = geo[G_AD]
    pos, out, work = scr[a:a + n], scr[a + 2 * n:a + 3 * n], scr[a + 3 * n:a + 9 * n]
    for i in range(n):
        pos[i] = i
    build_views(cand, scr, geo)
    v = geo[G_VIEWS]
    changed = 0
    for d in range(n):
        bit = 1 << d
        for view in range(3):
            dom = scr[v + view * nn + d * n:v + view * nn + d * n + n]
            got = gac(dom, pos, n, mate[3 * n + view * n + d], out, work)
            if got < 0:
                scr[S_FAIL] = 3 * n  # no unit to blame
                return -1
            if not got:
                continue
            changed += got
            for x in range(n):
                gone = dom[x] & ~out[x]
                while gone:
                    y = low_index(gone)
                    gone &= gone - 1
                    if view == 0:  # row x, column y
                        ok = strike_segment(cand, x, y, 0, 0, 1, bit, cunits, scr, geo)
                    elif view == 1:  # row x, box y: c cells
                        ok = strike_segment(cand, x, (y % r) * c, 0, 1, c, bit, cunits, scr, geo)
                    else:  # column x, box y: r cells
                        ok = strike_segment(cand, (y // r) * r, x, 1, 0, r, bit, cunits, scr,
                                            geo)
                    if not ok:
                        return -1
    if changed and not drain(cand, peers, cunits, scr, geo, regs):
        return -1
    return changed


@njit(cache=True)
def fixpoint(cand, units, peers, cunits, mate, scr, geo, regs):
    """Propagate the queued placements at the chosen level until nothing changes."""
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
        if level >= ALLDIFF:
            out = alldiff(cand, units, peers, cunits, mate, scr, geo, regs)
            if out < 0:
                return False
            if out:
                continue
        if level == DUAL:
            out = views(cand, peers, cunits, mate, scr, geo, regs)
            if out < 0:
                return False
            if out:
                continue
        return True


# --- branching -----------------------------------------------------------------------------------

@njit(cache=True)
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


@njit(cache=True)
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

@njit(cache=True)
def store(cand, sols, regs, geo):
    """Count a solution and write it to the buffer if it has room (or when told to keep all)."""
    regs[R_FOUND] += 1
    if regs[R_STORED] < sols.shape[0]:
        row = sols[regs[R_STORED]]
        for c in range(geo[G_CELLS]):
            row[c] = low_index(cand[c]) + 1
        regs[R_STORED] += 1


@njit(cache=True)
def start(grid, units, peers, cunits, geo, cand, frames, regs, mate, scr):
    """Load the givens into level 0 and propagate; False when they clash or propagation fails."""
    n = geo[G_N]
    row = cand[0]
    row[:] = (1 << n) - 1
    for i in range(REGS_LEN):
        regs[i] = 0
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


@njit(cache=True)
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
        row[:] = cand[d]
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


def buffers(geo: np.ndarray, capacity: int) -> tuple[np.ndarray, ...]:
    """Fresh state arrays for one search: cand, frames, regs, sols, mate, scr."""
    n, cells = int(geo[G_N]), int(geo[G_CELLS])
    return (np.empty((cells + 2, cells), np.int64), np.zeros((cells + 2, FRAME_LEN), np.int64),
            np.zeros(REGS_LEN, np.int64), np.zeros((capacity, cells), np.int64),
            np.full((6 * n, n), -1, np.int64), np.zeros(int(geo[G_SIZE]), np.int64))


@njit(cache=True)
def run_many(grids, units, peers, cunits, geo, out_sols, out_counts, out_complete, out_stats):
    """Solve every row of `grids` to the end (no budget): first solution, count up to the limit,
    whether the search was exhausted, and nodes, guesses, backtracks per grid."""
    n, cells = geo[G_N], geo[G_CELLS]
    cand = np.empty((cells + 2, cells), np.int64)
    frames = np.zeros((cells + 2, FRAME_LEN), np.int64)
    regs = np.zeros(REGS_LEN, np.int64)
    sols = np.zeros((1, cells), np.int64)
    mate = np.full((6 * n, n), -1, np.int64)
    scr = np.zeros(geo[G_SIZE], np.int64)
    for i in range(grids.shape[0]):
        regs[R_PHASE] = 0
        status = run(grids[i], units, peers, cunits, geo, cand, frames, regs, sols, mate, scr, -1)
        out_counts[i] = regs[R_FOUND]
        out_complete[i] = status == EXHAUSTED
        if regs[R_STORED]:
            out_sols[i, :] = sols[0]
        else:
            out_sols[i, :] = 0
        out_stats[i, 0] = regs[R_NODES]
        out_stats[i, 1] = regs[R_GUESSES]
        out_stats[i, 2] = regs[R_BACKTRACKS]
