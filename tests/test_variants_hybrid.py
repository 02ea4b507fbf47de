"""The hybrid backend on variants: the engine's tables of a layout (full groups as units, every
group making peers, crossings of any two units, allowed digits, cage sums), and the search on every
kind against the 4x4 oracle, mrv and the judge (counts included), and on the published killers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from test_variants import KILLERS, killer_file, latin_squares, puzzles, variant_puzzle

from sudokucp.backends import from_spec
from sudokucp.backends.hybrid.branch import RULES
from sudokucp.backends.hybrid.hybrid import Hybrid
from sudokucp.check import is_solution
from sudokucp.engine.propagation import locked, seed, settle
from sudokucp.engine.tables import tables
from sudokucp.io.formats import parse_grid, read_puzzles
from sudokucp.layout import layout
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status
from sudokucp.rules import CLASSIC, KINDS, Cage, Rules

FOUR, SIX, NINE = Shape(2, 2), Shape(2, 3), Shape(3, 3)
SPECS = (*(f"hybrid:branch={rule}" for rule in RULES), "hybrid:techniques=singles",
         "hybrid:techniques=fish:node_techniques=subsets", "hybrid:node_techniques=locked")
FEW = settings(max_examples=25, deadline=None, derandomize=True)
TIME_LIMIT = 60.0  # seconds: far above what any run here takes; a run past it fails the test


def bit(d: int) -> int:
    return 1 << (d - 1)


def solve(spec: str, puzzle: Puzzle, limit: int) -> tuple[int, set]:
    """(count, solutions) of a complete search, every solution accepted by the judge."""
    result = from_spec(spec).solve(puzzle, limit=limit, time_limit=TIME_LIMIT)
    assert result.status in (Status.SOLVED, Status.UNSAT), (spec, result.error)
    assert all(is_solution(puzzle, s) for s in result.solutions), spec
    assert result.complete or result.count == limit, spec
    return result.count, set(result.solutions)


def oracle(puzzle: Puzzle) -> set:
    """Every solution of a 4x4 puzzle, from every Latin square."""
    return {g for g in latin_squares(4) if is_solution(puzzle, g)}


# --- the tables of a layout ----------------------------------------------------------------------

def test_classic_tables_stay_the_classic_ones():
    assert tables(NINE, CLASSIC) is tables(NINE) and not tables(NINE).general
    puzzle = parse_grid("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.."
                          "...1.4......")
    assert seed(puzzle)[0].t is tables(NINE)


@pytest.mark.parametrize("kinds", [{"x", "windoku"}, {"jigsaw", "killer"},
                                   {"extra-units", "pencil-mark", "anti-king"}],
                         ids=lambda kinds: "+".join(sorted(kinds)))  # the same in every process
def test_a_variant_table_holds_its_full_groups_peers_and_crossings(kinds):
    puzzle = variant_puzzle(3, NINE, kinds, 0.3)
    t, lay, n = tables(NINE, puzzle.rules), layout(NINE, puzzle.rules), 9
    full = {tuple(sorted(g)) for i, g in enumerate(lay.groups) if lay.is_full(i)}
    assert t.general and set(t.units) == full and len(t.units) == len(full)
    assert t.units[:2 * n] == lay.groups[:2 * n]  # rows, then columns (the fish read them)
    assert t.peers == lay.peers and t.allowed == lay.allowed
    for c in range(n * n):
        assert {u for u in range(len(t.units)) if c in t.units[u]} == set(t.cell_units[c])
        assert t.unit_bits[c] & (1 << len(t.units)) - 1 == sum(1 << u for u in t.cell_units[c])
    for (inter, one, two), (u, v) in zip(t.crossings, t.crossing_units):
        a, b = set(t.units[u]), set(t.units[v])
        assert set(inter) == a & b and len(inter) >= 2
        assert set(one) == a - b and set(two) == b - a
    meeting = sum(len(set(a) & set(b)) >= 2 for i, a in enumerate(t.units) for b in t.units[i + 1:])
    assert len(t.crossings) == meeting
    assert [(s.cells, s.total) for s in t.sums] == list(lay.sums)


def test_cage_sums_prune_their_cells_and_every_group_strikes_peers():
    rules = Rules(cages=(Cage((0, 1, 2), 9),), units=((3, 9),))
    b, todo = seed(Puzzle(FOUR, (0,) * 16, "", rules))
    assert settle(b, todo)
    # 2 + 3 + 4 is the only sum of 9 from three digits of 1-4: row 1 keeps 1 for r1c4
    assert all(b.cand[c] == bit(2) | bit(3) | bit(4) for c in (0, 1, 2)) and b.vals[3] == 1
    assert not b.cand[9] & bit(1)  # r3c2: the 2-cell group (r1c4, r3c2) strikes it
    assert b.cand[8] & bit(1)  # r3c1 shares no group with r1c4
    assert len(b.t.units) == 12  # the 2-cell group and the 3-cell cage are no units


def test_a_digit_every_sum_needs_goes_to_its_one_cell():
    # 7 from three digits of 1-4 is 1 + 2 + 4 only; r1c1 and r1c2 hold 1 or 2: 4 goes to r1c3
    rules = Rules(cages=(Cage((0, 1, 2), 7),), candidates=(bit(1) | bit(2),) * 2 + (15,) * 14)
    b, todo = seed(Puzzle(FOUR, (0,) * 16, "", rules))
    assert settle(b, todo) and b.vals[2] == 4 and b.vals[3] == 3


def test_the_locked_sweep_crosses_any_two_units():
    b, todo = seed(Puzzle(FOUR, (0,) * 16, "", Rules(diagonals=True)))
    assert settle(b, todo)
    for c in (10, 15):  # r3c3, r4c4: the main diagonal keeps 1 in box 1 only (r1c1, r2c2)
        b.cand[c] &= ~bit(1)
    b.moved = -1
    counts = {"pointing": 0, "claiming": 0}
    assert locked(b, todo, counts) and counts["pointing"] + counts["claiming"] == 1
    assert not b.cand[1] & bit(1) and not b.cand[4] & bit(1)  # box 1 off the diagonal
    assert all(b.cand[c] & bit(1) for c in (0, 5, 2, 8))


# --- the search against the oracle, mrv and the judge --------------------------------------------

def test_the_hybrid_takes_every_kind():
    assert Hybrid.kinds >= {"classic", *KINDS}
    for kind in KINDS:
        assert Hybrid.unsupported(variant_puzzle(7, FOUR, {kind}, 0.3)) is None, kind


@FEW
@given(puzzles(shapes=(FOUR,), fill=(0.0, 0.5)))
def test_4x4_every_solution_as_the_oracle_finds_them(puzzle):
    want = oracle(puzzle)
    for spec in ("mrv", *SPECS):
        assert solve(spec, puzzle, 0) == (len(want), want), spec


@settings(max_examples=12, deadline=None, derandomize=True)
@given(puzzles(shapes=(SIX,), fill=(0.3, 0.7)))
def test_6x6_counts_agree_with_mrv(puzzle):
    count, _ = solve("mrv", puzzle, 2)
    for spec in SPECS:
        assert solve(spec, puzzle, 2)[0] == count, spec


@settings(max_examples=6, deadline=None, derandomize=True)
@given(puzzles(shapes=(NINE,), fill=(0.4, 0.7)))
def test_9x9_uniqueness_agrees_with_mrv(puzzle):
    count, _ = solve("mrv", puzzle, 2)
    for spec in ("hybrid", "hybrid:branch=wdeg", "hybrid:node_techniques=locked"):
        assert solve(spec, puzzle, 2)[0] == count, spec


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape", [SIX, NINE], ids=str)
def test_each_kind_agrees_with_mrv(shape, kind):
    puzzle = variant_puzzle(23, shape, {kind}, 0.45)
    count, _ = solve("mrv", puzzle, 2)
    for spec in ("hybrid", "hybrid:branch=smallest", "hybrid:branch=wdeg"):
        assert solve(spec, puzzle, 2)[0] == count, spec


def move_pairs_4x4(moves: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    return [(r * 4 + c, (r + dr) * 4 + c + dc) for r in range(4) for c in range(4)
            for dr, dc in moves if r + dr < 4 and 0 <= c + dc < 4]


@pytest.mark.parametrize("seed_", range(6))
def test_two_cell_groups_anywhere_against_the_oracle(seed_):
    """Non-full groups of two cells (as the move rules make them), drawn at random."""
    rng = random.Random(seed_)
    pairs = move_pairs_4x4(((1, -2), (1, 2), (2, -1), (2, 1), (1, -1), (1, 1)))
    rules = Rules(units=tuple(rng.sample(pairs, rng.randint(2, 10))))
    grid = rng.choice(sorted(oracle(Puzzle(FOUR, (0,) * 16, "", rules))) or [(0,) * 16])
    puzzle = Puzzle(FOUR, tuple(v if rng.random() < 0.25 else 0 for v in grid), "", rules)
    want = oracle(puzzle)
    for spec in ("hybrid", "hybrid:branch=wdeg", "hybrid:branch=smallest"):
        assert solve(spec, puzzle, 0) == (len(want), want), spec


@pytest.mark.parametrize("rules", [
    Rules(candidates=(bit(2),) + (15,) * 15),  # r1c1 is given 1 but allows 2 only
    Rules(cages=(Cage((0, 1), 3),)),  # r1c1 and r1c2 are given 1 and 3
    Rules(cages=(Cage((5,), 9),)),  # a one-cell sum no digit makes
    Rules(units=((1, 6),))], ids=["candidate", "sum", "cell-sum", "pair"])  # r1c2, r2c3 hold 3
def test_rules_the_givens_break_leave_no_solution(rules):
    cells = [0] * 16
    cells[0], cells[1], cells[6] = 1, 3, 3
    puzzle = Puzzle(FOUR, tuple(cells), "", rules)
    assert oracle(puzzle) == set() and oracle(Puzzle(FOUR, tuple(cells)))
    for spec in ("hybrid", "hybrid:branch=wdeg"):
        result = from_spec(spec).solve(puzzle, limit=0)
        assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True), spec


def test_a_full_grid_with_a_wrong_sum_is_refused():
    grid = next(g for g in sorted(latin_squares(4)) if is_solution(Puzzle.empty(FOUR), g))
    good = Puzzle(FOUR, grid, "", Rules(cages=(Cage((0, 1), grid[0] + grid[1]),)))
    bad = Puzzle(FOUR, grid, "", Rules(cages=(Cage((0, 1), grid[0] + grid[1] + 1),)))
    assert solve("hybrid", good, 0) == (1, {grid})
    assert solve("hybrid", bad, 0) == (0, set())


def test_restarts_find_a_variant_solution():
    puzzle = variant_puzzle(11, NINE, {"x", "killer"}, 0.2)
    result = from_spec("hybrid:restarts=luby").solve(puzzle, time_limit=TIME_LIMIT)
    assert result.status is Status.SOLVED and is_solution(puzzle, result.solution)


@pytest.mark.parametrize("stem", KILLERS)
def test_the_published_killers_solve_and_are_unique(stem):
    puzzle = read_puzzles(killer_file(stem))[0].puzzle
    result = from_spec("hybrid").solve(puzzle, limit=2, time_limit=TIME_LIMIT)
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 1, True)
    assert is_solution(puzzle, result.solution)
