"""The judge, independent of every backend."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokucp.check import explain, find_conflicts, is_solution, solved_rows
from sudokucp.io.formats import load_puzzles, parse_many
from sudokucp.puzzle import Puzzle, Shape

SEEDS = Path(__file__).resolve().parents[1] / "puzzles" / "seeds"
SOLUTION_6 = (1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3, 2, 3, 1, 5, 6, 4,
              5, 6, 4, 2, 3, 1, 3, 1, 2, 6, 4, 5, 6, 4, 5, 3, 1, 2)


def test_a_valid_6x6_solution():
    puzzle = Puzzle(Shape(2, 3), tuple(v if i % 3 else 0 for i, v in enumerate(SOLUTION_6)))
    assert is_solution(puzzle, SOLUTION_6)
    assert explain(puzzle, SOLUTION_6) == []


def test_a_changed_given_is_rejected():
    puzzle = Puzzle(Shape(2, 3), (2,) + (0,) * 35)
    assert not is_solution(puzzle, SOLUTION_6)
    assert explain(puzzle, SOLUTION_6) == ["r1c1 changes the given 2 to 1"]


def test_swapped_cells_conflict_in_columns_and_boxes():
    grid = list(SOLUTION_6)
    grid[0], grid[1] = grid[1], grid[0]
    puzzle = Puzzle.empty(Shape(2, 3))
    assert not is_solution(puzzle, grid)
    conflicts = find_conflicts(Shape(2, 3), grid)
    assert {(c.unit, c.digit) for c in conflicts} == {(6, 2), (7, 1)}


def test_wrong_length_and_range():
    puzzle = Puzzle.empty(Shape(2, 2))
    assert not is_solution(puzzle, (1,) * 15)
    bad = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 5]
    assert not is_solution(puzzle, bad)
    assert "r4c4 holds 5, not a digit 1-4" in explain(puzzle, bad)


def test_the_seed_all_done_grid_is_invalid():
    text = (SEEDS / "004-all-done.txt").read_text()
    entry = next(parse_many(text))
    assert entry.error is not None and "row 5" in str(entry.error)


def test_the_seed_solutions_are_valid():
    for name in ("002-logic-9x9", "002-backtracking-16x16"):
        puzzle = load_puzzles(SEEDS / f"{name}.txt")[0]
        solution = load_puzzles(SEEDS / f"{name}.solution.txt")[0]
        assert is_solution(puzzle, solution.cells)


@settings(max_examples=60, deadline=None)
@given(side=st.sampled_from([4, 6, 9]), seed=st.integers(0, 10**6),
       edits=st.lists(st.tuples(st.integers(0, 10**4), st.integers(0, 35)), max_size=3))
def test_solved_rows_agrees_with_is_solution(side: int, seed: int,
                                             edits: list[tuple[int, int]]) -> None:
    from sudokucp.generators.generator import generate_one

    made = generate_one(Shape.for_side(side), seed)
    givens, grid = list(made.puzzle.cells), list(made.solution)
    for cell, value in edits:  # some edits break the grid, some keep it (same value)
        grid[cell % len(grid)] = value % (side + 2)
    rows = solved_rows(made.puzzle.shape, np.array([givens, givens]),
                       np.array([list(made.solution), grid]))
    assert rows.tolist() == [True, is_solution(made.puzzle, grid)]


def test_solved_rows_refuses_arrays_of_another_shape() -> None:
    with pytest.raises(ValueError, match="4x4"):
        solved_rows(Shape.for_side(4), np.zeros((2, 16)), np.zeros((3, 16)))


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.int64, np.uint64])
def test_solved_rows_takes_any_integer_array_and_no_value_wraps(dtype) -> None:
    """A value the masks' narrow type would wrap to a digit (2**16 + 1, 2**32 + 5) is refused,
    whatever the arrays' own integer type; the solution itself is accepted."""
    from sudokucp.generators.generator import generate_one

    made = generate_one(Shape.for_side(9), 7)
    givens = np.array([made.puzzle.cells] * 3, np.int64)
    grids = np.array([made.solution] * 3, np.int64)
    big = np.iinfo(dtype).max
    for row, wraps in ((1, 2**16 + made.solution[0]), (2, 2**32 + made.solution[0])):
        grids[row, 0] = min(wraps, big) if big > 255 else 0
    rows = solved_rows(made.puzzle.shape, givens.astype(dtype), grids.astype(dtype))
    assert rows.tolist() == [True, False, False]
