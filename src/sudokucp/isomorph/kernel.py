"""The minlex search compiled by numba, with tied columns kept as runs instead of enumerated.

Glossary: g the grid (0 as given, 1 transposed), r x c boxes, n = r * c, a band is r rows, a stack
c columns. A state is a column `order` whose `tie[j]` marks position j as interchangeable with j - 1
(same values in every row chosen so far), and labels `lab[v]` of the digits seen (lab[0] counts
them). A row refines each run: blanks first (still tied), then seen digits by label, then new
digits, whose orders are branches. A branch whose rows so far exceed the best is dropped. The
search looks at the clock every CHECK_EVERY steps and gives up past its deadline.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

LESS, TIE, MORE = 1, 0, -1
NEXT_ROW, FRESH, USED = 0, 1, 2  # a level's step: take a row, search a branch, advance the branch
CHECK_EVERY = 1 << 14  # steps between two looks at the clock
GAVE_UP = -2  # minlex's answer when the deadline passed


@njit(cache=True)
def _now():
    """time.perf_counter(), read from compiled code."""
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True)
def minlex(cells, r, c, stack_perms, run_perms, run_counts, best, rec_rows, rec_order, rec_lab,
           deadline=0.0):
    """The minlex form of `cells` into `best`, and the rows, columns and labels reaching it into
    the rec_ arrays; returns 1 when transposed, 0 when not, -1 when a row repeats a digit,
    GAVE_UP when the clock (time.perf_counter) passed `deadline` (0: none)."""
    n = r * c
    ng = 2 if r == c else 1
    grids = np.zeros((ng, n * n), np.int32)
    grids[0, :] = cells
    if ng == 2:
        for i in range(n):
            for j in range(n):
                grids[1, i * n + j] = cells[j * n + i]
    blank = np.zeros((ng, n), np.bool_)
    for g in range(ng):
        for row in range(n):
            if _repeats(grids[g], row, n):
                return -1
            blank[g, row] = _is_blank(grids[g], row, n)
    meta = np.zeros(3, np.int64)  # rows of best valid, record up to date, record's grid
    order = np.zeros((n + 1, n), np.int64)  # state before level L's row: order[L], tie[L], ...
    tie = np.zeros((n + 1, n), np.bool_)
    lab = np.zeros((n + 1, n + 1), np.int32)
    for g in range(ng):
        for sp in range(stack_perms.shape[0]):
            for k in range(r):
                for i in range(c):
                    order[0, k * c + i] = stack_perms[sp, k] * c + i
                    tie[0, k * c + i] = i > 0
            if not _search(grids[g], n, r, order, tie, lab, run_perms, run_counts, best, meta,
                           rec_rows, rec_order, rec_lab, g, blank[g], deadline):
                return GAVE_UP
    return meta[2]


@njit(cache=True)
def _search(grid, n, r, order, tie, lab, run_perms, run_counts, best, meta, rec_rows, rec_order,
            rec_lab, g, blank, deadline):
    """Depth first over rows and branches from the state at index 0; the best kept in `best`.
    False when the deadline passed first."""
    used = np.zeros(n + 1, np.int64)
    rowsel = np.zeros(n, np.int64)
    cand = np.zeros((n, n), np.int64)
    ncand = np.zeros(n, np.int64)
    ci = np.zeros(n, np.int64)
    step = np.zeros(n, np.int64)
    border = np.zeros((n, n), np.int64)  # the refined order of level L's row, before branching
    btie = np.zeros((n, n), np.bool_)
    rstart = np.zeros((n, n), np.int64)  # runs of new digits: where, how long, which order
    rlen = np.zeros((n, n), np.int64)
    nruns = np.zeros(n, np.int64)
    odo = np.zeros((n, n), np.int64)
    out = np.zeros(n, np.int32)
    lab[0, :] = 0
    level, steps = 0, 0
    ncand[0] = _candidates(0, rowsel, 0, r, n, blank, cand[0])
    while level >= 0:
        steps += 1
        if deadline > 0 and steps % CHECK_EVERY == 0 and _now() > deadline:
            return False
        if step[level] == NEXT_ROW:
            if ci[level] >= ncand[level]:
                level -= 1
                continue
            row = cand[level, ci[level]]
            ci[level] += 1
            nruns[level] = _refine(grid, row, n, order[level], tie[level], lab[level],
                                   border[level], btie[level], rstart[level], rlen[level])
            verdict = _compare(grid, row, n, border[level], lab[level], best, level,
                               level < meta[0], out)
            if verdict == MORE:
                continue
            if verdict == LESS:
                best[level * n:level * n + n] = out
                meta[0], meta[1] = level + 1, 0
            rowsel[level] = row
            odo[level, :] = 0
            step[level] = FRESH
        elif step[level] == USED and not _advance(odo[level], rlen[level], nruns[level],
                                                  run_counts):
            step[level] = NEXT_ROW
            continue
        step[level] = USED
        _branch(grid, rowsel[level], n, level, order, tie, lab, border[level], btie[level],
                rstart[level], rlen[level], nruns[level], odo[level], run_perms)
        used[level + 1] = used[level] | (1 << rowsel[level])
        if level == n - 1:
            if meta[1] == 0:
                rec_rows[:] = rowsel
                rec_order[:] = order[n]
                rec_lab[:] = lab[n]
                meta[1], meta[2] = 1, g
            continue
        level += 1
        ncand[level] = _candidates(level, rowsel, used[level], r, n, blank, cand[level])
        ci[level], step[level] = 0, NEXT_ROW
    return True


@njit(cache=True)
def _refine(grid, row, n, order, tie, lab, border, btie, rstart, rlen):
    """Each run of `order` reordered for `row` into border/btie: blanks (tied), seen digits by
    label, new digits; returns how many runs hold two or more new digits (their starts, lengths)."""
    base, nr, j = row * n, 0, 0
    while j < n:
        e = j + 1
        while e < n and tie[e]:
            e += 1
        p = j
        for q in range(j, e):  # blanks
            if grid[base + order[q]] == 0:
                border[p], btie[p] = order[q], p > j
                p += 1
        first_seen = p
        for q in range(j, e):  # seen digits, kept sorted by label
            col = order[q]
            v = grid[base + col]
            if v and lab[v]:
                k = p
                while k > first_seen and lab[grid[base + border[k - 1]]] > lab[v]:
                    border[k] = border[k - 1]
                    k -= 1
                border[k] = col
                p += 1
        for q in range(first_seen, p):
            btie[q] = False
        first_new = p
        for q in range(j, e):  # new digits
            v = grid[base + order[q]]
            if v and not lab[v]:
                border[p], btie[p] = order[q], False
                p += 1
        if p - first_new > 1:
            rstart[nr], rlen[nr] = first_new, p - first_new
            nr += 1
        j = e
    return nr


@njit(cache=True)
def _compare(grid, row, n, border, lab, best, level, bounded, out):
    """The row's relabelled values into `out`: LESS, TIE or MORE than the best's at `level`."""
    base, fresh, tied = row * n, lab[0], bounded
    for j in range(n):
        v = grid[base + border[j]]
        if v == 0:
            o = 0
        elif lab[v]:
            o = lab[v]
        else:
            fresh += 1
            o = fresh
        out[j] = o
        if tied:
            b = best[level * n + j]
            if o > b:
                return MORE
            if o < b:
                tied = False
    return TIE if tied else LESS


@njit(cache=True)
def _advance(odo, rlen, nr, run_counts):
    """The next combination of new-digit orders; False after the last."""
    k = nr - 1
    while k >= 0:
        odo[k] += 1
        if odo[k] < run_counts[rlen[k]]:
            return True
        odo[k] = 0
        k -= 1
    return False


@njit(cache=True)
def _branch(grid, row, n, level, order, tie, lab, border, btie, rstart, rlen, nr, odo, run_perms):
    """The state after `row` in the branch `odo`: order, ties and labels at index level + 1."""
    child = order[level + 1]
    child[:] = border
    tie[level + 1, :] = btie
    for k in range(nr):
        s, m = rstart[k], rlen[k]
        for i in range(m):
            child[s + i] = border[s + run_perms[m, odo[k], i]]
    labels = lab[level + 1]
    labels[:] = lab[level]
    for j in range(n):
        v = grid[row * n + child[j]]
        if v and not labels[v]:
            labels[0] += 1
            labels[v] = labels[0]


@njit(cache=True)
def _candidates(level, rowsel, used, r, n, blank, cand):
    """Rows that may come at `level` (the band's next row, or the first row of an unused band);
    one blank row per band, as two blank rows of a band are interchangeable."""
    k = 0
    lo, hi = 0, n
    if level % r:
        band = rowsel[level - 1] // r
        lo, hi = band * r, band * r + r
    for row in range(lo, hi):
        band = row // r
        if (used >> row) & 1 or (level % r == 0 and _band_used(used, band, r)):
            continue
        if blank[row] and _blank_before(row, band, r, used, blank):
            continue
        cand[k] = row
        k += 1
    return k


@njit(cache=True)
def _band_used(used, band, r):
    """Whether a row of `band` is in the bit set `used`."""
    for i in range(band * r, band * r + r):  # noqa: SIM110 (numba compiles loops, not any())
        if (used >> i) & 1:
            return True
    return False


@njit(cache=True)
def _blank_before(row, band, r, used, blank):
    """Whether an unused blank row comes before `row` in its band."""
    for i in range(band * r, row):  # noqa: SIM110 (numba compiles loops, not any())
        if blank[i] and not (used >> i) & 1:
            return True
    return False


@njit(cache=True)
def _repeats(grid, row, n):
    """Whether `row` holds a digit twice."""
    seen = np.zeros(n + 1, np.bool_)
    for j in range(n):
        v = grid[row * n + j]
        if v and seen[v]:
            return True
        seen[v] = True
    return False


@njit(cache=True)
def _is_blank(grid, row, n):
    """Whether `row` has no given."""
    for j in range(n):  # noqa: SIM110 (numba compiles loops, not any())
        if grid[row * n + j]:
            return False
    return True
