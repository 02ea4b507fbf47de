"""Tables and pictures from result rows: results.csv, summary.csv, cactus.png, summary.md.

Every file is written under a temporary name and renamed (sudokucp.files), so a reader never sees
half of one.
"""

from __future__ import annotations

import math
import os
import platform
import time
from collections.abc import Callable, Mapping, Sequence
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
    """Per backend x dataset: outcome counts, then milliseconds and search size (medians, whole
    numbers) over answered runs."""
    lines = []
    for (backend, dataset), group in results.groupby(["backend", "dataset"], sort=True):
        line: dict[str, Any] = {"backend": backend, "dataset": dataset, "runs": len(group)}
        line |= {name: int((group["status"] == status.value).sum())
                 for name, status in COUNTED.items()}
        answered = group[group["status"].isin([status.value for status in ANSWERED])]
        ms = answered["seconds"].astype(float) * 1000
        line |= {"median_ms": ms.median(), "mean_ms": ms.mean(), "p90_ms": ms.quantile(0.9),
                 "max_ms": ms.max()}
        for stat in ("nodes", "guesses"):
            values = answered[stat] if stat in answered else pd.Series(dtype=float)
            median = values.astype(float).median()
            line[f"median_{stat}"] = pd.NA if pd.isna(median) else round(median)
        lines.append(line)
    frame = pd.DataFrame(lines)
    counts = [c for c in frame.columns if c.startswith("median_") and not c.endswith("_ms")]
    return frame.astype({c: "Int64" for c in counts})


def shape_of(grid: str) -> str:
    """'9x9' for the one-line form of a 9x9 grid."""
    side = math.isqrt(len(grid))
    return f"{side}x{side}"


def cactus_figure(results: pd.DataFrame, timeout: float | None = None) -> Any:
    """Puzzles solved (x) against the milliseconds each needed (y, log), one line per backend and
    grid shape, the time limit as a labelled line; the legend sits below the axes."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(8, 5.5))
    solved = results[results["status"] == Status.SOLVED.value]
    shapes = solved["grid"].map(shape_of) if not solved.empty else solved["grid"]
    for (backend, shape), group in solved.groupby([solved["backend"], shapes], sort=True):
        ms = (group["seconds"].astype(float) * 1000).clip(lower=1e-3).sort_values().to_numpy()
        ax.plot(range(1, len(ms) + 1), ms, marker=".", markersize=3, label=f"{backend}, {shape}")
    if timeout:
        ax.axhline(timeout * 1000, color="black", linestyle="--", linewidth=1,
                   label=f"time limit ({timeout:g} s)")
        ax.annotate(f"time limit {timeout:g} s", (1, timeout * 1000), xycoords=("axes fraction",
                    "data"), xytext=(-4, 3), textcoords="offset points", ha="right",
                    fontsize="small")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("puzzles solved (count)")
    ax.set_ylabel("search time per puzzle, sorted (ms, log scale)")
    ax.set_title("Puzzles solved against search time")
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3,
                  frameon=False)
    return fig


def cactus(results: pd.DataFrame, path: Path, timeout: float | None = None) -> None:
    """The cactus plot as a PNG at `path`."""
    from matplotlib import pyplot as plt

    fig = cactus_figure(results, timeout)
    atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=110, format="png", bbox_inches="tight"))
    plt.close(fig)


def markdown(summary: pd.DataFrame, disagreements: Sequence[Any], settings: Mapping[str, Any],
             problems: Sequence[str] = ()) -> str:
    """A short summary: settings, the table, disagreements, the plot."""
    parts = ["# Comparison", "", *settings_lines(settings), "", markdown_table(summary), "",
             "Times (`*_ms`) are milliseconds of search per run, over the runs that ended SOLVED "
             "or UNSAT; `median_nodes` / `median_guesses` are counts from the backends' own "
             "stats, rounded to whole numbers; the other columns count runs.", "",
             "![cactus plot](cactus.png)", "", "## Disagreements", ""]
    parts += [f"- {d.puzzle} ({d.hash}): {d.message}" for d in disagreements] or [
        "None: every claimed solution passed the checker and the backends agree."]
    if problems:
        parts += ["", "## Skipped input", "", *(f"- {p}" for p in problems)]
    return "\n".join(parts) + "\n"


SETTING_LINES: dict[str, Callable[[Any], str]] = {  # key of the settings: its line, units named
    "command": lambda v: f"command: `{v}`",
    "date": lambda v: f"date: {v} (start)",
    "machine": lambda v: f"machine: {v}",
    "load": lambda v: f"load average at the start (1, 5, 15 min): {v}",
    "python": lambda v: f"Python: {v}",
    "backends": lambda v: "backend versions: " + ", ".join(f"{k} {x}" for k, x in v.items()),
    "runs": lambda v: f"runs in the tables: {sum(v)} ({v[0]} made by this command, {v[1]} "
                      f"read from results.jsonl" + (": the date, machine and load above are "
                      "this command's, not those of the runs it read)" if v[1] else ")"),
    "limit": lambda v: f"solutions sought per run: {v or 'all'}",
    "timeout": lambda v: f"timeout: {v:g} s per run" if v else "timeout: none",
    "memory_mb": lambda v: f"memory: {v} MB per worker" if v else "memory: no cap",
    "jobs": lambda v: f"jobs: {v} (runs at a time)",
    "seed": lambda v: f"seed: {v} (puzzle order shuffled)",
    "retry": lambda v: f"retried: the runs that had ended {', '.join(v)}",
    "puzzles": lambda v: "puzzles: " + ", ".join(f"`{p}`" for p in v),
    "max_puzzles": lambda v: f"at most {v} puzzles per file",
}


def settings_lines(settings: Mapping[str, Any]) -> list[str]:
    """One list item per setting, with its unit; empty ones left out (a time-out or a memory cap
    of None says 'none')."""
    return [f"- {SETTING_LINES[k](v)}" for k, v in settings.items() if k in SETTING_LINES
            and (v not in (None, [], {}) or k in ("timeout", "memory_mb"))]


def machine() -> dict[str, str]:
    """The date, this machine (CPU model, cores), its load average and Python, for the summary."""
    cores, usable = os.cpu_count() or 1, len(os.sched_getaffinity(0))
    where = (f"{_cpu_model()}, {cores} cores ({usable} usable), {platform.system()} "
             f"{platform.machine()}")
    return {"date": time.strftime("%Y-%m-%d %H:%M %Z"), "machine": where,
            "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
            "python": f"{platform.python_version()} ({platform.python_implementation()})"}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


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
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
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
    cactus(results, paths[2], settings.get("timeout")) if not results.empty else None
    text = markdown(summary, disagreements, settings, problems)
    write_text(paths[3], text)
    return [p for p in paths if p.exists()]
