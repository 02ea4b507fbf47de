"""What every command shares: exit codes, one-line errors, argument types, reading entries."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import signal
import sys
from collections.abc import Callable, Iterator
from importlib import resources
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import tomllib

from sudokucp.backends import (
    BackendUnavailable,
    OptionError,
    UnknownBackend,
)
from sudokucp.io import arguments
from sudokucp.puzzle import PuzzleError, Shape

if TYPE_CHECKING:
    from sudokucp.io.formats import Entry

EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE = 0, 1, 2
USER_ERRORS = (PuzzleError, UnknownBackend, BackendUnavailable, OptionError)


class CommandError(Exception):
    """A usage problem the command reports in one line before exiting with status 2."""


class OutputClosed(BaseException):
    """Standard output was closed by its reader (`| head`): unwinds a search, which would turn
    an Exception into an ERROR result, so that the command ends quietly."""


def end_quietly() -> int:
    """After standard output was closed: point it at /dev/null, so that nothing left in its
    buffer fails at exit, and exit with status 0."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_OK


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[list[int]]:
    """While the block runs, SIGTERM and SIGHUP become a SIGINT (once: a second one does not cut
    the clean-up short), so that they stop a run as Ctrl-C does, asyncio's own handling of it
    included; yields the list of signals received."""
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        if len(received) > 1:
            return
        if not callable(signal.getsignal(signal.SIGINT)):  # Ctrl-C ignored: stop all the same
            raise KeyboardInterrupt
        signal.raise_signal(signal.SIGINT)

    wanted = (signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else []))
    previous = {sig: signal.signal(sig, stop) for sig in wanted}
    try:
        yield received
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def signal_exit(received: list[int], what: str = "") -> int:
    """Say which signal stopped the command (and `what` of its work is kept); exit status 128 +
    its number (130, 143, 129)."""
    signum = received[0] if received else signal.SIGINT
    fail(f"interrupted by {signal.Signals(signum).name}{what}")
    return 128 + signum


def fail(message: str) -> None:
    """Report one problem on standard error."""
    print(f"sudoku-cp: {message}", file=sys.stderr)


def shape_arg(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except PuzzleError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def plural(count: int, word: str) -> str:
    """'1 run', '2 runs'."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def argument_type(parse: Callable[[str], Any], name: str, doc: str) -> Callable[[str], Any]:
    """An argparse type of one of io/arguments.py's parsers: its refusal an argparse error."""

    def read(text: str) -> Any:
        try:
            return parse(text)
        except arguments.ArgumentError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    read.__name__, read.__doc__ = name, doc
    return read


whole_arg = argument_type(arguments.whole, "whole_arg", "A whole number (a seed).")
count_arg = argument_type(arguments.count, "count_arg",
                          "A whole number of at least 1 (jobs, puzzles, tries).")
size_arg = argument_type(arguments.size, "size_arg",
                         "A whole number of at least 0 (a cap where 0 means none).")


def whole_at_least(text: str, least: int) -> int:
    """`text` as a whole number of at least `least`, or an argparse error saying why not."""
    return argument_type(lambda t: arguments.whole_at_least(t, least), "whole_at_least",
                         "")(text)


class Parser(argparse.ArgumentParser):
    """An argument parser whose every refusal is one line naming the command, and exit 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)  # the subcommands' parsers too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


class HelpFormatter(argparse.HelpFormatter):
    """Shows every option's default, unless its help already says it. Made at every
    add_argument: it reads the terminal's width without importing shutil (and its compressors)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        width = terminal_columns() - 2 if width is None else width  # as argparse's own
        super().__init__(prog, indent_increment, max_help_position, width)

    def _get_help_string(self, action: argparse.Action) -> str:
        text, default = action.help or "", action.default
        quiet = (default is None or isinstance(default, bool) or default == argparse.SUPPRESS
                 or (isinstance(default, (frozenset, list, tuple)) and not default))
        if quiet or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: %(default)s)"


def terminal_columns() -> int:
    """The width of the terminal as shutil.get_terminal_size() reads it: $COLUMNS, then standard
    output's terminal, then 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def stdin_hint(source: str) -> None:
    """Say so when a command waits for grids typed on a terminal."""
    if source == "-" and sys.stdin.isatty():
        print("sudoku-cp: reading grids from standard input; end with Ctrl-D "
              "(or give a FILE)", file=sys.stderr)


number_arg = argument_type(arguments.number, "number_arg",
                           "A finite number (not nan, inf, 1e309 or words).")
positive_arg = argument_type(arguments.positive, "positive_arg",
                             "A finite number above 0 (seconds of a limit).")
seconds_arg = argument_type(arguments.seconds, "seconds_arg",
                            "A time limit: seconds above 0 and at most a year.")
memory_arg = argument_type(arguments.memory, "memory_arg",
                           "A memory cap in MB: 0 (none) to MAX_MEMORY_MB.")
repeat_arg = argument_type(arguments.repeat, "repeat_arg", "--repeat: 1 to MAX_REPEAT.")
isomorphs_arg = argument_type(arguments.isomorphs, "isomorphs_arg",
                              "--isomorphs: 0 (none) to MAX_ISOMORPHS.")


MAX_SHOWN = 10  # unreadable entries of a file reported in full; the others are counted


def source_label(source: str) -> str:
    return "stdin" if source == "-" else source


def puzzle_source(text: str) -> str:
    """A FILE argument as a path: a data set's name (`sudoku-cp datasets`) becomes its converted
    file, fetched on first use with a progress bar; a set that cannot be had is a usage error."""
    if text == "-" or Path(text).exists():
        return text  # the data sets' catalogue (and hashlib, logging) not even imported
    from sudokucp import datasets

    if text not in datasets.BY_NAME:
        if text.isidentifier():
            raise CommandError(f"{text}: no such file, nor a data set of that name "
                               f"(`sudoku-cp datasets` lists them)")
        return text
    try:
        step = datasets.next_step(text)  # a download, or a conversion of a cached file
        if step is not None:
            fail(step)
        return datasets.source(text, progress=True)
    except datasets.DatasetError as err:
        raise CommandError(str(err)) from None


def read_entries(source: str, shape: Shape | None) -> Iterator[Entry]:
    """Puzzle entries of a file (or a data set's name) as they are read; no file, or no entry in
    it, is a usage error."""
    from sudokucp.io.formats import iter_entries  # the readers: not needed for --help

    found = False
    stdin_hint(source)
    source = puzzle_source(source)
    for entry in iter_entries(source, shape=shape):
        found = True
        yield entry
    if not found:
        raise CommandError(f"{source_label(source)}: no puzzle found")


def with_many(entries: Iterator[Entry]) -> tuple[Iterator[Entry], bool]:
    """The same entries, and whether there is more than one (two are read ahead, no more)."""
    first = next(entries)
    second = next(entries, None)
    return chain([first] if second is None else [first, second], entries), second is not None


def report_bad(source: str, entry: Entry) -> None:
    fail(f"{source_label(source)}: {entry.error}")


class BadEntries:
    """Unreadable entries of a file: the first MAX_SHOWN in full, then a line counting the rest."""

    def __init__(self, source: str) -> None:
        self.source, self.count = source, 0

    def report(self, entry: Entry) -> None:
        self.count += 1
        if self.count <= MAX_SHOWN:
            report_bad(self.source, entry)

    def finish(self) -> None:
        if self.count > MAX_SHOWN:
            fail(f"{source_label(self.source)}: {self.count - MAX_SHOWN} more unreadable "
                 f"entries not shown ({self.count} in all)")


class LanguageAction(argparse.Action):
    """--lang: the language of the messages from now on (sudokucp.i18n), set as it is read."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from sudokucp.i18n import set_language

        try:
            setattr(namespace, self.dest, set_language(values))
        except ValueError as err:
            parser.error(f"{option_string}: {err}")


def add_lang(parser: argparse.ArgumentParser) -> None:
    """The --lang option of a command whose output is in words (en or fr)."""
    parser.add_argument("--lang", action=LanguageAction, metavar="LANG",
                        help="language of the output: en or fr (default: the one LANG or "
                             "LANGUAGE names, else en)")


def require_cpu_limit(limit: float | None) -> None:
    """Refuse --cpu-limit where the CPU time of a running process cannot be read."""
    if limit is None:
        return
    from sudokucp.executors import cputime

    if not cputime.supported():
        raise CommandError("--cpu-limit reads a run's CPU time from /proc, which this system "
                           "does not have: use --timeout")


STDIN_FILE = "puzzle file, or - for standard input"
SHAPE_HELP = "grid shape when the cell count is ambiguous"


@functools.cache
def command_texts() -> dict[str, dict[str, str]]:
    """Each command's summary and description, as commands.toml holds them."""
    return tomllib.loads(resources.files("sudokucp.cli").joinpath("commands.toml")
                         .read_text(encoding="utf-8"))


def add_command(sub: argparse._SubParsersAction, name: str,
                handler: Callable[[argparse.Namespace], int],
                description: str | None = None) -> argparse.ArgumentParser:
    """A command's parser, with its texts from commands.toml and the function that runs it."""
    texts = command_texts()[name]
    parser = sub.add_parser(name, help=texts["summary"],
                            description=description or texts["description"])
    parser.set_defaults(handler=handler)
    return parser


def add_input(parser: argparse.ArgumentParser, text: str = STDIN_FILE,
              optional: bool = True) -> None:
    """The FILE a command reads (standard input when left out and `optional`)."""
    if optional:
        parser.add_argument("file", nargs="?", default="-", help=text)
    else:
        parser.add_argument("file", help=text)


def add_shape(parser: argparse.ArgumentParser, text: str = SHAPE_HELP) -> None:
    """--shape: the grid shape where a cell count fits several."""
    parser.add_argument("--shape", type=shape_arg, help=text)
