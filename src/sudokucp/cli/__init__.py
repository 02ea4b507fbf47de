"""The command line: one module per command (solve, check and backends; bench; generate; rate),
this one builds the parser and runs a command. `python -m sudokucp` works too."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sudokucp.cli.bench import add_bench
from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    USER_ERRORS,
    CommandError,
    HelpFormatter,
    Parser,
    fail,
)
from sudokucp.cli.compare import add_compare
from sudokucp.cli.datasets import add_datasets
from sudokucp.cli.explain import add_explain
from sudokucp.cli.generate import add_generate
from sudokucp.cli.ladder import add_ladder
from sudokucp.cli.rate import add_rate
from sudokucp.cli.report import add_report
from sudokucp.cli.solve import add_backends, add_check, add_solve
from sudokucp.cli.trace import add_trace


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand."""
    parser = Parser(
        prog="sudoku-cp", formatter_class=HelpFormatter,
        description="Solve Sudoku grids of any shape with interchangeable backends and compare "
                    "them.")
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in COMMANDS:
        add(sub)  # each command's parser is a Parser, with HelpFormatter
    return parser


class VersionAction(argparse.Action):
    """--version: the installed version, looked up (importlib.metadata) only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {version()}")  # on standard output, as argparse's own
        parser.exit()


def version() -> str:
    """The installed distribution's version."""
    from importlib import metadata

    try:
        return metadata.version("sudoku-cp")
    except metadata.PackageNotFoundError:
        return "(not installed)"


COMMANDS = [add_solve, add_check, add_backends, add_bench, add_generate, add_rate, add_datasets,
            add_explain, add_trace, add_ladder, add_report, add_compare]


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; bad input gets a one-line message and exit status 2."""
    args = build_parser().parse_args(argv)
    from sudokucp.cli.progress import show_notices  # logging: not needed for --help

    show_notices()  # the library's one-off news (a first compile) on standard error
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
