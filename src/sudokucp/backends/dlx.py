"""Knuth's Algorithm X with Dancing Links on Sudoku's exact-cover matrix, for any shape.

Glossary: n = side; a column is a constraint to meet exactly once, a row a placement (cell, digit).
The 4*n^2 columns: each cell holds a digit, each row, column and box holds each digit. The n^3
rows: digit d in a cell meets its cell's column and the three (unit, d) columns.
The matrix is a torus of doubly linked nodes held in flat lists (index = node): L/R link a row's
nodes and the column headers, U/D a column's nodes; top[x] is the header of node x, row[x] its
placement, size[h] the nodes left in column h. Node 0 is the root, nodes 1..4n^2 the headers.
Covering a column unlinks it from the headers and every row meeting it from the other columns;
uncovering relinks them in the reverse order, which is the whole trick ("dancing links").
The givens are covered before the search; the search picks the column with the fewest rows
(Knuth's rule) and tries each of its rows. Columns are remembered as their size drops to one or
none (`low`), so most choices (the forced ones) need no walk along the headers.
Stats: nodes = rows tried, guesses = rows tried in columns that offered two or more.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sudokucp.backends.base import CHECK_MASK, TIMED_OUT, Backend, SearchOutcome
from sudokucp.clock import expired
from sudokucp.puzzle import Puzzle, Shape, geometry


def constraints(shape: Shape, cell: int, digit: int) -> tuple[int, int, int, int]:
    """The four columns (0-based) that placing `digit` (0-based) in `cell` meets."""
    n = shape.side
    row_u, col_u, box_u = geometry(shape).cell_units[cell]
    return cell, n * n + row_u * n + digit, n * n + col_u * n + digit, n * n + box_u * n + digit


@dataclass(frozen=True)
class Matrix:
    """The full exact-cover matrix of one shape as link lists, copied for each search."""

    L: list[int]
    R: list[int]
    U: list[int]
    D: list[int]
    top: list[int]
    row: list[int]  # placement cell * n + digit of each node; -1 for the headers
    size: list[int]
    first: list[int]  # first node of each placement


@cache
def matrix(shape: Shape) -> Matrix:
    """Headers 0..4n^2 (0 = root), then four nodes per placement, linked both ways."""
    n = shape.side
    headers = 4 * n * n + 1
    L = [h - 1 for h in range(headers)]
    R = [h + 1 for h in range(headers)]
    L[0], R[-1] = headers - 1, 0
    U, D = list(range(headers)), list(range(headers))
    top, row, size, first = list(range(headers)), [-1] * headers, [0] * headers, []
    for cell in range(n * n):
        for digit in range(n):
            x = len(top)
            first.append(x)
            for k, column in enumerate(constraints(shape, cell, digit)):
                h = column + 1
                L.append(x + (k - 1) % 4)
                R.append(x + (k + 1) % 4)
                U.append(U[h])  # below the column's last node
                D.append(h)
                D[U[h]] = U[h] = x + k
                top.append(h)
                row.append(cell * n + digit)
                size[h] += 1
    return Matrix(L, R, U, D, top, row, size, first)


def dance(m: Matrix, placed: list[int], n: int, limit: int, deadline: float | None,
          found: list, stats: dict[str, float]) -> bool:
    """Algorithm X on a copy of `m` after covering the `placed` rows' columns: add every exact
    cover (as a grid) to `found`; True when the search ran to its end."""
    L, R, U, D, size = m.L[:], m.R[:], m.U[:], m.D[:], m.size[:]
    top, row = m.top, m.row
    grid = [0] * (n * n)
    chosen: list[int] = []
    low: list[int] = []  # columns whose size dropped to 1 or 0, most recent last: a hint
    nodes = guesses = 0

    def cover(h: int, L=L, R=R, U=U, D=D, size=size, top=top, low=low) -> None:
        R[L[h]], L[R[h]] = R[h], L[h]
        i = D[h]
        while i != h:
            j = R[i]
            while j != i:
                D[U[j]], U[D[j]] = D[j], U[j]
                c = top[j]
                size[c] -= 1
                if size[c] < 2:
                    low.append(c)
                j = R[j]
            i = D[i]

    def uncover(h: int, L=L, R=R, U=U, D=D, size=size, top=top) -> None:
        i = U[h]
        while i != h:
            j = L[i]
            while j != i:
                size[top[j]] += 1
                D[U[j]] = U[D[j]] = j
                j = L[j]
            i = U[i]
        R[L[h]] = L[R[h]] = h

    def smallest(L=L, R=R, size=size, low=low) -> int:
        """The column with the fewest rows left: one remembered with one or none if still there,
        else the first with the fewest found by walking the headers."""
        while low:
            h = low.pop()
            if size[h] < 2 and R[L[h]] == h:
                return h
        best, fewest, h = 0, n + 1, R[0]
        while h:
            if size[h] < fewest:
                best, fewest = h, size[h]
                if fewest <= 1:
                    break
            h = R[h]
        return best

    def record() -> None:
        for x in chosen:
            grid[row[x] // n] = row[x] % n + 1
        found.append(tuple(grid))

    def search() -> bool:
        """Cover what is left; True when the search must stop (limit reached or time up)."""
        nonlocal nodes, guesses
        if not R[0]:
            record()
            return len(found) == limit
        h = smallest()
        branching = size[h] > 1
        cover(h)
        x = D[h]
        while x != h:
            nodes += 1
            guesses += branching
            if not nodes & CHECK_MASK and expired(deadline):
                stats[TIMED_OUT] = 1
                return True
            chosen.append(x)
            j = R[x]
            while j != x:
                cover(top[j])
                j = R[j]
            if search():
                return True  # the links are a copy: no need to restore them
            j = L[x]
            while j != x:
                uncover(top[j])
                j = L[j]
            chosen.pop()
            x = D[x]
        uncover(h)
        return False

    for x in placed:
        grid[row[x] // n] = row[x] % n + 1
        j = x
        while True:
            cover(top[j])
            j = R[j]
            if j == x:
                break
    stopped = search()
    stats.update(nodes=nodes, guesses=guesses)
    return not stopped


def givens(m: Matrix, puzzle: Puzzle) -> list[int] | None:
    """The first node of each given's placement; None when two givens meet one column."""
    n, met, placed = puzzle.side, set(), []
    for cell, value in enumerate(puzzle.cells):
        if value:
            columns = constraints(puzzle.shape, cell, value - 1)
            if met.intersection(columns):
                return None
            met.update(columns)
            placed.append(m.first[cell * n + value - 1])
    return placed


class DancingLinks(Backend):
    """Algorithm X on the exact-cover matrix with dancing links and the smallest-column rule."""

    name = "dlx"
    description = ("Knuth's Algorithm X with dancing links on the exact-cover matrix "
                   "(4N^2 columns, N^3 rows), smallest column first")
    stats_keys = ("nodes", "guesses")

    def _prepare(self, shape: Shape) -> None:
        """The shape's full matrix, linked once per process; each search works on a copy."""
        matrix(shape)

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        m = matrix(puzzle.shape)
        placed = givens(m, puzzle)
        if placed is None:
            return [], True, {"nodes": 0, "guesses": 0}  # clashing givens: no cover exists
        found, stats = self.collector(), {}
        complete = dance(m, placed, puzzle.side, limit, deadline, found, stats)
        return found, complete, stats

