"""The reader of XCSP3 competition output ('s SATISFIABLE', 'v <instantiation>') for the
instances that sudokucp.encodings.xcsp3 writes."""

from __future__ import annotations

import itertools
import re

from sudokucp.io.exporters.answer import Answer, DecodeError, Output, Reading, grid_of_values, quote
from sudokucp.io.exporters.verdicts import XCSP3_VERDICTS
from sudokucp.puzzle import Grid, Shape

INSTANTIATION = re.compile(r"<instantiation\b[^>]*>(.*?)</instantiation>", re.DOTALL)
TAG = re.compile(r"<(list|values)>(.*?)</\1>", re.DOTALL)
MAX_MODEL = 1 << 22  # characters of the 'v' lines kept: a 35x35 grid's instantiation is ~20 kB
VARIABLE = re.compile(r"^x((?:\[[0-9.]*\]){2})$")


def read_xcsp3(output: Output, shape: Shape, code: int | None = None) -> Answer:
    """An XCSP3 solver's output, text or a stream: the 's' line, the solutions of the 'v' lines
    (an instantiation of x, listed as x[][] or cell by cell), the statistics of its 'd' lines;
    'v' lines past MAX_MODEL characters are a DecodeError."""
    reading, model, exhausted, kept = Reading(output), [], False, 0
    for number, line in reading.lines():
        head, _, rest = line.partition(" ")
        if head == "s":
            reading.say(rest, XCSP3_VERDICTS, number, line)
        elif head == "v":
            kept += len(rest)
            if kept > MAX_MODEL:
                raise DecodeError(f"line {number}: 'v' lines of more than {MAX_MODEL} "
                                  f"characters, more than decode keeps")
            model.append(rest)
        elif head == "d" and " ".join(rest.split()).upper() == "COMPLETE EXPLORATION":
            exhausted = True  # ACE's word that the search space was exhausted
    if reading.verdict is None:
        raise DecodeError("no verdict: no 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN' line")
    settled = reading.settled()
    if settled is not None:
        return settled
    found = INSTANTIATION.findall(" ".join(model))
    if not found:
        raise DecodeError("the solver says SATISFIABLE but its 'v' lines hold no complete "
                          "<instantiation>...</instantiation>")
    return reading.answer(list(dict.fromkeys(_grid(body, shape) for body in found)), exhausted)


def _grid(body: str, shape: Shape) -> Grid:
    """The grid of one instantiation: its list of variables, its values in that order."""
    parts = dict(TAG.findall(body))
    if set(parts) != {"list", "values"}:
        raise DecodeError("an instantiation without its <list> or its <values>")
    cells = [cell for token in parts["list"].split() for cell in _cells(token, shape.side)]
    words = parts["values"].split()
    if len(words) != len(cells):
        raise DecodeError(f"an instantiation of {len(cells)} variables with {len(words)} values")
    if not all(w.lstrip("-").isdigit() for w in words):
        bad = next(w for w in words if not w.lstrip("-").isdigit())
        raise DecodeError(f"{quote(bad)} in an instantiation is not a value")
    values = dict(zip(cells, map(int, words)))
    if len(values) != shape.cells:
        raise DecodeError(f"the instantiation gives {len(values)} of the {shape.cells} cells "
                          f"(a partial model)")
    return grid_of_values([values[cell] for cell in range(shape.cells)], shape,
                          "the instantiation")


def _cells(token: str, n: int) -> list[int]:
    """The cells a variable or an array slice names: x[2][3], x[2][], x[][], x[0..2][3..5]."""
    match = VARIABLE.match(token)
    if match is None:
        raise DecodeError(f"{quote(token)} is not a variable of the array x")
    axes = [_indices(part, n, token) for part in re.findall(r"\[([0-9.]*)\]", match.group(1))]
    return [i * n + j for i, j in itertools.product(*axes)]


def _indices(part: str, n: int, token: str) -> range:
    if not part:
        return range(n)
    low, _, high = part.partition("..")
    if not low.isdigit() or (high and not high.isdigit()):
        raise DecodeError(f"cannot read the index [{part}] of {quote(token)}")
    first, last = int(low), int(high or low)
    if not 0 <= first <= last < n:
        raise DecodeError(f"{quote(token)} lies outside x[{n}][{n}]")
    return range(first, last + 1)
