"""The band-wise kernel's layout: the fields of its geo array and the tables of a shape, which
bands.py's general steps and bands9.py's 9x9 ones read."""

from __future__ import annotations

from itertools import permutations
from typing import Any, NamedTuple

import numpy as np

from sudokucp.backends.jit.layout import FRAME_LEN, REGS_LEN

# geo: shape and search options
B_N, B_R, B_C, B_BANDS, B_BITS, B_LIMIT, B_KEEP, B_WIDTH = range(8)
GEO_LEN = 8
# tables: offsets of each table in one array
T_SHRINK, T_FILTER, T_ROW, T_BOX, T_COL, T_CELL, T_BAND, T_BIT, T_COLUMN, T_DIGIT_OF, \
    T_BAND_OF, T_MINI, TABLES = range(13)


class Bands(NamedTuple):
    """The band-wise kernel's state: the shape's tables, geo, and one search's buffers."""

    t: Any  # tables(r, c) (empty at 9x9: bands9.py's steps hold theirs as constants)
    geo: Any
    stack: Any  # a state row per depth
    frames: Any
    regs: Any
    sols: Any


def layout(n: int, r: int, c: int, limit: int, keep: int) -> np.ndarray:
    """The geo array of a shape and a search: bands, bits per band, width of a state row."""
    return np.array([n, r, c, c, r * n, limit, keep, n * c + c], np.int64)


def permutation_union(r: int) -> list[int]:
    """For each pattern of r x r bits (bit i * r + j), the bits of the permutations (one j per i,
    one i per j) that lie inside it, all together; 0 when none does."""
    perms = [sum(1 << (i * r + p[i]) for i in range(r)) for p in permutations(range(r))]
    found = []
    for occupied in range(1 << (r * r)):
        used = 0
        for perm in perms:
            if perm & occupied == perm:
                used |= perm
        found.append(used)
    return found


def tables(r: int, c: int) -> np.ndarray:
    """Every table of a shape in one int64 array, its first TABLES entries the offsets:
    shrink (a row's 2**N patterns -> the boxes it touches), filter (2**(r*r) mini-row patterns ->
    the band cells some permutation keeps, 0 for none), row and box (a band bit -> the band
    bits of its row, of its box), col (a column -> its bits in a band), cell (band, bit -> cell),
    band and bit (cell -> its band and its bit), column (a band bit -> its column), digit_of and
    band_of (a (digit, band) index -> the digit, the band), mini (a band bit -> its mini-row)."""
    n = r * c
    bits = r * n
    row_mask = (1 << n) - 1
    minirow = [[sum(1 << (i * n + j * c + k) for k in range(c)) for j in range(r)]
               for i in range(r)]
    shrink = [sum(1 << j for j in range(r) if pattern >> (j * c) & ((1 << c) - 1))
              for pattern in range(1 << n)]
    filt = [sum(minirow[i][j] for i in range(r) for j in range(r) if used >> (i * r + j) & 1)
            for used in permutation_union(r)]
    row = [row_mask << (b // n * n) for b in range(bits)]
    box = [sum(minirow[i][b % n // c] for i in range(r)) for b in range(bits)]
    col = [sum(1 << (i * n + j) for i in range(r)) for j in range(n)]
    cell = [(band * r + b // n) * n + b % n for band in range(c) for b in range(bits)]
    band = [x // n // r for x in range(n * n)]
    bit = [(x // n % r) * n + x % n for x in range(n * n)]
    column = [b % n for b in range(bits)]  # tables, not divisions, in the kernel
    digit_of = [k // c for k in range(n * c)]
    band_of = [k % c for k in range(n * c)]
    mini = [minirow[b // n][b % n // c] for b in range(bits)]
    parts = [shrink, filt, row, box, col, cell, band, bit, column, digit_of, band_of, mini]
    offsets, at = [], TABLES
    for part in parts:
        offsets.append(at)
        at += len(part)
    return np.array(offsets + [x for part in parts for x in part], np.int64)


def state(t: np.ndarray, geo: np.ndarray, capacity: int) -> Bands:
    """A fresh state of a shape's tables and geo, with a solution buffer of `capacity` grids."""
    cells = int(geo[B_N]) ** 2
    return Bands(t, geo, np.zeros((cells + 2, int(geo[B_WIDTH])), np.int64),
                 np.zeros((cells + 2, FRAME_LEN), np.int64), np.zeros(REGS_LEN, np.int64),
                 np.zeros((capacity, cells), np.uint8))
