"""The minizinc backend: the model on every shape, counts, UNSAT, statistics, the time limit, and
the message where the toolchain is missing. Skipped with the reason where MiniZinc is absent."""

from __future__ import annotations

import pytest

from sudokucp.backends import BackendUnavailable, OptionError, get_backend
from sudokucp.backends.minizinc import minizinc as mzn
from sudokucp.check import is_solution
from sudokucp.io.formats import parse_grid
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

MULTIPLE = ("809000007076089000030070890020708010700000002"
            "060120470697804231000906700000007906")  # seed 004: 28 solutions
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture
def backend():
    reason = mzn.MiniZinc.unavailable_reason()
    if reason:
        pytest.skip(reason)
    return get_backend("minizinc")


def test_counts_the_28_solutions(backend):
    puzzle = parse_grid(MULTIPLE)
    result = backend.solve(puzzle, limit=0, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)
    assert set(result.solutions) == set(get_backend("naive").solve(puzzle, limit=0).solutions)


def test_proves_a_hard_grid_unique_with_statistics(backend):
    result = backend.solve(parse_grid(HARD), limit=2, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True)
    assert is_solution(parse_grid(HARD), result.solution)
    assert {"nodes", "failures", "encode_s", "solve_s"} <= set(result.stats)
    assert result.stats["nodes"] >= 1


def test_a_limit_is_not_a_proof(backend):
    result = backend.solve(parse_grid(MULTIPLE), limit=3, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 3, False)


@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 2), Shape(3, 4)], ids=str)
def test_other_shapes(backend, shape):
    puzzle = Puzzle.empty(shape)
    result = backend.solve(puzzle, limit=2, time_limit=60)
    assert result.count == 2 and all(is_solution(puzzle, s) for s in result.solutions)


def test_unsat_grids(backend):
    for puzzle in (Puzzle(Shape(3, 3), (1, 1) + (0,) * 79), parse_grid(".12..4..3.......")):
        result = backend.solve(puzzle, limit=2, time_limit=60)
        assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


def test_the_time_limit_reaches_minizinc(backend):
    result = backend.solve(Puzzle.empty(Shape(3, 3)), limit=0, time_limit=1.5)
    assert result.status is Status.TIMEOUT and not result.complete  # solutions found or not
    assert result.stats["timed_out"] == 1


def test_plain_alldifferent_searches_more(backend):
    domain = backend.solve(parse_grid(HARD), limit=2, time_limit=60)
    plain = get_backend("minizinc", domain=False).solve(parse_grid(HARD), limit=2,
                                                        time_limit=60)
    assert plain.count == domain.count == 1 and plain.solution == domain.solution
    assert plain.stats["nodes"] > domain.stats["nodes"]


def test_an_absent_solver_lists_the_installed_ones(backend):
    with pytest.raises(OptionError, match="gecode"):
        get_backend("minizinc", solver="no-such-solver")
    assert "MiniZinc" in backend.version()


@pytest.fixture
def no_binary(monkeypatch):
    """The minizinc package as it is where no `minizinc` binary is on PATH."""
    package = pytest.importorskip("minizinc", reason="the minizinc package is not installed")
    monkeypatch.setattr(package, "default_driver", None)
    mzn.unavailable_reason.cache_clear()
    yield
    mzn.unavailable_reason.cache_clear()


def test_a_missing_toolchain_names_the_install_step(no_binary):
    assert not mzn.MiniZinc.available()
    assert "apt-get install minizinc" in mzn.MiniZinc.unavailable_reason()
    with pytest.raises(BackendUnavailable, match="apt-get install minizinc"):
        get_backend("minizinc")
