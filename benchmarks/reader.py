"""Reader benchmark: one-grid lines read per second of CPU.

    python benchmarks/reader.py [--lines 20000] [--repeat 7] [--seed 0] [--baseline REV]
                                [--out reports/startup.md]

A file of `--lines` 9x9 puzzles, one per line (81 characters, '.' for blanks on half the lines and
'0' on the others), made from the grids of puzzles/generated/ by random relabelling of digits and
permutations of bands, stacks, rows and columns (every line a valid puzzle). Three readings, each
`--repeat` times in a fresh process, CPU time (time.process_time): the streaming reader that
`solve` and `bench` use (`iter_entries`), the list that `load_dataset` keeps (`read_puzzles`),
and `parse_grid` on each line. With `--baseline REV`, that revision's src/ is measured too.

Writes the "Reading" section of reports/startup.md (benchmarks/startup.py writes the other).
Why not the harness: what is timed is the reader, not a backend's search.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT
from startup import options, run_report

SOURCES = sorted((ROOT / "puzzles" / "generated").glob("9x9-*.txt"))
MEASURE = """
import json, sys, time
from sudokucp.io.formats import iter_entries, parse_grid, read_puzzles
path, repeat = sys.argv[1], int(sys.argv[2])
lines = open(path).read().split()
ways = {"iter_entries (solve, bench)": lambda: sum(1 for _ in iter_entries(path)),
        "read_puzzles (a list, as load_dataset keeps)": lambda: len(read_puzzles(path)),
        "parse_grid, line by line": lambda: len([parse_grid(line) for line in lines])}
rates = {name: [] for name in ways}
for _ in range(repeat):
    for name, read in ways.items():
        start = time.process_time()
        count = read()
        rates[name].append(count / (time.process_time() - start))
        assert count == len(lines), (name, count)
print(json.dumps(rates))
"""


def isomorph(line: str, rng: random.Random) -> str:
    """The same 9x9 puzzle with digits relabelled and bands, stacks, rows and columns permuted."""
    digits = dict(zip("123456789", rng.sample("123456789", 9))) | {".": "."}
    rows = [band * 3 + r for band in rng.sample(range(3), 3) for r in rng.sample(range(3), 3)]
    cols = [stack * 3 + c for stack in rng.sample(range(3), 3) for c in rng.sample(range(3), 3)]
    return "".join(digits[line[r * 9 + c]] for r in rows for c in cols)


def make_file(path: Path, count: int, seed: int) -> None:
    """`count` puzzles, one per line, '0' for blanks on every other line."""
    grids = [line.strip() for source in SOURCES for line in source.read_text().splitlines()
             if len(line.strip()) == 81]
    rng = random.Random(seed)
    lines = [isomorph(rng.choice(grids), rng) for _ in range(count)]
    path.write_text("".join((line if i % 2 else line.replace(".", "0")) + "\n"
                            for i, line in enumerate(lines)))


def measure(env: dict[str, str], path: Path, repeat: int) -> dict[str, list[float]]:
    """Lines per CPU second of each reading, `repeat` times, in a fresh process."""
    done = subprocess.run([sys.executable, "-c", MEASURE, str(path), str(repeat)], cwd=ROOT,
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the reader failed: {done.stderr[-800:]}")
    return json.loads(done.stdout)


def section(trees: dict[str, dict[str, str]], repeat: int, lines: int, seed: int) -> list[str]:
    """The report's section: lines per CPU second, per tree and reading."""
    rows = ["## Reading", "", f"{lines:,} lines of one 9x9 puzzle each (seed {seed}), {repeat} "
            "readings of each kind in one fresh process per tree; lines per second of CPU time, "
            "median (min-max), and microseconds per line at the median.", "",
            "| tree | reading | lines/s | us/line |", "|---|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="sudokucp-reader-") as scratch:
        path = Path(scratch) / "puzzles.txt"
        make_file(path, lines, seed)
        for tree, env in trees.items():
            for name, rates in measure(env, path, repeat).items():
                median = statistics.median(rates)
                rows.append(f"| {tree} | {name} | {median:,.0f} ({min(rates):,.0f}-"
                            f"{max(rates):,.0f}) | {1e6 / median:.1f} |")
    return rows


def main() -> None:
    parser = options(__doc__.splitlines()[0], 7)
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.lines < 10_000:
        sys.exit("--lines: at least 10,000")
    if args.repeat < 5:
        sys.exit("--repeat: at least 5 readings")
    run_report(lambda trees, repeat: section(trees, repeat, args.lines, args.seed), "Reading",
               args)


if __name__ == "__main__":
    main()
