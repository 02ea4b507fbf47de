"""How far the harness's figures can be trusted, written to reports/measurement.md.

    python benchmarks/measurement.py [--puzzles DIR] [--grids 500] [--repeat 3]
        [--backends hybrid,sat,mrv,jit] [--before DIR] [--runs 5000] [--out reports/measurement.md]

(a) Steadiness: the same bench (--backends on the first --grids royle17 grids, --repeat, jobs 1)
    three times: on a quiet machine (the script first waits for the load average to fall under
    half the cores), beside a CPU hog (the script starts two spinning processes
    per usable core, each in a session of its own as another user's work would be, and stops
    them), and on the quiet machine again. Per backend: the median over puzzles of each puzzle's
    median CPU and wall milliseconds in each run, and loaded / quiet. Each run's noise warnings.
(b) Confidence intervals: the pairs table of the first quiet run against the second: does each
    pair's 95% interval of the time ratio hold the ratio the other run measured? (Both ways.)
(c) Threads: `cpsat` with 1, 2 and 8 workers on the first --threads-grids Gecode 25x25 grids
    (first solution): per run, CPU seconds over wall seconds (every thread counts).
(d) Overhead: a trivial run (naive on a full 9x9 grid less one digit, --runs distinct grids by
    digit relabelling) through `bench()`, row to row, in this checkout and in --before (a
    checkout of the harness before CPU accounting, e.g. `git worktree add /tmp/before 948c90d`),
    each in a process of its own, three rounds taking turns. This one compares two checkouts, so
    it cannot go through one harness: it times the harness itself.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from common import ROOT, Provenance, measure, write_report

from sudokucp.executors.local import usable_cores
from sudokucp.harness.bench import BenchOutcome
from sudokucp.io.formats import read_puzzles
from sudokucp.reporting.report import results_frame
from sudokucp.stats import one_line_per_puzzle, paired

SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
TRIVIAL_RUN = '''
import json, sys, time
from pathlib import Path
from sudokucp.harness.bench import BenchConfig, bench  # rows only: what is timed is between rows
stamps = []
bench(BenchConfig(backends=["naive"], puzzles=[sys.argv[1]], out=Path(sys.argv[2]),
                  timeout=10.0, memory_mb=None),
      on_row=lambda row: stamps.append(time.perf_counter()))
gaps = sorted(b - a for a, b in zip(stamps, stamps[1:]))
mean = (stamps[-1] - stamps[0]) / (len(stamps) - 1)
print(json.dumps({"median": gaps[len(gaps) // 2], "mean": mean}))
'''


@contextmanager
def cpu_hog() -> Iterator[int]:
    """Two spinning processes per usable core, each in a session of its own, while the block
    runs; yields how many."""
    count = 2 * usable_cores()
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(count)]
    try:
        time.sleep(1.0)
        yield count
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def settle(most: float = 240.0) -> str:
    """Wait (up to `most` seconds) for the 1-minute load average to fall under half the usable
    cores, so that a quiet run starts quiet; what was waited, for the report."""
    start, calm = time.monotonic(), usable_cores() / 2
    while os.getloadavg()[0] >= calm and time.monotonic() - start < most:
        time.sleep(5)
    return f"waited {time.monotonic() - start:.0f} s for a load under {calm:g}"


def medians(outcome: BenchOutcome) -> dict[str, dict[str, float]]:
    """Per backend: median over puzzles of each puzzle's median CPU and wall ms, and solved."""
    frame = one_line_per_puzzle(results_frame(outcome.rows))
    found = {}
    for backend, group in frame.groupby("backend"):
        done = group[group["status"].isin(["solved", "unsat"])]
        found[backend] = {"cpu": done["cpu"].astype(float).median() * 1000,
                          "wall": done["wall"].astype(float).median() * 1000,
                          "solved": len(done), "puzzles": len(group)}
    return found


def steadiness(runs: dict[str, BenchOutcome]) -> list[str]:
    quiet, loaded = medians(runs["quiet"]), medians(runs["loaded"])
    lines = ["## (a) Quiet and loaded", "",
             "| backend | solved (quiet / loaded) | CPU ms quiet | CPU ms loaded | loaded / quiet "
             "| wall ms quiet | wall ms loaded | loaded / quiet |",
             "|---|---|---|---|---|---|---|---|"]
    for backend, q in quiet.items():
        x = loaded[backend]
        lines.append(f"| {backend} | {q['solved']} / {x['solved']} | {q['cpu']:.4g} | "
                     f"{x['cpu']:.4g} | **{x['cpu'] / q['cpu']:.3f}** | {q['wall']:.4g} | "
                     f"{x['wall']:.4g} | {x['wall'] / q['wall']:.3f} |")
    lines += ["", "Each figure: the median over the puzzles of each puzzle's median over its "
              "repeats, solved runs only.", ""]
    for name, outcome in runs.items():
        cal = outcome.measurement.get("calibration", {})
        warnings = outcome.measurement.get("warnings", [])
        lines.append(f"- {name} run: load {outcome.measurement.get('load')} at the start, "
                     f"{outcome.measurement.get('load_end')} at the end; calibration wall "
                     f"spread {cal.get('spread', float('nan')):.1%}, CPU spread "
                     f"{cal.get('cpu_spread', float('nan')):.1%}, waiting "
                     f"{cal.get('waiting', float('nan')):.1%}; "
                     + (f"noise warnings: {' / '.join(warnings)}" if warnings
                        else "no noise warning"))
    return lines + [""]


def pair_seconds(outcome: BenchOutcome) -> dict[str, dict[str, float]]:
    """backend -> puzzle hash -> median seconds, solved puzzles only."""
    frame = one_line_per_puzzle(results_frame(outcome.rows))
    frame = frame[frame["status"].isin(["solved", "unsat"])]
    return {b: dict(zip(g["hash"], g["seconds"].astype(float)))
            for b, g in frame.groupby("backend")}


def coverage(first: BenchOutcome, second: BenchOutcome) -> list[str]:
    times = [pair_seconds(first), pair_seconds(second)]
    names = sorted(times[0])
    lines = ["## (b) Do the intervals hold a second run's ratio?", "",
             "| pair (B / A) | run 1 ratio [95% CI] | run 2 ratio [95% CI] | run 1 CI holds run 2 "
             "| run 2 CI holds run 1 |", "|---|---|---|---|---|"]
    held = checks = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            found = []
            for t in times:
                common = sorted(set(t[a]) & set(t[b]))
                found.append(paired([t[a][h] for h in common], [t[b][h] for h in common],
                                    a=a, b=b))
            one, two = found
            hold = [one.low <= two.ratio <= one.high, two.low <= one.ratio <= two.high]
            held, checks = held + sum(hold), checks + 2
            lines.append(f"| {b} / {a} | {one.ratio:.4g} [{one.low:.4g}, {one.high:.4g}] | "
                         f"{two.ratio:.4g} [{two.low:.4g}, {two.high:.4g}] | "
                         f"{'yes' if hold[0] else 'no'} | {'yes' if hold[1] else 'no'} |")
    lines += ["", f"**{held} of {checks} intervals ({held / checks:.0%}) hold the other run's "
              f"ratio.**", ""]
    return lines


def threads(puzzles: list, provenance: Provenance) -> list[str]:
    specs = ["cpsat", "cpsat:workers=2", "cpsat:workers=8"]
    outcome = measure(specs, puzzles, repeat=1, seed=1, timeout=60.0, limit=1,
                      provenance=provenance)
    lines = ["## (c) Threads count", "",
             f"`cpsat` with 1, 2 and 8 search workers on {len(puzzles)} Gecode 25x25 grids, "
             f"first solution, one run each, 60 s each, {usable_cores()} usable cores.", "",
             "| backend | solved | median CPU / wall | max CPU / wall | median CPU ms | "
             "median wall ms |", "|---|---|---|---|---|---|"]
    for spec in specs:
        rows = [r for r in outcome.rows if r.backend == spec and r.answered]
        if not rows:
            lines.append(f"| `{spec}` | 0 | | | | |")
            continue
        ratios = [r.cpu / r.wall for r in rows if r.wall > 0]
        lines.append(f"| `{spec}` | {len(rows)} | {statistics.median(ratios):.2f} | "
                     f"{max(ratios):.2f} | {statistics.median(r.cpu for r in rows) * 1e3:.4g} | "
                     f"{statistics.median(r.wall for r in rows) * 1e3:.4g} |")
    return lines + [""]


def trivial_grids(count: int, path: Path) -> None:
    """`count` distinct full 9x9 grids less their first digit (relabelled at random, seed 0)."""
    rng, seen = random.Random(0), set()
    while len(seen) < count:
        digits = rng.sample("123456789", 9)
        seen.add("." + "".join(digits[int(c) - 1] for c in SOLUTION[1:]))
    path.write_text("\n".join(sorted(seen)) + "\n")


def overhead(before: Path | None, runs: int, rounds: int = 3) -> list[str]:
    lines = ["## (d) Overhead per run", ""]
    if before is None:
        return lines + ["Not measured: no --before checkout given.", ""]
    found: dict[str, list[dict[str, float]]] = {"before": [], "now": []}
    with tempfile.TemporaryDirectory() as scratch:
        grids = Path(scratch) / "trivial.txt"
        trivial_grids(runs, grids)
        checkouts = [("before", before / "src"), ("now", ROOT / "src")]
        for index in range(rounds):
            for name, src in checkouts[::1 - 2 * (index % 2)]:  # which goes first alternates
                env = os.environ | {"PYTHONPATH": str(src)}
                done = subprocess.run([sys.executable, "-c", TRIVIAL_RUN, str(grids),
                                       f"{scratch}/{name}{index}"], env=env, capture_output=True,
                                      text=True, check=True)
                found[name].append(json.loads(done.stdout))
    table = ["| checkout | per-run median gap (ms), each round | per-run mean (ms), each round |",
             "|---|---|---|"]
    for name, values in found.items():
        gaps = ", ".join(f"{v['median'] * 1e3:.4f}" for v in values)
        means = ", ".join(f"{v['mean'] * 1e3:.4f}" for v in values)
        table.append(f"| {name} | {gaps} | {means} |")
    extra = [statistics.median(v["median"] for v in found["now"]) - statistics.median(
        v["median"] for v in found["before"]),
             statistics.median(v["mean"] for v in found["now"]) - statistics.median(
        v["mean"] for v in found["before"])]
    return lines + [f"A trivial run (`naive` on a full 9x9 grid less one digit, {runs:,} "
                    f"distinct grids) through `bench()`: the time between two verified, logged "
                    f"rows, in each checkout in a process of its own, {rounds} rounds taking "
                    f"turns. The mean includes the calibration points of the new harness.", "",
                    *table, "", f"**Added per run: {extra[0] * 1e3:+.4f} ms (median gap), "
                    f"{extra[1] * 1e3:+.4f} ms (mean)**, medians over the rounds.", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--grids", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", default="hybrid,sat,mrv,jit")
    parser.add_argument("--threads-grids", type=int, default=3)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--runs", type=int, default=5000)
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "measurement.md")
    args = parser.parse_args()
    provenance = Provenance()
    puzzles = [e.puzzle for e in read_puzzles(args.puzzles / "royle17.txt")][:args.grids]
    backends = args.backends.split(",")

    def run(name: str) -> BenchOutcome:
        return measure(backends, puzzles, repeat=args.repeat, seed=1, timeout=10.0,
                       provenance=provenance if name != "loaded" else None,
                       out=Path(tempfile.mkdtemp(prefix=f"measurement-{name}-")))

    waits = [settle()]
    runs = {"quiet": run("quiet")}
    with cpu_hog() as count:
        runs["loaded"] = run("loaded")
    waits.append(settle())
    runs["quiet again"] = run("quiet again")
    body = [f"`{', '.join(backends)}` on the first {len(puzzles)} royle17 grids, "
            f"--repeat {args.repeat}, --jobs 1, seed 1, 10 s per run; the loaded run beside "
            f"{count} spinning processes. Before each quiet run the script "
            f"{' and '.join(waits)} (the load average lags the machine by a minute or more). "
            f"Figures in milliseconds.", "",
            *steadiness(runs), *coverage(runs["quiet"], runs["quiet again"])]
    big = [e.puzzle for e in read_puzzles(args.puzzles / "gecode_25x25.txt")]
    body += threads(big[:args.threads_grids], provenance)
    body += overhead(args.before, args.runs)
    for outcome in runs.values():
        if outcome.disagreements:
            body += ["Disagreements: " + "; ".join(d.message for d in outcome.disagreements), ""]
    text = "\n".join(["# Measurement: steadiness, intervals, overhead", "", *provenance.lines(),
                      "", *body])
    write_report(args.out, text)
    print(text)


if __name__ == "__main__":
    main()
