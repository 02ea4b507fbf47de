"""MiniZinc and FlatZinc: the FlatZinc that `minizinc -c` compiles from the model and data of
sudokucp.encodings.mzn, and the reader of what MiniZinc and FlatZinc solvers print.

A solution is the array `x` of N*N digits, row-major: MiniZinc prints the model's output
`[5, 3, ...]`, a FlatZinc solver `x = array2d(1..9, 1..9, [5, 3, ...]);`; each ends with
'----------'. '==========' says the search was exhausted, '=====UNSATISFIABLE=====' that there is
no solution.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from sudokucp.encodings.mzn import to_mzn
from sudokucp.io.exporters.answer import Answer, DecodeError, Output, Reading, grid_of_values, quote
from sudokucp.io.exporters.verdicts import MZN_ENDINGS, MZN_FAILURES, UNSAT
from sudokucp.puzzle import Grid, Puzzle

SOLUTION_END = "----------"
MAX_SOLUTIONS = 1000  # solutions of one output decode keeps
MAX_BLOCK = 1 << 20  # characters of one solution's lines: a 35x35 grid's takes a few thousand
INSTALL = ("FlatZinc needs the MiniZinc compiler (`minizinc -c`), not found on PATH: "
           "apt-get install minizinc flatzinc (Debian, Ubuntu), or MiniZinc's own bundle")
COMPILE_TAIL = 300  # characters of the compiler's complaint quoted


def to_fzn(puzzle: Puzzle, comments: Sequence[str], blocked: Sequence[Grid] = (),
           solver: str = "gecode", timeout: float | None = None) -> str:
    """FlatZinc compiled by `minizinc -c` for a solver's library (`std`: MiniZinc's own
    decompositions), under comment lines; RuntimeError when the compiler is absent or fails."""
    program = shutil.which("minizinc")
    if program is None:
        raise RuntimeError(INSTALL)
    library = ["-G", "std"] if solver == "std" else ["--solver", solver]
    with tempfile.TemporaryDirectory(prefix="sudokucp-fzn-") as folder:
        source, target = Path(folder) / "puzzle.mzn", Path(folder) / "puzzle.fzn"
        source.write_text(to_mzn(puzzle, (), blocked), encoding="utf-8")
        done = subprocess.run([program, "-c", *library, str(source), "--fzn", str(target),
                               "--ozn", str(Path(folder) / "puzzle.ozn")],
                              capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode or not target.is_file():
            complaint = " ".join(done.stderr.split())[-COMPILE_TAIL:]
            raise RuntimeError(f"minizinc -c failed (exit status {done.returncode}): "
                               f"{complaint}")
        body = target.read_text(encoding="utf-8")
    return "".join(f"% {line}".rstrip() + "\n" for line in comments) + body


def read_minizinc(output: Output, shape, code: int | None = None) -> Answer:
    """Solutions (the last [...] list of each block before '----------') and the closing
    marker of a MiniZinc or FlatZinc solver's output, text or a stream; a block cut short, or
    no solution nor marker, is a DecodeError, and so is a block or a count of solutions past
    what decode keeps (MAX_BLOCK characters, MAX_SOLUTIONS)."""
    grids: list[Grid] = []
    block: list[str] = []
    reading, complete, kept = Reading(output), False, 0
    for number, line in reading.lines():
        if not line or line.startswith("%"):
            continue
        if line == SOLUTION_END:
            if len(grids) == MAX_SOLUTIONS:
                raise DecodeError(f"line {number}: more than {MAX_SOLUTIONS} solutions, more "
                                  f"than decode keeps")
            grids.append(_grid_of_block(block, shape, number))
            block, kept = [], 0
        elif line in MZN_ENDINGS:
            reading.verdict, complete = MZN_ENDINGS[line]
        elif line in MZN_FAILURES:
            raise DecodeError(f"line {number}: the solver reports {line}")
        else:
            kept += len(line)
            if kept > MAX_BLOCK:
                raise DecodeError(f"line {number}: a solution of more than {MAX_BLOCK} "
                                  f"characters, more than any grid's")
            block.append(line)
    if block:
        raise DecodeError(f"the output ends inside a solution, without '{SOLUTION_END}': "
                          f"{quote(block[-1])}")
    if reading.verdict is None and not grids:
        raise DecodeError("no solution ('----------') and no closing marker "
                          "('==========', '=====UNSATISFIABLE=====', '=====UNKNOWN=====')")
    if reading.verdict == UNSAT and grids:
        raise DecodeError("the output holds solutions and says UNSATISFIABLE")
    if grids:
        return reading.answer(grids, complete)
    return Answer(reading.verdict, grids, complete, reading.stats)


def _grid_of_block(block: list[str], shape, number: int) -> Grid:
    text = " ".join(block)
    start, end = text.rfind("["), text.rfind("]")
    if start < 0 or end < start:
        raise DecodeError(f"line {number}: the solution before it holds no [...] list of "
                          f"digits")
    words = text[start + 1:end].replace(",", " ").split()
    if not all(w.isdigit() for w in words):
        bad = next(w for w in words if not w.isdigit())
        raise DecodeError(f"line {number}: {quote(bad)} in the solution is not a digit")
    return grid_of_values([int(w) for w in words], shape, f"the solution ending at line {number}")
