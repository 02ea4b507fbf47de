"""The command line: one module per command (solve and check; backends; bench; generate; rate),
this one builds the parser and runs a command. `python -m sudokucp` works too."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    USER_ERRORS,
    CommandError,
    HelpFormatter,
    Parser,
    fail,
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand, or with `only` alone (only its module imported)."""
    parser = Parser(
        prog="sudoku-cp", formatter_class=HelpFormatter,
        description="Solve Sudoku grids of any shape with interchangeable backends and compare "
                    "them.")
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, where in COMMANDS.items():
        if only in (None, name):
            adder(where)(sub)  # each command's parser is a Parser, with HelpFormatter
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


COMMANDS: dict[str, str] = {  # command -> the function of cli/<module>.py that adds its parser
    "solve": "solve:add_solve", "check": "solve:add_check", "backends": "backends:add_backends",
    "bench": "bench:add_bench", "generate": "generate:add_generate", "rate": "rate:add_rate",
    "datasets": "datasets:add_datasets", "explain": "explain:add_explain",
    "trace": "trace:add_trace", "ladder": "ladder:add_ladder", "report": "report:add_report",
    "compare": "compare:add_compare", "canon": "canon:add_canon",
    "export": "export:add_export", "decode": "export:add_decode"}


def adder(where: str) -> Callable[[argparse._SubParsersAction], None]:
    """The function named by a COMMANDS value, its module imported now."""
    module, _, function = where.partition(":")
    return getattr(importlib.import_module(f"sudokucp.cli.{module}"), function)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; bad input gets a one-line message and exit status 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
    from sudokucp.cli.progress import show_notices  # logging: not needed for --help

    show_notices()  # the library's one-off news (a first compile) on standard error
    args.argv = argv  # as typed, for reports
    try:
        code = args.handler(args)
    except (*USER_ERRORS, CommandError) as err:
        fail(str(err))
        return EXIT_USAGE
    except KeyboardInterrupt:
        fail("interrupted")
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    return afterwards(code)


def afterwards(code: int) -> int:
    """The work backends left for after the answers (jit's machine code for later runs), once
    the answers are out; the command's exit status, unchanged."""
    if "sudokucp.backends" in sys.modules:
        from sudokucp.backends import run_afterwards

        sys.stdout.flush()
        run_afterwards()
    return code


if __name__ == "__main__":
    sys.exit(main())
