"""One engine: `sudoku-cp explain` tells the logic backend's own path, move for move.

For each grid the moves of explain are held against the engine's fixpoint (the steps of
engine.techniques.deduce, which the logic backend runs through apply_logic) and against the logic
backend's own run: the same digits placed and the same candidates struck, in the same order and
by the same techniques; explain's moves alone, replayed on a fresh board, give the fixpoint's
board; and the backend's status, solution and per-technique counts match what explain says."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import PUZZLES
from test_explain import replay

from sudokucp.backends import get_backend
from sudokucp.engine.propagation import start
from sudokucp.engine.techniques import TECHNIQUES, deduce, fixpoint
from sudokucp.generators.generator import generate_one
from sudokucp.io.formats import load_puzzles, parse_grid
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status
from sudokucp.teaching.explain import Move, explain, title

EVERY = list(TECHNIQUES)  # the logic backend's default level, "fish", is every technique
STATUS = {"solved": Status.SOLVED, "stuck": Status.UNKNOWN, "contradiction": Status.UNSAT}
SEEDS = {4: range(8), 6: range(8), 9: range(8), 12: range(3), 16: range(1)}
GENERATED = [(side, seed) for side, seeds in SEEDS.items() for seed in seeds]
BROKEN = ["123....4........",  # r1c4 left without a candidate by the givens
          "......234" + "1" + "." * 11 + "1" + "." * 59]  # digit 1 has no place in row 1


def told(moves: list[Move], kind: str) -> list[tuple[str, int, int]]:
    """(technique, cell, digit) of every digit placed (kind 'placed') or candidate struck."""
    return [(m.technique, c, d) for m in moves for c, d in getattr(m, kind)]


def made(puzzle: Puzzle, kind: str) -> list[tuple[str, int, int]]:
    """The same, from the engine's own steps (`placed` or `eliminated`)."""
    board = start(puzzle)
    if board is False:
        return []
    return [(title(name), c, d) for name, step in deduce(board, EVERY) if step
            for c, d in getattr(step, kind)]


def assert_one_engine(puzzle: Puzzle) -> None:
    moves = list(explain(puzzle))
    end, steps = moves[-1], moves[:-1]
    assert all(m.kind == "step" for m in steps) and end.kind in STATUS
    # step by step: the same digits placed and candidates struck, in order, by the same technique
    assert told(steps, "placed") == made(puzzle, "placed")
    assert told(steps, "removed") == made(puzzle, "eliminated")
    # the logic backend's own run: its verdict, its grid, its counts per technique
    result = get_backend("logic").solve(puzzle, limit=2)
    assert result.status is STATUS[end.kind], end.text
    if end.kind == "contradiction":
        return
    counts = Counter(m.technique for m in steps)
    assert {title(name): result.stats[name] for name in EVERY} == \
        {title(name): counts[title(name)] for name in EVERY}
    # the final boards: explain's moves alone give the fixpoint's digits and candidates
    board, logic = replay(puzzle, steps), start(puzzle)
    assert logic and fixpoint(logic, EVERY, {})
    assert board.vals == logic.vals and board.cand == logic.cand
    assert result.stats["filled"] == sum(1 for v in board.vals if v)
    if end.kind == "solved":
        assert result.solution == tuple(board.vals)


def test_top95(public_sets) -> None:
    puzzles = load_puzzles(public_sets / "top95.txt")
    assert len(puzzles) == 95
    for puzzle in puzzles:
        assert_one_engine(puzzle)


@pytest.mark.parametrize("side,seed", GENERATED, ids=[f"{s}x{s}-{k}" for s, k in GENERATED])
def test_generated_grids(side: int, seed: int) -> None:
    assert_one_engine(generate_one(Shape.for_side(side), seed).puzzle)


@pytest.mark.parametrize("name", ["002-logic-9x9", "002-backtracking-16x16", "000-tutorial"])
def test_project_seeds(name: str) -> None:
    assert_one_engine(load_puzzles(PUZZLES / "seeds" / f"{name}.txt")[0])


@pytest.mark.parametrize("text", BROKEN)
def test_contradictions(text: str) -> None:
    puzzle = parse_grid(text)
    assert list(explain(puzzle))[-1].kind == "contradiction"
    assert_one_engine(puzzle)
