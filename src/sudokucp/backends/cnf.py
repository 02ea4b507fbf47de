"""The CNF of a shape, shared by the SAT backends: one variable per (cell, digit), built once.

Glossary: n = side, var(cell, d) = cell * n + d (1..n^3).
Encodings (Lynce & Ouaknine): `minimal` = each cell has at least one digit, each digit at most once
per unit (exactly one per cell follows by counting); `extended` adds at most one digit per cell and
each digit at least once per unit. Not a backend: `sat` (PicoSAT) and `pysat` both read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from sudokucp.puzzle import Shape, geometry

ENCODINGS = ("minimal", "extended")


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
