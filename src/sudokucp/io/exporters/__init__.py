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
class Options:
    """What a writer may need beside the puzzle and its header: the CNF encoding, the grids
    ruled out, the library FlatZinc is compiled for and the compiler's time limit."""

    encoding: str = "extended"
    blocked: Sequence[Grid] = ()
    solver: str = "gecode"
    timeout: float | None = None


Writer = Callable[[Puzzle, list[str], Options], str]


@dataclass(frozen=True)
class Format:
    """One exchange format: how its files are named and titled, written and read back."""

    name: str
    suffix: str
    title: str
    decode: str  # one line: how a model becomes a grid
    reader: Reader
    writer: Writer


def _read_opb(output: Output, shape: Shape, code: int | None = None) -> Answer:
    return read_sat(output, shape, code, dimacs=False)


# How a model decodes ({n}: the side, {last}: the last cell), in words the formats share.
LITERALS = ("variable {v} = cell*{{n}} + d (cells 0..{{last}} row-major, digits 1..{{n}}): a true "
            "{x} puts d in cell (v-1) // {{n}}; read from the 's SATISFIABLE' and 'v' lines")
ENDS = "each solution ends with ----------"
ROWS = "lists the {n}x{n} digits row by row; " + ENDS
FZN = "x = array2d(1..{n}, 1..{n}, [...]) lists the digits row by row; " + ENDS
FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("dimacs", ".cnf", "DIMACS CNF", LITERALS.format(v="v", x="v"), read_sat,
           lambda p, c, o: to_dimacs(p, c, o.encoding, o.blocked)),
    Format("opb", ".opb", "OPB pseudo-Boolean", LITERALS.format(v="xv, v", x="xv"), _read_opb,
           lambda p, c, o: to_opb(p, c, o.encoding, o.blocked)),
    Format("xcsp3", ".xml", "XCSP3 instance", "x[i][j] is the digit of row i, column j (from "
           "0); read from the 'v <instantiation>' line", read_xcsp3,
           lambda p, c, o: to_xcsp3(p, c, o.blocked)),
    Format("mzn", ".mzn", "MiniZinc model with data", "the output [x] " + ROWS, read_minizinc,
           lambda p, c, o: to_mzn(p, c, o.blocked)),
    Format("dzn", ".dzn", "MiniZinc data for sudoku.mzn",
           "run with sudoku.mzn; the output [x] " + ROWS, read_minizinc,
           lambda p, c, o: to_dzn(p, c)),
    Format("fzn", ".fzn", "FlatZinc", FZN, read_minizinc,
           lambda p, c, o: to_fzn(p, c, o.blocked, o.solver, o.timeout)),
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
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    return FORMATS[fmt].writer(puzzle, comments(puzzle, fmt), Options(encoding, blocked, solver,
                                                                      timeout))


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
