"""Variants in the jit backend (its dfs kernel on a variant's groups): every kind against mrv
and the judge, counts included (every solution of a 4x4, against the Latin squares), the
published killers, the sum bounds used above the table's side, time-outs, solutions handed
over, and batches that refuse variants."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba", reason="the jit backend needs numba: pip install 'sudoku-cp[jit]'")

from hypothesis import given, settings  # noqa: E402
from test_variants import (  # noqa: E402
    KILLERS,
    killer_file,
    latin_squares,
    puzzles,
    random_cages,
    variant_puzzle,
)

from sudokucp.backends import get_backend  # noqa: E402
from sudokucp.backends.jit.kernels import as_grid  # noqa: E402
from sudokucp.check import is_solution  # noqa: E402
from sudokucp.io.formats import read_puzzles  # noqa: E402
from sudokucp.puzzle import Puzzle, Shape  # noqa: E402
from sudokucp.result import Status  # noqa: E402
from sudokucp.rules import KINDS, Rules  # noqa: E402

SHAPES = (Shape(2, 2), Shape(2, 3), Shape(3, 3))
SOME = settings(max_examples=15, deadline=None, derandomize=True)
TIME_LIMIT = 60.0  # seconds: far above what any run here takes; a run past it fails the test


def solved(spec: str, puzzle: Puzzle, limit: int, **options) -> tuple[int, set]:
    """(count, solutions) of a complete search (or one stopped at the limit), every solution
    accepted by the judge."""
    result = get_backend(spec).solve(puzzle, limit=limit, time_limit=TIME_LIMIT, **options)
    assert result.status in (Status.SOLVED, Status.UNSAT), (spec, puzzle.name, result.error)
    assert all(is_solution(puzzle, s) for s in result.solutions), (spec, puzzle.name)
    if limit == 0 or result.count < limit:
        assert result.complete, (spec, puzzle.name)
    return result.count, set(result.solutions)


def agree(puzzle: Puzzle, limit: int) -> tuple[int, set]:
    """jit's answer, checked against mrv's: the same count (and solutions when all are asked)."""
    jit, mrv = solved("jit", puzzle, limit), solved("mrv", puzzle, limit)
    assert jit[0] == mrv[0], (puzzle.name, jit[0], mrv[0])
    if limit == 0:
        assert jit[1] == mrv[1], puzzle.name
    return jit


@pytest.mark.parametrize("kind", KINDS)
def test_jit_takes_every_kind(kind):
    puzzle = variant_puzzle(7, Shape(2, 2), {kind}, 0.3)
    assert get_backend("jit").unsupported(puzzle) is None


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_agrees_with_mrv(kind, shape):
    puzzle = variant_puzzle(11, shape, {kind}, 0.5 if shape.side > 4 else 0.2)
    count, solutions = agree(puzzle, 0 if shape.side == 4 else 2)
    if shape.side == 4:
        assert solutions == {g for g in latin_squares(4) if is_solution(puzzle, g)}


@SOME
@given(puzzles(shapes=(Shape(2, 2),), fill=(0.0, 0.5)))
def test_4x4_every_solution_found_as_the_oracle_finds_them(puzzle):
    oracle = {g for g in latin_squares(4) if is_solution(puzzle, g)}
    assert agree(puzzle, 0) == (len(oracle), oracle)


@SOME
@given(puzzles(shapes=(Shape(2, 3),), fill=(0.3, 0.8)))
def test_6x6_counts_agree_with_mrv(puzzle):
    agree(puzzle, 2)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(puzzles(shapes=(Shape(3, 3),), fill=(0.4, 0.7)))
def test_9x9_uniqueness_agrees_with_mrv(puzzle):
    agree(puzzle, 2)


@pytest.mark.parametrize("stem", KILLERS)
def test_the_published_killers_solve_and_are_unique(stem):
    puzzle = read_puzzles(killer_file(stem))[0].puzzle
    result = get_backend("jit").solve(puzzle, limit=2, time_limit=TIME_LIMIT)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True)
    assert is_solution(puzzle, result.solution)


def kernel_count(puzzle: Puzzle, table: bool) -> int:
    """Every solution counted by the dfs kernel itself, its sum table on or off."""
    from sudokucp.backends.jit.layout import EXHAUSTED, G_TABLE, R_FOUND

    k, state = get_backend("jit")._state(puzzle.shape, 0, 0, 1, rules=puzzle.rules)
    state.geo[G_TABLE] = table  # off: the bounds that serve above TABLE_SIDE
    assert k.run(as_grid(puzzle.cells), state, -1) == EXHAUSTED
    return int(state.regs[R_FOUND])


@pytest.mark.parametrize("seed", range(6))
def test_the_sum_bounds_count_as_the_table_does(seed):
    shape = SHAPES[seed % 2]
    puzzle = variant_puzzle(seed, shape, {"killer"}, 0.1 if shape.side == 4 else 0.4)
    count = solved("mrv", puzzle, 0)[0]
    assert kernel_count(puzzle, True) == kernel_count(puzzle, False) == count


@pytest.mark.parametrize("shape", [Shape(4, 4), Shape(5, 5)], ids=str)
def test_killers_of_large_sides_agree_with_mrv(shape):
    rng = random.Random(shape.side)
    n, r, c = shape.side, shape.box_rows, shape.box_cols
    grid = [((i % r) * c + i // r + j) % n + 1 for i in range(n) for j in range(n)]
    rules = Rules(cages=random_cages(shape, grid, rng))
    givens = tuple(0 if rng.random() < 0.15 else v for v in grid)
    count, _ = agree(Puzzle(shape, givens, f"killer-{n}", rules), 0)
    assert count >= 1


def test_a_count_that_cannot_end_times_out():
    puzzle = Puzzle(Shape(3, 3), (0,) * 81, "x-empty", Rules(diagonals=True))
    result = get_backend("jit").solve(puzzle, limit=0, time_limit=0.05, keep=3)
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.stats["timed_out"] == 1 and result.count >= len(result.solutions)
    assert all(is_solution(puzzle, s) for s in result.solutions)


def test_solutions_past_the_buffer_are_handed_over():
    puzzle = Puzzle(Shape(2, 3), (0,) * 36, "windoku-empty", Rules(windows=True))
    result = get_backend("jit").solve(puzzle, limit=1500)
    assert (result.status, result.count, len(set(result.solutions))) == (Status.SOLVED, 1500,
                                                                          1500)
    assert all(is_solution(puzzle, s) for s in result.solutions)


def test_a_count_keeps_only_what_is_asked():
    puzzle = Puzzle(Shape(2, 2), (0,) * 16, "x-empty", Rules(diagonals=True))
    oracle = {g for g in latin_squares(4) if is_solution(puzzle, g)}
    result = get_backend("jit").solve(puzzle, limit=0, keep=2)
    assert (result.count, len(result.solutions), result.complete) == (len(oracle), 2, True)
    assert set(result.solutions) <= oracle


@pytest.mark.parametrize("branch", ["cell", "wdeg"])
@pytest.mark.parametrize("propagation", ["singles", "locked", "alldiff", "full"])
def test_every_dfs_option_counts_a_variant_as_mrv_does(propagation, branch):
    """dfs's options apply to a variant too, pointing and claiming left out (a jigsaw has no
    boxes): every solution of each kind counted as mrv counts them."""
    for kind in ("jigsaw", "killer", "x", "windoku"):
        puzzle = variant_puzzle(5, Shape(2, 3), {kind}, 0.6)
        result = get_backend("jit", propagation=propagation, branch=branch).solve(puzzle,
                                                                                  limit=0)
        assert result.complete and all(is_solution(puzzle, s) for s in result.solutions)
        assert result.count == solved("mrv", puzzle, 0)[0], (kind, propagation, branch)


def test_the_matching_filter_runs_on_a_variants_units():
    puzzle = read_puzzles(killer_file("killer_niallsudoku_6417"))[0].puzzle
    guesses = {level: get_backend("jit", propagation=level).solve(puzzle, limit=2)
               .stats["guesses"] for level in ("singles", "alldiff")}
    assert guesses["alldiff"] < guesses["singles"]


def test_the_kernel_is_built_before_the_clock_once_per_instance():
    jit = get_backend("jit")
    puzzle = variant_puzzle(3, Shape(2, 2), {"killer"}, 0.3)
    first, second = jit.solve(puzzle), jit.solve(puzzle)
    assert "build_s" in first.stats and "build_s" not in second.stats
    from sudokucp.backends.jit.kernels import module

    assert len(module("dfs").run.signatures) <= 2  # the classic grids' versions: none of its own


def test_solve_many_refuses_a_variant():
    jit = get_backend("jit")
    puzzles_ = [Puzzle(Shape(2, 2), (0,) * 16, "plain"),
                variant_puzzle(3, Shape(2, 2), {"killer"}, 0.3)]
    with pytest.raises(ValueError, match=r"classic grids; puzzle 1 \(killer-3\) is killer"):
        jit.solve_many(puzzles_)



def test_a_line_file_with_a_variant_block_is_read_whole(tmp_path, capsys):
    from sudokucp.backends.jit.lines import read_lines
    from sudokucp.cli import main
    from sudokucp.io.variants import to_text

    puzzle = variant_puzzle(11, Shape(3, 3), {"x", "killer"}, 0.3)
    read = read_lines(f"{'.' * 81}\n\n{to_text(puzzle)}".encode())
    assert len(read.grids) == 0 and [e.puzzle.rules for e in read.rest] == [Rules(),
                                                                             puzzle.rules]
    count, _ = solved("mrv", puzzle, 2)
    path = tmp_path / "one.txt"
    path.write_text(to_text(puzzle))
    assert main(["solve", str(path), "--backend", "jit", "--limit", "2"]) == 0
    assert f"{count} solution{'s' if count > 1 else ''}" in capsys.readouterr().out
