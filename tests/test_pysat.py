"""The pysat backend: every solver and both ways of giving the givens, counts, UNSAT, deadline."""

from __future__ import annotations

import pytest

from sudokucp.backends import OptionError, backend_class, get_backend
from sudokucp.backends.base import TIMED_OUT
from sudokucp.check import is_solution
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

MULTIPLE = ("809000007076089000030070890020708010700000002"
            "060120470697804231000906700000007906")  # seed 004: 28 solutions
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
GIVENS = ("simplify", "assume")


@pytest.fixture(autouse=True)
def needs_pysat():
    if not backend_class("pysat").available():
        pytest.skip("python-sat is not installed (extra [sat])")


def solvers():
    from sudokucp.backends.sat.pysat import SOLVERS

    return SOLVERS


@pytest.mark.parametrize("givens", GIVENS)
@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "maplechrono", "minisat22"])
def test_counts_the_28_solutions(solver, givens):
    puzzle = parse_grid(MULTIPLE)
    result = get_backend("pysat", solver=solver, givens=givens).solve(puzzle, limit=0,
                                                                       time_limit=30)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)
    assert len(set(result.solutions)) == 28
    assert set(result.solutions) == set(get_backend("naive").solve(puzzle, limit=0).solutions)


def test_every_solver_of_the_list_proves_a_hard_grid_unique():
    puzzle = parse_grid(HARD)
    for solver in solvers():
        result = get_backend("pysat", solver=solver).solve(puzzle, limit=2, time_limit=30)
        assert (result.count, result.complete) == (1, True), solver
        assert is_solution(puzzle, result.solution)


@pytest.mark.parametrize("givens", GIVENS)
def test_one_solver_per_shape_serves_grid_after_grid(givens):
    """Counts retire their blocking clauses: the next grid of the shape is not cut short."""
    backend = get_backend("pysat", givens=givens, solver="glucose4")
    multiple, hard = parse_grid(MULTIPLE), parse_grid(HARD)
    for _ in range(2):
        assert backend.solve(multiple, limit=0).count == 28
        assert backend.solve(multiple, limit=3).count == 3
        assert (backend.solve(hard, limit=2).count, backend.solve(hard, limit=2).complete) == (
            1, True)


@pytest.mark.parametrize("givens", GIVENS)
@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 4)], ids=str)
def test_other_shapes(shape, givens):
    result = get_backend("pysat", givens=givens).solve(Puzzle.empty(shape), limit=3)
    assert result.count == 3 and len(set(result.solutions)) == 3
    assert all(is_solution(Puzzle.empty(shape), s) for s in result.solutions)


def test_the_empty_4x4_has_288_grids():
    result = get_backend("pysat").solve(Puzzle.empty(Shape(2, 2)), limit=0)
    assert (result.count, result.complete) == (288, True)


@pytest.mark.parametrize("givens", GIVENS)
def test_unsat_grids(givens):
    backend = get_backend("pysat", givens=givens)
    clash = Puzzle(Shape(3, 3), (1, 1) + (0,) * 79)
    dead = parse_grid(".12..4..3.......")  # r1c1 has no digit left
    for puzzle in (clash, dead):
        result = backend.solve(puzzle, limit=2)
        assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


def test_a_full_grid_is_its_own_solution():
    grid = get_backend("pysat").solve(parse_grid(HARD)).solution
    result = get_backend("pysat").solve(Puzzle(Shape(3, 3), grid), limit=2)
    assert (result.count, result.complete, result.solution) == (1, True, grid)


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])  # conflict chunks / interrupt
@pytest.mark.parametrize("givens", GIVENS)
def test_the_deadline_stops_a_long_count(solver, givens):
    backend = get_backend("pysat", solver=solver, givens=givens)
    result = backend.solve(Puzzle.empty(Shape(3, 3)), limit=0, time_limit=0.3)
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.stats[TIMED_OUT] == 1  # how many it counted first is the machine's speed
    assert backend.solve(parse_grid(MULTIPLE), limit=0).count == 28  # the solver recovers


def test_stats_and_options():
    result = get_backend("pysat").solve(parse_grid(HARD), limit=2)
    assert {"conflicts", "decisions", "propagations", "build_s", "encode_s", "solve_s"} <= set(
        result.stats)
    with pytest.raises(OptionError, match="cadical195"):
        get_backend("pysat", solver="lingeling")
    with pytest.raises(OptionError, match="assume"):
        get_backend("pysat", givens="later")
