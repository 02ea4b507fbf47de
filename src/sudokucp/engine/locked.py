"""The locked-candidates sweeps of the propagation engine (engine/propagation.py, whose docstring
holds the glossary): pointing and claiming over the box-line crossings of the classic grid
(locked) and over the crossings of a variant's units (locked_pairs)."""

from __future__ import annotations

from typing import Literal

from sudokucp.engine.board import Board, Place, mask_of


def locked(b: Board, todo: list[Place], counts: dict[str, int]) -> bool:
    """Pointing and claiming over the box-line crossings of the units in b.moved (where a cell lost
    a candidate since the last sweep); False on a contradiction.

    A digit found in one crossing only among those of a box (of a line) leaves the rest of the line
    (of the box): only a box's own candidates decide its pointing, a line's its claiming. Cells
    left with one candidate join `todo`, the units of the cells that lost candidates join b.dirty
    and b.moved, counts["pointing"] and counts["claiming"] grow by the (crossing, digit) patterns
    that removed something. Each crossing's candidates are read once per sweep, for its box and
    its line: eliminations from a sweep gone stale stay sound, as candidates only shrink. A
    variant's board runs locked_pairs."""
    t = b.t
    if t.general:
        return locked_pairs(b, todo, counts)
    n, moved = t.n, b.moved & ((1 << (3 * t.n)) - 1)
    b.moved = 0
    boxes, lines = moved >> 2 * n, moved & ((1 << 2 * n) - 1)
    seen = [-1] * len(t.crossings)  # the candidates of each crossing, read when first needed
    pointing = claiming = 0
    while boxes:
        low = boxes & -boxes
        boxes ^= low
        box = low.bit_length() - 1
        for group in t.box_groups[2 * box:2 * box + 2]:
            found = _lock(b, group, 2, todo, seen)
            if found is False:
                return False
            pointing += found
    while lines:
        low = lines & -lines
        lines ^= low
        found = _lock(b, t.line_groups[low.bit_length() - 1], 1, todo, seen)
        if found is False:
            return False
        claiming += found
    counts["pointing"] += pointing
    counts["claiming"] += claiming
    return True


def _lock(b: Board, group: tuple[int, ...], rest: int, todo: list[Place],
          seen: list[int]) -> int | Literal[False]:
    """One group of crossings (of a box with its rows or columns, or of a line with the boxes):
    a digit in one crossing only leaves that crossing's `rest` (2: the line's, 1: the box's).
    The (crossing, digit) patterns that removed something; False on a contradiction."""
    cand, crossings, unit_bits = b.cand, b.t.crossings, b.t.unit_bits
    once = twice = 0
    for k in group:
        m = seen[k]
        if m < 0:
            m = 0
            for c in crossings[k][0]:
                m |= cand[c]
            seen[k] = m
        twice |= once & m
        once |= m
    lone = once & ~twice
    if not lone:
        return 0
    found, dirty = 0, 0
    for k in group:
        digits = seen[k] & lone
        if not digits:
            continue
        removed = 0
        for c in crossings[k][rest]:
            m = cand[c]
            if m & digits:
                removed |= m & digits
                m &= ~digits
                if not m:
                    return False
                cand[c] = m
                dirty |= unit_bits[c]
                if not m & (m - 1):
                    todo.append((c, m))
        found += removed.bit_count()  # one pattern per crossing and digit
    b.dirty |= dirty
    b.moved |= dirty
    return found


def locked_pairs(b: Board, todo: list[Place], counts: dict[str, int]) -> bool:
    """`locked` on a variant's board, over the crossings of every two units that meet, each
    read once if one of its units is in b.moved: a digit of one unit confined to the crossing
    leaves the rest of the other (counted as pointing one way, claiming the other)."""
    t = b.t
    cand, crossings, unit_bits = b.cand, t.crossings, t.unit_bits
    moved = b.moved & ((1 << len(t.units)) - 1)
    b.moved = 0
    seen = set()
    dirty = pointing = claiming = 0
    while moved:
        low = moved & -moved
        moved ^= low
        for k in t.unit_crossings[low.bit_length() - 1]:
            if k in seen:
                continue
            seen.add(k)
            inter, one, two = crossings[k]
            m, r1, r2 = mask_of(cand, inter), mask_of(cand, one), mask_of(cand, two)
            for digits, rest, other in ((m & ~r1 & r2, two, 0), (m & ~r2 & r1, one, 1)):
                if not digits:
                    continue
                removed = 0
                for c in rest:
                    x = cand[c]
                    if x & digits:
                        removed |= x & digits
                        x &= ~digits
                        if not x:
                            return False
                        cand[c] = x
                        dirty |= unit_bits[c]
                        if not x & (x - 1):
                            todo.append((c, x))
                if other:
                    claiming += removed.bit_count()
                else:
                    pointing += removed.bit_count()
    b.dirty |= dirty
    b.moved |= dirty
    counts["pointing"] += pointing
    counts["claiming"] += claiming
    return True
