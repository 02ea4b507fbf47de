"""The band-wise kernel's layout (bands.py's): its state as a NamedTuple, its geo array and the
9x9 tables its steps read, with no numba here (ahead.py's callers read these names)."""

from __future__ import annotations

from functools import reduce
from itertools import permutations
from operator import or_
from typing import Any, NamedTuple

import numpy as np

from sudokucp.backends.jit.layout import FRAME_LEN, REGS_LEN

B_LIMIT, B_KEEP = range(2)  # geo: the search's limit and keep
WIDTH = 30  # a state row: a 27-bit mask per (band, digit), then the unsolved cells of each band


class Bands(NamedTuple):
    """The band-wise kernel's state: geo, and one search's buffers."""

    geo: Any
    stack: Any  # a state row per depth
    frames: Any
    regs: Any
    sols: Any


def layout(limit: int, keep: int) -> np.ndarray:
    """The geo array of a search."""
    return np.array([limit, keep], np.int64)


def state(geo: np.ndarray, capacity: int) -> Bands:
    """A fresh state of a search's geo, with a solution buffer of `capacity` grids."""
    return Bands(geo, np.zeros((83, WIDTH), np.int64), np.zeros((83, FRAME_LEN), np.int64),
                 np.zeros(REGS_LEN, np.int64), np.zeros((capacity, 81), np.uint8))


def tables() -> tuple[np.ndarray, ...]:
    """The 9x9 band's tables, a bit 9 * row + column each: shrink (a row's 9 bits -> its boxes),
    filter (the 9 mini-rows a digit reaches -> the cells of the (row, box) permutations inside
    them, 0 for none), row, box and column (a bit -> the band bits of its row, box, column)."""
    mini = [[7 << (9 * i + 3 * j) for j in range(3)] for i in range(3)]
    perms = [sum(1 << (3 * i + p[i]) for i in range(3)) for p in permutations(range(3))]
    used = [reduce(or_, (perm for perm in perms if perm & pattern == perm), 0)
            for pattern in range(512)]
    shrink = [sum(1 << j for j in range(3) if pattern >> (3 * j) & 7) for pattern in range(512)]
    filt = [sum(mini[i][j] for i in range(3) for j in range(3) if u >> (3 * i + j) & 1)
            for u in used]
    row = [0x1FF << (b // 9 * 9) for b in range(27)]
    box = [sum(mini[i][b % 9 // 3] for i in range(3)) for b in range(27)]
    column = [sum(1 << (9 * i + b % 9) for i in range(3)) for b in range(27)]
    return tuple(np.array(t, np.int64) for t in (shrink, filt, row, box, column))
