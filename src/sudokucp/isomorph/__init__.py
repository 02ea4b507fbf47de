"""The symmetry group of a shape: transforms, random isomorphs and minlex canonical forms.

A shape's group: digit relabelling, band order and rows within bands, stack order and columns
within stacks, and transposition when the boxes are square (r == c). A canonical form's search
may take a `timeout` (seconds): past it, TooLong.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations, product
from math import factorial
from types import ModuleType
from typing import Any

from sudokucp.clock import expired
from sudokucp.puzzle import Grid, Puzzle, Shape

Perm = tuple[int, ...]
State = tuple[int, Perm, Perm, list[int]]  # grid, rows so far, columns, labels
Start = tuple[int, int, Perm]  # grid, first row, column order


class TooLong(ValueError):
    """A canonical form not found within the time it was given."""


@dataclass(frozen=True)
class Transform:
    """One element of a shape's group: transpose first, then reorder rows and columns, then relabel.

    Output band k is input band `bands[k]`; its row i is row `band_rows[k][i]` of that band.
    Stacks and columns likewise; digit v becomes `digits[v - 1]`.
    """

    shape: Shape
    digits: Perm
    bands: Perm
    band_rows: tuple[Perm, ...]
    stacks: Perm
    stack_cols: tuple[Perm, ...]
    transpose: bool = False

    def __post_init__(self) -> None:
        r, c, n = self.shape.box_rows, self.shape.box_cols, self.shape.side
        checks = [(self.digits, range(1, n + 1)), (self.bands, range(c)),
                  (self.stacks, range(r)), *((p, range(r)) for p in self.band_rows),
                  *((p, range(c)) for p in self.stack_cols)]
        if (len(self.band_rows) != c or len(self.stack_cols) != r
                or any(sorted(p) != list(want) for p, want in checks)):
            raise ValueError(f"not a transform of a {self.shape} grid: {self}")
        if self.transpose and r != c:
            raise ValueError(f"a {self.shape} grid with {r}x{c} boxes cannot be transposed")

    def to_dict(self) -> dict[str, object]:
        """The JSON-ready form (the shape apart): `Transform.from_dict(shape, d)` reads it back."""
        return {"digits": self.digits, "bands": self.bands, "band_rows": self.band_rows,
                "stacks": self.stacks, "stack_cols": self.stack_cols, "transpose": self.transpose}

    @classmethod
    def from_dict(cls, shape: Shape, data: Mapping[str, Any]) -> Transform:
        """The transform of a `to_dict` form; ValueError when it is none of `shape`'s."""
        nested = [tuple(tuple(p) for p in data[k]) for k in ("band_rows", "stack_cols")]
        return cls(shape, tuple(data["digits"]), tuple(data["bands"]), nested[0],
                   tuple(data["stacks"]), nested[1], bool(data["transpose"]))

    @property
    def rows(self) -> Perm:
        """Output row i is input row rows[i] (after any transposition)."""
        r = self.shape.box_rows
        return tuple(b * r + i for b, inner in zip(self.bands, self.band_rows) for i in inner)

    @property
    def cols(self) -> Perm:
        """Output column j is input column cols[j] (after any transposition)."""
        c = self.shape.box_cols
        return tuple(s * c + j for s, inner in zip(self.stacks, self.stack_cols) for j in inner)


def identity(shape: Shape) -> Transform:
    """The transform that changes nothing."""
    r, c = shape.box_rows, shape.box_cols
    return Transform(shape, tuple(range(1, shape.side + 1)), tuple(range(c)),
                     (tuple(range(r)),) * c, tuple(range(r)), (tuple(range(c)),) * r)


def _inverse(perm: Sequence[int]) -> Perm:
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


def _split(perm: Perm, size: int) -> tuple[Perm, tuple[Perm, ...]]:
    """A block-respecting permutation as (block order, order within each block)."""
    count = len(perm) // size
    return (tuple(perm[k * size] // size for k in range(count)),
            tuple(tuple(perm[k * size + i] % size for i in range(size)) for k in range(count)))


def _transposed(cells: Sequence[int], n: int) -> Grid:
    return tuple(cells[j * n + i] for i in range(n) for j in range(n))


def apply(transform: Transform, cells: Sequence[int]) -> Grid:
    """The cells of a grid mapped by `transform`; blanks stay blank."""
    n = transform.shape.side
    if len(cells) != n * n:
        raise ValueError(f"{len(cells)} cells do not make a {transform.shape} grid")
    src = _transposed(cells, n) if transform.transpose else tuple(cells)
    relabel = (0, *transform.digits)
    cols = transform.cols
    return tuple(relabel[src[i * n + j]] for i in transform.rows for j in cols)


def invert(transform: Transform) -> Transform:
    """The transform that undoes `transform`: apply(invert(t), apply(t, g)) == g."""
    shape = transform.shape
    rows, cols = _inverse(transform.rows), _inverse(transform.cols)
    if transform.transpose:  # undo: transpose, then the swapped inverse orders
        rows, cols = cols, rows
    digits = tuple(d + 1 for d in _inverse([d - 1 for d in transform.digits]))
    bands, band_rows = _split(rows, shape.box_rows)
    stacks, stack_cols = _split(cols, shape.box_cols)
    return Transform(shape, digits, bands, band_rows, stacks, stack_cols, transform.transpose)


def group_order(shape: Shape) -> int:
    """Elements in the group of `shape`, digit relabelling included."""
    r, c, n = shape.box_rows, shape.box_cols, shape.side
    rows = factorial(c) * factorial(r) ** c
    cols = factorial(r) * factorial(c) ** r
    return factorial(n) * rows * cols * (2 if r == c else 1)


def random_transform(shape: Shape, rng: random.Random) -> Transform:
    """A transform drawn uniformly from the group of `shape`."""
    r, c, n = shape.box_rows, shape.box_cols, shape.side

    def perm(k: int) -> Perm:
        return tuple(rng.sample(range(k), k))

    return Transform(shape, tuple(d + 1 for d in perm(n)), perm(c),
                     tuple(perm(r) for _ in range(c)), perm(r),
                     tuple(perm(c) for _ in range(r)), r == c and rng.random() < 0.5)


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


def geometric_transforms(shape: Shape) -> Iterator[Transform]:
    """Every element of the group with digits unchanged (for brute force on small shapes)."""
    r, c = shape.box_rows, shape.box_cols
    digits = tuple(range(1, shape.side + 1))
    row_orders = product(permutations(range(c)), product(permutations(range(r)), repeat=c))
    rows = list(row_orders)
    cols = list(product(permutations(range(r)), product(permutations(range(c)), repeat=r)))
    for flip in (False, True) if r == c else (False,):
        for (bands, band_rows), (stacks, stack_cols) in product(rows, cols):
            yield Transform(shape, digits, bands, band_rows, stacks, stack_cols, flip)


def normalise(cells: Sequence[int]) -> Grid:
    """Digits relabelled in order of first appearance (1, 2, ...); blanks stay 0."""
    labels: dict[int, int] = {0: 0}
    return tuple(labels.setdefault(v, len(labels)) for v in cells)


def brute_canonical(cells: Sequence[int], shape: Shape) -> Grid:
    """The minlex form by trying every geometric transform: the reference for small shapes."""
    return min(normalise(apply(t, cells)) for t in geometric_transforms(shape))


def _first_row_pattern(row: Sequence[int], shape: Shape) -> tuple[int, ...] | None:
    """The smallest normalised form of a first row over column orders; None if digits repeat.

    With distinct digits only the blanks matter: stacks by blank count, most first, blanks first.
    """
    given = [v for v in row if v]
    if len(set(given)) != len(given):
        return None
    c = shape.box_cols
    counts = sorted((row[s * c:s * c + c].count(0) for s in range(shape.box_rows)), reverse=True)
    pattern = [0 if i < k else 1 for k in counts for i in range(c)]
    return normalise([v * (j + 1) for j, v in enumerate(pattern)])


def _first_row_orders(row: Sequence[int], shape: Shape,
                      deadline: float | None = None) -> list[Perm]:
    """Every column order giving the first row its smallest normalised form; TooLong past the
    deadline."""
    r, c = shape.box_rows, shape.box_cols
    if _first_row_pattern(row, shape) is None:  # repeated digits: try every order
        orders = [_checked(t.cols, k, deadline) for k, t in enumerate(_column_transforms(shape))]
        best = min(normalise([row[j] for j in p]) for p in orders)
        return [p for p in orders if normalise([row[j] for j in p]) == best]
    parts = []
    for s in range(r):
        stack = range(s * c, s * c + c)
        parts.append(([j for j in stack if not row[j]], [j for j in stack if row[j]]))
    counts = sorted((len(b) for b, _ in parts), reverse=True)
    orders: list[Perm] = []
    for stacks in set(permutations(range(r))):
        if [len(parts[s][0]) for s in stacks] != counts:
            continue
        inner = [product(permutations(parts[s][0]), permutations(parts[s][1])) for s in stacks]
        for chosen in product(*inner):
            orders.append(_checked(tuple(j for blanks, givens in chosen
                                         for j in (*blanks, *givens)), len(orders), deadline))
    return orders


def _checked(item: Perm, count: int, deadline: float | None) -> Perm:
    """`item`; TooLong when, at every 4096th, the deadline has passed."""
    if count % 4096 == 4095 and expired(deadline):
        raise TooLong
    return item


def _column_transforms(shape: Shape) -> Iterator[Transform]:
    r, c = shape.box_rows, shape.box_cols
    rows = (tuple(range(c)), (tuple(range(r)),) * c)
    for stacks, stack_cols in product(permutations(range(r)),
                                      product(permutations(range(c)), repeat=r)):
        yield Transform(shape, tuple(range(1, shape.side + 1)), *rows, stacks, stack_cols)


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


Found = tuple[Grid, bool, Perm, Perm, tuple[int, ...]]  # form, transposed, rows, columns, labels


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


def _python_search(cells: Grid, shape: Shape, deadline: float | None = None) -> Found:
    """The minlex form built row by row, keeping only the choices whose rows so far tie with the
    smallest; one winning choice as its transform. TooLong past the deadline."""
    n, r = shape.side, shape.box_rows
    grids = [tuple(cells)] + ([_transposed(cells, n)] if r == shape.box_cols else [])
    best, starts = _first_rows(grids, shape, deadline)
    out = list(best)
    frontier: dict[object, State] = {}
    for g, row, order in starts:
        labels = [0] * (n + 1)
        _relabel(grids[g], row, order, labels, n)
        key = (g, frozenset([row]), order, tuple(labels))
        frontier.setdefault(key, (g, (row,), order, labels))
    for level in range(1, n):
        best_row: tuple[int, ...] | None = None
        nxt: dict[object, State] = {}
        for g, chosen, order, labels in frontier.values():
            if expired(deadline):
                raise TooLong
            for row in _next_rows(chosen, level, shape):
                fresh = list(labels)
                row_out = _relabel(grids[g], row, order, fresh, n, best_row)
                if row_out is None:
                    continue
                if best_row is None or row_out < best_row:
                    best_row, nxt = row_out, {}
                key = (g, frozenset(chosen) | {row}, row // r, order, tuple(fresh))
                nxt.setdefault(key, (g, (*chosen, row), order, fresh))
        assert best_row is not None
        out += best_row
        frontier = nxt
    g, chosen, order, labels = next(iter(frontier.values()))
    return tuple(out), bool(g), chosen, order, tuple(labels)


def _first_rows(grids: list[Grid], shape: Shape, deadline: float | None = None
                ) -> tuple[tuple[int, ...], list[Start]]:
    """The smallest first row over every row and column order, and every way to reach it."""
    n = shape.side
    best: tuple[int, ...] | None = None
    starts: list[Start] = []
    for g, grid in enumerate(grids):
        for row in range(n):
            values = grid[row * n:(row + 1) * n]
            pattern = _first_row_pattern(values, shape)
            orders = None
            if pattern is None:  # repeated digits: the orders give the pattern
                orders = _first_row_orders(values, shape, deadline)
                pattern = normalise([values[j] for j in orders[0]])
            if best is None or pattern < best:
                best, starts = pattern, []
            if pattern == best:
                orders = (_first_row_orders(values, shape, deadline) if orders is None
                          else orders)
                starts += [(g, row, p) for p in orders]
    assert best is not None
    return best, starts


def _next_rows(chosen: Perm, level: int, shape: Shape) -> list[int]:
    """Rows that may come at `level`: the band's next row, or the first row of an unused band."""
    r, n = shape.box_rows, shape.side
    if level % r:
        band = chosen[-1] // r
        return [i for i in range(band * r, band * r + r) if i not in chosen]
    bands = {u // r for u in chosen}
    return [i for i in range(n) if i // r not in bands]


def _relabel(grid: Grid, row: int, order: Perm, labels: list[int], n: int,
             bound: tuple[int, ...] | None = None) -> tuple[int, ...] | None:
    """Row `row` of `grid` in column order `order`, digits relabelled, `labels` growing in place;
    None as soon as it is larger than `bound`."""
    base, result, tied, limit = row * n, [], bound is not None, bound or ()
    for j in order:
        v = grid[base + j]
        if v and not labels[v]:
            labels[v] = labels[0] = labels[0] + 1  # labels[0] counts the labels given
        out = labels[v] if v else 0
        if tied:
            if out > limit[len(result)]:
                return None
            tied = out == limit[len(result)]
        result.append(out)
    return tuple(result)
