"""The compiled backend against its targets, written to reports/jit.md.

    python benchmarks/jit.py [--puzzles DIR] [--sample 2000] [--seed 13] [--repeat 3] [--jobs 1]
        [--rounds 5] [--limit-25 60] [--option-limit 5] [--option-kernels dfs,cdcl]
        [--start-rounds 3] [--datasets DIR] [--batch-rounds 3] [--tdoku DIR] [--max-grids N]
        [--forms 2] [--results DIR] [--against SRC] [--pair-rounds 7] [--pair-25 5]
        [--sections abcdefghijkl] [--out reports/jit.md]

Every table but two is one sweep of the harness (benchmarks/common.py `measure`, through
benchmarks/timings.py's `Bench`): each run in a killable worker process, CPU seconds of the
search alone, every method on every grid --repeat times in an order shuffled with --seed, every
answer judged and cross-validated, and with limit 2 every count checked to be 1 (a wrong one, a
crash or a disagreement stops the script). A grid's time is the median of its repeats, and the
grid counts as solved when more than half of them answered; tables give, per method, `solved k of
N` and the median over the grids it solved with its bootstrap interval, and `a / b` lines the
paired per-grid ratio (`sudokucp.stats.paired`) on the grids both solved, from the same sweep.
(a) royle17, a seeded sample, uniqueness proved (limit 2): jit and the hybrid.
    Then, in this process, solve_many on the whole sample in one compiled call, --rounds rounds,
    grids per second of wall and of CPU time: not through the harness, whose run is one grid in
    one solve(); what this measures is one call over thousands of grids (the per-grid cost
    without the per-call path), which no single-grid run can show.
(b) top95 and forum_hardest_1106, limit 2, jit and the hybrid, in one sweep.
(c) gecode_16x16, limit 2: every grid within 50 ms of CPU?
(d) gecode_25x25, first solution (limit 1), --limit-25 CPU seconds each (the harness kills a run
    past it): jit, CP-SAT (`cpsat`, one worker) and pysat (CaDiCaL), and the grids where jit
    takes over 1.5x the faster of the two others; then the same test applied to each method.
(e) The propagation and search options on 16x16 (all grids, limit 2) and 25x25 (first solution,
    --option-limit CPU seconds each): one sweep per size, every option set in it.
(f) The one-off compile, entry point by entry point: cold (an empty numba cache) and warm
    (loaded from the cache), each in a fresh process started here: not through the harness,
    which loads and compiles a backend before its clock starts (that is the point: search time
    never holds it), so only a process of its own can time that cost.
(g) gecode_25x25, jit proving uniqueness (limit 2) with --limit-25 CPU seconds each.
(h) Start-up: `sudoku-cp solve` on a one-grid file (9x9, 16x16, 25x25) and `sudoku-cp backends
    --warm jit`, cold (NUMBA_CACHE_DIR at an empty folder) then warm, --start-rounds rounds, each
    a process of its own (CPU and wall seconds): a process's cost, so not through the harness;
    then each `solve` in the cache `backends --warm jit` filled (the 9x9 path built ahead).
(i) solve_lines on royle17: the compiled reading (lines per CPU second) and reading, solving
    and judging (grids per CPU second), against the ordinary reader and solve_many, --rounds
    rounds in this process; then `sudoku-cp solve royle17.txt --backend jit`, batched and one
    grid at a time, each a process of its own. One call over many grids: not a harness run.
(j) The band-wise kernel (`search=bands`, the default at 9x9) against dfs, solve_array on whole
    sets (royle17, forum_hardest_1905_11plus, magictour_top1465, top95, forum_hardest_1106),
    limit 2, --batch-rounds rounds in this process, the kernels taking turns; and tdoku, the
    C++ reference, built from --tdoku DIR (benchmarks/tdoku.py) and called the same way, where a
    C++ compiler and that source are found (the table says why not otherwise).
(k) The same three on --forms random isomorphs of each gecode_25x25 grid (one run each): how
    much of (d)'s per-grid comparison is the search's luck on one labelling of the grid.
(l) Before and after: this tree's jit against another tree's (--against SRC, the `src` folder
    of a checkout of the commit to compare with, e.g. `git worktree add /tmp/jit-before HEAD`),
    each in processes of its own (PYTHONPATH), --pair-rounds rounds, the two trees taking turns
    and starting in turn: solve_array on the whole royle17 sample (limit 2) and on
    forum_hardest_1106 (limit 2, --max-grids), CPU seconds of each call, paired round by round;
    then the first --pair-25 gecode_25x25 grids, first solution, each grid's search seconds
    (Result.seconds) the median of its rounds, paired grid by grid. Not through the harness: a
    batch is no harness run, and the harness runs this tree's backends alone.
Notes written by hand about these figures (what closed the gap to CP-SAT, tdoku's published
figures for orientation) live in reports/jit-notes.md, never in the generated report.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pandas as pd
import tdoku
from common import ROOT, Provenance, write_report
from timings import Bench, count, cpu_s, mean_of, median_ci, ms, sample, solved_of

from sudokucp.backends import backend_class, get_backend
from sudokucp.check import is_solution
from sudokucp.io.files import write_text
from sudokucp.io.formats import load_puzzles
from sudokucp.isomorph import forms
from sudokucp.puzzle import Puzzle
from sudokucp.stats import percentile

PAIR = {"jit": "jit", "hybrid": "hybrid"}


class Wrong(RuntimeError):
    """A solution the judge refused, or a count that is not the known one."""


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f}"


# --- sections ------------------------------------------------------------------------------------

def section_royle(bench: Bench, royle: list[Puzzle], rounds: int) -> list[str]:
    title = f"(a) royle17: {len(royle)} seeded grids, uniqueness proved (limit 2)"
    found = bench.sweep(title, PAIR, royle, limit=2, unique=True)
    complete = int(found.of_method("jit")["complete"].astype(bool).sum())
    lines = [f"## {title}", "", *found.table(list(PAIR), us, "µs"), "",
             found.ratio("hybrid", "jit"),
             f"- jit: every grid solved and proved unique ({complete} complete searches)", ""]
    return lines + solve_many(royle, rounds)


def solve_many(royle: list[Puzzle], rounds: int) -> list[str]:
    """Batch throughput in this process: one compiled call over the whole sample per round.
    Not through the harness: a harness run is one grid in one solve()."""
    jit = get_backend("jit")
    jit.solve_many(royle[:20], limit=2)  # the kernel loads (or compiles) outside the timing
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
    lines = [f"solve_many on the same {len(royle)} grids in one compiled call (limit 2), "
             f"{rounds} rounds in this process (a harness run is one grid: a batch cannot go "
             "through it), every result judged:", "",
             "| round | compiled call s | grids/s (wall) | grids/s (CPU) |",
             "|---:|---:|---:|---:|"]
    for i, (w, c) in enumerate(zip(walls, cpus), 1):
        lines.append(f"| {i} | {w:.4f} | {len(royle) / w:,.0f} | {len(royle) / c:,.0f} |")
    return lines + ["", f"- median: {len(royle) / statistics.median(walls):,.0f} grids/s of wall "
                    f"time, {len(royle) / statistics.median(cpus):,.0f} of CPU time, on one core "
                    f"(the call including the list-to-array step took {wall_total:.4f} s in the "
                    "last round)", ""]


def section_hard(bench: Bench, sets: dict[str, list[Puzzle]]) -> list[str]:
    title = "(b) Hard 9x9 sets, uniqueness proved (limit 2)"
    found = bench.sweep(title, PAIR, [p for grids in sets.values() for p in grids], limit=2,
                        unique=True)
    lines = [f"## {title}", "", "One sweep over both sets.", ""]
    for name, puzzles in sets.items():
        part = found.on(puzzles)
        lines += [f"### {name} ({len(puzzles)} grids)", "", *part.table(list(PAIR), ms, "ms"),
                  "", part.ratio("hybrid", "jit"), ""]
    return lines


def section_16(bench: Bench, puzzles: list[Puzzle]) -> list[str]:
    title = "(c) gecode_16x16, uniqueness proved (limit 2)"
    found = bench.sweep(title, {"jit": "jit"}, puzzles, limit=2, unique=True)
    seconds = found.solved("jit")
    slowest = (f"; the slowest solved, {found.of_method('jit').loc[seconds.idxmax(), 'grid']}, "
               f"took {ms(seconds.max())} ms") if not seconds.empty else ""
    return [f"## {title}", "", *found.table(["jit"], ms, "ms"), "",
            f"- {int((seconds <= 0.05).sum())} of {len(puzzles)} solved within 50 ms of CPU (the "
            f"median of each grid's repeats){slowest}", ""]


UNSOLVED = 1e300  # tail_figures: an unanswered run's stand-in
TAIL = 1.5  # (d): no grid over this many times the faster of pysat and cpsat on it


METHODS_25 = {"jit": "jit", "cpsat": "cpsat", "pysat": "pysat"}
ABOUT_25 = ("jit (clause learning, its default at 25x25), CP-SAT (one worker) and pysat "
            "(CaDiCaL 1.9.5 on the givens' simplified CNF); CPU seconds of the search "
            "(CP-SAT's threads included); a run past the CPU limit is killed by the harness and "
            "counts as unsolved.")


def section_25(bench: Bench, puzzles: list[Puzzle], limit_s: float) -> list[str]:
    title = f"(d) gecode_25x25: first solution (limit 1), {limit_s:g} s of CPU each"
    found = bench.sweep(title, METHODS_25, puzzles, cpu_limit=limit_s)
    rows = grid_rows(found, puzzles)
    ratios = [(name, over_faster(*row)) for name, row in rows]
    lines = [f"## {title}", "", ABOUT_25, "", *found.table(list(METHODS_25), cpu_s, "CPU s"), "",
             f"- time-outs: {time_outs(found)}", found.ratio("cpsat", "jit"),
             found.ratio("pysat", "jit"), *tail_lines(found, ratios), "",
             *each_against_others(rows), "",
             "| grid | jit CPU s | jit conflicts | cpsat CPU s | pysat CPU s | jit / faster |",
             "|---|---:|---:|---:|---:|---:|"]
    for (name, (a, b, c)), (_, ratio) in zip(rows, ratios):
        conflicts = a.get("backtracks")
        shown = "-" if conflicts is None or pd.isna(conflicts) else f"{conflicts:,.0f}"
        lines.append(f"| {name} | {cpu_s(a['seconds'])}{mark(a)} | {shown} | "
                     f"{cpu_s(b['seconds'])}{mark(b)} | {cpu_s(c['seconds'])}{mark(c)} | "
                     f"{ratio_text(ratio)} |")
    return lines + [""]


def section_forms(bench: Bench, puzzles: list[Puzzle], count: int, seed: int,
                  limit_s: float) -> list[str]:
    title = (f"(k) gecode_25x25 isomorphs: {count} random forms of each grid, first solution, "
             f"{limit_s:g} s of CPU each")
    grids = isomorphs(puzzles, count, seed)
    found = bench.sweep(title, METHODS_25, grids, cpu_limit=limit_s, repeat=1)
    rows = grid_rows(found, grids)
    lines = [f"## {title}", "",
             f"Each grid of (d) relabelled, its rows, columns, bands and stacks permuted "
             f"(`sudokucp.isomorph.forms`, seed {seed}): the same puzzle, a different search. "
             f"One run each (every search here is deterministic on its input). {ABOUT_25}", "",
             *found.table(list(METHODS_25), cpu_s, "CPU s"), "",
             f"- time-outs: {time_outs(found)}", found.ratio("cpsat", "jit"),
             found.ratio("pysat", "jit"),
             tail_target({name: run_seconds(found.of_method(name)) for name in METHODS_25}), "",
             *each_against_others(rows), "",
             "| grid | " + " | ".join(f"{name} CPU s, form by form" for name in METHODS_25)
             + " | jit / faster |", "|---|---:|---:|---:|---:|"]
    for k, puzzle in enumerate(puzzles):  # isomorphs() keeps each grid's forms together
        mine = [row for _, row in rows[k * count:(k + 1) * count]]
        cells = [", ".join(cpu_s(row[m]["seconds"]) + mark(row[m]) for row in mine)
                 for m in range(len(METHODS_25))]
        ratios = ", ".join(ratio_text(over_faster(*row)) for row in mine)
        lines.append(f"| {puzzle.name} | {' | '.join(cells)} | {ratios} |")
    return lines + [""]


def run_seconds(lines: pd.DataFrame) -> list[float]:
    """A method's seconds per grid, infinity where it did not answer."""
    return [float(line["seconds"]) if line["answered"] else math.inf
            for _, line in lines.iterrows()]


def tail_figures(seconds: list[float]) -> tuple[float, float, float]:
    """Median, p90 and max over every grid, an unanswered one (infinity) slower than any: a
    percentile that reaches it is infinite."""
    stand_in = [UNSOLVED if math.isinf(value) else value for value in seconds]
    return tuple(math.inf if figure > UNSOLVED / 1e10 else figure
                 for figure in (percentile(stand_in, q) for q in (50, 90, 100)))


def tail_target(seconds: dict[str, list[float]]) -> str:
    """Whether jit's p90 and max over every grid are no higher than pysat's and its median is
    the lowest, an unanswered run counting as slower than any."""
    figures = {name: tail_figures(values) for name, values in seconds.items()}
    (median, p90, largest), (_, p90_sat, largest_sat) = figures["jit"], figures["pysat"]
    met = (p90 <= p90_sat and largest <= largest_sat
           and all(median < other[0] for name, other in figures.items() if name != "jit"))
    shown = "; ".join(f"{name} {' / '.join(map(shown_s, values))}"
                      for name, values in figures.items())
    return (f"- the tail target (jit's p90 and max no higher than pysat's, its median the lowest;"
            f" an unsolved run counts as slower than any): {'met' if met else 'not met'}; "
            f"median / p90 / max CPU s over all {len(seconds['jit'])} runs: {shown}")


def shown_s(seconds: float) -> str:
    """CPU seconds as the tables show them, 'unsolved' for infinity."""
    return cpu_s(seconds) if math.isfinite(seconds) else "unsolved"


def isomorphs(puzzles: list[Puzzle], count: int, seed: int) -> list[Puzzle]:
    """`count` random isomorphs of each grid, named 'NAME form K'."""
    return [Puzzle(form.shape, form.cells, f"{p.name} form {k}")
            for p in puzzles for k, (form, _) in enumerate(forms(p, count, seed), 1)]


def grid_rows(found: Any, puzzles: list[Puzzle]) -> list[tuple[str, list[pd.Series]]]:
    """Per grid, its name and the line of each method of METHODS_25, in that order."""
    frames = [found.of_method(name) for name in METHODS_25]
    return [(p.name, [frame.loc[p.digest] for frame in frames]) for p in puzzles]


def time_outs(found: Any) -> str:
    """'jit 0, cpsat 1, ...': the runs killed at the CPU limit, per method."""
    return ", ".join(f"{name} {count(found.of_method(name), 'timeout')}" for name in METHODS_25)


def over_faster(mine: pd.Series, *others: pd.Series) -> float | None:
    """One method's time over the faster of the others' on one grid: None when none of them
    solved it, infinity when it did not."""
    if not mine["answered"]:
        return float("inf")
    times = [float(o["seconds"]) for o in others if o["answered"]]
    return float(mine["seconds"]) / min(times) if times else None


def mark(line: pd.Series) -> str:
    """' (timeout)' after an unsolved grid's time."""
    return "" if line["answered"] else f" ({line['status']})"


def ratio_text(ratio: float | None) -> str:
    """An over_faster ratio as the table shows it: '-' for None, 'unsolved' for infinity."""
    if ratio is None:
        return "-"
    return "unsolved" if ratio == float("inf") else f"{ratio:.2f}"


def is_over(ratio: float | None) -> bool:
    """Over TAIL as shown (two decimals); an unsolved grid is over."""
    return ratio is not None and round(ratio, 2) > TAIL


def tail_lines(found: Any, ratios: list[tuple[str, float | None]]) -> list[str]:
    """The grids where jit takes over TAIL times the faster of pysat and cpsat (as shown, to two
    decimals), and the medians."""
    over = [f"{name} ({ratio_text(ratio)})" for name, ratio in ratios if is_over(ratio)]
    medians = ", ".join(f"{name} {cpu_s(found.solved(name).median())} s"
                        for name in ("jit", "pysat", "cpsat"))
    return [f"- grids where jit took over {TAIL:g}x the faster of pysat and cpsat: {len(over)} "
            f"of {len(ratios)}" + (f": {', '.join(over)}" if over else ""),
            f"- medians over the grids each solved: {medians}"]


def each_against_others(rows: list[tuple[str, list[pd.Series]]]) -> list[str]:
    """The tail test applied to every method in turn: per method, the grids where it took over
    TAIL times the faster of the other two, and its CPU summed over the grids all three solved."""
    both = [row for _, row in rows if all(line["answered"] for line in row)]
    lines = [f"| method | grids over {TAIL:g}x the faster of the other two | largest ratio | "
             f"CPU s summed over the {len(both)} grids all solved |", "|---|---:|---:|---:|"]
    for k, name in enumerate(METHODS_25):
        ratios = [over_faster(row[k], *(row[:k] + row[k + 1:])) for _, row in rows]
        shown = [r for r in ratios if r is not None]
        largest = ratio_text(max(shown)) if shown else "-"
        total = sum(float(row[k]["seconds"]) for row in both)
        lines.append(f"| {name} | {sum(map(is_over, ratios))} of {len(rows)} | {largest} | "
                     f"{total:.1f} |")
    return lines


def section_proofs(bench: Bench, puzzles: list[Puzzle], limit_s: float) -> list[str]:
    title = f"(g) gecode_25x25: jit proving uniqueness (limit 2), {limit_s:g} s of CPU each"
    found = bench.sweep(title, {"jit, limit 2": "jit"}, puzzles, limit=2, cpu_limit=limit_s,
                        unique=True)
    lines = found.of_method("jit, limit 2")
    proved = int((lines["answered"] & lines["complete"].astype(bool)).sum())
    return [f"## {title}", "", *found.table(["jit, limit 2"], cpu_s, "CPU s"), "",
            f"- proved unique: {proved} of {len(puzzles)}", ""]


DFS_OPTIONS = [("singles", "cell"), ("locked", "wdeg"), ("alldiff", "wdeg"), ("full", "cell"),
               ("full", "wdeg")]
CDCL_OPTIONS = [{"phase": "saved", "restarts": "glucose"}, {"phase": "saved"},
                {"phase": "true"}, {"restarts": "glucose"}, {"minimise": "local"},
                {"minimise": "local", "phase": "true"}, {"probe": "true"}]


def option_specs(kinds: str) -> dict[str, str]:
    """Report name -> jit spec for every option set of the kernels named."""
    specs = {f"dfs propagation={lv} branch={br}": f"jit:search=dfs:propagation={lv}:branch={br}"
             for lv, br in DFS_OPTIONS}
    defaults = backend_class("jit").defaults
    shown = ("minimise", "phase", "restarts")
    specs["cdcl " + " ".join(f"{k}={defaults[k]}" for k in shown) + " (default)"] = \
        "jit:search=cdcl"
    for changed in CDCL_OPTIONS:
        specs["cdcl " + " ".join(f"{k}={v}" for k, v in changed.items())] = \
            "jit:search=cdcl:" + ":".join(f"{k}={v}" for k, v in changed.items())
    wanted = kinds.split(",")
    return {name: spec for name, spec in specs.items() if name.split()[0] in wanted}


def section_options(bench: Bench, p16: list[Puzzle], p25: list[Puzzle], limit_s: float,
                    kinds: str) -> list[str]:
    methods = option_specs(kinds)
    title = "(e) Options on 16x16 and 25x25"
    s16 = bench.sweep(f"{title}: 16x16", methods, p16, limit=2, timeout=60.0, unique=True)
    s25 = bench.sweep(f"{title}: 25x25", methods, p25, cpu_limit=limit_s)
    lines = [f"## {title}", "",
             f"16x16: {len(p16)} grids, limit 2, one sweep. 25x25: {len(p25)} grids, first "
             f"solution, {limit_s:g} s of CPU each, one sweep. `dfs` = the propagating "
             "depth-first kernel with a propagation level and a branching; `cdcl` = clause "
             "learning. Medians over the grids solved [95% CI]; guesses over the grids solved.",
             "", "| search | 16x16 solved | 16x16 median ms | 16x16 max ms | 16x16 mean guesses | "
             "25x25 solved | 25x25 median CPU s | 25x25 mean guesses |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name in methods:
        l16, l25 = s16.of_method(name), s25.of_method(name)
        t16 = s16.solved(name)
        lines.append(f"| {name} | {solved_of(l16)} | {median_ci(t16)} | {ms(t16.max())} | "
                     f"{mean_of(l16, 'guesses')} | {solved_of(l25)} | "
                     f"{median_ci(s25.solved(name), cpu_s)} | {mean_of(l25, 'guesses')} |")
    return lines + [""]


COMPILE = ("import sys, time\n"
           "t = time.process_time(); import numba; print('import numba', time.process_time() - t)\n"
           "from sudokucp.backends.jit import kernels\n"
           "for kernel in kernels.KERNELS:\n"
           "    for entry, version in kernels.entries(kernel):\n"
           "        t = time.process_time(); kernels.ready(kernel, entry, version)\n"
           "        name = f'{kernel}.{entry}' + kernels.VERSIONS.get((kernel, version), '')\n"
           "        print(name, time.process_time() - t)\n")


def section_compile() -> list[str]:
    """The one-off cost of a process, each in a fresh process: not through the harness, which
    loads and compiles a backend before its clock starts."""
    lines = ["## (f) The one-off cost of a process, entry point by entry point", "",
             "Each column a fresh process started by the script (the harness keeps this cost "
             "outside its clock, so it cannot time it): importing numba, then compiling (cold: an "
             "empty cache folder) or loading from numba's disk cache (warm) each entry point in "
             "turn, as `kernels.ready()` does before the first search that needs it (an entry "
             "point compiled as part of an earlier one costs next to nothing). CPU seconds.", ""]
    found: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in ("cold", "warm"):
            env = {**os.environ, "NUMBA_CACHE_DIR": folder}
            out = subprocess.run([sys.executable, "-c", COMPILE], env=env, capture_output=True,
                                 text=True, check=True).stdout.splitlines()
            for line in out:
                name, _, seconds = line.rpartition(" ")
                found.setdefault(name, []).append(f"{float(seconds):.2f}")
    lines += ["| step | cold CPU s | warm CPU s |", "|---|---:|---:|"]
    lines += [f"| {name} | {' | '.join(times)} |" for name, times in found.items()]
    cold = sum(float(times[0]) for times in found.values())
    return lines + ["", f"- every entry point cold: {cold:.1f} s of CPU in all (what "
                    "`sudoku-cp backends --warm jit` costs once; a run compiles only the ones it "
                    "needs)", ""]


def prewarm() -> None:
    """Fill numba's disk cache before any worker needs it: a worker then loads each kernel in
    about a second, where a cold compile takes minutes (past a worker's start-up limit)."""
    from sudokucp.backends.jit.kernels import warm_all

    warm_all()


# --- (h) start-up, (i) solve_lines ---------------------------------------------------------------

def cli(args: list[str], cache: str, out: int | None = subprocess.DEVNULL) -> tuple[float, float]:
    """(CPU, wall) seconds of one `sudoku-cp` command in a process of its own, numba's cache at
    `cache`; CPU of the process and its children (getrusage)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sudokucp", *args], env=env, stdout=out,
                   stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), wall


def spread_of(values: list[float], digits: int = 2) -> str:
    """'median (min-max)' of a few measurements."""
    return (f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-"
            f"{max(values):.{digits}f})")


def section_startup(puzzles: Path, repeats: int) -> list[str]:
    """The first command after an install (an empty numba cache) and the same command again,
    each in a process of its own, the cold and warm runs taking turns `repeats` times; then each
    `solve` again in the cache that `backends --warm jit` filled (with the 9x9 path built ahead)."""
    title = "(h) Start-up: the first command after an install, and the next ones"
    warm_command = "backends --warm jit"
    with tempfile.TemporaryDirectory() as scratch:
        files = one_grid_files(puzzles, Path(scratch))
        commands = {f"solve {name} --backend jit": ["solve", str(path), "--backend", "jit"]
                    for name, path in files.items()}
        commands[warm_command] = ["backends", "--warm", "jit"]
        cold: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        warm: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        ahead: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(repeats):
            for name, args in commands.items():
                with tempfile.TemporaryDirectory() as cache:
                    cold[name].append(cli(args, cache))
                    warm[name] += [cli(args, cache) for _ in range(3)]
                    if name == warm_command:
                        for other, again in commands.items():
                            if other != warm_command:
                                ahead[other] += [cli(again, cache) for _ in range(3)]
    lines = [f"## {title}", "",
             f"Each command in a fresh process, {repeats} rounds: cold with NUMBA_CACHE_DIR at an "
             "empty folder (what the first command after `pip install`, or a fresh CI run, pays), "
             "then warm three times with the cache that run filled; the commands take turns. "
             f"Then each `solve` three times in the cache that `{warm_command}` filled, where the "
             "9x9 path's machine code was built ahead (backends/jit/ahead.py: loaded without "
             "numba). CPU seconds of the process (getrusage), wall seconds; median (min-max).", "",
             "| command | cold CPU s | cold wall s | warm CPU s | warm wall s | after --warm "
             "CPU s | after --warm wall s |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name in commands:
        c, w, a = cold[name], warm[name], ahead[name]
        after = (f"{spread_of([x for x, _ in a])} | {spread_of([y for _, y in a])}" if a
                 else "- | -")
        lines.append(f"| `{name}` | {spread_of([x for x, _ in c], 1)} | "
                     f"{spread_of([y for _, y in c], 1)} | {spread_of([x for x, _ in w])} | "
                     f"{spread_of([y for _, y in w])} | {after} |")
    return lines + ["", "- the grids, each a file of one line, so that `solve` reads and solves "
                    "it in the compiled batch where the kernel has one: royle17's first (9x9: "
                    "the reading kernel and the band-wise batch), gecode_16x16's first (the "
                    "reading kernel and dfs's batch with the matching filter), gecode_25x25#90 "
                    "(no batch: clause learning, the root singles its own)", ""]


def one_grid_files(puzzles: Path, folder: Path) -> dict[str, Path]:
    """A file of one grid for each start-up command: 9x9, 16x16, 25x25."""
    picks = {"9x9.txt": load_puzzles(puzzles / "royle17.txt")[0],
             "16x16.txt": load_puzzles(puzzles / "gecode_16x16.txt")[0],
             "25x25.txt": next(p for p in load_puzzles(puzzles / "gecode_25x25.txt")
                               if p.name.endswith("#90"))}
    for name, puzzle in picks.items():
        write_text(folder / name, puzzle.to_line() + "\n")
    return {name: folder / name for name in picks}


def section_lines(puzzles: Path, rounds: int) -> list[str]:
    """solve_lines on royle17: the compiled reading alone, then reading, solving and judging,
    against the ordinary reader and solve_many in the same process; then `solve` on the file,
    batched and one grid at a time, each in a process of its own."""
    from sudokucp.backends.jit.lines import read_lines

    path = puzzles / "royle17.txt"
    raw = path.read_bytes()
    copies = raw * 20
    jit = get_backend("jit")
    jit.solve_lines(raw[:8200], limit=2)  # the kernels load (or compile) outside the timing
    steps = {  # name -> (what it counts, a step returning how many it did)
        "read_lines, the file 20 times over": ("lines", lambda: len(read_lines(copies).numbers)),
        "the ordinary reader (load_puzzles)": ("lines", lambda: len(load_puzzles(path))),
        "solve_lines, then the judge": ("grids", lambda: judged(jit.solve_lines(raw, limit=2))),
        "the ordinary reader, solve_many, the judge": ("grids", lambda: batch_judged(jit, path)),
    }
    rates: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(rounds):
        for name, (_, step) in steps.items():
            c0 = time.process_time()
            done = step()
            rates[name].append(done / (time.process_time() - c0))
    lines = ["## (i) solve_lines: one-line grids read and solved in compiled code", "",
             f"royle17, all {len(load_puzzles(path)):,} grids, limit 2 (uniqueness proved: every "
             "count checked to be 1, every solution judged by `check.solved_rows`); "
             f"{rounds} rounds in this process, the steps taking turns. Per CPU second; median "
             "(min-max).", "", "| step | per CPU second |", "|---|---:|"]
    for name, (unit, _) in steps.items():
        found = rates[name]
        lines.append(f"| {name} | {statistics.median(found):,.0f} {unit} "
                     f"({min(found):,.0f}-{max(found):,.0f}) |")
    return lines + [""] + solve_command(path, rounds)


def judged(batch) -> int:  # noqa: ANN001 - a LineBatch
    """The grids of a solve_lines batch, every answer judged and every count checked to be 1."""
    from sudokucp.check import solved_rows

    got, solved = batch.lines, batch.solved
    if got.rest or not (solved.counts == 1).all() or not solved_rows(
            got.shape, got.grids, solved.solutions[:, 0]).all():
        raise Wrong("solve_lines: a line unread, a count that is not 1 or a wrong solution")
    return len(got.numbers)


def batch_judged(jit, path: Path) -> int:  # noqa: ANN001 - the jit backend
    """The ordinary reader, then solve_many, then the judge, as before solve_lines."""
    import numpy as np

    from sudokucp.check import solved_rows

    puzzles = load_puzzles(path)
    batch = jit.solve_many(puzzles, limit=2)
    givens = np.array([p.cells for p in puzzles], np.uint8)
    if not (batch.counts == 1).all() or not solved_rows(puzzles[0].shape, givens,
                                                         batch.solutions).all():
        raise Wrong("solve_many: a count that is not 1 or a wrong solution")
    return len(puzzles)


def solve_command(path: Path, rounds: int) -> list[str]:
    """`sudoku-cp solve FILE --backend jit`, batched (a line file) and one grid at a time (what
    --timeout makes it), output to /dev/null, the two taking turns."""
    runs: dict[str, list[tuple[float, float]]] = {"batched": [], "one grid at a time": []}
    base = ["solve", str(path), "--backend", "jit", "--format", "line"]
    with tempfile.TemporaryDirectory() as cache:
        cli(base, cache)  # fills numba's cache
        for _ in range(rounds):
            runs["batched"].append(cli(base, cache))
            runs["one grid at a time"].append(cli([*base, "--timeout", "1000"], cache))
    grids = len(load_puzzles(path))
    lines = [f"`sudoku-cp solve royle17.txt --backend jit --format line` ({grids:,} grids, each "
             "solution and status line written; to /dev/null), each run a process of its own, "
             f"{rounds} rounds; one grid at a time is what `--timeout` makes it. Median (min-max).",
             "", "| solve | CPU s | wall s | grids per CPU second |", "|---|---:|---:|---:|"]
    for name, found in runs.items():
        cpus = [c for c, _ in found]
        lines.append(f"| {name} | {spread_of(cpus)} | {spread_of([w for _, w in found])} | "
                     f"{grids / statistics.median(cpus):,.0f} |")
    return lines + [""]


PAIR_CHILD = """
import json, sys, time
import numpy as np
from sudokucp.backends import get_backend
from sudokucp.io.formats import parse_grid
sets, grids25 = json.loads(sys.stdin.read())
jit, out = get_backend("jit"), {}
for name, lines in sets.items():
    puzzles = [parse_grid(line) for line in lines]
    grids = np.array([p.cells for p in puzzles], np.int64)
    jit.solve_array(grids[:3], puzzles[0].shape, limit=2)  # compiled before the clock
    c0 = time.process_time()
    batch = jit.solve_array(grids, puzzles[0].shape, limit=2)
    out[name] = time.process_time() - c0
    assert (batch.counts == 1).all(), name
for line in grids25:
    result = jit.solve(parse_grid(line), limit=1)  # its seconds: the search alone
    assert result.status.name == "SOLVED", line
    out.setdefault("25x25", []).append(result.seconds)
print(json.dumps(out))
"""


def pair_child(src: Path, payload: str) -> dict[str, Any]:
    """One child process on `src`'s sudokucp: its CPU seconds per set and per 25x25 grid."""
    import json

    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", PAIR_CHILD], input=payload, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise Wrong(f"the child on {src} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


def section_pair(against: Path | None, sets: dict[str, list[Puzzle]], grids25: list[Puzzle],
                 rounds: int) -> list[str]:
    """This tree's jit against another tree's, in child processes taking turns (see (l))."""
    import json

    title = "(l) Before and after: this tree's jit against another tree's"
    if against is None or not (against / "sudokucp").is_dir():
        return [f"## {title}", "", f"- not measured: --against names no source tree ({against})",
                ""]
    mine = ROOT / "src"
    payload = json.dumps([{name: [p.to_line() for p in found] for name, found in sets.items()},
                          [p.to_line() for p in grids25]])
    runs: dict[Path, list[dict[str, Any]]] = {against: [], mine: []}
    for i in range(rounds):
        for src in ((against, mine) if i % 2 == 0 else (mine, against)):
            runs[src].append(pair_child(src, payload))
    lines = [f"## {title}", "",
             f"This tree (`{mine}`, after) against `{against}` (before), each in a process of "
             f"its own, {rounds} rounds taking turns (the first to start alternating). "
             "solve_array, limit 2, CPU seconds of the call, median (min-max), and the paired "
             "ratio after / before over the rounds (`sudokucp.stats.paired`); 25x25: first "
             "solution, each grid's search seconds the median of its rounds, paired over the "
             "grids. after / before: the geometric mean of the paired ratios [95% bootstrap "
             "interval], then the verdict.", "",
             "| set | grids | before ms | after ms | after / before |", "|---|---:|---:|---:|---|"]
    for name, found in sets.items():
        before = [run[name] for run in runs[against]]
        after = [run[name] for run in runs[mine]]
        lines.append(f"| {name} | {len(found):,} | {spread_of([x * 1e3 for x in before], 1)} | "
                     f"{spread_of([x * 1e3 for x in after], 1)} | "
                     f"{ratio_of(before, after)} |")
    if grids25:
        before = [statistics.median(g) for g in zip(*(run["25x25"] for run in runs[against]))]
        after = [statistics.median(g) for g in zip(*(run["25x25"] for run in runs[mine]))]
        lines.append(f"| gecode_25x25 (first {len(grids25)}) | {len(grids25)} | "
                     f"{spread_of([x * 1e3 for x in before], 1)} | "
                     f"{spread_of([x * 1e3 for x in after], 1)} | "
                     f"{ratio_of(before, after)} |")
    return lines + ["", "- 25x25 columns: the median (min-max) over the grids of each grid's "
                    "median search seconds", ""]


def ratio_of(before: list[float], after: list[float]) -> str:
    """after / before, paired (`sudokucp.stats.paired`): the ratio, its interval, the verdict."""
    from sudokucp.stats import paired

    found = paired(before, after, a="before", b="after")
    return f"{found.ratio:.3f} [{found.low:.3f}-{found.high:.3f}], {found.verdict}"


BATCH_SETS = ("royle17", "forum_hardest_1905_11plus", "magictour_top1465", "top95",
              "forum_hardest_1106")


def section_kernels(puzzles: Path, datasets: Path, rounds: int, source: Path) -> list[str]:
    """The band-wise kernel against dfs on whole sets, one compiled call per set and kernel,
    and tdoku where it builds, taking turns `rounds` times: in this process (a batch is no
    harness run)."""
    import numpy as np

    kernels = {"bands": get_backend("jit", search="bands"), "dfs": get_backend("jit",
                                                                               search="dfs")}
    with tempfile.TemporaryDirectory() as folder:
        built = tdoku.build(source, Path(folder))
        reference = tdoku.Tdoku(built) if isinstance(built, Path) else None
    columns = [*kernels, *(["tdoku"] if reference else [])]
    lines = ["## (j) Batches: the band-wise kernel against dfs and tdoku", "",
             f"`solve_array`, limit 2, each whole set in one compiled call per kernel, {rounds} "
             "rounds in this process, the methods taking turns; every count checked to be 1 and "
             "every solution of jit's judged (`check.solved_rows`). Grids per CPU second, median "
             "(min-max); the mean guesses per grid below each (they do not depend on the "
             "machine).", "",
             kernel_note(built, source), "",
             "| set | grids | " + " | ".join(columns) + " | bands / dfs |"
             + (" tdoku / bands |" if reference else ""),
             "|---|---:|" + "---:|" * (len(columns) + 1 + bool(reference))]
    for name in BATCH_SETS:
        path = next((folder / f"{name}.txt" for folder in (puzzles, datasets)
                     if (folder / f"{name}.txt").exists()), None)
        if path is None:
            lines.append(f"| {name} | - | not found in {puzzles} nor {datasets} |")
            continue
        found = load_puzzles(path)
        grids = np.array([p.cells for p in found], np.int64)
        rates, guesses = batch_rates(kernels, reference, name, found[0].shape, grids, rounds)
        medians = {method: statistics.median(found) for method, found in rates.items()}
        cells = " | ".join(f"{medians[k]:,.0f} ({min(v):,.0f}-{max(v):,.0f}), "
                           f"{guesses[k]:.1f} guesses" for k, v in rates.items())
        ratio = (f" {medians['tdoku'] / medians['bands']:.2f} |" if reference else "")
        lines.append(f"| {name} | {len(grids):,} | {cells} | "
                     f"{medians['bands'] / medians['dfs']:.2f} |{ratio}")
    return lines + [""]


def kernel_note(built: Path | str, source: Path) -> str:
    """Where tdoku's figures come from, or why the table has none."""
    if isinstance(built, Path):
        return (f"- tdoku: commit {tdoku.revision(source)} of {source}, its "
                f"{' and '.join(tdoku.SOURCES)} built here with -O3 -march=native and called "
                "through ctypes once per set (benchmarks/tdoku.py): limit 2, its counts checked "
                "to be 1 (it gives no solution at that limit)")
    return f"- tdoku: not measured: {built}"


def batch_rates(kernels: dict, reference: tdoku.Tdoku | None, name: str, shape: Any,
                grids: Any, rounds: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Grids per CPU second of each method on one set, `rounds` rounds taking turns, and the
    mean guesses per grid; a count that is not 1 or a wrong solution raises Wrong."""
    from sudokucp.check import solved_rows

    rates: dict[str, list[float]] = {method: [] for method in kernels}
    guesses: dict[str, float] = {}
    for backend in kernels.values():
        backend.solve_array(grids[:3], shape, limit=2)  # compiled before the clock
    text = tdoku.as_text(grids) if reference else b""
    if reference:
        rates["tdoku"] = []
    for _ in range(rounds):
        for method, backend in kernels.items():
            c0 = time.process_time()
            batch = backend.solve_array(grids, shape, limit=2)
            rates[method].append(len(grids) / (time.process_time() - c0))
            if not ((batch.counts == 1).all()
                    and solved_rows(shape, grids, batch.solutions).all()):
                raise Wrong(f"{method} on {name}: a count that is not 1 or a wrong solution")
            guesses[method] = float(batch.stats[:, 1].mean())
        if reference:
            c0 = time.process_time()
            counts, tried = reference.count(text, 2)
            rates["tdoku"].append(len(grids) / (time.process_time() - c0))
            if not (counts == 1).all():
                raise Wrong(f"tdoku on {name}: a count that is not 1")
            guesses["tdoku"] = float(tried.mean())
    return rates, guesses


def main(argv: list[str] | None = None) -> None:
    args_in = sys.argv[1:] if argv is None else argv
    provenance = Provenance([sys.argv[0], *args_in])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--sample", type=int, default=2000, help="royle17 grids sampled")
    parser.add_argument("--seed", type=int, default=13,
                        help="seeds the royle17 sample and the order of the runs")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each method on each grid")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="wall seconds per run without a CPU limit")
    parser.add_argument("--rounds", type=int, default=5, help="solve_many rounds")
    parser.add_argument("--limit-25", type=float, default=60.0, help="CPU seconds per 25x25 run")
    parser.add_argument("--option-limit", type=float, default=5.0,
                        help="CPU seconds per 25x25 run in the options table")
    parser.add_argument("--option-kernels", default="dfs,cdcl",
                        help="the kernels whose options table e measures")
    parser.add_argument("--datasets", type=Path,
                        default=ROOT.parent / "shared" / "datasets" / "raw",
                        help="where the sets that are not in --puzzles are (table j)")
    parser.add_argument("--batch-rounds", type=int, default=3, help="rounds of table j")
    parser.add_argument("--tdoku", type=Path, default=ROOT.parent / "tdoku",
                        help="tdoku's source tree, built and timed beside jit in table j "
                             "where a C++ compiler is found")
    parser.add_argument("--start-rounds", type=int, default=3,
                        help="rounds of the start-up table (h): each compiles from nothing")
    parser.add_argument("--max-grids", type=int,
                        help="the first N grids of every set but royle17 (a quick run)")
    parser.add_argument("--results", type=Path, help="keep each sweep's harness folder here")
    parser.add_argument("--forms", type=int, default=2,
                        help="random isomorphs of each 25x25 grid in table k")
    parser.add_argument("--against", type=Path,
                        help="the src folder of another checkout, compared with this one (l)")
    parser.add_argument("--pair-rounds", type=int, default=7, help="rounds of table l")
    parser.add_argument("--pair-25", type=int, default=5,
                        help="the first N gecode_25x25 grids in table l (0: none)")
    parser.add_argument("--sections", default="abcdefghijk",
                        help="the sections to run, by letter (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "jit.md")
    args = parser.parse_args(args_in)
    for name in ("jit", "cpsat"):
        if not backend_class(name).available():
            sys.exit(f"{name} needs {backend_class(name).distribution()}: "
                     f"pip install 'sudoku-cp[{backend_class(name).extra}]'")
    started = time.perf_counter()
    bench = Bench(provenance, args.repeat, args.seed, args.jobs, args.timeout, args.results)
    royle = random.Random(args.seed).sample(load_puzzles(args.puzzles / "royle17.txt"),
                                            args.sample)
    p16 = sample(load_puzzles(args.puzzles / "gecode_16x16.txt"), args.max_grids)
    p25 = sample(load_puzzles(args.puzzles / "gecode_25x25.txt"), args.max_grids)
    sections = {
        "a": lambda: section_royle(bench, royle, args.rounds),
        "b": lambda: section_hard(bench, {
            name: sample(load_puzzles(args.puzzles / f"{name}.txt"), args.max_grids)
            for name in ("top95", "forum_hardest_1106")}),
        "c": lambda: section_16(bench, p16),
        "d": lambda: section_25(bench, p25, args.limit_25),
        "e": lambda: section_options(bench, p16, p25, args.option_limit, args.option_kernels),
        "f": section_compile,
        "g": lambda: section_proofs(bench, p25, args.limit_25),
        "h": lambda: section_startup(args.puzzles, args.start_rounds),
        "i": lambda: section_lines(args.puzzles, args.rounds),
        "j": lambda: section_kernels(args.puzzles, args.datasets, args.batch_rounds,
                                     args.tdoku),
        "k": lambda: section_forms(bench, p25, args.forms, args.seed, args.limit_25),
        "l": lambda: section_pair(args.against, {
            "royle17": royle, "forum_hardest_1106": sample(load_puzzles(
                args.puzzles / "forum_hardest_1106.txt"), args.max_grids)},
            p25[:args.pair_25], args.pair_rounds),
    }
    unknown = set(args.sections) - sections.keys()
    if unknown:
        parser.error(f"--sections takes letters of {''.join(sections)}, not {''.join(unknown)}")
    if set(args.sections) - {"f", "h", "l"}:
        prewarm()
    body: list[str] = []
    for letter in args.sections:
        body += sections[letter]()
    versions = ", ".join(f"{n} {backend_class(n).version()}" for n in ("jit", "cpsat"))
    top = ["# The compiled backend (`jit`)", "", *provenance.lines(),
           f"- took {(time.perf_counter() - started) / 60:.1f} min; {versions}",
           *bench.method(), ""]
    write_report(args.out, "\n".join(top + body) + "\n")


if __name__ == "__main__":
    main()
