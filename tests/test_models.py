"""The model backends (cpsat, sat, pyconstraint): answers judged by the checker, counts, UNSAT."""

from __future__ import annotations

import random
from importlib import metadata

import pytest

from sudokucp.backends import BackendUnavailable, OptionError, backend_class, from_spec, get_backend
from sudokucp.backends.base import Backend
from sudokucp.check import is_solution
from sudokucp.io.formats import parse_grid, read_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

MODELS = ("cpsat", "sat", "pyconstraint")
SPECS = ("cpsat", "cpsat:model=boolean", "sat", "sat:encoding=minimal", "pyconstraint",
         "pyconstraint:solver=optimized", "pyconstraint:solver=recursive")
FAST = [s for s in SPECS if not s.startswith("pyconstraint")]  # the ones that scale to 16x16
PROVING = [*FAST, "pyconstraint"]  # other pyconstraint solvers take minutes on sparse dead ends
SHAPES = (Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4))

# The seeds' grid `multiple` (course notes 004): 28 solutions.
MULTIPLE = ("809000007 076089000 030070890 020708010 700000002 060120470 697804231 000906700 "
            "000007906")


def installed(spec: str) -> Backend:
    """The backend of `spec`, or a skip naming the missing package."""
    cls = backend_class(spec.partition(":")[0])
    if not cls.available():
        pytest.skip(f"{cls.distribution()} is not installed (extra [{cls.extra}])")
    return from_spec(spec)


def pattern(shape: Shape) -> tuple[int, ...]:
    """A complete grid of any shape from the shifted-rows pattern."""
    n, r, c = shape.side, shape.box_rows, shape.box_cols
    return tuple((c * (row % r) + row // r + col) % n + 1 for row in range(n) for col in range(n))


def holed(shape: Shape, share: float, seed: int) -> Puzzle:
    """The pattern grid with a seeded share of its cells emptied."""
    rng = random.Random(seed)
    cells = [0 if rng.random() < share else v for v in pattern(shape)]
    return Puzzle(shape, tuple(cells), f"pattern-{shape}-{seed}")


@pytest.fixture
def multiple() -> Puzzle:
    return parse_grid(MULTIPLE.replace(" ", "\n"), name="multiple")


def test_pattern_is_complete():
    for shape in (*SHAPES, Shape(4, 4), Shape(5, 5)):
        assert is_solution(Puzzle.empty(shape), pattern(shape))


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_solves_small_shapes(spec, shape):
    backend = installed(spec)
    puzzle = holed(shape, 0.6 if shape.side < 12 else 0.45, seed=shape.side)
    result = backend.solve(puzzle)
    assert result.status is Status.SOLVED, result.error
    assert is_solution(puzzle, result.solution)


@pytest.mark.parametrize("spec", FAST)
def test_solves_16x16(spec):
    backend = installed(spec)
    puzzle = holed(Shape(4, 4), 0.55, seed=16)
    result = backend.solve(puzzle, time_limit=60)
    assert result.status is Status.SOLVED, result.error
    assert is_solution(puzzle, result.solution)


@pytest.mark.parametrize("spec", SPECS)
def test_counts_the_seeds_multiple(spec, multiple):
    backend = installed(spec)
    result = backend.solve(multiple, limit=0)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)
    assert len(set(result.solutions)) == 28
    assert all(is_solution(multiple, s) for s in result.solutions)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("limit", [1, 2, 5])
def test_limit_stops_without_claiming_completeness(spec, limit, multiple):
    result = installed(spec).solve(multiple, limit=limit)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, limit, False)
    assert all(is_solution(multiple, s) for s in result.solutions)


@pytest.mark.parametrize("spec", ["cpsat", "sat"])
def test_counts_under_a_time_limit(spec, multiple):
    result = installed(spec).solve(multiple, limit=0, time_limit=60)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 28, True)


@pytest.mark.parametrize("limit", [0, 1, 30])
def test_sat_counts_in_tiny_chunks(limit, multiple, monkeypatch):
    from sudokucp.backends.sat import sat

    monkeypatch.setattr(sat, "FIRST_CHUNK", 20)
    result = installed("sat").solve(multiple, limit=limit, time_limit=60)
    assert result.stats["chunks"] > 1
    assert (result.count, result.complete) == (min(limit or 28, 28), limit != 1)
    assert len(set(result.solutions)) == result.count
    assert all(is_solution(multiple, s) for s in result.solutions)


def tdoku_counts(folder) -> list[tuple[Puzzle, int]]:
    """(puzzle, known count) of every line of counts_tdoku_test.txt."""
    entries = read_puzzles(folder / "counts_tdoku_test.txt")
    return [(e.puzzle, int(e.comment.split(":")[0])) for e in entries]


@pytest.mark.parametrize("spec", ["cpsat", "sat", "pyconstraint"])
def test_counts_agree_with_tdoku(spec, public_sets):
    backend = installed(spec)
    rows = tdoku_counts(public_sets)
    if spec == "pyconstraint":  # seconds per sparse grid (about 22 givens): the full ones only
        rows = [(p, count) for p, count in rows if p.givens >= 30]
    assert len(rows) >= 19
    for puzzle, count in rows:
        result = backend.solve(puzzle, limit=0)
        assert (result.count, result.complete) == (count, True), puzzle.name
        assert len(set(result.solutions)) == count
        assert all(is_solution(puzzle, s) for s in result.solutions), puzzle.name
        assert result.status is (Status.SOLVED if count else Status.UNSAT)


@pytest.mark.parametrize("spec", PROVING)
def test_unsolvable_grids_are_unsat(spec, public_sets):
    backend = installed(spec)
    entries = read_puzzles(public_sets / "invalid.txt")
    unsolvable = [e.puzzle for e in entries if e.comment.startswith("unsolvable")]
    assert len(unsolvable) == 4
    for puzzle in unsolvable:
        result = backend.solve(puzzle, limit=2)
        assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


def dead_cell() -> Puzzle:
    """4x4 where r1c1 sees 1, 2 (row) and 3, 4 (column) although no unit repeats a digit."""
    return parse_grid("0120 0000 3000 4000".replace(" ", "\n"), name="dead-cell")


def repeated_given() -> Puzzle:
    """6x6 with the digit 5 twice in the first row (built directly: parsing refuses it)."""
    cells = [0] * 36
    cells[0] = cells[5] = 5
    return Puzzle(Shape(2, 3), tuple(cells), "repeated")


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("make", [dead_cell, repeated_given])
def test_hand_made_contradictions_are_unsat(spec, make):
    result = installed(spec).solve(make(), limit=0)
    assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


@pytest.mark.parametrize("name", MODELS)
def test_full_grid_has_exactly_itself(name):
    backend = installed(name)
    puzzle = Puzzle(Shape(2, 3), pattern(Shape(2, 3)))
    result = backend.solve(puzzle, limit=0)
    assert (result.solutions, result.complete) == ((puzzle.cells,), True)


@pytest.mark.parametrize("pair", [("cpsat", "cpsat:model=boolean"),
                                  ("sat", "sat:encoding=minimal")])
@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3)], ids=str)
def test_formulations_agree(pair, shape):
    first, second = (installed(spec) for spec in pair)
    for seed in range(3):
        puzzle = holed(shape, 0.7, seed)
        a, b = (backend.solve(puzzle, limit=0) for backend in (first, second))
        assert a.complete and b.complete
        assert set(a.solutions) == set(b.solutions)
        assert a.count == len(set(a.solutions)) >= 1


def test_sat_stats_describe_the_cnf(multiple):
    result = installed("sat").solve(multiple)
    stats = result.stats
    assert 0 < stats["variables"] < 9 ** 3
    assert 0 < stats["clauses"] < stats["base_clauses"]
    assert stats["build_s"] >= 0 and stats["encode_s"] >= 0 and stats["solve_s"] >= 0


def test_cpsat_stats(multiple):
    backend = installed("cpsat")
    first, again = (backend.solve(multiple, limit=0).stats for _ in range(2))
    assert {"build_s", "encode_s", "solve_s", "branches", "conflicts"} <= set(first)
    assert "build_s" not in again  # the model of a shape is built once per instance


def test_sat_out_of_time_is_timeout_not_unsat():
    result = installed("sat").solve(Puzzle.empty(Shape(3, 3)), limit=0, time_limit=0)
    assert result.status is Status.TIMEOUT
    assert not result.complete


def test_cpsat_out_of_time_is_never_unsat():
    puzzle = Puzzle.empty(Shape(4, 4))
    result = installed("cpsat").solve(puzzle, limit=0, time_limit=0.05)
    assert result.status is Status.TIMEOUT
    assert not result.complete
    assert all(is_solution(puzzle, s) for s in result.solutions)


def test_minconflicts_never_proves_anything():
    backend = installed("pyconstraint:solver=minconflicts:steps=30")
    result = backend.solve(dead_cell(), limit=0)
    assert result.status is Status.UNKNOWN
    assert not result.complete and not result.solutions
    grid = pattern(Shape(2, 2))
    puzzle = Puzzle(Shape(2, 2), (0,) + grid[1:])
    found = installed("pyconstraint:solver=minconflicts").solve(puzzle)
    assert not found.complete
    assert all(is_solution(puzzle, s) for s in found.solutions)


@pytest.mark.parametrize("name", MODELS)
def test_missing_package_names_the_extra(name, monkeypatch):
    cls = backend_class(name)
    monkeypatch.setitem(Backend._available, cls.module, False)
    with pytest.raises(BackendUnavailable, match=rf"sudoku-cp\[{cls.extra}\]"):
        get_backend(name)


@pytest.mark.parametrize("name", MODELS)
def test_version_is_the_package_version(name):
    cls = backend_class(name)
    if not cls.available():
        pytest.skip(f"{cls.distribution()} is not installed")
    assert cls.version() == metadata.version(cls.distribution())


@pytest.mark.parametrize("name, options", [
    ("cpsat", {"model": "sparse"}), ("cpsat", {"workers": "many"}), ("cpsat", {"hint": 1}),
    ("sat", {"encoding": "compact"}), ("sat", {"solver": "minisat"}),
    ("pyconstraint", {"solver": "dfs"}), ("pyconstraint", {"order": "static"}),
])
def test_options_are_validated(name, options):
    installed(name)
    with pytest.raises(OptionError):
        get_backend(name, **options)


def test_labels_show_changed_options():
    assert installed("cpsat:model=boolean:workers=2").label == "cpsat:model=boolean:workers=2"
    assert installed("sat").label == "sat"
    assert not backend_class("pyconstraint").interruptible
