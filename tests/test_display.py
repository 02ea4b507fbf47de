"""Grids drawn for Jupyter: well-formed SVG of every shape, box borders where the boxes end,
givens bold, found digits blue, a step's struck candidates red; Puzzle and Result show
themselves."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudokucp import display
from sudokucp.api import draw, explain
from sudokucp.backends import get_backend
from sudokucp.i18n import speaking
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Result, Status

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "puzzles" / "seeds"
SVG = "{http://www.w3.org/2000/svg}"
SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(4, 4), Shape(5, 5)]


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element, kind: str) -> list[ET.Element]:
    return [t for t in root.iter(f"{SVG}text") if t.get("class") == kind]


def thick(root: ET.Element) -> tuple[int, int]:
    """(horizontal, vertical) thick lines strictly inside the grid."""
    inner = [line for line in root.iter(f"{SVG}line") if line.get("stroke-width") == "2.5"]
    across = sum(1 for line in inner if line.get("y1") == line.get("y2"))
    return across, len(inner) - across


def a_puzzle(shape: Shape) -> Puzzle:
    """A puzzle of `shape`: the solution mrv finds for the empty grid, every other cell cleared."""
    solved = get_backend("mrv").solve(Puzzle.empty(shape)).solution
    return Puzzle(shape, tuple(v if i % 2 else 0 for i, v in enumerate(solved)), "half")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_shape_is_drawn_with_its_givens_and_its_box_borders(shape):
    puzzle = a_puzzle(shape)
    root = parsed(puzzle._repr_svg_())
    assert root.get("data-side") == str(shape.side)
    givens = texts(root, "given")
    assert len(givens) == puzzle.givens and all(t.get("font-weight") == "bold" for t in givens)
    assert texts(root, "found") == []
    # boxes of r rows and c columns: a thick line every r rows and every c columns
    assert thick(root) == (shape.side // shape.box_rows - 1, shape.side // shape.box_cols - 1)


def test_a_six_by_six_grid_has_its_boxes_two_rows_high_and_three_columns_wide():
    root = parsed(Puzzle.empty(Shape(2, 3))._repr_svg_())
    assert thick(root) == (2, 1)


def test_found_digits_are_blue_and_givens_stay_bold():
    puzzle = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    result = get_backend("mrv").solve(puzzle)
    root = parsed(draw(puzzle, result)._repr_svg_())
    found, given = texts(root, "found"), texts(root, "given")
    assert len(given) == puzzle.givens and len(found) == 81 - puzzle.givens
    assert {t.get("fill") for t in found} == {display.FOUND}
    assert {t.get("fill") for t in given} == {display.GIVEN}
    digits = {(float(t.get("x")), float(t.get("y"))): t.text for t in found + given}
    assert len(digits) == 81
    with pytest.raises(ValueError, match="the solution has 3 cells, the grid 81"):
        draw(puzzle, [1, 2, 3])


def test_a_puzzle_shows_its_name_shape_and_givens_in_either_language():
    puzzle = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    page = puzzle._repr_html_()
    assert f"{puzzle.name}, 9x9, {puzzle.givens} givens</figcaption>" in page
    with speaking("fr"):
        assert f"9x9, {puzzle.givens} indices</figcaption>" in puzzle._repr_html_()
    assert "1 given<" in Puzzle(Shape(2, 2), (1,) + (0,) * 15)._repr_html_()


def test_a_result_shows_its_status_counts_and_first_solution():
    puzzle = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    page = get_backend("mrv").solve(puzzle)._repr_html_()
    assert "<th style='text-align:left'>status</th><td style='text-align:left'>solved</td>" in page
    root = parsed(page[page.index("<svg"):page.index("</svg>") + 6])
    assert len(texts(root, "found")) == 81
    timeout = Result("naive", "p", Status.TIMEOUT, error="out of time")._repr_html_()
    assert "<svg" not in timeout and "out of time" in timeout


def test_an_explanation_draws_the_grid_after_each_step_and_strikes_removed_candidates():
    puzzle = load_puzzles(SEEDS / "000-tutorial.txt")[0]  # logic strikes candidates, then stops
    steps = explain(puzzle)
    page = steps._repr_html_()
    assert page.count('<div class="step"') == len(steps) and str(steps).startswith("   1. ")
    removing = [m for m in steps if m.removed]
    assert removing, "the tutorial grid's path has a step that strikes candidates"
    grids = page.split('<div class="step"')[1:]
    for move, grid in zip(steps, grids):
        if move.removed:
            root = parsed(grid[grid.index("<svg"):grid.index("</svg>") + 6])
            assert len(texts(root, "struck")) == len(move.removed)
        if move.placed:
            assert 'class="marked"' in grid
    assert steps[-1].kind == "stuck" and "<svg" not in grids[-1]


def test_svg_names_are_escaped():
    svg = display.grid_svg(Shape(2, 2), (0,) * 16, title="<a & b>")
    assert "<title>&lt;a &amp; b&gt;</title>" in svg
    parsed(svg)


@pytest.mark.parametrize("solutions, complete", [((), True), ((), False), (((1,),), True),
                                                  (((1,), (2,)), False), (((1,), (2,)), True)])
def test_the_count_shown_says_in_english_what_describe_count_says(solutions, complete):
    result = Result("mrv", "p", Status.SOLVED if solutions else Status.UNSAT, solutions,
                    complete)
    assert display.count_text(result) == result.describe_count()
    with speaking("fr"):
        assert "solution" in display.count_text(result)
