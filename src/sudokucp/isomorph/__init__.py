"""The symmetry group of a shape: transforms, random isomorphs and minlex canonical forms.

A shape's group: digit relabelling, band order and rows within bands, stack order and columns
within stacks, and transposition when the boxes are square (r == c). A canonical form's search
may take a `timeout` (seconds): past it, TooLong.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import permutations
from math import factorial
from types import ModuleType

from sudokucp.isomorph.minlex import Found, TooLong, _python_search, normalise
from sudokucp.isomorph.transforms import (
    Perm,
    Transform,
    _split,
    apply,
    geometric_transforms,
    group_order,
    identity,
    invert,
    random_transform,
)
from sudokucp.puzzle import Grid, Puzzle, Shape

__all__ = ["TooLong", "Transform", "apply", "brute_canonical", "canonical",  # from the siblings too
           "canonical_transform", "classes", "classic_only", "compiled", "forms",
           "geometric_transforms", "group_order", "identity", "invert", "normalise",
           "random_transform", "transform"]


def classic_only(puzzle: Puzzle) -> None:
    """Refuse a variant: the group here moves cells, not a variant's regions, cages or
    diagonals (ValueError naming its kind)."""
    if not puzzle.rules.classic:
        raise ValueError(f"{puzzle.name or 'the puzzle'} is a {puzzle.kind} puzzle: isomorphs "
                         f"and canonical forms are for classic grids")


def transform(puzzle: Puzzle, rng: random.Random) -> tuple[Puzzle, Transform]:
    """A random isomorph of a classic `puzzle`, and the transform that made it."""
    classic_only(puzzle)
    chosen = random_transform(puzzle.shape, rng)
    return Puzzle(puzzle.shape, apply(chosen, puzzle.cells), puzzle.name), chosen


def forms(puzzle: Puzzle, count: int, seed: int) -> list[tuple[Puzzle, Transform]]:
    """`count` random isomorphs of `puzzle`, each with its transform; the same for the same
    puzzle and seed, whatever else is drawn."""
    rng = random.Random(f"{seed}|{puzzle.digest}")
    return [transform(puzzle, rng) for _ in range(count)]


def brute_canonical(cells: Sequence[int], shape: Shape) -> Grid:
    """The minlex form by trying every geometric transform: the reference for small shapes."""
    return min(normalise(apply(t, cells)) for t in geometric_transforms(shape))


def canonical(puzzle: Puzzle | Sequence[int], shape: Shape | None = None, *,
              timeout: float | None = None) -> Grid:
    """The minlex form: the smallest normalised cell sequence over the shape's whole group;
    TooLong past `timeout` seconds."""
    return canonical_transform(puzzle, shape, timeout=timeout)[0]


def canonical_transform(puzzle: Puzzle | Sequence[int], shape: Shape | None = None, *,
                        timeout: float | None = None) -> tuple[Grid, Transform]:
    """The minlex form and one transform that maps the puzzle onto it (compiled when numba is
    installed, pure Python otherwise); TooLong past `timeout` seconds."""
    cells, shape = _cells_and_shape(puzzle, shape)
    if timeout is not None and compiled():
        _warm()  # the kernel compiled (or loaded from numba's cache) before the clock starts
    deadline = None if timeout is None else time.perf_counter() + timeout
    try:
        found = _compiled_search(cells, shape, deadline) if _kernel() is not None else None
        form, flip, rows, cols, labels = found or _python_search(cells, shape, deadline)
    except TooLong:
        raise TooLong(f"no canonical form of this {shape} grid within {timeout:g} s: the minlex "
                      f"search tries every order of the rows and columns that tie, which on a "
                      f"large grid with many blanks can take hours") from None
    return form, _transform_of(shape, flip, rows, cols, labels)


def classes(puzzles: Iterable[Puzzle], *, timeout: float | None = None
            ) -> dict[Grid, list[Puzzle]]:
    """The puzzles grouped by canonical form, classes in order of first appearance; TooLong
    when one form takes more than `timeout` seconds."""
    found: dict[Grid, list[Puzzle]] = {}
    for puzzle in puzzles:
        try:
            form = canonical(puzzle, timeout=timeout)
        except TooLong as err:
            raise TooLong(f"{puzzle.name or puzzle.to_line()[:20]}: {err}") from None
        found.setdefault(form, []).append(puzzle)
    return found


def _cells_and_shape(puzzle: Puzzle | Sequence[int], shape: Shape | None) -> tuple[Grid, Shape]:
    if isinstance(puzzle, Puzzle):
        classic_only(puzzle)
        return puzzle.cells, puzzle.shape
    cells = tuple(puzzle)
    return cells, shape or Shape.for_cells(len(cells))


def _transform_of(shape: Shape, flip: bool, rows: Perm, cols: Perm,
                  labels: Sequence[int]) -> Transform:
    """The Transform whose rows, columns and digits are those found by a search."""
    n = shape.side
    given = {v: labels[v] for v in range(1, n + 1) if labels[v]}
    spare = iter(sorted(set(range(1, n + 1)) - set(given.values())))
    digits = tuple(given.get(v) or next(spare) for v in range(1, n + 1))
    bands, band_rows = _split(rows, shape.box_rows)
    stacks, stack_cols = _split(cols, shape.box_cols)
    return Transform(shape, digits, bands, band_rows, stacks, stack_cols, flip)


def compiled() -> bool:
    """Whether canonical forms come from the compiled search (numba installed)."""
    return _kernel() is not None


@cache
def _kernel() -> ModuleType | None:
    """The compiled search, or None without numba."""
    try:
        from sudokucp.isomorph import kernel
    except ImportError:
        return None
    return kernel


@cache
def _warm() -> None:
    """Run the compiled search once, on a blank 4x4 grid."""
    _compiled_search((0,) * 16, Shape(2, 2))


@cache
def _perm_tables(shape: Shape) -> tuple[object, object, object]:
    """Every order of the stacks, every order of m columns for m up to a stack's width, and
    how many orders of m there are: numpy tables for the compiled search."""
    import numpy as np

    c = shape.box_cols
    runs = np.zeros((c + 1, factorial(c), max(c, 1)), np.int64)  # runs[m, k]: k-th order of m
    for m in range(c + 1):
        for k, perm in enumerate(permutations(range(m))):
            runs[m, k, :m] = perm
    counts = np.array([factorial(m) for m in range(c + 1)], np.int64)
    return np.array(list(permutations(range(shape.box_rows))), np.int64), runs, counts


def _compiled_search(cells: Grid, shape: Shape, deadline: float | None = None) -> Found | None:
    """The compiled search's form and transform; None when a row repeats a digit; TooLong past
    the deadline (a perf_counter value)."""
    import numpy as np

    n = shape.side
    best, rows, cols = (np.zeros(k, np.int32) for k in (n * n, n, n))
    labels = np.zeros(n + 1, np.int32)
    kernel = _kernel()
    g = kernel.minlex(np.asarray(cells, np.int32), shape.box_rows, shape.box_cols,
                      *_perm_tables(shape), best, rows, cols, labels,
                      0.0 if deadline is None else deadline)
    if g == kernel.GAVE_UP:
        raise TooLong
    if g < 0:
        return None
    return (tuple(best.tolist()), bool(g), tuple(rows.tolist()), tuple(cols.tolist()),
            tuple(labels.tolist()))

