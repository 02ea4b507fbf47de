"""The solve and check commands; the table of displays behind solve --format. The backends
command is in cli/backends.py."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from sudokucp.backends import from_spec
from sudokucp.backends.base import Backend, OnSolution
from sudokucp.check import explain, is_solution
from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    BadEntries,
    CommandError,
    OutputClosed,
    add_command,
    add_input,
    add_shape,
    count_arg,
    end_quietly,
    fail,
    memory_arg,
    puzzle_source,
    read_entries,
    require_cpu_limit,
    seconds_arg,
    shape_arg,
    signal_exit,
    stopped_by_signals,
    whole_arg,
    with_many,
)
from sudokucp.puzzle import Grid, Puzzle, to_line
from sudokucp.result import Result, Status

if TYPE_CHECKING:
    import random


def add_solve(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "solve", run_solve)
    add_input(p)
    p.add_argument("-b", "--backend", default="naive",
                   help="backend name with options, e.g. naive or mrv:order=static "
                        "(see `sudoku-cp backends`)")
    how_many = p.add_mutually_exclusive_group()
    how_many.add_argument("--count", action="store_true",
                          help="count every solution, print only the count (memory per "
                               "backend: `sudoku-cp backends`)")
    how_many.add_argument("--all", action="store_true",
                          help="print every solution as it is found")
    how_many.add_argument("--limit", type=count_arg, metavar="K",
                          help="stop after K solutions (2 proves uniqueness)")
    p.add_argument("--timeout", type=seconds_arg, metavar="S", help="seconds per grid")
    p.add_argument("--cpu-limit", type=seconds_arg, metavar="S",
                   help="CPU seconds per grid (threads and child programs counted): the grid "
                        "is solved in a worker process, killed past it")
    p.add_argument("--memory", type=memory_arg, metavar="MB",
                   help="address space per grid: the grid is solved in a worker process that "
                        "stops with MEMOUT at the cap (counting with a backend whose memory "
                        "grows with the count: see `sudoku-cp backends`)")
    p.add_argument("--shape", type=shape_arg, help="grid shape when the cell count is ambiguous: "
                                                 "6x6, 12x12, or box 2x3")
    p.add_argument("--format", choices=tuple(DISPLAYS), default="grid",
                   help="grid (default), line (one solution per line), numeric (rows of "
                        "numbers) or json (one object per grid)")
    p.add_argument("--isomorph", type=whole_arg, metavar="SEED",
                   help="search a random isomorph of each grid instead (digits relabelled; rows, "
                        "columns, bands and stacks reordered; transposed when the boxes are "
                        "square), drawn with SEED; its solutions are mapped back to the grid")


def _limit(args: argparse.Namespace) -> int:
    if args.count or args.all:
        return 0
    if args.limit is not None:
        if args.limit < 1:
            raise CommandError("--limit must be at least 1 (use --all for every solution)")
        return args.limit
    return 1


def status_line(result: Result) -> str:
    """'SOLVED  1 solution  0.0123 s  (CPU 0.0121 s)  nodes=40 backtracks=3'."""
    stats = " ".join(f"{k}={_number(v)}" for k, v in result.stats.items())
    cpu = f"(CPU {result.cpu:.4f} s)" if result.cpu is not None else ""
    parts = [result.status.name, result.describe_count(), f"{result.seconds:.4f} s", cpu, stats]
    if result.error:
        parts.append(result.error)
    return "  ".join(p for p in parts if p)


def _number(value: object) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4g}"
    return str(int(value)) if isinstance(value, float) else str(value)


class Display:
    """How solve shows one grid: a head, each solution as it is found, then the status line."""

    streams = True  # solutions shown as they come; False: gathered for one record at the end

    def __init__(self, count_only: bool, many: bool) -> None:
        self.count_only, self.many = count_only, many

    def head(self, puzzle: Puzzle) -> None:
        """What comes before the solutions of a grid."""

    def solution(self, puzzle: Puzzle, grid: Grid) -> None:
        """One solution, written and flushed at once; a closed output ends the command."""
        try:
            self.write(puzzle, grid)
            sys.stdout.flush()
        except BrokenPipeError:
            raise OutputClosed from None

    def write(self, puzzle: Puzzle, grid: Grid) -> None:
        """Print one solution."""

    def tail(self, puzzle: Puzzle, result: Result) -> None:
        """The status line after the solutions."""


class JsonDisplay(Display):
    """One JSON object per grid: the puzzle line and the whole result, solutions included."""

    streams = False

    def tail(self, puzzle: Puzzle, result: Result) -> None:
        import json

        record = {"name": puzzle.name, "grid": puzzle.to_line(), **result.to_dict()}
        del record["puzzle"]  # the name, given above
        if self.count_only:
            del record["solutions"]
        print(json.dumps(record))


class LineDisplay(Display):
    """One solution per line on standard output, the status line on standard error."""

    def write(self, puzzle: Puzzle, grid: Grid) -> None:
        print(to_line(puzzle.shape, grid))

    def tail(self, puzzle: Puzzle, result: Result) -> None:
        print(f"# {puzzle.name}  {status_line(result)}" if self.many
              else f"# {status_line(result)}", file=sys.stderr)


class WriterDisplay(Display):
    """Each solution written by WRITERS[name] and a blank line, then the status line."""

    def __init__(self, name: str, count_only: bool, many: bool) -> None:
        super().__init__(count_only, many)
        from sudokucp.io.formats import WRITERS

        self.writer = WRITERS[name]

    def head(self, puzzle: Puzzle) -> None:
        if self.many:
            print(f"# {puzzle.name}")

    def write(self, puzzle: Puzzle, grid: Grid) -> None:
        print(self.writer(puzzle.shape, grid))
        print()

    def tail(self, puzzle: Puzzle, result: Result) -> None:
        print(status_line(result))
        if self.many:
            print()


DISPLAYS: dict[str, Callable[[bool, bool], Display]] = {  # format -> (count only, many grids)
    "grid": partial(WriterDisplay, "grid"), "line": LineDisplay,
    "numeric": partial(WriterDisplay, "numeric"), "json": JsonDisplay}


COUNT_JUDGED = 1  # solutions a count keeps for the judge (none is shown)

# puzzle, limit, solutions to keep, where solutions stream (in this process only)
Solver = Callable[[Puzzle, int, int | None, OnSolution | None], Result]


@contextlib.contextmanager
def solver_for(backend: Backend, timeout: float | None, cpu_limit: float | None = None,
               memory_mb: int | None = None) -> Iterator[Solver]:
    """The backend's solve in this process, its solutions streamed, or, when it cannot look at
    the clock and a time limit is set, or a CPU or memory limit is, in a worker process that is
    killed at the limit (as under bench), its solutions returned at the end."""
    if cpu_limit is None and not memory_mb and (backend.interruptible or timeout is None):
        yield partial(_solve_here, backend, timeout)
        return
    from sudokucp.executors import ResourceLimits, Task, make_executor

    limits = ResourceLimits(time_limit=timeout, cores=backend.cores, cpu_limit=cpu_limit,
                            memory_mb=memory_mb or None)
    with make_executor("local", jobs=1) as executor:

        def isolated(puzzle: Puzzle, limit: int, keep: int | None,
                     on_solution: OnSolution | None) -> Result:
            executor.submit(Task(puzzle.digest, backend.label, puzzle, limit, limits, keep=keep))
            return next(iter(executor.results())).result

        yield isolated


def _solve_here(backend: Backend, timeout: float | None, puzzle: Puzzle, limit: int,
                keep: int | None, on_solution: OnSolution | None) -> Result:
    """Solve in this process, handing each solution to `on_solution` as it is found."""
    if on_solution is None:
        return backend.solve(puzzle, limit=limit, time_limit=timeout, keep=keep)
    with backend.streaming(on_solution):
        return backend.solve(puzzle, limit=limit, time_limit=timeout, keep=keep)


def run_solve(args: argparse.Namespace) -> int:
    """Solve every grid, printing each solution as it is found; a closed output ends quietly,
    a signal (SIGINT, SIGTERM, SIGHUP) ends every process the run started, then the command."""
    with stopped_by_signals() as received:
        try:
            return _solve_all(args)
        except (OutputClosed, BrokenPipeError):
            return end_quietly()
        except KeyboardInterrupt:
            return signal_exit(received)


def _solve_all(args: argparse.Namespace) -> int:
    backend = from_spec(args.backend)
    limit = _limit(args)
    batch = _line_batch(args, backend, limit)
    entries, many = with_many(batch.entries() if batch else read_entries(args.file, args.shape))
    bad, code = BadEntries(args.file), EXIT_OK
    require_cpu_limit(args.cpu_limit)
    display = DISPLAYS[args.format](args.count, many)
    rng = None if args.isomorph is None else _random(args.isomorph)
    with solver_for(backend, args.timeout, args.cpu_limit, args.memory) as solve:
        solve = batch.solver(solve) if batch else solve
        for entry in entries:
            if entry.error is not None:
                bad.report(entry)
                code = EXIT_USAGE
                continue
            result = _solve_one(solve, entry.puzzle, limit, args.count, display, rng)
            code = EXIT_UNSOLVED if result.status is not Status.SOLVED and code == EXIT_OK \
                else code
    bad.finish()
    return code


def _line_batch(args: argparse.Namespace, backend: Backend, limit: int) -> Any | None:
    """A file of one-line grids with no per-grid limit but the count, on a backend that reads
    and solves them in compiled batches (Backend.line_batch: jit), each result as solve() gives
    it; None for any other run."""
    if (args.file == "-" or args.timeout or args.cpu_limit
            or args.memory or args.isomorph is not None or args.all):
        return None
    return backend.line_batch(puzzle_source(args.file), args.shape, limit,
                              0 if args.count else None)


def _solve_one(solve: Solver, puzzle: Puzzle, limit: int, count_only: bool,
               display: Display, rng: random.Random | None = None) -> Result:
    """Solve and show one grid (a random isomorph of it with `rng`, mapped back): the solutions
    as they come (or at the end when they come back from a worker), each judged first (one the
    judge refuses is not shown and makes the grid WRONG), then its status line; a MEMOUT says
    how the cap was met."""
    from sudokucp.harness.runcheck import judged

    display.head(puzzle)
    stream = display.streams and not count_only
    searched, back = _form(puzzle, rng)
    refused: list[Grid] = []  # streamed solutions the judge refused, shown as WRONG instead

    def shown(grid: Grid) -> None:
        grid = back(grid)
        if is_solution(puzzle, grid):
            display.solution(puzzle, grid)
        elif not refused:
            refused.append(grid)

    result = solve(searched, limit, COUNT_JUDGED if count_only else None,
                   shown if stream else None)
    result = dataclasses.replace(result, solutions=tuple(map(back, result.solutions)))
    result = judged(puzzle, result, refused)
    for grid in result.solutions if display.streams and not count_only else ():
        display.solution(puzzle, grid)
    display.tail(puzzle, result)
    sys.stdout.flush()
    if result.status is Status.MEMOUT:
        fail(f"{puzzle.name}: out of memory at the --memory cap: raise it, or see how each "
             "backend's memory grows while counting in `sudoku-cp backends`")
    return result


def _random(seed: int) -> random.Random:
    import random

    return random.Random(seed)


def _form(puzzle: Puzzle, rng: random.Random | None) -> tuple[Puzzle, Callable[[Grid], Grid]]:
    """The grid to search (a random isomorph with `rng`) and the map of its solutions back."""
    if rng is None:
        return puzzle, tuple
    from sudokucp.isomorph import apply, invert, transform

    try:
        searched, form = transform(puzzle, rng)
    except ValueError as err:  # a variant
        raise CommandError(f"--isomorph: {err}") from None
    return searched, partial(apply, invert(form))


# --- check -----------------------------------------------------------------------------------

def add_check(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "check", run_check)
    p.add_argument("file", nargs="?", default="-", help="file of filled grids, or -")
    add_shape(p)


def _problems(puzzle: Puzzle) -> list[str]:
    """What keeps a filled grid from being a solution: empty cells, or digits twice in a unit."""
    empty = puzzle.shape.cells - puzzle.givens
    return [f"{empty} empty cells"] if empty else explain(puzzle, puzzle.cells)


def run_check(args: argparse.Namespace) -> int:
    from sudokucp.io.formats import DuplicateGiven

    bad, code = BadEntries(args.file), EXIT_OK
    for entry in read_entries(args.file, args.shape):
        if entry.error is not None and not isinstance(entry.error, DuplicateGiven):
            bad.report(entry)
            code = EXIT_USAGE
            continue
        name = entry.puzzle.name if entry.puzzle else ""  # a duplicate given names its place
        problems = _problems(entry.puzzle) if entry.puzzle else [str(entry.error)]
        verdict = "INVALID" if problems else "VALID"
        print("  ".join(part for part in (verdict, name, "; ".join(problems)) if part))
        sys.stdout.flush()
        if problems and code == EXIT_OK:
            code = EXIT_UNSOLVED
    bad.finish()
    return code
