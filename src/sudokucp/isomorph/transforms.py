"""A shape's group as transforms: applied, inverted, counted, drawn at random, enumerated.

A shape's group: digit relabelling, band order and rows within bands, stack order and columns
within stacks, and transposition when the boxes are square (r == c).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations, product
from math import factorial
from typing import Any

from sudokucp.puzzle import Grid, Shape

Perm = tuple[int, ...]


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


def _column_transforms(shape: Shape) -> Iterator[Transform]:
    r, c = shape.box_rows, shape.box_cols
    rows = (tuple(range(c)), (tuple(range(r)),) * c)
    for stacks, stack_cols in product(permutations(range(r)),
                                      product(permutations(range(c)), repeat=r)):
        yield Transform(shape, tuple(range(1, shape.side + 1)), *rows, stacks, stack_cols)
