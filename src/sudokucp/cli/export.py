"""The export and decode commands: puzzles as files a SAT or CP solver reads (DIMACS, OPB,
XCSP3, MiniZinc, FlatZinc), and a solver's output turned back into a grid, judged."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    BadEntries,
    CommandError,
    add_command,
    add_shape,
    read_entries,
    source_label,
    with_many,
)

FORMATS = ("dimacs", "opb", "xcsp3", "mzn", "dzn", "fzn")  # io/exporters' FORMATS, not imported
ENCODINGS = ("minimal", "extended")
MODEL_FILE = "sudoku.mzn"  # the one model the .dzn files are data for
LAYOUTS = ("line", "grid", "numeric")


def add_export(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "export", run_export)
    p.add_argument("file", help="puzzle file, a data set's name, or - for standard input")
    p.add_argument("--to", required=True, choices=FORMATS, help="the format to write")
    p.add_argument("--encoding", choices=ENCODINGS, default="extended",
                   help="clauses of dimacs and opb: minimal (at least one digit per cell, at "
                        "most one per unit) or extended (exactly one of both)")
    p.add_argument("--solver", default="gecode", metavar="ID",
                   help="fzn: the MiniZinc solver whose library compiles it (std: MiniZinc's "
                        "own decompositions, for any FlatZinc solver)")
    p.add_argument("--out", default=".", metavar="DIR", help="folder the files go to")
    add_shape(p)


def add_decode(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "decode", run_decode)
    p.add_argument("instance", help="the exported file the solver ran on")
    p.add_argument("output", nargs="?", default="-",
                   help="the solver's output, or - for standard input")
    p.add_argument("--exit-status", type=int, metavar="N",
                   help="the solver's exit status (SAT solvers: 10 SAT, 20 UNSAT), when its "
                        "output has no 's' line")
    p.add_argument("--format", choices=LAYOUTS, default="line", help="how grids are printed")


def run_export(args: argparse.Namespace) -> int:
    """Write each puzzle's file as it is read; unreadable entries are reported, exit 2."""
    from sudokucp.io import exporters

    folder = _folder(args.out)
    if args.to == "fzn":
        _require_minizinc(exporters)
    entries, many = with_many(read_entries(args.file, args.shape))
    stem = "puzzle" if args.file == "-" else Path(args.file).stem
    bad, code = BadEntries(args.file), EXIT_OK
    if args.to == "dzn":
        print(_write(folder / MODEL_FILE, exporters.to_model(_model_lines(exporters))))
    for k, entry in enumerate(entries, 1):
        if entry.puzzle is None:
            bad.report(entry)
            code = EXIT_USAGE
            continue
        puzzle = entry.puzzle
        if not puzzle.name:
            puzzle = replace(puzzle, name=f"{stem}#{k}" if many else stem)
        name = f"{stem}-{k:04d}" if many else stem
        text = _export(exporters, puzzle, args)
        print(_write(folder / f"{name}{exporters.FORMATS[args.to].suffix}", text), flush=True)
    bad.finish()
    return code


def _export(exporters, puzzle, args: argparse.Namespace) -> str:
    try:
        return exporters.export(puzzle, args.to, encoding=args.encoding, solver=args.solver)
    except (RuntimeError, ValueError) as err:  # the MiniZinc compiler refused; a variant
        raise CommandError(str(err)) from None


def _model_lines(exporters) -> list[str]:
    return [f"{exporters.header.TAG}: {MODEL_FILE}, the model every .dzn file beside it is "
            f"data for", "run: minizinc sudoku.mzn PUZZLE.dzn"]


def _require_minizinc(exporters) -> None:
    import shutil

    if shutil.which("minizinc") is None:
        raise CommandError(f"cannot write fzn: {exporters.INSTALL}")


def _folder(name: str) -> Path:
    from sudokucp.io.files import NotWritable, writable_folder

    try:
        return writable_folder(name)
    except NotWritable as err:
        raise CommandError(str(err)) from None


def _write(path: Path, text: str) -> str:
    from sudokucp.io.files import write_error, write_text

    try:
        write_text(path, text)
    except OSError as err:
        raise CommandError(write_error(err, path)) from None
    return str(path)


def run_decode(args: argparse.Namespace) -> int:
    """Print the verdict and each model's grid with the judge's word on it."""
    from sudokucp.check import explain
    from sudokucp.io import exporters
    from sudokucp.io.formats import WRITERS

    header = exporters.instance_header(_read(args.instance))
    puzzle = header.puzzle
    try:
        with _stream(args.output) as output:
            answer = exporters.decode(output, header.format, puzzle.shape, args.exit_status)
    except exporters.WrongModel as err:
        print(f"WRONG: {err}")
        return EXIT_UNSOLVED
    except exporters.DecodeError as err:
        raise CommandError(f"{source_label(args.output)}: {err}") from None
    if not answer.grids:
        claim = " (the search was exhausted)" if answer.complete else ""
        print(f"{answer.verdict}{claim}")
        return EXIT_UNSOLVED
    code = EXIT_OK
    for grid in answer.grids:
        problems = explain(puzzle, grid)
        print("SOLVED" if not problems else f"WRONG: {'; '.join(problems[:3])}")
        print(WRITERS[args.format](puzzle.shape, grid))
        code = code if not problems else EXIT_UNSOLVED
    return code


@contextlib.contextmanager
def _stream(name: str) -> Iterator[TextIO]:
    """A solver's output opened to be read a line at a time (standard input for '-')."""
    if name == "-":
        yield sys.stdin
        return
    try:
        handle = open(name, encoding="utf-8", errors="replace")  # noqa: SIM115 - yielded
    except OSError as err:
        raise CommandError(f"cannot read {name}: {err.strerror or err}") from None
    with handle:
        try:
            yield handle
        except OSError as err:
            raise CommandError(f"cannot read {name}: {err.strerror or err}") from None


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise CommandError(f"cannot read {name}: {err.strerror or err}") from None
