"""Seeding the propagation engine's board (engine/propagation.py, whose docstring holds the
glossary): a puzzle's givens placed at once, for the classic grid (seed) and a variant
(seed_rules), and start."""

from __future__ import annotations

from typing import Literal

from sudokucp.engine.board import Board, Place
from sudokucp.engine.tables import tables
from sudokucp.puzzle import Puzzle


def seed(puzzle: Puzzle) -> tuple[Board, list[Place]] | Literal[False]:
    """The board of a puzzle with its givens placed at once, nothing else deduced, and the naked
    singles they leave, queued for settle; False when givens clash or leave a cell with no
    candidate. Every unit is marked dirty and moved."""
    if not puzzle.rules.classic:
        return seed_rules(puzzle)
    t = tables(puzzle.shape)
    full, cell_units, cells = t.full, t.cell_units, puzzle.cells
    used = [0] * len(t.units)
    for c, v in enumerate(cells):
        if v:
            bit = 1 << (v - 1)
            r, k, x = cell_units[c]
            if (used[r] | used[k] | used[x]) & bit:
                return False
            used[r] |= bit
            used[k] |= bit
            used[x] |= bit
    cand, todo, left = [0] * len(cells), [], 0
    for c, v in enumerate(cells):
        if not v:
            r, k, x = cell_units[c]
            m = full & ~(used[r] | used[k] | used[x])
            if not m:
                return False
            cand[c] = m
            left += 1
            if not m & (m - 1):
                todo.append((c, m))
    free = [full ^ u for u in used]
    return Board(t, cand, list(cells), free, left, (1 << len(used)) - 1), todo


def seed_rules(puzzle: Puzzle) -> tuple[Board, list[Place]] | Literal[False]:
    """`seed` for a variant: each open cell keeps the allowed digits no peer's given took; every
    unit and cage sum is marked dirty (the sums are checked by settle)."""
    t = tables(puzzle.shape, puzzle.rules)
    cells, peers, cand = puzzle.cells, t.peers, list(t.allowed)
    for c, v in enumerate(cells):
        if v:
            bit = 1 << (v - 1)
            if not cand[c] & bit:
                return False  # not allowed there, or a peer's given holds it
            for p in peers[c]:
                cand[p] &= ~bit
    free = [t.full] * len(t.units)
    for u, unit in enumerate(t.units):
        for c in unit:
            if cells[c]:
                free[u] ^= 1 << (cells[c] - 1)
    todo, left = [], 0
    for c, v in enumerate(cells):
        if v:
            cand[c] = 0
            continue
        m = cand[c]
        if not m:
            return False
        left += 1
        if not m & (m - 1):
            todo.append((c, m))
    dirty = (1 << (len(t.units) + len(t.sums))) - 1
    return Board(t, cand, list(cells), free, left, dirty), todo


def start(puzzle: Puzzle) -> Board | Literal[False]:
    """The board of a puzzle with its givens placed, nothing else deduced; False on a
    contradiction (two givens clash, or they leave a cell without candidates)."""
    seeded = seed(puzzle)
    return seeded and seeded[0]
