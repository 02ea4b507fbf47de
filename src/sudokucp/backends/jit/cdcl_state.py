"""The state of the `jit` clause-learning search: register and row numbers, the arrays of one
search, and the heap of variables by VSIDS activity."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

# rows of `iv`, the per-variable arrays
(V_VAL, V_LEVEL, V_REASON, V_PHASE, V_HPOS, V_SEEN, V_TRAIL, V_HEAP, V_TMP, V_OUT, V_STACK,
 V_CLEAR, V_TARGET) = range(13)
IV_ROWS = 13
# regs
(Q_HEAD, Q_TRAIL, Q_LEVEL, Q_PLACED, Q_HEAPN, Q_NCL, Q_POOL, Q_CONFLICTS, Q_DECISIONS,
 Q_RESTARTS, Q_PHASE, Q_FOUND, Q_STORED, Q_CKIND, Q_CA, Q_CB, Q_NEXT_RESTART, Q_LUBY,
 Q_NEXT_REDUCE, Q_REDUCES, Q_LEARNED, Q_NODES, Q_LIMIT, Q_KEEP, Q_POLARITY, Q_GLUCOSE,
 Q_ARENA, Q_RECENT, Q_LBD_SUM, Q_RESTART_AT, Q_PROBE, Q_PROBED, Q_LUBY_UNIT,
 Q_MINIMIZE, Q_TARGET) = range(35)
QREGS = 35
PHASE_SAVED, PHASE_TRUE, PHASE_TARGET = range(3)  # Q_POLARITY: the decisions' phase
# conflict kinds and reason kinds (a reason >= 0 is a pool clause; below, -2 - (payload*3 + kind))
K_CELL, K_UNIT, K_BIN, K_POOL, K_OVERFLOW = range(5)
M_KEEP = 3  # the row of `meta` after start, length and LBD: reduce_pool's scratch
NO_REASON = -1
GROW = 4  # run(): the pool is full of clauses it may not drop; the caller enlarges it (grow)
LUBY_UNIT = 100  # conflicts per unit of the Luby sequence
RECENT = 50  # Glucose: conflicts in the recent LBD average
MARGIN = 0.8  # Glucose: restart when recent average * MARGIN > overall average
FIRST_REDUCE, REDUCE_STEP = 2000, 300  # conflicts before the first cut of the pool, then more
DECAY = 1 / 0.95
# the decorator of compiled code called only from compiled code: no Python or C entry wrapper
# to generate, optimise and emit (part of a cold compile); it cannot be called from Python. The
# kernel allocates nothing, so it needs no reference counting (_nrt=False: numba's NRT otherwise
# counts every array argument in and out of every call, atomically)
internal = njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True, _nrt=False)


class Learning(NamedTuple):
    """The tables of a shape and the arrays of one clause-learning search (run() reads them by
    name)."""

    units: Any  # 3N x N cells of each unit
    peers: Any  # cells x peers
    cunits: Any  # cells x 3: the row, column and box of each cell
    cpos: Any  # cells x 3: the place of each cell in its row, column and box (positions)
    iv: Any  # IV_ROWS x variables: value, level, reason, phase, heap, ...
    act: Any  # VSIDS activities
    cells: Any
    uds: Any
    lims: Any
    pool: Any  # the clauses' literals (grow doubles it)
    meta: Any  # each clause's start, length, LBD (and reduce_pool's scratch)
    watch: Any  # the watch arena
    lists: Any
    regs: Any  # Q_* registers
    fregs: Any
    recent: Any  # Glucose's recent LBDs
    sols: Any  # the solution buffer


def state(tables: tuple[Any, ...], limit: int, keep: int, capacity: int) -> Learning:
    """Fresh arrays for one search on a shape's tables (units, peers, cunits, cpos), sols the
    solution buffer of `capacity` grids."""
    n = tables[0].shape[1]
    cells = n * n
    nv = cells * n
    pool = min(1 << 21, max(1 << 14, 64 * nv))
    clauses = pool // 8
    regs = np.zeros(QREGS, np.int64)
    regs[Q_LIMIT], regs[Q_KEEP], regs[Q_LUBY_UNIT] = limit, keep, LUBY_UNIT
    return Learning(*tables, np.zeros((IV_ROWS, nv), np.int64), np.zeros(nv, np.float64),
                    np.zeros((2, cells), np.int64), np.zeros((2, 3 * cells), np.int64),
                    np.zeros(nv + 1, np.int64), np.zeros(pool, np.int32),
                    np.zeros((4, clauses), np.int64), np.zeros((2, 8 * clauses), np.int32),
                    np.zeros((3, 2 * nv), np.int64), regs, np.ones(2, np.float64),
                    np.zeros(RECENT, np.int64), np.zeros((capacity, cells), np.int64))


def grow(found: Learning) -> Learning:
    """The state with its clause pool, their table and the watch arena doubled."""
    def doubled(old: np.ndarray) -> np.ndarray:
        new = np.zeros((*old.shape[:-1], 2 * old.shape[-1]), old.dtype)
        new[..., :old.shape[-1]] = old
        return new

    return found._replace(pool=doubled(found.pool), meta=doubled(found.meta),
                          watch=doubled(found.watch))


def positions(units: np.ndarray, cunits: np.ndarray) -> np.ndarray:
    """cpos[c, k]: the place of cell c in its k-th unit (row, column, box)."""
    cpos = np.zeros(cunits.shape, np.int64)
    for u in range(units.shape[0]):
        for p, cell in enumerate(units[u]):
            cpos[cell, int(np.nonzero(cunits[cell] == u)[0][0])] = p
    return cpos


# --- the heap of variables by activity -----------------------------------------------------------

@njit(cache=True, inline="always")
def heap_up(iv, act, i):
    heap, hpos = iv[V_HEAP], iv[V_HPOS]
    v = heap[i]
    while i > 0 and act[heap[(i - 1) >> 1]] < act[v]:
        i = heap_move(heap, hpos, i, (i - 1) >> 1)
    heap_move_in(heap, hpos, i, v)


@njit(cache=True, inline="always")
def heap_down(iv, act, i, size):
    heap, hpos = iv[V_HEAP], iv[V_HPOS]
    v = heap[i]
    while 2 * i + 1 < size:
        child = 2 * i + 1
        if child + 1 < size and act[heap[child + 1]] > act[heap[child]]:
            child += 1
        if act[heap[child]] <= act[v]:
            break
        i = heap_move(heap, hpos, i, child)
    heap_move_in(heap, hpos, i, v)


@njit(cache=True, inline="always")
def heap_move(heap, hpos, i, j):
    """The variable at heap place j moved to place i; j (the place left open)."""
    heap[i] = heap[j]
    hpos[heap[i]] = i
    return j


@njit(cache=True, inline="always")
def heap_move_in(heap, hpos, i, v):
    """Variable v put at heap place i."""
    heap[i] = v
    hpos[v] = i


@njit(cache=True, inline="always")
def heap_insert(iv, act, regs, v):
    if iv[V_HPOS, v] >= 0:
        return
    i = regs[Q_HEAPN]
    regs[Q_HEAPN] += 1
    iv[V_HEAP, i] = v
    iv[V_HPOS, v] = i
    heap_up(iv, act, i)


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def bump(iv, act, fregs, v):
    """VSIDS: raise a variable's activity, rescaling all when it grows too large."""
    act[v] += fregs[0]
    if act[v] > 1e100:
        for w in range(act.shape[0]):
            act[w] *= 1e-100
        fregs[0] *= 1e-100
    if iv[V_HPOS, v] >= 0:
        heap_up(iv, act, iv[V_HPOS, v])


@njit(cache=True, inline="always")
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

