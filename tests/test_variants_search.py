"""Variants in the plain searches: naive, naive-iterative and dlx take every kind through the
layout's groups, cage sums and allowed digits, and agree with mrv, the judge and, on 4x4, with
the enumeration of every Latin square (an oracle that belongs to no backend)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from test_variants import killer_file, latin_squares, puzzles, variant_puzzle

from sudokucp.backends import from_spec, get_backend
from sudokucp.backends.dlx import DancingLinks, rule_matrix, rule_rows
from sudokucp.check import is_solution
from sudokucp.io.formats import read_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status
from sudokucp.rules import CLASSIC_KIND, KINDS, Cage, Rules, sum_sets

SEARCHES = ("naive", "naive-iterative", "dlx")
SOME = settings(max_examples=20, deadline=None, derandomize=True)
TIME_LIMIT = 60.0  # seconds: far above what any run here takes; a run past it fails the test


def agree(puzzle: Puzzle, limit: int, specs: tuple[str, ...] = SEARCHES) -> int:
    """Each of `specs` finds what mrv finds (the count, and the grids when the search ran to
    its end), each grid accepted by the judge; the count."""
    ref = from_spec("mrv").solve(puzzle, limit=limit, time_limit=TIME_LIMIT)
    assert ref.status in (Status.SOLVED, Status.UNSAT), ref.error
    for spec in specs:
        result = from_spec(spec).solve(puzzle, limit=limit, time_limit=TIME_LIMIT)
        assert (result.status, result.count) == (ref.status, ref.count), (spec, result.error)
        assert all(is_solution(puzzle, s) for s in result.solutions), spec
        if limit == 0 or result.count < limit:
            assert result.complete and set(result.solutions) == set(ref.solutions), spec
    return ref.count


@pytest.mark.parametrize("spec", SEARCHES)
def test_each_declares_every_kind(spec):
    assert get_backend(spec).kinds == frozenset({CLASSIC_KIND, *KINDS})
    for kind in KINDS:
        assert get_backend(spec).unsupported(variant_puzzle(3, Shape(2, 2), {kind}, 0.3)) is None


@SOME
@given(puzzles(shapes=(Shape(2, 2),), fill=(0.0, 0.5)))
def test_4x4_every_solution_found_as_the_oracle_finds_them(puzzle):
    oracle = {g for g in latin_squares(4) if is_solution(puzzle, g)}
    assert agree(puzzle, 0) == len(oracle)
    for spec in SEARCHES:
        assert set(get_backend(spec).solve(puzzle, limit=0).solutions) == oracle, spec


@SOME
@given(puzzles(shapes=(Shape(2, 3),), fill=(0.45, 0.8)))
def test_6x6_the_searches_agree_with_mrv(puzzle):
    agree(puzzle, 2)


# 9x9 a handful: the 4x4 and 6x6 properties above, and each kind alone below, cover the rest
@settings(max_examples=6, deadline=None, derandomize=True)
@given(puzzles(shapes=(Shape(3, 3),), fill=(0.55, 0.8)))
def test_9x9_the_searches_agree_with_mrv_on_uniqueness(puzzle):
    assume(not puzzle.name.startswith("unsolvable"))  # random givens: a blind search's hours
    agree(puzzle, 2)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("shape", "fill", "limit"), [
    (Shape(2, 2), 0.0, 0), (Shape(2, 3), 0.5, 0), (Shape(3, 3), 0.6, 2)], ids=str)
def test_each_kind_alone_agrees(kind, shape, fill, limit):
    puzzle = variant_puzzle(29, shape, {kind}, fill)
    assert puzzle.kind == kind or puzzle.name.startswith("unsolvable")
    agree(puzzle, limit)


def test_a_dlx_cage_sum_is_a_choice_of_digit_set():
    # 4x4: cage r1c1-r1c2 makes 3 (digits {1, 2}), r2c1-r2c3 has no sum (a partial group),
    # r3c3 alone makes 4; 12 full groups, so the sums' columns start at 16 + 4 * 12 = 64
    rules = Rules(cages=(Cage((0, 1), 3), Cage((4, 5, 6)), Cage((10,), 4)))
    primary, columns, rows = rule_rows(Shape(2, 2), rules)
    assert (primary, columns) == (64 + 5 * 2, 64 + 5 * 2 + 4 * 2)
    sets = [(cell, cols) for cell, _, cols in rows if cell >= 16]  # scratch cells past the grid
    assert sets == [(16, (68, 66, 67)), (17, (73, 69, 70, 71))]  # choice, digits outside the set
    assert [len(sum_sets(2, 3, 4, 15)), len(sum_sets(1, 4, 4, 15))] == [1, 1]
    m, base = rule_matrix(Shape(2, 2), rules)
    assert base == 5  # 25 cells: the grid's 16 and two scratch cells
    assert m.size[65:69] == [2, 2, 3, 3]  # digits 1-4 of the first cage: its cells, the set row
    assert m.size[69] == 1 and m.size[74] == 1  # one digit set each


def test_dlx_secondary_columns_are_never_chosen_and_pencil_marks_remove_rows():
    shape = Shape(2, 2)
    rules = Rules(units=((0, 5),), candidates=(1,) + (15,) * 15)
    m, _ = rule_matrix(shape, rules)
    primary, columns, rows = rule_rows(shape, rules)
    ring, h = [], m.R[0]
    while h:
        ring.append(h)
        h = m.R[h]
    assert ring == list(range(1, primary + 1))
    assert all(m.R[h] == m.L[h] == h for h in range(primary + 1, columns + 1))
    assert len(rows) == 16 * 4 - 3 and m.first[1] == m.first[2] == m.first[3] == -1


@pytest.mark.parametrize("spec", SEARCHES)
@pytest.mark.parametrize(("rules", "cells"), [
    (Rules(cages=(Cage((0, 1), 3),)), (3,) + (0,) * 15),  # a 3 leaves nothing for the other
    (Rules(cages=(Cage((0, 1), 4),)), (1, 2) + (0,) * 14),  # given whole, the sum is 3
    (Rules(candidates=(2,) + (15,) * 15), (1,) + (0,) * 15),  # the given is not a candidate
    (Rules(units=((0, 6),)), (1, 0, 0, 0, 0, 0, 1) + (0,) * 9)])  # a unit holds 1 twice
def test_givens_that_break_a_rule_are_unsat(spec, rules, cells):
    result = get_backend(spec).solve(Puzzle(Shape(2, 2), cells, "", rules), limit=0)
    assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


@pytest.mark.parametrize("spec", SEARCHES)
def test_a_kind_left_out_of_kinds_is_refused_with_its_reason(spec):
    cls = type(get_backend(spec))
    narrow = type("Narrow", (cls,), {"kinds": cls.kinds - {"killer", "anti-king"}})
    rules = Rules(diagonals=True, cages=(Cage((0, 1), 3),), anti_king=True)
    result = narrow().solve(Puzzle(Shape(2, 2), (0,) * 16, "", rules))
    assert result.status is Status.UNKNOWN and not result.solutions
    assert result.error == f"backend {spec} does not support killer cages and anti-king moves"


def test_a_traced_naive_search_walks_a_variant():
    from sudokucp.teaching.trace import record

    puzzle = variant_puzzle(8, Shape(2, 3), {"killer", "x"}, 0.4)
    events = record(get_backend("naive"), puzzle, limit=2)
    plain = get_backend("naive").solve(puzzle, limit=2)
    solutions = [e["grid"] for e in events if e["event"] == "solution"]
    assert [tuple(s) for s in solutions] == list(plain.solutions)
    assert events[-1]["nodes"] == plain.stats["nodes"]


def test_the_wikipedia_killer_solves_with_dlx():
    puzzle = read_puzzles(killer_file("killer_en_wikipedia"))[0].puzzle
    result = DancingLinks().solve(puzzle, limit=2, time_limit=TIME_LIMIT)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True)
    assert is_solution(puzzle, result.solution)


# dlx takes 2 to 15 s on each of the other published killers: benchmarks/variants.py runs them.
@pytest.mark.parametrize("stem", ["killer_niallsudoku_6417"])
def test_the_published_killers_solve_with_dlx_and_are_unique(stem):
    puzzle = read_puzzles(killer_file(stem))[0].puzzle
    result = DancingLinks().solve(puzzle, limit=2, time_limit=300)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True)
    assert is_solution(puzzle, result.solution)
