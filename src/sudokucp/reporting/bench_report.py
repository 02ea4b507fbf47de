"""A bench with its tables: the harness's `bench`, then every table, plot and page of the folder
written while the bench still holds it (sudokucp.reporting.report)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from sudokucp.executors import Executor
from sudokucp.harness.bench import BenchConfig, BenchOutcome, bench
from sudokucp.harness.runlog import RESULTS, BenchError
from sudokucp.reporting.report import write_reports
from sudokucp.result import Row


def bench_and_report(config: BenchConfig, on_row: Callable[[Row], None] | None = None,
                     on_plan: Callable[[int], None] | None = None,
                     executor: Executor | None = None,
                     scatter: Sequence[tuple[str, str]] | None = None) -> BenchOutcome:
    """`sudoku-cp bench`: run the bench (sudokucp.harness.bench), then write its tables in
    `config.out` (scatter.png: the pairs `scatter`, else the scatter matrix); `outcome.files`
    names them. Raises BenchError."""
    return bench(config, on_row, on_plan, executor, report=partial(write_tables,
                                                                    scatter=scatter))


def write_tables(outcome: BenchOutcome, out: Path,
                 scatter: Sequence[tuple[str, str]] | None = None) -> list[Path]:
    """The tables of a bench in `out`; a folder that cannot be written is a BenchError that says
    the log keeps every run."""
    try:
        return write_reports(outcome.rows, outcome.disagreements, out, summary_settings(outcome),
                             outcome.problems + outcome.notes, scatter=scatter)
    except OSError as err:
        raise BenchError(f"cannot write {err.filename or out}: {err.strerror}; {RESULTS} holds "
                         f"every run: run the same command with --resume to write the tables "
                         f"again") from None


def summary_settings(outcome: BenchOutcome) -> dict[str, Any]:
    """The bench's settings for the summary: the runs made now and read from the log, and the
    version of every backend in the tables (those of earlier runs that this bench does not name
    too)."""
    backends = dict(outcome.settings.get("backends", {}))
    for row in outcome.rows:
        backends.setdefault(row.backend, row.versions.get("backend") or "?")
    return {**outcome.settings, "runs": (outcome.ran, len(outcome.rows) - outcome.ran),
            "backends": backends}
