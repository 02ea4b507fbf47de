"""The compare command: two results folders side by side, regressions flagged."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sudokucp.cli.common import (
    EXIT_OK,
    EXIT_UNSOLVED,
    CommandError,
    add_command,
    fail,
    number_arg,
    plural,
)
from sudokucp.reporting.thresholds import FLOOR_MS, FLOOR_MS_PAIRED, SLOWER, SLOWER_PAIRED

if TYPE_CHECKING:
    import pandas as pd

    from sudokucp.reporting.compare import Comparison
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
    p = add_command(sub, "compare", run_compare)
    p.add_argument("old", metavar="OLD", help="the folder of the earlier runs")
    p.add_argument("new", metavar="NEW", help="the folder of the runs to check")
    p.add_argument("--slower", type=_ratio_arg, default=None, metavar="X",
                   help=f"flag a run that takes more than X times as long (default {SLOWER:g}); "
                        f"with repeats, a backend whose interval lies above X (default "
                        f"{SLOWER_PAIRED:g})")
    p.add_argument("--floor-ms", type=_floor_arg, default=None, metavar="MS",
                   help=f"times under MS milliseconds count as MS (default {FLOOR_MS:g}; with "
                        f"repeats {FLOOR_MS_PAIRED:g})")
    p.add_argument("--csv", metavar="FILE", help="write every matched run to FILE as CSV")


def run_compare(args: argparse.Namespace) -> int:
    from sudokucp.reporting.compare import PER_RUN, compare, rule_line, shown_runs
    from sudokucp.reporting.report import markdown_table
    from sudokucp.reporting.results_folder import FolderError, load_folder

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
    unit = "" if result.rule == PER_RUN else " (per backend and puzzle, its median over repeats)"
    print(f"OLD {args.old}: {plural(len(old.rows), 'run')}; NEW {args.new}: "
          f"{plural(len(new.rows), 'run')}; {len(result.runs)} in both{unit}, {result.only_old} "
          f"only in OLD, {result.only_new} only in NEW")
    print(rule_line(result) + "\n")
    for line in _setting_changes(old.rows, new.rows):
        print(line)
    print(markdown_table(result.backends) + "\n")
    changed = shown_runs(result)
    if not changed.empty:
        print(markdown_table(changed) + "\n")
    if args.csv:
        _write_csv(result.runs, args.csv)
    if not result.regressed:
        print("no regression")
        return EXIT_OK
    print(_regressions_line(result) if result.rule == PER_RUN else _paired_line(result))
    return EXIT_UNSOLVED


def _regressions_line(result: Comparison) -> str:
    """'REGRESSIONS: 2 (1 newly unsolved, 1 slower)': the runs that regressed."""
    from sudokucp.reporting.compare import REGRESSIONS

    counts = result.regressions["change"].value_counts()
    return (f"REGRESSIONS: {len(result.regressions)} ("
            + ", ".join(f"{counts[c]} {c}" for c in REGRESSIONS if c in counts) + ")")


def _paired_line(result: Comparison) -> str:
    """'REGRESSIONS: 1 newly unsolved; mrv slower: NEW/OLD 1.5x (95% CI 1.45x to 1.56x ...)'."""
    from sudokucp.stats import LEVEL

    counts = result.regressions["change"].value_counts()
    parts = [f"{count} {change}" for change, count in counts.items()]
    parts += [f"{line.backend} slower: NEW/OLD {line.ratio:.3g}x ({LEVEL:.0%} CI "
              f"{line.ratio_low:.3g}x to {line.ratio_high:.3g}x over {line.paired} puzzles)"
              for line in result.slower_backends.itertuples(index=False)]
    return "REGRESSIONS: " + "; ".join(parts)


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

    from sudokucp.io.files import atomic_write

    try:
        atomic_write(Path(path), lambda tmp: runs.to_csv(tmp, index=False,
                                                         float_format="%.6g"))
    except OSError as err:
        raise CommandError(f"cannot write {path}: {err.strerror}") from None
