"""The compare command: two results folders side by side, regressions flagged."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sudokucp.cli.common import EXIT_OK, EXIT_UNSOLVED, CommandError, fail, number_arg, plural

if TYPE_CHECKING:
    import pandas as pd

    from sudokucp.result import Row


def _ratio_arg(text: str) -> float:
    value = number_arg(text)
    if not value > 1:
        raise argparse.ArgumentTypeError(f"{text} must be more than 1 (a ratio of times)")
    return value


def _floor_arg(text: str) -> float:
    value = number_arg(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} must be at least 0")
    return value


def add_compare(sub: argparse._SubParsersAction) -> None:
    from sudokucp.compare import FLOOR_MS, SLOWER

    p = sub.add_parser("compare", help="compare two results folders run by run; exit 1 on "
                                       "regressions",
                       description="Match the runs of two folders written by `sudoku-cp bench` "
                                   "(same backend label, puzzle and --limit) and show, per "
                                   "backend and per puzzle, what changed from OLD to NEW. A "
                                   "regression is a run solved in OLD and not in NEW, or one "
                                   "slower by more than --slower times (both times raised to "
                                   "--floor-ms first, so that noise on tiny times flags "
                                   "nothing). Exit status: 0 no regression, 1 regressions, 2 "
                                   "a folder without runs, or no run in common.")
    p.add_argument("old", metavar="OLD", help="the folder of the earlier runs")
    p.add_argument("new", metavar="NEW", help="the folder of the runs to check")
    p.add_argument("--slower", type=_ratio_arg, default=SLOWER, metavar="X",
                   help=f"flag a run that takes more than X times as long (default {SLOWER:g})")
    p.add_argument("--floor-ms", type=_floor_arg, default=FLOOR_MS, metavar="MS",
                   help=f"times under MS milliseconds count as MS (default {FLOOR_MS:g})")
    p.add_argument("--csv", metavar="FILE", help="write every matched run to FILE as CSV")
    p.set_defaults(handler=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    from sudokucp.compare import REGRESSIONS, compare, shown_runs
    from sudokucp.report import markdown_table
    from sudokucp.results_folder import FolderError, load_folder

    try:
        old, new = load_folder(args.old), load_folder(args.new)
    except FolderError as err:
        raise CommandError(str(err)) from None
    for note in old.notes + new.notes:
        fail(note)
    result = compare(old.rows, new.rows, args.slower, args.floor_ms)
    if result.runs.empty:
        raise CommandError(f"{args.old} and {args.new} have no run in common (same backend "
                           f"label, puzzle and --limit): nothing to compare")
    print(f"OLD {args.old}: {plural(len(old.rows), 'run')}; NEW {args.new}: "
          f"{plural(len(new.rows), 'run')}; {len(result.runs)} in both, {result.only_old} only "
          f"in OLD, {result.only_new} only in NEW")
    print(f"slower: more than {args.slower:g}x the time, times under {args.floor_ms:g} ms "
          f"counted as {args.floor_ms:g} ms; PAR-2 over the runs in both\n")
    for line in _setting_changes(old.rows, new.rows):
        print(line)
    print(markdown_table(result.backends) + "\n")
    changed = shown_runs(result)
    if not changed.empty:
        print(markdown_table(changed) + "\n")
    if args.csv:
        _write_csv(result.runs, args.csv)
    regressions = result.regressions
    if regressions.empty:
        print("no regression")
        return EXIT_OK
    counts = regressions["change"].value_counts()
    print(f"REGRESSIONS: {len(regressions)} ("
          + ", ".join(f"{counts[c]} {c}" for c in REGRESSIONS if c in counts) + ")")
    return EXIT_UNSOLVED


def _setting_changes(old: Sequence[Row], new: Sequence[Row]) -> list[str]:
    """'note: timeout 2 s in OLD, 10 s in NEW' for each setting or version that differs."""
    lines = []
    for name, unit in (("timeout", " s"), ("limit", ""), ("memory_mb", " MB")):
        before = sorted({getattr(r, name) for r in old}, key=str)
        after = sorted({getattr(r, name) for r in new}, key=str)
        if before != after:
            lines.append(f"note: {name} {_values(before, unit)} in OLD, "
                         f"{_values(after, unit)} in NEW")
    versions_old = {r.backend: r.versions.get("backend") for r in old}
    for r in {r.backend: r for r in new}.values():
        was = versions_old.get(r.backend)
        if was is not None and was != r.versions.get("backend"):
            lines.append(f"note: {r.backend} version {was} in OLD, "
                         f"{r.versions.get('backend')} in NEW")
    return lines + ([""] if lines else [])


def _values(values: Sequence[float | None], unit: str) -> str:
    return ", ".join("none" if v is None else f"{v:g}{unit}" for v in values)


def _write_csv(runs: pd.DataFrame, path: str) -> None:
    from pathlib import Path

    from sudokucp.files import atomic_write

    try:
        atomic_write(Path(path), lambda tmp: runs.to_csv(tmp, index=False,
                                                         float_format="%.6g"))
    except OSError as err:
        raise CommandError(f"cannot write {path}: {err.strerror}") from None
