"""The solve, check and backends commands; the table of displays behind solve --format."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator

from sudokucp.backends import (
    ALIASES,
    BACKENDS,
    WRAPPERS,
    backend_class,
    from_spec,
    unavailable_reason,
)
from sudokucp.backends.base import Backend
from sudokucp.check import explain
from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    BadEntries,
    CommandError,
    positive_arg,
    read_entries,
    require_cpu_limit,
    shape_arg,
    with_many,
)
from sudokucp.formats import WRITERS, DuplicateGiven
from sudokucp.puzzle import Puzzle, to_line
from sudokucp.result import Result, Status


def add_solve(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="solve the grids of a file with one backend",
                       description="Solve every grid of FILE (or standard input) with a backend. "
                                   "Exit status: 0 all solved, 1 some not solved, 2 bad input.")
    p.add_argument("file", nargs="?", default="-", help="puzzle file, or - for standard input")
    p.add_argument("-b", "--backend", default="naive",
                   help="backend name with options, e.g. naive or mrv:order=static "
                        "(see `sudoku-cp backends`)")
    how_many = p.add_mutually_exclusive_group()
    how_many.add_argument("--count", action="store_true",
                          help="count every solution, print only the count")
    how_many.add_argument("--all", action="store_true", help="print every solution")
    how_many.add_argument("--limit", type=int, metavar="K",
                          help="stop after K solutions (2 proves uniqueness)")
    p.add_argument("--timeout", type=positive_arg, metavar="S", help="seconds per grid")
    p.add_argument("--cpu-limit", type=positive_arg, metavar="S",
                   help="CPU seconds per grid (threads and child programs counted): the grid "
                        "is solved in a worker process, killed past it")
    p.add_argument("--shape", type=shape_arg, help="grid shape when the cell count is ambiguous: "
                                                 "6x6, 12x12, or box 2x3")
    p.add_argument("--format", choices=tuple(DISPLAYS), default="grid",
                   help="grid (default), line (one solution per line), numeric (rows of "
                        "numbers) or json (one object per grid)")
    p.set_defaults(handler=run_solve)


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


def show_json(puzzle: Puzzle, result: Result, count_only: bool, many: bool) -> None:
    """One JSON object per grid: the puzzle line and the whole result."""
    record = {"name": puzzle.name, "grid": puzzle.to_line(), **result.to_dict()}
    del record["puzzle"]  # the name, given above
    if count_only:
        del record["solutions"]
    print(json.dumps(record))


def show_lines(puzzle: Puzzle, result: Result, count_only: bool, many: bool) -> None:
    """One solution per line on standard output, the status line on standard error."""
    for solution in () if count_only else result.solutions:
        print(to_line(puzzle.shape, solution))
    print(f"# {puzzle.name}  {status_line(result)}" if many else f"# {status_line(result)}",
          file=sys.stderr)


def writer_display(name: str) -> Display:
    """A display that writes each solution with WRITERS[name], then the status line."""
    write = WRITERS[name]

    def show(puzzle: Puzzle, result: Result, count_only: bool, many: bool) -> None:
        if many:
            print(f"# {puzzle.name}")
        for solution in () if count_only else result.solutions:
            print(write(puzzle.shape, solution))
            print()
        print(status_line(result))
        if many:
            print()

    return show


Display = Callable[[Puzzle, Result, bool, bool], None]  # puzzle, result, count only, many grids
DISPLAYS: dict[str, Display] = {"grid": writer_display("grid"), "line": show_lines,
                                "numeric": writer_display("numeric"), "json": show_json}


Solver = Callable[[Puzzle, int, int | None], Result]  # puzzle, limit, solutions to keep


@contextlib.contextmanager
def solver_for(backend: Backend, timeout: float | None,
               cpu_limit: float | None = None) -> Iterator[Solver]:
    """The backend's solve in this process or, when it cannot look at the clock and a time limit
    is set, or a CPU limit is, in a worker process that is killed at the limit (as under
    bench)."""
    if cpu_limit is None and (backend.interruptible or timeout is None):
        yield lambda puzzle, limit, keep: backend.solve(puzzle, limit=limit, time_limit=timeout,
                                                        keep=keep)
        return
    from sudokucp.executors import ResourceLimits, Task, make_executor

    limits = ResourceLimits(time_limit=timeout, cores=backend.cores, cpu_limit=cpu_limit)
    with make_executor("local", jobs=1) as executor:

        def isolated(puzzle: Puzzle, limit: int, keep: int | None) -> Result:
            executor.submit(Task(puzzle.digest, backend.label, puzzle, limit, limits, keep=keep))
            return next(iter(executor.results())).result

        yield isolated


def run_solve(args: argparse.Namespace) -> int:
    backend = from_spec(args.backend)
    limit = _limit(args)
    entries, many = with_many(read_entries(args.file, args.shape))
    bad, code = BadEntries(args.file), EXIT_OK
    require_cpu_limit(args.cpu_limit)
    with solver_for(backend, args.timeout, args.cpu_limit) as solve:
        for entry in entries:
            if entry.error is not None:
                bad.report(entry)
                code = EXIT_USAGE
                continue
            result = solve(entry.puzzle, limit, 0 if args.count else None)
            code = _show(entry.puzzle, result, args, many, code)
    bad.finish()
    return code


def _show(puzzle: Puzzle, result: Result, args: argparse.Namespace, many: bool, code: int) -> int:
    """Display one result; the exit status after it."""
    DISPLAYS[args.format](puzzle, result, args.count, many)
    sys.stdout.flush()
    return EXIT_UNSOLVED if result.status is not Status.SOLVED and code == EXIT_OK else code


# --- check -----------------------------------------------------------------------------------

def add_check(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="judge filled grids: complete, no digit twice in a unit",
                       description="Judge every filled grid of FILE. Exit status: 0 all valid, "
                                   "1 some invalid, 2 unreadable input.")
    p.add_argument("file", nargs="?", default="-", help="file of filled grids, or -")
    p.add_argument("--shape", type=shape_arg, help="grid shape when the cell count is ambiguous")
    p.set_defaults(handler=run_check)


def _problems(puzzle: Puzzle) -> list[str]:
    """What keeps a filled grid from being a solution: empty cells, or digits twice in a unit."""
    empty = puzzle.shape.cells - puzzle.givens
    return [f"{empty} empty cells"] if empty else explain(puzzle, puzzle.cells)


def run_check(args: argparse.Namespace) -> int:
    bad, code = BadEntries(args.file), EXIT_OK
    for entry in read_entries(args.file, args.shape):
        if entry.error is not None and not isinstance(entry.error, DuplicateGiven):
            bad.report(entry)
            code = EXIT_USAGE
            continue
        name = entry.puzzle.name if entry.puzzle else f"line {entry.line}"
        problems = _problems(entry.puzzle) if entry.puzzle else [str(entry.error)]
        print(f"{'INVALID' if problems else 'VALID'}  {name}"
              + (f"  {'; '.join(problems)}" if problems else ""))
        sys.stdout.flush()
        if problems and code == EXIT_OK:
            code = EXIT_UNSOLVED
    bad.finish()
    return code


# --- backends --------------------------------------------------------------------------------

def add_backends(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("backends", help="list every backend: availability, version, options",
                       description="List every backend with availability, package version, "
                                   "options and a one-line description.")
    p.set_defaults(handler=run_backends)


def run_backends(args: argparse.Namespace) -> int:
    rows = [("name", "available", "version", "options", "description")]
    for name in [*BACKENDS, *WRAPPERS]:
        try:
            cls = backend_class(name)
        except ImportError as err:
            rows.append((name, "no", "-", "-", f"cannot load: {err}"))
            continue
        ok = cls.available()
        where = "yes" if ok else f"no: {unavailable_reason(cls)}"
        options = " ".join(f"{k}={v}" for k, v in cls.defaults.items()) or "-"
        rows.append((name, where, cls.version(), options, cls.description))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  " + row[4])
    aliases = ", ".join(f"{a} -> {n}" for a, n in sorted(ALIASES.items()))
    print(f"\naliases: {aliases}")
    return EXIT_OK
