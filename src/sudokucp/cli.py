"""The command line: solve, check, backends (and the commands other modules add)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from itertools import chain

from sudokucp.backends import (
    ALIASES,
    BACKENDS,
    BackendUnavailable,
    OptionError,
    UnknownBackend,
    backend_class,
    from_spec,
)
from sudokucp.check import explain
from sudokucp.executors import EXECUTORS
from sudokucp.formats import WRITERS, DuplicateGiven, Entry, iter_entries
from sudokucp.puzzle import Puzzle, PuzzleError, Shape, to_line
from sudokucp.result import Result, Status

EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE = 0, 1, 2
USER_ERRORS = (PuzzleError, UnknownBackend, BackendUnavailable, OptionError)


class CommandError(Exception):
    """A usage problem the command reports in one line before exiting with status 2."""


def fail(message: str) -> None:
    """Report one problem on standard error."""
    print(f"sudoku-cp: {message}", file=sys.stderr)


def _shape(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except PuzzleError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be positive")
    return value


MAX_SHOWN = 10  # unreadable entries of a file reported in full; the others are counted


def _label(source: str) -> str:
    return "stdin" if source == "-" else source


def _entries(source: str, shape: Shape | None) -> Iterator[Entry]:
    """Puzzle entries of a file as they are read; no file, or no entry in it, is a usage error."""
    found = False
    for entry in iter_entries(source, shape=shape):
        found = True
        yield entry
    if not found:
        raise CommandError(f"{_label(source)}: no puzzle found")


def _with_many(entries: Iterator[Entry]) -> tuple[Iterator[Entry], bool]:
    """The same entries, and whether there is more than one (two are read ahead, no more)."""
    first = next(entries)
    second = next(entries, None)
    return chain([first] if second is None else [first, second], entries), second is not None


def _report_bad(source: str, entry: Entry) -> None:
    fail(f"{_label(source)}: {entry.error}")


class BadEntries:
    """Unreadable entries of a file: the first MAX_SHOWN in full, then a line counting the rest."""

    def __init__(self, source: str) -> None:
        self.source, self.count = source, 0

    def report(self, entry: Entry) -> None:
        self.count += 1
        if self.count <= MAX_SHOWN:
            _report_bad(self.source, entry)

    def finish(self) -> None:
        if self.count > MAX_SHOWN:
            fail(f"{_label(self.source)}: {self.count - MAX_SHOWN} more unreadable entries not "
                 f"shown ({self.count} in all)")


# --- solve -----------------------------------------------------------------------------------

def _add_solve(sub: argparse._SubParsersAction) -> None:
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
    p.add_argument("--timeout", type=_positive, metavar="S", help="seconds per grid")
    p.add_argument("--shape", type=_shape, help="grid shape when the cell count is ambiguous: "
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
    """'SOLVED  1 solution  0.0123 s  nodes=40 backtracks=3'."""
    stats = " ".join(f"{k}={_number(v)}" for k, v in result.stats.items())
    parts = [result.status.name, result.describe_count(), f"{result.seconds:.4f} s", stats]
    if result.error:
        parts.append(result.error)
    return "  ".join(p for p in parts if p)


def _number(value: object) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4g}"
    return str(int(value)) if isinstance(value, float) else str(value)


def show_json(puzzle: Puzzle, result: Result, count_only: bool, many: bool) -> None:
    """One JSON object per grid: the puzzle line and the whole result."""
    print(json.dumps({"puzzle": puzzle.to_line(), **result.to_dict()}))


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


def run_solve(args: argparse.Namespace) -> int:
    backend = from_spec(args.backend)
    limit = _limit(args)
    entries, many = _with_many(_entries(args.file, args.shape))
    bad, code = BadEntries(args.file), EXIT_OK
    for entry in entries:
        if entry.error is not None:
            bad.report(entry)
            code = EXIT_USAGE
            continue
        result = backend.solve(entry.puzzle, limit=limit, time_limit=args.timeout)
        DISPLAYS[args.format](entry.puzzle, result, args.count, many)
        sys.stdout.flush()
        if result.status is not Status.SOLVED and code == EXIT_OK:
            code = EXIT_UNSOLVED
    bad.finish()
    return code


# --- check -----------------------------------------------------------------------------------

def _add_check(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="judge filled grids: complete, no digit twice in a unit",
                       description="Judge every filled grid of FILE. Exit status: 0 all valid, "
                                   "1 some invalid, 2 unreadable input.")
    p.add_argument("file", nargs="?", default="-", help="file of filled grids, or -")
    p.add_argument("--shape", type=_shape, help="grid shape when the cell count is ambiguous")
    p.set_defaults(handler=run_check)


def _problems(puzzle: Puzzle) -> list[str]:
    """What keeps a filled grid from being a solution: empty cells, or digits twice in a unit."""
    empty = puzzle.shape.cells - puzzle.givens
    return [f"{empty} empty cells"] if empty else explain(puzzle, puzzle.cells)


def run_check(args: argparse.Namespace) -> int:
    bad, code = BadEntries(args.file), EXIT_OK
    for entry in _entries(args.file, args.shape):
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

def _add_backends(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("backends", help="list every backend: availability, version, options",
                       description="List every backend with availability, package version, "
                                   "options and a one-line description.")
    p.set_defaults(handler=run_backends)


def run_backends(args: argparse.Namespace) -> int:
    rows = [("name", "available", "version", "options", "description")]
    for name in BACKENDS:
        try:
            cls = backend_class(name)
        except ImportError as err:
            rows.append((name, "no", "-", "-", f"cannot load: {err}"))
            continue
        ok = cls.available()
        where = "yes" if ok else f"no: pip install 'sudoku-cp[{cls.extra}]'"
        options = " ".join(f"{k}={v}" for k, v in cls.defaults.items()) or "-"
        rows.append((name, where, cls.version(), options, cls.description))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  " + row[4])
    aliases = ", ".join(f"{a} -> {n}" for a, n in sorted(ALIASES.items()))
    print(f"\naliases: {aliases}")
    return EXIT_OK


# --- bench -----------------------------------------------------------------------------------

def _add_bench(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="compare backends on puzzle files: isolated runs, checked "
                                     "answers, CSV tables, a cactus plot",
                       description="Run every backend on every puzzle in isolated worker "
                                   "processes with hard limits, check every answer, "
                                   "cross-validate the backends and write results.jsonl, "
                                   "results.csv, summary.csv, cactus.png and summary.md to OUT "
                                   "(one bench at a time per folder). "
                                   "Exit status: 0 all agree, 1 wrong answers or disagreements, "
                                   "2 bad input, an OUT that is in use or cannot be written, or "
                                   "--resume with other settings; 130 on Ctrl-C, 143 on SIGTERM "
                                   "(every finished run kept).")
    p.add_argument("--backends", nargs="+", required=True, metavar="SPEC",
                   help="backend specs, comma- or space-separated, with options "
                        "(mrv:order=static, cpsat:workers=2), or 'all'")
    p.add_argument("--puzzles", nargs="+", required=True, metavar="FILE", help="puzzle files")
    p.add_argument("--limit", type=int, choices=(0, 1, 2), default=1,
                   help="solutions to look for: 1 (default), 2 (uniqueness) or 0 (all)")
    p.add_argument("--timeout", type=_positive, default=10.0, metavar="S",
                   help="seconds per run (default 10); the worker is killed shortly after")
    p.add_argument("--jobs", type=int, default=1, metavar="J",
                   help="runs in parallel, capped by the cores (a CP-SAT run counts its workers)")
    p.add_argument("--out", default="bench-out", metavar="DIR",
                   help="output folder, made with its parents if missing (default bench-out)")
    p.add_argument("--resume", action="store_true",
                   help="skip the runs already in DIR/results.jsonl (otherwise it is replaced); "
                        "refused when they were made with another --limit, --timeout, --memory "
                        "or backend version")
    p.add_argument("--retry", type=_statuses, default=frozenset(), metavar="STATUS,...",
                   help="with --resume: run again the finished runs that ended so, e.g. "
                        "crash,timeout (statuses: " + ", ".join(s.value for s in Status) + ")")
    p.add_argument("--seed", type=int, metavar="S", help="shuffle the puzzle order with this seed")
    p.add_argument("--memory", type=int, default=4096, metavar="MB",
                   help="address-space cap per worker (default 4096; 0 = none)")
    p.add_argument("--max-puzzles", type=int, metavar="K", help="the first K puzzles of each file")
    p.add_argument("--executor", choices=list(EXECUTORS), default="local",
                   help="where the runs execute (default local: worker processes here)")
    p.add_argument("--no-fail-on-disagreement", dest="fail_on_disagreement",
                   action="store_false", help="exit 0 even when answers are wrong or disagree")
    p.set_defaults(handler=run_bench)


def _statuses(text: str) -> frozenset[Status]:
    """'crash,timeout' as statuses; plural and past forms (crashes, crashed) read the same."""
    names = {status.value: status for status in Status}
    found = set()
    for word in filter(None, (w.strip().lower() for w in text.split(","))):
        forms = (word, word.removesuffix("es"), word.removesuffix("s"), word.removesuffix("ed"))
        name = next((form for form in forms if form in names), None)
        if name is None:
            raise argparse.ArgumentTypeError(f"{word!r} is not a status; choose from "
                                             f"{', '.join(names)}")
        found.add(names[name])
    return frozenset(found)


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[list[int]]:
    """While the block runs, SIGINT and SIGTERM raise KeyboardInterrupt (once: a second signal
    does not cut the clean-up short); yields the list of signals received."""
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        if len(received) == 1:
            raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield received
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _stopped(received: list[int]) -> int:
    """Say which signal stopped the bench; exit status 128 + its number (130, 143)."""
    signum = received[0] if received else signal.SIGINT
    fail(f"interrupted by {signal.Signals(signum).name}; every finished run is kept "
         f"(use --resume to go on)")
    return 128 + signum


def run_bench(args: argparse.Namespace) -> int:
    from pathlib import Path

    from sudokucp.executors.local import usable_cores
    from sudokucp.harness import BenchConfig, BenchError, bench
    from sudokucp.progress import Progress

    if args.retry and not args.resume:
        raise CommandError("--retry runs again some runs of an earlier bench: add --resume")
    if args.jobs > usable_cores():
        fail(f"--jobs {args.jobs} exceeds the {usable_cores()} usable cores: using "
             f"{usable_cores()}")
    specs = [s for item in args.backends for s in item.split(",") if s.strip()]
    command = shlex.join(["sudoku-cp", *args.argv]) if getattr(args, "argv", None) else None
    config = BenchConfig(specs, args.puzzles, Path(args.out), args.limit, args.timeout,
                         max(1, args.jobs), args.resume, args.seed, args.memory or None,
                         args.max_puzzles, args.executor, args.retry, command)
    progress: list[Progress] = []
    with _stopped_by_signals() as received:
        try:
            outcome = bench(config, on_row=lambda row: progress[0](row),
                            on_plan=lambda total: progress.append(Progress(total)))
        except BenchError as err:
            raise CommandError(str(err)) from None
        except KeyboardInterrupt:  # before the runs began, or while the tables were written
            return _stopped(received)
    if progress:
        progress[0].finish()
    for problem in [*outcome.notes, *outcome.problems]:
        fail(problem)
    print(f"{outcome.ran} runs done, {outcome.skipped} already in {config.out / 'results.jsonl'}")
    for d in outcome.disagreements:
        print(f"DISAGREEMENT {d.puzzle} ({d.hash}): {d.message}")
    print("wrote " + ", ".join(str(p) for p in outcome.files))
    if outcome.interrupted:
        return _stopped(received)
    if outcome.disagreements and args.fail_on_disagreement:
        return EXIT_UNSOLVED
    return EXIT_USAGE if outcome.problems else EXIT_OK


# --- generate --------------------------------------------------------------------------------

GENERATE_COST = ("What one minimal puzzle costs (reports/generate.md, a shared 2-core machine): "
                 "9x9 a few hundredths of a second; 12x12 well under a second; 16x16 1 to 5 s "
                 "with the sat checker (10 to 50 s with the hybrid); 25x25 from a few minutes to "
                 "over half an hour with sat. Progress shows on a terminal. --givens stops early "
                 "and is far cheaper on large shapes (25x25 at 375 givens: about a second).")


def _add_generate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="make puzzles with one solution, any shape",
                       description="Make COUNT puzzles with exactly one solution: a random full "
                                   "grid, then clues removed while a complete backend at limit 2 "
                                   "still finds one solution. The same seed gives the same "
                                   "puzzles. " + GENERATE_COST)
    p.add_argument("--shape", type=_shape, default=Shape(3, 3), help="9x9 (default), 6x6, 16x16, "
                                                                      "or box 2x3")
    p.add_argument("--count", type=int, default=1, metavar="K", help="puzzles to make (1)")
    p.add_argument("--seed", default="0", metavar="S", help="seed of every random choice (0)")
    how_far = p.add_mutually_exclusive_group()
    how_far.add_argument("--minimal", action="store_true",
                         help="try every clue once: no clue left can go (the default)")
    how_far.add_argument("--givens", type=int, metavar="G",
                         help="stop at G givens (G-1 with --symmetric pairs), not minimal; says "
                              "so when G cannot be reached")
    p.add_argument("--symmetric", action="store_true",
                   help="remove cells in 180-degree rotationally symmetric pairs")
    p.add_argument("--difficulty", choices=("simple", "easy", "intermediate", "expert"),
                   help="keep only puzzles that `sudoku-cp rate` puts in this class")
    p.add_argument("--tries", type=int, metavar="T",
                   help="with --difficulty: puzzles to make at most (100 per puzzle asked)")
    p.add_argument("-b", "--backend", help="uniqueness checker (default: hybrid up to 12x12, sat "
                                           "from 16x16, the next that works otherwise)")
    p.add_argument("-o", "--out", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(handler=run_generate)


def run_generate(args: argparse.Namespace) -> int:
    from sudokucp import generator

    if args.count < 1:
        raise CommandError("--count must be at least 1")
    try:
        backend = from_spec(args.backend) if args.backend else generator.checker(args.shape)
    except generator.GenerateError as err:
        raise CommandError(str(err)) from None
    options = {"givens": args.givens, "symmetric": args.symmetric,
               "difficulty": args.difficulty, "tries": args.tries}
    lines = generator.header(args.shape, args.count, args.seed, backend, **options)
    progress = _progress(args.count) if sys.stderr.isatty() else None
    code = EXIT_OK
    with _output(args.out) as out:
        out.write("\n".join(lines) + "\n")
        try:
            for made in generator.generate(args.shape, args.count, args.seed, backend=backend,
                                           progress=progress, **options):
                out.write(made.puzzle.to_line() + "\n")
                out.flush()
                if args.givens is not None and made.puzzle.givens > args.givens:
                    fail(f"puzzle {made.seed}: {args.givens} givens cannot be reached, "
                         f"stopped at {made.puzzle.givens} (minimal)")
        except generator.GenerateError as err:
            fail(str(err))
            code = EXIT_UNSOLVED
    if progress is not None:
        print(file=sys.stderr)
    return code


def _progress(count: int):
    """A progress line on standard error, redrawn in place."""
    def show(index: int, done: int, total: int, givens: int) -> None:
        print(f"\rpuzzle {index + 1}/{count}: clue {done}/{total}, {givens} givens   ",
              end="", file=sys.stderr, flush=True)
    return show


class _output:
    """Standard output, or FILE written under a temporary name and renamed when complete."""

    def __init__(self, path: str | None) -> None:
        self.path = path

    def __enter__(self):
        if self.path is None:
            return sys.stdout
        self.temp = f"{self.path}.tmp"
        self.file = open(self.temp, "w", encoding="utf-8")  # noqa: SIM115
        return self.file

    def __exit__(self, kind, value, traceback) -> None:
        if self.path is None:
            return
        self.file.close()
        if kind is None:
            os.replace(self.temp, self.path)
        else:
            os.unlink(self.temp)


# --- rate ------------------------------------------------------------------------------------

def _add_rate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rate", help="rate puzzles: techniques needed, guesses, QQWing class",
                       description="Rate every puzzle of FILE: givens, whether logic alone solves "
                                   "it, the hardest technique, counts per technique, the hybrid's "
                                   "guesses and a class (simple, easy, intermediate, expert) by "
                                   "QQWing's rules. Exit status 2 on unreadable entries.")
    p.add_argument("file", nargs="?", default="-", help="puzzle file, or - for standard input")
    p.add_argument("--format", choices=("table", "csv"), default="table",
                   help="an aligned table with a class count (default), or CSV")
    p.add_argument("--shape", type=_shape, help="grid shape when the cell count is ambiguous")
    p.add_argument("--no-guesses", action="store_true",
                   help="skip the hybrid run (the guesses column stays empty)")
    p.set_defaults(handler=run_rate)


def run_rate(args: argparse.Namespace) -> int:
    from sudokucp import rating

    ratings, bad, code = [], BadEntries(args.file), EXIT_OK
    for entry in _entries(args.file, args.shape):
        if entry.error is not None:
            bad.report(entry)
            code = EXIT_USAGE
            continue
        ratings.append(rating.rate(entry.puzzle, guesses=not args.no_guesses))
    bad.finish()
    if not ratings:
        return code
    if args.format == "csv":
        print(rating.to_csv(ratings), end="")
    else:
        print(rating.to_table(ratings))
        print("\n" + ", ".join(f"{k} {v}" for k, v in rating.summarize(ratings).items()))
    return code


# --- entry point -----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="sudoku-cp",
        description="Solve Sudoku grids of any shape with interchangeable backends and compare "
                    "them.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in COMMANDS:
        add(sub)
    return parser


COMMANDS = [_add_solve, _add_check, _add_backends, _add_bench, _add_generate, _add_rate]


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; bad input gets a one-line message and exit status 2."""
    args = build_parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # as typed, for reports
    try:
        return args.handler(args)
    except (*USER_ERRORS, CommandError) as err:
        fail(str(err))
        return EXIT_USAGE
    except KeyboardInterrupt:
        fail("interrupted")
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
