"""Seeding the propagation engine's board (engine/propagation.py, whose docstring holds the
glossary): a puzzle's givens placed at once on its layout's tables (seed), and start."""

from __future__ import annotations

from typing import Literal

from sudokucp.engine.board import Board, Place
from sudokucp.engine.tables import tables
from sudokucp.puzzle import Puzzle


def seed(puzzle: Puzzle) -> tuple[Board, list[Place]] | Literal[False]:
    """The board of a puzzle with its givens placed at once, nothing else deduced: each open cell
    keeps the allowed digits no peer's given took, and the naked singles they leave are queued
    for settle; False when givens clash or leave a cell with no candidate. Every unit and cage
    sum is marked dirty (the sums are checked by settle) and moved."""
    t = tables(puzzle.shape, puzzle.rules)
    cells, cell_units, others, cand = puzzle.cells, t.cell_units, t.other_peers, list(t.allowed)
    free = [t.full] * len(t.units)
    for c, v in enumerate(cells):
        if v:
            bit = 1 << (v - 1)
            if not cand[c] & bit:
                return False  # not allowed there, or a given sharing a group with it holds it
            for u in cell_units[c]:
                if not free[u] & bit:
                    return False  # another given of the unit holds it
                free[u] ^= bit
            for p in others[c]:
                cand[p] &= ~bit
    todo, left = [], 0
    for c, v in enumerate(cells):
        if v:
            cand[c] = 0
            continue
        m = cand[c]
        for u in cell_units[c]:
            m &= free[u]
        if not m:
            return False
        cand[c] = m
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
