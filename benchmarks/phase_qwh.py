"""The QWH half of benchmarks/phase.py: quasigroup with holes beside generalized Sudoku.

Latin-square completion of the same order (sudokucp.generators.latin: a Latin square of the
Jacobson-Matthews chain, its rows repeated as jigsaw regions), holes random or singly balanced
at the same F, written as files '{side}_qwh-{placement}_{F}.txt' so that the sweep's tables
carry them as placements 'qwh-random' and 'qwh-singly'. Here: those files, how far the chain
mixes, the peaks of the two problems side by side, their sentences, and their plot.
"""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pandas as pd

from sudokucp.generators.latin import (
    PLACEMENTS,
    cube_of,
    cyclic,
    generate_qwh,
    intercalates,
    proper_move,
    square_of,
)
from sudokucp.io.variants import to_text
from sudokucp.puzzle import Shape
from sudokucp.reporting.plots import COLOURS, MARKERS, _pyplot

PREFIX = "qwh-"
SUDOKU = ("random", "singly", "doubly")
CHECKPOINTS = (0, 1 / 64, 1 / 16, 1 / 4, 1)  # proper moves, in units of N^3
POINT_NAMES = ("0", "N^3/64", "N^3/16", "N^3/4", "N^3")
QWH_QUOTED = 0.42  # the QWH peak usually quoted (not checked: see the literature section)


def is_qwh(placement: str) -> bool:
    return placement.startswith(PREFIX)


def qwh_files(order: str, balances: list[str], fractions: list[float], count: int, seed: int,
              folder: Path) -> list[Path]:
    """One file of variant blocks per QWH placement and F, named 'SIDE_qwh-PLACEMENT_F'."""
    shape, files = Shape.parse(order), []
    for balance in [b for b in balances if b in PLACEMENTS]:
        for fraction in fractions:
            made = generate_qwh(shape, count, fraction, balance, seed)
            path = folder / f"{shape.side}_{PREFIX}{balance}_{fraction:.2f}.txt"
            path.write_text("\n".join(to_text(b.puzzle) for b in made))
            files.append(path)
    return files


# --- how far the chain mixes -----------------------------------------------------------------

def chain_figures(n: int, seed: int) -> list[tuple[int, float, int, float]]:
    """Along one chain from the cyclic square: at each checkpoint the proper moves made, the
    share of cells kept from the cyclic square, the intercalates, and steps per proper move."""
    start, rng = cyclic(n), random.Random(f"mixing:{n}:{seed}")
    cube, done, steps, out = cube_of(start, n), 0, 0, []
    for point in CHECKPOINTS:
        target = round(point * n ** 3)
        while done < target:
            steps += proper_move(cube, n, rng)
            done += 1
        square = square_of(cube, n)
        kept = sum(a == b for a, b in zip(square, start)) / n ** 2
        out.append((done, kept, intercalates(square, n), steps / done if done else 0.0))
    return out


def mixing_table(sides: list[int], samples: int) -> str:
    """Per side and checkpoint, the means over `samples` chains, beside 1/N and N^2/4."""
    lines = ["| side | proper moves | kept | 1/N | intercalates | N^2/4 | steps per move |",
             "|---|---|---|---|---|---|---|"]
    for n in sides:
        runs = [chain_figures(n, s) for s in range(samples)]
        for k, point in enumerate(POINT_NAMES):
            at = [run[k] for run in runs]
            kept = statistics.mean(a[1] for a in at)
            inter = statistics.mean(a[2] for a in at)
            steps = statistics.mean(a[3] for a in at)
            lines.append(f"| {n} | {at[0][0]:,} ({point}) | {kept:.3f} | {1 / n:.3f} | "
                         f"{inter:.0f} | {n * n / 4:.0f} | {steps:.1f} |")
    return "\n".join(lines)


MIXING = """\
## How far the Latin squares mix

Each QWH puzzle's square is the cyclic square after N^3 proper moves of the Jacobson-Matthews
chain (one square per seed and puzzle index, the same at every F and placement; its holes drawn
apart). Along {samples} chains per side (the same moves, other seeds): `kept`, the share of cells
still equal to the cyclic square (about 1/N between unrelated squares), and the number of
intercalates (2x2 Latin subsquares), which a uniformly random square of order N has about
N^2/4 of ((1+o(1)) N^2/4: Kwan, Sah and Sawhney, *Large deviations in random Latin squares*,
Bull. LMS 2022, resolving a conjecture of McKay and Wanless). The cyclic square has none at odd
N, and N^2/4 at even N (rows and columns N/2 apart): there only `kept` tells the start from a
mixed square. `steps per move`: the chain's steps (improper ones included) per
proper move so far. Neither statistic proves the squares uniform; they say the start is
forgotten.

{table}
"""


# --- the two problems side by side -----------------------------------------------------------

def at_edge(top: pd.DataFrame) -> pd.Series:
    """Whether each peak lies at an edge of the F tried (phase.peaks' 'edge'; none without it)."""
    return top["edge"] if "edge" in top else pd.Series(False, index=top.index)


def side_by_side(top: pd.DataFrame, fmt) -> pd.DataFrame:
    """Per side and backend: each placement's peak 'F: median' ('F (edge): median' at an edge of
    the F tried), Sudoku's three and QWH's two."""
    shown = [p for p in (*SUDOKU, *(PREFIX + b for b in PLACEMENTS))
             if p in set(top["balance"])]
    rows = []
    for (side, backend), group in top.groupby(["side", "backend"]):
        at = group.assign(edge=at_edge(group)).set_index("balance")
        rows.append({"side": side, "backend": backend, **{
            (f"QWH {p[len(PREFIX):]}" if is_qwh(p) else f"Sudoku {p}"):
                f"{at.loc[p, 'fraction']:.2f}{' (edge)' if at.loc[p, 'edge'] else ''}: "
                f"{fmt(at.loc[p, 'median'])}"
            for p in shown if p in at.index}})
    return pd.DataFrame(rows)


def where_table(top: pd.DataFrame) -> pd.DataFrame:
    """Per side and placement: the peak F over the backends, median (lowest to highest), of the
    peaks inside the F tried ('edge' false where the column is there); those at an edge
    counted."""
    names = {p: (f"QWH {p[len(PREFIX):]}" if is_qwh(p) else f"Sudoku {p}")
             for p in (*SUDOKU, *(PREFIX + b for b in PLACEMENTS))}
    rows = []
    for side, group in top.groupby("side"):
        cells = {}
        for placement, part in group.groupby("balance"):
            edge = at_edge(part)
            f = part.loc[~edge, "fraction"]
            text = f"{f.median():.2f} ({f.min():.2f}-{f.max():.2f})" if len(f) else "none inside"
            cells[names.get(placement, placement)] = (
                text + (f", {int(edge.sum())} at an edge" if edge.any() else ""))
        rows.append({"side": side, **{n: cells[n] for n in names.values() if n in cells}})
    return pd.DataFrame(rows)


def _ratio(wide: pd.DataFrame, top: str, bottom: str) -> pd.Series:
    if not {top, bottom} <= set(wide.columns):
        return pd.Series(dtype=float)
    return (wide[top] / wide[bottom]).dropna()


def comparison(top: pd.DataFrame, limit: float, tried: list[float]) -> str:
    """Sentences computed from the peaks: where each problem's peak sits, which is higher."""
    qwh = top[top["balance"].map(is_qwh)]
    sudoku = top[~top["balance"].map(is_qwh)]
    if qwh.empty or sudoku.empty:
        return "No QWH points in this run."
    wide = top.pivot_table(index=["backend", "side"], columns="balance", values="median")
    censored = (top["median"] >= limit * 0.999).sum()
    out = []
    for name, part in (("generalized Sudoku", sudoku), ("QWH", qwh)):
        where = part[~at_edge(part)].groupby("balance")["fraction"].median()
        out.append(f"{', '.join(f'{f:.2f} ({b})' for b, f in where.items()) or 'none'} for "
                   f"{name}")
    lines = [f"Where the peaks sit in this run (the median over backends and sides of the F "
             f"of each peak inside the F tried): {'; '.join(out)}; the QWH peak usually quoted "
             f"is about "
             f"{QWH_QUOTED:.0%} holes (not checked here), and the F tried run from "
             f"{min(tried):.2f} to {max(tried):.2f}; a peak whose F tie at the limit sits at the "
             f"middle one."]
    for top_p, bottom_p in (("doubly", "qwh-singly"), ("random", "qwh-random"),
                            ("singly", "qwh-singly")):
        ratio = _ratio(wide, top_p, bottom_p)
        if len(ratio):
            above = int((ratio > 1).sum())
            lines.append(f"Sudoku {top_p} over QWH {bottom_p[len(PREFIX):]} (peak medians, "
                         f"per backend and side): higher in {above} of {len(ratio)} pairs, "
                         f"ratio {ratio.min():.2g} to {ratio.max():.2g} (median "
                         f"{ratio.median():.2g}).")
    ratio = _ratio(wide, "qwh-singly", "qwh-random")
    if len(ratio):
        by_backend = ratio.groupby(level="backend").median().sort_values(ascending=False)
        lines.append("QWH singly over QWH random, median over sides per backend: "
                     + ", ".join(f"{b} {r:.2g}x" for b, r in by_backend.items()) + ".")
    lines.append(f"{censored} of the {len(top)} peaks reached the CPU limit: their height is "
                 f"a lower bound, and a ratio with one of them is bounded, not measured.")
    return " ".join(lines)


def plot_beside(table: pd.DataFrame, path: Path, limit: float) -> None:
    """Median CPU against F: a panel per side (rows) and backend (columns), a colour per
    placement; generalized Sudoku solid, QWH dotted."""
    plt = _pyplot()
    sides = sorted(table["side"].unique())
    backends = list(dict.fromkeys(table["backend"]))
    placements = [p for p in (*SUDOKU, *(PREFIX + b for b in PLACEMENTS))
                  if p in set(table["balance"])]
    fig, axes = plt.subplots(len(sides), len(backends), squeeze=False, sharey=True,
                             figsize=(2.6 * len(backends), 2.3 * len(sides)))
    for row, side in zip(axes, sides):
        for ax, backend in zip(row, backends):
            for k, placement in enumerate(placements):
                line = table[(table["side"] == side) & (table["backend"] == backend)
                             & (table["balance"] == placement)].sort_values("fraction")
                ax.plot(line["fraction"], line["median"], color=COLOURS[k % len(COLOURS)],
                        marker=MARKERS[k % len(MARKERS)], markersize=3,
                        linestyle=":" if is_qwh(placement) else "-", label=placement)
            ax.axhline(limit, color="grey", linewidth=0.8)
            ax.set_yscale("log")
            ax.set_title(f"{side}x{side}, {backend}", fontsize=8)
            ax.tick_params(labelsize=6)
    for ax in axes[-1]:
        ax.set_xlabel("holes F", fontsize=7)
    for row in axes:
        row[0].set_ylabel("median CPU (s)", fontsize=7)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=len(placements), fontsize=7)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / (2.3 * len(sides))))  # the legend: 0.4 in
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
