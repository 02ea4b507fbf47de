"""Readers and writers, and the messages bad input gets."""

import random

import pytest

from sudokucp.formats import parse_grid, parse_many, read_puzzles, to_grid, to_line, to_numeric
from sudokucp.puzzle import Puzzle, PuzzleError, Shape

LINE = "8.9.....7...5.9....35.7.89..2.7.8.1.7.......2.6.1.547..97854230...9.67..5.......6"
SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(3, 4), Shape(4, 4),
          Shape(5, 5), Shape(5, 7)]


def random_puzzle(shape: Shape, seed: int) -> Puzzle:
    """A grid of a pattern solution with random blanks (no duplicate givens)."""
    r, c, n = shape.box_rows, shape.box_cols, shape.side
    rng = random.Random(seed)
    cells = [((i % r) * c + i // r + j) % n + 1 for i in range(n) for j in range(n)]
    return Puzzle(shape, tuple(v if rng.random() < 0.4 else 0 for v in cells))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_round_trip_every_shape(shape):
    puzzle = random_puzzle(shape, shape.side)
    for text in (to_line(shape, puzzle.cells), to_grid(shape, puzzle.cells),
                 to_numeric(shape, puzzle.cells)):
        assert parse_grid(text, shape=shape) == puzzle
    if shape.box_rows <= shape.box_cols:
        assert Puzzle.parse(puzzle.pretty()) == puzzle


def test_blanks_and_separators_read_alike():
    base = parse_grid(LINE)
    assert parse_grid(LINE.replace(".", "0")) == base
    assert parse_grid(LINE.replace(".", "_")) == base
    assert parse_grid(base.pretty()) == base
    rows = [LINE[i:i + 9] for i in range(0, 81, 9)]
    assert parse_grid("\n".join(" ".join(r) for r in rows)) == base
    assert parse_grid(",".join(c if c != "." else "0" for c in LINE)) == base


def test_letters_for_sixteen():
    text = "G" + "." * 255
    puzzle = parse_grid(text)
    assert puzzle.side == 16 and puzzle.cells[0] == 16
    assert parse_grid(text.lower()) == puzzle


def test_the_seed_numeric_16x16_with_semicolons():
    text = "15; 0;13;14; 0; 1;16; 7;10; 8;11; 0; 5; 2; 0; 6;" + " 0;" * 239 + " 0"
    puzzle = parse_grid(text)
    assert puzzle.side == 16 and puzzle.cells[:3] == (15, 0, 13)


def test_wrong_cell_count_names_found_and_expected():
    with pytest.raises(PuzzleError, match="80 cells fits no supported shape"):
        parse_grid(LINE[:-1])
    with pytest.raises(PuzzleError, match="found 80, expected 81"):
        parse_grid(LINE[:-1], shape=Shape(3, 3))


@pytest.mark.parametrize("bad", ["@", "٣", "５", "²", "?"])
def test_characters_not_allowed_name_line_and_column(bad):
    text = "# a comment\n" + LINE[:10] + bad + LINE[11:]
    with pytest.raises(PuzzleError) as err:
        parse_grid(text)
    assert (err.value.line, err.value.column) == (2, 11)
    assert repr(bad) in str(err.value) and "not allowed" in str(err.value)


def test_unicode_digits_rejected_in_numeric_grids():
    with pytest.raises(PuzzleError, match="not a number") as err:
        parse_grid("1, 2, ٣" + ", 0" * 13)
    assert err.value.column == 7


def test_value_larger_than_side():
    with pytest.raises(PuzzleError, match="value 9 is larger than 4") as err:
        parse_grid("9" + "." * 15)
    assert (err.value.line, err.value.column) == (1, 1)
    with pytest.raises(PuzzleError, match="value 17 is larger than 16"):
        parse_grid("17" + " 0" * 255)


def test_duplicate_given_names_unit_digit_and_cells():
    with pytest.raises(PuzzleError) as err:
        parse_grid("8.8" + "." * 78)
    message = str(err.value)
    assert "digit 8 twice in row 1 (r1c1 and r1c3)" in message
    assert err.value.column == 3


def test_size_fitting_no_shape():
    with pytest.raises(PuzzleError, match="fits no supported shape"):
        parse_grid("." * 49)


def test_many_puzzles_with_comments_crlf_bom_and_tabs():
    text = ("\ufeff# header\r\n" + LINE + "\r\n\r\n0\t" + LINE + "\tfirst gecode row\r\n"
            + LINE.replace(".", "0") + ":1\r\n" + LINE + " a label\r\n")
    entries = list(parse_many(text, stem="set"))
    assert [e.error for e in entries] == [None] * 4
    assert len({e.puzzle.cells for e in entries}) == 1
    assert entries[1].puzzle.name == "set#0" and entries[1].comment == "first gecode row"
    assert entries[0].puzzle.name == "set:2"


def test_an_error_on_one_line_does_not_stop_the_others():
    text = "\n".join([LINE, LINE[:-1], "8.8" + "." * 78, LINE.replace("7", "٧", 1), LINE])
    entries = list(parse_many(text))
    assert [e.puzzle is not None for e in entries] == [True, False, False, False, True]
    assert [e.error.line for e in entries if e.error] == [2, 3, 4]
    assert entries[3].error.column == LINE.index("7") + 1


def test_blank_line_separated_grids():
    a, b = parse_grid(LINE), random_puzzle(Shape(3, 3), 1)
    text = a.pretty() + "\n\n" + b.pretty() + "\n"
    assert [e.puzzle for e in parse_many(text)] == [a, b]


def test_sixteen_rows_of_sixteen_form_one_grid():
    puzzle = random_puzzle(Shape(4, 4), 3)
    rows = [to_line(puzzle.shape, puzzle.cells)[i:i + 16] for i in range(0, 256, 16)]
    entries = list(parse_many("\n".join(rows)))
    assert len(entries) == 1 and entries[0].puzzle == puzzle


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(PuzzleError, match="cannot read"):
        read_puzzles(tmp_path / "absent.txt")
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PuzzleError, match="not UTF-8"):
        read_puzzles(tmp_path / "bin.txt")


def test_empty_text():
    with pytest.raises(PuzzleError, match="no grid found"):
        parse_grid("# nothing\n\n")
