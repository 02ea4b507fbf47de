"""The canon command: the minlex canonical form of each puzzle, or one puzzle per class."""

from __future__ import annotations

import argparse
import sys
import time

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    BadEntries,
    add_command,
    add_input,
    add_shape,
    end_quietly,
    fail,
    read_entries,
    seconds_arg,
)

TIMEOUT = 10.0  # seconds for one grid's form: 9x9 to 16x16 take milliseconds, some 25x25 hours
EVERY = 10.0  # seconds between two progress lines on standard error


def add_canon(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "canon", run_canon)
    add_input(p)
    p.add_argument("--dedupe", action="store_true",
                   help="instead, print the first puzzle of each class as it is in FILE, then "
                        "two spaces and how many puzzles of FILE are in that class")
    p.add_argument("--format", choices=("line", "grid", "numeric"), default="line",
                   help="how each form or puzzle is written: line (default, one per line), "
                        "grid or numeric (a blank line after each)")
    add_shape(p)
    p.add_argument("--timeout", type=seconds_arg, default=TIMEOUT, metavar="S",
                   help="seconds the search for one grid's form may take (wall clock)")


def run_canon(args: argparse.Namespace) -> int:
    """Print each form as it is found; with --dedupe, the classes at the end."""
    from sudokucp.io.formats import WRITERS
    from sudokucp.isomorph import canonical
    from sudokucp.puzzle import Puzzle

    def write(puzzle: Puzzle, cells: tuple[int, ...], tail: str = "") -> None:
        text = WRITERS[args.format](puzzle.shape, cells)
        print(text + tail if args.format == "line" else f"{text}{tail}\n", flush=True)

    bad, code = BadEntries(args.file), EXIT_OK
    classes: dict[tuple[int, ...], tuple[Puzzle, int]] = {}
    read, shown = 0, time.monotonic()
    try:
        for entry in read_entries(args.file, args.shape):
            read += 1
            if time.monotonic() - shown >= EVERY:
                print(f"canon: {read - 1} puzzles read, {len(classes)} classes", file=sys.stderr,
                      flush=True)
                shown = time.monotonic()
            if entry.puzzle is None:
                bad.report(entry)
                code = EXIT_USAGE
                continue
            try:
                form = canonical(entry.puzzle, timeout=args.timeout)
            except ValueError as err:  # a variant, or a search past --timeout
                fail(f"{args.file}: line {entry.line}: {err}")
                code = EXIT_USAGE
                continue
            if not args.dedupe:
                write(entry.puzzle, form)
            first, count = classes.get(form, (entry.puzzle, 0))
            classes[form] = (first, count + 1)
        bad.finish()
        if args.dedupe:
            for first, count in classes.values():
                write(first, first.cells, f"  {count}" if args.format == "line" else
                      f"\n# {count} in this class")
    except BrokenPipeError:
        return end_quietly()
    return code
