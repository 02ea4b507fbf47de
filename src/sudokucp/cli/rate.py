"""The rate command: techniques needed, guesses and QQWing's class per puzzle."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    BadEntries,
    add_command,
    add_input,
    add_shape,
    end_quietly,
    read_entries,
)

if TYPE_CHECKING:
    from sudokucp.generators.rating import Rating


def add_rate(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "rate", run_rate)
    add_input(p)
    p.add_argument("--format", choices=("table", "csv"), default="table",
                   help="an aligned table with a class count (default), or CSV")
    add_shape(p)
    p.add_argument("--no-guesses", action="store_true",
                   help="skip the hybrid run (the guesses column stays empty)")


def run_rate(args: argparse.Namespace) -> int:
    """Rate each puzzle and print its line at once; the class count at the end (table)."""
    from sudokucp.generators import rating

    state = Rated(BadEntries(args.file))
    lines = rating.csv_lines if args.format == "csv" else rating.table_lines
    try:
        for line in lines(state.ratings(args)):
            print(line, flush=True)
        state.bad.finish()
        if args.format == "table" and any(state.tally.values()):
            print("\n" + ", ".join(f"{k} {v}" for k, v in state.tally.items()))
    except BrokenPipeError:
        return end_quietly()
    return state.code


class Rated:
    """The ratings of a file as they come, with the class count and the exit status so far."""

    def __init__(self, bad: BadEntries) -> None:
        from sudokucp.generators.rating import CLASSES

        self.bad, self.code = bad, EXIT_OK
        self.tally = dict.fromkeys(CLASSES, 0)

    def ratings(self, args: argparse.Namespace) -> Iterator[Rating]:
        """Rate each readable entry as it is read; report the others."""
        from sudokucp.generators import rating

        for entry in read_entries(args.file, args.shape):
            if entry.error is not None:
                self.bad.report(entry)
                self.code = EXIT_USAGE
                continue
            rated = rating.rate(entry.puzzle, guesses=not args.no_guesses)
            self.tally[rated.klass] = self.tally.get(rated.klass, 0) + 1
            if rated.klass in rating.VERDICTS and self.code == EXIT_OK:
                self.code = EXIT_UNSOLVED  # no solution, or several: not a puzzle
            yield rated
