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
A variant (sudokucp.rules) dances the same way on its own matrix (`rule_matrix`): primary columns
for the cells and each full group's digits (exactly once), secondary ones (at most once, never
chosen) for the digits of the other groups (partial units, cages, pairs of cells); a pencil-mark
grid has no row for a digit its cell may not hold. A cage sum is exact cover too: a primary
column per digit of the cage, met by the cell that holds it or by the cage's choice of digit set
(one of rules.sum_sets: a row meeting a primary choice column and the digits outside the set).
Those rows hold no digit of the grid: each writes a scratch cell past it (placements numbered in a
base b >= n, b*b cells), which the collector never sees (`Cropped`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from sudokucp.backends.base import CHECK_MASK, TIMED_OUT, Backend, Found, SearchOutcome
from sudokucp.clock import expired
from sudokucp.layout import Layout, layout
from sudokucp.puzzle import Puzzle, Shape, geometry
from sudokucp.rules import CLASSIC_KIND, KINDS, Rules, sum_sets


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
    m = Matrix(L, R, U, D, top, row, size, first)
    for cell in range(n * n):
        for digit in range(n):
            first.append(add_row(m, constraints(shape, cell, digit), cell * n + digit))
    return m


def add_row(m: Matrix, columns: Sequence[int], placement: int) -> int:
    """Append a row with a node in each column (0-based, header column + 1), linked in a ring and
    below each column's last node; the index of its first node."""
    x, k = len(m.top), len(columns)
    for i, column in enumerate(columns):
        h = column + 1
        m.L.append(x + (i - 1) % k)
        m.R.append(x + (i + 1) % k)
        m.U.append(m.U[h])  # below the column's last node
        m.D.append(h)
        m.D[m.U[h]] = m.U[h] = x + i
        m.top.append(h)
        m.row.append(placement)
        m.size[h] += 1
    return x


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


# --- variants: a matrix per rules ----------------------------------------------------------------

Row = tuple[int, int, tuple[int, ...]]  # cell (past the grid: scratch), digit, columns met


def rule_rows(shape: Shape, rules: Rules) -> tuple[int, int, list[Row]]:
    """(primary columns, columns, rows). Primary: the cells, the full groups' digits, and per
    cage sum its digits and its choice of digit set; secondary: the other groups' digits. A cell
    has a row per allowed digit; a cage sum a row per digit set (rules.sum_sets) meeting its
    choice and the digits outside the set, with a scratch cell of its own past the grid."""
    lay, n = layout(shape, rules), shape.side
    order = sorted(range(len(lay.groups)), key=lambda g: not lay.is_full(g))
    nfull = sum(map(lay.is_full, order))
    primary = n * n + n * nfull + (n + 1) * len(lay.sums)
    base = {g: n * n + n * i for i, g in enumerate(order[:nfull])}
    base.update({g: primary + n * i for i, g in enumerate(order[nfull:])})
    at = [n * n + n * nfull + (n + 1) * k for k in range(len(lay.sums))]  # digit d: at[k] + d
    cage = {c: at[k] for k, (cells, _) in enumerate(lay.sums) for c in cells}
    rows = [(cell, d, (cell, *(base[g] + d for g in lay.cell_groups[cell]),
                       *((cage[cell] + d,) if cell in cage else ())))
            for cell in range(n * n) for d in range(n) if lay.allowed[cell] >> d & 1]
    rows += [(n * n + k, 0, (at[k] + n, *(at[k] + e for e in range(n) if not s >> e & 1)))
             for k in range(len(lay.sums)) for s in digit_sets(lay, k)]
    return primary, n * n + n * len(order) + (n + 1) * len(lay.sums), rows


def digit_sets(lay: Layout, k: int) -> tuple[int, ...]:
    """The digit sets (masks) that make cage sum k from its cells' allowed digits."""
    cells, total = lay.sums[k]
    allowed = 0
    for c in cells:
        allowed |= lay.allowed[c]
    return sum_sets(len(cells), total, lay.side, allowed)


@lru_cache(maxsize=32)
def rule_matrix(shape: Shape, rules: Rules) -> tuple[Matrix, int]:
    """A variant's matrix and its base b: a row's placement is cell * b + digit, b*b cells
    leaving room for the digit-set rows' scratch cells. Headers 1..primary are in the root's
    ring, the secondary ones linked to themselves and sized from n^3 up, so that the search never
    chooses them; `first[cell * n + digit]` is -1 for a placement without a row."""
    n = shape.side
    primary, columns, rows = rule_rows(shape, rules)
    b = next(b for b in range(n, 2 * n + 1) if b * b >= max(cell for cell, _, _ in rows) + 1)
    headers = columns + 1
    L, R = list(range(headers)), list(range(headers))
    for h in range(primary + 1):
        L[h], R[h] = (h - 1) % (primary + 1), (h + 1) % (primary + 1)
    U, D = list(range(headers)), list(range(headers))
    top, row, first = list(range(headers)), [-1] * headers, [-1] * n ** 3
    size = [0] * (primary + 1) + [n ** 3] * (headers - primary - 1)
    m = Matrix(L, R, U, D, top, row, size, first)
    for cell, digit, cols in rows:
        x = add_row(m, cols, cell * b + digit)
        if cell < n * n:
            first[cell * n + digit] = x
    return m, b


def rule_givens(m: Matrix, puzzle: Puzzle) -> list[int] | None:
    """The first node of each given's row; None when a given has no row (not a candidate) or
    two givens meet one column."""
    n, met, placed = puzzle.side, set(), []
    for cell, value in enumerate(puzzle.cells):
        if value:
            x = m.first[cell * n + value - 1]
            if x < 0:
                return None
            columns, j = {m.top[x]}, m.R[x]
            while j != x:
                columns.add(m.top[j])
                j = m.R[j]
            if met & columns:
                return None
            met |= columns
            placed.append(x)
    return placed


class Cropped:
    """A collector seen through the grid's own cells: the scratch cells past them dropped."""

    def __init__(self, found: Found, cells: int) -> None:
        self.found, self.cells = found, cells

    def append(self, grid: Sequence[int]) -> None:
        self.found.append(grid[:self.cells])

    def __len__(self) -> int:
        return len(self.found)


class DancingLinks(Backend):
    """Algorithm X on the exact-cover matrix with dancing links and the smallest-column rule."""

    name = "dlx"
    description = ("Knuth's Algorithm X with dancing links on the exact-cover matrix "
                   "(4N^2 columns, N^3 rows), smallest column first")
    stats_keys = ("nodes", "guesses")
    kinds = frozenset({CLASSIC_KIND, *KINDS})  # a variant: rule_matrix

    def _prepare(self, shape: Shape) -> None:
        """The shape's full matrix, linked once per process; each search works on a copy."""
        matrix(shape)

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        if not puzzle.rules.classic:
            return self._search_rules(puzzle, limit, deadline)
        m = matrix(puzzle.shape)
        placed = givens(m, puzzle)
        if placed is None:
            return [], True, {"nodes": 0, "guesses": 0}  # clashing givens: no cover exists
        found, stats = self.collector(), {}
        complete = dance(m, placed, puzzle.side, limit, deadline, found, stats)
        return found, complete, stats

    def _search_rules(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        m, base = rule_matrix(puzzle.shape, puzzle.rules)
        placed = rule_givens(m, puzzle)
        if placed is None:
            return [], True, {"nodes": 0, "guesses": 0}  # no cover holds these givens
        found, stats = self.collector(), {}
        cropped = Cropped(found, puzzle.shape.cells)
        complete = dance(m, placed, base, limit, deadline, cropped, stats)
        return found, complete, stats
