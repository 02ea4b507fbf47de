"""The report command: every table, plot and page of a results folder, rebuilt from its
results.jsonl alone."""

from __future__ import annotations

import argparse
import shlex
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    CommandError,
    add_command,
    fail,
    plural,
)

if TYPE_CHECKING:
    from sudokucp.result import Row


def add_report(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "report", run_report)
    p.add_argument("folder", metavar="DIR", help="a folder that `sudoku-cp bench` wrote")
    p.add_argument("--out", metavar="OUT", help="write the outputs here instead of DIR")
    add_scatter(p)


SCATTER_HELP = ("the pairs of backends that scatter.png plots, each 'A,B' (A's time on x, B's "
                "on y); repeat the option or join pairs with ';' ('jit,dlx;mrv,dlx'). Default: "
                "a scatter matrix of the first four backends of the ranking. A name that is "
                "not a backend of the run is refused (exit 2)")


def add_scatter(p: argparse.ArgumentParser) -> None:
    """The --scatter option of bench and report."""
    p.add_argument("--scatter", action="append", metavar="A,B", help=SCATTER_HELP)


def scatter_pairs(texts: list[str] | None, backends: list[str]) -> list[tuple[str, str]] | None:
    """The pairs that --scatter names among `backends`, None when it was not given; a name that
    is no backend of the run is a CommandError (exit 2) in one line."""
    if not texts:
        return None
    from sudokucp.reporting.plots import chosen_pairs

    try:
        return chosen_pairs(texts, backends)
    except ValueError as err:
        raise CommandError(str(err)) from None


def run_report(args: argparse.Namespace) -> int:
    import gc

    from sudokucp.harness.measurement import read_measurement
    from sudokucp.io.files import FolderBusy, FolderLock
    from sudokucp.reporting.report import write_reports
    from sudokucp.reporting.results_folder import FolderError, load_folder, settings_of

    try:
        folder = load_folder(args.folder)
    except FolderError as err:
        raise CommandError(str(err)) from None
    gc.freeze()  # the runs read stay to the end: later collections need not walk them
    chosen = scatter_pairs(args.scatter, sorted({row.backend for row in folder.rows}))
    out = Path(args.out or args.folder)
    command = shlex.join(["sudoku-cp", *getattr(args, "argv", ["report", args.folder])])
    settings = {"rebuilt": command, **settings_of(folder.rows),
                **read_measurement(Path(args.folder))}
    try:
        out.mkdir(parents=True, exist_ok=True)
        with FolderLock(out):
            files = write_reports(folder.rows, folder.disagreements, out, settings, folder.notes,
                                  scatter=chosen)
    except FolderBusy as err:
        raise CommandError(str(err)) from None
    except OSError as err:
        raise CommandError(f"cannot write {err.filename or out}: {err.strerror}") from None
    for note in folder.notes:
        fail(note)
    from sudokucp.i18n import _

    print(f"read {plural(len(folder.rows), 'run')} from {folder.path / 'results.jsonl'}")
    print(status_counts(folder.rows))
    for d in folder.disagreements:
        print(f"DISAGREEMENT {d.puzzle} ({d.hash}): {d.message}")
    print(_("wrote {files}").format(files=", ".join(str(p) for p in files)))
    for line in answer_lines(folder.rows, files, settings):
        print(line)
    return verdict(folder.rows, folder.disagreements, folder.notes)


def status_counts(rows: Sequence[Row]) -> str:
    """'5 runs: 3 solved, 2 error': the runs in the tables, counted by status (the statuses'
    names are the tables' own words, in every language)."""
    from sudokucp.i18n import ngettext
    from sudokucp.result import Status

    counts = Counter(row.status for row in rows)
    return ngettext("{count} run: {statuses}", "{count} runs: {statuses}", len(rows)).format(
        count=len(rows), statuses=", ".join(f"{counts[status]} {status.value}"
                                            for status in Status if counts[status]))


def answer_lines(rows: Sequence[Row], files: Sequence[Path],
                 settings: Mapping[str, Any]) -> list[str]:
    """The last lines of bench and report: the error and crash runs grouped per backend, then
    the answer (the ranking that ranking.csv among `files` holds) and its rule."""
    from sudokucp.i18n import _
    from sudokucp.reporting.failures import console_lines as failure_lines
    from sudokucp.reporting.failures import failures
    from sudokucp.reporting.ranking import console_lines, noise_marks, read_ranking

    lines = failure_lines(failures((row.backend, row.status, row.error) for row in rows))
    ranking = next((p for p in files if p.name == "ranking.csv"), None)
    if ranking is None:  # no table written
        return lines
    ranked = read_ranking(ranking)
    return [*lines, "", _("Answer:"), *console_lines(ranked, noise_marks(settings))]


def verdict(rows: Sequence[Row], disagreements: Sequence[object], problems: Sequence[str],
            fail_on_disagreement: bool = True) -> int:
    """The exit status of bench and report: 1 on disagreements (unless told otherwise), when
    no run answered (SOLVED or UNSAT) or when a run ended in error or crash (which ones said on
    standard error), 2 when input lines were unreadable, 0 otherwise."""
    from sudokucp.reporting.failures import failures, summary_line

    if disagreements and fail_on_disagreement:
        return EXIT_UNSOLVED
    if not any(row.answered for row in rows):
        fail("no run answered (solved or unsat): see the statuses above and results.csv's "
             "error column")
        return EXIT_UNSOLVED
    failed = failures((row.backend, row.status, row.error) for row in rows)
    if failed:
        fail(summary_line(failed))
        return EXIT_UNSOLVED
    return EXIT_USAGE if problems else EXIT_OK
