"""Logic and hybrid benchmark: which rule sets solve which grids, and how fast the hybrid solves.

    python benchmarks/logic_hybrid.py [--puzzles DIR] [--royle 0] [--logic-sample 1000]
        [--timeout 10] [--timeout-16 10] [--timeout-25 60] [--repeat 3] [--repeat-25 1]
        [--seed 0] [--jobs 1] [--skip-logic] [--out reports/logic_hybrid.md]

(a) the logic engine on all of royle17.txt with several rule sets: share solved and the mean number
    of filled cells (givens + placed) of the grids it gets stuck on, next to the seed 002's figures;
    then the time per grid of each rule set (the `logic` backend) on a seeded sample;
(b) hybrid per puzzle on royle17.txt (all of it), top95.txt, and magictour_top1465.txt and
    forum_hardest_1106.txt when present: median with its interval, p90, max; the root and node
    techniques against the defaults on top95.txt (paired ratios, measured in one sweep);
(c) hybrid on gecode_16x16.txt (every grid under 1 s?) and gecode_25x25.txt with a time-out each.

Every time comes from the harness (`common.measure`): each run in a killable worker, CPU time of
the search, `--repeat` runs of each backend on each grid in a shuffled order, each grid counted
as its median over them; every solution is judged by the checker. Unsolved grids as in the
harness's summary (benchmarks/timings.py): `solved k of N`, times and search figures over the grids
solved. 25x25 runs `--repeat-25` times (1 by default): every run there ends at the time limit,
whose time a repeat cannot refine.
The rule sets' shares in (a) are not timings: they come from `apply_logic` called in this process
on every royle17 grid (the code the `logic` backend and the rater run), each filled grid judged.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

from common import ROOT, Provenance, write_report
from timings import (
    count,
    judge,
    labels,
    lines_of,
    mean_of,
    ms,
    ratio,
    ratio_cell,
    solved,
    summary,
    summary_head,
    sweep,
)

from sudokucp.backends import get_backend
from sudokucp.check import is_solution
from sudokucp.engine.techniques import LEVELS, TECHNIQUES, apply_logic
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle

SEED_RULES = "singles,locked,naked_pair,naked_triple,naked_quad"
RULE_SETS = [("singles", "singles"), ("singles + locked", "locked"),
             ("singles + locked + naked subsets (the seed's)", SEED_RULES),
             ("+ hidden subsets (`subsets`)", "subsets"), ("+ X-wing, swordfish (`fish`)", "fish")]
VARIANTS = [("singles", "singles"), ("locked", "singles"), ("subsets", "singles"),
            ("fish", "singles"), ("locked", "locked"), ("subsets", "locked")]
DEFAULT_VARIANT = ("locked", "singles")  # the hybrid's defaults: the base of the paired ratios
EXTRA_SETS = ("magictour_top1465", "forum_hardest_1106")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Sweeps:
    """Harness sweeps of this script, with its settings and its provenance."""

    def __init__(self, args: argparse.Namespace, provenance: Provenance) -> None:
        self.args, self.provenance = args, provenance

    def run(self, specs: list[str], name: str, puzzles: list[Puzzle] | Path, timeout: float,
            repeat: int | None = None):
        """The per-puzzle lines of `specs` on one set (a file, or puzzles written under
        `name`); a wrong answer, an error or a disagreement stops the script."""
        frame, outcome = sweep(specs, name, puzzles, provenance=self.provenance,
                               timeout=timeout, repeat=repeat or self.args.repeat,
                               seed=self.args.seed, jobs=self.args.jobs)
        judge(outcome)
        log(f"{name}: {', '.join(specs)}: {dict(Counter(frame['status']))}")
        return frame


def logic_table(puzzles: list[Puzzle]) -> list[str]:
    """Shares solved and cells filled when stuck per rule set, in this process (not timed)."""
    lines = ["| rule set | solved | share | mean filled when stuck | stuck grids |",
             "|---|---:|---:|---:|---:|"]
    hardest: Counter[str] = Counter()
    for label, spec in RULE_SETS:
        solved, stuck_filled, wrong = 0, [], 0
        for p in puzzles:
            out = apply_logic(p, spec)
            if out.contradiction:
                wrong += 1
            elif out.solved:
                solved += 1
                wrong += not is_solution(p, out.cells)
            else:
                stuck_filled.append(sum(1 for v in out.cells if v))
            if spec == "fish":
                hardest[out.hardest if out.solved else "(stuck)"] += 1
        mean = statistics.fmean(stuck_filled) if stuck_filled else float("nan")
        share = 100 * solved / len(puzzles)
        lines.append(f"| {label} | {solved} / {len(puzzles)} | {share:.2f}% | {mean:.2f} | "
                     f"{len(stuck_filled)} |")
        log(f"logic {spec}: {solved}/{len(puzzles)} solved, stuck mean filled {mean:.2f}, "
            f"{wrong} wrong or contradictory")
        if wrong:
            raise SystemExit(f"logic {spec}: {wrong} grids wrongly solved or called contradictory")
    lines += ["", "Seed 002 (5,000 of these grids, the seed's rule set singles + locked + naked "
              "subsets): **82.86%** solved, **47.63** filled cells when stuck.", "",
              "Hardest technique needed by the grids that `fish` solves:", "",
              "| hardest technique | grids |", "|---|---:|"]
    lines += [f"| {name} | {hardest[name]} |" for name in [*TECHNIQUES, "(stuck)"] if hardest[name]]
    return lines


def logic_times(frame, names: dict[str, str]) -> list[str]:
    """Time per grid of each rule set, over the grids it solved."""
    out = [f"| rule set | {summary_head()} |", "|---|---:|---:|---:|---:|"]
    for label, spec in RULE_SETS:
        out.append(f"| {label} | {summary(lines_of(frame, names[f'logic:techniques={spec}']))} |")
    return out


HEADER = [f"| set | {summary_head()} | mean guesses | no guess | mean logic ms | mean search ms "
          "|", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]


def summary_row(label: str, lines, extra: str = "") -> str:
    """One line of a hybrid table: times and search over the grids solved (`summary`)."""
    ok = lines[lines["answered"]]
    no_guess = 100 * (ok["guesses"].astype(float) == 0).mean() if len(ok) else float("nan")
    mean = {k: ok[k].astype(float).mean() if k in ok and len(ok) else float("nan")
            for k in ("logic_s", "search_s")}
    return (f"| {label} | {summary(lines)} | {mean_of(lines, 'guesses')} | {no_guess:.1f}% | "
            f"{ms(mean['logic_s'])} | {ms(mean['search_s'])} |{extra}")


def section_logic(sweeps: Sweeps, royle: list[Puzzle], args: argparse.Namespace) -> list[str]:
    specs = [f"logic:techniques={spec}" for _, spec in RULE_SETS]
    names = labels(specs)
    sample = random.Random(args.seed).sample(royle, min(args.logic_sample, len(royle)))
    frame = sweeps.run(list(names.values()), "royle17-sample", sample, args.timeout)
    return ["## (a) Logic alone on royle17.txt", "",
            f"All {len(royle)} grids, techniques applied to a fixpoint, easiest first (levels: "
            f"{', '.join(f'`{k}`' for k in LEVELS)}); shares counted in this process.", "",
            *logic_table(royle), "",
            f"Time per grid of each rule set (the `logic` backend), on {len(sample)} of these "
            f"grids drawn with seed {args.seed}, the five rule sets in one sweep; times over the "
            "grids each rule set solved (a stuck grid is unsolved):", "",
            *logic_times(frame, names), ""]


def section_9x9(sweeps: Sweeps, royle: list[Puzzle], args: argparse.Namespace) -> list[str]:
    folder = args.puzzles
    res_royle = lines_of(sweeps.run(["hybrid"], "royle17", royle, args.timeout), "hybrid")
    res_top = lines_of(sweeps.run(["hybrid"], "top95", folder / "top95.txt", args.timeout),
                       "hybrid")
    rows = [summary_row("royle17.txt", res_royle), summary_row("top95.txt", res_top)]
    for name in EXTRA_SETS:
        if (folder / f"{name}.txt").exists():
            frame = sweeps.run(["hybrid"], name, folder / f"{name}.txt", args.timeout)
            rows.append(summary_row(f"{name}.txt", lines_of(frame, "hybrid")))
    defaults = ", ".join(f"{k}={v}" for k, v in get_backend("hybrid").options.items())
    out = ["## (b) Hybrid per puzzle, 9x9", "",
           f"Backend `hybrid` with its defaults ({defaults}), limit 1, {args.timeout:g} s "
           "time-out; times, guesses and `mean logic ms` / `mean search ms` (the backend's own "
           "split of its time, wall, from its stats) over the grids solved.", "", *HEADER, *rows]
    specs = [f"hybrid:techniques={root}:node_techniques={nodes}" for root, nodes in VARIANTS]
    names = labels(specs)
    base = names[specs[VARIANTS.index(DEFAULT_VARIANT)]]
    frame = sweeps.run(list(names.values()), "top95", folder / "top95.txt", args.timeout)
    out += ["", "Root and node techniques compared on top95.txt, the six variants in one sweep; "
            "the last column is `sudokucp.stats.paired` against the defaults (techniques=locked, "
            "node_techniques=singles):", "", HEADER[0] + " vs defaults |", HEADER[1] + "---:|"]
    for (root, nodes), spec in zip(VARIANTS, specs):
        out.append(summary_row(f"techniques={root}, node_techniques={nodes}",
                               lines_of(frame, names[spec]),
                               f" {ratio_cell(frame, base, names[spec])} |"))
    out += [""] + [f"- {ratio(frame, base, names[spec])}" for spec in specs
                   if names[spec] != base]
    royle_s, top_s = solved(res_royle), solved(res_top)
    floors = [("royle17 median (solved) <= 1 ms", royle_s.median() <= 0.001),
              ("royle17 every grid solved within 200 ms",
               res_royle["answered"].all() and royle_s.max() <= 0.2),
              ("top95 median (solved) <= 10 ms", top_s.median() <= 0.01)]
    return [*out, "", "Targets (CPU time): " + "; ".join(
        f"{name}: {'met' if ok else '**missed**'}" for name, ok in floors) + ".", ""]


def section_large(sweeps: Sweeps, args: argparse.Namespace) -> list[str]:
    folder = args.puzzles
    g16 = lines_of(sweeps.run(["hybrid"], "gecode_16x16", folder / "gecode_16x16.txt",
                              args.timeout_16), "hybrid")
    g25 = lines_of(sweeps.run(["hybrid"], "gecode_25x25", folder / "gecode_25x25.txt",
                              args.timeout_25, args.repeat_25), "hybrid")
    slowest = solved(g16).max()
    out = ["## (c) Hybrid on 16x16 and 25x25 (Gecode / MiniZinc instances)", "",
           f"16x16: {args.repeat} run(s) per grid; 25x25: {args.repeat_25} run(s) per grid.", "",
           *HEADER,
           summary_row(f"gecode_16x16.txt ({args.timeout_16:g} s time-out)", g16),
           summary_row(f"gecode_25x25.txt ({args.timeout_25:g} s time-out)", g25), "",
           f"16x16: every grid solved under 1 s: "
           f"{'yes' if g16['answered'].all() and slowest < 1 else '**no**'} (slowest solved "
           f"{ms(slowest)} ms; {count(g16, 'timeout')} time-outs).", "",
           f"25x25, grid by grid ({count(g25, 'timeout')} time-outs):", "",
           "| grid | status | CPU s | wall s | guesses | backtracks |",
           "|---|---|---:|---:|---:|---:|"]
    for _, line in g25.sort_values("puzzle").iterrows():
        out.append(f"| {line['puzzle']} | {line['status']} | {float(line['seconds']):.2f} | "
                   f"{float(line['wall']):.2f} | {float(line.get('guesses', 0)):.0f} | "
                   f"{float(line.get('backtracks', 0)):.0f} |")
    return [*out, ""]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles",
                        help="folder of the public puzzle sets (default: ../shared/puzzles)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "logic_hybrid.md")
    parser.add_argument("--royle", type=int, default=0,
                        help="use only the first N grids of royle17.txt (default 0: all)")
    parser.add_argument("--logic-sample", type=int, default=1000,
                        help="royle17 grids on which the rule sets are timed")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per 9x9 grid")
    parser.add_argument("--timeout-16", type=float, default=10.0, help="seconds per 16x16 grid")
    parser.add_argument("--timeout-25", type=float, default=60.0, help="seconds per 25x25 grid")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each backend per grid")
    parser.add_argument("--repeat-25", type=int, default=1, help="runs per 25x25 grid")
    parser.add_argument("--seed", type=int, default=0, help="seed of the samples and the order")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time")
    parser.add_argument("--skip-logic", action="store_true", help="leave out part (a)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not (args.puzzles / "royle17.txt").is_file():
        print(f"skipped: no royle17.txt in {args.puzzles} (give --puzzles)", file=sys.stderr)
        return 0
    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])
    sweeps = Sweeps(args, provenance)
    royle = load_puzzles(args.puzzles / "royle17.txt")
    if args.royle:
        royle = royle[:args.royle]
    log(f"royle17: {len(royle)} grids")
    body = [] if args.skip_logic else section_logic(sweeps, royle, args)
    body += section_9x9(sweeps, royle, args) + section_large(sweeps, args)
    head = ["# Logic engine and hybrid backend", "", *provenance.lines(),
            f"- puzzles: `{os.path.relpath(args.puzzles, ROOT)}`; each backend {args.repeat} "
            f"time(s) on each grid, the runs of a sweep shuffled (seed {args.seed}), {args.jobs} "
            "at a time, each in a harness worker; times are CPU milliseconds of the search, each "
            "grid its median over its runs; per set `solved k of N` and the times over the "
            "grids solved, as in the harness's summary; every solution judged by the checker", "",
            "Notes on these figures: `reports/logic_hybrid-notes.md`.", ""]
    write_report(args.out, "\n".join(head + body))
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
