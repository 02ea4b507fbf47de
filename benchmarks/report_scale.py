"""`sudoku-cp report` at scale: 100,000 and 1,000,000 runs (reports/report-scale.md).

The 100,000 runs are a real bench: jit, hybrid, mrv and dlx on the first 25,000 grids of royle17,
`--jobs 2`, made once in FOLDER (kept there and reused by later calls: delete it to bench again).
The 1,000,000-run log is made from it, not run: each line written ten times with repeat indices
0 to 9 and the keys a tenth repeat would have, its times unchanged; so it weighs what a bench with
`--repeat 10` would write, and its tables take each puzzle's median over ten equal times.

Each report runs in a child process (`sudoku-cp report DIR --out OUT`); its wall time, CPU time
(user + system) and peak resident memory come from os.wait4. The 100,000-run report runs
`--repeat` times (median and range), the 1,000,000-run one once. Then one in-process cProfile of
each report, its time grouped by stage (`--no-million-profile` leaves out the second).

    python benchmarks/report_scale.py [--folder /tmp/sudokucp-report-scale] [--repeat 3]

The bench reads royle17 from the data-set cache (`sudoku-cp datasets fetch royle17` first, or
SUDOKUCP_CACHE / SUDOKUCP_MIRROR: see sudokucp.datasets.fetch).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import Provenance, write_report

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "reports" / "report-scale.md"
SUDOKU_CP = [sys.executable, "-m", "sudokucp"]
BENCH = ["bench", "--backends", "jit,hybrid,mrv,dlx", "--puzzles", "royle17", "--max-puzzles",
         "25000", "--jobs", "2"]
RUNS = 100_000
COPIES = 10  # repeats of each line in the 1,000,000-run log
GOALS = {RUNS: (10.0, 1024.0), RUNS * COPIES: (60.0, 4096.0)}  # runs: (CPU s, peak MB)
STAGES = [  # (stage, function: file suffix and name), in the order the report runs them
    ("reading results.jsonl (JSON, rows checked)", "results_folder.py", "read_rows"),
    ("re-judging every claimed solution", "results_folder.py", "rechecked"),
    ("cross-validation, time limits", "runcheck.py", "cross_validate"),
    ("results.csv's frame", "report.py", "results_frame"),
    ("medians over repeats", "stats.py", "per_puzzle_medians"),
    ("summary (bootstrap of medians)", "report.py", "summary_frame"),
    ("scores, PAR-2, virtual best", "scores.py", "scores_frame"),
    ("pairs (bootstrap of mean log ratios)", "scores.py", "pairs_frame"),
    ("instances where backends part ways", "scores.py", "instances_frame"),
    ("ranking", "ranking.py", "rankings"),
    ("plots (cactus, scatter matrix)", "report.py", "_plots"),
    ("report.html", "html_report.py", "render"),
    ("writing results.csv", "results_csv.py", "write_results_csv"),
    ("writing the other CSV files", "generic.py", "to_csv"),
]
PARTS = [("all bootstrap draws (inside summary and pairs)", "stats.py", "_resampled")]


def log_lines(folder: Path) -> int:
    """The lines of folder/results.jsonl (0 when there is none)."""
    path = folder / "results.jsonl"
    if not path.exists():
        return 0
    with path.open("rb") as handle:
        return sum(1 for _ in handle)


def make_runs(folder: Path) -> str:
    """The 100,000-run folder: benched now, or kept from an earlier call; what was done."""
    if log_lines(folder) >= RUNS:
        made = time.strftime("%Y-%m-%d %H:%M", time.localtime((folder / "results.jsonl")
                                                                .stat().st_mtime))
        return f"kept from an earlier call of this script (its log last written {made})"
    command = [*SUDOKU_CP, *BENCH, "--out", str(folder), "--overwrite"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"the bench failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return f"benched now in {time.perf_counter() - start:.0f} s of wall time"


def make_million(source: Path, folder: Path) -> None:
    """folder/results.jsonl: every line of source's log COPIES times, repeats 0..COPIES-1
    (kept when an earlier call made it from the same log)."""
    folder.mkdir(parents=True, exist_ok=True)
    made = folder / "results.jsonl"
    if (made.exists() and made.stat().st_mtime > (source / "results.jsonl").stat().st_mtime
            and log_lines(folder) == log_lines(source) * COPIES):
        return
    shutil.copy(source / "measurement.json", folder / "measurement.json")
    if (source / "puzzles.jsonl").exists():  # the grids and solutions the rows name
        shutil.copy(source / "puzzles.jsonl", folder / "puzzles.jsonl")
    lines = (source / "results.jsonl").read_bytes().splitlines()
    with (folder / "results.jsonl").open("wb") as out:
        for repeat in range(COPIES):
            for line in lines:
                row = json.loads(line)
                row["repeat"] = repeat
                row["key"] = f"{row['key']}#{repeat}" if repeat else row["key"]
                out.write(json.dumps(row).encode() + b"\n")


def timed_report(folder: Path, out: Path) -> dict[str, float]:
    """`sudoku-cp report folder --out out` in a child: wall s, CPU s, peak MB, page MB."""
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    child = subprocess.Popen([*SUDOKU_CP, "report", str(folder), "--out", str(out)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        sys.exit(f"report failed ({child.returncode}): {child.stderr.read().decode()[-500:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024,
            "page": (out / "report.html").stat().st_size / 1e6}


def profile(folder: Path, out: Path) -> tuple[float, list[tuple[str, float]]]:
    """One in-process cProfile of the report: total profiled seconds, and the cumulative
    seconds of each stage (STAGES, then PARTS)."""
    from sudokucp.cli import main

    shutil.rmtree(out, ignore_errors=True)
    profiler = cProfile.Profile()
    profiler.runcall(main, ["report", str(folder), "--out", str(out)])
    stats = pstats.Stats(profiler).stats  # (file, line, name): (calls, ..., tottime, cumtime)
    total = max(entry[3] for entry in stats.values())
    found = []
    for stage, suffix, name in STAGES + PARTS:
        seconds = sum(entry[3] for (file, _, func), entry in stats.items()
                      if func == name and file.endswith(suffix))
        found.append((stage, seconds))
    return total, found


def spread(values: list[float]) -> str:
    """'12.3 (11.9 to 12.8)': the median and the range, three significant digits."""
    def sig(value: float) -> str:
        return f"{float(f'{value:.3g}'):,.{max(0, 2 - math.floor(math.log10(abs(value))))}f}" \
            if value else "0"

    if len(values) == 1:
        return sig(values[0])
    return f"{sig(statistics.median(values))} ({sig(min(values))} to {sig(max(values))})"


def table(measured: dict[int, list[dict[str, float]]]) -> list[str]:
    lines = ["| runs | reports | CPU s | wall s | peak RSS MB | report.html MB | goal |",
             "|---:|---:|---:|---:|---:|---:|---|"]
    for runs, found in measured.items():
        cpu, rss = ([f[key] for f in found] for key in ("cpu", "rss"))
        seconds, mb = GOALS[runs]
        met = "met" if max(cpu) <= seconds and max(rss) <= mb else "not met"
        lines.append(f"| {runs:,} | {len(found)} | {spread(cpu)} | "
                     f"{spread([f['wall'] for f in found])} | {spread(rss)} | "
                     f"{spread([f['page'] for f in found])} | ≤ {seconds:g} s CPU and ≤ "
                     f"{mb:,.0f} MB: {met} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("/tmp/sudokucp-report-scale"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-million-profile", dest="million_profile", action="store_false")
    args = parser.parse_args()
    header = Provenance()
    small, large = args.folder / "runs100k", args.folder / "runs1m"
    made = make_runs(small)
    make_million(small, large)
    measured = {RUNS: [timed_report(small, args.folder / "out100k")
                       for _ in range(args.repeat)],
                RUNS * COPIES: [timed_report(large, args.folder / "out1m")]}
    profiles = {RUNS: profile(small, args.folder / "profiled")}
    if args.million_profile:
        profiles[RUNS * COPIES] = profile(large, args.folder / "profiled")
    bench_load = json.loads((small / "measurement.json").read_text()).get("load")
    write_report(OUT, "\n".join(report_text(header, made, bench_load, measured, profiles))
               + "\n")
    print(f"wrote {OUT}")


def report_text(header: Provenance, made: str, bench_load: object,
                measured: dict[int, list[dict[str, float]]],
                profiles: dict[int, tuple[float, list[tuple[str, float]]]]) -> list[str]:
    return [
        "# `sudoku-cp report` at scale", "", *header.lines(), "",
        "The machine is shared: the load above is what the report runs shared it with; CPU time "
        "(user + system of the report's process) is the steadier figure.", "",
        "## The logs", "",
        f"- 100,000 runs: `sudoku-cp {' '.join(BENCH)} --out FOLDER/runs100k`, {made}; the "
        f"load when that bench started: {bench_load}.",
        f"- 1,000,000 runs: **not run**. Each line of the 100,000-run log written {COPIES} "
        f"times with repeat indices 0 to {COPIES - 1} (and the keys those repeats would have), "
        "its times unchanged: the log a bench with `--repeat 10` writes, in size and shape; "
        "its tables take each puzzle's median over ten equal times.", "",
        "## Time and memory", "",
        *table(measured), "",
        "Each report is `sudoku-cp report DIR --out OUT` in a child process; CPU time and peak "
        "RSS from `os.wait4`. The 100,000-run figures are the median and range of the reports "
        "run; the 1,000,000-run report ran once.", "",
        "## Where the time goes", "",
        "One run of each report under cProfile, in this process (profiling slows Python calls, "
        "so the shares matter more than the seconds).", "",
        *profile_table(profiles),
    ]


def profile_table(profiles: dict[int, tuple[float, list[tuple[str, float]]]]) -> list[str]:
    """A column of profiled seconds and shares per log size, a line per stage."""
    sizes = list(profiles)
    shown = len(STAGES)
    head = "| stage | " + " | ".join(f"{runs:,} runs: s (share)" for runs in sizes) + " |"
    lines = [head, "|---|" + "---:|" * len(sizes)]
    for index, (stage, _, _) in enumerate(STAGES + PARTS):
        label = stage if index < shown else f"*inside those: {stage}*"
        cells = []
        for runs in sizes:
            total, stages = profiles[runs]
            cells.append(f"{stages[index][1]:.2f} ({stages[index][1] / total:.0%})")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
        if index == shown - 1:
            rest = []
            for runs in sizes:
                total, stages = profiles[runs]
                other = total - sum(seconds for _, seconds in stages[:shown])
                rest.append(f"{other:.2f} ({other / total:.0%})")
            lines.append("| the rest (imports, settings, summary.md, console) | "
                         + " | ".join(rest) + " |")
    totals = " | ".join(f"**{profiles[runs][0]:.1f}**" for runs in sizes)
    return [*lines, f"| all (profiled) | {totals} |", ""]


if __name__ == "__main__":
    main()
