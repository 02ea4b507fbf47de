"""Any external solver, run per puzzle as BenchExec runs a tool: command:run=PROGRAM {file}.

The command line is split as a shell splits it (shlex) but runs without a shell. What the
program reads is named by a placeholder, replaced by the path of a file written for it:

- `{file}` (or nothing: standard input) a grid, one line ('.' for blanks, letters from 10 on) or
  `input=grid` / `input=numeric`; the program prints grids in any layout the readers accept
  ('#' lines are comments), several for --limit 2 or 0, or the word UNSAT or UNKNOWN;
- `{cnf}` DIMACS CNF (`encoding=minimal|extended`), `{opb}` OPB: SAT-competition output
  ('s SATISFIABLE', 'v' lines, exit status 10 or 20); `{out}` names a file the program writes
  its answer to instead (MiniSat's result file);
- `{xcsp3}` an XCSP3 instance: XCSP3-competition output ('s SATISFIABLE', 'v <instantiation>');
- `{mzn}` a MiniZinc model with its data, or with `{dzn}` the model and the data apart; `{fzn}`
  FlatZinc compiled by `minizinc -c` (`flatten=` the solver whose library it uses, `std` for
  MiniZinc's own): MiniZinc output ('----------', '==========', '=====UNSATISFIABLE=====').

Those files come from sudokucp.io.exporters, as `sudoku-cp export` writes them. For a second
solution (--limit 2, or 0 for all) the program runs again on the file with the grids found ruled
out, until it answers UNSAT (the count is then exact) or the limit is reached.

A grid is a claim, not a proof: the judge checks it. Output that cannot be read (garbage,
nothing, a partial model) is an error naming why; so is a crash, with the last line of its
standard error. At the deadline the program's process group is killed (status TIMEOUT); the
program dies with the worker that started it, whatever kills it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from sudokucp.backends.base import (
    PROGRAM_PEAK,
    TIMED_OUT,
    Backend,
    OptionError,
    SearchOutcome,
)
from sudokucp.backends.command.process import Ran, exit_words, last_line, run, tail
from sudokucp.clock import expired
from sudokucp.encodings.cnf import ENCODINGS
from sudokucp.io.exporters import (
    Answer,
    DecodeError,
    decode,
    export,
    solver_stats,
    to_model,
    warm,
)
from sudokucp.io.formats import WRITERS
from sudokucp.io.tokens import cells_of
from sudokucp.puzzle import Grid, Puzzle, PuzzleError, Shape

GRID = "grid"
PLACEHOLDERS = {"{file}": GRID, "{cnf}": "dimacs", "{opb}": "opb", "{xcsp3}": "xcsp3",
                "{mzn}": "mzn", "{dzn}": "dzn", "{fzn}": "fzn"}
FILES = {"{file}": "puzzle.txt", "{cnf}": "puzzle.cnf", "{opb}": "puzzle.opb",
         "{xcsp3}": "puzzle.xml", "{mzn}": "puzzle.mzn", "{dzn}": "puzzle.dzn",
         "{fzn}": "puzzle.fzn", "{out}": "answer.txt"}
OUT = "{out}"
COMMENTS = {GRID: "#", "dimacs": "c", "opb": "c", "xcsp3": "c"}  # lines kept only at the end
WORDS = {"UNSAT": True, "UNSATISFIABLE": True, "UNKNOWN": False}  # word -> complete
NORMAL_EXITS = (0, 10, 20)  # success, and the SAT competition's SAT and UNSAT
SUMMED = ("conflicts", "decisions", "propagations", "restarts", "nodes", "failures",
          "wrong_decisions", "solver_s")


def format_of(argv: list[str]) -> str:
    """The format the placeholders of a command line ask for (grid when none)."""
    named = {PLACEHOLDERS[p] for p in PLACEHOLDERS if any(p in arg for arg in argv)}
    if "dzn" in named:
        if "mzn" not in named:
            raise OptionError("{dzn} is data for a model: name the model's place with {mzn} "
                              "too (minizinc {mzn} {dzn})")
        named.discard("mzn")
    if len(named) > 1:
        raise OptionError(f"one format per command line, not {', '.join(sorted(named))}")
    return named.pop() if named else GRID


class Command(Backend):
    """An external program per puzzle: its standard output is read back and judged."""

    name = "command"
    description = ("any external solver, run per puzzle: command:run=./mysolver {file}, or on a "
                   "standard format: command:run=cadical {cnf} ({opb} {xcsp3} {mzn} {dzn} {fzn})")
    defaults = {"run": "", "input": "line", "encoding": "extended", "flatten": "gecode"}
    counting = ("grows with the count: the program's output is kept, but for the last thousand "
                "comment lines")
    stats_keys = ("exit_code", "cpu_s")
    choices = {"input": tuple(WRITERS), "encoding": ENCODINGS}
    complete = False  # a printed grid proves no count; UNSAT is the program's claim

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.argv = self._argv()
        self.format = format_of(self.argv)

    def _argv(self) -> list[str]:
        """The command line to run, placeholders still in it."""
        if not self.options["run"].strip():
            raise OptionError("backend 'command' needs the program to run: "
                              "command:run=./mysolver {file} (see `sudoku-cp backends`)")
        try:
            return shlex.split(self.options["run"])
        except ValueError as err:
            raise OptionError(f"cannot split run={self.options['run']!r}: {err}") from None

    def _prepare(self, shape: Shape) -> None:
        """The exporter's tables for the shape (the CNF's clauses, the MiniZinc model)."""
        if self.format != GRID:
            warm(shape, self.format, self.options.get("encoding", "extended"))

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        if self.format == GRID:
            return self._search_grid(puzzle, limit, deadline)
        return self._search_format(puzzle, limit, deadline)

    # --- a grid in, grids out -----------------------------------------------------------------

    def _search_grid(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        text = WRITERS[self.options["input"]](puzzle.shape, puzzle.cells) + "\n"
        with TemporaryDirectory(prefix="sudokucp-") as folder:
            argv, stdin = self._grid_arguments(text, Path(folder))
            ran = run(argv, stdin, deadline, COMMENTS[GRID])
        stats = {"exit_code": float(ran.code), "cpu_s": ran.cpu, PROGRAM_PEAK: float(ran.peak_kb)}
        if ran.timed_out:
            return [], False, {**stats, TIMED_OUT: 1}
        return (*read_answer(ran.out, ran.err, ran.code, puzzle.shape, limit), stats)

    def _grid_arguments(self, text: str, folder: Path) -> tuple[list[str], str | None]:
        """The command line with {file} replaced, and what goes to standard input."""
        if not any("{file}" in arg for arg in self.argv):
            return list(self.argv), text
        path = folder / FILES["{file}"]
        path.write_text(text, encoding="utf-8")
        return [arg.replace("{file}", str(path)) for arg in self.argv], None

    # --- a standard format in, a model out ------------------------------------------------------

    def _search_format(self, puzzle: Puzzle, limit: int, deadline: float | None
                       ) -> SearchOutcome:
        """Run the program, rule out what it found, run it again, up to the limit or its UNSAT."""
        found, stats = self.collector(), {"exit_code": 0.0, "cpu_s": 0.0, "calls": 0.0,
                                          "encode_s": 0.0}
        blocked: list[Grid] = []
        while True:
            if expired(deadline):
                return found, False, {**stats, TIMED_OUT: 1}
            answer = self._call(puzzle, blocked, deadline, stats,
                                self._count_args(limit - len(found) if limit else 0))
            if answer is None:
                return found, False, {**stats, TIMED_OUT: 1}
            if answer.verdict != "SAT":
                return found, answer.verdict == "UNSAT", stats
            new = [grid for grid in answer.grids if grid not in blocked]
            if not new:
                raise RuntimeError("the program printed again a grid the file rules out: its "
                                   "model breaks the instance")
            for grid in new[:limit - len(found) if limit else None]:
                found.append(grid)
                blocked.append(grid)
            full = all(puzzle.cells)  # no blank: the grid itself is the only candidate
            if answer.complete or full or (limit and len(found) >= limit):
                return found, answer.complete or full, stats

    def _count_args(self, wanted: int) -> list[str]:
        """Arguments asking the program for `wanted` more solutions (0: all); none by default:
        the program is run again with the grids found ruled out."""
        return []

    def _call(self, puzzle: Puzzle, blocked: list[Grid], deadline: float | None,
              stats: dict[str, float], extra: list[str]) -> Answer | None:
        """One run of the program on the puzzle with `blocked` ruled out (and `extra`
        arguments): its answer, or None when the deadline killed it."""
        with TemporaryDirectory(prefix="sudokucp-") as scratch:
            folder = Path(scratch)
            start = time.perf_counter()
            try:
                self._write(puzzle, blocked, folder, deadline)
            except subprocess.TimeoutExpired:  # `minizinc -c` still compiling at the deadline
                return None
            finally:
                stats["encode_s"] += time.perf_counter() - start
            argv = [_filled(arg, folder) for arg in self.argv] + extra
            ran = run(argv, None, deadline, COMMENTS.get(self.format))
            answer_file = folder / FILES[OUT]
            output = answer_file.read_text(errors="replace") if (
                any(OUT in arg for arg in self.argv) and answer_file.is_file()) else ran.out
        stats["exit_code"] = float(ran.code)
        stats["cpu_s"] += ran.cpu
        stats[PROGRAM_PEAK] = max(stats.get(PROGRAM_PEAK, 0.0), float(ran.peak_kb))
        stats["calls"] += 1
        if ran.timed_out:
            return None
        answer = self._read(output, ran, puzzle.shape)
        said = answer.stats if output is ran.out else solver_stats(f"{ran.out}\n{ran.err}")
        for key, value in said.items():
            stats[key] = stats.get(key, 0.0) + value if key in SUMMED else value
        return answer

    def _write(self, puzzle: Puzzle, blocked: list[Grid], folder: Path,
               deadline: float | None) -> None:
        """The files the command line names, for this puzzle and these blocked grids."""
        fmt = self.format
        if fmt == "dzn":
            model = to_model((), puzzle.side, blocked)  # the .dzn holds the header
            (folder / FILES["{mzn}"]).write_text(model, encoding="utf-8")
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
        text = export(puzzle, fmt, encoding=self.options.get("encoding", "extended"),
                      blocked=blocked, solver=self.options.get("flatten", "gecode"), timeout=left)
        place = next(p for p, f in PLACEHOLDERS.items() if f == fmt)
        (folder / FILES[place]).write_text(text, encoding="utf-8")

    def _read(self, output: str, ran: Ran, shape: Shape) -> Answer:
        """The program's answer; a crash or output that cannot be read is a RuntimeError."""
        if ran.code not in NORMAL_EXITS:
            raise RuntimeError(f"the program ended with {exit_words(ran.code)}"
                               f"{last_line(ran.err)}")
        try:
            return decode(output, self.format, shape, ran.code)
        except DecodeError as err:
            raise RuntimeError(f"cannot read its {self.format} output: {err}"
                               f"{last_line(ran.err)}") from None


def _filled(arg: str, folder: Path) -> str:
    """An argument with every placeholder replaced by its file's path."""
    for place, name in FILES.items():
        arg = arg.replace(place, str(folder / name))
    return arg


def read_answer(out: str, err: str, code: int, shape: Shape, limit: int
                ) -> tuple[list[Grid], bool]:
    """(grids, complete) from a program's output: grids, or the word UNSAT or UNKNOWN."""
    words = out.split()
    if len(words) == 1 and words[0].upper() in WORDS:
        return [], WORDS[words[0].upper()]
    try:
        grids = read_grids(out, shape)
    except PuzzleError as problem:
        why = f"exit status {code}: " if code else ""
        raise RuntimeError(f"{why}cannot read its output: {problem}{tail(err)}") from None
    if not grids:
        raise RuntimeError(f"exit status {code}, no grid nor UNSAT/UNKNOWN on standard "
                           f"output{tail(err)}")
    grids = list(dict.fromkeys(grids))  # a grid printed twice is one solution
    return grids[:limit] if limit else grids, False


def read_grids(text: str, shape: Shape) -> list[Grid]:
    """Every grid of `shape` in a text, row by row in any layout; no check that they solve
    anything (the judge's work), so a wrong answer is read as written."""
    values: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip().startswith("#"):
            values.extend(cell[0] for cell in cells_of(line, number))
    if len(values) % shape.cells:
        raise PuzzleError(f"{len(values)} cells, not a whole number of {shape} grids "
                          f"({shape.cells} cells each)")
    top = max(values, default=0)
    if top > shape.side:
        raise PuzzleError(f"value {top} is larger than {shape.side}, the largest digit of a "
                          f"{shape} grid")
    return [tuple(values[k:k + shape.cells]) for k in range(0, len(values), shape.cells)]


def missing_program(backend: Backend) -> str | None:
    """Why a command backend's program cannot start here (not on PATH, or not an executable
    file); None when it can, and for every other backend."""
    if not isinstance(backend, Command) or not backend.argv or "{" in backend.argv[0]:
        return None
    program = backend.argv[0]
    if os.sep in program:
        if os.path.isfile(program) and os.access(program, os.X_OK):
            return None
        return f"the program {program!r} is not an executable file"
    return None if shutil.which(program) else f"the program {program!r} is not on PATH"
