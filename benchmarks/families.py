"""pysat, minizinc and dlx beside sat, cpsat and the hybrid, written to reports/families.md.

    python benchmarks/families.py [--puzzles DIR] [--royle 1000] [--seed 14] [--limit 60]
        [--short 10] [--short-backends hybrid,dlx] [--jobs 2] [--out reports/families.md]

Sets: a seeded sample of royle17, top95, forum_hardest_1106 and the 55 Gecode 16x16 grids with
uniqueness proved (limit 2); the 18 Gecode 25x25 grids, first solution (limit 1). Every run goes
through the harness's killable workers (the local executor), `--limit` seconds each; the backends
in `--short-backends` get `--short` seconds on 25x25 (they time out on every such grid: the report
says so). One set at a time (the report is rewritten after each), its runs queued grid by grid,
every backend on a grid before the next, so the machine's load falls on all backends alike. Every
claimed solution is judged by sudokucp.check.is_solution; a wrong one is counted and shown. Times
are Result.seconds (the search, measured in the worker; builds and imports apart as base.py says).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from common import ROOT, load_average, machine, run_isolated

from sudokucp.backends import backend_class, get_backend
from sudokucp.check import is_solution
from sudokucp.executors import ResourceLimits, Task
from sudokucp.files import write_text
from sudokucp.formats import load_puzzles
from sudokucp.puzzle import Puzzle
from sudokucp.result import Result, Status

BACKENDS = ("pysat", "minizinc", "dlx", "sat", "cpsat", "hybrid")
GRACE = 10.0  # seconds past the limit before the worker is killed
SETS = ("royle17", "top95", "forum_hardest_1106", "gecode_16x16", "gecode_25x25")


def load_sets(folder: Path, royle: int, seed: int) -> dict[str, list[Puzzle]]:
    """The five sets; royle17 as a seeded sample of `royle` grids."""
    sets = {name: list(load_puzzles(folder / f"{name}.txt")) for name in SETS}
    sets["royle17"] = random.Random(seed).sample(sets["royle17"], royle)
    return sets


def plan(sets: dict[str, list[Puzzle]], limit: float, short: float,
         short_backends: set[str]) -> list[Task]:
    """Tasks grid by grid, every backend on a grid before the next; 25x25 first solution."""
    tasks = []
    for name, puzzles in sets.items():
        wanted = 1 if name == "gecode_25x25" else 2
        for k, puzzle in enumerate(puzzles):
            for backend in BACKENDS:
                seconds = short if name == "gecode_25x25" and backend in short_backends else limit
                limits = ResourceLimits(seconds, grace=GRACE)
                tasks.append(Task(f"{name}/{k}/{backend}", backend, puzzle, wanted, limits,
                                  meta={"set": name, "backend": backend}))
    return tasks


def verdict(task: Task, result: Result) -> str:
    """solved (judged right), wrong, or the status."""
    if result.solutions and not all(is_solution(task.puzzle, s) for s in result.solutions):
        return "wrong"
    if result.status is Status.SOLVED and task.limit == 2 and result.count != 1:
        return "wrong"  # every grid of these sets is unique
    return result.status.value


def fmt(seconds: float) -> str:
    if seconds != seconds:
        return "-"
    return f"{seconds * 1000:.3f}" if seconds < 0.01 else f"{seconds * 1000:.1f}"


def table(rows: dict[str, list[tuple[str, Result]]], limits: dict[str, float]) -> list[str]:
    lines = ["| backend | grids | limit s | solved | time-outs | wrong | other | median ms "
             "(solved) | p90 ms | max ms | median of all ms |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for backend in BACKENDS:
        runs = rows.get(backend, [])
        if not runs:
            continue
        solved = sorted(r.seconds for v, r in runs if v == "solved")
        timeouts = sum(v == "timeout" for v, _ in runs)
        wrong = sum(v == "wrong" for v, _ in runs)
        other = len(runs) - len(solved) - timeouts - wrong
        med = statistics.median(solved) if solved else float("nan")
        p90 = solved[min(len(solved) - 1, int(0.9 * len(solved)))] if solved else float("nan")
        every = statistics.median(r.seconds for _, r in runs)
        lines.append(f"| {backend} | {len(runs)} | {limits[backend]:g} | {len(solved)} | "
                     f"{timeouts} | {wrong} | {other} | {fmt(med)} | {fmt(p90)} | "
                     f"{fmt(max(solved) if solved else float('nan'))} | {fmt(every)} |")
    return lines


def ratios(rows: dict[str, list[tuple[str, Result]]], slow: str, fast: str) -> str:
    pairs = [(a.seconds, b.seconds) for (va, a), (vb, b) in zip(rows[slow], rows[fast])
             if va == vb == "solved"]
    if not pairs:
        return f"- {slow} / {fast}: no grid solved by both"
    medians = statistics.median(a for a, _ in pairs) / statistics.median(b for _, b in pairs)
    per = statistics.median(a / b for a, b in pairs)
    return (f"- {slow} / {fast}: {medians:.2f}x (ratio of medians), {per:.2f}x (median of the "
            f"per-grid ratios), over the {len(pairs)} grids both solved")


def per_grid_25(rows: dict[str, list[tuple[str, Result]]], puzzles: list[Puzzle]) -> list[str]:
    lines = ["| grid | " + " | ".join(f"{b} s" for b in BACKENDS) + " |",
             "|---|" + "---:|" * len(BACKENDS)]
    for k, puzzle in enumerate(puzzles):
        cells = []
        for backend in BACKENDS:
            v, r = rows[backend][k]
            cells.append(f"{r.seconds:.2f}" if v == "solved" else f"{v} {r.seconds:.0f}")
        lines.append(f"| {puzzle.name} | " + " | ".join(cells) + " |")
    return lines


def versions() -> str:
    out = []
    for name in BACKENDS:
        cls = backend_class(name)
        options = get_backend(name).options
        shown = ", ".join(f"{k}={v}" for k, v in options.items())
        out.append(f"{name} {cls.version()}" + (f" ({shown})" if shown else ""))
    return "; ".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--royle", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--short", type=float, default=10.0)
    parser.add_argument("--short-backends", default="hybrid")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default=",".join(SETS), help="sets to run, comma-separated")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "families.md")
    args = parser.parse_args(argv)
    short_backends = {b for b in args.short_backends.split(",") if b}
    sets = {k: v for k, v in load_sets(args.puzzles, args.royle, args.seed).items()
            if k in args.only.split(",")}
    head = machine()
    began = time.perf_counter()
    rows: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for name in sets:  # one set at a time, the report rewritten after each
        tasks = plan({name: sets[name]}, args.limit, args.short, short_backends)
        order = {t.key: i for i, t in enumerate(tasks)}
        for outcome in sorted(run_isolated(tasks, jobs=args.jobs), key=lambda o: order[o.task.key]):
            rows[name][outcome.task.meta["backend"]].append(
                (verdict(outcome.task, outcome.result), outcome.result))
        minutes = (time.perf_counter() - began) / 60
        done = {k: v for k, v in sets.items() if k in rows}
        body = report(args, done, rows, short_backends, head, minutes)
        write_text(args.out, "\n".join(body) + "\n")
        print(f"{name} done, wrote {args.out} ({minutes:.1f} min)", file=sys.stderr, flush=True)
    return 0


def report(args: argparse.Namespace, sets: dict[str, list[Puzzle]], rows: dict, short: set[str],
           head: list[str], minutes: float) -> list[str]:
    command = "python benchmarks/families.py" + (" " + " ".join(sys.argv[1:]) if sys.argv[1:]
                                                 else "")
    out = ["# Solver families: pysat, minizinc and dlx beside sat, cpsat and the hybrid", "",
           f"Command: `{command}` (took {minutes:.1f} min)", "", *head,
           f"- load average at the end: {load_average()}",
           f"- backends: {versions()}",
           f"- every run in a killable worker of the local executor, {args.jobs} at a time, "
           "runs queued grid by grid (every backend on a grid before the next grid); times are "
           "Result.seconds, the search alone (model builds and imports apart, as base.py says; "
           "MiniZinc's time includes its flattening, which its own limit covers)", ""]
    for name, puzzles in sets.items():
        wanted = "first solution (limit 1)" if name == "gecode_25x25" else \
            "uniqueness proved (limit 2)"
        limits = {b: (args.short if name == "gecode_25x25" and b in short else args.limit)
                  for b in BACKENDS}
        out += [f"## {name}: {len(puzzles)} grids, {wanted}", ""]
        out += table(rows[name], limits) + [""]
        if name != "gecode_25x25":
            out += [ratios(rows[name], "dlx", "hybrid"), ratios(rows[name], "pysat", "sat"), ""]
        else:
            out += per_grid_25(rows[name], puzzles) + [""]
    return out


if __name__ == "__main__":
    sys.exit(main())
