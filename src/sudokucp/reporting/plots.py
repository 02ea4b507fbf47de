"""The pictures of a results table: the cactus plot (puzzles solved against time) and log-log
scatter plots of two backends puzzle by puzzle, unsolved runs on the border. With repeats, each
puzzle is drawn once, as its median over them (sudokucp.stats.per_puzzle_medians)."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sudokucp.i18n import _
from sudokucp.io.files import atomic_write
from sudokucp.reporting.scores import PENALTY, backend_pairs, solved_mask
from sudokucp.result import Status
from sudokucp.stats import one_line_per_puzzle

MIN_MS = 1e-2  # the smallest time a log axis shows (ms)


def _pyplot() -> Any:
    """pyplot, drawing off screen (Agg), or in a Jupyter kernel with its own inline backend (so
    that the figures a notebook asks for show there, and its other plots still do)."""
    import matplotlib

    if "inline" not in os.environ.get("MPLBACKEND", ""):
        matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    return plt


def shape_of(grid: str) -> str:
    """'9x9' for the one-line form of a 9x9 grid."""
    side = math.isqrt(len(grid))
    return f"{side}x{side}"


def cactus_figure(results: pd.DataFrame, timeout: float | None = None) -> Any:
    """Puzzles solved (x) against the milliseconds each needed (y, log), one line per backend and
    grid shape, the time limit as a labelled line; the legend sits below the axes."""
    from matplotlib.ticker import MaxNLocator

    fig, ax = _pyplot().subplots(figsize=(8, 5.5))
    results = one_line_per_puzzle(results)
    solved = results[results["status"] == Status.SOLVED.value]
    shapes = solved["grid"].map(shape_of) if not solved.empty else solved["grid"]
    for (backend, shape), group in solved.groupby([solved["backend"], shapes], sort=True):
        ms = (group["seconds"].astype(float) * 1000).clip(lower=1e-3).sort_values().to_numpy()
        ax.plot(range(1, len(ms) + 1), ms, marker=".", markersize=3, label=f"{backend}, {shape}")
    if timeout:
        ax.axhline(timeout * 1000, color="black", linestyle="--", linewidth=1,
                   label=_("time limit ({seconds} s)").format(seconds=f"{timeout:g}"))
        ax.annotate(_("time limit {seconds} s").format(seconds=f"{timeout:g}"),
                    (1, timeout * 1000), xycoords=("axes fraction",
                    "data"), xytext=(-4, 3), textcoords="offset points", ha="right",
                    fontsize="small")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(_("puzzles solved (count)"))
    ax.set_ylabel(_("search time per puzzle, sorted (ms, log scale)"))
    ax.set_title(_("Puzzles solved against search time"))
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3,
                  frameon=False)
    return fig


def pairs(results: pd.DataFrame) -> list[tuple[str, str]]:
    """Every pair of backends (sorted by name) that ran at least one puzzle in common."""
    return backend_pairs(results)


def paired_times(results: pd.DataFrame, a: str, b: str, border_ms: float) -> pd.DataFrame:
    """Per puzzle both ran: dataset, milliseconds of `a` and `b` (unsolved at `border_ms`)."""
    results = one_line_per_puzzle(results)
    ms = (results["seconds"].astype(float) * 1000).clip(lower=MIN_MS)
    frame = results.assign(ms=ms.where(solved_mask(results), border_ms))
    left, right = (frame.loc[frame["backend"] == x, ["hash", "dataset", "ms"]] for x in (a, b))
    both = left.merge(right.drop(columns="dataset"), on="hash", suffixes=("_a", "_b"))
    return both.set_index("hash").rename(columns={"ms_a": a, "ms_b": b})


def border_ms(results: pd.DataFrame, timeout: float | None) -> float:
    """Where unsolved runs sit: the PAR-2 time (twice the limit), or ten times the slowest
    solved run when there was no limit."""
    if timeout:
        return PENALTY * timeout * 1000
    solved = results.loc[solved_mask(results), "seconds"].astype(float)
    return max(float(solved.max()) * 1000 * 10, 1.0) if len(solved) else 1000.0


def scatter_figure(results: pd.DataFrame, a: str, b: str, timeout: float | None = None) -> Any:
    """`a`'s time (x) against `b`'s (y) per puzzle, log-log, one colour per dataset; unsolved
    runs on the border, the time limit dashed, the diagonal and 10x lines dotted."""
    results = one_line_per_puzzle(results)
    fig, ax, edge = scatter_axes(results, timeout)
    draw_pair(ax, results, a, b, edge)
    return fig


def scatter_axes(results: pd.DataFrame, timeout: float | None) -> tuple[Any, Any, float]:
    """An empty scatter plot whose axes fit every backend's times (so all pairs share them):
    the figure, its axes and the border where unsolved runs sit."""
    from matplotlib.ticker import FuncFormatter

    edge = border_ms(results, timeout)
    solved = results.loc[solved_mask(results), "seconds"].astype(float) * 1000
    low = max(min(float(solved.min()) if len(solved) else 1.0, edge) / 2, MIN_MS)
    high = edge * 1.6
    fig, ax = _pyplot().subplots(figsize=(5, 5))
    line = np.array([low, high])
    ax.plot(line, line, color="black", linewidth=0.8)
    for factor in (10, 0.1):
        ax.plot(line, line * factor, color="grey", linewidth=0.8, linestyle=":")
    if timeout:
        for draw in (ax.axvline, ax.axhline):
            draw(timeout * 1000, color="black", linestyle="--", linewidth=0.8)
    ax.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high), aspect="equal")
    ax.grid(True, which="major", alpha=0.3)
    ax.minorticks_off()  # a tick per decade is enough, and minor ticks cost most of the drawing
    for axis in (ax.xaxis, ax.yaxis):  # plain numbers: mathtext labels cost more than the rest
        axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    return fig, ax, edge


def draw_pair(ax: Any, results: pd.DataFrame, a: str, b: str, edge: float) -> list[Any]:
    """The points of one pair on `ax`, with its labels, title and legend; the artists added."""
    both = paired_times(results, a, b, edge)
    added = []
    for index, (dataset, group) in enumerate(both.groupby("dataset", sort=True)):
        lost = (group[a] >= edge) | (group[b] >= edge)
        color = f"C{index % 10}"
        added.append(ax.scatter(group.loc[~lost, a], group.loc[~lost, b], s=10, alpha=0.7,
                                color=color, label=dataset))
        added.append(ax.scatter(group.loc[lost, a], group.loc[lost, b], s=22, marker="x",
                                color=color))
    ax.set_xlabel(_("{backend} (ms, log scale)").format(backend=a))
    ax.set_ylabel(_("{backend} (ms, log scale)").format(backend=b))
    faster = int((both[b] < both[a]).sum())
    ax.set_title(_("{a} against {b}: {count} puzzles\n{b} faster on {faster} (below the "
                   "diagonal); unsolved on the border ({seconds} s)").format(
        a=a, b=b, count=len(both), faster=faster, seconds=f"{edge / 1000:g}"), fontsize="small")
    if added:
        added.append(ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.13),
                               ncol=4, frameon=False, markerscale=1.5))
    return added


def scatter_name(a: str, b: str) -> str:
    """The file name of a pair's plot: labels with only letters, digits, '.', '_' and '-'."""
    def safe(label: str) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "-", label)

    return f"{safe(a)}_vs_{safe(b)}.png"


def save_png(fig: Any, path: Path, dpi: int = 110, keep: bool = False) -> None:
    """The figure as a PNG at `path`, written whole or not at all; the figure is then closed,
    unless `keep`."""
    try:
        atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=dpi, format="png",
                                                   bbox_inches="tight"))
    finally:
        if not keep:
            _pyplot().close(fig)


def cactus(results: pd.DataFrame, path: Path, timeout: float | None = None) -> None:
    """The cactus plot as a PNG at `path`."""
    save_png(cactus_figure(results, timeout), path)


def scatters(results: pd.DataFrame, folder: Path, timeout: float | None = None
             ) -> dict[tuple[str, str], Path]:
    """A scatter plot per pair of backends in `folder` (the folder's other PNGs removed); one
    figure serves every pair, its points swapped between files."""
    folder.mkdir(parents=True, exist_ok=True)
    results = one_line_per_puzzle(results)
    made = {}
    fig, ax, edge = scatter_axes(results, timeout)
    try:
        for a, b in pairs(results):
            made[a, b] = folder / scatter_name(a, b)
            added = draw_pair(ax, results, a, b, edge)
            save_png(fig, made[a, b], dpi=80, keep=True)
            for artist in added:
                artist.remove()
    finally:
        _pyplot().close(fig)
    for old in set(folder.glob("*.png")) - set(made.values()):
        old.unlink()
    return made
