"""The human techniques: each on hand-made candidate positions, the fixpoint, the logic backend."""

from __future__ import annotations

import pytest
from conftest import PUBLIC, PUZZLES

from sudokucp.backends import OptionError, backend_class, get_backend
from sudokucp.backends.base import TIMED_OUT
from sudokucp.check import is_solution
from sudokucp.engine.propagation import Board, start
from sudokucp.engine.tables import tables
from sudokucp.engine.techniques import (
    LEVELS,
    TECHNIQUES,
    apply_logic,
    claiming,
    fixpoint,
    hidden_pair,
    hidden_quad,
    hidden_single,
    hidden_triple,
    naked_pair,
    naked_quad,
    naked_single,
    naked_triple,
    pointing,
    resolve_techniques,
    swordfish,
    x_wing,
)
from sudokucp.io.formats import load_puzzles, parse_grid
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

NINE, SIX, FOUR = Shape(3, 3), Shape(2, 3), Shape(2, 2)
MULTIPLE = ("809000007076089000030070890020708010700000002"
            "060120470697804231000906700000007906")  # seed 004: 28 solutions


def empty(shape: Shape) -> Board:
    """A board with no digit placed and every candidate open."""
    board = start(Puzzle.empty(shape))
    assert board
    return board


def drop(board: Board, cells, *digits: int) -> None:
    """Remove digits from the candidates of cells (the hand-made part of a position)."""
    mask = sum(1 << (d - 1) for d in digits)
    for c in cells:
        board.cand[c] &= ~mask


def bit(d: int) -> int:
    return 1 << (d - 1)


def keep(board: Board, cell: int, *digits: int) -> None:
    board.cand[cell] = sum(1 << (d - 1) for d in digits)


def row(r: int, n: int = 9) -> list[int]:
    return [r * n + j for j in range(n)]


def col(j: int, n: int = 9) -> list[int]:
    return [i * n + j for i in range(n)]


def eliminated(step) -> set[tuple[int, int]]:
    assert step is not False
    return set(step.eliminated)


# --- one technique, one position ---------------------------------------------------------------


def test_naked_single_places_and_clears_peers():
    b = empty(FOUR)
    keep(b, 5, 3)
    step = naked_single(b)
    assert step.placed == ((5, 3),)
    assert b.vals[5] == 3 and b.open == 15
    assert all(not b.cand[p] & 0b100 for p in tables(FOUR).peers[5])


def test_hidden_single_in_a_row():
    b = empty(FOUR)
    drop(b, [1, 2, 3], 2)  # row 1: digit 2 only in r1c1
    assert hidden_single(b).placed == ((0, 2),)
    assert b.vals[0] == 2


def test_pointing_row_of_a_box():
    b = empty(NINE)
    drop(b, [9, 10, 11, 18, 19, 20], 5)  # box 1: 5 only in its first row
    assert eliminated(pointing(b)) == {(c, 5) for c in range(3, 9)}


def test_pointing_column_of_a_6x6_box():
    b = empty(SIX)
    drop(b, [1, 2, 7, 8], 2)  # box 1 (2x3): 2 only in column 1 (r1c1, r2c1)
    assert eliminated(pointing(b)) == {(c, 2) for c in (12, 18, 24, 30)}


def test_claiming_box_of_a_row():
    b = empty(NINE)
    drop(b, range(3, 9), 7)  # row 1: 7 only in box 1
    assert eliminated(claiming(b)) == {(c, 7) for c in (9, 10, 11, 18, 19, 20)}


def test_claiming_in_4x4():
    b = empty(FOUR)
    drop(b, [2, 3], 4)  # row 1: 4 only in box 1 -> leaves r2c1, r2c2
    assert eliminated(claiming(b)) == {(4, 4), (5, 4)}


def test_naked_pair():
    b = empty(NINE)
    keep(b, 0, 1, 2)
    keep(b, 1, 1, 2)
    assert eliminated(naked_pair(b)) == {(c, d) for c in range(2, 9) for d in (1, 2)}


def test_naked_pair_in_6x6_column():
    b = empty(SIX)
    keep(b, 6, 3, 5)  # r2c1
    keep(b, 30, 3, 5)  # r6c1: same column, different boxes
    assert eliminated(naked_pair(b)) == {(c, d) for c in (0, 12, 18, 24) for d in (3, 5)}


def test_naked_triple_without_a_full_cell():
    b = empty(NINE)
    keep(b, 0, 1, 2)
    keep(b, 4, 2, 3)
    keep(b, 8, 1, 3)
    assert eliminated(naked_triple(b)) == {(c, d) for c in (1, 2, 3, 5, 6, 7) for d in (1, 2, 3)}


def test_naked_quad():
    b = empty(NINE)
    for c, ds in zip(range(4), [(1, 2), (2, 3), (3, 4), (1, 4)]):
        keep(b, c, *ds)
    assert eliminated(naked_quad(b)) == {(c, d) for c in range(4, 9) for d in (1, 2, 3, 4)}


def test_hidden_pair():
    b = empty(NINE)
    drop(b, range(2, 9), 1, 2)  # row 1: 1 and 2 only in r1c1, r1c2
    assert eliminated(hidden_pair(b)) == {(c, d) for c in (0, 1) for d in range(3, 10)}


def test_hidden_triple():
    b = empty(NINE)
    drop(b, range(3, 9), 1, 2, 3)
    keep(b, 0, 1, 2, 8)
    assert eliminated(hidden_triple(b)) == ({(0, 8)} |
                                            {(c, d) for c in (1, 2) for d in range(4, 10)})


def test_hidden_quad_in_a_column():
    b = empty(NINE)
    drop(b, [col(4)[i] for i in range(4, 9)], 6, 7, 8, 9)  # column 5: 6-9 only in rows 1-4
    assert eliminated(hidden_quad(b)) == {(c, d) for c in col(4)[:4] for d in range(1, 6)}


def test_x_wing_on_rows():
    b = empty(NINE)
    drop(b, [c for c in row(0) + row(4) if c % 9 not in (1, 7)], 4)
    expected = {(r * 9 + j, 4) for r in range(9) if r not in (0, 4) for j in (1, 7)}
    assert eliminated(x_wing(b)) == expected


def test_x_wing_on_columns():
    b = empty(NINE)
    drop(b, [c for c in col(1) + col(7) if c // 9 not in (0, 4)], 4)
    expected = {(r * 9 + j, 4) for r in (0, 4) for j in range(9) if j not in (1, 7)}
    assert eliminated(x_wing(b)) == expected


def test_x_wing_in_4x4():
    b = empty(FOUR)
    drop(b, [4, 12, 6, 14], 1)  # rows 2 and 4: digit 1 only in columns 2 and 4
    assert eliminated(x_wing(b)) == {(1, 1), (3, 1), (9, 1), (11, 1)}


def test_swordfish():
    b = empty(NINE)
    allowed = {0: (0, 4), 3: (4, 8), 6: (0, 8)}
    for r, cols in allowed.items():
        drop(b, [c for c in row(r) if c % 9 not in cols], 6)
    expected = {(r * 9 + j, 6) for r in range(9) if r not in allowed for j in (0, 4, 8)}
    assert eliminated(swordfish(b)) == expected


def test_steps_carry_their_pattern():
    """The evidence explain tells: units (rows 0-8, columns 9-17, boxes 18-26), cells, digits."""
    b = empty(FOUR)
    drop(b, [1, 2, 3], 2)
    assert hidden_single(b)[:3] == (((0, 2),), (), (0,))  # row 1
    b = empty(NINE)
    drop(b, [9, 10, 11, 18, 19, 20], 5)
    assert pointing(b)[2:] == ((18, 0), (0, 1, 2), bit(5))  # box 1, row 1
    b = empty(NINE)
    drop(b, range(3, 9), 7)
    assert claiming(b)[2:] == ((0, 18), (0, 1, 2), bit(7))  # row 1, box 1
    b = empty(NINE)
    keep(b, 0, 1, 2)
    keep(b, 1, 1, 2)
    assert naked_pair(b)[2:] == ((0,), (0, 1), bit(1) | bit(2))
    b = empty(NINE)
    drop(b, [col(4)[i] for i in range(4, 9)], 6, 7, 8, 9)
    assert hidden_quad(b)[2:] == ((13,), tuple(col(4)[:4]), sum(map(bit, (6, 7, 8, 9))))
    b = empty(NINE)
    allowed = {0: (0, 4), 3: (4, 8), 6: (0, 8)}
    for r, cols in allowed.items():
        drop(b, [c for c in row(r) if c % 9 not in cols], 6)
    assert swordfish(b)[2:] == ((0, 3, 6, 9, 13, 17), (0, 4, 31, 35, 54, 62), bit(6))


def test_nothing_found_is_an_empty_step():
    b = empty(NINE)
    for technique in TECHNIQUES.values():
        step = technique(b)
        assert step is not False and not step.placed and not step.eliminated


# --- contradictions are return values ------------------------------------------------------------


def test_two_peers_wanting_one_digit():
    b = empty(FOUR)
    keep(b, 0, 1)
    keep(b, 1, 1)
    assert naked_single(b) is False


def test_digit_without_a_place():
    b = empty(FOUR)
    drop(b, row(0, 4), 3)
    assert hidden_single(b) is False


def test_three_cells_two_digits():
    b = empty(NINE)
    for c in (0, 1, 2):
        keep(b, c, 1, 2)
    assert naked_pair(b) is False
    b = empty(NINE)
    for c in (0, 1, 2):
        keep(b, c, 1, 2)
    assert naked_triple(b) is False


# --- names and levels --------------------------------------------------------------------------


def test_levels_name_their_techniques():
    assert LEVELS["singles"] == ["naked_single", "hidden_single"]
    assert LEVELS["locked"] == [*LEVELS["singles"], "pointing", "claiming"]
    assert set(LEVELS["subsets"]) - set(LEVELS["locked"]) == {
        f"{kind}_{size}" for kind in ("naked", "hidden") for size in ("pair", "triple", "quad")}
    assert LEVELS["fish"][-2:] == ["x_wing", "swordfish"]


def test_levels_are_cumulative_and_ordered():
    assert list(TECHNIQUES)[:2] == LEVELS["singles"]
    for low, high in zip(LEVELS, list(LEVELS)[1:]):
        assert LEVELS[high][:len(LEVELS[low])] == LEVELS[low]
    assert LEVELS["fish"] == list(TECHNIQUES)


def test_resolve_mixes_levels_and_names():
    assert resolve_techniques("singles,pointing") == ["naked_single", "hidden_single", "pointing"]
    assert resolve_techniques("x_wing, singles") == ["naked_single", "hidden_single", "x_wing"]
    assert resolve_techniques("subsets") == LEVELS["subsets"]


@pytest.mark.parametrize("spec", ["singles,bogus", "", " , "])
def test_resolve_rejects_with_the_valid_names(spec):
    with pytest.raises(OptionError, match="swordfish") as err:
        resolve_techniques(spec)
    assert "locked" in str(err.value)


# --- the fixpoint on whole grids -----------------------------------------------------------------


def _known() -> list[tuple[Puzzle, tuple[int, ...]]]:
    """Puzzles with their one solution: the project's seeds, tdoku's count-1 rows."""
    pairs = []
    for name in ("002-logic-9x9", "002-backtracking-16x16"):
        path = PUZZLES / "seeds" / f"{name}.txt"
        if path.exists():
            pairs.append((load_puzzles(path)[0],
                          load_puzzles(path.with_suffix(".solution.txt"))[0].cells))
    for line in (PUBLIC / "counts_tdoku_test.txt").read_text().splitlines():
        parts = line.strip().split(":")
        if len(parts) == 3 and parts[1] == "1" and len(parts[2]) == 81:
            pairs.append((parse_grid(parts[0]), tuple(int(ch) for ch in parts[2])))
    return pairs


KNOWN = _known()


@pytest.mark.parametrize("puzzle,solution", KNOWN, ids=[p.name or str(i)
                                                        for i, (p, _) in enumerate(KNOWN)])
def test_logic_never_removes_the_true_digit(puzzle, solution):
    board = start(puzzle)
    counts: dict[str, int] = {}
    assert fixpoint(board, list(TECHNIQUES), counts)
    for c, (value, true) in enumerate(zip(board.vals, solution)):
        assert value in (0, true), f"cell {c}: placed {value}, solution {true}"
        assert value or board.cand[c] >> (true - 1) & 1, f"cell {c}: lost {true}"


def test_known_solutions_are_present():
    assert len(KNOWN) >= 20  # the two seeds and tdoku's 18


@pytest.mark.parametrize("spec", list(LEVELS))
def test_small_examples_are_solved_correctly(spec):
    puzzles = [p for f in ("4x4", "6x6") if (PUZZLES / "examples" / f"{f}.txt").exists()
               for p in load_puzzles(PUZZLES / "examples" / f"{f}.txt")]
    if not puzzles:
        pytest.skip("no puzzles/examples here")
    for p in puzzles:
        out = apply_logic(p, spec)
        assert not out.contradiction
        if out.solved:
            assert is_solution(p, out.cells)
        else:
            assert all(v in (0, w) for v, w in zip(out.cells, p.cells) if w)


EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def test_outcome_counts_and_hardest():
    out = apply_logic(parse_grid(MULTIPLE), "singles")
    assert not out.solved and not out.contradiction  # 28 solutions: logic must get stuck
    assert set(out.counts) == {"naked_single", "hidden_single"}
    easy = parse_grid(EASY)
    solved = apply_logic(easy, "fish")
    assert solved.solved and is_solution(easy, solved.cells)
    assert solved.hardest in ("naked_single", "hidden_single")
    assert sum(solved.counts.values()) == 81 - easy.givens


def test_hardest_follows_technique_order():
    top = parse_grid(".....6....59.....82....8....45........3........6..3.54...325..6"
                       + "." * 18)
    out = apply_logic(top, "fish")
    used = [name for name, k in out.counts.items() if k]
    assert out.hardest == max(used, key=list(TECHNIQUES).index)


def test_contradictions_are_proved():
    dup = Puzzle(NINE, (5, 5) + (0,) * 79)  # two 5s in row 1 (Puzzle() itself does not check)
    assert apply_logic(dup, "singles").contradiction
    nowhere = Puzzle(NINE, (1, 2, 3, 4, 5, 6, 7, 8, 0) + (0,) * 8 + (9,) + (0,) * 63)
    out = apply_logic(nowhere, "singles")
    assert out.contradiction and not out.solved


def test_no_contradiction_on_grids_with_solutions():
    for text in (MULTIPLE, "0" * 81):
        assert not apply_logic(parse_grid(text), "fish").contradiction


# --- the backend -------------------------------------------------------------------------------


def test_backend_solves_reports_and_counts():
    p = parse_grid(EASY)
    for limit in (1, 2, 0):
        r = get_backend("logic").solve(p, limit=limit)
        assert r.status is Status.SOLVED and r.complete and r.unique
        assert is_solution(p, r.solution)
    assert r.stats["filled"] == 81 and r.stats["givens"] == p.givens
    assert r.stats["naked_single"] + r.stats["hidden_single"] == r.stats["placed"] == 81 - p.givens


def test_backend_stuck_is_unknown_never_unsat():
    r = get_backend("logic", techniques="singles").solve(parse_grid(MULTIPLE), limit=0)
    assert r.status is Status.UNKNOWN and not r.complete and not r.solutions
    assert r.stats["filled"] > r.stats["givens"]


def test_backend_unsat_only_on_contradiction():
    nowhere = Puzzle(NINE, (1, 2, 3, 4, 5, 6, 7, 8, 0) + (0,) * 8 + (9,) + (0,) * 63)
    r = get_backend("logic").solve(nowhere)
    assert r.status is Status.UNSAT and r.complete


def test_backend_is_not_complete_and_honours_the_deadline():
    assert not backend_class("logic").complete  # stuck proves nothing: no uniqueness checker
    out = apply_logic(parse_grid(MULTIPLE), "fish", deadline=0.0)  # long past
    assert out.timed_out and not out.solved and not out.contradiction
    r = get_backend("logic").solve(parse_grid(MULTIPLE), time_limit=0)
    assert r.status is Status.TIMEOUT and not r.complete and r.stats[TIMED_OUT] == 1
    assert not apply_logic(parse_grid(MULTIPLE), "fish").timed_out


def test_backend_rejects_unknown_techniques():
    with pytest.raises(OptionError, match="valid|levels"):
        get_backend("logic", techniques="singles,guessing")


def test_invalid_grids_never_solved(public_sets):
    """Duplicate givens (built without the parser, which refuses them) and unsolvable grids."""
    for line in (public_sets / "invalid.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        text, label = line.split(maxsplit=1)
        p = Puzzle(NINE, tuple(0 if ch in ".0" else int(ch) for ch in text), label)
        r = get_backend("logic").solve(p)
        assert r.status in (Status.UNSAT, Status.UNKNOWN), label
        if "duplicate" in label:
            assert r.status is Status.UNSAT, label
