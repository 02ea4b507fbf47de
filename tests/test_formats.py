"""Readers and writers, and the messages bad input gets."""

import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sudokucp.check import find_conflicts
from sudokucp.io.formats import (
    iter_entries,
    load_puzzles,
    parse_grid,
    parse_many,
    read_puzzles,
    to_grid,
    to_line,
    to_numeric,
)
from sudokucp.io.plain import plain_puzzle, plain_text, repeats
from sudokucp.puzzle import Puzzle, PuzzleError, Shape

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "tests" / "data" / "seeds"  # figures from the seeds (tests/data/README.md)
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
        assert parse_grid(puzzle.pretty()) == puzzle


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


def test_sixteen_four_by_four_puzzles_one_per_line_read_as_sixteen(tmp_path):
    """`generate --shape 4x4 --count 16` writes 16 lines of 16 cells: read as one 16x16 grid a
    digit repeats, read one per line none does, so they are sixteen 4x4 puzzles."""
    done = subprocess.run([sys.executable, "-m", "sudokucp", "generate", "--shape", "4x4",
                           "--count", "16", "--seed", "3"], capture_output=True, text=True,
                          check=True)
    puzzles = load_puzzles(done.stdout.splitlines())
    assert len(puzzles) == 16 and {p.shape for p in puzzles} == {Shape(2, 2)}


def test_a_sixteen_by_sixteen_grid_of_small_digits_stays_one_grid():
    """Rows of a 16x16 grid whose givens are all 1 to 4 and repeat in no unit: one grid."""
    puzzle = random_puzzle(Shape(4, 4), 5)
    small = Puzzle(puzzle.shape, tuple(v if v <= 4 else 0 for v in puzzle.cells))
    rows = [to_line(small.shape, small.cells)[i:i + 16] for i in range(0, 256, 16)]
    entries = list(parse_many("\n".join(rows)))
    assert len(entries) == 1 and entries[0].puzzle == small


def test_missing_file_and_directory_raise(tmp_path):
    with pytest.raises(PuzzleError, match="cannot read"):
        read_puzzles(tmp_path / "absent.txt")
    with pytest.raises(PuzzleError, match="cannot read .*: Is a directory"):
        read_puzzles(tmp_path)


def test_binary_lines_are_bad_lines_not_the_end(tmp_path):
    (tmp_path / "mixed.txt").write_bytes(LINE.encode() + b"\n\xff\xfe junk\nab\x00c\n"
                                         + LINE.encode() + b"\n")
    entries = read_puzzles(tmp_path / "mixed.txt")
    assert [e.puzzle is not None for e in entries] == [True, False, False, True]
    assert "not UTF-8" in str(entries[1].error) and entries[1].error.column == 1
    assert "NUL" in str(entries[2].error) and entries[2].error.column == 3
    (tmp_path / "utf16.txt").write_bytes(LINE.encode("utf-16"))
    assert "UTF-16" in str(read_puzzles(tmp_path / "utf16.txt")[0].error)


def test_empty_text():
    with pytest.raises(PuzzleError, match="no grid found"):
        parse_grid("# nothing\n\n")


# --- a bad line anywhere, first included, is reported and skipped -----------------------------

ROWS = [LINE[i:i + 9] for i in range(0, 81, 9)]
SPACED = " ".join(c if c != "." else "0" for c in LINE)


def good_and_bad(text):
    entries = list(parse_many(text))
    return [e.puzzle for e in entries if e.puzzle], [e.error for e in entries if e.error]


def test_a_bad_character_in_the_first_row_of_a_grid_names_its_place():
    puzzles, errors = good_and_bad("?" + "\n".join(ROWS)[1:])
    assert puzzles == [] and len(errors) == 1
    assert (errors[0].line, errors[0].column) == (1, 1) and "'?'" in str(errors[0])


def test_a_bad_first_line_keeps_the_good_lines_after_it():
    for first in ("?" + LINE[1:], "some header text", "Sudoku puzzles", "9 cells??", "x"):
        puzzles, errors = good_and_bad(f"{first}\n{LINE}\n{LINE}\n")
        assert len(puzzles) == 2, first
        assert [e.line for e in errors] == [1], first


def test_the_last_line_torn_is_reported_alone():
    puzzles, errors = good_and_bad(f"{LINE}\n{LINE}\n{LINE[:40]}")
    assert len(puzzles) == 2 and errors[0].line == 3
    assert "40 cells fits no supported shape" in str(errors[0])


def test_random_printable_text_gives_errors_with_lines_only():
    rng = random.Random(5)
    text = "\n".join("".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(1, 120)))
                     for _ in range(300))
    entries = list(parse_many(text))
    assert entries and all(e.error is not None and e.error.line for e in entries)


def test_stored_errors_keep_no_traceback():
    entries = list(parse_many(f"{LINE[:-1]}\n8.8{'.' * 78}\n?{LINE[1:]}"))
    assert all(e.error.__traceback__ is None for e in entries)


def test_shape_for_cells_refuses_counts_below_one():
    for count in (0, -1, -81):
        with pytest.raises(PuzzleError, match="fits no supported shape"):
            Shape.for_cells(count)


def test_a_letter_beyond_the_shape_is_named_as_a_character():
    with pytest.raises(PuzzleError) as err:
        parse_grid(LINE[:5] + "x" + LINE[6:])
    assert str(err.value) == ("line 1, column 6: character 'x' is not a digit of a 9x9 grid "
                              "(its digits are 1-9)")
    with pytest.raises(PuzzleError, match="character 'H' is not a digit of a 16x16 grid "
                                          r"\(its digits are 1-9 and A-G\)"):
        parse_grid("H" + "." * 255)


# --- formats people paste ---------------------------------------------------------------------

OCAML_16 = ("15; 0;13;14; 0; 1;16; 7;10; 8;11; 0; 5; 2; 0; 6;" + " 0;" * 239 + " 0")


def test_81_numbers_separated_by_spaces_on_one_line():
    puzzles, errors = good_and_bad(f"{SPACED}\n{SPACED}\n")
    assert errors == [] and puzzles == [parse_grid(LINE)] * 2


def test_256_numbers_separated_by_spaces_on_one_line():
    text = OCAML_16.replace(";", " ")
    puzzles, errors = good_and_bad(text)
    assert errors == [] and puzzles[0].side == 16 and puzzles[0].cells[:4] == (15, 0, 13, 14)


def test_ocaml_array_literals_one_line_and_nested():
    flat = "[| " + SPACED.replace(" ", ";") + " |]"
    nested = "[| " + ";\n   ".join("[|" + "; ".join(r.replace(".", "0")) + "|]"
                                    for r in ROWS) + " |];;"
    for text in (flat, nested, "[|" + OCAML_16 + "|]"):
        puzzles, errors = good_and_bad(text)
        assert errors == [] and len(puzzles) == 1, text
    assert good_and_bad(nested)[0] == [parse_grid(LINE)]


def test_python_and_json_lists_of_lists():
    rows = ["[" + ", ".join(r.replace(".", "0")) + "]" for r in ROWS]
    one_line = "[" + ",".join(rows) + "]"
    over_lines = "[\n" + ",\n".join("  " + r for r in rows) + "\n]\n"
    for text in (one_line, over_lines, one_line.replace(" ", "")):
        assert good_and_bad(text) == ([parse_grid(LINE)], []), text


def test_section_headers_are_still_skipped():
    puzzles, errors = good_and_bad(f"[Puzzle]\n{LINE}\n[Solution]\n")
    assert errors == [] and len(puzzles) == 1


def test_tab_separated_grid_with_empty_and_bullet_cells():
    figure = "\n".join("\t".join("" if c == "." and (i + j) % 2 else "•" if c == "." else c
                                 for j, c in enumerate(row)) for i, row in enumerate(ROWS))
    assert good_and_bad(figure) == ([parse_grid(LINE)], [])
    assert good_and_bad("\t" * 8 + "\n" + "\n".join("\t".join(r) for r in ROWS[1:]))[0][0] \
        .cells[:9] == (0,) * 9


def test_the_seed_004_figure():
    figure = (SEEDS / "004-figure.txt").read_text().rstrip("\n")  # tab-separated, '•' marks
    telegram = load_puzzles(ROOT / "puzzles" / "seeds" / "004-telegram.txt")[0]
    assert good_and_bad(figure) == ([telegram], [])


def test_index_tab_puzzle_tab_comment_still_reads():
    entries = list(parse_many(f"34\t{LINE}\tfrom gecode\n", stem="g"))
    assert entries[0].puzzle.name == "g#34" and entries[0].comment == "from gecode"


FULL = tuple(((i % 3) * 3 + i // 3 + j) % 9 + 1 for i in range(9) for j in range(9))


def test_csv_with_a_header_keeps_the_solution():
    solution, quiz = to_line(Shape(3, 3), FULL), LINE.replace(".", "0")
    for header in ("puzzle,solution", "quizzes,solutions", "id,puzzle,solution,clues"):
        row = f"{quiz},{solution}" if not header.startswith("id") else f"7,{quiz},{solution},24"
        entries = list(parse_many(f"{header}\n{row}\n{row}\n"))
        assert [e.error for e in entries] == [None, None], header
        assert entries[0].puzzle == parse_grid(LINE) and entries[0].solution == FULL, header
    entries = list(parse_many(f"quizzes\n{quiz}\n"))
    assert entries[0].puzzle == parse_grid(LINE) and entries[0].solution is None


def test_a_lone_column_name_is_a_title_not_a_csv_header():
    rows = "\n".join(",".join(r.replace(".", "0")) for r in ROWS)
    for header in ("Sudoku", "quizzes", "grid"):
        assert good_and_bad(f"{header}\n{rows}\n") == ([parse_grid(LINE)], []), header


def test_a_bad_solution_column_names_its_column():
    quiz = LINE.replace(".", "0")
    entries = list(parse_many(f"quizzes,solutions\n{quiz},{'1' * 40}\n"))
    error = entries[0].error
    assert "solution: wrong cell count: found 40, expected 81" in str(error)
    assert (error.line, error.column) == (2, 83)


def test_titles_name_the_grids_after_them():
    text = "Grid 01\n" + "\n".join(ROWS) + "\nGrid 02\n" + "\n".join(ROWS) + "\n"
    entries = list(parse_many(text))
    assert [e.comment for e in entries] == ["Grid 01", "Grid 02"]
    assert all(e.puzzle == parse_grid(LINE) for e in entries)


def test_grids_back_to_back_without_blank_lines():
    a, b = random_puzzle(Shape(3, 3), 1), random_puzzle(Shape(2, 3), 2)
    text = "\n".join([a.pretty(), b.pretty(), LINE, to_numeric(a.shape, a.cells)])
    assert [e.puzzle for e in parse_many(text)] == [a, b, parse_grid(LINE), a]


def test_rows_of_a_grid_name_the_odd_row_and_a_short_grid():
    rows = ROWS[:5] + [ROWS[5][:-1]] + ROWS[6:]
    assert "8 cells in this row, 9 in a row" in str(good_and_bad("\n".join(rows))[1][0])
    error = good_and_bad("\n".join(ROWS[:7]))[1][0]
    assert error.line == 7 and "ends after 7 rows" in str(error)


def test_mixed_shapes_in_one_file_and_a_given_shape():
    small = random_puzzle(Shape(2, 2), 4).to_line()
    assert len(good_and_bad(f"{LINE}\n{small}\n")[0]) == 2
    entries = list(parse_many(f"{LINE}\n{small}\n", shape=Shape(3, 3)))
    assert "found 16, expected 81" in str(entries[1].error)


# --- streaming --------------------------------------------------------------------------------

def test_the_first_entry_comes_before_the_rest_is_read():
    pulled = []

    def lines():
        for number in range(100_000):
            pulled.append(number)
            yield LINE + "\n"

    entries = iter_entries(lines())
    assert next(entries).puzzle == parse_grid(LINE)
    assert len(pulled) == 1


def test_grid_lines_are_read_one_grid_ahead_at_most():
    pulled = []

    def lines():
        for number in range(100_000):
            pulled.append(number)
            yield ROWS[number % 9] + "\n"

    entries = iter_entries(lines())
    assert next(entries).puzzle == parse_grid(LINE)
    assert len(pulled) <= 10


def test_solve_answers_the_first_grid_before_the_input_ends():
    """Two grids written, the input left open: the first answer comes out all the same."""
    proc = subprocess.Popen([sys.executable, "-m", "sudokucp", "solve", "--format", "line", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    timer = threading.Timer(60, proc.kill)
    timer.start()
    try:
        proc.stdin.write(f"{LINE}\n{LINE}\n")
        proc.stdin.flush()
        first = proc.stdout.readline().strip()
        proc.stdin.close()
        proc.wait()
    finally:
        timer.cancel()
    assert len(first) == 81 and "." not in first


# --- the fast path: one grid per line ---------------------------------------------------------

def test_plain_text_takes_one_grid_lines_only():
    assert plain_text(LINE.encode() + b"\r\n") == LINE == plain_text(LINE + "\n")
    assert plain_text(LINE.replace(".", "0").encode()) == LINE.replace(".", "0")
    for other in (LINE[:-1], LINE + ".", " " + LINE[1:], LINE[:-1] + "\t", LINE[:-1] + "•",
                  "#" + LINE[1:], "G" + "." * 15):  # a 4x4 line may be a row of a 16x16
        assert plain_text(other) is None and plain_text(other.encode()) is None


def test_plain_puzzle_reads_valid_grids_and_leaves_the_rest():
    assert plain_puzzle(LINE, None, "n") == parse_grid(LINE)
    assert plain_puzzle(LINE, None, "n").name == "n"
    assert plain_puzzle(LINE, Shape(3, 3)) == parse_grid(LINE)
    assert plain_puzzle(LINE, Shape(2, 2)) is None  # another shape: the general reader says why
    assert plain_puzzle("9" + LINE[1:], None) is None  # 9 twice in row 1
    assert plain_puzzle("A" + LINE[1:], None) is None  # no digit of a 9x9
    assert plain_puzzle("g" + "." * 255, None) == parse_grid("G" + "." * 255)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_repeats_agrees_with_the_judge(shape):
    rng = random.Random(shape.side)
    for _ in range(30):
        cells = tuple(rng.choice([0, 0, 0, rng.randint(1, shape.side)]) for _ in range(shape.cells))
        assert repeats(shape, cells) == bool(find_conflicts(shape, cells))
    assert not repeats(shape, random_puzzle(shape, 1).cells)
