"""Tables and pictures from result rows: results.csv, summary.csv, cactus.png, summary.md.

Every file is written under a temporary name and renamed (sudokucp.files), so a reader never sees
half of one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from sudokucp.files import atomic_write, write_text
from sudokucp.result import ANSWERED, Row, Status

COUNTED = {"solved": Status.SOLVED, "unsat": Status.UNSAT, "timeouts": Status.TIMEOUT,
           "unknown": Status.UNKNOWN, "errors": Status.ERROR, "crashes": Status.CRASH,
           "memouts": Status.MEMOUT, "wrong": Status.WRONG}  # summary column: runs that ended so
RESULT_COLUMNS = list(Row.columns())


def results_frame(rows: Sequence[Row]) -> pd.DataFrame:
    """One line per run; stats become columns named after them (nodes, guesses, ...)."""
    records = []
    for row in rows:
        record = row.record()
        record.update({k: v for k, v in row.stats.items() if k not in record})
        records.append(record)
    frame = pd.DataFrame.from_records(records, columns=_columns(records))
    return frame.sort_values(["dataset", "puzzle", "backend"], kind="stable", ignore_index=True)


def _columns(records: list[dict[str, Any]]) -> list[str]:
    extra = sorted({k for r in records for k in r} - set(RESULT_COLUMNS))
    return RESULT_COLUMNS + extra


def summary_frame(results: pd.DataFrame) -> pd.DataFrame:
    """Per backend x dataset: outcome counts, then seconds and search size over answered runs."""
    lines = []
    for (backend, dataset), group in results.groupby(["backend", "dataset"], sort=True):
        line: dict[str, Any] = {"backend": backend, "dataset": dataset, "runs": len(group)}
        line |= {name: int((group["status"] == status.value).sum())
                 for name, status in COUNTED.items()}
        answered = group[group["status"].isin([status.value for status in ANSWERED])]
        seconds = answered["seconds"].astype(float)
        line |= {"median_s": seconds.median(), "mean_s": seconds.mean(),
                 "p90_s": seconds.quantile(0.9), "max_s": seconds.max()}
        for stat in ("nodes", "guesses"):
            values = answered[stat] if stat in answered else pd.Series(dtype=float)
            line[f"median_{stat}"] = values.astype(float).median()
        lines.append(line)
    return pd.DataFrame(lines)


def cactus(results: pd.DataFrame, path: Path, title: str = "") -> None:
    """Puzzles solved (x) against the time each needed (y, log), one line per backend."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    solved = results[results["status"] == Status.SOLVED.value]
    for backend, group in solved.groupby("backend", sort=True):
        times = group["seconds"].astype(float).clip(lower=1e-6).sort_values().to_numpy()
        ax.plot(range(1, len(times) + 1), times, marker=".", markersize=3, label=backend)
    ax.set_yscale("log")
    ax.set_xlabel("puzzles solved")
    ax.set_ylabel("seconds per puzzle (sorted)")
    ax.set_title(title or "Cactus plot: puzzles solved against time")
    ax.grid(True, which="both", alpha=0.3)
    if not solved.empty:
        ax.legend(fontsize="small")
    fig.tight_layout()
    atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=110, format="png"))
    plt.close(fig)


def markdown(summary: pd.DataFrame, disagreements: Sequence[Any], settings: Mapping[str, Any],
             problems: Sequence[str] = ()) -> str:
    """A short summary: settings, the table, disagreements, the plot."""
    parts = ["# Comparison", "", _settings(settings), "", markdown_table(_in_ms(summary)), "",
             "Times are milliseconds of search per run, over the runs that ended SOLVED or UNSAT; "
             "`median_nodes` / `median_guesses` come from the backends' own stats.", "",
             "![cactus plot](cactus.png)", "", "## Disagreements", ""]
    parts += [f"- {d.puzzle} ({d.hash}): {d.message}" for d in disagreements] or [
        "None: every claimed solution passed the checker and the backends agree."]
    if problems:
        parts += ["", "## Skipped input", "", *(f"- {p}" for p in problems)]
    return "\n".join(parts) + "\n"


def _in_ms(frame: pd.DataFrame) -> pd.DataFrame:
    """The seconds columns (`*_s`) as milliseconds (`*_ms`), easier to read for fast backends."""
    seconds = [c for c in frame.columns if c.endswith("_s")]
    out = frame.copy()
    out[seconds] = out[seconds] * 1000
    return out.rename(columns={c: c[:-2] + "_ms" for c in seconds})


def _settings(settings: Mapping[str, Any]) -> str:
    return "\n".join(f"- {k}: {v}" for k, v in settings.items() if v not in (None, []))


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub table; floats with four significant digits, missing values blank."""
    if frame.empty:
        return "(no runs)"
    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(_cell(v) for v in row) + " |"
            for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def write_reports(rows: Sequence[Row], disagreements: Sequence[Any], out: Path,
                  settings: Mapping[str, Any], problems: Sequence[str] = ()) -> list[Path]:
    """results.csv, summary.csv, cactus.png and summary.md in `out`; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    results = results_frame(rows)
    summary = summary_frame(results) if not results.empty else pd.DataFrame()
    paths = [out / name for name in ("results.csv", "summary.csv", "cactus.png", "summary.md")]
    atomic_write(paths[0], lambda tmp: results.to_csv(tmp, index=False))
    atomic_write(paths[1], lambda tmp: summary.to_csv(tmp, index=False, float_format="%.6g"))
    cactus(results, paths[2]) if not results.empty else None
    text = markdown(summary, disagreements, settings, problems)
    write_text(paths[3], text)
    return [p for p in paths if p.exists()]
