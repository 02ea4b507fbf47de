"""Any external solver, run once per puzzle as BenchExec runs a tool: command:run=PROGRAM {file}.

The command line is split as a shell splits it (shlex) but runs without a shell. `{file}` stands
for a file holding the puzzle; without it the puzzle goes to standard input. The puzzle is written
one grid per line ('.' for blanks, letters from 10 on) or as `input=grid` / `input=numeric`
(rows of numbers, 0 for blanks). Standard output holds the answer: a grid in any layout the
readers accept (rows or one line; '#' lines are comments), several grids for --limit 2 or 0, or
the word UNSAT or UNKNOWN. Anything else belongs on standard error.

A grid is a claim, not a proof: the judge checks it, and only `UNSAT` claims completeness (the
other backends check it in cross-validation). At the deadline the program's process group is
killed (status TIMEOUT); the program dies with the worker that started it, whatever kills it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sudokucp.backends.base import TIMED_OUT, Backend, OptionError, SearchOutcome
from sudokucp.io.formats import WRITERS
from sudokucp.io.tokens import cells_of
from sudokucp.puzzle import Grid, Puzzle, PuzzleError, Shape

PLACEHOLDER = "{file}"
WORDS = {"UNSAT": True, "UNSATISFIABLE": True, "UNKNOWN": False}  # word -> complete
TAIL = 300  # characters of standard error quoted in an error
PR_SET_PDEATHSIG = 1  # linux/prctl.h
REAP = 5.0  # seconds to wait for the pipes of a killed program to close


class Command(Backend):
    """An external program per puzzle: its standard output is read back and judged."""

    name = "command"
    description = "any external solver, run per puzzle: command:run=./mysolver {file}"
    defaults = {"run": "", "input": "line"}
    counting = "grows with the count: the program's whole output is read when it ends"
    stats_keys = ("exit_code", "cpu_s")
    choices = {"input": tuple(WRITERS)}
    complete = False  # a printed grid proves no count; UNSAT is the program's claim

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        if not self.options["run"].strip():
            raise OptionError("backend 'command' needs the program to run: "
                              "command:run=./mysolver {file} (see `sudoku-cp backends`)")
        try:
            self.argv = shlex.split(self.options["run"])
        except ValueError as err:
            raise OptionError(f"cannot split run={self.options['run']!r}: {err}") from None

    def _search(self, puzzle: Puzzle, limit: int, deadline: float | None) -> SearchOutcome:
        text = WRITERS[self.options["input"]](puzzle.shape, puzzle.cells) + "\n"
        with tempfile.TemporaryDirectory(prefix="sudokucp-") as folder:
            argv, stdin = self._arguments(text, Path(folder))
            before = _children_cpu()
            out, err, code, timed_out = _run(argv, stdin, deadline)
        stats = {"exit_code": float(code), "cpu_s": _children_cpu() - before}
        if timed_out:
            return [], False, {**stats, TIMED_OUT: 1}
        return (*read_answer(out, err, code, puzzle.shape, limit), stats)

    def _arguments(self, text: str, folder: Path) -> tuple[list[str], str | None]:
        """The command line with {file} replaced, and what goes to standard input."""
        if not any(PLACEHOLDER in arg for arg in self.argv):
            return list(self.argv), text
        path = folder / "puzzle.txt"
        path.write_text(text, encoding="utf-8")
        return [arg.replace(PLACEHOLDER, str(path)) for arg in self.argv], None


def _run(argv: list[str], stdin: str | None, deadline: float | None
         ) -> tuple[str, str, int, bool]:
    """Run the program to its end or the deadline: (stdout, stderr, exit code, timed out)."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin is not None
                                else subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, preexec_fn=_own_group)
    except OSError as err:
        raise RuntimeError(f"cannot run {argv[0]!r}: {err.strerror or err}") from None
    timeout = None if deadline is None else max(deadline - time.perf_counter(), 0.0)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        return "", "", -signal.SIGKILL, True
    except BaseException:
        _kill(proc)
        raise
    with contextlib.suppress(ProcessLookupError):  # what it left running in its group
        os.killpg(proc.pid, signal.SIGKILL)
    return out, err, proc.returncode, False


def _own_group() -> None:
    """In the child: a process group of its own (killed whole at the deadline), and death with
    the worker that started it (Linux's parent-death signal)."""
    os.setpgid(0, 0)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _kill(proc: subprocess.Popen) -> None:
    """SIGKILL the program's whole process group, then reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    try:
        proc.communicate(timeout=REAP)
    except subprocess.TimeoutExpired:  # a descendant that left the group holds the pipes
        for pipe in (proc.stdout, proc.stderr):
            pipe.close()
        proc.wait()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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
        raise RuntimeError(f"{why}cannot read its output: {problem}{_tail(err)}") from None
    if not grids:
        raise RuntimeError(f"exit status {code}, no grid nor UNSAT/UNKNOWN on standard "
                           f"output{_tail(err)}")
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


def _tail(err: str) -> str:
    text = " ".join(err.split())
    return f"; stderr: ...{text[-TAIL:]}" if len(text) > TAIL else (
        f"; stderr: {text}" if text else "")
