"""The Dask executor against the local one (reports/dask.md).

(a) Overhead: a trivial run (naive on an already-full 4x4 grid) through the harness (checker,
    JSONL log) with the local executor (1 worker) and a 1-worker LocalCluster, in interleaved
    rounds; per run: (last row - first row) / (runs - 1), so chunks count and start-up does not.
(b) Throughput: the first K royle17 grids with the hybrid: local --jobs 1 and 2, Dask with 1 and
    2 workers, in interleaved passes; the sweep is timed (submit to last row), each Dask pass on a
    freshly started cluster whose start is reported apart.
(c) Faults: `bench()` of 2 backends x 1,000 grids on 2 Dask workers, one worker SIGKILLed at the
    1,000th row: the lines of results.jsonl, distinct keys, duplicates.

    python benchmarks/dask_executor.py [--runs 10000] [--rounds 5] [--grids 1000] [--passes 3]

Why not `common.measure`: the thing measured is an executor, the Dask one against the local one
(cost per run, throughput, a worker killed mid-sweep); `measure` always runs the local executor
and hides its clock, so this script drives the executors (and `bench()` for the fault test) with
its own clock around them.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from common import ROOT, Provenance, write_report

from sudokucp.executors import ResourceLimits, Task, make_executor
from sudokucp.harness.bench import BenchConfig, execute
from sudokucp.harness.runlog import ResultLog
from sudokucp.harness.runplan import Dataset, plan, resolve
from sudokucp.io.formats import load_puzzles, parse_grid
from sudokucp.reporting.bench_report import bench_and_report

ROYLE = ROOT.parent / "shared" / "puzzles" / "royle17.txt"
FULL_4X4 = "1234341221434321"


def sweep(executor, tasks: list[Task], path: Path) -> tuple[float, float, Counter]:
    """Seconds from submit to the last row, from the first row to the last, and the statuses."""
    log = ResultLog(path)
    log.open(append=False)
    start, first, statuses = time.perf_counter(), None, Counter()
    try:
        for row in execute(tasks, executor, log):
            first = first or time.perf_counter()
            statuses[row.status.value] += 1
    finally:
        log.close()
    end = time.perf_counter()
    return end - start, end - first, statuses


def started(name: str, **options) -> tuple[object, float]:
    """An executor and the seconds it took to start."""
    start = time.perf_counter()
    executor = make_executor(name, **options)
    return executor, time.perf_counter() - start


def measure_overhead(runs: int, rounds: int, folder: Path) -> list[str]:
    puzzle = parse_grid(FULL_4X4, name="full")
    size = runs // rounds
    tasks = [Task(f"naive|{i}", "naive", puzzle, 1, ResourceLimits(10.0), {"dataset": "trivial"})
             for i in range(size)]
    per_run: dict[str, list[float]] = {"local": [], "dask": []}
    lines = ["## (a) Overhead per run", "",
             f"Trivial run: `naive` on an already-full 4x4 grid; {rounds} rounds of {size:,} "
             f"runs on each side ({size * rounds:,} runs each), local first in odd rounds.", "",
             "| round | executor | ms per run | executor start (s) | load before |",
             "|---|---|---|---|---|"]
    for n in range(1, rounds + 1):
        for name in (("local", "dask") if n % 2 else ("dask", "local")):
            load = os.getloadavg()[0]
            options = {"jobs": 1} if name == "local" else {"workers": 1}
            executor, start = started(name, **options)
            with executor:
                _, rows_span, _ = sweep(executor, tasks, folder / f"{name}.jsonl")
            per_run[name].append(rows_span / (size - 1))
            lines.append(f"| {n} | {name} | {per_run[name][-1] * 1e3:.4f} | {start:.2f} | "
                         f"{load:.2f} |")
    local, dask = (statistics.median(per_run[k]) for k in ("local", "dask"))
    verdict = "meets" if dask - local <= 0.002 else "misses"
    lines += ["", f"Median per run: local {local * 1e3:.4f} ms, Dask (1 worker) "
              f"{dask * 1e3:.4f} ms: **{(dask - local) * 1e3:+.4f} ms per run** through Dask "
              f"({verdict} the floor of at most 2 ms more).", ""]
    return lines


def measure_throughput(grids: int, passes: int, folder: Path) -> list[str]:
    dataset = Dataset("royle17", load_puzzles(ROYLE)[:grids])
    tasks = plan(resolve(["hybrid"]), [dataset], timeout=10.0)
    setups = {"local jobs 1": ("local", {"jobs": 1}), "local jobs 2": ("local", {"jobs": 2}),
              "dask 1 worker": ("dask", {"workers": 1}), "dask 2 workers": ("dask", {"workers": 2})}
    rates: dict[str, list[float]] = {name: [] for name in setups}
    steady: dict[str, list[float]] = {name: [] for name in setups}
    lines = ["## (b) Throughput", "",
             f"The first {grids:,} royle17 grids with `hybrid` (10 s limit), {passes} passes, the "
             f"order of the four set-ups rotated each pass.", "",
             "| pass | set-up | runs/s | steady runs/s | sweep (s) | start (s) | statuses | "
             "load before |", "|---|---|---|---|---|---|---|---|"]
    order = list(setups)
    for n in range(1, passes + 1):
        for label in order[n - 1:] + order[:n - 1]:
            name, options = setups[label]
            load = os.getloadavg()[0]
            executor, start = started(name, **options)
            with executor:
                seconds, span, statuses = sweep(executor, tasks, folder / "throughput.jsonl")
            rates[label].append(len(tasks) / seconds)
            steady[label].append((len(tasks) - 1) / span)
            lines.append(f"| {n} | {label} | {rates[label][-1]:.1f} | {steady[label][-1]:.1f} | "
                         f"{seconds:.3f} | {start:.2f} | {dict(statuses)} | {load:.2f} |")
    lines.append("")
    for what, table in (("whole sweep (submit to last row)", rates),
                        ("steady (first row to last row)", steady)):
        lines += verdicts(what, {label: statistics.median(v) for label, v in table.items()})
    return lines


def verdicts(what: str, med: dict[str, float]) -> list[str]:
    """The medians of one throughput measure and the floors they meet or miss."""
    scale = med["dask 2 workers"] / med["dask 1 worker"]
    versus = med["dask 2 workers"] / med["local jobs 2"]
    return [f"Medians, {what} (runs/s): " + ", ".join(f"{k} {v:.1f}" for k, v in med.items()),
            "", f"- Dask 2 workers / 1 worker: **{scale:.2f}x** "
            f"({'meets' if scale >= 1.6 else 'misses'} the floor of 1.6x)",
            f"- Dask 2 workers / local `--jobs 2`: **{versus:.2f}** "
            f"({'meets' if versus >= 0.85 else 'misses'} the floor: within 15%)", ""]


def measure_kill(grids: int, folder: Path) -> list[str]:
    puzzles = folder / "royle.txt"
    puzzles.write_text("".join(line + "\n" for line in ROYLE.read_text().splitlines()[:grids]))
    out = folder / "kill"
    config = BenchConfig(backends=["hybrid", "mrv"], puzzles=[str(puzzles)], out=out,
                         timeout=10.0)
    executor = make_executor("dask", workers=2, chunk=25)
    pids = executor.client.run(os.getpid)
    victim, killed = next(iter(pids.values())), []

    def on_row(row, seen=[0]) -> None:  # noqa: B006 (a counter)
        seen[0] += 1
        if seen[0] == grids:
            os.kill(victim, signal.SIGKILL)
            killed.append(time.perf_counter())

    start = time.perf_counter()
    outcome = bench_and_report(config, on_row=on_row, executor=executor)
    seconds = time.perf_counter() - start
    keys = [json.loads(line)["key"] for line in (out / "results.jsonl").read_text().splitlines()]
    statuses = Counter(row.status.value for row in outcome.rows)
    return ["## (c) A Dask worker killed mid-sweep", "",
            f"`bench()` of `hybrid` and `mrv` on the first {grids:,} royle17 grids "
            f"({2 * grids:,} runs) on a LocalCluster of 2 workers, chunks of 25; worker pid "
            f"{victim} SIGKILLed at row {grids:,} (its nanny starts another).", "",
            f"- results.jsonl: **{len(keys):,} lines, {len(set(keys)):,} distinct keys, "
            f"{len(keys) - len(set(keys))} duplicates**; runs planned {2 * grids:,}",
            f"- statuses: {dict(statuses)}; disagreements: {len(outcome.disagreements)}",
            f"- killed: {'yes' if killed else 'no'}; sweep with the tables {seconds:.1f} s", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--grids", type=int, default=1_000)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "dask.md")
    args = parser.parse_args()
    provenance = Provenance()
    with tempfile.TemporaryDirectory() as tmp:
        body = measure_overhead(args.runs, args.rounds, Path(tmp))
        if ROYLE.exists():
            body += measure_throughput(args.grids, args.passes, Path(tmp))
            body += measure_kill(args.grids, Path(tmp))
        else:
            body += [f"{ROYLE} is absent: no throughput or fault measure.", ""]
    head = ["# The Dask executor against the local one", "", *provenance.lines(), ""]
    write_report(args.out, "\n".join(head + body) + "\n")
    print(args.out.read_text())


if __name__ == "__main__":
    main()
