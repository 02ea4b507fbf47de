"""The variant generator: every kind on 4x4 to 9x9 makes puzzles the judge accepts, with exactly
one solution (the checker and a second backend agree), the same for the same seed whatever the
checker; jigsaw regions, killer cages, extra units and candidates as their rules say; the
generate command's variant files read back; the shipped sets under puzzles/variants/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokucp.backends import available_backends, get_backend
from sudokucp.check import is_solution
from sudokucp.cli import main
from sudokucp.generators.generator import GenerateError
from sudokucp.generators.variant_generator import (
    MADE,
    checker,
    generate_variant,
    generate_variants,
    parse_kinds,
    random_regions,
)
from sudokucp.io.formats import read_puzzles
from sudokucp.io.variants import to_text
from sudokucp.layout import layout
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.rules import Rules, connected

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "puzzles" / "variants"
SMALL = (Shape(2, 2), Shape(2, 3), Shape(3, 2))
SECOND = "sat" if "sat" in available_backends() else "cpsat"  # beside mrv on small grids
POSSIBLE = [k for k in MADE if k != "anti-king"]  # no 4x4 grid keeps the anti-king rule
FEW = settings(max_examples=25, deadline=None, derandomize=True)


def count(puzzle: Puzzle, name: str) -> int:
    """Solutions found at limit 2, the search being exhausted when fewer than 2."""
    result = get_backend(name).solve(puzzle, limit=2)
    assert result.error is None and (result.count == 2 or result.complete)
    return result.count


def made(kind: str, shape: Shape, seed: int | str = 1, index: int = 0, **options):
    return generate_variant(shape, parse_kinds(kind), seed, index, **options)


def assert_sound(made_one, kind: str, shape: Shape, others: tuple[str, ...] = ("mrv",)) -> None:
    """Judged a solution, one solution for each backend named, the kind and shape asked."""
    puzzle, solution = made_one.puzzle, made_one.solution
    assert puzzle.kind == "+".join(k for k in MADE if k in parse_kinds(kind))
    assert puzzle.shape == shape and puzzle.rules.problem(shape.side) is None
    assert is_solution(puzzle, solution), (kind, shape)
    assert all(g in (0, s) for g, s in zip(puzzle.cells, solution))
    for name in others:
        assert count(puzzle, name) == 1, (kind, shape, name)


# --- every kind, small grids, two backends ---------------------------------------------------

@pytest.mark.parametrize("shape", SMALL, ids=str)
@pytest.mark.parametrize("kind", MADE)
def test_every_kind_is_unique_for_two_backends(kind, shape):
    if kind == "anti-king" and shape.side == 4:
        with pytest.raises(GenerateError, match="no 4x4 grid keeps the rules of anti-king"):
            made(kind, shape)
        return
    for index in range(2):
        one = made(kind, shape, index=index)
        assert_sound(one, kind, shape, ("mrv", SECOND))
        assert one.seed == f"1:{kind}:{shape.box_rows}x{shape.box_cols}:{index}"
        assert one.puzzle.name == one.seed


@FEW
@given(st.sampled_from(POSSIBLE), st.sampled_from(SMALL), st.integers(0, 10 ** 6))
def test_any_seed_makes_a_sound_puzzle(kind, shape, seed):
    assert_sound(made(kind, shape, seed), kind, shape, (SECOND,))


@pytest.mark.parametrize("kind", ["x", "windoku", "jigsaw", "killer", "extra-units"])
def test_9x9_puzzles_are_unique(kind):
    assert_sound(made(kind, Shape(3, 3)), kind, Shape(3, 3), (SECOND,))


def test_kinds_combine():
    shape = Shape(2, 3)
    for kind in ("x+killer", "windoku+pencil-mark", "jigsaw+extra-units"):
        assert_sound(made(kind, shape, 5), kind, shape, ("mrv", SECOND))


# --- seeds --------------------------------------------------------------------------------------

def test_same_seed_same_puzzle_whatever_the_checker():
    shape, kinds = Shape(2, 3), parse_kinds("killer")
    first = list(generate_variants(shape, kinds, 3, "s", backend=get_backend("mrv")))
    again = list(generate_variants(shape, kinds, 3, "s", backend=get_backend(SECOND)))
    assert [to_text(m.puzzle) for m in first] == [to_text(m.puzzle) for m in again]
    assert len({to_text(m.puzzle) for m in first}) == 3
    alone = generate_variant(shape, kinds, "s", 2)  # each puzzle stands alone
    assert to_text(alone.puzzle) == to_text(first[2].puzzle)
    other = generate_variant(shape, kinds, "t", 2)
    assert to_text(other.puzzle) != to_text(alone.puzzle)


# --- each kind's rules --------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3)], ids=str)
def test_jigsaw_regions_tile_the_grid_connected(shape):
    import random

    n = shape.side
    rng = random.Random(3)
    boxes = {tuple(sorted(b)) for b in layout(shape, Rules()).groups[2 * n:]}
    moved = 0
    for _ in range(5):
        regions = random_regions(shape, rng)
        assert len(regions) == n and all(len(r) == n for r in regions)
        assert sorted(c for r in regions for c in r) == list(range(shape.cells))
        assert all(connected(n, r) for r in regions)
        assert Rules(regions=regions).problem(n) is None
        moved += len(set(regions) - boxes)
    assert moved > 0  # not the boxes again


def test_killer_cages_cover_the_grid_with_their_sums():
    for shape in (Shape(2, 3), Shape(3, 3)):
        one = made("killer", shape, 4)
        cages, n = one.puzzle.rules.cages, shape.side
        assert sorted(c for cage in cages for c in cage.cells) == list(range(shape.cells))
        for cage in cages:
            assert 1 <= len(cage.cells) <= 5 and connected(n, cage.cells)
            digits = [one.solution[c] for c in cage.cells]
            assert len(set(digits)) == len(digits) and cage.total == sum(digits)
        assert one.puzzle.givens <= n  # few or none
        assert one.minimal


def test_extra_units_hold_distinct_digits():
    one = made("extra-units", Shape(3, 3), 2)
    units = one.puzzle.rules.units
    assert len(units) == 3 and len({c for u in units for c in u}) == sum(map(len, units))
    for unit in units:
        assert 2 <= len(unit) <= 9 and connected(9, unit)
        assert len({one.solution[c] for c in unit}) == len(unit)


def test_pencil_mark_has_no_givens_and_no_struck_candidate_can_come_back():
    shape = Shape(2, 2)
    for index in range(3):
        one = made("pencil-mark", shape, 7, index)
        rules = one.puzzle.rules
        assert one.puzzle.givens == 0 and one.minimal
        assert all(m >> (v - 1) & 1 for m, v in zip(rules.candidates, one.solution))
        for cell, mask in enumerate(rules.candidates):
            for digit in range(1, 5):
                if not mask >> (digit - 1) & 1:
                    loose = list(rules.candidates)
                    loose[cell] |= 1 << (digit - 1)
                    puzzle = Puzzle(shape, one.puzzle.cells, "", Rules(candidates=tuple(loose)))
                    assert count(puzzle, "mrv") == 2, (cell, digit)


def test_minimal_puzzles_lose_uniqueness_with_any_given_removed():
    shape = Shape(2, 3)
    for kind in ("x", "jigsaw", "killer"):
        one = made(kind, shape, 9)
        assert one.minimal
        for cell, value in enumerate(one.puzzle.cells):
            if value:
                cells = list(one.puzzle.cells)
                cells[cell] = 0
                fewer = Puzzle(shape, tuple(cells), "", one.puzzle.rules)
                assert count(fewer, "mrv") == 2, (kind, cell)


def test_a_givens_target_and_symmetric_pairs():
    one = made("windoku", Shape(3, 3), 1, givens=40, symmetric=True)
    assert one.puzzle.givens in (39, 40) and not one.minimal
    cells = one.puzzle.cells
    assert all(bool(cells[c]) == bool(cells[80 - c]) for c in range(81))


def test_bad_requests_are_refused():
    with pytest.raises(GenerateError, match="unknown kind 'diagonal'; kinds: x, windoku"):
        parse_kinds("x+diagonal")
    with pytest.raises(GenerateError, match="names no kind"):
        parse_kinds(" + ")
    with pytest.raises(GenerateError, match="has no givens"):
        made("pencil-mark", Shape(2, 2), givens=3)
    with pytest.raises(GenerateError, match="not complete"):
        checker(Shape(3, 3), parse_kinds("x"), "logic")
    assert parse_kinds("X, killer") == {"x", "killer"}


# --- the command --------------------------------------------------------------------------------

def test_generate_kind_writes_blocks_that_solve_reads(tmp_path, capsys):
    out = tmp_path / "k.txt"
    code = main(["generate", "--kind", "killer", "--shape", "6x6", "--count", "2", "--seed",
                 "3", "-o", str(out)])
    assert code == 0, capsys.readouterr().err
    text = out.read_text()
    assert text.startswith("# sudoku-cp generate --kind killer --shape 6x6 --count 2 --seed 3")
    assert "random.Random('3:killer:2x3:i')" in text
    entries = read_puzzles(out)
    assert [e.puzzle.name for e in entries] == ["3:killer:2x3:0", "3:killer:2x3:1"]
    assert {e.puzzle.kind for e in entries} == {"killer"}
    assert main(["solve", str(out), "-b", "mrv", "--count"]) == 0
    assert capsys.readouterr().out.count("1 solution") == 2


@pytest.mark.parametrize(("args", "message"), [
    (["--kind", "knight"], "unknown kind 'knight'"),
    (["--kind", "pencil-mark", "--givens", "3"], "has no givens"),
    (["--kind", "x", "--difficulty", "easy"], "rate classic grids only"),
    (["--kind", "x", "-b", "logic"], "not complete"),
    (["--kind", "x", "--givens", "99"], "at most 81 givens"),
    (["--kind", "x", "-b", "nosuch"], "unknown backend 'nosuch'")])
def test_bad_options_are_one_line_and_exit_2(args, message, capsys):
    assert main(["generate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_rules_no_grid_keeps_are_named(capsys):
    assert main(["generate", "--kind", "anti-king", "--shape", "4x4"]) == 1
    assert "no 4x4 grid keeps the rules of anti-king" in capsys.readouterr().err


# --- the shipped sets ---------------------------------------------------------------------------

SHIPPED = sorted(VARIANTS.glob("*.txt"))
COMMAND = re.compile(r"^# (sudoku-cp generate .*)$", re.MULTILINE)


def test_the_shipped_sets_are_there():
    names = {p.stem for p in SHIPPED}
    assert {"9x9-x", "9x9-windoku", "9x9-jigsaw", "6x6-jigsaw", "9x9-killer",
            "9x9-pencil-mark"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_puzzles_are_unique_and_of_their_kind(path):
    kind = path.stem.split("-", 1)[1]
    command = COMMAND.search(path.read_text())
    assert command and f"--kind {kind} " in command.group(1)
    entries = read_puzzles(path)
    assert entries and all(e.error is None for e in entries)
    for entry in entries:
        assert entry.puzzle.kind == kind and entry.puzzle.name.endswith(
            tuple(f":{i}" for i in range(len(entries))))
        assert count(entry.puzzle, SECOND) == 1, entry.puzzle.name


@pytest.mark.parametrize("stem", ["6x6-jigsaw", "9x9-x"])
def test_shipped_sets_come_back_from_their_command(stem, tmp_path, capsys):
    path = VARIANTS / f"{stem}.txt"
    words = COMMAND.search(path.read_text()).group(1).split()[1:]
    assert main([*words, "-o", str(tmp_path / "again.txt")]) == 0
    again = [(e.puzzle.name, to_text(e.puzzle)) for e in read_puzzles(tmp_path / "again.txt")]
    assert again == [(e.puzzle.name, to_text(e.puzzle)) for e in read_puzzles(path)]
