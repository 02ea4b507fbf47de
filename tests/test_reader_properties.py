"""Whatever it is fed, the reader answers with puzzles or clean errors that name their line."""

import contextlib
import io
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokucp.io import lines
from sudokucp.io.formats import WRITERS, iter_entries, parse_grid, parse_many
from sudokucp.puzzle import Puzzle, PuzzleError, Shape

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(4, 4), Shape(5, 5)]
QUICK = settings(max_examples=150, deadline=None)
PUZZLE_TEXT = st.text(alphabet=st.sampled_from(list("0123456789.ABCGZaxz_ |-+,;[]{}\t\n•?:#\"")),
                      max_size=400)


def pattern(shape: Shape) -> tuple[int, ...]:
    """A filled grid of `shape` (a valid solution)."""
    r, c, n = shape.box_rows, shape.box_cols, shape.side
    return tuple(((i % r) * c + i // r + j) % n + 1 for i in range(n) for j in range(n))


def assert_clean(entries) -> None:
    """Every entry holds a puzzle or a PuzzleError with a line number, nothing else."""
    for entry in entries:
        if entry.error is None:
            assert isinstance(entry.puzzle, Puzzle)
        else:
            assert isinstance(entry.error, PuzzleError) and entry.puzzle is None
            assert entry.error.line is not None and entry.error.line >= 1


def assert_one_grid_or_clean_error(text: str, shape: Shape | None) -> None:
    with contextlib.suppress(PuzzleError):
        assert isinstance(parse_grid(text, shape=shape), Puzzle)


@QUICK
@given(st.text(max_size=600), st.sampled_from([None, *SHAPES]))
def test_random_text(text, shape):
    assert_clean(parse_many(text, shape=shape))
    assert_one_grid_or_clean_error(text, shape)


@QUICK
@given(PUZZLE_TEXT, st.sampled_from([None, *SHAPES]))
def test_random_text_of_puzzle_characters(text, shape):
    assert_clean(parse_many(text, shape=shape))
    assert_one_grid_or_clean_error(text, shape)


@QUICK
@given(st.binary(max_size=600))
def test_random_bytes_as_the_command_line_reads_them(data):
    assert_clean(iter_entries(io.BytesIO(data)))


@st.composite
def mutated_grid(draw):
    """A valid grid of any shape written by any writer, then a few characters changed."""
    shape = draw(st.sampled_from(SHAPES))
    write = WRITERS[draw(st.sampled_from(sorted(WRITERS)))]
    blanks = draw(st.lists(st.booleans(), min_size=shape.cells, max_size=shape.cells))
    text = write(shape, [0 if blank else v for v, blank in zip(pattern(shape), blanks)])
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        char = draw(st.sampled_from(list("0123456789.XZz?;,\t\n |[]•")))
        tail = text[at + 1:] if kind != "insert" else text[at:]
        text = text[:at] + ("" if kind == "delete" else char) + tail
    return text, shape


@QUICK
@given(mutated_grid(), st.booleans())
def test_mutated_grids_of_every_shape(case, with_shape):
    text, shape = case
    shape = shape if with_shape else None
    assert_clean(parse_many(text, shape=shape))
    assert_clean(parse_many(f"# two copies\n{text}\n\n{text}\n", shape=shape))
    assert_one_grid_or_clean_error(text, shape)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_unmutated_grids_read_back(shape):
    cells = pattern(shape)
    for write in WRITERS.values():
        entries = list(parse_many(write(shape, cells), shape=shape))
        assert [e.puzzle.cells for e in entries] == [cells]


# --- the fast path for one-grid lines reads exactly as the general reader -----------------------

LINE_ENDS = ["\n", "\r\n", "\r", ""]


@st.composite
def plain_lines(draw):
    """Lines of one grid each (blanks '.', '0' or '_', letters in either case), some of them
    spoiled: a character changed (a duplicate, a digit too large, a space, a non-ASCII one), one
    cut or added; with titles and comments between them."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        shape = draw(st.sampled_from(SHAPES))
        blanks = draw(st.lists(st.booleans(), min_size=shape.cells, max_size=shape.cells))
        blank = draw(st.sampled_from([".", "0", "_"]))
        text = "".join(blank if b else "123456789ABCDEFGHIJKLMNOP"[v - 1]
                       for v, b in zip(pattern(shape), blanks))
        if draw(st.booleans()):
            text = text.lower()
        if draw(st.integers(0, 2)) == 0:
            at = draw(st.integers(0, len(text) - 1))
            char = draw(st.sampled_from(list("0123456789.AGZaz_ \t?•#,")))
            text = text[:at] + char + text[at + 1:]
        if draw(st.integers(0, 5)) == 0:
            text = text[:-1] if draw(st.booleans()) else text + "."
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(["Grid 01", "# comment", "", "quizzes,solutions"])))
        lines.append(text + draw(st.sampled_from(LINE_ENDS)))
    return "\n".join(line.removesuffix("\n") for line in lines) + "\n"


def described(entries) -> list[tuple]:
    """Everything an entry says, the puzzle's name and the error's kind and message included."""
    return [(e.line, e.puzzle, e.puzzle.name if e.puzzle else None, type(e.error),
             str(e.error), e.comment, e.solution) for e in entries]


def read_all_ways(text: str, shape: Shape | None) -> list:
    """The text read as the command line reads a file (bytes) and as a string."""
    return [described(iter_entries(io.BytesIO(text.encode()), shape=shape)),
            described(parse_many(text, shape=shape, stem="s"))]


def one_grid(text: str, shape: Shape | None) -> Puzzle | str:
    try:
        return parse_grid(text, shape=shape, name="n")
    except PuzzleError as err:
        return f"{type(err).__name__}: {err}"


@QUICK
@given(plain_lines(), st.sampled_from([None, *SHAPES, Shape(3, 2)]))
def test_the_fast_path_reads_as_the_general_reader(text, shape):
    fast = read_all_ways(text, shape)
    first = text.split("\n")[0]
    fast_one = one_grid(first, shape)
    with mock.patch.object(lines, "plain_text", lambda raw: None):  # the general reader only
        assert read_all_ways(text, shape) == fast
        assert one_grid(first, shape) == fast_one
