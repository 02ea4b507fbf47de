"""The trace command: one search as JSON lines of events, and its replay page."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from sudokucp.backends import from_spec
from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    CommandError,
    add_command,
    add_lang,
    add_shape,
    count_arg,
    read_entries,
    size_arg,
    source_label,
)
from sudokucp.puzzle import Puzzle, Shape


def add_trace(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "trace", run_trace)
    p.add_argument("file", help="puzzle file, or - for standard input")
    p.add_argument("-b", "--backend", default="naive",
                   help="backend with options, e.g. naive or mrv:order=static")
    p.add_argument("--max-steps", type=count_arg, default=10_000, metavar="N",
                   help="events written before the search is stopped")
    p.add_argument("--limit", type=size_arg, default=1, metavar="K",
                   help="solutions to find before stopping (0: all)")
    p.add_argument("--index", type=count_arg, default=1, metavar="I",
                   help="which grid of FILE to trace, from 1")
    p.add_argument("--out", type=Path, metavar="FILE",
                   help="write the JSON lines to FILE (default: standard output, unless --html)")
    p.add_argument("--html", type=Path, metavar="FILE",
                   help="write a self-contained replay page to FILE")
    add_shape(p)
    add_lang(p)


def pick(source: str, index: int, shape: Shape | None) -> Puzzle:
    """The index-th grid of the file (from 1); an unreadable one is a usage error."""
    number = 0
    for number, entry in enumerate(read_entries(source, shape), 1):
        if number == index:
            if entry.error is not None or entry.puzzle is None:
                raise CommandError(f"{source_label(source)}: {entry.error}")
            return entry.puzzle
    raise CommandError(f"{source_label(source)}: no grid number {index} "
                       f"(the file holds {number})")


@contextlib.contextmanager
def jsonl_target(args: argparse.Namespace) -> Iterator[IO[str] | None]:
    """Where the JSON lines go: --out, standard output, or nowhere (--html alone)."""
    if args.out is None:
        yield None if args.html is not None else sys.stdout
        return
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            yield out
    except OSError as err:
        raise CommandError(f"cannot write {args.out}: {err.strerror or err}") from None


def run_trace(args: argparse.Namespace) -> int:
    from sudokucp.teaching import trace

    backend = from_spec(args.backend)
    if not trace.traceable(backend):
        raise CommandError(f"backend {backend.label!r} is not traced (traced: "
                           f"{', '.join(trace.traced_names())}); the jit backend is compiled")
    puzzle = pick(args.file, args.index, args.shape)
    check_targets(args.out, args.html)
    page = PageEvents(PAGE_STEPS)
    with jsonl_target(args) as out:
        def sink(event: trace.Event) -> None:
            if args.html is not None:
                page.add(event)
            page.last = event
            if out is not None:
                out.write(trace.line(event) + "\n")

        finished = trace.run(backend, puzzle, sink, max_steps=args.max_steps, limit=args.limit)
    if args.html is not None:
        write_page(args.html, page.events())
    return EXIT_OK if finished and page.last["status"] == "solved" else EXIT_UNSOLVED


PAGE_STEPS = 100_000  # steps a replay page keeps (about 75 MB in memory, 13 MB of page)


class PageEvents:
    """The events kept for the replay page: the start and the first `cap` steps, then the end,
    or past the cap an event saying where the page stops."""

    def __init__(self, cap: int) -> None:
        self.cap, self.kept, self.steps = cap, [], 0
        self.last: dict = {}  # the last event of the search, kept or not

    def add(self, event: dict) -> None:
        self.steps = event.get("step", self.steps)
        if self.steps <= self.cap:
            self.kept.append(event)

    def events(self) -> list[dict]:
        """The page's events; past the cap, a 'truncated' event with the steps not kept."""
        if self.steps <= self.cap:
            return self.kept
        counters = {k: self.kept[-1][k] for k in ("nodes", "guesses", "backtracks")}
        return [*self.kept, {"event": "truncated", **counters, "max_steps": self.cap,
                             "page_cap": self.cap, "steps": self.steps}]


def check_targets(*paths: Path | None) -> None:
    """--out and --html as files that can be written, checked before the search."""
    from sudokucp.io.files import NotWritable, writable_file

    for path in paths:
        if path is not None:
            try:
                writable_file(path)
            except NotWritable as err:
                raise CommandError(str(err)) from None


def write_page(path: Path, events: list[dict]) -> None:
    from sudokucp.i18n import _, ngettext, number
    from sudokucp.io.files import write_error, write_text
    from sudokucp.teaching import replay

    try:
        write_text(path, replay.render(events))
    except OSError as err:
        raise CommandError(write_error(err, path)) from None
    last, steps = events[-1], len(events) - 2
    what = (ngettext("{status}, {count} solution", "{status}, {count} solutions",
                     last["solutions"]).format(status=last["status"], count=last["solutions"])
            if last["event"] == "end"
            else _("cut at {steps} steps").format(steps=number(last["max_steps"], 0)))
    if "page_cap" in last:
        what += _(": a page keeps the first {kept} of the {steps} steps (the JSON lines, --out, "
                  "have them all)").format(kept=number(last["page_cap"], 0),
                                          steps=number(last["steps"], 0))
    print("sudoku-cp: " + ngettext("wrote {path}: {count} step, {what}",
                                   "wrote {path}: {count} steps, {what}", steps).format(
        path=path, count=number(steps, 0), what=what), file=sys.stderr)
