"""Ordering benchmark: how much the choice of the next cell costs or saves (reports/ordering.md).

    python benchmarks/ordering.py [--puzzles DIR] [--sample 200] [--seed 0] [--timeout 2]

(a) `mrv` with its defaults (dynamic order) on every grid of royle17.txt: median, p90, max and
    the number of grids over 1 s;
(b) on a seeded random sample of royle17.txt, each grid with a time-out (the backends' cooperative
    time_limit): `mrv` dynamic, `mrv` dynamic looking at cells only (hidden=false), `mrv` static
    (cells sorted once, as the seeds do), and the seeds' row-major `naive` and `naive-iterative`.
    Solved counts, time-outs, median/p90 time, median nodes, and ratios measured in this run.

Every solution claimed is checked with check.is_solution. Times are per solve() call: wall clock
(Result.seconds) and the process's CPU time, which is the one to read on a shared machine.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from common import load_average, machine  # noqa: E402

from sudokucp.backends import from_spec  # noqa: E402
from sudokucp.check import is_solution  # noqa: E402
from sudokucp.files import write_text  # noqa: E402
from sudokucp.formats import load_puzzles  # noqa: E402
from sudokucp.puzzle import Puzzle  # noqa: E402

SAMPLE_SPECS = [("mrv", "dynamic: fewest candidates, cells and units' last places"),
                ("mrv:hidden=false", "dynamic: fewest candidates, cells only"),
                ("mrv:order=static", "static: cells sorted once by candidates (the seeds')"),
                ("naive", "row-major, recursive (the seeds')"),
                ("naive-iterative", "row-major, explicit stack")]


@dataclass
class Runs:
    """Per-grid outcomes of one backend: wall and CPU seconds (inf on time-out), nodes."""

    spec: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    nodes: list[float] = field(default_factory=list)
    solved: list[bool] = field(default_factory=list)

    @property
    def timeouts(self) -> int:
        return self.solved.count(False)


def run(spec: str, puzzles: list[Puzzle], limit: int, timeout: float | None, log) -> Runs:
    """Solve each puzzle; a wrong answer or an error stops the benchmark."""
    backend, runs = from_spec(spec), Runs(spec)
    for puzzle in puzzles:
        start = time.process_time()
        result = backend.solve(puzzle, limit=limit, time_limit=timeout)
        cpu = time.process_time() - start
        if result.solutions and not all(is_solution(puzzle, s) for s in result.solutions):
            raise SystemExit(f"{spec}: wrong solution for {puzzle.name}")
        solved = result.status.value == "solved"
        if not solved and result.status.value != "timeout":
            raise SystemExit(f"{spec}: {result.status.value} on {puzzle.name} {result.error}")
        runs.wall.append(result.seconds if solved else math.inf)
        runs.cpu.append(cpu if solved else math.inf)
        runs.nodes.append(result.stats.get("nodes", 0))
        runs.solved.append(solved)
    log(f"{spec}: {runs.solved.count(True)} solved, {runs.timeouts} time-outs, "
        f"median {show(statistics.median(runs.wall), timeout)}")
    return runs


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def show(seconds: float, timeout: float | None = None) -> str:
    """Milliseconds, or '> timeout' for a time-out."""
    if math.isinf(seconds):
        return f"> {timeout * 1000:.0f}" if timeout else "∞"
    return f"{seconds * 1000:.2f}"


def all_royle(runs: Runs) -> list[str]:
    """Table of part (a)."""
    w, c = runs.wall, runs.cpu
    over = sum(1 for x in w if x > 1.0)
    return ["| grids | median ms | p90 ms | max ms | CPU median ms | CPU max ms | median nodes | "
            "max nodes | over 1 s |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            f"| {len(w)} | {show(statistics.median(w))} | {show(quantile(w, 0.9))} | "
            f"{show(max(w))} | {show(statistics.median(c))} | {show(max(c))} | "
            f"{statistics.median(runs.nodes):.0f} | {max(runs.nodes):.0f} | {over} |"]


def paired_ratio(runs: Runs, base: Runs) -> str:
    """Median over the grids both solved of this backend's CPU time over the base's."""
    ratios = [a / b for a, b in zip(runs.cpu, base.cpu)
              if not math.isinf(a) and not math.isinf(b) and b > 0]
    return f"{statistics.median(ratios):,.0f}x (n = {len(ratios)})" if ratios else "n/a"


def median_ratio(runs: Runs, base: Runs, timeout: float) -> str:
    """This backend's median CPU time over the base's; a lower bound when it timed out."""
    mine, theirs = statistics.median(runs.cpu), statistics.median(base.cpu)
    if math.isinf(mine):
        return f"> {timeout / theirs:,.0f}x"
    return f"{mine / theirs:,.0f}x"


def sample_table(all_runs: list[Runs], timeout: float) -> list[str]:
    """Table of part (b); ratios against the first backend."""
    base = all_runs[0]
    lines = ["| backend | order | solved | time-outs | median ms | p90 ms | CPU median ms | "
             "median nodes (solved) | median CPU vs `mrv` | per grid vs `mrv` |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for runs, (_, order) in zip(all_runs, SAMPLE_SPECS):
        solved_nodes = [n for n, ok in zip(runs.nodes, runs.solved) if ok]
        nodes = f"{statistics.median(solved_nodes):,.0f}" if solved_nodes else "n/a"
        lines.append(
            f"| `{runs.spec}` | {order} | {runs.solved.count(True)} | {runs.timeouts} | "
            f"{show(statistics.median(runs.wall), timeout)} | "
            f"{show(quantile(runs.wall, 0.9), timeout)} | "
            f"{show(statistics.median(runs.cpu), timeout)} | {nodes} | "
            f"{median_ratio(runs, base, timeout)} | {paired_ratio(runs, base)} |")
    return lines


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles",
                        help="folder of the public puzzle sets (default: ../shared/puzzles)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "ordering.md")
    parser.add_argument("--royle", type=int, default=0,
                        help="part (a) on the first N grids of royle17.txt only (default 0: all)")
    parser.add_argument("--sample", type=int, default=200, help="grids in the sample of part (b)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per grid in (b)")
    parser.add_argument("--limit", type=int, default=1,
                        help="solutions to look for (1 = first, 2 = prove uniqueness)")
    args = parser.parse_args(argv)
    if not (args.puzzles / "royle17.txt").is_file():
        parser.error(f"no royle17.txt in {args.puzzles}: give --puzzles")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    command = "python " + " ".join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])])
    out = ["# Search order: MRV dynamic and static against row-major backtracking", "",
           f"Generated by `{command}` (from the repository root); puzzles from "
           f"`{os.path.relpath(args.puzzles, ROOT)}`; limit {args.limit}; one process; every "
           "solution verified by the checker.", "", *machine(), ""]
    royle = load_puzzles(args.puzzles / "royle17.txt")
    sample = random.Random(args.seed).sample(royle, min(args.sample, len(royle)))
    grids = royle[:args.royle] if args.royle else royle
    log(f"royle17: {len(grids)} grids, sample of {len(sample)}")

    full = run("mrv", grids, args.limit, None, log)
    options = ", ".join(f"{k}={v}" for k, v in from_spec("mrv").options.items())
    out += ["## (a) `mrv` (dynamic order, the default) on royle17.txt", "",
            f"Every grid, no time-out; options {options}: at every node the empty cell with "
            "the fewest candidates, or a digit with a single place left in a unit when no cell "
            "has fewer than two (a dead end when a digit has no place). Part (b) has the "
            "cells-only variant. Over 1 s: "
            f"{sum(1 for x in full.wall if x > 1.0)} (target: none).", "", *all_royle(full), ""]

    sample_runs = [run(spec, sample, args.limit, args.timeout, log) for spec, _ in SAMPLE_SPECS]
    out += [f"## (b) Orders on {len(sample)} random royle17 grids (seed {args.seed}), "
            f"{args.timeout:g} s time-out each", "",
            "Time-outs count as infinitely slow in the medians and p90 (shown `> time-out`); "
            "\"median CPU vs `mrv`\" divides the medians (a lower bound when the median grid "
            "timed out); \"per grid vs `mrv`\" is the median of the per-grid CPU-time ratios over "
            "the grids both solved, so it understates the gap where the slower one timed out.",
            "", *sample_table(sample_runs, args.timeout), "",
            f"- load average at the end: {load_average()}", ""]

    write_text(args.out, "\n".join(out))
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
