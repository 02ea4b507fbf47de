"""pysat, minizinc and dlx beside sat, cpsat and the hybrid, written to reports/families.md.

    python benchmarks/families.py [--puzzles DIR] [--royle 1000] [--seed 14] [--limit 60]
        [--short 10] [--short-backends hybrid] [--repeat 3] [--repeat-25 1] [--jobs 2]
        [--only SETS] [--out reports/families.md]

Sets: a seeded sample of royle17, top95, forum_hardest_1106 and the 55 Gecode 16x16 grids with
uniqueness proved (limit 2); the 18 Gecode 25x25 grids, first solution (limit 1), `--repeat-25`
runs per grid (1 by default: a run there takes up to `--limit` seconds). Each set is one sweep of
the harness (`common.measure`): every backend on every grid `--repeat` times, the runs shuffled
together so that the machine's load falls on all backends alike, `--jobs` at a time, each in a
killable worker with `--limit` seconds; the backends in `--short-backends` get `--short` seconds
on 25x25 in a sweep of their own (they time out on every such grid: the report says so). Times
are CPU seconds of the search (model builds and imports apart, as base.py says; MiniZinc's
includes its flattening and the process it runs), each grid its median over its runs. Every
answer is judged by the checker and the backends cross-validated (a wrong count of solutions is
caught there: every grid of these sets has one). Unsolved grids as in the harness's summary
(benchmarks/timings.py): `solved k of N`, times over the grids solved, ratios over the grids both
solved. The report is rewritten after each set.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import pandas as pd
from common import ROOT, Provenance, write_report
from timings import LIMITED_HEAD, limited_row, lines_of, ratio, sweep

from sudokucp.backends import backend_class, get_backend
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle

BACKENDS = ("pysat", "minizinc", "dlx", "sat", "cpsat", "hybrid")
SETS = ("royle17", "top95", "forum_hardest_1106", "gecode_16x16", "gecode_25x25")
LARGE = "gecode_25x25"
PAIRS = [("hybrid", "dlx"), ("sat", "pysat")]  # (A, B): B / A


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def load_sets(folder: Path, royle: int, seed: int) -> dict[str, list[Puzzle] | Path]:
    """The five sets, files as they are but royle17 as a seeded sample of `royle` grids."""
    sets: dict[str, list[Puzzle] | Path] = {name: folder / f"{name}.txt" for name in SETS}
    grids = load_puzzles(folder / "royle17.txt")
    sets["royle17"] = random.Random(seed).sample(grids, min(royle, len(grids)))
    return sets


def one_sweep(args: argparse.Namespace, provenance: Provenance, name: str,
          puzzles: list[Puzzle] | Path, backends: list[str], timeout: float, limit: int,
          repeat: int) -> tuple[pd.DataFrame, list[str]]:
    """The per-puzzle lines of one sweep, and its disagreements."""
    frame, outcome = sweep(backends, name, puzzles, provenance=provenance, timeout=timeout,
                           repeat=repeat, seed=args.seed, jobs=args.jobs, limit=limit)
    return frame, [f"{d.puzzle}: {d.message}" for d in outcome.disagreements]


def run_set(args: argparse.Namespace, provenance: Provenance, name: str,
            puzzles: list[Puzzle] | Path, short: set[str]) -> tuple[pd.DataFrame, list[str]]:
    """Every backend on one set: one sweep, two on 25x25 (the short backends apart)."""
    if name != LARGE:
        return one_sweep(args, provenance, name, puzzles, args.backends, args.limit, 2, args.repeat)
    groups = [([b for b in args.backends if b not in short], args.limit),
              ([b for b in args.backends if b in short], args.short)]
    frames, found = [], []
    for backends, seconds in groups:
        if backends:
            frame, more = one_sweep(args, provenance, name, puzzles, backends, seconds, 1,
                                args.repeat_25)
            frames.append(frame)
            found += more
    return pd.concat(frames, ignore_index=True), found


def table(frame: pd.DataFrame, limits: dict[str, float]) -> list[str]:
    """Per backend: solved, the times over the grids it solved, how the others ended."""
    mine = {backend: lines_of(frame, backend) for backend in limits}
    return LIMITED_HEAD + [limited_row(backend, lines, limits[backend])
                           for backend, lines in mine.items() if not lines.empty]


def per_grid_25(frame: pd.DataFrame, backends: list[str]) -> list[str]:
    """Per grid and backend: CPU seconds (median over the runs), or the status and the wall
    seconds it ran for."""
    lines = ["| grid | " + " | ".join(f"{b} s" for b in backends) + " |",
             "|---|" + "---:|" * len(backends)]
    cells = {b: lines_of(frame, b) for b in backends}
    for digest, name in frame.drop_duplicates("hash").sort_values("puzzle")[["hash", "puzzle"]
                                                                           ].itertuples(False):
        shown = []
        for backend in backends:
            mine = cells[backend]
            if digest not in mine.index:
                shown.append("-")
                continue
            line = mine.loc[digest]
            seconds = float(line["seconds"])
            shown.append(f"{seconds:.2f}" if line["answered"] else
                         f"{line['status']} (wall {float(line['wall']):.0f})")
        lines.append(f"| {name} | " + " | ".join(shown) + " |")
    return lines


def versions(backends: list[str]) -> str:
    out = []
    for name in backends:
        cls = backend_class(name)
        options = get_backend(name).options
        shown = ", ".join(f"{k}={v}" for k, v in options.items())
        out.append(f"{name} {cls.version()}" + (f" ({shown})" if shown else ""))
    return "; ".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--royle", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=14, help="seed of the sample and the order")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--short", type=float, default=10.0,
                        help="seconds per 25x25 run of the short backends")
    parser.add_argument("--short-backends", default="hybrid")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each backend per grid")
    parser.add_argument("--repeat-25", type=int, default=1, help="runs per 25x25 grid")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--backends", default=",".join(BACKENDS),
                        help="backends to run, comma-separated (default: all six)")
    parser.add_argument("--only", default=",".join(SETS), help="sets to run, comma-separated")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "families.md")
    args = parser.parse_args(argv)
    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])
    short = {b for b in args.short_backends.split(",") if b}
    args.backends = [b for b in BACKENDS if b in args.backends.split(",")]
    wanted = args.only.split(",")
    sets = {k: v for k, v in load_sets(args.puzzles, args.royle, args.seed).items()
            if k in wanted}
    done: dict[str, pd.DataFrame] = {}
    problems: list[str] = []
    for name, puzzles in sets.items():  # one set at a time, the report rewritten after each
        done[name], found = run_set(args, provenance, name, puzzles, short)
        problems += [f"{name}: {p}" for p in found]
        write_report(args.out, "\n".join(report(args, done, short, problems, provenance)) + "\n")
        log(f"{name} done, wrote {args.out}")
    return 0


def report(args: argparse.Namespace, done: dict[str, pd.DataFrame], short: set[str],
           problems: list[str], provenance: Provenance) -> list[str]:
    out = ["# Solver families: pysat, minizinc and dlx beside sat, cpsat and the hybrid", "",
           *provenance.lines(),
           f"- backends: {versions(args.backends)}",
           f"- each set one sweep of the harness, each backend {args.repeat} time(s) on each grid "
           f"({args.repeat_25} on 25x25), the runs shuffled (seed {args.seed}), {args.jobs} at a "
           "time, each in a killable worker; times are CPU milliseconds of the search (model "
           "builds and imports apart, as base.py says; MiniZinc's time includes its flattening "
           "and its process), each grid its median over its runs", ""]
    for name, frame in done.items():
        grids = frame["hash"].nunique()
        wanted = "first solution (limit 1)" if name == LARGE else "uniqueness proved (limit 2)"
        limits = {b: (args.short if name == LARGE and b in short else args.limit)
                  for b in args.backends}
        out += [f"## {name}: {grids} grids, {wanted}", "", *table(frame, limits), ""]
        if name != LARGE:
            out += [f"- {ratio(frame, a, b)}" for a, b in PAIRS
                    if {a, b} <= set(args.backends)] + [""]
        else:
            out += per_grid_25(frame, args.backends) + [""]
    if problems:
        out += ["## Disagreements", "", *[f"- {p}" for p in problems], ""]
    return out


if __name__ == "__main__":
    sys.exit(main())
