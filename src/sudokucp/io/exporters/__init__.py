"""Exporters: a puzzle as the file a SAT, pseudo-Boolean or CP solver reads (DIMACS CNF, OPB,
XCSP3, MiniZinc, FlatZinc; the models built by sudokucp.encodings), and the decoders that turn
what the solver prints back into grids.

`FORMATS` names each one: its file suffix, its title (the header's first line), one line on how
a model decodes, its writer and its reader. Every file opens with the comment lines of header.py,
so `sudoku-cp decode` needs nothing but the file and the solver's output. A writer takes the
puzzle, the header's lines and grids to rule out (`blocked`: a second call for uniqueness).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sudokucp.encodings.cnf import ENCODINGS, encode, to_dimacs, to_opb
from sudokucp.encodings.mzn import model_text, to_dzn, to_model, to_mzn
from sudokucp.encodings.xcsp3 import to_xcsp3
from sudokucp.io.exporters.answer import Answer, DecodeError, Output, WrongModel, solver_stats
from sudokucp.io.exporters.cnf import read_sat
from sudokucp.io.exporters.header import Header, header_lines, read_header
from sudokucp.io.exporters.mzn import INSTALL, read_minizinc, to_fzn
from sudokucp.io.exporters.xcsp3 import read_xcsp3
from sudokucp.puzzle import Grid, Puzzle, Shape

Reader = Callable[..., Answer]


@dataclass(frozen=True)
class Format:
    """One exchange format: how its files are named and titled, written and read back."""

    name: str
    suffix: str
    title: str
    decode: str  # one line: how a model becomes a grid
    reader: Reader


def _read_opb(output: Output, shape: Shape, code: int | None = None) -> Answer:
    return read_sat(output, shape, code, dimacs=False)


FORMATS: dict[str, Format] = {f.name: f for f in (  # {n}: the side, {last}: the last cell
    Format("dimacs", ".cnf", "DIMACS CNF",
           "variable v = cell*{n} + d (cells 0..{last} row-major, digits 1..{n}): a true v puts "
           "d in cell (v-1) // {n}; read from the 's SATISFIABLE' and 'v' lines", read_sat),
    Format("opb", ".opb", "OPB pseudo-Boolean",
           "variable xv, v = cell*{n} + d (cells 0..{last} row-major, digits 1..{n}): a true xv "
           "puts d in cell (v-1) // {n}; read from the 's SATISFIABLE' and 'v' lines", _read_opb),
    Format("xcsp3", ".xml", "XCSP3 instance",
           "x[i][j] is the digit of row i, column j (from 0); read from the 'v <instantiation>' "
           "line", read_xcsp3),
    Format("mzn", ".mzn", "MiniZinc model with data",
           "the output [x] lists the {n}x{n} digits row by row; each solution ends with "
           "----------", read_minizinc),
    Format("dzn", ".dzn", "MiniZinc data for sudoku.mzn",
           "run with sudoku.mzn; the output [x] lists the {n}x{n} digits row by row; each "
           "solution ends with ----------", read_minizinc),
    Format("fzn", ".fzn", "FlatZinc",
           "x = array2d(1..{n}, 1..{n}, [...]) lists the digits row by row; each solution ends "
           "with ----------", read_minizinc),
)}
TITLES = {f.title: f.name for f in FORMATS.values()}


def comments(puzzle: Puzzle, fmt: str) -> list[str]:
    """The header lines of a puzzle exported in `fmt`."""
    how = FORMATS[fmt].decode.format(n=puzzle.side, last=puzzle.shape.cells - 1)
    return header_lines(puzzle, FORMATS[fmt].title, how)


def export(puzzle: Puzzle, fmt: str, *, encoding: str = "extended",
           blocked: Sequence[Grid] = (), solver: str = "gecode",
           timeout: float | None = None) -> str:
    """The text of one puzzle's file in `fmt` (`encoding` for DIMACS, `solver` the library
    FlatZinc is compiled for); blocked grids are ruled out. Classic grids only: a variant's
    rules (cages, extra regions) are refused with a ValueError rather than left out."""
    rules = getattr(puzzle, "rules", None)
    if rules is not None and not getattr(rules, "classic", True):
        raise ValueError(f"export writes classic grids: {puzzle.name or 'this puzzle'} has "
                         f"variant rules, which no exported format holds yet")
    lines = comments(puzzle, fmt)
    if fmt == "dimacs":
        return to_dimacs(puzzle, lines, encoding, blocked)
    if fmt == "opb":
        return to_opb(puzzle, lines, encoding, blocked)
    if fmt == "xcsp3":
        return to_xcsp3(puzzle, lines, blocked)
    if fmt == "mzn":
        return to_mzn(puzzle, lines, blocked)
    if fmt == "dzn":
        return to_dzn(puzzle, lines)
    if fmt == "fzn":
        return to_fzn(puzzle, lines, blocked, solver, timeout)
    raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")


def warm(shape: Shape, fmt: str, encoding: str = "extended") -> None:
    """Build what exporting a shape in `fmt` shares between puzzles (the CNF's clauses, the
    MiniZinc model), so that the first export costs no more than the others."""
    if fmt == "dimacs":
        encode(shape, encoding)
    elif fmt in ("mzn", "dzn", "fzn"):
        model_text()


def decode(output: Output, fmt: str, shape: Shape, code: int | None = None) -> Answer:
    """What a solver printed for a file in `fmt` (its text, or its lines as a stream), read back
    (DecodeError when it cannot be; WrongModel when the model contradicts itself)."""
    return FORMATS[fmt].reader(output, shape, code)


def instance_header(text: str) -> Header:
    """The format and puzzle an exported file says it holds."""
    return read_header(text, TITLES)


__all__ = ["ENCODINGS", "FORMATS", "INSTALL", "Answer", "DecodeError", "Format", "Header",
           "Output", "WrongModel",
           "comments", "decode", "export", "instance_header", "model_text", "solver_stats",
           "to_model", "warm"]
