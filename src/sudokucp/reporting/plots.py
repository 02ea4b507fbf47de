"""The pictures of a results table: the cactus plot (puzzles solved against time, a panel per
data set, a style per backend in ranking order) and log-log scatter plots of backends puzzle by
puzzle (a scatter matrix of the first backends of the ranking, or the pairs asked for), unsolved
runs on the border. With repeats, each puzzle is drawn once, as its median over them
(sudokucp.stats.per_puzzle_medians); past a few thousand puzzles, a line or panel draws a sample.
A scatter panel's pieces (paired times, shared axes, points) and --scatter's pairs: scatter.py.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sudokucp.i18n import _
from sudokucp.io.files import atomic_write
from sudokucp.puzzle import line_side
from sudokucp.reporting.ranking import backend_order
from sudokucp.reporting.scatter import (  # the names marked noqa: re-exported
    MIN_MS,  # noqa: F401
    SCATTER_POINTS,  # noqa: F401
    border_ms,
    chosen_pairs,  # noqa: F401
    draw_points,
    frame_axes,
    paired_times,
    scatter_titles,
    time_range,
)
from sudokucp.reporting.scores import backend_pairs
from sudokucp.result import Status
from sudokucp.stats import one_line_per_puzzle


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
    side = line_side(grid)
    return f"{side}x{side}"


COLOURS = tuple(f"C{i}" for i in range(10))
MARKERS = ("o", "s", "^", "D", "v", "P", "X")  # 7 and 4 prime to 10: no two of the first 140
LINES = ("-", "--", "-.", ":")  # series share colour, marker and line style at once
CACTUS_POINTS = 400  # points drawn per cactus line at most (the last one always)
CACTUS_MARKS = 8  # markers per cactus line


def series_style(index: int) -> dict[str, str]:
    """The colour, marker and line style of the index-th series: each changes from one series to
    the next, so lines stay apart past ten series."""
    return {"color": COLOURS[index % len(COLOURS)], "marker": MARKERS[index % len(MARKERS)],
            "linestyle": LINES[index % len(LINES)]}


def thinned(count: int, cap: int) -> np.ndarray:
    """At most `cap` indices of 0..count-1, evenly spread, the first and the last kept."""
    if count <= cap:
        return np.arange(count)
    return np.unique(np.linspace(0, count - 1, cap).round().astype(int))


def cactus_figure(results: pd.DataFrame, timeout: float | None = None,
                  order: Sequence[str] | None = None) -> Any:
    """Puzzles solved (x) against the milliseconds each needed (y, log): a panel per data set,
    a line per backend (and grid shape, in a data set that mixes shapes), each with its own
    colour, marker and line style; the time limit as a labelled line; one legend below the
    panels, in ranking order (`order`, else sudokucp.reporting.ranking.backend_order)."""
    results = one_line_per_puzzle(results)
    order = list(order) if order is not None else backend_order(results)
    solved = results[results["status"] == Status.SOLVED.value]
    shapes = solved["grid"].map(shape_of) if not solved.empty else solved["grid"]
    mixed = {d for d, group in shapes.groupby(solved["dataset"]) if group.nunique() > 1}
    split = shapes.where(solved["dataset"].isin(mixed), "")  # the shape in a label, or ''
    keys = sorted(set(zip(solved["backend"], split)), key=lambda k: (
        order.index(k[0]) if k[0] in order else len(order), _side(k[1]), k))
    sets = sorted(results["dataset"].unique()) if not results.empty else [""]
    fig, axes = _panels(len(sets))
    handles: dict[str, Any] = {}
    limit = None
    for number, (ax, dataset) in enumerate(zip(axes, sets)):
        mine = solved["dataset"] == dataset
        for index, (backend, shape) in enumerate(keys):
            group = solved[mine & (solved["backend"] == backend) & (split == shape)]
            if group.empty:
                continue
            label = f"{backend}, {shape}" if shape else str(backend)
            handles[label] = _cactus_line(ax, group, label, series_style(index))
        limit = _cactus_axes(ax, dataset if len(sets) > 1 else "", timeout,
                             first=number % 3 == 0) or limit
        most = int(solved[mine].groupby(["backend", split[mine]]).size().max()) if mine.any() else 0
        if 0 < most <= 10:  # a few puzzles: whole numbers on the x axis, half a step either side
            ax.set_xlim(0.5, most + 0.5)
            ax.set_xticks(range(1, most + 1))
    fig.suptitle(_("Puzzles solved against search time"))
    if limit is not None:
        handles[limit.get_label()] = limit
    if handles:
        columns = len(handles) if len(handles) <= 6 else 4  # one row reads in ranking order
        fig.legend(list(handles.values()), list(handles), fontsize="small", ncol=columns,
                   loc="outside lower center", frameon=False)
        width, height = fig.get_size_inches()
        fig.set_size_inches(width, height + 0.22 * math.ceil(len(handles) / columns))
    return fig


def _side(shape: str) -> int:
    return int(shape.split("x")[0]) if shape.split("x")[0].isdigit() else 0


def _panels(count: int) -> tuple[Any, list[Any]]:
    """A figure of `count` panels, three to a row at most, and its axes."""
    columns = min(count, 3)
    rows = math.ceil(count / columns)
    fig, grid = _pyplot().subplots(rows, columns, figsize=(4.2 * columns + 2, 3.8 * rows + 0.6),
                                   squeeze=False, layout="constrained")
    axes = list(grid.ravel())
    for extra in axes[count:]:
        extra.set_axis_off()
    return fig, axes[:count]


def _cactus_line(ax: Any, group: pd.DataFrame, label: str, style: dict[str, str]) -> Any:
    """One backend's sorted times on `ax`, at most CACTUS_POINTS of them drawn."""
    ms = np.sort((group["seconds"].astype(float) * 1000).clip(lower=1e-3).to_numpy())
    shown = thinned(len(ms), CACTUS_POINTS)
    every = max(1, len(shown) // CACTUS_MARKS)
    (line,) = ax.plot(shown + 1, ms[shown], label=label, markersize=4, linewidth=1.2,
                      markevery=every, **style)
    return line


def _cactus_axes(ax: Any, dataset: str, timeout: float | None, first: bool = True) -> Any:
    """Log times, whole counts, the time limit, the panel's data set; the y label on the first
    panel of a row. The time limit's line, or None."""
    from matplotlib.ticker import MaxNLocator

    line = None
    if timeout:
        line = ax.axhline(timeout * 1000, color="black", linestyle="--", linewidth=1,
                          label=_("time limit ({seconds} s)").format(seconds=f"{timeout:g}"))
        ax.annotate(_("time limit {seconds} s").format(seconds=f"{timeout:g}"),
                    (1, timeout * 1000), xycoords=("axes fraction", "data"), xytext=(-4, 3),
                    textcoords="offset points", ha="right", fontsize="small")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(left=0.5)
    ax.set_xlabel(_("puzzles solved (count)"))
    if first:
        ax.set_ylabel(_("search time per puzzle, sorted (ms, log scale)"))
    if dataset:
        ax.set_title(dataset, fontsize="medium")
    ax.grid(True, which="both", alpha=0.3)
    return line


def pairs(results: pd.DataFrame) -> list[tuple[str, str]]:
    """Every pair of backends (sorted by name) that ran at least one puzzle in common."""
    return backend_pairs(results)


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
    edge = border_ms(results, timeout)
    fig, ax = _pyplot().subplots(figsize=(5, 5))
    frame_axes(ax, time_range(results, edge), timeout)
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


def save_png(fig: Any, path: Path, dpi: int = 110, keep: bool = False) -> None:
    """The figure as a PNG at `path`, written whole or not at all; the figure is then closed,
    unless `keep`. A figure laid out by matplotlib's constrained layout is saved as it is laid
    out (a tight box would draw it once more)."""
    laid_out = fig.get_layout_engine() is not None
    try:
        atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=dpi, format="png",
                                                   bbox_inches=None if laid_out else "tight"))
    finally:
        if not keep:
            _pyplot().close(fig)


def cactus(results: pd.DataFrame, path: Path, timeout: float | None = None,
           order: Sequence[str] | None = None) -> None:
    """The cactus plot as a PNG at `path`, its legend in `order`."""
    save_png(cactus_figure(results, timeout, order), path, dpi=80)


SCATTER_TOP = 4  # the scatter matrix's backends: the first four of the ranking
SCATTER_FILE = "scatter.png"


def scatter_plot(results: pd.DataFrame, path: Path, timeout: float | None = None,
                 chosen: Sequence[tuple[str, str]] | None = None,
                 order: Sequence[str] | None = None) -> Path | None:
    """The scatter plots as one PNG at `path`: the pairs `chosen`, else the scatter matrix of
    the SCATTER_TOP first backends of `order` (the ranking); None, and no file, with fewer
    than two backends."""
    results = one_line_per_puzzle(results)
    order = list(order) if order is not None else backend_order(results)
    if chosen is None and len(order) < 2:
        path.unlink(missing_ok=True)
        return None
    fig = (pairs_figure(results, chosen, timeout) if chosen is not None
           else matrix_figure(results, order[:SCATTER_TOP], timeout))
    save_png(fig, path, dpi=72)
    return path


def matrix_figure(results: pd.DataFrame, backends: Sequence[str],
                  timeout: float | None = None) -> Any:
    """A scatter matrix: below the diagonal, row i against column j is backends[j]'s time (x)
    against backends[i]'s (y) per puzzle; the names on the diagonal."""
    count = len(backends)
    fig, grid = _pyplot().subplots(count, count, figsize=(2.6 * count + 1, 2.6 * count + 1),
                                   squeeze=False, layout="constrained")
    edge = border_ms(results, timeout)
    span = time_range(results, edge)
    legend: dict[str, Any] = {}
    for i, y in enumerate(backends):
        for j, x in enumerate(backends):
            ax = grid[i][j]
            if j >= i:
                ax.set_axis_off()
                if i == j:
                    ax.text(0.5, 0.5, str(x), ha="center", va="center", fontsize="large",
                            transform=ax.transAxes, wrap=True)
                continue
            frame_axes(ax, span, timeout)
            legend |= draw_points(ax, results, x, y, edge)
            ax.set_xlabel(_("{backend} (ms)").format(backend=x) if i == count - 1 else "",
                          fontsize="small")
            ax.set_ylabel(_("{backend} (ms)").format(backend=y) if j == 0 else "",
                          fontsize="small")
    scatter_titles(fig, legend, edge)
    return fig


def pairs_figure(results: pd.DataFrame, chosen: Sequence[tuple[str, str]],
                 timeout: float | None = None) -> Any:
    """A panel per chosen pair (a, b): a's time (x) against b's (y) per puzzle."""
    fig, axes = _panels(max(len(chosen), 1))
    edge = border_ms(results, timeout)
    span = time_range(results, edge)
    legend: dict[str, Any] = {}
    for ax, (a, b) in zip(axes, chosen):
        frame_axes(ax, span, timeout)
        legend |= draw_points(ax, results, a, b, edge)
        ax.set_xlabel(_("{backend} (ms, log scale)").format(backend=a))
        ax.set_ylabel(_("{backend} (ms, log scale)").format(backend=b))
    scatter_titles(fig, legend, edge)
    return fig


def remove_old_scatters(out: Path) -> None:
    """The scatter/ folder of one PNG per pair that earlier versions wrote, removed."""
    folder = out / "scatter"
    if folder.is_dir():
        for old in folder.glob("*_vs_*.png"):
            old.unlink()
        if not any(folder.iterdir()):
            folder.rmdir()
