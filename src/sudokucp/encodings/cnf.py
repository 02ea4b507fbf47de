"""The CNF of a puzzle: one variable per (cell, digit), the shape's clauses built once. The `sat`
and `pysat` backends solve it, and the exporters write it as DIMACS and OPB (`to_dimacs`, `to_opb`).

Glossary: n = side, var(cell, d) = cell * n + d (1..n^3), cells row-major from 0.
Encodings (Lynce & Ouaknine): `minimal` = each cell has at least one digit, each digit at most once
per unit (exactly one per cell follows by counting); `extended` adds at most one digit per cell and
each digit at least once per unit. `simplify` applies a grid's givens (satisfied clauses dropped,
false literals removed, free variables renumbered 1..F); `clauses` applies them the same way but
keeps the numbering, every fixed variable a unit clause, so that a model decodes by the formula
alone.
A variant (sudokucp.rules; `encode_rules`, `encoding_for`) has every group of its layout where
the classic grid has its units (at most once per group, at least once per full group), its
candidates as unit clauses, and each cage sum as a choice among the digit sets that make it: an
auxiliary variable per set (numbered after n^3), one of them true, each of its digits somewhere
in the cage, a digit in a cage only if a true set has it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

import numpy as np

from sudokucp.layout import Layout, layout
from sudokucp.puzzle import Grid, Puzzle, Shape, geometry
from sudokucp.rules import Rules, digits_of, sum_sets

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
    extra: int = 0  # a variant's auxiliary variables, numbered after n^3
    others: tuple[tuple[int, ...], ...] = ()  # a variant's other clauses (any signs, lengths)

    @property
    def variables(self) -> int:
        return self.n ** 3 + self.extra

    @property
    def clauses(self) -> int:
        return len(self.binaries) + len(self.longs) + len(self.others)

    def cnf(self) -> list[list[int]]:
        """Every clause as a list of literals, the givens not applied (for assumptions)."""
        return (-self.binaries).tolist() + self.longs.tolist() + [list(c) for c in self.others]


@cache
def encode(shape: Shape, kind: str) -> Encoding:
    """The clauses of `shape` for the `minimal` or `extended` encoding, computed once."""
    n, geo = shape.side, geometry(shape)
    var = np.arange(1, n ** 3 + 1).reshape(n * n, n)  # var[cell, d - 1]
    binaries, longs = _group_clauses(var, geo.peers, geo.units, kind)
    return Encoding(n, binaries, longs, kill_table(shape, var))


def _group_clauses(var: np.ndarray, peers: Sequence[Sequence[int]],
                  full_units: Sequence[Sequence[int]], kind: str) -> tuple[np.ndarray, np.ndarray]:
    """The binary clauses (peers differ; with `extended`, a cell holds one digit) and the long
    ones (a cell holds a digit; with `extended`, each digit has a place in each full unit)."""
    n = var.shape[1]
    pairs = np.array([(a, b) for a in range(len(var)) for b in peers[a] if a < b])
    binaries = [np.stack([var[pairs[:, 0]], var[pairs[:, 1]]], axis=-1).reshape(-1, 2)]
    longs = [var]
    if kind == "extended":
        digit_pairs = np.array(list(combinations(range(n), 2)))
        binaries.append(np.stack([var[:, digit_pairs[:, 0]], var[:, digit_pairs[:, 1]]],
                                 axis=-1).reshape(-1, 2))
        longs.append(var[np.array(full_units)].transpose(0, 2, 1).reshape(-1, n))
    return np.concatenate(binaries), np.concatenate(longs)


def kill_table(shape: Shape, var: np.ndarray) -> np.ndarray:
    """For each variable (cell, d): the other digits of the cell and d in every peer."""
    n = shape.side
    other_digits = np.array([[e for e in range(n) if e != d] for d in range(n)])
    same_cell = var[:, other_digits]  # (cells, n, n - 1)
    same_digit = var[np.array(geometry(shape).peers)].transpose(0, 2, 1)  # (cells, n, peers)
    kills = np.concatenate([same_cell, same_digit], axis=-1).reshape(n ** 3, -1)
    return np.vstack([np.zeros((1, kills.shape[1]), dtype=kills.dtype), kills])


def encoding_for(puzzle: Puzzle, kind: str) -> Encoding:
    """The clauses of a puzzle's shape, or of its shape and rules for a variant."""
    if puzzle.rules.classic:
        return encode(puzzle.shape, kind)
    return encode_rules(puzzle.shape, puzzle.rules, kind)


@lru_cache(maxsize=32)
def encode_rules(shape: Shape, rules: Rules, kind: str) -> Encoding:
    """The clauses of a variant: its groups, candidates and cage sums (the last few kept)."""
    n, lay = shape.side, layout(shape, rules)
    var = np.arange(1, n ** 3 + 1).reshape(n * n, n)
    full = [g for i, g in enumerate(lay.groups) if lay.is_full(i)]
    binaries, longs = _group_clauses(var, lay.peers, full, kind)
    others = [(-int(var[c, d]),) for c in range(n * n) for d in range(n)
              if not lay.allowed[c] >> d & 1]
    top = n ** 3
    for group, total in lay.sums:
        clauses, top = sum_clauses(lay, var, group, total, top)
        others += clauses
    return Encoding(n, binaries, longs, padded_kills(lay, var), top - n ** 3, tuple(others))


def sum_clauses(lay: Layout, var: np.ndarray, group: tuple[int, ...], total: int, top: int
                ) -> tuple[list[tuple[int, ...]], int]:
    """A cage sum's clauses over new variables top+1.. (one per digit set that makes it): one
    set true, each of its digits in some cell, a digit in a cell only if a true set has it.
    Returns the clauses and the highest variable used."""
    allowed = 0
    for c in group:
        allowed |= lay.allowed[c]
    sets = sum_sets(len(group), total, lay.side, allowed)
    if not sets:  # nothing makes the sum: a fresh variable both true and false
        return [(top + 1,), (-(top + 1),)], top + 1
    picks = list(range(top + 1, top + len(sets) + 1))
    clauses: list[tuple[int, ...]] = [tuple(picks)]
    for mask, pick in zip(sets, picks):
        clauses += [(-pick, *(int(var[c, d - 1]) for c in group)) for d in digits_of(mask)]
    for d in range(lay.side):
        having = tuple(p for mask, p in zip(sets, picks) if mask >> d & 1)
        clauses += [(-int(var[c, d]), *having) for c in group]
    return clauses, picks[-1]


def padded_kills(lay: Layout, var: np.ndarray) -> np.ndarray:
    """kill_table for a variant, whose cells have different numbers of peers: rows padded with
    variable 0 (unused)."""
    n = lay.side
    width = n - 1 + max(map(len, lay.peers))
    kills = np.zeros((n ** 3 + 1, width), dtype=var.dtype)
    other_digits = np.array([[e for e in range(n) if e != d] for d in range(n)])
    for cell, peers in enumerate(lay.peers):  # row d: the cell's other digits, d in each peer
        block = np.hstack([var[cell][other_digits], var[np.array(peers, dtype=int)].T])
        kills[var[cell], :block.shape[1]] = block
    return kills


@dataclass
class Simplified:
    """The clauses left by the givens, over the free variables renumbered 1..F."""

    clauses: Clauses
    free: np.ndarray  # free[k - 1] = original variable of new variable k


def fixed(enc: Encoding, cells: Grid) -> np.ndarray | None:
    """Per variable (index 0 unused, 0): 1 true by a given, -1 false by one (or by a variant's
    candidates), 0 free; None when the givens contradict each other or the candidates."""
    n = enc.n
    given = np.array(cells)
    where = np.flatnonzero(given)
    true = where * n + given[where]
    state = np.zeros(enc.variables + 1, dtype=np.int8)
    state[enc.kills[true].ravel()] = -1
    if (state[true] == -1).any():
        return None
    state[true] = 1
    state[0] = 0
    if enc.others and not _unit_clauses(enc.others, state):
        return None
    return state


def kept(enc: Encoding, state: np.ndarray, renumber: np.ndarray) -> Clauses | None:
    """The clauses no fixed variable satisfies, without their false literals, renumbered:
    binaries, long clauses, a variant's others, in that order; None when one empties."""
    open_ = state == 0
    pairs = enc.binaries[open_[enc.binaries[:, 0]] & open_[enc.binaries[:, 1]]]
    clauses = (-renumber[pairs]).tolist()
    longs = shorten(enc.longs, state, renumber)
    if longs is None:
        return None
    others = shorten_others(enc.others, state, renumber) if enc.others else []
    return None if others is None else clauses + longs + others


def simplify(enc: Encoding, cells: Grid) -> Simplified | None:
    """Apply the givens: drop satisfied clauses, remove false literals, renumber what is left.

    None when the givens alone contradict the rules (nothing to ask the solver)."""
    state = fixed(enc, cells)
    if state is None:
        return None
    state[0] = -1
    free = np.flatnonzero(state == 0)
    renumber = np.zeros(enc.variables + 1, dtype=np.int64)
    renumber[free] = np.arange(1, len(free) + 1)
    clauses = kept(enc, state, renumber)
    return None if clauses is None else Simplified(clauses, free)


def clauses(puzzle: Puzzle, encoding: str, blocked: Sequence[Grid] = ()) -> Clauses:
    """A classic puzzle's clauses as the exporters write them: the shape's, simplified by the
    givens but not renumbered, a unit clause per fixed variable, and one clause per blocked grid
    (not all of its open cells again). Givens that the simplification finds contradictory leave
    the shape's clauses whole, the givens as units, for the solver to refute."""
    enc = encode(puzzle.shape, encoding)
    blocks = [block_clause(puzzle, grid) for grid in blocked]
    state = fixed(enc, puzzle.cells)
    left = None if state is None else kept(enc, state, np.arange(len(state)))
    if state is None or left is None:
        n = puzzle.side
        units = [[cell * n + v] for cell, v in enumerate(puzzle.cells) if v]
        return enc.cnf() + units + blocks
    units = [[v] for v in np.flatnonzero(state == 1).tolist()]
    units += [[-v] for v in np.flatnonzero(state == -1).tolist()]
    return left + units + blocks


def block_clause(puzzle: Puzzle, grid: Grid) -> list[int]:
    """A clause ruling out `grid`: not every open cell holds its digit again."""
    n = puzzle.side
    return [-(cell * n + grid[cell]) for cell, v in enumerate(puzzle.cells) if not v]


def to_dimacs(puzzle: Puzzle, comments: Sequence[str], encoding: str = "extended",
              blocked: Sequence[Grid] = ()) -> str:
    """DIMACS CNF: comment lines, the problem line, one clause a line ending in 0."""
    found = clauses(puzzle, encoding, blocked)
    head = [f"c {line}".rstrip() for line in comments]
    head.append(f"p cnf {puzzle.side ** 3} {len(found)}")
    body = "\n".join(" ".join(map(str, clause)) + " 0" for clause in found)
    return "\n".join(head) + "\n" + body + "\n"


def to_opb(puzzle: Puzzle, comments: Sequence[str], encoding: str = "extended",
           blocked: Sequence[Grid] = ()) -> str:
    """OPB (pseudo-Boolean competition): `extended`, exactly one digit per cell and per unit and
    digit; `minimal`, at least one per cell and at most one per unit and digit. A given is
    `x = 1`; a blocked grid, at most (open cells - 1) of its open variables true."""
    n, geo = puzzle.side, geometry(puzzle.shape)
    exact = encoding == "extended"
    lines = [_sum(1, (cell * n + d for d in range(1, n + 1))) + (" = 1 ;" if exact else " >= 1 ;")
             for cell in range(n * n)]
    lines += [_sum(1, (cell * n + d for cell in unit)) + " = 1 ;" if exact else
              _sum(-1, (cell * n + d for cell in unit)) + " >= -1 ;"
              for unit in geo.units for d in range(1, n + 1)]
    lines += [f"+1 x{cell * n + v} = 1 ;" for cell, v in enumerate(puzzle.cells) if v]
    for grid in blocked:
        free = [cell * n + grid[cell] for cell, v in enumerate(puzzle.cells) if not v]
        lines.append(_sum(-1, free) + f" >= {1 - len(free)} ;")
    head = [f"* #variable= {n ** 3} #constraint= {len(lines)}"]
    head += [f"* {line}".rstrip() for line in comments]
    return "\n".join(head + lines) + "\n"


def _sum(weight: int, variables: Iterable[int]) -> str:
    """An OPB sum of the variables, each with `weight`."""
    return " ".join(f"{weight:+d} x{v}" for v in variables)


def _unit_clauses(others: tuple[tuple[int, ...], ...], state: np.ndarray) -> bool:
    """Apply a variant's unit clauses (candidates) to the state; False when one contradicts the
    givens."""
    for clause in others:
        if len(clause) == 1:
            lit = clause[0]
            if state[abs(lit)] == (-1 if lit > 0 else 1):
                return False
            state[abs(lit)] = 1 if lit > 0 else -1
    return True


def shorten_others(others: tuple[tuple[int, ...], ...], state: np.ndarray,
                   renumber: np.ndarray) -> Clauses | None:
    """A variant's other clauses without the satisfied ones and the false literals, renumbered;
    None when one empties."""
    out = []
    for clause in others:
        kept, satisfied = [], False
        for lit in clause:
            value = state[abs(lit)] * (1 if lit > 0 else -1)
            if value > 0:
                satisfied = True
                break
            if value == 0:
                kept.append(int(renumber[abs(lit)]) * (1 if lit > 0 else -1))
        if satisfied:
            continue
        if not kept:
            return None
        out.append(kept)
    return out


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
    chosen = chosen[chosen < n ** 3]  # a variant's auxiliary variables hold no digit
    grid = np.array(cells)
    grid[chosen // n] = chosen % n + 1
    return tuple(grid.tolist())


def block(model: list[int]) -> list[int]:
    """A clause ruling out the model: not all of its true variables again."""
    return [-v for v in model if v > 0]
