"""The hybrid backend: exact counts against naive, every shape, the deadline, options and stats."""

from __future__ import annotations

import random

import pytest
from conftest import PUZZLES

from sudokucp.backends import OptionError, get_backend
from sudokucp.backends.base import TIMED_OUT
from sudokucp.backends.hybrid.branch import RULES
from sudokucp.backends.hybrid.hybrid import Hybrid
from sudokucp.check import is_solution
from sudokucp.engine.propagation import blank, propagate, settle, start
from sudokucp.engine.propagation import givens as queued_givens
from sudokucp.engine.techniques import TECHNIQUES, fixpoint, resolve_techniques
from sudokucp.io.formats import parse_grid, read_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

MULTIPLE = ("809000007076089000030070890020708010700000002"
            "060120470697804231000906700000007906")  # seed 004: 28 solutions
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
OPTIONS = [{}, {"techniques": "singles"}, {"techniques": "fish", "node_techniques": "locked"},
           {"techniques": "subsets", "node_techniques": "subsets"}]
IDS = ["default", "singles", "fish+locked", "subsets+subsets"]


def _digits(line: str) -> tuple[int, ...]:
    return tuple(0 if ch in ".0" else int(ch) for ch in line)


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_multiple_has_28_solutions(options):
    p = parse_grid(MULTIPLE)
    r = get_backend("hybrid", **options).solve(p, limit=0)
    assert r.status is Status.SOLVED and r.complete and r.count == 28
    assert len(set(r.solutions)) == 28 and all(is_solution(p, s) for s in r.solutions)
    assert set(r.solutions) == set(get_backend("naive").solve(p, limit=0).solutions)


@pytest.mark.parametrize("limit", [1, 2])
def test_limit_stops_early(limit):
    r = get_backend("hybrid").solve(parse_grid(MULTIPLE), limit=limit)
    assert r.status is Status.SOLVED and r.count == limit
    assert r.unique is (False if limit == 2 else None)


def test_unique_grid_is_proved_unique():
    r = get_backend("hybrid").solve(parse_grid(HARD), limit=2)
    assert r.status is Status.SOLVED and r.complete and r.count == 1 and r.unique


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_counts_match_naive_on_small_grids(options):
    """Random partial 4x4 and 6x6 grids, many with several solutions or none: exact counts."""
    rng = random.Random(3)
    hybrid, naive = get_backend("hybrid", **options), get_backend("naive")
    for shape, givens in ((Shape(2, 2), 4), (Shape(2, 2), 2), (Shape(2, 3), 9), (Shape(2, 3), 12)):
        for _ in range(15):
            cells = [0] * shape.cells
            for c in rng.sample(range(shape.cells), givens):
                cells[c] = rng.randint(1, shape.side)
            p = Puzzle(shape, tuple(cells))
            want, got = naive.solve(p, limit=0), hybrid.solve(p, limit=0)
            assert got.complete and got.count == want.count, p.to_line()
            assert set(got.solutions) == set(want.solutions)
            assert got.status is (Status.SOLVED if want.count else Status.UNSAT)


def test_empty_4x4_has_288_solutions():
    r = get_backend("hybrid").solve(Puzzle.empty(Shape(2, 2)), limit=0)
    assert r.complete and r.count == 288


def test_tdoku_counts(public_sets):
    hybrid = get_backend("hybrid")
    for line in (public_sets / "counts_tdoku_test.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        text, count, *_ = line.split(":")
        p = Puzzle(Shape(3, 3), _digits(text))
        r = hybrid.solve(p, limit=0)
        assert r.complete and r.count == int(count), text
        assert all(is_solution(p, s) for s in r.solutions)


def test_invalid_grids_are_unsat(public_sets):
    for line in (public_sets / "invalid.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            text, label = line.split(maxsplit=1)
            r = get_backend("hybrid").solve(Puzzle(Shape(3, 3), _digits(text)), limit=2)
            assert r.status is Status.UNSAT and r.complete, label


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(2, 4), Shape(3, 3), Shape(3, 4),
                                   Shape(4, 4), Shape(5, 5)], ids=str)
def test_every_shape_from_empty(shape):
    r = get_backend("hybrid").solve(Puzzle.empty(shape), time_limit=20)
    assert r.status is Status.SOLVED and is_solution(Puzzle.empty(shape), r.solution)


def test_project_puzzles():
    files = sorted(PUZZLES.rglob("*.txt"))
    files = [f for f in files if not f.name.endswith(".solution.txt")]
    if not files:
        pytest.skip(f"no puzzle files under {PUZZLES}")
    hybrid = get_backend("hybrid")
    for path in files:
        for p in (e.puzzle for e in read_puzzles(path) if e.puzzle):  # some test the parser
            if p.side > 16:
                continue  # minimal 25x25 grids can take this search minutes: see the benchmark
            r = hybrid.solve(p, limit=2, time_limit=10)
            assert r.count == 2 or (r.complete and r.count == 1), p.name
            assert all(is_solution(p, s) for s in r.solutions), p.name


def test_deadline_is_honoured():
    r = get_backend("hybrid").solve(Puzzle.empty(Shape(3, 3)), limit=0, time_limit=0.2)
    assert r.status is Status.TIMEOUT and not r.complete and r.stats[TIMED_OUT] == 1


def test_stats():
    r = get_backend("hybrid", techniques="singles").solve(parse_grid(HARD))
    for key in ("guesses", "backtracks", "logic_s", "search_s", "naked_single", "hidden_single",
                "root_filled"):
        assert key in r.stats
    assert r.stats["guesses"] > 0 and r.stats["backtracks"] <= r.stats["guesses"]
    located = get_backend("hybrid").solve(parse_grid(HARD)).stats
    assert {"pointing", "claiming"} <= set(located) and "x_wing" not in located


def test_options():
    assert get_backend("hybrid", techniques="singles").label == "hybrid:techniques=singles"
    assert Hybrid(node_techniques="locked").nodes == ["pointing", "claiming"]
    with pytest.raises(OptionError, match="swordfish"):
        get_backend("hybrid", node_techniques="guess")
    assert get_backend("hybrid", branch="wdeg").label == "hybrid:branch=wdeg"
    with pytest.raises(OptionError, match="degree"):
        get_backend("hybrid", branch="random")


@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_branching_rule_counts_exactly(rule):
    """Each rule's alternatives cover every solution: the counts of naive on small grids, the
    28 of the seed 004 grid, and a unique 9x9 proved unique."""
    hybrid, naive = get_backend("hybrid", branch=rule), get_backend("naive")
    rng = random.Random(7)
    for shape, givens in ((Shape(2, 2), 3), (Shape(2, 3), 10)):
        for _ in range(10):
            cells = [0] * shape.cells
            for c in rng.sample(range(shape.cells), givens):
                cells[c] = rng.randint(1, shape.side)
            p = Puzzle(shape, tuple(cells))
            got = hybrid.solve(p, limit=0)
            assert got.complete and set(got.solutions) == set(naive.solve(p, limit=0).solutions)
    assert hybrid.solve(parse_grid(MULTIPLE), limit=0).count == 28
    r = hybrid.solve(parse_grid(HARD), limit=2)
    assert r.complete and r.count == 1 and is_solution(parse_grid(HARD), r.solutions[0])


def test_rules_pick_a_smallest_cell():
    b = blank(Shape(3, 3))
    assert settle(b, queued_givens(parse_grid(HARD)))
    low = min(m.bit_count() for m in b.cand if m)
    for rule in ("cell", "degree"):
        alternatives = RULES[rule](b, [0] * 27)
        cell = alternatives[0][0]
        assert {c for c, _ in alternatives} == {cell} and b.cand[cell].bit_count() == low
        assert sum(bit for _, bit in alternatives) == b.cand[cell]
    first = RULES["cell"](b, [0] * 27)[0][0]
    other = next(c for c, m in enumerate(b.cand) if m.bit_count() == 2 and c // 9 != first // 9)
    weights = [0] * 27
    weights[other // 9] = 50  # a heavy row draws wdeg to its cells
    cell = RULES["wdeg"](b, weights)[0][0]
    assert cell // 9 == other // 9 and b.cand[cell].bit_count() == 2


def test_degree_takes_the_first_tied_cell_with_the_most_open_peers():
    """On boards of 9x9 and 16x16 grids part-way through a search, `degree` picks what a plain
    count over the peers picks: the fewest candidates, then the most open peers, the first."""
    rng = random.Random(11)
    puzzles = [parse_grid(g) for g in (MULTIPLE, HARD)]
    if (PUZZLES / "seeds/002-backtracking-16x16.txt").exists():
        puzzles += [e.puzzle for e in read_puzzles(PUZZLES / "seeds/002-backtracking-16x16.txt")
                    if e.puzzle]
    checked = 0
    for p in puzzles:
        b = start(p)
        assert settle(b, [])
        while b.open:
            counts = [m.bit_count() for m in b.cand]
            low = min(k for k in counts if k)
            ties = [c for c, k in enumerate(counts) if k == low]
            opened = [sum(1 for q in b.t.peers[c] if b.cand[q]) for c in ties]
            want = ties[opened.index(max(opened))]
            assert RULES["degree"](b, [0] * len(b.free))[0][0] == want
            checked += 1
            c = rng.choice(ties)
            m = b.cand[c]
            if not settle(b, [(c, m & -m)]):
                break
    assert checked >= 3


@pytest.mark.parametrize("spec", ["singles", "locked", "subsets", "fish"])
def test_root_fixpoint_is_the_logic_engines(spec):
    """The fast singles and pointing/claiming sweep reach the engine's fixpoint (it is unique:
    every rule stays valid as candidates shrink), on grids of several shapes."""
    many = "1....6.8..5.1..2....9...1...9..1......45.....6....2..8.4.....6.7....18.....3...7."
    puzzles = [parse_grid(g) for g in (MULTIPLE, HARD, many)]
    for name in ("examples/4x4", "examples/6x6", "seeds/002-backtracking-16x16"):
        if (PUZZLES / f"{name}.txt").exists():
            puzzles += [e.puzzle for e in read_puzzles(PUZZLES / f"{name}.txt") if e.puzzle]
    names = resolve_techniques(spec)
    for p in puzzles:
        engine = start(p)
        assert fixpoint(engine, names, {})
        fast = blank(p.shape)
        extra = [n for n in names if n not in ("naked_single", "hidden_single")]
        assert propagate(fast, queued_givens(p), [(n, TECHNIQUES[n]) for n in extra], [0, 0],
                         dict.fromkeys(extra, 0))
        assert fast.vals == engine.vals and fast.cand == engine.cand, p.to_line()


def test_restarts_keep_answers_and_counts():
    """Luby restarts (forced on a 9x9 grid) still find a right answer, and limits other than 1
    search once, completely."""
    p = parse_grid(HARD)
    r = get_backend("hybrid", techniques="singles", restarts="luby", seed=3).solve(p, limit=1)
    assert r.status is Status.SOLVED and is_solution(p, r.solutions[0]) and "restarts" in r.stats
    many = get_backend("hybrid", restarts="luby").solve(parse_grid(MULTIPLE), limit=0)
    assert many.complete and many.count == 28 and "restarts" not in many.stats
    empty = get_backend("hybrid", restarts="luby").solve(Puzzle.empty(Shape(2, 2)), limit=1)
    assert empty.count == 1 and is_solution(Puzzle.empty(Shape(2, 2)), empty.solutions[0])


def test_luby_sequence():
    from itertools import islice

    from sudokucp.backends.hybrid.hybrid import luby

    assert list(islice(luby(), 15)) == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
