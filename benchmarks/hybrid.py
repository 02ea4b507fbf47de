"""The pure-Python hybrid against its targets, written to reports/hybrid.md.

    python benchmarks/hybrid.py [--puzzles DIR] [--sample 2000] [--seed 17] [--norvig PATH]
        [--repeat 3] [--jobs 1] [--timeout 10] [--max-grids N] [--results DIR]
        [--limit-25 60] [--repeat-25 1] [--seeds-25 K] [--seed-limit 20]
        [--skip-rules] [--skip-25 | --only-25] [--out reports/hybrid.md]

Every table is one sweep of the harness (benchmarks/common.py `measure`): each run in a killable
worker process, CPU seconds of the search alone, every method on every grid --repeat times in an
order shuffled with --seed, every answer judged and cross-validated (a wrong one, a crash or a
disagreement stops the script). A grid's time is the median of its repeats, and the grid counts
as solved when more than half of them answered; a table gives, per method, `solved k of N` and
the median over the grids it solved with its bootstrap interval, and each `a / b` line the paired
per-grid ratio (`sudokucp.stats.paired`) on the grids both solved, from the same sweep
(benchmarks/timings.py).
First solution (limit 1) throughout:
(a) royle17, a seeded sample: the hybrid, the yardstick (benchmarks/yardstick.py: singles + MRV,
    about 100 lines), and Norvig's solver when --norvig names a local copy of his sudoku.py (the
    script fetches nothing; it then runs in the harness as `yardstick:Norvig`).
(b) forum_hardest_1106: the hybrid, the `sat` backend, the yardstick. (c) top95 and gecode_16x16:
    the hybrid and the yardstick.
(d) The branching rules and node propagation, each on forum_hardest_1106, top95 and gecode_16x16,
    all in one sweep.
(e) gecode_25x25: the hybrid, --limit-25 CPU seconds each (the harness kills a run past it), in
    one sweep; --repeat-25 runs per grid (1 by default: the search is deterministic, a repeat
    would only time it again; (f) shows what its seed is worth). At most 18 x --limit-25 of CPU.
(f) with --seeds-25 K: #89 and #90 under the restarts' seeds 0..K-1, --seed-limit CPU seconds
    each, in one sweep: how much (e) owes to the default seed.
--only-25 runs (e) and (f) alone (default --out reports/hybrid_25.md). Notes written by hand about
these figures live in reports/hybrid-notes.md, never in the generated report.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import sys
import time
from pathlib import Path

import pandas as pd
from common import ROOT, Provenance, write_report
from timings import (
    CI,
    Bench,
    Sweep,
    cpu_s,
    mean_of,
    median_ci,
    ms,
    sample,
    solved,
    solved_of,
)

from sudokucp import stats
from sudokucp.backends import OptionError, backend_class
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle

RULES = ("smallest", "cell", "degree", "degree_unit", "wdeg")


# --- the sections ---------------------------------------------------------------------------------

def section(bench: Bench, title: str, puzzles: list[Puzzle], methods: dict[str, str],
            pairs: list[tuple[str, str]]) -> list[str]:
    found = bench.sweep(title, methods, puzzles)
    return [f"## {title}", "", *found.table(list(methods), ms, "ms"), "",
            *(found.ratio(a, b) for a, b in pairs), ""]


def section_rules(bench: Bench, sets: dict[str, list[Puzzle]]) -> list[str]:
    """Every branching rule with singles, and with locked candidates, at the nodes: one sweep
    over the three sets."""
    methods: dict[str, str] = {}
    hybrid = backend_class("hybrid")
    for rule in RULES:
        for nodes in ("singles", "locked"):
            with contextlib.suppress(OptionError):  # a hybrid without that rule
                hybrid(branch=rule, node_techniques=nodes)
                methods[f"{rule}|{nodes}"] = f"hybrid:branch={rule}:node_techniques={nodes}"
    if not methods:
        return []
    title = "(d) Branching rules and node propagation"
    found = bench.sweep(title, methods, [p for grids in sets.values() for p in grids])
    lines = [f"## {title}", "",
             "Median CPU ms over the grids solved [95% CI] (solved k of N; mean guesses over "
             "the grids solved); every configuration on the same grids in one sweep.", "",
             "| branch | node_techniques | " + " | ".join(sets) + " |",
             "|---|---|" + "---:|" * len(sets)]
    for name in methods:
        cells = []
        for grids in sets.values():
            part = found.on(grids).of_method(name)
            cells.append(f"{median_ci(solved(part))} ({solved_of(part)}; "
                         f"{mean_of(part, 'guesses')})")
        lines.append(f"| {name.replace('|', ' | ')} | " + " | ".join(cells) + " |")
    return lines + [""]


def section_25(bench: Bench, puzzles: list[Puzzle], limit_s: float, repeat: int,
               count: int | None) -> list[str]:
    """The default hybrid on each 25x25 grid (the first `count`, #89 and #90 first), limit_s of
    CPU each, in one sweep."""
    grids = sample(sorted(puzzles, key=lambda p: not p.name.endswith(("#89", "#90"))), count)
    title = f"(e) gecode_25x25: the hybrid, first solution, {limit_s:g} s of CPU each"
    found = bench.sweep(title, {"hybrid": "hybrid"}, grids, cpu_limit=limit_s, repeat=repeat)
    lines = [f"## {title}", "",
             f"{repeat} run(s) per grid; a run past {limit_s:g} s of CPU is killed by the "
             f"harness. CPU s: the median over the runs (a killed run's: its CPU at the kill).", "",
             "| grid | runs solved | CPU s | guesses |", "|---|---|---:|---:|"]
    by_grid = found.of_method("hybrid")
    for puzzle in grids:
        line = by_grid.loc[puzzle.digest]
        lines.append(f"| {puzzle.name} | {runs_solved(found, puzzle.digest)} of {repeat} | "
                     f"{line['seconds']:.1f} | {guesses(line)} |")
    return lines + ["", f"- solved {solved_of(by_grid)} grids run ({len(puzzles)} in the set); "
                    f"median CPU s over the grids solved [{CI}]: "
                    f"{median_ci(solved(by_grid), cpu_s)}", ""]


def runs_solved(found: Sweep, digest: str) -> int:
    """How many runs on a grid answered."""
    return int(found.runs.loc[found.runs["hash"] == digest, "answered"].sum())


def guesses(line: pd.Series) -> str:
    value = line.get("guesses", math.nan)
    return "-" if pd.isna(value) or not line["answered"] else f"{value:.0f}"


def section_seeds(bench: Bench, puzzles: list[Puzzle], seeds: int, limit_s: float,
                  repeat: int) -> list[str]:
    """#89 and #90 with the restarts' seeds 0..seeds-1 in one sweep: how much the default's
    figure owes to its seed."""
    grids = [p for p in puzzles if p.name.endswith(("#89", "#90"))]
    methods = {f"seed {s}": f"hybrid:seed={s}" for s in range(seeds)}
    title = (f"(f) gecode_25x25 #89 and #90: restart seeds 0..{seeds - 1}, {limit_s:g} s of CPU "
             "each")
    found = bench.sweep(title, methods, grids, cpu_limit=limit_s, repeat=repeat)
    lines = [f"## {title}", "", f"{repeat} run(s) per seed and grid, all in one sweep.", "",
             "| grid | solved | median CPU s (solved) | CPU s per seed |", "|---|---:|---:|---|"]
    for puzzle in grids:
        per_seed = [found.of_method(name).loc[puzzle.digest] for name in methods]
        cpu = [float(x["seconds"]) for x in per_seed if x["answered"]]
        median = f"{stats.percentile(cpu, 50):.1f}" if cpu else "-"
        cells = [f"{float(x['seconds']):.1f}" if x["answered"] else "-" for x in per_seed]
        lines.append(f"| {puzzle.name} | {len(cpu)} of {seeds} | {median} | "
                     + ", ".join(cells) + " |")
    return lines + [""]


def main(argv: list[str] | None = None) -> None:
    args_in = sys.argv[1:] if argv is None else argv
    provenance = Provenance([sys.argv[0], *args_in])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--sample", type=int, default=2000, help="royle17 grids sampled")
    parser.add_argument("--seed", type=int, default=17,
                        help="seeds the royle17 sample and the order of the runs")
    parser.add_argument("--norvig", type=Path, help="a local copy of Norvig's sudoku.py")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each method on each grid")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="wall seconds per run in (a) to (d)")
    parser.add_argument("--max-grids", type=int,
                        help="the first N grids of every set in (b) to (e) (a quick run)")
    parser.add_argument("--results", type=Path, help="keep each sweep's harness folder here")
    parser.add_argument("--limit-25", type=float, default=60.0, help="CPU seconds per 25x25 run")
    parser.add_argument("--repeat-25", type=int, default=1, help="runs per grid in (e) and (f)")
    parser.add_argument("--seeds-25", type=int, default=0,
                        help="also #89 and #90 under this many restart seeds (f)")
    parser.add_argument("--seed-limit", type=float, default=20.0, help="CPU seconds per seed run")
    parser.add_argument("--skip-rules", action="store_true")
    parser.add_argument("--skip-25", action="store_true")
    parser.add_argument("--only-25", action="store_true", help="(e), and (f) with --seeds-25")
    parser.add_argument("--out", type=Path, help="default reports/hybrid.md "
                        "(reports/hybrid_25.md with --only-25)")
    args = parser.parse_args(args_in)
    if args.norvig and not args.norvig.is_file():
        parser.error(f"--norvig {args.norvig}: no such file")
    if not backend_class("sat").available():
        sys.exit("the sat backend needs pycosat: pip install 'sudoku-cp[sat]'")
    out = args.out or ROOT / "reports" / ("hybrid_25.md" if args.only_25 else "hybrid.md")
    started = time.perf_counter()
    bench = Bench(provenance, args.repeat, args.seed, args.jobs, args.timeout, args.results)
    body: list[str] = []
    if not args.only_25:
        body += sections_9_16(bench, args)
    if args.only_25 or not args.skip_25:
        grids = load_puzzles(args.puzzles / "gecode_25x25.txt")
        body += section_25(bench, grids, args.limit_25, args.repeat_25, args.max_grids)
        if args.seeds_25:
            body += section_seeds(bench, grids, args.seeds_25, args.seed_limit, args.repeat_25)
    top = ["# The pure-Python hybrid", "", *provenance.lines(),
           f"- took {(time.perf_counter() - started) / 60:.1f} min", *bench.method(), ""]
    write_report(out, "\n".join(top + body) + "\n")


def sections_9_16(bench: Bench, args: argparse.Namespace) -> list[str]:
    """(a) to (d)."""
    sets = {name: sample(load_puzzles(args.puzzles / f"{name}.txt"), args.max_grids)
            for name in ("forum_hardest_1106", "top95", "gecode_16x16")}
    royle = random.Random(args.seed).sample(load_puzzles(args.puzzles / "royle17.txt"),
                                            args.sample)
    methods = {"hybrid": "hybrid", "yardstick": "yardstick:Yardstick"}
    pairs = [("hybrid", "yardstick")]
    if args.norvig:
        methods["norvig"] = f"yardstick:Norvig:path={args.norvig.resolve()}"
        pairs += [("norvig", "hybrid"), ("norvig", "yardstick")]
    body = section(bench, f"(a) royle17: {len(royle)} grids sampled with seed {args.seed}",
                   royle, methods, pairs)
    if not args.norvig:
        body.insert(-1, "- Norvig's solver: not measured in this run (--norvig PATH names a "
                        "local copy of his sudoku.py)")
    body += section(bench, "(b) forum_hardest_1106", sets["forum_hardest_1106"],
                    {"hybrid": "hybrid", "sat": "sat", "yardstick": "yardstick:Yardstick"},
                    [("hybrid", "sat"), ("hybrid", "yardstick")])
    for name in ("top95", "gecode_16x16"):
        body += section(bench, f"(c) {name}", sets[name],
                        {"hybrid": "hybrid", "yardstick": "yardstick:Yardstick"},
                        [("hybrid", "yardstick")])
    if not args.skip_rules:
        body += section_rules(bench, sets)
    return body


if __name__ == "__main__":
    main()
