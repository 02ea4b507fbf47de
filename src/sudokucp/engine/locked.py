"""The locked-candidates sweep of the propagation engine (engine/propagation.py, whose docstring
holds the glossary): pointing and claiming over a layout's sweeps (engine/tables.py), the
box-line crossings of the classic grid, the crossings of any two units of a variant."""

from __future__ import annotations

from typing import Literal

from sudokucp.engine.board import Board, Place


def locked(b: Board, todo: list[Place], counts: dict[str, int]) -> bool:
    """Pointing and claiming over the sweeps of the units in b.moved (where a cell lost a
    candidate since the last sweep), those from t.first_swept on first; False on a contradiction.

    A sweep splits its unit into pieces: a digit found in one piece only leaves that piece's
    rest (on the classic grid only a box's own candidates decide its pointing, a line's its
    claiming). Cells left with one candidate join `todo`, the units of the cells that lost
    candidates join b.dirty and b.moved, counts["pointing"] and counts["claiming"] grow by the
    (piece, digit) patterns that removed something. Each piece's candidates are read once per
    sweep: eliminations from a read gone stale stay sound, as candidates only shrink."""
    t = b.t
    moved, first = b.moved & ((1 << len(t.units)) - 1), t.first_swept
    b.moved = 0
    seen = [-1] * len(t.pieces)  # the candidates of each piece, read when first needed
    found = [0, 0]  # pointing, claiming
    for part in (moved >> first << first, moved & ((1 << first) - 1)):
        while part:
            low = part & -part
            part ^= low
            for kind, pieces, rests in t.sweeps[low.bit_length() - 1]:
                k = _lock(b, pieces, rests, todo, seen)
                if k:
                    found[kind] += k
                elif k is False:
                    return False
    counts["pointing"] += found[0]
    counts["claiming"] += found[1]
    return True


def _lock(b: Board, pieces: tuple[int, ...], rests: tuple[tuple[int, ...], ...],
          todo: list[Place], seen: list[int]) -> int | Literal[False]:
    """One sweep: a digit in one of the pieces only leaves that piece's rest. The (piece, digit)
    patterns that removed something; False on a contradiction."""
    cand, cells, unit_bits = b.cand, b.t.pieces, b.t.unit_bits
    once = twice = 0
    for k in pieces:
        m = seen[k]
        if m < 0:
            m = 0
            for c in cells[k]:
                m |= cand[c]
            seen[k] = m
        twice |= once & m
        once |= m
    lone = once & ~twice
    if not lone:
        return 0
    found = dirty = 0
    for k, rest in zip(pieces, rests):
        digits = seen[k] & lone
        if not digits:
            continue
        removed = 0
        for c in rest:
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
        found += removed.bit_count()  # one pattern per piece and digit
    b.dirty |= dirty
    b.moved |= dirty
    return found
