"""The rate command: techniques needed, guesses and QQWing's class per puzzle."""

from __future__ import annotations

import argparse

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    BadEntries,
    read_entries,
    shape_arg,
)


def add_rate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rate", help="rate puzzles: techniques needed, guesses, QQWing class",
                       description="Rate every puzzle of FILE: givens, whether logic alone solves "
                                   "it, the hardest technique, counts per technique, the hybrid's "
                                   "guesses and a class (simple, easy, intermediate, expert) by "
                                   "QQWing's rules. Exit status 2 on unreadable entries.")
    p.add_argument("file", nargs="?", default="-", help="puzzle file, or - for standard input")
    p.add_argument("--format", choices=("table", "csv"), default="table",
                   help="an aligned table with a class count (default), or CSV")
    p.add_argument("--shape", type=shape_arg, help="grid shape when the cell count is ambiguous")
    p.add_argument("--no-guesses", action="store_true",
                   help="skip the hybrid run (the guesses column stays empty)")
    p.set_defaults(handler=run_rate)


def run_rate(args: argparse.Namespace) -> int:
    from sudokucp import rating

    ratings, bad, code = [], BadEntries(args.file), EXIT_OK
    for entry in read_entries(args.file, args.shape):
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
