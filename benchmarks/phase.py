"""The hardness peak of generalized Sudoku (reports/phase.md, plots in reports/phase/).

    python benchmarks/phase.py [--orders 9x9 16x16 25x25@0.45-0.80 30x30:5x6 36x36]
        [--fractions 0.40 0.45 ... 0.80] [--balances random singly doubly] [--count 3]
        [--backends jit pysat cpsat sat hybrid] [--repeat 1] [--cpu-limit 5] [--timeout 60]
        [--seed 0] [--jobs 1] [--qwh] [--qwh-fractions 0.30 ... 0.60] [--mixing-samples 2]
        [--out reports/phase.md]

Per order of --orders, per placement of --balances and per hole fraction F of --fractions
(an order written ORDER@LO-HI takes only the F from LO to HI: each order's window around its peak),
--count puzzles of sudokucp.generators.balanced (a random full grid, round(F*N*N) holes;
satisfiable, not checked unique), every backend of --backends on each through the harness
(isolated workers, CPU time, --cpu-limit, --repeat runs in a shuffled order, every answer
judged, the backends cross-validated), limit 1 (one solution). Per backend, order, placement and
F: the median and p90 CPU over the puzzles, an unsolved puzzle counted at the limit (so a
figure at the limit is a lower bound), and the share solved. The peak: the F of the highest
median (ties: the highest p90); at the first or last F tried it is an edge, not a peak seen, and
the summaries of where the peaks sit leave it out. The growth with the order: each backend's
peak height per side, doubly balanced, fitted as cost ~ side^b on log-log axes over the sides
whose peak was solved.
With --qwh, quasigroup with holes of the same orders beside them (benchmarks/phase_qwh.py:
Latin-square completion, holes random or singly balanced at the same F, placements 'qwh-random'
and 'qwh-singly' in every table; at --qwh-fractions when given, for every order, since its peak
lies at fewer holes), how far its Latin squares mix, and the two problems' peaks compared.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from common import ROOT, Provenance, measure, write_report
from phase_qwh import (
    MIXING,
    comparison,
    is_qwh,
    mixing_table,
    plot_beside,
    qwh_files,
    side_by_side,
    where_table,
)

from sudokucp.generators.balanced import BALANCES, generate_balanced
from sudokucp.puzzle import Shape
from sudokucp.reporting.plots import COLOURS, LINES, MARKERS, _pyplot
from sudokucp.reporting.report import markdown_table, results_frame
from sudokucp.result import ANSWERED, Status
from sudokucp.stats import one_line_per_puzzle, percentile

BACKENDS = ("jit", "pysat", "cpsat", "sat", "hybrid")
FAMILIES = {"jit": "compiled: depth-first below 25x25, clause learning from it",
            "hybrid": "depth-first (logic + MRV)",
            "pysat": "clause learning (CaDiCaL)", "sat": "clause learning (PicoSAT)",
            "cpsat": "CP-SAT (lazy clause generation)"}
SOLVED = {s.value for s in ANSWERED}
LITERATURE = """\
## The published figures

What could be checked here (the abstracts, through a search of stored public pages; the
papers' figures themselves could not be read, so no published peak location or height is
quoted from them):

- Ansótegui, Béjar, Fernàndez, Gomes and Mateu, *The Impact of Balancing on Problem Hardness in
  a Highly Structured Domain*, AAAI 2006: their abstract says that Generalized Sudoku instances
  can be generated that are "considerably harder than QCP/QWH instances of the same size", and
  that they show "the impact of different balancing strategies on problem hardness"
  (studylib.net/doc/13689038, researchgate.net/publication/221603264).
- The same authors, *Generating highly balanced Sudoku problems as hard problems*, J. Heuristics
  17(5):589-614, 2011: the abstract says that GSP with rectangular m x n blocks (m != n) is
  NP-complete, and "the more balanced are the constraints, the higher the complexity"
  (iaorifors.com/paper/72220, paperexplained.cn).
- Achlioptas, Gomes, Kautz and Selman, *Generating Satisfiable Problem Instances*, AAAI 2000
  (quasigroup with holes): the abstract ties hardness to "a new kind of phase transition
  phenomenon" (studylib.net/doc/13685630). The figure of about 42% holes for the QWH peak is
  the one usually quoted; it was not found in the text that could be searched here, so it is
  not checked.
- Jacobson and Matthews, *Generating uniformly distributed random Latin squares*, J. Combin.
  Des. 4(6):405-437, 1996: the chain of proper and improper squares whose limit is uniform,
  which makes this report's QWH squares (sudokucp.generators.latin).
- QWH is measured here (with --qwh) as Latin-square completion: the same backends on a grid
  whose jigsaw regions repeat its rows, so that only rows and columns constrain. Its peak in
  this run is set beside the 42% above in the comparison's sentences; that figure itself
  stays unchecked.
"""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--orders", nargs="+",
                        default=["9x9", "16x16", "25x25", "30x30:5x6", "36x36"])
    parser.add_argument("--fractions", nargs="+", type=float,
                        default=[round(0.40 + 0.05 * i, 2) for i in range(9)])
    parser.add_argument("--balances", nargs="+", choices=BALANCES, default=list(BALANCES))
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--cpu-limit", type=float, default=5.0)
    parser.add_argument("--timeout", type=float, default=60.0, help="wall limit per run (s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--qwh", action="store_true",
                        help="quasigroup with holes of the same orders beside the Sudoku ones")
    parser.add_argument("--qwh-fractions", nargs="+", type=float, default=None,
                        help="the F of the QWH puzzles at every order (default: each order's F)")
    parser.add_argument("--mixing-samples", type=int, default=2,
                        help="chains per order in the Latin squares' mixing table (--qwh)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "phase.md")
    return parser.parse_args(argv)


def window(spec: str, fractions: list[float]) -> tuple[str, list[float]]:
    """An order of --orders and the F it is tried at: 'ORDER@LO-HI' keeps those from LO to HI."""
    order, _, span = spec.partition("@")
    if not span:
        return order, list(fractions)
    low, _, high = span.partition("-")
    try:
        kept = [f for f in fractions if float(low) - 1e-9 <= f <= float(high) + 1e-9]
    except ValueError:
        raise SystemExit(f"phase.py: {spec!r}: write an order's window as ORDER@LO-HI, "
                         "for example 25x25@0.45-0.80") from None
    if not kept:
        raise SystemExit(f"phase.py: {spec!r}: no F of --fractions lies in that window")
    return order, kept


def tried(args: argparse.Namespace) -> dict[tuple[int, bool], list[float]]:
    """The F tried per side, generalized Sudoku's (False) and QWH's (True, with --qwh)."""
    out = {}
    for order, fractions in (window(spec, args.fractions) for spec in args.orders):
        side = Shape.parse(order).side
        out[side, False] = fractions
        if args.qwh:
            out[side, True] = list(args.qwh_fractions or fractions)
    return out


def puzzle_files(spec: str, args: argparse.Namespace, folder: Path) -> list[Path]:
    """One file per placement and F, named 'SIDE_PLACEMENT_F' (the harness's dataset)."""
    order, fractions = window(spec, args.fractions)
    shape, files = Shape.parse(order), []
    for balance in args.balances:
        for fraction in fractions:
            made = generate_balanced(shape, args.count, fraction, balance, args.seed)
            path = folder / f"{shape.side}_{balance}_{fraction:.2f}.txt"
            path.write_text("".join(f"{b.puzzle.to_line()}\n" for b in made))
            files.append(path)
    if args.qwh:
        files += qwh_files(order, args.balances, args.qwh_fractions or fractions, args.count,
                           args.seed, folder)
    return files


def sweep(args: argparse.Namespace, provenance: Provenance) -> pd.DataFrame:
    """Every run of every order, one line per puzzle and backend, with side, balance and F."""
    frames = []
    for order in args.orders:
        with tempfile.TemporaryDirectory(prefix="sudokucp-phase-") as scratch:
            files = puzzle_files(order, args, Path(scratch))
            log(f"{order}: {len(files)} sets x {args.count} puzzles x {len(args.backends)} "
                f"backends")
            outcome = measure(args.backends, files, repeat=args.repeat, seed=args.seed,
                              timeout=args.timeout, cpu_limit=args.cpu_limit, jobs=args.jobs,
                              provenance=provenance)
        wrong = sum(r.status is Status.WRONG for r in outcome.rows)
        log(f"{order}: {len(outcome.rows)} runs, wrong {wrong}, disagreements "
            f"{len(outcome.disagreements)}")
        frames.append(one_line_per_puzzle(results_frame(outcome.rows)))
    frame = pd.concat(frames, ignore_index=True)
    parts = frame["dataset"].str.split("_", expand=True)
    frame["side"], frame["balance"] = parts[0].astype(int), parts[1]
    frame["fraction"] = parts[2].astype(float)
    frame["solved"] = frame["status"].isin(SOLVED)
    return frame


def points(frame: pd.DataFrame, limit: float) -> pd.DataFrame:
    """Median and p90 CPU (s, unsolved at the limit) and share solved per backend x side x
    balance x F."""
    rows = []
    keys = ["backend", "side", "balance", "fraction"]
    for key, group in frame.groupby(keys):
        cost = np.where(group["solved"], group["seconds"], limit)
        rows.append({**dict(zip(keys, key)), "puzzles": len(group),
                     "solved": int(group["solved"].sum()), "median": percentile(cost, 50),
                     "p90": percentile(cost, 90)})
    return pd.DataFrame(rows)


def seconds(value: float, limit: float) -> str:
    """A cost as text, '≥' when it reached the limit."""
    text = (f"{value * 1000:.3g} ms" if value < 1 else f"{value:.3g} s" if value < 1000
            else f"{value:,.0f} s")  # .3g writes 1,200 s as 1.2e+03
    return f"≥{text}" if value >= limit * 0.999 else text


def order_table(table: pd.DataFrame, side: int, limit: float) -> str:
    """One order: a line per backend and placement, a column per F: 'median / p90 (solved)'."""
    part = table[table["side"] == side]
    cells = {(r.backend, r.balance): {} for r in part.itertuples()}
    for r in part.itertuples():
        cells[(r.backend, r.balance)][f"{r.fraction:.2f}"] = (
            f"{seconds(r.median, limit)} / {seconds(r.p90, limit)} ({r.solved}/{r.puzzles})")
    shown = pd.DataFrame(cells).T.rename_axis(["backend", "holes"]).reset_index()
    return markdown_table(shown)


def peaks(table: pd.DataFrame, tried: dict[tuple[int, bool], list[float]] | None = None
          ) -> pd.DataFrame:
    """Per backend x side x balance: the F of the highest median (then p90), and its figures;
    where several F tie (all at the CPU limit, most often), the middle one, the tied F listed
    in 'tied' ('' when one F stands alone); 'edge' when that F is the first or last of the F
    tried there (`tried`, by side and QWH or not)."""
    rows = []
    for _, group in table.groupby(["backend", "side", "balance"]):
        best = group[group["median"] == group["median"].max()]
        best = best[best["p90"] == best["p90"].max()].sort_values("fraction")
        row = best.iloc[(len(best) - 1) // 2].copy()
        row["tied"] = " ".join(f"{f:.2f}" for f in best["fraction"]) if len(best) > 1 else ""
        rows.append(row)
    top = pd.DataFrame(rows).sort_values(["side", "balance", "backend"], ignore_index=True)
    top["edge"] = [tried is not None and f in {min(tried[side, is_qwh(balance)]),
                                               max(tried[side, is_qwh(balance)])}
                   for side, balance, f in zip(top["side"], top["balance"], top["fraction"])]
    return top


def peak_table(top: pd.DataFrame, limit: float) -> str:
    """The peaks; '(edge)': the peak F is the first or last F tried there (the peak may lie
    beyond); '(tied: ...)': the F whose figures tie at the top, the middle one shown."""
    shown = pd.DataFrame({
        "side": top["side"], "holes": top["balance"], "backend": top["backend"],
        "peak F": [f"{f:.2f}" + (" (edge)" if edge else "") + (f" (tied: {tied})" if tied else "")
                   for f, edge, tied in zip(top["fraction"], top["edge"], top["tied"])],
        "median": [seconds(v, limit) for v in top["median"]],
        "p90": [seconds(v, limit) for v in top["p90"]],
        "solved": [f"{s}/{n}" for s, n in zip(top["solved"], top["puzzles"])]})
    return markdown_table(shown)


def growth(top: pd.DataFrame, limit: float, balance: str = "doubly") -> pd.DataFrame:
    """Per backend: cost ~ side^b fitted on log-log axes over the sides whose peak median is
    below the limit (a censored height bends the fit down, so it is left out) and inside the F
    tried (at an edge, the highest cost seen is no peak)."""
    rows = []
    for backend, group in top[top["balance"] == balance].groupby("backend"):
        kept = group[(group["median"] < limit * 0.999) & ~group["edge"]]
        fit = (np.polyfit(np.log(kept["side"]), np.log(kept["median"]), 1)[0]
               if len(kept) >= 2 else math.nan)
        rows.append({"backend": backend, "family": FAMILIES.get(backend, "?"),
                     "sides fitted": ", ".join(map(str, kept["side"])) or "none",
                     "b (cost ~ side^b)": "n/a" if math.isnan(fit) else f"{fit:.1f}",
                     "censored sides": ", ".join(
                         map(str, group[group["median"] >= limit * 0.999]["side"])) or "none",
                     "sides at an edge": ", ".join(map(str, group[group["edge"]]["side"]))
                     or "none"})
    return pd.DataFrame(rows)


def style(index: int) -> dict[str, str]:
    return {"color": COLOURS[index % len(COLOURS)], "marker": MARKERS[index % len(MARKERS)]}


def plot_sweep(table: pd.DataFrame, path: Path, limit: float) -> None:
    """Median CPU against F, a panel per order, a colour per backend, a line style per
    placement (generalized Sudoku's only); the limit drawn as a grey line."""
    plt = _pyplot()
    table = table[~table["balance"].map(is_qwh)]
    sides = sorted(table["side"].unique())
    backends = list(dict.fromkeys(table["backend"]))
    fig, axes = plt.subplots(1, len(sides), figsize=(4.2 * len(sides), 3.8), squeeze=False)
    for ax, side in zip(axes[0], sides):
        for i, backend in enumerate(backends):
            for j, balance in enumerate(sorted(table["balance"].unique())):
                line = table[(table["side"] == side) & (table["backend"] == backend)
                             & (table["balance"] == balance)].sort_values("fraction")
                ax.plot(line["fraction"], line["median"], linestyle=LINES[j % len(LINES)],
                        label=f"{backend}, {balance}", markersize=3, **style(i))
        ax.axhline(limit, color="grey", linewidth=0.8)
        ax.set(yscale="log", title=f"{side}x{side}", xlabel="holes F",
               ylabel="median CPU (s)")
    axes[0][-1].legend(fontsize=6, ncol=1, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_growth(top: pd.DataFrame, path: Path, limit: float) -> None:
    """Each backend's peak median (doubly balanced) against the side, log-log."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 4))
    part = top[top["balance"] == "doubly"]
    for i, (backend, group) in enumerate(part.groupby("backend")):
        group = group.sort_values("side")
        ax.plot(group["side"], group["median"], label=backend, **style(i))
    ax.axhline(limit, color="grey", linewidth=0.8)
    ax.set(xscale="log", yscale="log", xlabel="side N", ylabel="peak median CPU (s)",
           title="peak cost against the side (doubly balanced)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def balance_ratio(top: pd.DataFrame) -> pd.DataFrame:
    """Per backend and side: the peak median of doubly over random placement."""
    wide = top.pivot_table(index=["backend", "side"], columns="balance", values="median")
    if not {"doubly", "random"} <= set(wide.columns):
        return pd.DataFrame()
    ratio = (wide["doubly"] / wide["random"]).unstack("side")
    return ratio.map("{:.2g}".format).rename_axis("backend").reset_index()


WHY = """\
Why balance should make it harder. A solver first fills the cells that the givens force. With holes
placed at random, some rows, columns and boxes keep many givens and others few; the crowded ones
give away their missing digits almost at once, and each forced digit forces more, so the grid
unravels from its crowded corners. Balanced holes leave every row and column (doubly: every box
too) with the same number of unknowns, so no unit is a weak point to start from: propagation
stalls everywhere at once and the solver must guess, or learn clauses, much earlier. Whether
it does for a given solver is what the figures below say."""


def lesson(top: pd.DataFrame, limit: float) -> str:
    """Which backend's peak grew most with balance, and which was highest, at the largest side
    where at least half the backends' doubly peaks are below the limit (this run's figures)."""
    wide = top.pivot_table(index=["backend", "side"], columns="balance", values="median")
    if not {"doubly", "random"} <= set(wide.columns):
        return WHY
    known = wide["doubly"] < limit * 0.999
    shares = known.groupby(level="side").mean()
    side = int(max(shares[shares >= 0.5].index, default=top["side"].max()))
    at = wide.xs(side, level="side")
    ratio = (at["doubly"] / at["random"]).sort_values(ascending=False)
    worst = at["doubly"].sort_values(ascending=False)
    family = FAMILIES.get(worst.index[0], worst.index[0])
    measured = wide[wide["random"] < limit * 0.999]  # a censored random peak: no ratio
    overall = (measured["doubly"] / measured["random"]).groupby(level="backend").median()
    most = overall.idxmax()
    return (f"{WHY}\n\nIn this run, at {side}x{side}: the doubly balanced peak over the random "
            f"one is {', '.join(f'{b} {r:.2g}x' for b, r in ratio.items())}; the highest "
            f"doubly balanced peak is {worst.index[0]}'s ({family}, "
            f"{seconds(worst.iloc[0], limit)}), the lowest {worst.index[-1]}'s "
            f"({seconds(worst.iloc[-1], limit)}). Over the sides where the random peak is below "
            f"the limit (a lower bound where the doubly one reached it), the median of that "
            f"ratio is "
            f"{', '.join(f'{b} {r:.2g}x' for b, r in overall.sort_values().items())}: the "
            f"peak that rises most with balance is {most}'s ({FAMILIES.get(most, most)}). "
            f"{peak_place(top)} A peak at the limit hides how much higher it would be.")


def peak_place(top: pd.DataFrame) -> str:
    """Where the peak sits: the median peak F over backends and sides, per placement, the peaks
    at an edge of the F tried left out."""
    inside = top[~top["edge"]]
    where = inside.groupby("balance")["fraction"].median()
    if where.empty:
        return "No peak lies inside the F tried: each one is at an edge."
    return ("The peak sits (median over backends and sides of the F of the highest median, the "
            f"{int(top['edge'].sum())} at an edge of the F tried left out) at "
            + ", ".join(f"F = {f:.2f} for {'QWH ' + b[4:] if is_qwh(b) else b}"
                        for b, f in where.items()) + ".")


def qwh_sections(args: argparse.Namespace, table: pd.DataFrame, top: pd.DataFrame,
                 folder: Path, windows: dict[tuple[int, bool], list[float]]) -> list[str]:
    """With --qwh: the two problems' peaks side by side, their plot, the squares' mixing."""
    if not args.qwh:
        return []
    limit = args.cpu_limit
    plot_beside(table, folder / "sudoku-vs-qwh.png", limit)
    sides = sorted(int(s) for s in table["side"].unique())
    return ["## Generalized Sudoku beside QWH of the same order", "",
            "QWH: a random Latin square of the same order with holes at the same F, random or "
            "singly balanced (doubly needs boxes), the same backends, limit and puzzles per "
            "point. A worker's first QWH run on sat or pysat also builds the variant's clause "
            "tables (a few tenths of a second at 36x36), which a Sudoku run builds outside its "
            "measured time; a worker killed at the limit is replaced and builds them again. "
            "Per side and backend, each placement's peak: 'F: median CPU'.", "",
            f"![Sudoku (solid) and QWH (dotted)]({folder.name}/sudoku-vs-qwh.png)", "",
            markdown_table(side_by_side(top, lambda v: seconds(v, limit))), "",
            "Where each placement peaks, per side: the peak F over the backends, median "
            "(lowest-highest).", "", markdown_table(where_table(top)), "",
            comparison(top, limit, [f for fs in windows.values() for f in fs]), "",
            MIXING.format(samples=args.mixing_samples,
                          table=mixing_table(sides, args.mixing_samples))]


def windows_text(windows: dict[tuple[int, bool], list[float]]) -> str:
    """'F in 0.40, 0.45', or per side (and QWH apart) when they were tried at different F."""
    texts = {key: ", ".join(f"{f:.2f}" for f in fractions) for key, fractions in windows.items()}
    if len(set(texts.values())) == 1:
        return f"F in {next(iter(texts.values()))}"
    return "F in " + "; ".join(f"{text} at {side}x{side}{' (QWH)' if qwh else ''}"
                               for (side, qwh), text in texts.items())


def render(args: argparse.Namespace, provenance: Provenance, frame: pd.DataFrame,
           folder: Path) -> str:
    limit = args.cpu_limit
    table = points(frame, limit)
    windows = tried(args)
    top = peaks(table, windows)
    plot_sweep(table, folder / "cost-vs-holes.png", limit)
    plot_growth(top, folder / "growth.png", limit)
    frame.drop(columns=[c for c in ("solution",) if c in frame]).to_csv(
        folder / "results.csv", index=False)
    wrong = int((frame["status"] == Status.WRONG.value).sum())
    lines = ["# The hardness peak of generalized Sudoku", "", *provenance.lines(), "",
             f"{len(frame)} puzzle x backend lines ({args.repeat} run(s) each), CPU limit "
             f"{limit:g} s, limit 1 (one solution); wrong answers: {wrong}. Holes placed "
             f"{', '.join(args.balances)}; {windows_text(windows)};"
             f" {args.count} puzzles per point (seed {args.seed}), satisfiable by construction,"
             " not checked unique. A cost at the limit is written ≥ and is a lower bound.", "",
             f"![median CPU against F]({folder.name}/cost-vs-holes.png)", "",
             "## The peak per backend, order and placement", "",
             "The F of the highest median CPU (ties: the highest p90; F still tied, at the CPU "
             "limit most often: the middle one, the tied F listed), its median, p90 and share "
             "solved.", "", peak_table(top, limit), "",
             "## Balance: the peak median, doubly over random", "",
             markdown_table(balance_ratio(top)), "", "## For a student", "",
             lesson(top, limit), "",
             *qwh_sections(args, table, top, folder, windows),
             "## How cost grows with the order (doubly balanced, at each backend's peak)", "",
             f"![peak cost against the side]({folder.name}/growth.png)", "",
             markdown_table(growth(top, limit)), "",
             f"Each height is the median of {args.count} puzzles at one F, the highest of the "
             f"F tried: a small sample, its maximum biased upward by the choice of the peak. "
             f"Sides whose peak reached the CPU limit are left out of the fit (their true "
             f"height is unknown), and so are those whose highest cost is at an edge of the F "
             f"tried (no peak seen there); with two or three sides left, b is a rough slope, "
             f"not a law. "
             f"The puzzles are not checked unique.", "", LITERATURE]
    lines += ["## Every point", "", "median / p90 (solved/puzzles), CPU per puzzle.", ""]
    for side in sorted(table["side"].unique()):
        lines += [f"### {side}x{side}", "", order_table(table, side, limit), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    tried(args)  # a window that is not one says so before any run
    provenance = Provenance()
    frame = sweep(args, provenance)
    folder = args.out.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    text = render(args, provenance, frame, folder)
    write_report(args.out, text)
    write_report(folder / "README.md", "\n".join([
        f"# Plots and runs of {args.out.name}", "", *provenance.lines()[:3], "",
        "cost-vs-holes.png, growth.png, sudoku-vs-qwh.png (with --qwh) and results.csv (one "
        f"line per puzzle and backend) are made by the command above, with {args.out.name}."]))
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
