"""The compiled backend against its targets, written to reports/jit.md.

    python benchmarks/jit.py [--puzzles DIR] [--sample 2000] [--seed 13] [--limit-25 60]
        [--option-limit 5] [--option-kernels dfs,cdcl] [--sections abcdefg]
        [--out reports/jit.md]

(a) royle17, a seeded sample, uniqueness proved (limit 2), in process per puzzle: jit and the hybrid
    take turns on each grid (the order alternating); then solve_many on the whole sample in one
    compiled call, several rounds, grids per second of wall and of CPU time.
(b) top95 and forum_hardest_1106, limit 2, jit and the hybrid taking turns.
(c) gecode_16x16, limit 2: every grid within 50 ms?
(d) gecode_25x25, first solution (limit 1) with a limit on CPU time: jit and CP-SAT (`cpsat`, one
    worker) taking turns on each grid, timed in CPU seconds.
(e) The propagation and search options on 16x16 (all grids, limit 2) and 25x25 (first solution,
    a short time limit each).
(f) The one-off compile: cold (an empty numba cache) and warm (loaded from the cache), each in a
    fresh process.
(g) gecode_25x25, jit proving uniqueness (limit 2) with the same time limit.
Every claimed solution is judged by sudokucp.check.is_solution; a wrong one stops the script.
Times are Result.seconds (wall clock around the search) unless a table says CPU.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from common import ROOT, machine

from sudokucp.backends import backend_class, get_backend
from sudokucp.backends.base import Backend
from sudokucp.check import is_solution
from sudokucp.files import write_text
from sudokucp.formats import load_puzzles
from sudokucp.puzzle import Puzzle
from sudokucp.result import Result, Status

NOTES = """## Notes

- Clause learning is what solves the 25x25 grids at all: the propagating depth-first kernel,
  whatever its propagation (singles; pointing and claiming; Regin's matching filter per unit, i.e.
  every naked and hidden subset; the filter on each digit's row x column and line x box views too,
  i.e. every fish and locked set) and branching (fewest candidates, Knuth's smallest choice,
  dom/wdeg), solves few of the 18 grids (table e, in reports/jit_options.md): the minimal 25x25
  grids keep about 330 open cells and 1,450 extra candidates at the root whatever the level.
- The learning kernel stores no at-most-one clause (for 25x25 they would be 750,000 binary
  clauses): the candidate masks of cells and unit-digits propagate both directions of every
  exactly-one and give each implication a structural reason. In a learned clause, each digit that
  a placement struck is replaced by that placement (a resolution on the binary at-most-one clause).
- What closed the gap to CP-SAT at the median (measured by conflicts to the first solution, which
  do not depend on the machine's load, on 9 of the 18 grids, then on the rest): (1) recursive
  clause minimising (MiniSat's rule: a literal goes when the clause's other literals imply it
  through reasons; `minimise=local` is the old one-step rule): median conflicts on the 9 grids
  from 32,740 to 11,508; (2) then decisions that follow the saved phase instead of always placing
  a digit: 11,508 to 10,534, and lower on most of the 9; (3) the kernel's hot helpers inlined
  into their callers (numba `inline="always"`): numba no longer counts references to the array
  arguments on every call, which about half of the stacks sampled with gdb showed; the same
  conflicts then took about a third less CPU (9,780 against 6,489 conflicts per CPU second on
  the 9 grids, under somewhat different load). Failed-literal probing at the root
  (`probe=true`) strikes 30 to 120 digits per grid but did not lower the median (18,879 alone,
  14,547 with minimising); it stays an option. Table e compares the options at a short time limit.
- What closed the tail: the two settings trade the median for the tail. With recursive
  minimising and saved phases, #26, #27 and #32 are still unsolved at 120,000 conflicts; with
  local minimising and decisions that place a digit they take 81,453, 48,760 and 92,433, and
  neither change alone does it (each alone: all three still open at 120,000). Switching between
  the two on one search (shared clauses and activities; runs of 10,000, 20,000, ... conflicts)
  left #26 and #27 open at 300,000, and periodic rephasing (best, all placed, all struck) at
  about 250,000. What does it: a first-solution search that has not finished after `fallback`
  (30,000) conflicts starts over with the second settings, so a grid costs its first-search
  conflicts when those are under 30,000, else 30,000 plus the second search's: 8 of the 18
  start over, the slowest (#18) at 292,194 conflicts. Counting searches (limit 2 or 0) never
  start over.
- Below 25x25 the depth-first kernel is faster: it needs no clause bookkeeping, and 9x9 grids
  need a handful of guesses. Most of its time on a 17-clue grid is the root propagation. The
  per-call path around it was cut: a plan per (shape, limit, keep) keyed by ints (a Shape
  hashes in Python), uint8 solution rows, no per-call buffer lookups.
- `seconds` is the search alone: the kernels compile (or load from numba's cache) once per
  process before the first timed search (`compile_s`, table f), and numba's import counts as
  `load_s`. numba's cache lives in a folder named by a hash of every kernel module's source, so an
  edit to one module never loads another's stale machine code. The cpsat figures are the
  project's current backend measured in this run. On a machine shared with other work, wall
  times grow with the load (recorded at the start and the end); the CPU-time column of the
  solve_many table is the one-core throughput.
"""

WALL_SLACK = 3  # (d): wall-clock limit per run, in CPU limits
TDOKU = ("tdoku's published figures, for orientation only (C++, SIMD, one core of a faster "
         "machine): about 3-4 µs per royle17 grid and 74 µs per forum_hardest_1106 grid.")


class Wrong(RuntimeError):
    """A solution the judge refused, or a count that is not the known one."""


def judged(backend: Backend, puzzle: Puzzle, limit: int, time_limit: float | None = None,
           unique: bool = True) -> Result:
    """Solve and judge: every solution checked; a unique grid must come out so."""
    result = backend.solve(puzzle, limit=limit, time_limit=time_limit)
    if not all(is_solution(puzzle, s) for s in result.solutions):
        raise Wrong(f"{backend.label} gave a wrong solution to {puzzle.name}")
    if unique and result.status is Status.SOLVED and result.count != 1:
        raise Wrong(f"{backend.label} found {result.count} solutions to {puzzle.name}")
    if result.status is Status.UNSAT or result.error:
        raise Wrong(f"{backend.label} on {puzzle.name}: {result.status.value} {result.error}")
    return result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}" if seconds < 0.01 else f"{seconds * 1000:.1f}"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def turns(puzzles: list[Puzzle], methods: dict[str, Callable[[Puzzle], Result]]
          ) -> dict[str, list[Result]]:
    """Run every method on each puzzle before the next puzzle, the order turning each time."""
    out: dict[str, list[Result]] = {name: [] for name in methods}
    names = list(methods)
    for i, puzzle in enumerate(puzzles):
        order = names[i % len(names):] + names[:i % len(names)]
        for name in order:
            out[name].append(methods[name](puzzle))
    return out


def table(rows: dict[str, list[Result]], unit: Callable[[float], str], label: str) -> list[str]:
    lines = [f"| method | grids | solved | median {label} | p90 {label} | max {label} | "
             "mean guesses |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, results in rows.items():
        answered = [r for r in results if r.status is Status.SOLVED]
        times = [r.seconds for r in answered] or [float("nan")]
        guesses = statistics.mean(r.stats.get("guesses", 0) for r in results)
        median = unit(statistics.median(times))
        lines.append(f"| {name} | {len(results)} | {len(answered)} | {median} | "
                     f"{unit(pct(times, 0.9))} | {unit(max(times))} | {guesses:.1f} |")
    return lines


def ratio(rows: dict[str, list[Result]], slow: str, fast: str) -> str:
    a = statistics.median(r.seconds for r in rows[slow])
    b = statistics.median(r.seconds for r in rows[fast])
    per = statistics.median(x.seconds / y.seconds for x, y in zip(rows[slow], rows[fast]))
    return (f"- {slow} / {fast}: {a / b:.1f}x (medians), {per:.1f}x (median of the per-grid "
            "ratios)")


# --- sections ------------------------------------------------------------------------------------

def section_royle(royle: list[Puzzle], rounds: int) -> list[str]:
    jit, hybrid = get_backend("jit"), get_backend("hybrid")
    for puzzle in royle[:20]:  # warm both (the kernel compiles or loads once, outside the timing)
        jit.solve(puzzle, limit=2)
        hybrid.solve(puzzle, limit=2)
    rows = turns(royle, {"jit": lambda p: judged(jit, p, 2), "hybrid": lambda p: judged(hybrid,
                                                                                        p, 2)})
    lines = [f"## (a) royle17: {len(royle)} seeded grids, uniqueness proved (limit 2)", "",
             "In process, one solve() per grid, the two backends taking turns on each grid.", ""]
    lines += table(rows, us, "µs")
    lines += ["", ratio(rows, "hybrid", "jit"),
              f"- jit: every grid solved and proved unique "
              f"({sum(r.complete for r in rows['jit'])} complete searches)", ""]
    walls, cpus = [], []
    for _ in range(rounds):
        c0, t0 = time.process_time(), time.perf_counter()
        batch = jit.solve_many(royle, limit=2)
        cpus.append(time.process_time() - c0)
        walls.append(batch.seconds)
        wall_total = time.perf_counter() - t0
        for i, puzzle in enumerate(royle):
            if batch.counts[i] != 1 or not batch.complete[i] or not is_solution(
                    puzzle, batch.solutions[i].tolist()):
                raise Wrong(f"solve_many on {puzzle.name}: count {batch.counts[i]}")
    lines += [f"solve_many on the same {len(royle)} grids in one compiled call (limit 2), "
              f"{rounds} rounds, every result judged:", "",
              "| round | compiled call s | grids/s (wall) | grids/s (CPU) |",
              "|---:|---:|---:|---:|"]
    for i, (w, c) in enumerate(zip(walls, cpus), 1):
        lines.append(f"| {i} | {w:.3f} | {len(royle) / w:,.0f} | {len(royle) / c:,.0f} |")
    lines += ["", f"- median: {len(royle) / statistics.median(walls):,.0f} grids/s of wall time "
              f"on one core (the call including the list-to-array step took {wall_total:.3f} s "
              "in the last round)", ""]
    return lines


def section_hard(sets: dict[str, list[Puzzle]]) -> list[str]:
    jit, hybrid = get_backend("jit"), get_backend("hybrid")
    lines = ["## (b) Hard 9x9 sets, uniqueness proved (limit 2)", ""]
    for name, puzzles in sets.items():
        rows = turns(puzzles, {"jit": lambda p: judged(jit, p, 2),
                               "hybrid": lambda p: judged(hybrid, p, 2)})
        lines += [f"### {name} ({len(puzzles)} grids)", ""] + table(rows, ms, "ms")
        lines += ["", ratio(rows, "hybrid", "jit"), ""]
    return lines


def section_16(puzzles: list[Puzzle]) -> list[str]:
    jit = get_backend("jit")
    rows = {"jit": [judged(jit, p, 2) for p in puzzles]}
    worst = max(rows["jit"], key=lambda r: r.seconds)
    within = sum(r.seconds <= 0.05 for r in rows["jit"])
    return ["## (c) gecode_16x16, uniqueness proved (limit 2)", ""] + table(rows, ms, "ms") + [
        "", f"- {within} of {len(puzzles)} within 50 ms; the slowest, {worst.puzzle}, took "
        f"{ms(worst.seconds)} ms", ""]


def cpu_judged(backend: Backend, puzzle: Puzzle, limit_s: float) -> Result:
    """judged() on the CPU clock: the result's seconds are the CPU time of the call, and a run
    past `limit_s` of CPU is a time-out (the wall limit is WALL_SLACK times longer, so that a
    loaded machine stops no run before its CPU time is up)."""
    start = time.process_time()
    result = judged(backend, puzzle, 1, limit_s * WALL_SLACK)
    cpu = time.process_time() - start
    late = result.status is Status.SOLVED and cpu > limit_s
    return replace(result, seconds=cpu, status=Status.TIMEOUT if late else result.status)


def section_25(puzzles: list[Puzzle], limit_s: float) -> list[str]:
    jit, cpsat = get_backend("jit"), get_backend("cpsat")
    judged(cpsat, puzzles[-1], 1, limit_s)  # loads OR-tools before the clock
    rows = turns(puzzles, {"jit": lambda p: cpu_judged(jit, p, limit_s),
                           "cpsat": lambda p: cpu_judged(cpsat, p, limit_s)})
    lines = [f"## (d) gecode_25x25: first solution (limit 1), {limit_s:.0f} s of CPU each", "",
             "jit (clause learning, its default at 25x25) and CP-SAT (one worker) taking turns "
             "on each grid; CPU seconds of the call (process_time, CP-SAT's threads included), "
             "so that other work on the machine weighs less.", ""]
    lines += table(rows, lambda s: f"{s:.2f}", "CPU s")
    medians = ", ".join(f"{name} {statistics.median(r.seconds for r in rows[name]):.2f} s"
                        for name in rows)
    lines += ["", f"- medians over all {len(puzzles)} grids, a time-out counted at its seconds: "
              f"{medians}", ratio(rows, "cpsat", "jit"), "",
              "| grid | jit CPU s | jit conflicts | cpsat CPU s |", "|---|---:|---:|---:|"]
    for a, b in zip(rows["jit"], rows["cpsat"]):
        mark = "" if a.status is Status.SOLVED else f" ({a.status.value})"
        other = "" if b.status is Status.SOLVED else f" ({b.status.value})"
        lines.append(f"| {a.puzzle} | {a.seconds:.2f}{mark} | {a.stats.get('backtracks', 0):,} | "
                     f"{b.seconds:.2f}{other} |")
    return lines + [""]


def section_proofs(puzzles: list[Puzzle], limit_s: float) -> list[str]:
    jit = get_backend("jit")
    proofs = [judged(jit, p, 2, limit_s) for p in puzzles]
    lines = [f"## (g) gecode_25x25: jit proving uniqueness (limit 2), {limit_s:.0f} s each", ""]
    lines += table({"jit, limit 2": proofs}, lambda s: f"{s:.2f}", "s")
    lines += ["", f"- proved unique: {sum(r.complete and r.count == 1 for r in proofs)} of "
              f"{len(proofs)}", ""]
    return lines


DFS_OPTIONS = [("singles", "cell"), ("singles", "smallest"), ("locked", "wdeg"),
               ("alldiff", "wdeg"), ("full", "smallest"), ("full", "wdeg"), ("dual", "wdeg")]
CDCL_OPTIONS = [{"phase": "true"}, {"minimise": "local"}, {"minimise": "local", "phase": "true"},
                {"probe": "true"}, {"restarts": "glucose"}, {"root": "dual"}]


def section_options(p16: list[Puzzle], p25: list[Puzzle], limit_s: float,
                    kinds: str) -> list[str]:
    lines = ["## (e) Options on 16x16 and 25x25", "",
             f"16x16: all {len(p16)} grids, limit 2. 25x25: all {len(p25)} grids, first solution, "
             f"{limit_s:.0f} s each. `dfs` = the propagating depth-first kernel with a propagation "
             "level and a branching; `cdcl` = clause learning.", "",
             "| search | 16x16 median ms | 16x16 max ms | 16x16 mean guesses | 25x25 solved | "
             "25x25 median s (solved) | 25x25 mean guesses |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    specs = [(f"dfs propagation={lv} branch={br}", {"search": "dfs", "propagation": lv,
                                                     "branch": br}) for lv, br in DFS_OPTIONS]
    defaults = backend_class("jit").defaults
    shown = ("minimise", "phase", "restarts", "root")
    specs += [("cdcl " + " ".join(f"{k}={defaults[k]}" for k in shown) + " (default)",
               {"search": "cdcl"})]
    specs += [("cdcl " + " ".join(f"{k}={v}" for k, v in changed.items()),
               {"search": "cdcl", **changed}) for changed in CDCL_OPTIONS]
    for label, options in specs:
        if options["search"] not in kinds.split(","):
            continue
        backend = get_backend("jit", **options)
        r16 = [judged(backend, p, 2, 60) for p in p16]
        r25 = [judged(backend, p, 1, limit_s) for p in p25]
        t16 = [r.seconds for r in r16]
        solved = [r.seconds for r in r25 if r.status is Status.SOLVED]
        med = f"{statistics.median(solved):.2f}" if solved else "-"
        lines.append(f"| {label} | {ms(statistics.median(t16))} | {ms(max(t16))} | "
                     f"{statistics.mean(r.stats['guesses'] for r in r16):.1f} | {len(solved)} | "
                     f"{med} | {statistics.mean(r.stats['guesses'] for r in r25):,.0f} |")
    return lines + [""]


COMPILE = ("import time; t = time.perf_counter(); import numba; t1 = time.perf_counter()\n"
           "from sudokucp.backends.jit import warm\n"
           "warm('dfs'); t2 = time.perf_counter(); warm('cdcl'); t3 = time.perf_counter()\n"
           "print(t1 - t, t2 - t1, t3 - t2)\n")


def section_compile() -> list[str]:
    lines = ["## (f) The one-off cost of a process", "",
             "Each in a fresh process: importing numba, then compiling (cold: an empty cache "
             "folder) or loading from numba's disk cache (warm) each kernel, as `warm()` does "
             "before the first timed search.", "",
             "| cache | import numba s | dfs kernel s | cdcl kernel s |", "|---|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as folder:
        for label in ("cold", "warm"):
            env = {**os.environ, "NUMBA_CACHE_DIR": folder}
            out = subprocess.run([sys.executable, "-c", COMPILE], env=env, capture_output=True,
                                 text=True, check=True).stdout.split()
            lines.append(f"| {label} | " + " | ".join(f"{float(x):.2f}" for x in out) + " |")
    return lines + [""]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--sample", type=int, default=2000, help="royle17 grids sampled")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--rounds", type=int, default=5, help="solve_many rounds")
    parser.add_argument("--limit-25", type=float, default=60.0, help="seconds per 25x25 run")
    parser.add_argument("--option-limit", type=float, default=5.0,
                        help="seconds per 25x25 run in the options table")
    parser.add_argument("--option-kernels", default="dfs,cdcl",
                        help="the kernels whose options table e measures")
    parser.add_argument("--sections", default="abcdefg",
                        help="the sections to run, by letter (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "jit.md")
    args = parser.parse_args(argv)
    for name in ("jit", "cpsat"):
        if not backend_class(name).available():
            sys.exit(f"{name} needs {backend_class(name).distribution()}: "
                     f"pip install 'sudoku-cp[{backend_class(name).extra}]'")
    started = time.perf_counter()
    head = machine()
    royle = random.Random(args.seed).sample(load_puzzles(args.puzzles / "royle17.txt"),
                                            args.sample)
    p16 = load_puzzles(args.puzzles / "gecode_16x16.txt")
    p25 = load_puzzles(args.puzzles / "gecode_25x25.txt")
    sections = {
        "a": lambda: section_royle(royle, args.rounds),
        "b": lambda: section_hard({name: load_puzzles(args.puzzles / f"{name}.txt")
                                   for name in ("top95", "forum_hardest_1106")}),
        "c": lambda: section_16(p16),
        "d": lambda: section_25(p25, args.limit_25),
        "e": lambda: section_options(p16, p25, args.option_limit, args.option_kernels),
        "f": section_compile,
        "g": lambda: section_proofs(p25, args.limit_25),
    }
    unknown = set(args.sections) - sections.keys()
    if unknown:
        parser.error(f"--sections takes letters of {''.join(sections)}, not {''.join(unknown)}")
    body: list[str] = []
    for letter in args.sections:
        body += sections[letter]()
    body += ["## Orientation", "", f"- {TDOKU}", "", NOTES]
    command = " ".join(["python benchmarks/jit.py", *sys.argv[1:]])
    versions = ", ".join(f"{n} {backend_class(n).version()}" for n in ("jit", "cpsat"))
    top = ["# The compiled backend (`jit`)", "",
           f"Command: `{command}` (took {(time.perf_counter() - started) / 60:.1f} min)", "",
           *head, f"- load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
           f"- {versions}; one process, one core per run; the machine was shared with "
           "other work, so compare figures within one table, where methods took turns.", ""]
    write_text(args.out, "\n".join(top + body) + "\n")


if __name__ == "__main__":
    main()
