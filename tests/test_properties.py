"""Properties: sudoku symmetries carry solutions along, and complete backends agree on counts.

Puzzles come from a solved grid (MRV fills a grid seeded with a few random givens) with cells
removed at random; hypothesis draws the shape, the seed and the transformation.
"""

from __future__ import annotations

import random

import pytest
from conftest import COMPLETE
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from sudokucp.backends import backend_class, get_backend
from sudokucp.check import is_solution
from sudokucp.puzzle import Grid, Puzzle, Shape, geometry

SMALL = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]
CAP = 40  # solutions looked for: enough to compare counts, few enough to stay quick
BLANKS = {4: 0.75, 6: 0.6, 9: 0.5}  # largest share of cells removed, per side
FEW = settings(max_examples=30, deadline=None)


# --- puzzles -------------------------------------------------------------------------------------

def seed_givens(shape: Shape, rng: random.Random) -> Puzzle:
    """An empty grid with about N random digits that break no unit."""
    cells = [0] * shape.cells
    peers = geometry(shape).peers
    for cell in rng.sample(range(shape.cells), shape.side):
        digit = rng.randint(1, shape.side)
        if all(cells[p] != digit for p in peers[cell]):
            cells[cell] = digit
    return Puzzle(shape, tuple(cells))


def solved_grid(shape: Shape, rng: random.Random) -> Grid | None:
    """A complete grid through the seeded givens, or None when they allow none."""
    return get_backend("mrv").solve(seed_givens(shape, rng), time_limit=10).solution


def remove_cells(shape: Shape, grid: Grid, rng: random.Random) -> Puzzle:
    """The grid with a random share of its cells blanked."""
    share = rng.uniform(0.2, BLANKS[shape.side])
    return Puzzle(shape, tuple(0 if rng.random() < share else v for v in grid))


@st.composite
def puzzles(draw, shapes=SMALL) -> Puzzle:
    """A puzzle with at least one solution, of one of `shapes`."""
    shape = draw(st.sampled_from(shapes))
    rng = random.Random(draw(st.integers(0, 2**32)))
    grid = solved_grid(shape, rng)
    assume(grid is not None)
    return remove_cells(shape, grid, rng)


# --- transformations -----------------------------------------------------------------------------

def relabel(grid: Grid, digits: list[int]) -> Grid:
    """Digit v becomes digits[v - 1]; blanks stay blank."""
    return tuple(digits[v - 1] if v else 0 for v in grid)


def transpose(shape: Shape, grid: Grid) -> tuple[Shape, Grid]:
    """Rows become columns; r x c boxes become c x r boxes."""
    n = shape.side
    return Shape(shape.box_cols, shape.box_rows), tuple(grid[j * n + i]
                                                         for i in range(n) for j in range(n))


def line_order(groups: list[int], inner: list[list[int]], size: int) -> list[int]:
    """Rows (or columns) in the order: groups permuted, then lines within each group."""
    return [g * size + i for g in groups for i in inner[g]]


def permute_lines(shape: Shape, grid: Grid, rows: list[int], cols: list[int]) -> Grid:
    """Row i of the result is row rows[i] of the grid; likewise columns."""
    n = shape.side
    return tuple(grid[rows[i] * n + cols[j]] for i in range(n) for j in range(n))


@st.composite
def band_stack_orders(draw, shape: Shape) -> tuple[list[int], list[int]]:
    """A row order keeping bands whole and a column order keeping stacks whole."""
    r, c = shape.box_rows, shape.box_cols
    bands = draw(st.permutations(range(c)))  # c bands of r rows
    in_band = [draw(st.permutations(range(r))) for _ in range(c)]
    stacks = draw(st.permutations(range(r)))  # r stacks of c columns
    in_stack = [draw(st.permutations(range(c))) for _ in range(r)]
    return line_order(bands, in_band, r), line_order(stacks, in_stack, c)


# --- solving -------------------------------------------------------------------------------------

def solve_all(name: str, puzzle: Puzzle):
    result = backend_class(name)().solve(puzzle, limit=CAP, time_limit=60)
    assert all(is_solution(puzzle, s) for s in result.solutions), name
    return result


def classify(puzzle: Puzzle, count: int) -> None:
    """Record the kind of example drawn (shown by --hypothesis-show-statistics)."""
    kind = "unique" if count == 1 else f"{CAP}+ solutions" if count >= CAP else "several"
    event(f"{puzzle.shape.box_rows}x{puzzle.shape.box_cols} boxes, {kind}")


def assert_carried(puzzle: Puzzle, image: Puzzle, carry) -> None:
    """Solving the image gives the images of the puzzle's solutions (all of them when complete)."""
    before, after = solve_all("mrv", puzzle), solve_all("mrv", image)
    assert before.count == after.count >= 1
    classify(puzzle, before.count)
    assert before.complete == after.complete
    if before.complete:
        assert {carry(s) for s in before.solutions} == set(after.solutions)
    if before.unique:
        assert after.solution == carry(before.solution)


@FEW
@given(data=st.data())
def test_relabelling_digits_relabels_the_solutions(data):
    puzzle = data.draw(puzzles())
    digits = [d + 1 for d in data.draw(st.permutations(range(puzzle.side)))]
    image = puzzle.with_cells(relabel(puzzle.cells, digits))
    assert_carried(puzzle, image, lambda s: relabel(s, digits))


@FEW
@given(puzzle=puzzles())
def test_transposing_transposes_the_solutions(puzzle):
    shape, cells = transpose(puzzle.shape, puzzle.cells)
    assert_carried(puzzle, Puzzle(shape, cells), lambda s: transpose(puzzle.shape, s)[1])


@FEW
@given(data=st.data())
def test_permuting_bands_and_stacks_permutes_the_solutions(data):
    puzzle = data.draw(puzzles())
    rows, cols = data.draw(band_stack_orders(puzzle.shape))
    image = puzzle.with_cells(permute_lines(puzzle.shape, puzzle.cells, rows, cols))
    assert_carried(puzzle, image, lambda s: permute_lines(puzzle.shape, s, rows, cols))


# --- agreement -----------------------------------------------------------------------------------

# The CSP model is slow; MiniZinc and the SAT programs start a process per run (a count: one more
# run per solution), and the programs besides cadical read the same CNF (tested on their own in
# test_contract.py and test_command_formats.py).
MAX_SIDE = {"pyconstraint": 6, "minizinc": 4, "cadical": 4,
            **dict.fromkeys(("kissat", "cryptominisat", "minisat", "picosat"), 0)}


def contenders(shape: Shape) -> list[str]:
    """Complete backends installed here; some only on small grids (MAX_SIDE)."""
    return [name for name in COMPLETE if shape.side <= MAX_SIDE.get(name, shape.side)]


@pytest.mark.jit  # jit is among them: the test waits for the kernels' warm-up, not compiling them
@settings(max_examples=25, deadline=None)
@given(puzzle=puzzles())
def test_complete_backends_agree_on_counts(puzzle):
    results = {name: solve_all(name, puzzle) for name in contenders(puzzle.shape)}
    counts = {name: r.count for name, r in results.items()}
    assert len(set(counts.values())) == 1, counts
    classify(puzzle, counts["mrv"])
    if counts["mrv"] < CAP:
        assert all(r.complete for r in results.values()), results
        assert len({frozenset(r.solutions) for r in results.values()}) == 1
