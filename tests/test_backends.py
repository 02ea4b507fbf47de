"""Every installed backend against the judge, on the project's puzzles and any shape."""

from pathlib import Path

import pytest

from sudokucp.backends import (
    BACKENDS,
    BackendUnavailable,
    OptionError,
    UnknownBackend,
    backend_class,
    from_spec,
    get_backend,
    parse_spec,
)
from sudokucp.check import is_solution
from sudokucp.io.formats import parse_grid, read_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "puzzles" / "examples").glob("*.txt"))
SEEDS = ROOT / "puzzles" / "seeds"
QUICK_SEEDS = ["004-telegram", "002-logic-9x9", "004-multiple"]


def project_puzzles():
    for path in EXAMPLES + [SEEDS / f"{name}.txt" for name in QUICK_SEEDS]:
        for entry in read_puzzles(path):
            yield entry.puzzle


def test_every_answer_passes_the_judge(solver):
    for puzzle in project_puzzles():
        result = solver.solve(puzzle, limit=2, time_limit=30)
        assert result.status in (Status.SOLVED, Status.UNKNOWN), (puzzle.name, result)
        assert result.error is None
        assert all(is_solution(puzzle, s) for s in result.solutions), puzzle.name
        if result.status is Status.SOLVED and result.complete:
            assert result.count == (28 if "multiple" in puzzle.name else 1)


def test_an_unsat_grid_is_never_solved(solver):
    puzzle = parse_grid("." + "123" + "4" + "." * 11)
    result = solver.solve(puzzle, limit=1, time_limit=30)
    assert result.status in (Status.UNSAT, Status.UNKNOWN)
    assert result.status is not Status.UNSAT or result.complete


def test_complete_backends_count_exactly(complete_solver):
    puzzle = read_puzzles(SEEDS / "004-multiple.txt")[0].puzzle
    result = complete_solver.solve(puzzle, limit=0, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)


def test_a_full_grid_is_its_own_solution(solver):
    shape = Shape(2, 3)
    r, c, n = 2, 3, 6
    full = tuple(((i % r) * c + i // r + j) % n + 1 for i in range(n) for j in range(n))
    result = solver.solve(Puzzle(shape, full), limit=2)
    assert result.status is Status.SOLVED and result.solution == full


def test_registry_names_and_aliases():
    assert parse_spec("MRV:order=static") == ("mrv", {"order": "static"})
    assert parse_spec("backtracking") == ("naive", {})
    with pytest.raises(UnknownBackend) as err:
        get_backend("dancing-links")
    assert all(name in str(err.value) for name in BACKENDS)


def test_options_are_checked():
    with pytest.raises(OptionError, match="has no option 'speed'"):
        from_spec("naive:speed=11")
    with pytest.raises(OptionError, match="name:key=value"):
        parse_spec("naive:fast")


def test_a_missing_package_names_the_extra(monkeypatch):
    cls = backend_class("naive")
    monkeypatch.setattr(cls, "available", classmethod(lambda c: False))
    monkeypatch.setattr(cls, "extra", "demo")
    with pytest.raises(BackendUnavailable, match=r"sudoku-cp\[demo\]"):
        get_backend("naive")


def test_a_failing_search_becomes_an_error_result(monkeypatch):
    backend = get_backend("naive")
    monkeypatch.setattr(backend, "_search", lambda *a: 1 / 0)
    result = backend.solve(Puzzle.empty(Shape(2, 2)))
    assert result.status is Status.ERROR and "ZeroDivisionError" in result.error
