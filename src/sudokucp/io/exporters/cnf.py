"""DIMACS CNF and OPB of a puzzle, and the reader of SAT (and pseudo-Boolean) competition output.

Glossary: n = side, var(cell, d) = cell * n + d (1..n^3), cells row-major from 0. The clauses are
those of the `sat` and `pysat` backends (backends/sat/cnf.py, the same order; a test holds them
equal), rebuilt here because the readers' layer sits below the backends: `minimal` = each cell
at least one digit, each digit at most once per unit; `extended` adds at most one digit per cell
and each digit at least once per unit. The givens are applied as those backends apply them
(satisfied clauses dropped, false literals removed) but the numbering is kept, and every fixed
variable is a unit clause, so that a model decodes by the formula alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from sudokucp.io.exporters.answer import (
    SAT,
    UNKNOWN,
    UNSAT,
    Answer,
    DecodeError,
    Output,
    WrongModel,
    add_stats,
    numbered_lines,
    quote,
)
from sudokucp.puzzle import Grid, Puzzle, Shape, cell_name, geometry

ENCODINGS = ("minimal", "extended")
VERDICTS = {"SATISFIABLE": SAT, "SAT": SAT, "UNSATISFIABLE": UNSAT, "UNSAT": UNSAT,
            "UNKNOWN": UNKNOWN, "INDET": UNKNOWN, "INDETERMINATE": UNKNOWN}
EXIT_VERDICTS = {10: SAT, 20: UNSAT}  # the SAT competition's exit codes


@dataclass(frozen=True)
class Rules:
    """One shape's clauses: binaries (-a | -b) and positive long clauses, as variable arrays."""

    n: int
    binaries: np.ndarray  # (B, 2)
    longs: np.ndarray  # (L, n)
    kills: np.ndarray  # (n^3 + 1, K) variables a true variable makes false; row 0 unused


@cache
def rules(shape: Shape, encoding: str) -> Rules:
    """The clauses of `shape` for an encoding, built once per process."""
    n, geo = shape.side, geometry(shape)
    var = np.arange(1, n ** 3 + 1).reshape(n * n, n)  # var[cell, d - 1]
    pairs = np.array([(a, b) for a in range(n * n) for b in geo.peers[a] if a < b])
    binaries = [np.stack([var[pairs[:, 0]], var[pairs[:, 1]]], axis=-1).reshape(-1, 2)]
    longs = [var]
    if encoding == "extended":
        digits = np.array(list(combinations(range(n), 2)))
        binaries.append(np.stack([var[:, digits[:, 0]], var[:, digits[:, 1]]],
                                 axis=-1).reshape(-1, 2))
        longs.append(var[np.array(geo.units)].transpose(0, 2, 1).reshape(-1, n))
    others = np.array([[e for e in range(n) if e != d] for d in range(n)])
    kills = np.concatenate([var[:, others], var[np.array(geo.peers)].transpose(0, 2, 1)],
                           axis=-1).reshape(n ** 3, -1)
    kills = np.vstack([np.zeros((1, kills.shape[1]), dtype=kills.dtype), kills])
    return Rules(n, np.concatenate(binaries), np.concatenate(longs), kills)


def fixed(rules_: Rules, cells: Grid) -> np.ndarray | None:
    """Per variable (index 0 unused): 1 true by a given, -1 false by one, 0 free; None when the
    givens contradict each other."""
    n, given = rules_.n, np.array(cells)
    where = np.flatnonzero(given)
    true = where * n + given[where]
    state = np.zeros(n ** 3 + 1, dtype=np.int8)
    state[rules_.kills[true].ravel()] = -1
    if (state[true] == -1).any():
        return None
    state[true] = 1
    state[0] = 0
    return state


def clauses(puzzle: Puzzle, encoding: str, blocked: Sequence[Grid] = ()) -> list[list[int]]:
    """The puzzle's clauses: the shape's, simplified by the givens, a unit clause per fixed
    variable, and one clause per blocked grid (not all of its open cells again). Givens that
    the simplification finds contradictory leave the shape's clauses whole, the givens as
    units, for the solver to refute."""
    shape_rules = rules(puzzle.shape, encoding)
    blocks = [block_clause(puzzle, grid) for grid in blocked]
    state = fixed(shape_rules, puzzle.cells)
    shortened = None if state is None else _shortened(shape_rules.longs, state)
    if state is None or shortened is None:
        n = puzzle.side
        units = [[cell * n + v] for cell, v in enumerate(puzzle.cells) if v]
        return (-shape_rules.binaries).tolist() + shape_rules.longs.tolist() + units + blocks
    open_ = state == 0
    binaries = shape_rules.binaries
    kept = binaries[open_[binaries[:, 0]] & open_[binaries[:, 1]]]
    units = [[v] for v in np.flatnonzero(state == 1).tolist()]
    units += [[-v] for v in np.flatnonzero(state == -1).tolist()]
    return (-kept).tolist() + shortened + units + blocks


def _shortened(longs: np.ndarray, state: np.ndarray) -> list[list[int]] | None:
    """The long clauses no given satisfies, without their false literals; None when one is left
    empty (the givens leave a cell or a digit of a unit no place: written unsimplified)."""
    alive = longs[~(state[longs] == 1).any(axis=1)]
    shortened = [row[state[row] == 0].tolist() for row in alive]
    return None if any(not clause for clause in shortened) else shortened


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


def read_sat(output: Output, shape: Shape, code: int | None = None, *,
             dimacs: bool = True) -> Answer:
    """A SAT (or pseudo-Boolean) solver's output, text or a stream: 's SATISFIABLE' and 'v'
    lines, or MiniSat's result file ('SAT' then the literals); exit codes 10 and 20 back the
    verdict. A model that misses a cell, or (DIMACS) ends without its 0, is partial: a
    DecodeError; one past twice the variables is refused before it is all kept."""
    verdict, literals, ended, stats = None, [], False, {}
    cap = 2 * shape.side ** 3  # each variable twice at most: no model holds more
    for number, raw in numbered_lines(output):
        line = raw.strip()
        add_stats(stats, line)
        if not line or line[0] in "c*":
            continue
        head, _, rest = line.partition(" ")
        if head == "s" or (head.upper() in VERDICTS and not rest):
            word = (rest if head == "s" else head).strip().upper()
            if word not in VERDICTS:
                raise DecodeError(f"line {number}: unknown verdict {quote(line)}")
            verdict = VERDICTS[word]
        elif head == "v" or _is_literal(head):
            if ended:
                raise DecodeError(f"line {number}: literals after the model's closing 0")
            ended = _take(rest if head == "v" else line, literals, number)
            if len(literals) > cap:
                raise DecodeError(f"line {number}: more than {cap} literals, twice the "
                                  f"variables of a {shape} CNF: not its model")
        else:
            raise DecodeError(f"line {number}: neither a verdict, a model nor a comment: "
                              f"{quote(line)}")
    verdict = _agreed(verdict, code)
    if verdict != SAT:
        return Answer(verdict, [], verdict == UNSAT, stats)
    if not literals:
        raise DecodeError("the solver says SATISFIABLE but prints no model (no 'v' lines)")
    if dimacs and not ended:
        raise DecodeError("the model ends without its closing 0 (output cut short?)")
    return Answer(SAT, [decode_literals(literals, shape)], False, stats)


def _is_literal(token: str) -> bool:
    return token.lstrip("-").lstrip("x").isdigit() and token not in ("-", "")


def _take(text: str, literals: list[int], number: int) -> bool:
    """Add the literals of one model line; whether it held the closing 0."""
    for token in text.split():
        word = token.replace("x", "", 1)
        if not word.lstrip("-").isdigit():
            raise DecodeError(f"line {number}: {quote(token)} is not a literal")
        value = int(word)
        if value == 0:
            return True
        literals.append(value)
    return False


def _agreed(verdict: str | None, code: int | None) -> str:
    """The verdict printed, checked against the exit code; the code alone when none printed."""
    by_code = EXIT_VERDICTS.get(code) if code is not None else None
    if verdict is None and by_code is None:
        raise DecodeError("no verdict: neither an 's' line nor exit status 10 or 20")
    if verdict is not None and by_code is not None and verdict != by_code:
        raise DecodeError(f"the output says {verdict} but the exit status {code} says {by_code}")
    return verdict or by_code


def decode_literals(literals: Sequence[int], shape: Shape) -> Grid:
    """The grid of a model: in each cell the one digit whose variable is true. A variable out of
    range, or a cell without a digit, is a DecodeError; a variable both true and false, or a
    cell with two digits, is a WrongModel. A literal repeated counts once."""
    n, top = shape.side, shape.side ** 3
    grid, seen = [0] * shape.cells, set()
    for literal in literals:
        if not 1 <= abs(literal) <= top:
            raise DecodeError(f"literal {literal} is no variable of the {top} of a {shape} "
                              f"CNF")
        if -literal in seen:
            cell, digit = divmod(abs(literal) - 1, n)
            raise WrongModel(f"the model holds both {abs(literal)} and -{abs(literal)} ("
                             f"{digit + 1} in {cell_name(shape, cell)} and not): a "
                             f"contradictory model")
        if literal in seen:
            continue
        seen.add(literal)
        if literal > 0:
            cell, digit = divmod(literal - 1, n)
            if grid[cell]:
                raise WrongModel(f"the model puts {grid[cell]} and {digit + 1} in "
                                 f"{cell_name(shape, cell)}: not a model of the CNF")
            grid[cell] = digit + 1
    empty = [cell_name(shape, c) for c, v in enumerate(grid) if not v]
    if empty:
        raise DecodeError(f"the model gives no digit to {len(empty)} cells ({', '.join(empty[:3])}"
                          f"{', ...' if len(empty) > 3 else ''}): a partial model")
    return tuple(grid)
