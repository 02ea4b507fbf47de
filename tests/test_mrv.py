"""MRV backtracking, dynamic and static orders, on the project's grids of several shapes."""

from pathlib import Path

import pytest

from sudokucp.backends import OptionError, from_spec, get_backend
from sudokucp.backends.base import TIMED_OUT
from sudokucp.backends.mrv import static_order
from sudokucp.check import is_solution
from sudokucp.engine.groups import Groups
from sudokucp.io.formats import load_puzzles, parse_grid
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
ORDERS = ["mrv", "mrv:hidden=false", "mrv:order=static"]
DYNAMIC = ["mrv", "mrv:hidden=false"]


def grids(path: str, count: int | None = None) -> list[Puzzle]:
    return load_puzzles(PUZZLES / path)[:count]


def check_unique(spec: str, puzzle: Puzzle) -> None:
    result = from_spec(spec).solve(puzzle, limit=2)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True), puzzle.name
    assert is_solution(puzzle, result.solution)


@pytest.mark.parametrize("spec", ORDERS)
@pytest.mark.parametrize("path", ["generated/4x4.txt", "generated/6x6.txt",
                                  "generated/9x9-simple.txt", "seeds/002-backtracking-16x16.txt"])
def test_every_order_proves_small_grids_unique(spec, path):
    for puzzle in grids(path):
        check_unique(spec, puzzle)


@pytest.mark.parametrize("spec", DYNAMIC)
@pytest.mark.parametrize("path, count", [("generated/9x9-expert.txt", None),
                                         ("generated/12x12.txt", 2)])
def test_dynamic_order_proves_mid_grids_unique(spec, path, count):
    for puzzle in grids(path, count):
        check_unique(spec, puzzle)


@pytest.mark.parametrize("spec", ORDERS)
def test_multiple_has_the_28_solutions_naive_finds(spec):
    puzzle = grids("seeds/004-multiple.txt")[0]
    result = from_spec(spec).solve(puzzle, limit=0)
    naive = get_backend("naive").solve(puzzle, limit=0)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)
    assert set(result.solutions) == set(naive.solutions)
    assert len(set(result.solutions)) == 28


@pytest.mark.parametrize("spec", ORDERS)
@pytest.mark.parametrize("limit", [1, 2, 5])
def test_limit_stops_the_search(spec, limit):
    result = from_spec(spec).solve(grids("seeds/004-multiple.txt")[0], limit=limit)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, limit, False)


@pytest.mark.parametrize("spec", ORDERS)
@pytest.mark.parametrize("box_rows, box_cols", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_fills_an_empty_grid_of_every_shape(spec, box_rows, box_cols):
    puzzle = Puzzle.empty(Shape(box_rows, box_cols))
    result = from_spec(spec).solve(puzzle, time_limit=30)
    assert result.status is Status.SOLVED
    assert is_solution(puzzle, result.solution)


def test_dynamic_order_fills_an_empty_25x25_grid():
    puzzle = Puzzle.empty(Shape(5, 5))
    result = get_backend("mrv").solve(puzzle, time_limit=30)
    assert result.status is Status.SOLVED and is_solution(puzzle, result.solution)


def test_counts_every_4x4_grid():
    counts = {spec: from_spec(spec).solve(Puzzle.empty(Shape(2, 2)), limit=0).count
              for spec in ORDERS}
    assert counts == dict.fromkeys(ORDERS, get_backend("naive").solve(
        Puzzle.empty(Shape(2, 2)), limit=0).count)


NO_CANDIDATE = "12345678." + "........9" + "." * 63  # r1c9 has no digit left
NO_PLACE = "......234" + "1........" + "...1....." + "." * 54  # 1 has no place in row 1


@pytest.mark.parametrize("spec", ORDERS)
@pytest.mark.parametrize("line", [NO_CANDIDATE, NO_PLACE])
def test_grid_without_solution_is_unsat(spec, line):
    result = from_spec(spec).solve(parse_grid(line), limit=0, time_limit=30)
    assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


@pytest.mark.parametrize("spec", ORDERS)
def test_repeated_given_is_unsat(spec):
    puzzle = Puzzle(Shape(2, 2), (1, 1) + (0,) * 14)
    result = from_spec(spec).solve(puzzle)
    assert (result.status, result.complete) == (Status.UNSAT, True)


@pytest.mark.parametrize("spec", ORDERS)
def test_deadline_gives_timeout(spec):
    result = from_spec(spec).solve(Puzzle.empty(Shape(4, 4)), limit=0, time_limit=0.2)
    assert (result.status, result.complete) == (Status.TIMEOUT, False)
    assert result.stats["nodes"] > 0 and result.stats[TIMED_OUT] == 1


def test_static_order_sorts_cells_once_by_candidate_count():
    puzzle = grids("seeds/004-multiple.txt")[0]
    g = Groups(puzzle)
    assert g.take_givens(puzzle.cells)
    order = static_order(g, [c for c, v in enumerate(puzzle.cells) if not v])
    keys = [(g.candidates(cell).bit_count(), cell) for cell in order]
    assert keys == sorted(keys) and len(keys) == puzzle.shape.cells - puzzle.givens


def test_dynamic_order_walks_a_smaller_tree_on_multiple():
    puzzle = grids("seeds/004-multiple.txt")[0]
    nodes = [from_spec(spec).solve(puzzle, limit=0).stats["nodes"]
             for spec in ["mrv:order=static", "mrv:hidden=false", "mrv"]]
    assert nodes == sorted(nodes, reverse=True) and nodes[0] > 10 * nodes[1] > 10 * 28


def test_options_are_checked_and_labelled():
    assert from_spec("mrv:order=static").label == "mrv:order=static"
    assert get_backend("mrv").label == "mrv"
    with pytest.raises(OptionError, match="dynamic, static"):
        get_backend("mrv", order="random")
