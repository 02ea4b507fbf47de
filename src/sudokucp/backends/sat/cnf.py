"""The CNF of a shape, shared by the SAT backends: one variable per (cell, digit), built once.

Glossary: n = side, var(cell, d) = cell * n + d (1..n^3).
Encodings (Lynce & Ouaknine): `minimal` = each cell has at least one digit, each digit at most once
per unit (exactly one per cell follows by counting); `extended` adds at most one digit per cell and
each digit at least once per unit. `simplify` applies a grid's givens (satisfied clauses dropped,
false literals removed, free variables renumbered 1..F). Not a backend: `sat` and `pysat` read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from sudokucp.puzzle import Grid, Shape, geometry

ENCODINGS = ("minimal", "extended")
Clauses = list[list[int]]


@dataclass(frozen=True)
class Encoding:
    """Cached clauses of one shape: binaries (-a | -b), positive long clauses, and the variables
    each variable rules out when true."""

    n: int
    binaries: np.ndarray  # (B, 2) variable pairs, one clause (-a | -b) each
    longs: np.ndarray  # (L, n) variables, one clause (a1 | ... | an) each
    kills: np.ndarray  # (n^3 + 1, K) variables made false by each variable; row 0 unused

    @property
    def variables(self) -> int:
        return self.n ** 3

    @property
    def clauses(self) -> int:
        return len(self.binaries) + len(self.longs)

    def cnf(self) -> list[list[int]]:
        """Every clause as a list of literals, the givens not applied (for assumptions)."""
        return (-self.binaries).tolist() + self.longs.tolist()


@cache
def encode(shape: Shape, kind: str) -> Encoding:
    """The clauses of `shape` for the `minimal` or `extended` encoding, computed once."""
    n, geo = shape.side, geometry(shape)
    var = np.arange(1, n ** 3 + 1).reshape(n * n, n)  # var[cell, d - 1]
    pairs = np.array([(a, b) for a in range(n * n) for b in geo.peers[a] if a < b])
    binaries = [np.stack([var[pairs[:, 0]], var[pairs[:, 1]]], axis=-1).reshape(-1, 2)]
    longs = [var]
    if kind == "extended":
        digit_pairs = np.array(list(combinations(range(n), 2)))
        binaries.append(np.stack([var[:, digit_pairs[:, 0]], var[:, digit_pairs[:, 1]]],
                                 axis=-1).reshape(-1, 2))
        units = np.array(geo.units)
        longs.append(var[units].transpose(0, 2, 1).reshape(-1, n))
    return Encoding(n, np.concatenate(binaries), np.concatenate(longs), kill_table(shape, var))


def kill_table(shape: Shape, var: np.ndarray) -> np.ndarray:
    """For each variable (cell, d): the other digits of the cell and d in every peer."""
    n = shape.side
    other_digits = np.array([[e for e in range(n) if e != d] for d in range(n)])
    same_cell = var[:, other_digits]  # (cells, n, n - 1)
    same_digit = var[np.array(geometry(shape).peers)].transpose(0, 2, 1)  # (cells, n, peers)
    kills = np.concatenate([same_cell, same_digit], axis=-1).reshape(n ** 3, -1)
    return np.vstack([np.zeros((1, kills.shape[1]), dtype=kills.dtype), kills])


@dataclass
class Simplified:
    """The clauses left by the givens, over the free variables renumbered 1..F."""

    clauses: Clauses
    free: np.ndarray  # free[k - 1] = original variable of new variable k


def simplify(enc: Encoding, cells: Grid) -> Simplified | None:
    """Apply the givens: drop satisfied clauses, remove false literals, renumber what is left.

    None when the givens alone contradict the rules (nothing to ask the solver)."""
    n = enc.n
    given = np.array(cells)
    where = np.flatnonzero(given)
    true = where * n + given[where]
    state = np.zeros(enc.variables + 1, dtype=np.int8)
    state[enc.kills[true].ravel()] = -1
    if (state[true] == -1).any():
        return None
    state[0] = -1
    state[true] = 1
    free = np.flatnonzero(state == 0)
    renumber = np.zeros(enc.variables + 1, dtype=np.int64)
    renumber[free] = np.arange(1, len(free) + 1)
    open_ = state == 0
    pairs = enc.binaries[open_[enc.binaries[:, 0]] & open_[enc.binaries[:, 1]]]
    clauses = (-renumber[pairs]).tolist()
    longs = shorten(enc.longs, state, renumber)
    return None if longs is None else Simplified(clauses + longs, free)


def shorten(longs: np.ndarray, state: np.ndarray, renumber: np.ndarray) -> Clauses | None:
    """The unsatisfied positive clauses without their false literals; None when one empties."""
    values = state[longs]
    keep = ~(values == 1).any(axis=1)
    rows, open_ = longs[keep], values[keep] == 0
    lengths = open_.sum(axis=1)
    if (lengths == 0).any():
        return None
    flat = renumber[rows[open_]].tolist()
    clauses, start = [], 0
    for length in lengths.tolist():
        clauses.append(flat[start:start + length])
        start += length
    return clauses


def decode(model: list[int], simple: Simplified, cells: Grid, n: int) -> Grid:
    """The grid of a model over the free variables: the givens, and in each open cell the digit
    whose variable is true."""
    values = np.array(model, dtype=np.int64)
    chosen = simple.free[values[values > 0] - 1] - 1
    grid = np.array(cells)
    grid[chosen // n] = chosen % n + 1
    return tuple(grid.tolist())


def block(model: list[int]) -> list[int]:
    """A clause ruling out the model: not all of its true variables again."""
    return [-v for v in model if v > 0]
