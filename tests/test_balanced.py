"""The generalized Sudoku generator: full grids of any shape, holes placed at random, singly or
doubly balanced, seeds that reproduce, puzzles the full grid solves, and `generate --holes`."""

from __future__ import annotations

import random

import pytest

from sudokucp.check import find_conflicts, is_solution
from sudokucp.cli import main
from sudokucp.generators import balanced
from sudokucp.generators.balanced import BalanceError, counts, full_grid, generate_balanced
from sudokucp.io.formats import parse_many
from sudokucp.puzzle import Shape

SHAPES = [Shape(3, 3), Shape(2, 4), Shape(5, 6), Shape(6, 7), Shape(6, 6)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.box_rows}x{s.box_cols}")
def test_full_grids_are_full_and_valid(shape):
    grid = full_grid(shape, random.Random(1))
    assert len(grid) == shape.cells and min(grid) == 1 and max(grid) == shape.side
    assert not find_conflicts(shape, grid)


def test_mixing_moves_the_grid_away_from_its_pattern():
    shape = Shape(3, 3)
    start = balanced.permuted(shape, random.Random(3))
    mixed = full_grid(shape, random.Random(3))
    assert sum(a == b for a, b in zip((v for row in start for v in row), mixed)) < 40


def spread(values: list[int]) -> int:
    return max(values) - min(values)


@pytest.mark.parametrize("shape", SHAPES[:4], ids=lambda s: f"{s.box_rows}x{s.box_cols}")
@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.42, 0.5, 1.0])
def test_balance_counts(shape, fraction):
    holes = round(fraction * shape.cells)
    for how in balanced.BALANCES:
        made = balanced.make_one(shape, fraction, how, "t")
        per = counts(shape, made.puzzle.cells)
        assert made.holes == holes == sum(per["row"]) == sum(per["box"])
        if how != "random":
            assert spread(per["row"]) <= 1 and spread(per["column"]) <= 1
        if how == "doubly":
            assert spread(per["box"]) <= 1


def test_singly_balanced_boxes_drift_and_random_rows_drift():
    shape = Shape(5, 6)
    singly = counts(shape, balanced.make_one(shape, 0.42, "singly", 2).puzzle.cells)
    loose = counts(shape, balanced.make_one(shape, 0.42, "random", 2).puzzle.cells)
    assert spread(singly["box"]) > 1 and spread(loose["row"]) > 1


@pytest.mark.parametrize("how", balanced.BALANCES)
def test_seeds_reproduce_and_the_full_grid_solves_each_puzzle(how):
    shape = Shape(5, 6)
    first = list(generate_balanced(shape, 3, 0.42, how, seed=9))
    again = list(generate_balanced(shape, 3, 0.42, how, seed=9))
    assert [m.puzzle.cells for m in first] == [m.puzzle.cells for m in again]
    assert len({m.puzzle.cells for m in first}) == 3
    assert first[0].puzzle.cells != balanced.make_one(shape, 0.42, how, 10).puzzle.cells
    for made in first:
        assert is_solution(made.puzzle, made.solution)


def test_unique_keeps_only_proven_puzzles():
    from sudokucp.backends import get_backend

    checker = get_backend("hybrid")
    made = list(generate_balanced(Shape(3, 3), 2, 0.55, "doubly", 1, checker=checker))
    assert len(made) == 2 and all(m.unique for m in made)
    for m in made:
        assert checker.solve(m.puzzle, limit=2).count == 1


def test_unique_runs_out_of_tries():
    from sudokucp.backends import get_backend

    with pytest.raises(BalanceError, match="proven unique among 3"):
        list(generate_balanced(Shape(3, 3), 1, 0.9, "random", 1,
                               checker=get_backend("hybrid"), tries=3))


@pytest.mark.parametrize("fraction, how", [(1.5, "random"), (0.4, "evenly")])
def test_bad_requests_are_refused(fraction, how):
    with pytest.raises(BalanceError):
        balanced.make_one(Shape(3, 3), fraction, how, 0)


def test_generate_holes_writes_puzzles_that_read_back(tmp_path, capsys):
    out = tmp_path / "g.txt"
    args = ["generate", "--shape", "30x30:5x6", "--holes", "0.42", "--balance", "doubly",
            "--count", "2", "--seed", "S", "-o", str(out)]
    assert main(args) == 0
    text = out.read_text()
    assert text.startswith("# sudoku-cp generate --shape 30x30:5x6 --holes 0.42 --balance "
                           "doubly --count 2 --seed S\n")
    entries = list(parse_many(text))
    assert [e.puzzle.cells for e in entries] == [
        m.puzzle.cells for m in generate_balanced(Shape(5, 6), 2, 0.42, "doubly", "S")]
    for entry in entries:
        assert spread(counts(Shape(5, 6), entry.puzzle.cells)["box"]) <= 1


def test_generate_holes_past_35_writes_numbers(tmp_path):
    out = tmp_path / "g.txt"
    assert main(["generate", "--shape", "36x36", "--holes", "0.3", "--count", "1",
                 "-o", str(out)]) == 0
    (entry,) = parse_many(out.read_text())
    assert entry.puzzle.shape == Shape(6, 6) and entry.puzzle.givens == 1296 - 389


@pytest.mark.parametrize("extra", [["--balance", "singly"], ["--unique"]])
def test_balance_and_unique_need_holes(extra, capsys):
    assert main(["generate", *extra]) == 2
    assert "add --holes" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [["--givens", "30"], ["--symmetric"], ["--kind", "x"],
                                   ["--tries", "3"], ["-b", "sat"]])
def test_holes_refuse_the_clue_removal_options(extra, capsys):
    assert main(["generate", "--holes", "0.4", *extra]) == 2
    err = capsys.readouterr().err
    assert "--holes" in err or "add --unique" in err


def test_holes_must_be_a_fraction(capsys):
    with pytest.raises(SystemExit):
        main(["generate", "--holes", "1.2"])
    assert "fraction" in capsys.readouterr().err
