"""The pure-Python hybrid against its targets, written to reports/hybrid.md.

    python benchmarks/hybrid.py [--puzzles DIR] [--sample 2000] [--seed 17] [--norvig PATH]
        [--limit-25 60] [--budget-25 MIN] [--seeds-25 K] [--seed-limit 20] [--skip-rules]
        [--skip-25 | --only-25] [--out reports/hybrid.md]

Every time is CPU time (process_time) around one call in this process, the methods taking turns on
each grid (the order turning), first solution (limit 1) unless a table says otherwise:
(a) royle17, a seeded sample: the hybrid, the yardstick (benchmarks/yardstick.py: singles + MRV,
    about 100 lines), and Norvig's solver when --norvig names a local copy of his sudoku.py (the
    script fetches nothing; without it the report keeps the reference figure measured once).
(b) forum_hardest_1106: the hybrid, the `sat` backend, the yardstick. (c) top95 and gecode_16x16:
    the hybrid and the yardstick.
(d) The branching rules and node propagation, each on forum_hardest_1106, top95 and gecode_16x16.
(e) gecode_25x25: the hybrid, 60 s of CPU each (a CPU timer stops a run), #89 and #90 first; the
    section stops starting runs once --budget-25 minutes of wall time have gone.
(f) with --only-25 --seeds-25 K: #89 and #90 under the restarts' seeds 0..K-1, --seed-limit CPU
    seconds each: how much (e) owes to the default seed.
Every solution is judged by sudokucp.check.is_solution; a wrong one stops the script.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from common import ROOT, load_average, machine
from yardstick import solve as yardstick

from sudokucp.backends import Backend, OptionError, backend_class, get_backend
from sudokucp.check import is_solution
from sudokucp.files import write_text
from sudokucp.formats import load_puzzles
from sudokucp.puzzle import Grid, Puzzle

Run = tuple[float, float]  # CPU seconds, guesses (0 where a method does not count them)
Method = Callable[[Puzzle], Run]
NORVIG_REFERENCE = ("Norvig's solver was measured once beside the yardstick (see the royle17 "
                    "table of a run with --norvig, such as the one in reports/hybrid.md)")
RULES = ("smallest", "cell", "degree", "degree_unit", "wdeg")


class Wrong(Exception):
    """A method gave a wrong answer."""


class CpuOut(Exception):
    """The CPU timer of a 25x25 run went off."""


def judge(puzzle: Puzzle, grid: Grid | None, who: str) -> None:
    if grid is None or not is_solution(puzzle, grid):
        raise Wrong(f"{who} gave no or a wrong solution to {puzzle.name}")


def backend_method(name: str, **options: str) -> Method:
    """A method that times solve(limit=1) of a backend and judges its answer."""
    backend = get_backend(name, **options)
    label = backend.label

    def run(puzzle: Puzzle) -> Run:
        start = time.process_time()
        result = backend.solve(puzzle, limit=1)
        cpu = time.process_time() - start
        judge(puzzle, result.solutions[0] if result.solutions else None, label)
        return cpu, float(result.stats.get("guesses", 0))

    return run


def plain_method(solve: Callable[[Puzzle], Grid | None], label: str) -> Method:
    def run(puzzle: Puzzle) -> Run:
        start = time.process_time()
        grid = solve(puzzle)
        cpu = time.process_time() - start
        judge(puzzle, grid, label)
        return cpu, 0.0

    return run


def norvig_method(path: Path) -> Method:
    """Norvig's solve(grid string) from a local copy of his sudoku.py; 9x9 only."""
    spec = importlib.util.spec_from_file_location("norvig_sudoku", path)
    if spec is None or spec.loader is None:
        sys.exit(f"--norvig {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def solve(puzzle: Puzzle) -> Grid | None:
        values = module.solve("".join(map(str, puzzle.cells)))
        return tuple(int(values[s]) for s in module.squares) if values else None

    return plain_method(solve, "norvig")


def turns(puzzles: list[Puzzle], methods: dict[str, Method]) -> dict[str, list[Run]]:
    """Every method on each puzzle before the next puzzle, the order turning each time."""
    out: dict[str, list[Run]] = {name: [] for name in methods}
    names = list(methods)
    for i, puzzle in enumerate(puzzles):
        for name in names[i % len(names):] + names[:i % len(names)]:
            out[name].append(methods[name](puzzle))
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}" if seconds < 0.01 else f"{seconds * 1000:.1f}"


def table(rows: dict[str, list[Run]]) -> list[str]:
    lines = ["| method | grids | median ms | p90 ms | mean ms | mean guesses |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, runs in rows.items():
        cpu = sorted(r[0] for r in runs)
        lines.append(f"| {name} | {len(runs)} | {ms(statistics.median(cpu))} | "
                     f"{ms(cpu[int(0.9 * (len(cpu) - 1))])} | {ms(statistics.fmean(cpu))} | "
                     f"{statistics.fmean(r[1] for r in runs):.1f} |")
    return lines


def ratio(rows: dict[str, list[Run]], a: str, b: str) -> str:
    """a / b as a ratio of medians and as the median of the per-grid ratios."""
    med = statistics.median(r[0] for r in rows[a]) / statistics.median(r[0] for r in rows[b])
    per = statistics.median(x[0] / y[0] for x, y in zip(rows[a], rows[b]) if y[0] > 0)
    return f"- {a} / {b}: {med:.3f} (medians), {per:.3f} (median of per-grid ratios)"


def section(title: str, puzzles: list[Puzzle], methods: dict[str, Method],
            pairs: list[tuple[str, str]]) -> list[str]:
    for puzzle in puzzles[:5]:  # warm every method outside the timing
        for method in methods.values():
            method(puzzle)
    rows = turns(puzzles, methods)
    return [f"## {title}", "", *table(rows), "", *(ratio(rows, a, b) for a, b in pairs), ""]


def section_rules(sets: dict[str, list[Puzzle]]) -> list[str]:
    """Every branching rule with singles, and with locked candidates, at the nodes."""
    lines = ["## (d) Branching rules and node propagation", "",
             "Median CPU ms (mean guesses); every configuration on the same grids, taking turns.",
             "", "| branch | node_techniques | " + " | ".join(sets) + " |",
             "|---|---|" + "---:|" * len(sets)]
    methods: dict[str, Method] = {}
    for rule in RULES:
        for nodes in ("singles", "locked"):
            with contextlib.suppress(OptionError):  # a hybrid without that rule
                methods[f"{rule}|{nodes}"] = backend_method("hybrid", branch=rule,
                                                            node_techniques=nodes)
    if not methods:
        return []
    cells: dict[str, list[str]] = {name: [] for name in methods}
    for puzzles in sets.values():
        rows = turns(puzzles, methods)
        for name, runs in rows.items():
            cells[name].append(f"{ms(statistics.median(r[0] for r in runs))} "
                               f"({statistics.fmean(r[1] for r in runs):.1f})")
    for name, row in cells.items():
        lines.append(f"| {name.replace('|', ' | ')} | " + " | ".join(row) + " |")
    return lines + [""]


def cpu_limited(backend: Backend, puzzle: Puzzle, limit_s: float) -> Run | None:
    """(CPU seconds, guesses) of a first solution found within limit_s of CPU (a CPU timer stops
    the run); None when the timer went off first."""

    def on_timer(*_: object) -> None:
        raise CpuOut

    previous = signal.signal(signal.SIGPROF, on_timer)
    try:
        signal.setitimer(signal.ITIMER_PROF, limit_s)
        start = time.process_time()
        result = backend.solve(puzzle, limit=1)  # the timer's exception ends it as an error
        cpu = time.process_time() - start
        signal.setitimer(signal.ITIMER_PROF, 0)
    except CpuOut:  # the timer went off between the search and the line above
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    if result.error and not result.error.startswith(CpuOut.__name__):
        raise Wrong(f"{backend.label} failed on {puzzle.name}: {result.error}")
    if not result.solutions:
        return None
    judge(puzzle, result.solutions[0], backend.label)
    return cpu, float(result.stats.get("guesses", 0))


def section_25(puzzles: list[Puzzle], limit_s: float, budget_min: float) -> list[str]:
    """The default hybrid on each 25x25 grid, #89 and #90 first, limit_s of CPU each."""
    order = sorted(puzzles, key=lambda p: not p.name.endswith(("#89", "#90")))
    backend = get_backend("hybrid")
    lines = [f"## (e) gecode_25x25: the hybrid, first solution, {limit_s:.0f} s of CPU each", "",
             "| grid | outcome | CPU s | guesses |", "|---|---|---:|---:|"]
    started, solved, done = time.perf_counter(), 0, 0
    for puzzle in order:
        if time.perf_counter() - started > budget_min * 60:
            break
        run = cpu_limited(backend, puzzle, limit_s)
        done += 1
        solved += run is not None
        lines.append(f"| {puzzle.name} | solved | {run[0]:.1f} | {run[1]:.0f} |" if run else
                     f"| {puzzle.name} | not in {limit_s:.0f} s | {limit_s:.0f} | - |")
    lines += ["", f"- solved {solved} of {done} run ({len(puzzles)} in the set; "
              f"{len(puzzles) - done} not started within the {budget_min:.0f} min budget)", ""]
    return lines


def section_seeds(puzzles: list[Puzzle], seeds: int, limit_s: float) -> list[str]:
    """#89 and #90 with the restarts' seeds 0..seeds-1: how much the default's figure owes to its
    seed."""
    lines = [f"## (f) gecode_25x25 #89 and #90: restart seeds 0..{seeds - 1}, {limit_s:.0f} s of "
             "CPU each", "", "| grid | solved | median CPU s (solved) | CPU s per seed |",
             "|---|---:|---:|---|"]
    for puzzle in (p for p in puzzles if p.name.endswith(("#89", "#90"))):
        runs = [cpu_limited(get_backend("hybrid", seed=s), puzzle, limit_s) for s in range(seeds)]
        cpu = [r[0] for r in runs if r]
        median = f"{statistics.median(cpu):.1f}" if cpu else "-"
        lines.append(f"| {puzzle.name} | {len(cpu)} of {seeds} | {median} | "
                     + ", ".join(f"{r[0]:.1f}" if r else "-" for r in runs) + " |")
    return lines + [""]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--sample", type=int, default=2000, help="royle17 grids sampled")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--norvig", type=Path, help="a local copy of Norvig's sudoku.py")
    parser.add_argument("--limit-25", type=float, default=60.0, help="CPU seconds per 25x25 run")
    parser.add_argument("--budget-25", type=float, default=30.0, help="wall minutes for (e)")
    parser.add_argument("--seeds-25", type=int, default=0,
                        help="with --only-25: also #89 and #90 under this many restart seeds")
    parser.add_argument("--seed-limit", type=float, default=20.0, help="CPU seconds per seed run")
    parser.add_argument("--skip-rules", action="store_true")
    parser.add_argument("--skip-25", action="store_true")
    parser.add_argument("--only-25", action="store_true",
                        help="section (e) alone, and (f) with --seeds-25")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "hybrid.md")
    args = parser.parse_args(argv)
    if not backend_class("sat").available():
        sys.exit("the sat backend needs pycosat: pip install 'sudoku-cp[sat]'")
    started = time.perf_counter()
    head = machine()
    if args.only_25:
        grids = load_puzzles(args.puzzles / "gecode_25x25.txt")
        body = section_25(grids, args.limit_25, args.budget_25)
        if args.seeds_25:
            body += section_seeds(grids, args.seeds_25, args.seed_limit)
        write_text(args.out, "\n".join([f"Command: `python benchmarks/hybrid.py "
                                        f"{' '.join(sys.argv[1:])}`", "", *head, *body]) + "\n")
        return
    sets = {name: load_puzzles(args.puzzles / f"{name}.txt")
            for name in ("forum_hardest_1106", "top95", "gecode_16x16")}
    royle = random.Random(args.seed).sample(load_puzzles(args.puzzles / "royle17.txt"),
                                            args.sample)
    hybrid, yard = backend_method("hybrid"), plain_method(yardstick, "yardstick")
    methods = {"hybrid": hybrid, "yardstick": yard}
    pairs = [("hybrid", "yardstick")]
    if args.norvig:
        methods["norvig"] = norvig_method(args.norvig)
        pairs += [("norvig", "hybrid"), ("norvig", "yardstick")]
    body = section(f"(a) royle17: {len(royle)} grids sampled with seed {args.seed}", royle,
                   methods, pairs)
    if not args.norvig:
        body.insert(-1, f"- {NORVIG_REFERENCE}")
    body += section("(b) forum_hardest_1106", sets["forum_hardest_1106"],
                    {"hybrid": hybrid, "sat": backend_method("sat"), "yardstick": yard},
                    [("hybrid", "sat"), ("hybrid", "yardstick")])
    body += section("(c) top95", sets["top95"], {"hybrid": hybrid, "yardstick": yard},
                    [("hybrid", "yardstick")])
    body += section("(c) gecode_16x16", sets["gecode_16x16"],
                    {"hybrid": hybrid, "yardstick": yard}, [("hybrid", "yardstick")])
    if not args.skip_rules:
        body += section_rules(sets)
    if not args.skip_25:
        body += section_25(load_puzzles(args.puzzles / "gecode_25x25.txt"), args.limit_25,
                           args.budget_25)
    command = " ".join(["python benchmarks/hybrid.py", *sys.argv[1:]])
    top = ["# The pure-Python hybrid", "",
           f"Command: `{command}` (took {(time.perf_counter() - started) / 60:.1f} min)", "",
           *head, f"- load average at the end: {load_average()}",
           "- CPU time per call (process_time), so that other work on the machine weighs less; "
           "compare figures within one table, where methods took turns.", ""]
    write_text(args.out, "\n".join(top + body) + "\n")


if __name__ == "__main__":
    main()
