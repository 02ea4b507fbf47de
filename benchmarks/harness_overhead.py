"""Harness overhead per run and the throughput of --jobs 2 against --jobs 1 (reports/harness.md).

Overhead: a trivial run (the naive backend on an already-full 4x4 grid) repeated N times, once by
calling solve() directly, once through the harness (worker process, pipes, checker, JSONL log);
the overhead is the difference of the per-run medians. Throughput: the first K royle17 grids with a
fast backend through the harness with one worker, then two; jobs 1 and 2 alternate `--repeat` times.

    python benchmarks/harness_overhead.py [--runs 10000] [--grids 1000] [--backend hybrid]

Why not `common.measure`: the thing measured is the harness itself, its cost per run against a
direct solve() and its throughput with one and two workers; so this script drives the harness's
parts (plan, executor, log) with its own clock around them, where `measure` would hide them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from common import Provenance, write_report

from sudokucp.backends import get_backend
from sudokucp.executors import ResourceLimits, Task, make_executor
from sudokucp.harness.bench import execute
from sudokucp.harness.runlog import ResultLog
from sudokucp.harness.runplan import Contender, Dataset, plan, resolve
from sudokucp.io.formats import load_puzzles, parse_grid
from sudokucp.result import Row

ROOT = Path(__file__).resolve().parents[1]
ROYLE = ROOT.parent / "shared" / "puzzles" / "royle17.txt"
FULL_4X4 = "1234341221434321"


def direct_times(runs: int) -> list[float]:
    """Seconds of each of `runs` direct solve() calls on the full 4x4 grid."""
    backend, puzzle = get_backend("naive"), parse_grid(FULL_4X4, name="full")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        backend.solve(puzzle, limit=1, time_limit=10.0)
        times.append(time.perf_counter() - start)
    return times


def through_harness(tasks: list[Task], jobs: int, path: Path) -> Iterator[Row]:
    """The rows of `tasks` as `sudoku-cp bench` makes them: local workers, checked, logged."""
    log = ResultLog(path)
    log.open(append=False)
    try:
        with make_executor("local", jobs=jobs) as executor:
            yield from execute(tasks, executor, log)
    finally:
        log.close()


def harness_times(runs: int, folder: Path) -> tuple[list[float], float]:
    """Seconds between consecutive verified, logged rows for the same run through one worker,
    and the total wall time."""
    puzzle = parse_grid(FULL_4X4, name="full")
    tasks = [Task(f"naive|{i}", "naive", puzzle, 1, ResourceLimits(10.0), {"dataset": "trivial"})
             for i in range(runs)]
    gaps, start, last = [], time.perf_counter(), None
    for _ in through_harness(tasks, 1, folder / "overhead.jsonl"):
        now = time.perf_counter()
        if last is not None:  # the first row also pays for starting the worker
            gaps.append(now - last)
        last = now
    return gaps, time.perf_counter() - start


def throughput(contenders: list[Contender], dataset: Dataset, jobs: int,
               folder: Path) -> tuple[float, dict[str, int]]:
    """Runs per second through the harness with `jobs` workers, and the status counts."""
    tasks = plan(contenders, [dataset], timeout=60.0)
    start = time.perf_counter()
    counts = Counter(row.status.value for row in through_harness(tasks, jobs,
                                                                  folder / f"jobs{jobs}.jsonl"))
    return len(tasks) / (time.perf_counter() - start), dict(counts)


def measure_overhead(runs: int, folder: Path) -> list[str]:
    direct = direct_times(runs)
    gaps, total = harness_times(runs, folder)
    d, h = statistics.median(direct), statistics.median(gaps)
    return ["## Overhead per run", "",
            f"Trivial run: the naive backend on an already-full 4x4 grid, {runs:,} times.", "",
            "| measure | median (ms) | mean (ms) |", "|---|---|---|",
            f"| direct `solve()` | {d * 1e3:.4f} | {statistics.fmean(direct) * 1e3:.4f} |",
            f"| through the harness (row to row) | {h * 1e3:.4f} | {total / runs * 1e3:.4f} |",
            f"| **overhead** | **{(h - d) * 1e3:.4f}** | "
            f"{(total / runs - statistics.fmean(direct)) * 1e3:.4f} |", "",
            "Through the harness a run is: the request line to the worker, the result line "
            "back, the checker on the solution, the row appended and flushed to the JSONL log. "
            "The mean through the harness includes starting the worker.", ""]


def measure_jobs(backend: str, grids: int, repeat: int, folder: Path) -> list[str]:
    contenders = resolve([backend])
    dataset = Dataset("royle17", load_puzzles(ROYLE)[:grids])
    rates: dict[int, list[float]] = {1: [], 2: []}
    lines = ["## Parallel throughput", "",
             f"The first {grids:,} royle17 grids with `{backend}`, `--jobs 1` then `--jobs 2`, "
             f"alternated {repeat} time(s).", "",
             "| pass | jobs | runs/s | statuses | load average before |", "|---|---|---|---|---|"]
    for n in range(1, repeat + 1):
        for jobs in (1, 2):
            load = os.getloadavg()[0]
            rate, counts = throughput(contenders, dataset, jobs, folder)
            rates[jobs].append(rate)
            lines.append(f"| {n} | {jobs} | {rate:.1f} | {counts} | {load:.2f} |")
    ratios = [two / one for one, two in zip(rates[1], rates[2])]
    lines += ["", f"**jobs 2 / jobs 1 throughput: {statistics.median(ratios):.2f}x** "
              f"(median over passes; each pass: {', '.join(f'{r:.2f}' for r in ratios)})", ""]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--grids", type=int, default=1_000)
    parser.add_argument("--backend", default="hybrid")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "harness.md")
    args = parser.parse_args()
    provenance = Provenance()
    with tempfile.TemporaryDirectory() as tmp:
        body = measure_overhead(args.runs, Path(tmp))
        if ROYLE.exists():
            body += measure_jobs(args.backend, args.grids, args.repeat, Path(tmp))
        else:
            body += [f"{ROYLE} is absent: no throughput measure.", ""]
    head = ["# Harness overhead and parallel throughput", "", *provenance.lines(), ""]
    write_report(args.out, "\n".join(head + body))
    print(args.out.read_text())


if __name__ == "__main__":
    main()
