"""Shapes, geometry and the Puzzle value."""

import pytest

from sudokucp.puzzle import Puzzle, PuzzleError, Shape, box_of, cell_name, geometry

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(4, 4), Shape(5, 5)]


@pytest.mark.parametrize("side, boxes", [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (12, (3, 4)),
                                         (16, (4, 4)), (25, (5, 5)), (8, (2, 4))])
def test_shape_for_side(side, boxes):
    shape = Shape.for_side(side)
    assert (shape.box_rows, shape.box_cols) == boxes
    assert Shape.for_cells(side * side) == shape


@pytest.mark.parametrize("count", [80, 82, 49, 121, 0, 4, 65 * 65])
def test_no_shape_for_bad_counts(count):
    with pytest.raises(PuzzleError, match="fits no supported shape"):
        Shape.for_cells(count)


@pytest.mark.parametrize("text, boxes", [("6x6", (2, 3)), ("box 2x3", (2, 3)), ("3x2", (3, 2)),
                                         ("9", (3, 3)), ("12x12", (3, 4)), ("box 3x3", (3, 3))])
def test_shape_parse(text, boxes):
    shape = Shape.parse(text)
    assert (shape.box_rows, shape.box_cols) == boxes


@pytest.mark.parametrize("text", ["7x7", "banana", "2x3x4", "box 1x1"])
def test_shape_parse_rejects(text):
    with pytest.raises(PuzzleError):
        Shape.parse(text)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_geometry_is_consistent(shape):
    g, n = geometry(shape), shape.side
    assert len(g.units) == 3 * n
    assert all(sorted(len(u) for u in g.units) == [n] * (3 * n) for _ in [0])
    for cell in range(shape.cells):
        assert len(g.peers[cell]) == 3 * (n - 1) - (shape.box_rows - 1) - (shape.box_cols - 1)
        assert all(cell in g.units[u] for u in g.cell_units[cell])
    boxes = g.units[2 * n:]
    assert sorted(c for b in boxes for c in b) == list(range(shape.cells))
    assert all(box_of(shape, c) == i for i, b in enumerate(boxes) for c in b)


def test_box_layout_of_6x6():
    g = geometry(Shape(2, 3))
    assert g.units[12] == (0, 1, 2, 6, 7, 8)
    assert g.units[13] == (3, 4, 5, 9, 10, 11)
    assert g.unit_name(13) == "box 2"
    assert cell_name(Shape(2, 3), 35) == "r6c6"


def test_puzzle_validates_values_and_length():
    with pytest.raises(PuzzleError, match="wrong cell count: found 15, expected 16"):
        Puzzle(Shape(2, 2), (0,) * 15)
    with pytest.raises(PuzzleError, match="larger than 4"):
        Puzzle(Shape(2, 2), (5,) + (0,) * 15)


def test_digest_depends_on_shape_and_cells():
    a = Puzzle(Shape(2, 3), (0,) * 36)
    b = Puzzle(Shape(3, 2), (0,) * 36)
    assert a.digest != b.digest
    assert a.digest == Puzzle(Shape(2, 3), (0,) * 36, name="other").digest


def test_from_checked_makes_the_same_value_as_the_constructor():
    cells = (1, 0, 0, 0) * 4
    made, checked = Puzzle(Shape(2, 2), cells, "a"), Puzzle.from_checked(Shape(2, 2), cells, "a")
    assert made == checked and hash(made) == hash(checked) and checked.name == "a"
    assert checked.digest == made.digest and checked.to_line() == made.to_line()


def test_bad_values_are_named_by_cell():
    with pytest.raises(PuzzleError, match="value 5 at r1c2 is larger than 4"):
        Puzzle(Shape(2, 2), (1, 5) + (0,) * 14)
    with pytest.raises(PuzzleError, match="value -1 at r4c4"):
        Puzzle(Shape(2, 2), (0,) * 15 + (-1,))
