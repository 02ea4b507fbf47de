"""Sides past 35: numeric forms that round-trip, errors that name line and column, the shape
syntax, exports, and a 36x36 grid solved (and judged) by every backend that says it takes one."""

from __future__ import annotations

import pytest
from conftest import INSTALLED

from sudokucp.backends import backend_class, get_backend
from sudokucp.check import is_solution
from sudokucp.generators.balanced import make_one
from sudokucp.io.formats import WRITERS, parse_grid, parse_many
from sudokucp.puzzle import LINE_SIDE, MAX_SIDE, Puzzle, PuzzleError, Shape, line_side
from sudokucp.result import Status

SIDE_36, SIDE_64 = Shape(6, 6), Shape(8, 8)


def easy(shape: Shape, fraction: float = 0.2, seed: int = 7) -> Puzzle:
    """A generated puzzle with few holes: any complete search solves it at once."""
    return make_one(shape, fraction, "random", seed).puzzle


def test_limits():
    assert LINE_SIDE == 35 and MAX_SIDE >= 64
    assert Shape.for_side(64) == SIDE_64 and Shape.parse("36x36") == SIDE_36
    with pytest.raises(PuzzleError, match="sides 4 to 64"):
        Shape.for_side(65 * 2)


@pytest.mark.parametrize("text, boxes", [("30x30:5x6", (5, 6)), ("42x42:6x7", (6, 7)),
                                         ("64x64:8x8", (8, 8)), ("36:4x9", (4, 9))])
def test_shape_with_its_boxes(text, boxes):
    assert (Shape.parse(text).box_rows, Shape.parse(text).box_cols) == boxes


def test_shape_boxes_must_make_the_side():
    with pytest.raises(PuzzleError, match="make a side of 30"):
        Shape.parse("36x36:5x6")


@pytest.mark.parametrize("shape", [SIDE_36, Shape(6, 7), SIDE_64], ids=str)
@pytest.mark.parametrize("fraction", [0.0, 0.4, 0.97])
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_numeric_forms_round_trip(shape, fraction, writer):
    puzzle = easy(shape, fraction)
    text = WRITERS[writer](shape, puzzle.cells)
    assert parse_grid(text).cells == puzzle.cells
    for gap in ("\n\n", "\n") if fraction < 0.97 else ("\n\n",):
        entries = list(parse_many(text + gap + text))
        assert [e.puzzle.cells for e in entries] == [puzzle.cells] * 2


def test_the_line_form_past_35_is_numbers():
    puzzle = easy(SIDE_36)
    words = puzzle.to_line().split(" ")
    assert len(words) == SIDE_36.cells and "36" in words and "." in words
    assert line_side(puzzle.to_line()) == 36 and line_side("." * 81) == 9
    assert len(easy(Shape(5, 7)).to_line()) == 35 * 35  # one character a cell up to 35


def test_a_row_of_36_numbers_is_not_a_6x6_grid():
    puzzle = easy(SIDE_36, 0.97)  # few givens: rows of small numbers and blanks
    assert parse_grid(WRITERS["numeric"](SIDE_36, puzzle.cells)).shape == SIDE_36


@pytest.mark.parametrize("bad, reason", [("37", "larger than 36"), ("3?", "not a number"),
                                         ("-5", "not a number")])
def test_errors_name_line_and_column(bad, reason):
    solution = make_one(SIDE_36, 0.0, "random", 1).solution
    rows = [[str(v) for v in solution[i * 36:(i + 1) * 36]] for i in range(36)]
    rows[2][4] = bad
    text = "\n".join(",".join(row) for row in rows)
    column = len(",".join(rows[2][:4])) + 2
    with pytest.raises(PuzzleError) as err:
        parse_grid(text)
    assert (err.value.line, err.value.column) == (3, column)
    assert reason in err.value.reason


def test_a_duplicate_given_names_its_place():
    rows = [["0"] * 36 for _ in range(36)]
    rows[5][3] = rows[5][30] = "36"
    with pytest.raises(PuzzleError, match="duplicate given") as err:
        parse_grid("\n".join(" ".join(row) for row in rows))
    assert (err.value.line, err.value.column) == (6, len(" ".join(rows[5][:30])) + 2)


@pytest.mark.parametrize("shape, form", [(SIDE_36, form) for form in ("dimacs", "mzn", "xcsp3")]
                         + [(SIDE_64, form) for form in ("mzn", "dzn", "xcsp3")])
def test_exports_name_their_givens(shape, form):
    from sudokucp.io.exporters import export, instance_header

    puzzle = easy(shape)
    header = instance_header(export(puzzle, form))
    assert header.puzzle.cells == puzzle.cells and header.puzzle.shape == shape


@pytest.mark.parametrize("shape", [SIDE_36], ids=str)  # 64x64: benchmarks/large_grids.py
def test_a_dimacs_export_solved_decodes_to_a_solution(shape):
    pycosat = pytest.importorskip("pycosat")
    from sudokucp.io.exporters import decode, export

    puzzle = easy(shape)
    clauses = [[int(x) for x in line.split()[:-1]] for line in export(puzzle, "dimacs").split("\n")
               if line and line[0] not in "cp"]
    model = pycosat.solve(clauses)
    answer = decode("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n", "dimacs", shape)
    assert is_solution(puzzle, answer.grids[0])


SUPPORTING = [n for n in INSTALLED if backend_class(n).max_side >= 36]


@pytest.mark.parametrize("name", SUPPORTING)
def test_36x36_solved_and_judged(name):
    puzzle = easy(SIDE_36)
    result = get_backend(name).solve(puzzle, limit=1, time_limit=25)
    if not backend_class(name).complete and result.status is not Status.SOLVED:
        pytest.skip(f"{name} is incomplete and did not finish this grid")
    assert result.status is Status.SOLVED, result.error
    assert is_solution(puzzle, result.solutions[0])


@pytest.mark.parametrize("name", ["jit", "jit:search=cdcl", "jit:propagation=locked"])
def test_jit_solves_a_64x64_grid_with_its_masks_of_64_bits(name):
    """64 digits fill an int64 mask: dfs takes the side (cdcl, whose masks stop at 63, hands
    it over), at each propagation level; the answer judged."""
    puzzle, (backend, _, option) = easy(SIDE_64), name.partition(":")
    options = dict([option.split("=")]) if option else {}
    result = get_backend(backend, **options).solve(puzzle, limit=2, time_limit=25)
    assert result.status is Status.SOLVED, result.error
    assert result.solutions and all(is_solution(puzzle, s) for s in result.solutions)


def test_jit_solves_a_64x64_variant_with_its_masks_of_64_bits():
    """A Latin square of order 64 with holes (rows repeated as jigsaw regions): the dfs
    kernel on its layout, its cells' allowed masks all 64 bits; the answer judged."""
    from sudokucp.generators.latin import make_qwh

    puzzle = make_qwh(SIDE_64, 0.1, "random", 1, moves=200).puzzle
    result = get_backend("jit").solve(puzzle, limit=2, time_limit=25)
    assert result.status is Status.SOLVED, result.error
    assert result.solutions and all(is_solution(puzzle, s) for s in result.solutions)


SMALL = type("Small", (backend_class("mrv"),), {"name": "small", "max_side": 36})
SMALLER = [backend_class(n) for n in INSTALLED if backend_class(n).max_side < 64] + [SMALL]


@pytest.mark.parametrize("cls", SMALLER, ids=lambda cls: cls.name)
def test_a_side_past_the_backend_is_refused(cls):
    result = cls().solve(easy(SIDE_64), limit=1)
    assert result.status is Status.UNKNOWN
    assert f"takes sides up to {cls.max_side}" in result.error


def test_a_36x36_bench_is_judged_again_by_report(tmp_path):
    import csv

    from sudokucp.cli import main

    puzzles = tmp_path / "big.txt"
    puzzles.write_text(easy(SIDE_36).to_line() + "\n")
    out = tmp_path / "run"
    assert main(["bench", "--backends", "mrv", "--puzzles", str(puzzles), "--out", str(out),
                 "--repeat", "1", "--timeout", "20"]) == 0
    assert main(["report", str(out)]) == 0
    with (out / "results.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(r["status"] == "solved" and r["verified"] == "True" for r in rows)


def test_backends_says_each_ones_largest_side(capsys):
    from sudokucp.cli import main

    assert main(["backends"]) == 0
    out = capsys.readouterr().out
    sides = [line.strip() for line in out.splitlines() if "sides: 4 to" in line]
    assert len(sides) >= 15 and "sides: 4 to 64" in sides  # every backend, jit too
    assert "sides: 4 to 32" in sides  # the gpu's uint32 masks on the device


@pytest.mark.parametrize("shape", [SIDE_36, Shape(6, 7), SIDE_64], ids=str)
def test_isomorphs_past_35_map_the_solution_along(shape):
    from sudokucp.isomorph import forms
    from sudokucp.isomorph.transforms import apply, invert

    made = make_one(shape, 0.4, "doubly", 3)
    for form, how in forms(made.puzzle, 3, seed=5):
        assert form.shape == shape and form.givens == made.puzzle.givens
        assert is_solution(form, apply(how, made.solution))
        assert apply(invert(how), form.cells) == made.puzzle.cells
