"""Generalized Sudoku (Ansótegui, Béjar, Fernàndez, Gomes and Mateu, AAAI 2006; J. Heuristics
2011): a random full grid of any shape, rectangular boxes too (5x6, 6x7), then holes punched at a
fraction F, placed at random, singly balanced or doubly balanced. Satisfiable by construction:
the full grid solves each puzzle.

How random the full grid is: the pattern grid v(i, j) = (C * (i mod R) + i div R + j) mod N + 1
(R x C boxes, N = R * C) has its digits relabelled and its rows within bands, bands, columns
within stacks and stacks permuted at random (and is transposed half the time when R = C); then
MIX_PER_CELL * N * N chain swaps mix it: two rows of one band (or two columns of one stack)
exchange their digits on the smallest set of columns (rows) that holds the same digits in both,
found as a cycle from a random cell. Each swap keeps every row, column and box a permutation. The
chain is a Markov chain on full grids, not proven irreducible nor uniform in its limit.
`benchmarks/balanced_mixing.py` measures how far it mixes: the share of cells a grid keeps from
its permuted pattern falls to about 1/N (that of unrelated grids) within one swap per cell, from
9x9 to 36x36 (20 seeds each); MIX_PER_CELL = 4 leaves a margin.

Holes, H = round(F * N * N) of them: `random` draws a uniform random set of H cells. `singly` and
`doubly` start from the cells of a second random full grid whose digit is one of h = H div N
digits drawn at random, plus H mod N cells of one more digit, so that every row, column and box
holds h or h + 1 holes; then MIX_PER_CELL * N * N interchanges mix that pattern (two holes at
(r1, c1), (r2, c2) and two givens at (r1, c2), (r2, c1) trade places, which keeps every row's and
column's count). `doubly` takes r1, r2 in one band or c1, c2 in one stack, which keeps every box's
count too; `singly` takes any, so its boxes drift apart.

Glossary: R x C = box rows x box columns, N = side, band = R rows of boxes, stack = C columns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sudokucp.backends.base import Backend
from sudokucp.puzzle import Grid, Puzzle, Shape, geometry

BALANCES = ("random", "singly", "doubly")
MIX_PER_CELL = 4  # chain swaps (grid) and interchanges (holes) per cell
UNIQUE_SECONDS = 60.0  # a uniqueness check's time limit: undecided past it, the puzzle dropped
TRIES_PER_PUZZLE = 100  # with unique: puzzles made at most per puzzle asked

Rows = list[list[int]]


class BalanceError(ValueError):
    """A request the balanced generator cannot satisfy (a fraction out of range, no puzzle)."""


@dataclass(frozen=True)
class Balanced:
    """One puzzle, the full grid it was punched from, its seed string and how it was checked."""

    puzzle: Puzzle
    solution: Grid
    seed: str
    holes: int
    unique: bool | None  # None: not checked


# --- the full grid ---------------------------------------------------------------------------

def pattern(shape: Shape) -> Rows:
    """The pattern grid: v(i, j) = (C * (i mod R) + i div R + j) mod N + 1, rows of digits."""
    n, r, c = shape.side, shape.box_rows, shape.box_cols
    return [[(c * (i % r) + i // r + j) % n + 1 for j in range(n)] for i in range(n)]


def _lines(count: int, size: int, rng: random.Random) -> list[int]:
    """A random order of `count` groups of `size` lines, each group's lines shuffled."""
    groups = [rng.sample(range(g * size, (g + 1) * size), size) for g in range(count)]
    return [line for g in rng.sample(range(count), count) for line in groups[g]]


def permuted(shape: Shape, rng: random.Random) -> Rows:
    """The pattern with digits relabelled, rows, bands, columns and stacks permuted."""
    n, r, c = shape.side, shape.box_rows, shape.box_cols
    grid = pattern(shape)
    labels = [0, *rng.sample(range(1, n + 1), n)]
    rows, cols = _lines(c, r, rng), _lines(r, c, rng)
    grid = [[labels[grid[i][j]] for j in cols] for i in rows]
    if r == c and rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid)]
    return grid


def swap_cycle(grid: Rows, top: int, bottom: int, start: int) -> int:
    """Exchange rows `top` and `bottom` on the cycle of columns from `start` whose digits are
    the same set in both; the cells swapped."""
    a, b = grid[top], grid[bottom]
    where = {v: j for j, v in enumerate(a)}
    first, j, swapped = a[start], start, 0
    while True:
        a[j], b[j] = b[j], a[j]
        swapped += 1
        if a[j] == first:
            return swapped
        j = where[a[j]]


def _mix_lines(grid: Rows, group: int, moves: int, rng: random.Random) -> None:
    """`moves` chain swaps between two rows of one group of `group` rows."""
    n = len(grid)
    for _ in range(moves):
        base = rng.randrange(n // group) * group
        top, bottom = rng.sample(range(base, base + group), 2)
        swap_cycle(grid, top, bottom, rng.randrange(n))


def full_grid(shape: Shape, rng: random.Random, mix: float = MIX_PER_CELL) -> Grid:
    """A random full grid of `shape`: the permuted pattern, then `mix` * N * N chain swaps,
    half between rows of a band and half between columns of a stack, in rounds of N each."""
    grid, n = permuted(shape, rng), shape.side
    for _ in range(round(mix * n / 2)):
        _mix_lines(grid, shape.box_rows, n, rng)
        grid = [list(col) for col in zip(*grid)]
        _mix_lines(grid, shape.box_cols, n, rng)
        grid = [list(col) for col in zip(*grid)]
    return tuple(v for row in grid for v in row)


# --- the holes -------------------------------------------------------------------------------

def hole_count(shape: Shape, fraction: float) -> int:
    """round(F * N * N): the holes of a fraction, refused outside 0 to 1."""
    if not 0.0 <= fraction <= 1.0:
        raise BalanceError(f"--holes is a fraction of the cells, 0 to 1, not {fraction}")
    return round(fraction * shape.cells)


def holes(shape: Shape, count: int, balance: str, rng: random.Random) -> frozenset[int]:
    """`count` cells to empty, placed by `balance` (random, singly or doubly)."""
    if balance not in BALANCES:
        raise BalanceError(f"--balance is one of {', '.join(BALANCES)}, not {balance!r}")
    if balance == "random":
        return frozenset(rng.sample(range(shape.cells), count))
    mask = _digit_pattern(shape, count, rng)
    _interchange(shape, mask, balance == "doubly", rng)
    return frozenset(cell for cell, hole in enumerate(mask) if hole)


def _digit_pattern(shape: Shape, count: int, rng: random.Random) -> list[bool]:
    """The cells of a random full grid holding one of count div N random digits, and count mod N
    cells of one more: h or h + 1 holes in every row, column and box."""
    n = shape.side
    grid = full_grid(shape, rng, mix=1)
    order = rng.sample(range(1, n + 1), n)
    whole, extra = set(order[:count // n]), order[count // n] if count < shape.cells else 0
    some = set(rng.sample([c for c, v in enumerate(grid) if v == extra], count % n))
    return [v in whole or c in some for c, v in enumerate(grid)]


def _interchange(shape: Shape, mask: list[bool], boxed: bool, rng: random.Random) -> None:
    """MIX_PER_CELL * N * N interchanges of two holes and two givens on a rectangle; `boxed`:
    both rows in one band, or both columns in one stack (every box keeps its count)."""
    n = shape.side
    lines = ([{j for j in range(n) if mask[i * n + j]} for i in range(n)],  # holes of each row
             [{i for i in range(n) if mask[i * n + j]} for j in range(n)])  # and of each column
    for _ in range(MIX_PER_CELL * shape.cells):
        by_rows = rng.random() < 0.5
        size = (shape.box_rows if by_rows else shape.box_cols) if boxed else n
        base = rng.randrange(n // size) * size
        one, two = rng.sample(range(base, base + size), 2)
        mine, across = lines[0 if by_rows else 1], lines[1 if by_rows else 0]
        only_one, only_two = sorted(mine[one] - mine[two]), sorted(mine[two] - mine[one])
        if only_one and only_two:
            k1, k2 = rng.choice(only_one), rng.choice(only_two)
            mine[one] ^= {k1, k2}
            mine[two] ^= {k1, k2}
            across[k1] ^= {one, two}
            across[k2] ^= {one, two}
    rows = lines[0]
    mask[:] = [j in rows[i] for i in range(n) for j in range(n)]


def counts(shape: Shape, cells: Grid) -> dict[str, list[int]]:
    """The holes of a grid per row, per column and per box."""
    units = geometry(shape).units
    n = shape.side
    per_unit = [sum(1 for c in unit if not cells[c]) for unit in units]
    return {"row": per_unit[:n], "column": per_unit[n:2 * n], "box": per_unit[2 * n:]}


# --- puzzles ---------------------------------------------------------------------------------

def balanced_seed(seed: int | str, shape: Shape, fraction: float, balance: str,
                  index: int) -> str:
    """The seed string of puzzle `index`: each puzzle is reproducible on its own."""
    return f"{seed}:{shape.box_rows}x{shape.box_cols}:{fraction}:{balance}:{index}"


def make_one(shape: Shape, fraction: float, balance: str, seed: int | str,
             index: int = 0) -> Balanced:
    """Puzzle `index` of a seed: a full grid, then its holes."""
    key = balanced_seed(seed, shape, fraction, balance, index)
    rng = random.Random(key)
    solution = full_grid(shape, rng)
    empty = holes(shape, hole_count(shape, fraction), balance, rng)
    cells = tuple(0 if c in empty else v for c, v in enumerate(solution))
    return Balanced(Puzzle(shape, cells, key), solution, key, len(empty), None)


def proven_unique(puzzle: Puzzle, backend: Backend,
                  seconds: float = UNIQUE_SECONDS) -> bool | None:
    """True when a limit-2 search proves one solution, False when it finds two, None when it
    could not decide within `seconds`."""
    result = backend.solve(puzzle, limit=2, time_limit=seconds)
    if result.count >= 2:
        return False
    return True if result.count == 1 and result.complete else None


def generate_balanced(shape: Shape, count: int, fraction: float, balance: str,
                      seed: int | str, *, checker: Backend | None = None,
                      tries: int | None = None,
                      progress: Callable[[int, int], None] | None = None) -> Iterator[Balanced]:
    """`count` puzzles of a seed in index order; with `checker`, only those it proves unique,
    out of at most `tries` made (TRIES_PER_PUZZLE per puzzle asked by default)."""
    hole_count(shape, fraction)
    if checker is None:
        for index in range(count):
            yield make_one(shape, fraction, balance, seed, index)
        return
    tries, kept, undecided = tries or TRIES_PER_PUZZLE * count, 0, 0
    for index in range(tries):
        made = make_one(shape, fraction, balance, seed, index)
        if progress is not None:
            progress(index, kept)
        unique = proven_unique(made.puzzle, checker)
        undecided += unique is None
        if unique:
            kept += 1
            yield Balanced(made.puzzle, made.solution, made.seed, made.holes, True)
            if kept == count:
                return
    raise BalanceError(f"only {kept} of {count} puzzles proven unique among {tries} made "
                       f"({undecided} undecided within {UNIQUE_SECONDS:g} s, the others with two "
                       f"solutions or more): fewer holes, or a larger --tries")
