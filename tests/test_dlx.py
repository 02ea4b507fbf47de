"""The dlx backend: the exact-cover matrix of every shape, exact counts, UNSAT, the deadline."""

from __future__ import annotations

import pytest
from conftest import PUZZLES

from sudokucp.backends import get_backend
from sudokucp.backends.base import TIMED_OUT
from sudokucp.backends.dlx import constraints, matrix
from sudokucp.check import is_solution
from sudokucp.io.formats import parse_grid, read_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

SHAPES = (Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(3, 4), Shape(4, 4))
MULTIPLE = ("809000007076089000030070890020708010700000002"
            "060120470697804231000906700000007906")  # seed 004: 28 solutions
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_the_matrix_has_4n2_columns_and_n3_rows_of_four(shape):
    n, m = shape.side, matrix(shape)
    assert len(m.size) == 4 * n * n + 1  # the root, then one header per column
    assert len(m.first) == n ** 3
    assert len(m.top) == 4 * n * n + 1 + 4 * n ** 3
    assert m.size[1:] == [n] * (4 * n * n)  # every constraint met by n placements
    for column in range(1, 4 * n * n + 1):  # walking down a column comes back to its header
        walked, x = 0, m.D[column]
        while x != column:
            assert m.top[x] == column
            walked, x = walked + 1, m.D[x]
        assert walked == n


def test_a_placement_meets_its_cell_and_three_unit_digits():
    # r5c5 (cell 40) is in row unit 4, column unit 9 + 4, box unit 18 + 4; digit 5 is index 4
    assert constraints(Shape(3, 3), 40, 4) == (40, 81 + 4 * 9 + 4, 81 + 13 * 9 + 4,
                                               81 + 22 * 9 + 4)


def test_counts_the_28_solutions_like_naive():
    puzzle = parse_grid(MULTIPLE)
    result = get_backend("dlx").solve(puzzle, limit=0)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)
    assert set(result.solutions) == set(get_backend("naive").solve(puzzle, limit=0).solutions)


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_a_limit_stops_without_claiming_completeness(limit):
    result = get_backend("dlx").solve(parse_grid(MULTIPLE), limit=limit)
    assert (result.count, result.complete) == (limit, False)
    assert len(set(result.solutions)) == limit


def test_the_empty_4x4_has_288_grids():
    result = get_backend("dlx").solve(Puzzle.empty(Shape(2, 2)), limit=0)
    assert (result.count, result.complete) == (288, True)
    assert len(set(result.solutions)) == 288


@pytest.mark.parametrize("path", ["generated/6x6.txt", "generated/12x12.txt",
                                  "seeds/002-backtracking-16x16.txt"])
def test_every_shape_is_solved_and_proved_unique(path):
    for entry in read_puzzles(PUZZLES / path)[:3]:
        result = get_backend("dlx").solve(entry.puzzle, limit=2, time_limit=30)
        assert result.status is Status.SOLVED and result.complete and result.count == 1
        assert is_solution(entry.puzzle, result.solution)


def test_hard_grid_counts_nodes_and_guesses():
    result = get_backend("dlx").solve(parse_grid(HARD), limit=2)
    assert result.complete and result.count == 1
    assert result.stats["nodes"] >= result.stats["guesses"] > 0


def test_clashing_givens_are_unsat_without_a_search():
    cells = (1, 1) + (0,) * 79
    result = get_backend("dlx").solve(Puzzle(Shape(3, 3), cells), limit=2)
    assert (result.status, result.complete, result.stats["nodes"]) == (Status.UNSAT, True, 0)


def test_a_cell_without_a_digit_is_unsat():
    # r1c1: 1 and 2 in its row, 4 in its box, 3 in its column; no unit repeats a digit
    puzzle = parse_grid(".12..4..3.......")
    result = get_backend("dlx").solve(puzzle, limit=2)
    assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


def test_the_deadline_stops_a_long_count():
    result = get_backend("dlx").solve(Puzzle.empty(Shape(3, 3)), limit=0, time_limit=0.05)
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.stats[TIMED_OUT] == 1  # how many it counted first is the machine's speed
