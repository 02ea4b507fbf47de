"""The minlex canonical form searched in pure Python (without numba): row by row, keeping only
the choices that tie with the smallest so far; TooLong past a deadline.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations, product

from sudokucp.clock import expired
from sudokucp.isomorph.transforms import Perm, _column_transforms, _transposed
from sudokucp.puzzle import Grid, Shape

State = tuple[int, Perm, Perm, list[int]]  # grid, rows so far, columns, labels
Start = tuple[int, int, Perm]  # grid, first row, column order


class TooLong(ValueError):
    """A canonical form not found within the time it was given."""


Found = tuple[Grid, bool, Perm, Perm, tuple[int, ...]]  # form, transposed, rows, columns, labels


def normalise(cells: Sequence[int]) -> Grid:
    """Digits relabelled in order of first appearance (1, 2, ...); blanks stay 0."""
    labels: dict[int, int] = {0: 0}
    return tuple(labels.setdefault(v, len(labels)) for v in cells)


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
