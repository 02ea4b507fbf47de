"""Logic and hybrid benchmark: which rule sets solve which grids, and how fast the hybrid solves.

    python benchmarks/logic_hybrid.py [--puzzles DIR] [--out reports/logic_hybrid.md]

(a) the logic engine on all of royle17.txt with several rule sets: share solved and the mean number
    of filled cells (givens + placed) of the grids it gets stuck on, next to the seed 002's figures;
(b) hybrid per puzzle on royle17.txt (all of it) and top95.txt: median, p90, max;
(c) hybrid on gecode_16x16.txt (every grid under 1 s?) and gecode_25x25.txt with a time-out each.

Every solution claimed is checked with check.is_solution. Times are per solve() call: wall clock
(perf_counter, what Result.seconds holds) and the process's CPU time, which is what to read when the
machine is shared (the load average is in the report).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from common import load_average, machine  # noqa: E402

from sudokucp.backends import get_backend  # noqa: E402
from sudokucp.check import is_solution  # noqa: E402
from sudokucp.files import write_text  # noqa: E402
from sudokucp.formats import load_puzzles  # noqa: E402
from sudokucp.puzzle import Puzzle  # noqa: E402
from sudokucp.techniques import LEVELS, TECHNIQUES, apply_logic  # noqa: E402

SEED_RULES = "singles,locked,naked_pair,naked_triple,naked_quad"
RULE_SETS = [("singles", "singles"), ("singles + locked", "locked"),
             ("singles + locked + naked subsets (the seed's)", SEED_RULES),
             ("+ hidden subsets (`subsets`)", "subsets"), ("+ X-wing, swordfish (`fish`)", "fish")]


NOTES = """## Notes

- The seed 002's figures come from its own engine on 5,000 grids of the list as it then was; the
  share solved matches (about 84%), while our engine leaves more cells filled when stuck, having
  applied each rule to a fixpoint in every unit.
- Logic counts and hardest techniques use apply_logic, the same code the `logic` backend and the
  rater run; every grid it fills is checked with check.is_solution.
- The hybrid's root fixpoint is the logic engine's (tests/test_hybrid.py checks it); its node
  propagation is naked and hidden singles, its branching the smallest cell or unit-digit.
- 25x25: these MiniZinc instances need long searches without learning. Also tried, on a busy
  machine, and none finished a grid: pointing/claiming at every node (600,000 guesses in 900 s on
  #18), dom/wdeg branching, failed-literal probing at the root (1-4 cells on the three grids
  tried). CP-SAT needs 0.3-56 s each (puzzle README); src/sudokucp/generator.py finds the CNF
  backend far faster than the hybrid at this size.
"""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def logic_table(puzzles: list[Puzzle], log) -> list[str]:
    lines = ["| rule set | solved | share | mean filled when stuck | stuck grids | s/grid (CPU) |",
             "|---|---:|---:|---:|---:|---:|"]
    hardest: Counter[str] = Counter()
    for label, spec in RULE_SETS:
        solved, stuck_filled, wrong = 0, [], 0
        start = time.process_time()
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
        cpu = (time.process_time() - start) / len(puzzles)
        mean = statistics.fmean(stuck_filled) if stuck_filled else float("nan")
        share = 100 * solved / len(puzzles)
        lines.append(f"| {label} | {solved} / {len(puzzles)} | {share:.2f}% | {mean:.2f} | "
                     f"{len(stuck_filled)} | {ms(cpu)} ms |")
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


def run_hybrid(puzzles: list[Puzzle], timeout: float | None, log, label: str,
               **options: str) -> dict:
    """Solve each puzzle (limit 1); wall and CPU seconds, guesses, statuses."""
    hybrid = get_backend("hybrid", **options)
    wall, cpu, guesses, statuses, rows = [], [], [], Counter(), []
    split = [0.0, 0.0]
    for p in puzzles:
        start = time.process_time()
        r = hybrid.solve(p, limit=1, time_limit=timeout)
        cpu.append(time.process_time() - start)
        wall.append(r.seconds)
        guesses.append(r.stats.get("guesses", 0))
        split[0] += r.stats.get("logic_s", 0.0)
        split[1] += r.stats.get("search_s", 0.0)
        status = r.status.value
        if r.solutions and not is_solution(p, r.solution):
            status = "wrong"
        statuses[status] += 1
        rows.append((p.name, status, r.seconds, cpu[-1], r.stats))
    log(f"hybrid {label}: {dict(statuses)}, median wall {ms(statistics.median(wall))} ms, "
        f"max {ms(max(wall))} ms")
    if statuses["wrong"] or statuses["error"]:
        raise SystemExit(f"hybrid {label}: {dict(statuses)}")
    return {"wall": wall, "cpu": cpu, "guesses": guesses, "statuses": statuses, "rows": rows,
            "logic": split[0] / len(puzzles), "search": split[1] / len(puzzles)}


def summary_row(label: str, res: dict) -> str:
    w, c, g = res["wall"], res["cpu"], res["guesses"]
    solved = res["statuses"]["solved"]
    no_guess = sum(1 for x in g if not x)
    return (f"| {label} | {solved} / {len(w)} | {ms(statistics.median(w))} | {ms(pct(w, 0.9))} | "
            f"{ms(max(w))} | {ms(statistics.median(c))} | {ms(pct(c, 0.9))} | {ms(max(c))} | "
            f"{statistics.fmean(g):.1f} | {100 * no_guess / len(g):.1f}% | {ms(res['logic'])} | "
            f"{ms(res['search'])} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles",
                        help="folder of the public puzzle sets (default: ../shared/puzzles)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "logic_hybrid.md")
    parser.add_argument("--royle", type=int, default=0,
                        help="use only the first N grids of royle17.txt (default 0: all)")
    parser.add_argument("--timeout-16", type=float, default=10.0, help="seconds per 16x16 grid")
    parser.add_argument("--timeout-25", type=float, default=60.0, help="seconds per 25x25 grid")
    parser.add_argument("--skip-logic", action="store_true", help="leave out part (a)")
    args = parser.parse_args(argv)
    if not (args.puzzles / "royle17.txt").is_file():
        print(f"skipped: no royle17.txt in {args.puzzles} (give --puzzles)", file=sys.stderr)
        return 0

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    def load(name: str) -> list[Puzzle]:
        return load_puzzles(args.puzzles / name)

    command = "python " + " ".join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])])
    out = ["# Logic engine and hybrid backend", "",
           f"Generated by `{command}` (from the repository root); puzzles from "
           f"`{os.path.relpath(args.puzzles, ROOT)}`.", "", *machine(), ""]

    royle = load("royle17.txt")
    if args.royle:
        royle = royle[:args.royle]
    log(f"royle17: {len(royle)} grids")

    if not args.skip_logic:
        out += ["## (a) Logic alone on royle17.txt", "",
                f"All {len(royle)} grids, techniques applied to a fixpoint, easiest first "
                f"(levels: {', '.join(f'`{k}`' for k in LEVELS)}).", ""]
        out += logic_table(royle, log) + [""]

    res_royle = run_hybrid(royle, None, log, "royle17")
    top95 = load("top95.txt")
    res_top = run_hybrid(top95, None, log, "top95")
    extra = {}
    for name in ("magictour_top1465.txt", "forum_hardest_1106.txt"):
        if (args.puzzles / name).exists():
            extra[name] = run_hybrid(load(name), 10.0, log, name)
    header = ["| set | solved | median ms | p90 ms | max ms | CPU median ms | CPU p90 ms | "
              "CPU max ms | mean guesses | no guess | mean logic ms | mean search ms |",
              "|---|---:|" + "---:|" * 10]
    defaults = ", ".join(f"{k}={v}" for k, v in get_backend("hybrid").options.items())
    out += ["## (b) Hybrid per puzzle, 9x9", "",
            f"Backend `hybrid` with its defaults ({defaults}), limit 1, one process, solutions "
            "verified.", "", *header,
            summary_row("royle17.txt", res_royle), summary_row("top95.txt", res_top)]
    out += [summary_row(name + " (10 s time-out)", res) for name, res in extra.items()]
    variants = [("singles", "singles"), ("locked", "singles"), ("subsets", "singles"),
                ("fish", "singles"), ("locked", "locked"), ("subsets", "locked")]
    out += ["", "Root and node techniques compared on top95.txt:", "", *header]
    for root, nodes in variants:
        res = run_hybrid(top95, None, log, f"top95 {root}/{nodes}", techniques=root,
                         node_techniques=nodes)
        out.append(summary_row(f"techniques={root}, node_techniques={nodes}", res))
    floors = [("royle17 median <= 1 ms", statistics.median(res_royle["wall"]) <= 0.001),
              ("royle17 max <= 200 ms", max(res_royle["wall"]) <= 0.2),
              ("top95 median <= 10 ms", statistics.median(res_top["wall"]) <= 0.01)]
    out += ["", "Targets (wall clock): " + "; ".join(
        f"{name}: {'met' if ok else '**missed**'}" for name, ok in floors) + ".", ""]

    g16 = run_hybrid(load("gecode_16x16.txt"), args.timeout_16, log, "16x16")
    g25 = run_hybrid(load("gecode_25x25.txt"), args.timeout_25, log, "25x25")
    out += ["## (c) Hybrid on 16x16 and 25x25 (Gecode / MiniZinc instances)", "", *header,
            summary_row(f"gecode_16x16.txt ({args.timeout_16:g} s time-out)", g16),
            summary_row(f"gecode_25x25.txt ({args.timeout_25:g} s time-out)", g25), "",
            f"16x16: every grid under 1 s: {'yes' if max(g16['wall']) < 1 else '**no**'} "
            f"(slowest {ms(max(g16['wall']))} ms).", "",
            "25x25, grid by grid:", "", "| grid | status | wall s | CPU s | guesses | backtracks |",
            "|---|---|---:|---:|---:|---:|"]
    out += [f"| {name} | {status} | {wall:.2f} | {cpu:.2f} | {stats.get('guesses', 0):.0f} | "
            f"{stats.get('backtracks', 0):.0f} |" for name, status, wall, cpu, stats in g25["rows"]]
    out += ["", f"- load average at the end: {load_average()}", "",
            NOTES]

    write_text(args.out, "\n".join(out))
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
