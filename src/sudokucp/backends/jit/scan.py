"""Reading a text of one-line grids in compiled code (numba); imported only when it runs.

`scan` sorts every line of a text by kind and parses the plain grids of one shape into rows of
cells: PLAIN (exactly the shape's cells, each a blank or one of its digits, no digit twice in a
unit), SKIP (empty, or a '#' comment of printable ASCII: the ordinary reader makes no entry of
either), OTHER (anything else: the ordinary reader judges it), SPLIT (a carriage return inside
the line, which the ordinary reader splits into lines of their own).
"""

from __future__ import annotations

import numpy as np
from numba import njit

PLAIN, SKIP, OTHER, SPLIT = range(4)
NOT_A_VALUE = 0xFF  # table: a byte that is no cell of the shape
NEWLINE, RETURN, HASH = 10, 13, 35


@njit(cache=True, _nrt=False)
def scan(data, table, cunits, cells, max_line, kinds, starts, grids, seen):
    """Sort the lines of `data` (uint8) into `kinds` and parse each plain one into the next row
    of `grids`, its line's index into `starts`; returns the number of plain grids. `table` maps
    a byte to its value (0 a blank, NOT_A_VALUE no cell); `seen` holds a digit mask per unit."""
    size = data.shape[0]
    line = 0
    found = np.int64(0)  # typed: a literal would compile parse and judge once more
    s = np.int64(0)
    while s < size:
        e = s
        while e < size and data[e] != NEWLINE:
            e += 1
        nxt = e + 1
        if e > s and data[e - 1] == RETURN:
            e -= 1
        if e == s:
            kinds[line] = SKIP
        elif e - s == cells and parse(data, s, table, cunits, cells, grids, found, seen):
            kinds[line] = PLAIN
            starts[found] = line
            found += 1
        else:
            kinds[line] = judge(data, s, e, max_line)
        line += 1
        s = nxt
    return found


@njit(cache=True, _nrt=False)
def parse(data, s, table, cunits, cells, grids, row, seen):
    """Parse the grid line at data[s:s + cells] into grids[row]; False when a byte is no cell of
    the shape or a digit is twice in a unit (the ordinary reader says which)."""
    for u in range(seen.shape[0]):
        seen[u] = 0
    for c in range(cells):
        v = table[data[s + c]]
        if v == NOT_A_VALUE:
            return False
        grids[row, c] = v
        if v:
            bit = 1 << (v - 1)
            a, b, d = cunits[c, 0], cunits[c, 1], cunits[c, 2]
            if (seen[a] | seen[b] | seen[d]) & bit:
                return False
            seen[a] |= bit
            seen[b] |= bit
            seen[d] |= bit
    return True


@njit(cache=True, _nrt=False)
def judge(data, s, e, max_line):
    """The kind of a line that is no plain grid: SPLIT, SKIP (a '#' comment of printable ASCII
    within the longest line) or OTHER."""
    comment = data[s] == HASH and e - s <= max_line
    for i in range(s, e):
        b = data[i]
        if b == RETURN:
            return SPLIT
        if b < 32 or b > 126:
            comment = False  # a tab, a control or non-ASCII byte: the reader judges it
    return SKIP if comment else OTHER
