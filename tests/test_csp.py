"""The textbook CSP backend: every option combination, exact counts, contradictions, deadline."""

from itertools import product
from pathlib import Path

import pytest

from sudokucp.backends import OptionError, canonical, get_backend
from sudokucp.backends.base import TIMED_OUT
from sudokucp.check import is_solution
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
PROPAGATIONS, ORDERS, VALUES = ("none", "fc", "mac"), ("static", "mrv", "dom/wdeg"), ("ascending",
                                                                                      "lcv")
COMBINATIONS = list(product(PROPAGATIONS, ORDERS, VALUES))


def grids(path: str) -> list[Puzzle]:
    return load_puzzles(PUZZLES / path)


def csp(propagation: str, order: str, values: str):
    return get_backend("csp", propagation=propagation, order=order, values=values)


def with_blanks(puzzle: Puzzle, count: int) -> Puzzle:
    """The puzzle with its first `count` givens blanked: several solutions."""
    cells, blanked = list(puzzle.cells), 0
    for i, v in enumerate(cells):
        if v and blanked < count:
            cells[i], blanked = 0, blanked + 1
    return Puzzle(puzzle.shape, tuple(cells), name=f"{puzzle.name}-{count}")


@pytest.mark.parametrize("propagation, order, values", COMBINATIONS)
def test_every_combination_counts_small_grids_exactly(propagation, order, values):
    solver = csp(propagation, order, values)
    for puzzle in grids("generated/4x4.txt")[:3] + grids("generated/6x6.txt")[:2]:
        for p in (puzzle, with_blanks(puzzle, 3)):
            expected = get_backend("mrv").solve(p, limit=0)
            result = solver.solve(p, limit=0)
            assert (result.status, result.complete) == (Status.SOLVED, True), p.name
            assert result.count == expected.count, p.name
            assert set(result.solutions) == set(expected.solutions)
            assert all(is_solution(p, s) for s in result.solutions)


@pytest.mark.parametrize("propagation, order, values", COMBINATIONS)
def test_every_combination_solves_a_9x9_and_proves_it_unique(propagation, order, values):
    telegram = grids("seeds/004-telegram.txt")[0]
    result = csp(propagation, order, values).solve(telegram, limit=2, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True)
    assert is_solution(telegram, result.solution)


@pytest.mark.parametrize("propagation", PROPAGATIONS)
def test_the_seeds_multiple_grid_has_28_solutions(propagation):
    multiple = grids("seeds/004-multiple.txt")[0]
    result = csp(propagation, "mrv", "ascending").solve(multiple, limit=0)
    assert (result.count, result.complete) == (28, True)
    assert len(set(result.solutions)) == 28
    assert all(is_solution(multiple, s) for s in result.solutions)


def test_limit_two_stops_at_the_second_solution():
    multiple = grids("seeds/004-multiple.txt")[0]
    result = get_backend("csp").solve(multiple, limit=2)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 2, False)


def test_no_propagation_in_static_order_walks_the_naive_tree():
    telegram = grids("seeds/004-telegram.txt")[0]
    naive = get_backend("naive").solve(telegram, limit=0)
    plain = csp("none", "static", "ascending").solve(telegram, limit=0)
    assert plain.stats["nodes"] == naive.stats["nodes"] > 0
    assert plain.stats["backtracks"] == naive.stats["backtracks"]
    assert plain.stats["revisions"] == 0 and plain.stats["checks"] > plain.stats["nodes"]


def test_more_inference_never_grows_the_static_tree():
    tutorial = grids("seeds/000-tutorial.txt")[0]
    nodes = [csp(p, "static", "ascending").solve(tutorial, limit=2, time_limit=60).stats["nodes"]
             for p in ("fc", "mac")]
    assert nodes[0] > nodes[1] > 0
    mac = csp("mac", "mrv", "ascending").solve(tutorial, limit=2).stats
    assert mac["revisions"] > 0 and mac["checks"] > mac["revisions"]


@pytest.mark.parametrize("propagation", PROPAGATIONS)
def test_clashing_givens_are_unsat_without_a_node(propagation):
    cells = [0] * 16
    cells[0] = cells[1] = 2
    result = csp(propagation, "mrv", "ascending").solve(Puzzle(Shape(2, 2), tuple(cells)))
    assert (result.status, result.complete, result.stats["nodes"]) == (Status.UNSAT, True, 0)


@pytest.mark.parametrize("propagation, order", list(product(PROPAGATIONS, ORDERS)))
def test_a_cell_with_no_value_left_is_unsat(propagation, order):
    # r1c4 sees 1, 2, 3 in its row and 4 in its column: no digit fits, though no unit repeats
    cells = [1, 2, 3, 0] + [0] * 12
    cells[3 * 4 + 3] = 4
    result = csp(propagation, order, "lcv").solve(Puzzle(Shape(2, 2), tuple(cells)), limit=0)
    assert (result.status, result.complete, result.count) == (Status.UNSAT, True, 0)
    if propagation != "none":
        assert result.stats["nodes"] == 0  # the root's propagation proves it


def test_the_deadline_stops_a_hopeless_search():
    hard = grids("seeds/001-anti-backtracking.txt")[0]
    result = csp("none", "static", "ascending").solve(hard, time_limit=0.2)
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.stats[TIMED_OUT] == 1 and result.stats["nodes"] >= 1024


@pytest.mark.parametrize("propagation", ["fc", "mac"])
def test_16x16_grids(propagation):
    seed = grids("seeds/002-backtracking-16x16.txt")[0]
    result = csp(propagation, "mrv", "ascending").solve(seed, limit=2, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True)
    assert is_solution(seed, result.solution)


def test_options_and_names():
    assert canonical("csp") == "csp" and canonical("python-constraint") == "pyconstraint"
    assert get_backend("csp", order="dom/wdeg").label == "csp:order=dom/wdeg"
    with pytest.raises(OptionError, match="none, fc, mac"):
        get_backend("csp", propagation="ac4")
    with pytest.raises(OptionError, match="has no option"):
        get_backend("csp", heuristic="mrv")
