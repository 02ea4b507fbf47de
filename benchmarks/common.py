"""What the benchmark scripts share: the checkout's root, one provenance header for every report,
one writer of reports, and the harness as the one way to time backends against each other.

A report's header (`Provenance.lines`) names the command (`python benchmarks/x.py ...`, its paths
relative to the checkout), the commit and whether the tree was dirty, the date, the machine, the
load at the start and the end, the calibration loop's spread (before and after the script, and
inside every harness sweep) and the percentile definition. `write_report` writes it with every
path shown relative to the checkout (`sudokucp.reporting.provenance`), and refuses to write into
reports/ from a dirty tree unless the command line says `--allow-dirty` (the header then says so).
`measure` runs backends on puzzles through `bench_and_report` (sudokucp.reporting.bench_report):
isolated workers, CPU time, repeats in a shuffled order, every answer judged and cross-validated,
the tables written.
"""

from __future__ import annotations

import os
import platform
import re
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sudokucp.executors import Outcome, Task, make_executor
from sudokucp.harness.bench import BenchConfig, BenchOutcome
from sudokucp.io.files import write_text
from sudokucp.machine import calibration
from sudokucp.puzzle import Puzzle
from sudokucp.reporting.bench_report import bench_and_report
from sudokucp.reporting.provenance import commit as git_commit
from sudokucp.reporting.provenance import commit_line, shown_command, shown_paths

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
PERCENTILES = ("percentiles (p90, ...): linear interpolation between order statistics "
               "(Hyndman and Fan's type 7, numpy's default), `sudokucp.stats.percentile`")


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as the report prints them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _take_flag(argv: list[str], flag: str) -> bool:
    """Whether `flag` is on the command line, taken off it so the script's parser never sees it."""
    found = flag in argv
    argv[:] = [a for a in argv if a != flag]
    return found


ALLOW_DIRTY = "--allow-dirty"
ALLOWED_DIRTY = _take_flag(sys.argv, ALLOW_DIRTY)


def commit() -> str:
    """The short commit of the checkout, with ', dirty tree: ...' when tracked files outside
    reports/ differ (a report being written again is not a change of the code)."""
    return commit_line(ROOT)


class DirtyTree(SystemExit):
    """A report refused: it would go into reports/ from a tree that differs from its commit."""


def write_report(path: Path, text: str) -> None:
    """Write a report, every absolute path in it shown relative to the checkout; into reports/
    only from a clean tree, or with --allow-dirty (the header's commit line then says dirty)."""
    inside = Path(path).resolve().is_relative_to(ROOT / "reports")
    if inside and git_commit(ROOT)[1] and not ALLOWED_DIRTY:
        raise DirtyTree(f"not writing {shown_paths(str(path), ROOT)}: the tree has uncommitted "
                        f"changes outside reports/ (commit them, run from a clean checkout "
                        f"such as `git worktree add`, or pass {ALLOW_DIRTY})")
    write_text(path, shown_paths(text, ROOT))


def _cpu_model() -> str:
    return calibration.machine()["machine"]


class Provenance:
    """The header of a generated report: started when the script starts, read at its end."""

    def __init__(self, argv: Sequence[str] | None = None) -> None:
        args = [*(sys.argv if argv is None else argv), *([ALLOW_DIRTY] if ALLOWED_DIRTY else [])]
        self.command = shown_command([str(a) for a in args], root=ROOT)
        if git_commit(ROOT)[1] and not ALLOWED_DIRTY:
            print(f"warning: the tree has uncommitted changes: a report into reports/ will be "
                  f"refused at the end unless {ALLOW_DIRTY}", file=sys.stderr)
        self.date = time.strftime("%Y-%m-%d %H:%M %Z")
        self.load = load_average()
        self.points = [calibration.measure()]
        self.sweeps: list[dict[str, Any]] = []  # the harness's measurement of each sweep

    def add(self, outcome: BenchOutcome) -> None:
        """Keep a sweep's calibration and noise warnings for the header."""
        self.sweeps.append(outcome.measurement)

    def lines(self) -> list[str]:
        """The header as markdown list items; the calibration's last point is taken now."""
        self.points.append(calibration.measure())
        walls = [p.wall for p in self.points] + [s["calibration"]["median_ms"] / 1000
                                                 for s in self.sweeps if "calibration" in s]
        warnings = [w for s in self.sweeps for w in s.get("warnings", [])]
        spreads = [s["calibration"]["cpu_spread"] for s in self.sweeps if "calibration" in s]
        inside = (f"; inside the harness's sweeps: CPU spread up to {max(spreads):.1%}"
                  if spreads else "")
        lines = [f"- command: `{self.command}`", f"- commit: {commit()}",
                 f"- date: {self.date} (start)",
                 f"- machine: {_cpu_model()}; Python {platform.python_version()}",
                 f"- load average (1, 5, 15 min): {self.load} at the start, {load_average()} at "
                 f"the end",
                 f"- calibration loop ({calibration.LOOP:,} iterations): wall time spread "
                 f"{calibration.spread(walls):.1%} over the script{inside}",
                 f"- {PERCENTILES}"]
        return lines + [f"- **noise warning** ({n} of {len(self.sweeps)} sweeps; the worst): {w}"
                        for w, n in worst_of_each_kind(warnings)]


def worst_of_each_kind(warnings: Sequence[str]) -> list[tuple[str, int]]:
    """One warning per kind (the same words, other figures): the one with the largest first
    figure, and how many there were of that kind."""
    kinds: dict[str, list[str]] = {}
    for warning in warnings:
        kinds.setdefault(re.sub(r"\d+(\.\d+)?", "#", warning), []).append(warning)
    return [(max(found, key=_first_figure), len(found)) for found in kinds.values()]


def _first_figure(text: str) -> float:
    match = re.search(r"\d+(\.\d+)?", text)
    return float(match.group()) if match else 0.0


def measure(backends: Sequence[str], puzzles: Sequence[Puzzle] | Sequence[Path], *,
            repeat: int = 3, seed: int = 0, timeout: float | None = 10.0,
            cpu_limit: float | None = None, limit: int = 1, jobs: int = 1,
            out: Path | None = None, provenance: Provenance | None = None,
            isomorphs: int = 0) -> BenchOutcome:
    """Every backend on every puzzle through the harness, `repeat` times in an order shuffled by
    `seed`, ranked by CPU time, each puzzle also as `isomorphs` random isomorphs; puzzles are
    files or Puzzle objects (written to a file first).
    Backends defined under benchmarks/ load by their import path ('yardstick:Yardstick')."""
    os.environ["PYTHONPATH"] = os.pathsep.join(
        dict.fromkeys([str(HERE), *filter(None, os.environ.get("PYTHONPATH", "").split(
            os.pathsep))]))
    with tempfile.TemporaryDirectory(prefix="sudokucp-bench-") as scratch:
        files = _puzzle_files(puzzles, Path(scratch))
        config = BenchConfig(backends=list(backends), puzzles=files,
                             out=out or Path(scratch) / "out", limit=limit,
                             timeout=timeout, jobs=jobs, seed=seed, repeat=repeat,
                             cpu_limit=cpu_limit, memory_mb=None, isomorphs=isomorphs)
        outcome = bench_and_report(config)
    if provenance is not None:
        provenance.add(outcome)
    return outcome


def _puzzle_files(puzzles: Sequence[Puzzle] | Sequence[Path], scratch: Path) -> list[str]:
    if all(isinstance(p, Puzzle) for p in puzzles):
        path = scratch / "puzzles.txt"
        path.write_text("".join(f"{p.to_line()}\n" for p in puzzles))
        return [str(path)]
    return [str(p) for p in puzzles]


def run_isolated(tasks: Iterable[Task], jobs: int = 1) -> Iterator[Outcome]:
    """Outcomes of `tasks` as they finish, each run in a worker process of the local executor:
    killed past its time limit plus its grace, a crash or a memory exhaustion contained."""
    with make_executor("local", jobs=jobs) as executor:
        for task in tasks:
            executor.submit(task)
        yield from executor.results()
