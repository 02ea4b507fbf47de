"""The pieces of the scatter plots: each puzzle's times for a pair of backends, unsolved runs on
the border, log-log axes that every pair shares, a panel's points (a seeded sample past
SCATTER_POINTS) and the titles of a figure of panels; the pairs named by --scatter, read and
checked. plots.py lays them out as the scatter matrix or the chosen pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sudokucp.i18n import _
from sudokucp.reporting.scores import PENALTY, solved_mask
from sudokucp.stats import one_line_per_puzzle

MIN_MS = 1e-2  # the smallest time a log axis shows (ms)
SCATTER_POINTS = 2000  # points drawn per panel at most (a seeded sample of the puzzles)


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


def time_range(results: pd.DataFrame, edge: float) -> tuple[float, float]:
    """The span of the scatter axes (ms): from half the quickest solved time to past the border,
    or to three times the slowest when every run was solved (no point on the border)."""
    ok = solved_mask(results)
    solved = results.loc[ok, "seconds"].astype(float) * 1000
    low = max(min(float(solved.min()) if len(solved) else 1.0, edge) / 2, MIN_MS)
    if ok.all() and len(solved):
        return low, min(edge * 1.6, max(float(solved.max()) * 3, low * 100))
    return low, edge * 1.6


def frame_axes(ax: Any, span: tuple[float, float], timeout: float | None) -> None:
    """Log-log axes over `span`: the diagonal solid, 10x either way dotted, the limit dashed."""
    from matplotlib.ticker import FuncFormatter

    low, high = span
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


def draw_points(ax: Any, results: pd.DataFrame, a: str, b: str, edge: float,
                cap: int = SCATTER_POINTS) -> dict[str, Any]:
    """The puzzles both ran as points on `ax` (at most `cap`, a seeded sample), a colour per data
    set, unsolved ones as crosses on the border; a short title; the handles per data set."""
    both = paired_times(results, a, b, edge)
    sets = {name: f"C{i % 10}" for i, name in enumerate(sorted(both["dataset"].unique()))}
    shown = both
    if len(both) > cap:
        pick = np.sort(np.random.default_rng(0).choice(len(both), cap, replace=False))
        shown = both.iloc[pick]
    handles = {}
    size = 6 if len(shown) > 200 else 16
    for dataset, group in shown.groupby("dataset", sort=True):
        lost = (group[a] >= edge) | (group[b] >= edge)
        handles[str(dataset)] = ax.scatter(group.loc[~lost, a], group.loc[~lost, b], s=size,
                                           alpha=0.6, color=sets[dataset], linewidths=0)
        ax.scatter(group.loc[lost, a], group.loc[lost, b], s=14, marker="x",
                   color=sets[dataset])
    faster = int((both[b] < both[a]).sum())
    drawn = "" if len(shown) == len(both) else _("; {shown} drawn").format(shown=f"{len(shown):,}")
    ax.set_title(_("{count} puzzles{drawn}; {b} faster on {faster}").format(
        count=f"{len(both):,}", drawn=drawn, b=b, faster=f"{faster:,}"), fontsize="x-small")
    return handles


def scatter_titles(fig: Any, legend: dict[str, Any], edge: float) -> None:
    """The figure's title, what the border means, and the data sets' colours below."""
    fig.suptitle(_("Time per puzzle, backend against backend (ms, log scales); below the "
                   "diagonal: the one on the y axis faster; unsolved on the border "
                   "({seconds} s)").format(seconds=f"{edge / 1000:g}"), fontsize="small")
    if legend:
        fig.legend(list(legend.values()), list(legend), loc="outside lower center",
                   ncol=min(len(legend), 4), fontsize="small", frameon=False, markerscale=2)


def chosen_pairs(texts: Sequence[str], backends: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs named by --scatter values ('A,B', several joined by ';'), each a pair of
    `backends` (a name that holds a comma is found whole); ValueError, in one line, for a
    value that names no two of them."""
    known = list(dict.fromkeys(backends))
    found: list[tuple[str, str]] = []
    for text in texts:
        for item in filter(None, (piece.strip() for piece in text.split(";"))):
            pair = _split_pair(item, known)
            if pair not in found:
                found.append(pair)
    return found


def _split_pair(item: str, known: Sequence[str]) -> tuple[str, str]:
    cuts = [i for i, char in enumerate(item) if char == ","]
    for cut in cuts:
        a, b = item[:cut].strip(), item[cut + 1:].strip()
        if a in known and b in known and a != b:
            return a, b
    if not cuts:
        why = _("'{item}' is not two backends joined by a comma (A,B)").format(item=item)
    else:
        missing = [name.strip() for name in item.split(",") if name.strip() not in known]
        why = (_("'{name}' is not a backend of this run").format(name=missing[0]) if missing
               else _("'{item}' names one backend twice").format(item=item))
    raise ValueError(_("--scatter: {why} (backends: {names})").format(
        why=why, names=", ".join(known)))
