"""Quasigroup with holes (QWH; Achlioptas, Gomes, Kautz and Selman, AAAI 2000): a random Latin
square of order N with holes at a fraction F, placed at random or singly balanced (the same
count, give or take one, per row and per column). Satisfiable by construction.

The square: the cyclic one, L(i, j) = (i + j) mod N + 1, then `moves` proper moves of the
Jacobson-Matthews chain (J. Combin. Des. 4, 1996), N^3 by default. The chain works on the
incidence cube f(r, c, s) in {-1, 0, 1}, every line of which sums to 1; a square is proper when
no entry is -1. A move picks a cell (r, c, s) with f = 0 (proper) or the one with f = -1
(improper), a row r', a column c' and a symbol s' with f(r', c, s) = f(r, c', s) = f(r, c, s')
= 1 (of two each when improper, one drawn at random), adds 1 to f at (r, c, s), (r, c', s'),
(r', c, s'), (r', c', s) and takes 1 from (r, c, s'), (r, c', s), (r', c, s), (r', c', s'): every
line keeps its sum; the square is improper again when f(r', c', s') fell to -1. A proper move
runs from a proper square to the next. The chain is irreducible and its limit uniform over the
Latin squares of order N (Jacobson and Matthews); how far N^3 moves mix is measured by
`benchmarks/phase.py --qwh` (reports/phase.md): the share of cells kept from the cyclic square
and the count of intercalates.

As a puzzle: jigsaw regions that repeat the rows (`row_rules`), so that only rows and columns
constrain and every backend that takes jigsaw solves Latin-square completion unchanged. The
shape's boxes are then unused. Puzzle `index` of a seed has the same square at every F and
placement (common random numbers along a sweep of F), its holes a seed of their own. Holes come
from sudokucp.generators.balanced (`holes`: random, or singly by interchanges between any rows
and columns); doubly balanced needs boxes and is refused.

Glossary: N = order (side), cube = f as a flat list, index (r * N + c) * N + s (s from 0).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import lru_cache

from sudokucp.generators.balanced import Balanced, BalanceError, hole_count, holes
from sudokucp.puzzle import Grid, Puzzle, Shape
from sudokucp.rules import Rules

PLACEMENTS = ("random", "singly")  # the hole placements that need no boxes

Cube = list[int]
Cell = tuple[int, int, int]  # row, column, symbol (from 0)


def cyclic(n: int) -> Grid:
    """The cyclic Latin square L(i, j) = (i + j) mod N + 1, row-major."""
    return tuple((i + j) % n + 1 for i in range(n) for j in range(n))


def is_latin(cells: Grid, n: int) -> bool:
    """Whether every row and every column holds each of 1..N once."""
    digits = set(range(1, n + 1))
    rows = (set(cells[i * n:(i + 1) * n]) for i in range(n))
    cols = (set(cells[j::n]) for j in range(n))
    return len(cells) == n * n and all(line == digits for line in (*rows, *cols))


def cube_of(cells: Grid, n: int) -> Cube:
    """The incidence cube of a Latin square: 1 at (r, c, L(r, c) - 1), 0 elsewhere."""
    cube = [0] * n ** 3
    for cell, v in enumerate(cells):
        cube[cell * n + v - 1] = 1
    return cube


def square_of(cube: Cube, n: int) -> Grid:
    """The Latin square of a proper cube."""
    return tuple(cube[k * n:(k + 1) * n].index(1) + 1 for k in range(n * n))


def _pick(line: list[int], improper: bool, rng: random.Random) -> int:
    """The place of the 1 on a line; of either 1 when the line crosses the improper cell."""
    first = line.index(1)
    return line.index(1, first + 1) if improper and rng.random() < 0.5 else first


def _zero(cube: Cube, n: int, rng: random.Random) -> Cell:
    """A cell of the cube with f = 0, uniform among them (the cube proper)."""
    while True:
        r, c, s = rng.randrange(n), rng.randrange(n), rng.randrange(n)
        if not cube[(r * n + c) * n + s]:
            return r, c, s


def step(cube: Cube, n: int, improper: Cell | None, rng: random.Random) -> Cell | None:
    """One step of the chain from a proper cube (`improper` None) or from its improper cell;
    the improper cell it leaves, or None when the cube is proper again."""
    r, c, s = _zero(cube, n, rng) if improper is None else improper
    bad = improper is not None
    r2 = _pick(cube[c * n + s::n * n], bad, rng)
    c2 = _pick(cube[r * n * n + s:(r + 1) * n * n:n], bad, rng)
    s2 = _pick(cube[(r * n + c) * n:(r * n + c + 1) * n], bad, rng)
    for (a, b, d), delta in (((r, c, s), 1), ((r, c2, s2), 1), ((r2, c, s2), 1),
                             ((r2, c2, s), 1), ((r, c, s2), -1), ((r, c2, s), -1),
                             ((r2, c, s), -1), ((r2, c2, s2), -1)):
        cube[(a * n + b) * n + d] += delta
    return (r2, c2, s2) if cube[(r2 * n + c2) * n + s2] < 0 else None


def proper_move(cube: Cube, n: int, rng: random.Random) -> int:
    """Steps from a proper cube to the next proper one; the steps taken."""
    improper, steps = step(cube, n, None, rng), 1
    while improper is not None:
        improper, steps = step(cube, n, improper, rng), steps + 1
    return steps


def latin_square(n: int, rng: random.Random, moves: int | None = None) -> Grid:
    """A random Latin square of order N: the cyclic one, then `moves` proper moves (N^3)."""
    cube = cube_of(cyclic(n), n)
    for _ in range(n ** 3 if moves is None else moves):
        proper_move(cube, n, rng)
    return square_of(cube, n)


@lru_cache(maxsize=64)
def seeded_square(n: int, key: str, moves: int | None = None) -> Grid:
    """The Latin square of a seed string (kept: the puzzles of one index share it)."""
    return latin_square(n, random.Random(key), moves)


def intercalates(cells: Grid, n: int) -> int:
    """The 2x2 Latin subsquares: per pair of rows, the 2-cycles of the map from one row's
    symbol to the other's in the same column."""
    rows = [cells[i * n:(i + 1) * n] for i in range(n)]
    count = 0
    for i, top in enumerate(rows):
        for bottom in rows[i + 1:]:
            step_to = dict(zip(top, bottom))
            count += sum(1 for a, b in step_to.items() if a < b and step_to[b] == a)
    return count


# --- puzzles ---------------------------------------------------------------------------------

def row_rules(n: int) -> Rules:
    """Jigsaw regions that repeat the rows: rows and columns alone constrain."""
    return Rules(regions=tuple(tuple(range(i * n, (i + 1) * n)) for i in range(n)))


def square_seed(seed: int | str, n: int, index: int) -> str:
    """The seed string of the Latin square of puzzle `index`, whatever its holes."""
    return f"{seed}:latin{n}:{index}"


def qwh_seed(seed: int | str, n: int, fraction: float, balance: str, index: int) -> str:
    """The seed string of QWH puzzle `index`'s holes: each puzzle is reproducible on its own."""
    return f"{seed}:qwh{n}:{fraction}:{balance}:{index}"


def make_qwh(shape: Shape, fraction: float, balance: str, seed: int | str, index: int = 0,
             moves: int | None = None) -> Balanced:
    """QWH puzzle `index` of a seed on a grid of `shape` (its boxes unused): the random Latin
    square of the seed and index (the same at every F and placement), then its holes, random or
    singly balanced, drawn from a seed of their own."""
    if balance not in PLACEMENTS:
        raise BalanceError(f"QWH holes are placed {' or '.join(PLACEMENTS)}, not {balance!r} "
                           f"(doubly balanced needs boxes)")
    n = shape.side
    key = qwh_seed(seed, n, fraction, balance, index)
    count = hole_count(shape, fraction)
    square = seeded_square(n, square_seed(seed, n, index), moves)
    empty = holes(shape, count, balance, random.Random(key))
    cells = tuple(0 if c in empty else v for c, v in enumerate(square))
    return Balanced(Puzzle(shape, cells, key, row_rules(n)), square, key, len(empty), None)


def generate_qwh(shape: Shape, count: int, fraction: float, balance: str,
                 seed: int | str) -> Iterator[Balanced]:
    """`count` QWH puzzles of a seed in index order (not checked unique)."""
    for index in range(count):
        yield make_qwh(shape, fraction, balance, seed, index)
