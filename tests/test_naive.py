"""The seeds' naive backtracking, recursive and iterative, on the seeds' grids."""

import random
import sys
from pathlib import Path

import pytest

from sudokucp.backends import get_backend
from sudokucp.check import is_solution
from sudokucp.io.formats import load_puzzles, parse_grid
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

SEEDS = Path(__file__).resolve().parents[1] / "puzzles" / "seeds"
NAIVE = ["naive", "naive-iterative"]


def seed_grid(name: str) -> Puzzle:
    return load_puzzles(SEEDS / f"{name}.txt")[0]


@pytest.mark.parametrize("backend", NAIVE)
@pytest.mark.parametrize("name", ["002-logic-9x9", "002-backtracking-16x16"])
def test_prints_the_seed_002_solutions(backend, name):
    result = get_backend(backend).solve(seed_grid(name))
    assert result.status is Status.SOLVED
    assert result.solution == seed_grid(f"{name}.solution").cells


@pytest.mark.parametrize("backend", NAIVE)
def test_multiple_has_28_solutions(backend):
    puzzle = seed_grid("004-multiple")
    result = get_backend(backend).solve(puzzle, limit=0)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)
    assert len(set(result.solutions)) == 28
    assert all(is_solution(puzzle, s) for s in result.solutions)


def test_both_variants_walk_the_same_tree():
    puzzle = seed_grid("004-multiple")
    stats = [get_backend(b).solve(puzzle, limit=0).stats for b in NAIVE]
    assert stats[0] == stats[1] and stats[0]["nodes"] > 28


@pytest.mark.parametrize("backend", NAIVE)
@pytest.mark.parametrize("limit, count, complete", [(1, 1, False), (2, 2, False), (5, 5, False)])
def test_limit_stops_the_search(backend, limit, count, complete):
    result = get_backend(backend).solve(seed_grid("004-multiple"), limit=limit)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, count, complete)


@pytest.mark.parametrize("backend", NAIVE)
def test_unique_grid_is_proved_unique(backend):
    result = get_backend(backend).solve(seed_grid("004-telegram"), limit=2)
    assert (result.count, result.complete, result.unique) == (1, True, True)


@pytest.mark.parametrize("backend", NAIVE)
def test_deadline_gives_timeout_on_the_anti_backtracking_grid(backend):
    result = get_backend(backend).solve(seed_grid("001-anti-backtracking"), time_limit=0.5)
    assert result.status is Status.TIMEOUT
    assert not result.complete and result.count == 0
    assert result.seconds >= 0.5 and result.stats["nodes"] > 1000


@pytest.mark.parametrize("backend", NAIVE)
def test_unsat_grid_is_complete(backend):
    # r1c1 can be neither 1-3 (row) nor 4 (column): no solution, found by exhausting the tree
    puzzle = parse_grid("." + "123" + "4" + "." * 11)
    result = get_backend(backend).solve(puzzle, limit=0)
    assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


@pytest.mark.parametrize("backend", NAIVE)
def test_duplicate_givens_are_unsat(backend):
    puzzle = Puzzle(Shape(2, 2), (1, 1) + (0,) * 14)
    assert get_backend(backend).solve(puzzle).status is Status.UNSAT


def test_recursion_limit_is_not_hit_on_25x25(monkeypatch):
    shape, n = Shape(5, 5), 25
    solution = [((i % 5) * 5 + i // 5 + j) % n + 1 for i in range(n) for j in range(n)]
    cells = list(solution)
    for cell in random.Random(0).sample(range(625), 200):
        cells[cell] = 0
    puzzle = Puzzle(shape, tuple(cells))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(100)  # far below the 200 levels this search needs
    try:
        result = get_backend("naive").solve(puzzle, time_limit=60)
    finally:
        sys.setrecursionlimit(old)
    assert result.status is Status.SOLVED, result.error
    assert is_solution(puzzle, result.solution)
