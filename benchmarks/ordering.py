"""Ordering benchmark: how much the choice of the next cell costs or saves (reports/ordering.md).

    python benchmarks/ordering.py [--puzzles DIR] [--royle 0] [--sample 200] [--seed 0]
        [--timeout 2] [--repeat 3] [--jobs 1] [--out reports/ordering.md]

(a) `mrv` with its defaults (dynamic order) on every grid of royle17.txt (or the first --royle):
    median with its interval, p90, max, nodes and the number of grids over 1 s;
(b) on a seeded random sample of royle17.txt, each grid with a time-out: `mrv` dynamic, `mrv`
    dynamic looking at cells only (hidden=false), `mrv` static (cells sorted once, as the seeds
    do), and the seeds' row-major `naive` and `naive-iterative`. Solved counts, time-outs, medians
    with their interval and p10 to p90 over the grids solved, median nodes, and each order against
    `mrv` (paired ratios over the grids both solved, measured in the same sweep).

Every time comes from the harness (`common.measure`): each run in a killable worker, CPU time of
the search, `--repeat` runs of each backend on each grid in a shuffled order, each grid counted as
its median over them; every solution is judged by the checker and the backends cross-validated.
Unsolved grids as in the harness's summary (benchmarks/timings.py): `solved k of N`, times over
the grids solved.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from common import ROOT, Provenance, write_report
from timings import (
    CI,
    count,
    judge,
    labels,
    lines_of,
    median_ci,
    median_of,
    ratio,
    ratio_cell,
    solved,
    solved_of,
    spread,
    summary,
    summary_head,
    sweep,
)

from sudokucp.backends import from_spec
from sudokucp.io.formats import load_puzzles

SAMPLE_SPECS = [("mrv", "dynamic: fewest candidates, cells and units' last places"),
                ("mrv:hidden=false", "dynamic: fewest candidates, cells only"),
                ("mrv:order=static", "static: cells sorted once by candidates (the seeds')"),
                ("naive", "row-major, recursive (the seeds')"),
                ("naive-iterative", "row-major, explicit stack")]
SAFETY = 60.0  # seconds: part (a) has no time-out of its own, only this backstop


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def checked(specs: list[str], name: str, puzzles: list, args: argparse.Namespace,
            timeout: float, provenance: Provenance):
    """The per-puzzle lines of one harness sweep; a wrong answer or a disagreement stops."""
    frame, outcome = sweep(specs, name, puzzles, provenance=provenance, timeout=timeout,
                           repeat=args.repeat, seed=args.seed, jobs=args.jobs, limit=args.limit)
    judge(outcome)
    return frame


def all_royle(frame, label: str) -> list[str]:
    """Table of part (a)."""
    lines = lines_of(frame, label)
    over = int((solved(lines) > 1.0).sum()) + len(lines) - int(lines["answered"].sum())
    nodes = lines.loc[lines["answered"], "nodes"]
    return [f"| {summary_head()} | median nodes (solved) | max nodes (solved) | over 1 s or "
            "unsolved |", "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {summary(lines)} | {median_of(lines, 'nodes')} | "
            f"{nodes.max() if len(nodes) else float('nan'):,.0f} | {over} |"]


def sample_table(frame, names: dict[str, str]) -> list[str]:
    """Table of part (b); ratios against the first backend."""
    base = names[SAMPLE_SPECS[0][0]]
    out = [f"| backend | order | solved | time-outs | median ms (solved) [{CI}] | p10 to p90 ms "
           "(solved) | median nodes (solved) | CPU time vs `mrv` (paired, grids both solved) |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    for spec, order in SAMPLE_SPECS:
        label = names[spec]
        lines = lines_of(frame, label)
        seconds = solved(lines)
        out.append(f"| `{label}` | {order} | {solved_of(lines)} | {count(lines, 'timeout')} | "
                   f"{median_ci(seconds)} | {spread(seconds)} | {median_of(lines, 'nodes')} | "
                   f"{ratio_cell(frame, base, label)} |")
    return out + [""] + [f"- {ratio(frame, base, names[spec])}" for spec, _ in SAMPLE_SPECS[1:]]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles",
                        help="folder of the public puzzle sets (default: ../shared/puzzles)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "ordering.md")
    parser.add_argument("--royle", type=int, default=0,
                        help="part (a) on the first N grids of royle17.txt only (default 0: all)")
    parser.add_argument("--sample", type=int, default=200, help="grids in the sample of part (b)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample and of the order")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per grid in (b)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each backend on each grid")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time")
    parser.add_argument("--limit", type=int, default=1,
                        help="solutions to look for (1 = first, 2 = prove uniqueness)")
    args = parser.parse_args(argv)
    if not (args.puzzles / "royle17.txt").is_file():
        parser.error(f"no royle17.txt in {args.puzzles}: give --puzzles")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])
    royle = load_puzzles(args.puzzles / "royle17.txt")
    sample = random.Random(args.seed).sample(royle, min(args.sample, len(royle)))
    grids = royle[:args.royle] if args.royle else royle
    log(f"royle17: {len(grids)} grids, sample of {len(sample)}")
    names = labels(spec for spec, _ in SAMPLE_SPECS)

    full = checked(["mrv"], "royle17", grids, args, SAFETY, provenance)
    log("(a) done")
    options = ", ".join(f"{k}={v}" for k, v in from_spec("mrv").options.items())
    body = ["## (a) `mrv` (dynamic order, the default) on royle17.txt", "",
            f"{len(grids)} grids, no time-out of its own (a {SAFETY:g} s backstop); options "
            f"{options}: at every node the empty cell with the fewest candidates, or a digit with "
            "a single place left in a unit when no cell has fewer than two (a dead end when a "
            "digit has no place). Part (b) has the cells-only variant. Target: no grid over 1 s.",
            "", *all_royle(full, names["mrv"]), ""]

    runs = checked(list(names.values()), "royle17-sample", sample, args, args.timeout, provenance)
    log("(b) done")
    body += [f"## (b) Orders on {len(sample)} random royle17 grids (seed {args.seed}), "
             f"{args.timeout:g} s time-out each", "",
             "The five backends in one sweep, their runs shuffled together. Medians and "
             "percentiles are over the grids each backend solved (as in the harness's summary), "
             "so compare them with the solved counts beside them. The last column is "
             "`sudokucp.stats.paired` against `mrv` over the grids both solved: the geometric "
             "mean of the per-grid ratios with its interval, so it understates the gap where the "
             "slower one timed out.", "", *sample_table(runs, names), ""]

    head = ["# Search order: MRV dynamic and static against row-major backtracking", "",
            *provenance.lines(),
            f"- puzzles: `{os.path.relpath(args.puzzles, ROOT)}`; limit {args.limit}; each "
            f"backend {args.repeat} time(s) on each grid, the runs of a sweep shuffled (seed "
            f"{args.seed}), {args.jobs} at a time, each in a harness worker; times are CPU "
            "milliseconds of the search, each grid its median over its runs; every solution "
            "judged by the checker", ""]
    write_report(args.out, "\n".join(head + body))
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
