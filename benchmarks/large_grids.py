"""Grids past 35x35 through every format and every backend that takes them (reports/large-grids.md).

    python benchmarks/large_grids.py [--sides 36 49 64] [--holes 0.2] [--timeout 120]
        [--memory 4096] [--out reports/large-grids.md]

For each side, one generalized Sudoku (generators/balanced.py, random holes at --holes, seed 1):
- every writer of io/formats.py writes it and the reader gives back the same grid;
- every installed backend whose largest side admits it solves it through the harness (a worker
  per run, a wall limit, a memory cap, the answer judged), and those that do not are refused;
- the results log's bytes per row (each grid and solution stored once, in puzzles.jsonl, beside
  the same rows in the earlier format, that carried them on every row), each run's own peak
  memory, and whether any process of the run outlived it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from common import Provenance, write_report  # noqa: E402

from sudokucp.backends import available_backends, backend_class  # noqa: E402
from sudokucp.generators.balanced import make_one  # noqa: E402
from sudokucp.harness.bench import BenchConfig  # noqa: E402
from sudokucp.harness.puzzlelog import PUZZLES  # noqa: E402
from sudokucp.harness.runlog import RESULTS  # noqa: E402
from sudokucp.io.formats import WRITERS, parse_many  # noqa: E402
from sudokucp.machine.processes import children  # noqa: E402
from sudokucp.puzzle import Puzzle, Shape  # noqa: E402
from sudokucp.reporting.bench_report import bench_and_report  # noqa: E402
from sudokucp.reporting.text import sig  # noqa: E402

SQUARE = {36: Shape(6, 6), 49: Shape(7, 7), 64: Shape(8, 8), 42: Shape(6, 7), 30: Shape(5, 6)}


def round_trips(puzzle: Puzzle) -> list[str]:
    """The writers whose text reads back as another grid (empty: every one round-trips)."""
    wrong = []
    for name, write in WRITERS.items():
        back = list(parse_many(write(puzzle.shape, puzzle.cells), shape=puzzle.shape))
        if [e.puzzle.cells if e.puzzle else None for e in back] != [puzzle.cells]:
            wrong.append(name)
    return wrong


def sweep(side: int, args: argparse.Namespace, provenance: Provenance) -> tuple[list, dict]:
    """The backends on one grid of `side`, through the harness: rows, and the run's facts."""
    shape = SQUARE[side]
    puzzle = make_one(shape, args.holes, "random", 1).puzzle
    takes = [n for n in available_backends() if backend_class(n).max_side >= side]
    refused = [n for n in available_backends() if backend_class(n).max_side < side]
    before = children()
    with tempfile.TemporaryDirectory(prefix="sudokucp-large-") as scratch:
        path = Path(scratch) / f"{side}x{side}.txt"
        path.write_text(puzzle.to_line() + "\n")
        config = BenchConfig(backends=takes, puzzles=[str(path)], out=Path(scratch) / "out",
                             timeout=args.timeout, memory_mb=args.memory, jobs=1, seed=0)
        outcome = bench_and_report(config)
        log, stored = ((config.out / name).stat().st_size for name in (RESULTS, PUZZLES))
    provenance.add(outcome)
    runs = max(len(outcome.rows), 1)
    earlier = sum(len(json.dumps(row.to_dict())) + 1 for row in outcome.rows)  # the row whole
    facts = {"shape": shape, "holes": puzzle.cells.count(0), "writers": round_trips(puzzle),
             "refused": refused, "row_bytes": log / runs, "stored_kb": stored / 1024,
             "earlier_bytes": earlier / runs, "left": sorted(children() - before)}
    return outcome.rows, facts


def table(side: int, rows: list, facts: dict) -> list[str]:
    """One side's section of the report."""
    shape = facts["shape"]
    writers = ", ".join(facts["writers"]) or "none: every writer round-trips"
    lines = [f"## {side}x{side} (boxes {shape.box_rows}x{shape.box_cols}), "
             f"{facts['holes']} holes", "",
             f"- writers whose text does not read back: {writers}",
             f"- refused by their declared largest side: {', '.join(facts['refused']) or 'none'}",
             f"- results log: {facts['row_bytes']:,.0f} bytes per row in `{RESULTS}`, and "
             f"{facts['stored_kb']:.1f} KB in all in `{PUZZLES}` (the grid and each distinct "
             f"solution, once); the same rows carrying their grid and solutions, as before "
             f"`{PUZZLES}`: {facts['earlier_bytes']:,.0f} bytes per row",
             f"- processes left after the run: {len(facts['left'])}", "",
             "| backend | status | judged | CPU s | wall s | peak RSS MB | RSS at its start MB |",
             "|---|---|---|---|---|---|---|"]
    for row in sorted(rows, key=lambda r: (r.status.value, r.cpu or 0)):
        judged = {True: "yes", False: "WRONG", None: "-"}[row.verified]
        rss = sig(row.rss_mb) if row.rss_mb else "-"
        rss += " (worker's)" if row.rss_mb and row.rss_scope != "run" else ""
        start = sig(row.rss_start_mb) if row.rss_start_mb else "-"
        lines.append(f"| {row.backend} | {row.status.value} | {judged} | {sig(row.cpu or 0)} | "
                     f"{sig(row.wall)} | {rss} | {start} |")
    return lines + [""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sides", type=int, nargs="+", default=[36, 49, 64],
                        choices=sorted(SQUARE))
    parser.add_argument("--holes", type=float, default=0.2, help="fraction of cells left empty")
    parser.add_argument("--timeout", type=float, default=120.0, help="wall seconds per run")
    parser.add_argument("--memory", type=int, default=4096, help="memory cap per run, MB")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "large-grids.md")
    args = parser.parse_args()
    provenance = Provenance()
    sections = []
    for side in args.sides:
        rows, facts = sweep(side, args, provenance)
        sections += table(side, rows, facts)
    text = "\n".join(["# Grids past 35x35", "", *provenance.lines(), "",
                      "One generated grid per side (random holes, seed 1), every backend that "
                      "takes the side, one run each in a worker with the wall limit and memory "
                      "cap above; every claimed solution judged. Peak RSS is each run's own: "
                      "the worker resets the kernel's high-water mark (VmHWM) before each run "
                      "and reads it after; \"(worker's)\" marks the worker's lifetime peak, "
                      "where the run's own is not known (a program the run started whose peak "
                      "stayed under an earlier program's: the kernel keeps one maximum for "
                      "them all). The peak includes what the worker already held as the run "
                      "began (one worker serves every backend in turn, each keeping its model "
                      "of the shape): the last column.", "", *sections])
    write_report(args.out, text)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
