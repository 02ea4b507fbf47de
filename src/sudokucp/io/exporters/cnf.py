"""The reader of SAT (and pseudo-Boolean) competition output, for the DIMACS CNF and OPB files
that sudokucp.encodings.cnf writes.

Glossary: n = side, var(cell, d) = cell * n + d (1..n^3), cells row-major from 0: a true variable
puts its digit in its cell, so a model decodes by the formula alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudokucp.io.exporters.answer import Answer, DecodeError, Output, Reading, WrongModel, quote
from sudokucp.io.exporters.verdicts import EXIT_VERDICTS, SAT_VERDICTS
from sudokucp.puzzle import Grid, Shape, cell_name


def read_sat(output: Output, shape: Shape, code: int | None = None, *,
             dimacs: bool = True) -> Answer:
    """A SAT (or pseudo-Boolean) solver's output, text or a stream: 's SATISFIABLE' and 'v'
    lines, or MiniSat's result file ('SAT' then the literals); exit codes 10 and 20 back the
    verdict. A model that misses a cell, or (DIMACS) ends without its 0, is partial: a
    DecodeError; one past twice the variables is refused before it is all kept."""
    reading, literals, ended = Reading(output), [], False
    cap = 2 * shape.side ** 3  # each variable twice at most: no model holds more
    for number, line in reading.lines():
        if not line or line[0] in "c*":
            continue
        head, _, rest = line.partition(" ")
        if head == "s" or (head.upper() in SAT_VERDICTS and not rest):
            reading.say(rest if head == "s" else head, SAT_VERDICTS, number, line)
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
    reading.verdict = _agreed(reading.verdict, code)
    settled = reading.settled()
    if settled is not None:
        return settled
    if not literals:
        raise DecodeError("the solver says SATISFIABLE but prints no model (no 'v' lines)")
    if dimacs and not ended:
        raise DecodeError("the model ends without its closing 0 (output cut short?)")
    return reading.answer([decode_literals(literals, shape)])


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
