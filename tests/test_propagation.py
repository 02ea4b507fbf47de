"""The propagation engine: tables, place / eliminate / settle, the locked sweep, the unit scan and
the one contradiction signal (False), on hand-made boards of several shapes."""

from __future__ import annotations

import pytest
from conftest import PUZZLES

from sudokucp.engine.propagation import (
    Board,
    blank,
    consistent,
    eliminate,
    givens,
    locked,
    lone_digits,
    place,
    propagate,
    seed,
    settle,
    start,
)
from sudokucp.engine.tables import tables
from sudokucp.engine.techniques import LEVELS, fixpoint, hidden_single
from sudokucp.io.formats import load_puzzles, parse_grid
from sudokucp.puzzle import Puzzle, Shape, geometry

FOUR, SIX, NINE, TWELVE = Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4)
SHAPES = [FOUR, SIX, Shape(2, 4), NINE, TWELVE, Shape(4, 4), Shape(5, 5)]


def bit(d: int) -> int:
    return 1 << (d - 1)


def row(r: int, n: int) -> list[int]:
    return [r * n + j for j in range(n)]


def drop(b: Board, cells, *digits: int) -> None:
    """Take digits from the candidates of cells through the engine (it marks the units dirty)."""
    assert eliminate(b, list(cells), sum(bit(d) for d in digits)) is not False


# --- tables and the board ------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_tables_of_every_shape(shape):
    t, g, n = tables(shape), geometry(shape), shape.side
    assert tables(shape) is t  # cached
    assert t.units == g.units and t.peers == g.peers and t.full == (1 << n) - 1
    assert len(t.crossings) == n * (shape.box_rows + shape.box_cols)
    for (inter, box_rest, line_rest), (box, line) in zip(t.crossings, t.crossing_units):
        assert len(inter) + len(box_rest) == n == len(inter) + len(line_rest)
        assert set(inter) | set(box_rest) == set(t.units[box]) and 2 * n <= box < 3 * n
        assert set(inter) | set(line_rest) == set(t.units[line]) and line < 2 * n
    for cell in range(shape.cells):
        units = {u for u in range(3 * n) if t.unit_bits[cell] >> u & 1}
        assert units == set(g.cell_units[cell])
        assert all(t.reach[cell] & t.unit_bits[p] == t.unit_bits[p] for p in t.peers[cell])


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_blank_board(shape):
    b = blank(shape)
    full = (1 << shape.side) - 1
    assert b.open == shape.cells and set(b.cand) == {full} and set(b.vals) == {0}
    assert b.free == [full] * (3 * shape.side) and b.dirty == 0 and consistent(b)


def test_copy_is_independent():
    b = blank(NINE)
    assert place(b, 0, bit(5))
    c = b.copy()
    assert (c.cand, c.vals, c.free, c.open, c.dirty) == (b.cand, b.vals, b.free, b.open, b.dirty)
    assert place(c, 80, bit(1)) and settle(c, [(40, bit(2))])
    assert b.vals[80] == 0 and b.vals[40] == 0 and b.cand[80] == b.t.full
    assert b.open == 80 and c.open < 80
    assert place(b, 1, bit(3))
    assert c.vals[1] == 0 and c.cand[1] & bit(3)


# --- place and eliminate -------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [FOUR, SIX, TWELVE], ids=str)
def test_place_clears_peers_and_marks_the_unit(shape):
    b, t = blank(shape), tables(shape)
    cell = shape.cells // 2 + 1
    assert place(b, cell, bit(2))
    assert b.vals[cell] == 2 and b.cand[cell] == 0 and b.open == shape.cells - 1
    assert all(not b.cand[p] & bit(2) for p in t.peers[cell])
    assert all(not b.free[u] & bit(2) for u in t.cell_units[cell])
    assert b.dirty & t.unit_bits[cell] == t.unit_bits[cell]
    assert place(b, cell, bit(2))  # the same digit again: nothing to do
    assert b.open == shape.cells - 1
    assert place(b, cell, bit(3)) is False  # another digit in a placed cell
    assert place(b, t.peers[cell][0], bit(2)) is False  # a peer took it


def test_place_that_empties_a_peer():
    b = blank(FOUR)
    b.cand[1] = bit(4)
    assert place(b, 0, bit(4)) is False
    assert b.cand[1] == 0 and b.vals[1] == 0  # the flaw stays visible, for explain to tell


def test_eliminate_reports_what_it_removed():
    b, t = blank(SIX), tables(SIX)
    assert eliminate(b, [0, 7], bit(1) | bit(6)) == [(0, 1), (0, 6), (7, 1), (7, 6)]
    assert b.dirty == t.unit_bits[0] | t.unit_bits[7]
    assert eliminate(b, [0, 7], bit(1)) == []  # nothing left to remove: not a contradiction
    b.cand[3] = bit(2) | bit(5)
    assert eliminate(b, [3], bit(2) | bit(5)) is False
    assert b.cand[3] == 0  # the flaw stays visible, for explain to tell


# --- settle --------------------------------------------------------------------------------------


def test_settle_cascades_naked_singles():
    b = blank(FOUR)
    tally = [0, 0]
    assert settle(b, [(0, bit(1)), (1, bit(2)), (2, bit(3))], tally)  # row 1: 4 goes to r1c4
    assert b.vals[:4] == [1, 2, 3, 4] and tally[0] >= 1 and consistent(b)


def test_settle_finds_hidden_singles_in_dirty_units_only():
    b = blank(NINE)
    b.cand[1] &= ~bit(7)
    b.cand[2] &= ~bit(7)  # by hand: the units are not marked
    for c in range(3, 9):
        b.cand[c] &= ~bit(7)
    assert settle(b, []) and b.vals[0] == 0  # row 1 was never marked dirty
    b.dirty = tables(NINE).unit_bits[1]
    tally = [0, 0]
    assert settle(b, [], tally) and b.vals[0] == 7 and tally == [0, 1] and b.dirty == 0


def _examples() -> list[Puzzle]:
    names = ["generated/4x4", "generated/6x6", "generated/9x9-easy", "generated/12x12",
             "seeds/002-backtracking-16x16"]
    return [p for name in names if (PUZZLES / f"{name}.txt").exists()
            for p in load_puzzles(PUZZLES / f"{name}.txt")[:3]]


def test_settle_reaches_the_fixpoint_of_the_singles_techniques():
    """Singles to a fixpoint give one state whatever the order: settle's queue and dirty units
    must land where the technique-by-technique fixpoint does, on every shape."""
    puzzles = _examples()
    if not puzzles:
        pytest.skip("no puzzles here")
    for p in puzzles:
        fast = blank(p.shape)
        assert settle(fast, givens(p))
        slow = start(p)
        assert slow and fixpoint(slow, LEVELS["singles"], {})
        assert (fast.vals, fast.cand, fast.free, fast.open) == \
               (slow.vals, slow.cand, slow.free, slow.open), p.to_line()


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_settle_after_one_digit_on_every_shape(shape):
    b = blank(shape)
    assert settle(b, [(shape.cells - 1, bit(shape.side))]) and consistent(b)
    assert b.open == shape.cells - 1


@pytest.mark.parametrize("path", ["examples/4x4.txt", "examples/6x6.txt", "generated/12x12.txt",
                                  "generated/16x16.txt", "generated/25x25.txt"])
def test_seed_places_the_givens_as_place_does(path):
    for p in load_puzzles(PUZZLES / path)[:3]:
        one_by_one = blank(p.shape)
        assert all(place(one_by_one, c, b) for c, b in givens(p))
        b, todo = seed(p)
        assert (b.cand, b.vals, b.free, b.open) == (one_by_one.cand, one_by_one.vals,
                                                    one_by_one.free, one_by_one.open)
        assert todo == [(c, m) for c, m in enumerate(b.cand) if m and not m & (m - 1)]
        assert b.dirty == (1 << 3 * p.side) - 1  # every unit is searched for hidden singles
        slow = blank(p.shape)
        assert settle(b, todo) and settle(slow, givens(p)) and b.vals == slow.vals


# --- every kind of contradiction is False --------------------------------------------------------


def test_contradiction_an_empty_cell():
    # r1c2-c4 hold 1, 2, 3 and r4c1 holds 4: r1c1 has nothing left
    p = Puzzle(FOUR, (0, 1, 2, 3) + (0,) * 8 + (4, 0, 0, 0))
    assert settle(blank(FOUR), givens(p)) is False
    assert start(p) is False  # the last given empties r1c1
    b = blank(FOUR)
    assert eliminate(b, [0], b.t.full) is False  # by elimination: the cell empties
    b.cand[0] = 0
    assert not consistent(b)


def test_contradiction_a_digit_without_a_place():
    # 1 has no place in row 1 (boxes 1 and 2 hold one, r1c7-c9 are 2, 3, 4); no cell is empty
    p = parse_grid("......234" + "1........" + "...1....." + "." * 54)
    assert settle(blank(NINE), givens(p)) is False
    b = start(p)
    assert b and lone_digits(b.cand, b.t.units, b.free) is False and not consistent(b)


def test_contradiction_two_lone_digits_want_one_cell():
    b = blank(FOUR)
    drop(b, [1, 2, 3], 1, 2)  # row 1: both 1 and 2 can only go to r1c1
    assert lone_digits(b.cand, b.t.units, b.free) == (0, bit(1) | bit(2))
    assert settle(b.copy(), []) is False
    assert hidden_single(b) is False


def test_contradiction_clashing_givens():
    p = Puzzle(SIX, (3, 0, 0, 0, 0, 3) + (0,) * 30)  # two 3s in row 1
    assert start(p) is False
    assert settle(blank(SIX), givens(p)) is False


# --- the unit scan -------------------------------------------------------------------------------


def test_lone_digits_with_free_masks_and_a_first_unit():
    b = blank(NINE)
    assert lone_digits(b.cand, b.t.units, b.free) is None
    drop(b, range(1, 9), 4)  # row 1: 4 only in r1c1; every other unit keeps several places
    assert lone_digits(b.cand, b.t.units, b.free) == (0, bit(4))
    assert lone_digits(b.cand, b.t.units, b.free, 1) is None
    missing = [0] * 27  # MRV passes the digits each unit lacks: none lack anything here
    assert lone_digits(b.cand, b.t.units, missing) is None


# --- the locked sweep ----------------------------------------------------------------------------


def test_locked_pointing_on_9x9():
    b = blank(NINE)
    drop(b, [9, 10, 11, 18, 19, 20], 5)  # box 1: 5 only in its first row
    b.dirty = 0
    counts = {"pointing": 0, "claiming": 0}
    todo: list[tuple[int, int]] = []
    assert locked(b, todo, counts)
    assert all(not b.cand[c] & bit(5) for c in range(3, 9))
    assert counts == {"pointing": 1, "claiming": 0} and not todo
    assert b.dirty & tables(NINE).unit_bits[3]


def test_locked_claiming_on_6x6_queues_singles():
    b = blank(SIX)  # 2x3 boxes: box 1 is r1-r2 x c1-c3
    drop(b, [12, 18, 24, 30], 6)  # column 1: 6 only in box 1 (r1c1, r2c1)
    b.cand[7] = bit(2) | bit(6)  # r2c2: 6 will go, 2 stays
    b.dirty = 0
    counts = {"pointing": 0, "claiming": 0}
    todo: list[tuple[int, int]] = []
    assert locked(b, todo, counts)
    assert all(not b.cand[c] & bit(6) for c in (1, 2, 7, 8))
    assert counts == {"pointing": 0, "claiming": 1} and todo == [(7, bit(2))]


def test_locked_contradiction_empties_a_cell():
    b = blank(NINE)
    drop(b, [9, 10, 11, 18, 19, 20], 5)
    b.cand[3] = bit(5)  # r1c4 can only be 5, which the box sends out of row 1
    assert locked(b, [], {"pointing": 0, "claiming": 0}) is False


def test_locked_on_12x12_matches_pointing_and_claiming():
    p = load_puzzles(PUZZLES / "generated" / "12x12.txt")[0] \
        if (PUZZLES / "generated" / "12x12.txt").exists() else None
    if p is None:
        pytest.skip("no 12x12 puzzles here")
    fast = blank(p.shape)
    assert settle(fast, givens(p))
    counts = {"pointing": 0, "claiming": 0}
    todo: list[tuple[int, int]] = []
    while True:
        assert locked(fast, todo, counts)
        if not todo and not fast.dirty:
            break
        assert settle(fast, todo)
    slow = start(p)
    assert slow and fixpoint(slow, LEVELS["locked"], {})
    assert fast.cand == slow.cand and fast.vals == slow.vals


def test_locked_sweeps_only_moved_units():
    b = blank(NINE)
    counts = {"pointing": 0, "claiming": 0}
    assert locked(b, [], counts) and b.moved == 0  # everything looked at once: nothing found
    drop(b, [9, 10, 11, 18, 19, 20], 5)  # box 1: 5 only in its first row; eliminate marks moved
    assert b.moved & (1 << 18)
    b.moved = 0  # as if box 1 had been swept already
    assert locked(b, [], counts) and counts["pointing"] == 0 and b.cand[3] & bit(5)
    b.moved = 1 << 18  # box 1 moved
    assert locked(b, [], counts) and counts["pointing"] == 1 and not b.cand[3] & bit(5)


def test_locked_reaches_the_pointing_claiming_fixpoint_on_9x9():
    puzzles = [p for p in _examples() if p.side == 9]
    if not puzzles:
        pytest.skip("no 9x9 puzzles here")
    for p in puzzles:
        fast = blank(p.shape)
        assert propagate(fast, givens(p), [], [0, 0], {})
        todo: list[tuple[int, int]] = []
        while True:
            assert locked(fast, todo, {"pointing": 0, "claiming": 0})
            if not todo and (not fast.dirty or not fast.open):  # a fixpoint, or solved
                break
            assert settle(fast, todo)
        slow = start(p)
        assert slow and fixpoint(slow, LEVELS["locked"], {})
        assert fast.cand == slow.cand and fast.vals == slow.vals, p.to_line()
