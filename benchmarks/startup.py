"""Start-up benchmark: how long the command line takes before it does anything.

    python benchmarks/startup.py [--repeat 20] [--baseline REV] [--out reports/startup.md]

Wall and CPU time of `sudoku-cp --help` and of `sudoku-cp solve <one 9x9 grid> --backend hybrid`,
each run in a fresh process `--repeat` times (the commands taken in turn, so that a slow moment
of the machine falls on all of them), beside `python -c pass`, the interpreter's own floor; then
the imports that cost most (`python -X importtime`, each module's best of five runs). With
`--baseline REV` the same commands run on that revision's src/ too (PYTHONPATH), for a before and
after. Bytecode is cached in a temporary folder, as an installed package has it: one run per
command warms it and is not counted.

Writes the "Start-up" section of reports/startup.md (benchmarks/reader.py writes the other).
Why not the harness: what is timed is a whole process, import included, not a backend's search.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from common import ROOT, Provenance, write_report

GRID = "puzzles/seeds/002-logic-9x9.txt"
COMMANDS = {"sudoku-cp --help": ["--help"],
            f"sudoku-cp solve {GRID} --backend hybrid": ["solve", GRID, "--backend", "hybrid"]}
FLOOR = "python -c pass"
IMPORT_RUNS = 5
TOP = 10


def command_script() -> list[str]:
    """How to run the `sudoku-cp` console script of this interpreter's environment."""
    script = Path(sys.executable).with_name("sudoku-cp")
    return [sys.executable, str(script)] if script.is_file() else [sys.executable, "-m",
                                                                     "sudokucp"]


def environment(src: Path | None, cache: Path) -> dict[str, str]:
    """The children's environment: bytecode cached in `cache`, `src` first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env


def checkout(rev: str, folder: Path) -> Path:
    """The src/ folder of revision `rev`, extracted into `folder` (the checkout is untouched)."""
    archive = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "src"


def timed_run(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one fresh process; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{shlex.join(argv)} failed: {done.stderr.decode()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def spread(values: Sequence[float]) -> str:
    """'0.112 (0.104-0.131)': the median and the range, in seconds."""
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def time_commands(trees: dict[str, dict[str, str]], repeat: int) -> list[str]:
    """A table: per tree and command, the wall and CPU seconds of `repeat` fresh runs."""
    runs = {(tree, name): argv for tree in trees for name, argv in
            [(FLOOR, [sys.executable, "-c", "pass"]),
             *((n, command_script() + a) for n, a in COMMANDS.items())]}
    for (tree, _), argv in runs.items():
        timed_run(argv, trees[tree])  # warms the bytecode cache
    times: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in runs}
    for _ in range(repeat):
        for key, argv in runs.items():
            times[key].append(timed_run(argv, trees[key[0]]))
    rows = ["| tree | command | wall s: median (min-max) | CPU s: median (min-max) |",
            "|---|---|---|---|"]
    for (tree, name), found in times.items():
        rows.append(f"| {tree} | `{name}` | {spread([w for w, _ in found])} | "
                    f"{spread([c for _, c in found])} |")
    return rows


def import_times(argv: Sequence[str], env: dict[str, str]) -> dict[str, tuple[int, int, int]]:
    """Per module: (best self us, best cumulative us, depth) over IMPORT_RUNS runs of -X
    importtime."""
    best: dict[str, tuple[int, int, int]] = {}
    pattern = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")
    for _ in range(IMPORT_RUNS):
        err = subprocess.run([sys.executable, "-X", "importtime", *argv], cwd=ROOT, env=env,
                             capture_output=True, text=True).stderr
        for own, total, indent, name in pattern.findall(err):
            was = best.get(name)
            if was is None or int(total) < was[1]:
                best[name] = (int(own), int(total), (len(indent) - 1) // 2)
    return best


def import_table(best: dict[str, tuple[int, int, int]]) -> list[str]:
    """The TOP modules by cumulative time, their self time and level (0: imported by the
    script itself, 1: by one of those, ...) beside, and the totals."""
    ranked = sorted(best.items(), key=lambda item: -item[1][1])[:TOP]
    heavy = sorted({n.split(".")[0] for n in best} & {"pandas", "numpy", "matplotlib", "scipy",
                                                      "ortools", "numba", "dask"})
    rows = [f"{len(best)} modules, {sum(v[0] for v in best.values()) / 1000:.1f} ms of import "
            f"in all (sum of self times); heavy libraries imported: {', '.join(heavy) or 'none'}",
            "", "| module | level | cumulative ms | self ms |", "|---|---|---|---|"]
    rows += [f"| {name} | {depth} | {total / 1000:.1f} | {own / 1000:.1f} |"
             for name, (own, total, depth) in ranked]
    return rows


def section(trees: dict[str, dict[str, str]], repeat: int) -> list[str]:
    """The report's section: the timings, then the imports of each tree and command."""
    lines = ["## Start-up", "", f"Fresh processes, {repeat} runs of each command taken in turn "
             "(after one warm-up run each that caches the bytecode); CPU = user + system time "
             "of the process.", "", *time_commands(trees, repeat), ""]
    for tree, env in trees.items():
        for name, argv in COMMANDS.items():
            lines += [f"### Imports of `{name}` ({tree}): top {TOP} by cumulative time", "",
                      *import_table(import_times(command_script()[1:] + argv, env)), ""]
    return lines


def write_section(path: Path, title: str, lines: list[str]) -> None:
    """Replace the section headed `## {title}` of the report (or add it), keeping the others."""
    text = path.read_text() if path.is_file() else "# Start-up and reading\n\n"
    parts = re.split(r"(?m)^(?=## )", text)
    body = "\n".join(lines).rstrip() + "\n\n"
    kept = [p if not p.startswith(f"## {title}\n") else body for p in parts]
    if body not in kept:
        kept.append(body)
    write_report(path, "".join(part.rstrip() + "\n\n" for part in kept).rstrip() + "\n")


def run_report(make: Callable[[dict[str, dict[str, str]], int], list[str]], title: str,
               args: argparse.Namespace) -> None:
    """Make a section for the working tree (and the baseline), headed by its provenance."""
    provenance = Provenance()
    with tempfile.TemporaryDirectory(prefix="sudokucp-startup-") as scratch:
        trees = {"working tree": environment(None, Path(scratch) / "pyc")}
        if args.baseline:
            src = checkout(args.baseline, Path(scratch))
            trees = {f"baseline {args.baseline}": environment(src, Path(scratch) / "pyc-base"),
                     **trees}
        body = make(trees, args.repeat)
    head, *rest = body
    write_section(args.out, title, [head, "", *provenance.lines(), "", *rest[1:]])
    print(f"wrote the {title} section of {args.out}", file=sys.stderr)


def options(description: str, repeat: int) -> argparse.ArgumentParser:
    """The options both benchmarks take."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--baseline", metavar="REV",
                        help="also measure this git revision's src/ (e.g. HEAD)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "startup.md")
    return parser


def main() -> None:
    args = options(__doc__.splitlines()[0], 20).parse_args()
    if args.repeat < 10:
        sys.exit("--repeat: at least 10 runs per command")
    run_report(section, "Start-up", args)


if __name__ == "__main__":
    main()
