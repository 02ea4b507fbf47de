"""What the benchmark scripts make of a harness sweep (`common.measure`), shared by every script
that prints a table of timings: the sweeps, each puzzle once as its median over the repeats, and
the figures the reports print from those lines.

One rule for unsolved puzzles, the rule of the harness's own summary.csv
(`sudokucp.reporting.report`):
each puzzle counts once per backend, as its median over its repeats, and is solved when more
than half of its repeats answered (SOLVED or UNSAT; `sudokucp.stats.per_puzzle_medians`). Per
backend a table says "solved k of N", then the median with its bootstrap interval
(`sudokucp.stats.bootstrap_ci`) and the percentiles (`sudokucp.stats.percentile`) over the
puzzles it solved; a ratio between two backends is `sudokucp.stats.paired` over the puzzles both
solved. An unsolved puzzle enters no time figure; the tables count it (time-outs and the rest).

Times are the rows' `seconds`, CPU seconds of the search unless the sweep measured wall time.
"""

from __future__ import annotations

import math
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from common import Provenance, measure

from sudokucp.harness.bench import BenchOutcome
from sudokucp.puzzle import Puzzle
from sudokucp.reporting.report import results_frame
from sudokucp.stats import (
    ANSWERED_WORDS,
    LEVEL,
    TIE,
    Paired,
    bootstrap_ci,
    paired,
    per_puzzle_medians,
    percentile,
)

CI = f"{LEVEL:.0%} bootstrap interval"
REFUSED = ("wrong", "error", "crash", "memout", "unsat")  # every set measured here is solvable
WALL_SLACK = 3  # a CPU-limited run's wall limit, in CPU limits: load stops no run early
Unit = Callable[[float], str]


class Wrong(SystemExit):
    """A wrong answer, a failed run or a disagreement: the script stops, naming them."""


# --- sweeps ---------------------------------------------------------------------------------------

def sweep(specs: Sequence[str], name: str, puzzles: Sequence[Puzzle] | Path, *,
          provenance: Provenance | None, timeout: float | None, repeat: int, seed: int,
          jobs: int = 1, limit: int = 1) -> tuple[pd.DataFrame, BenchOutcome]:
    """One harness sweep of `specs` on one set (a puzzle file, or puzzles written to a file named
    `name`, the rows' dataset): its per-puzzle lines and the outcome."""
    with tempfile.TemporaryDirectory(prefix="sudokucp-sweep-") as scratch:
        source = puzzles if isinstance(puzzles, Path) else write_sets(
            {name: puzzles}, Path(scratch))[name]
        outcome = measure(list(specs), [source], repeat=repeat, seed=seed, timeout=timeout,
                          limit=limit, jobs=jobs, provenance=provenance)
    return per_puzzle(outcome), outcome


def per_puzzle(outcome: BenchOutcome) -> pd.DataFrame:
    """One line per (backend, puzzle) of a sweep: `seconds` the median over the repeats,
    `answered` (solved: more than half of the repeats answered), the status and stats of a
    repeat that agrees with the majority."""
    if not outcome.rows:
        return pd.DataFrame(columns=["backend", "hash", "dataset", "status", "seconds",
                                     "answered"])
    lines = per_puzzle_medians(results_frame(outcome.rows))
    lines["answered"] = lines["status"].isin(ANSWERED_WORDS)
    return lines


def lines_of(frame: pd.DataFrame, backend: str, dataset: str | None = None) -> pd.DataFrame:
    """The lines of one backend (label), of one dataset when named, indexed by puzzle hash."""
    mine = frame[frame["backend"] == backend]
    if dataset is not None:
        mine = mine[mine["dataset"] == dataset]
    return mine.set_index("hash")


def problems(outcome: BenchOutcome, unique: bool = False) -> list[str]:
    """Wrong answers, failed runs, UNSAT claims (every set here is solvable) and disagreements of
    a sweep, one line each; with `unique`, counts other than 1 (limit 2 on unique grids)."""
    bad = [f"{r.backend} on {r.puzzle} (repeat {r.repeat}): {r.status.value} {r.error or ''}"
           .strip() for r in outcome.rows if r.status.value in REFUSED]
    if unique:
        bad += [f"{r.backend} found {r.count} solutions to {r.puzzle}"
                for r in outcome.rows if r.answered and r.count != 1]
    return bad + [f"{d.puzzle}: {d.message}" for d in outcome.disagreements]


def judge(outcome: BenchOutcome, unique: bool = False) -> None:
    """Stop (`Wrong`) on any of the sweep's `problems`, naming the first ten."""
    bad = problems(outcome, unique)
    if bad:
        raise Wrong("stopped, the harness found:\n  " + "\n  ".join(bad[:10])
                    + (f"\n  ... {len(bad) - 10} more" if len(bad) > 10 else ""))


def write_sets(sets: Mapping[str, Iterable[Puzzle]], folder: Path) -> dict[str, Path]:
    """Each named set of puzzles as `folder/<name>.txt`, so the sweep's rows name their dataset."""
    paths = {}
    for name, puzzles in sets.items():
        paths[name] = folder / f"{name}.txt"
        paths[name].write_text("".join(f"{p.to_line()}\n" for p in puzzles))
    return paths


def labels(specs: Iterable[str]) -> dict[str, str]:
    """spec -> the label the harness gives its rows ('mrv:hidden=false' -> 'mrv:hidden=False')."""
    from sudokucp.backends import from_spec

    return {spec: from_spec(spec).label for spec in specs}


def sample(puzzles: list[Puzzle], n: int | None) -> list[Puzzle]:
    """The first n grids (all for None)."""
    return puzzles if n is None else puzzles[:n]


# --- figures over the solved puzzles --------------------------------------------------------------

def solved(lines: pd.DataFrame) -> pd.Series:
    """Seconds per solved puzzle (its median over the repeats), indexed as the lines."""
    return lines.loc[lines["answered"], "seconds"].astype(float)


def solved_of(lines: pd.DataFrame) -> str:
    """'k of N': the puzzles solved among the lines."""
    return f"{int(lines['answered'].sum())} of {len(lines)}"


def count(lines: pd.DataFrame, status: str) -> int:
    """Puzzles whose (majority) status is `status`."""
    return int((lines["status"] == status).sum())


def ms(seconds: float) -> str:
    """Milliseconds with 3 significant figures (whole numbers from 1,000 on); '-' for nothing."""
    if seconds != seconds:
        return "-"
    value = seconds * 1000
    return f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"


def cpu_s(seconds: float) -> str:
    """Seconds with 2 decimals; '-' for nothing."""
    return "-" if seconds != seconds else f"{seconds:.2f}"


def median_ci(seconds: Sequence[float] | np.ndarray | pd.Series, unit: Unit = ms) -> str:
    """'median [low, high]': the median of the solved puzzles' times and its bootstrap
    interval; '-' for none."""
    values = np.asarray(seconds, dtype=float)
    if values.size == 0:
        return "-"
    low, high = bootstrap_ci(values)
    return f"{unit(percentile(values, 50))} [{unit(low)}, {unit(high)}]"


def pct(seconds: Sequence[float] | np.ndarray | pd.Series, q: float, unit: Unit = ms) -> str:
    """The q-th percentile of the times (100: the largest)."""
    values = np.asarray(seconds, dtype=float)
    return unit(percentile(values, q)) if values.size else "-"


def spread(seconds: Sequence[float] | np.ndarray | pd.Series, unit: Unit = ms) -> str:
    """'p10 to p90'."""
    values = np.asarray(seconds, dtype=float)
    return f"{pct(values, 10, unit)} to {pct(values, 90, unit)}" if values.size else "-"


def summary(lines: pd.DataFrame, unit: Unit = ms) -> str:
    """Table cells 'solved | median [CI] | p90 | max', the times over the solved puzzles."""
    seconds = solved(lines)
    return (f"{solved_of(lines)} | {median_ci(seconds, unit)} | {pct(seconds, 90, unit)} | "
            f"{pct(seconds, 100, unit)}")


def summary_head(unit: str = "ms") -> str:
    """The header cells of `summary`."""
    return f"solved | median {unit} (solved) [{CI}] | p90 {unit} (solved) | max {unit} (solved)"


def endings(lines: pd.DataFrame) -> str:
    """Table cells 'time-outs | wrong | other': how the unsolved puzzles ended."""
    timeouts, wrong = count(lines, "timeout"), count(lines, "wrong")
    other = len(lines) - int(lines["answered"].sum()) - timeouts - wrong
    return f"{timeouts} | {wrong} | {other}"


LIMITED_HEAD = [f"| backend | limit s | {summary_head()} | time-outs | wrong | other |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]


def limited_row(label: str, lines: pd.DataFrame, limit: float) -> str:
    """A row under LIMITED_HEAD: a backend run with a time limit on a set."""
    return f"| {label} | {limit:g} | {summary(lines)} | {endings(lines)} |"


def _stat(lines: pd.DataFrame, column: str) -> pd.Series:
    """A stats column (nodes, guesses) over the solved puzzles, as numbers."""
    if column not in lines:
        return pd.Series(dtype=float)
    return pd.to_numeric(lines.loc[lines["answered"], column], errors="coerce").dropna()


def median_of(lines: pd.DataFrame, column: str) -> str:
    """The median of a stats column over the solved puzzles, whole; 'n/a' where it is not
    reported."""
    values = _stat(lines, column)
    return f"{np.median(values):,.0f}" if len(values) else "n/a"


def mean_of(lines: pd.DataFrame, column: str, digits: int = 1) -> str:
    """The mean of a stats column over the solved puzzles; '-' where it is not reported."""
    values = _stat(lines, column)
    if values.empty:
        return "-"
    mean = values.mean()
    return f"{mean:,.{digits if mean < 1000 else 0}f}"


def compared(frame: pd.DataFrame, a: str, b: str, dataset: str | None = None) -> Paired | None:
    """B against A (labels) on the puzzles both solved (`sudokucp.stats.paired`); None when
    there is none."""
    mine, theirs = lines_of(frame, a, dataset), lines_of(frame, b, dataset)
    both = mine.index[mine["answered"]].intersection(theirs.index[theirs["answered"]])
    if both.empty:
        return None
    return paired(mine.loc[both, "seconds"].astype(float),
                  theirs.loc[both, "seconds"].astype(float), a=f"`{a}`", b=f"`{b}`")


def ratio(frame: pd.DataFrame, a: str, b: str, dataset: str | None = None) -> str:
    """B / A on the puzzles both solved: the geometric mean of B's time over A's with its
    interval, the puzzles each was quicker on, the Wilcoxon p-value and the verdict."""
    p = compared(frame, a, b, dataset)
    if p is None:
        return f"`{b}` / `{a}`: no puzzle solved by both"
    p_value = "-" if math.isnan(p.p_value) else f"{p.p_value:.2g}"
    puzzles = "puzzle" if p.n == 1 else "puzzles"
    return (f"`{b}` / `{a}`: {p.ratio:.3g}x [{p.low:.3g}, {p.high:.3g}] (geometric mean of the "
            f"per-puzzle ratios, {CI}) over {p.n} {puzzles} solved by both; `{a}` quicker on "
            f"{p.wins}, ties {p.ties} (within {TIE - 1:.0%}), `{b}` quicker on {p.losses}; "
            f"Wilcoxon p = {p_value}; {p.verdict}")


def ratio_cell(frame: pd.DataFrame, a: str, b: str, dataset: str | None = None) -> str:
    """B / A for a table cell: '13.2x [12.1, 14.4] (n = 198)', '1x' for A itself."""
    if a == b:
        return "1x"
    p = compared(frame, a, b, dataset)
    return "n/a" if p is None else f"{p.ratio:,.3g}x [{p.low:,.3g}, {p.high:,.3g}] (n = {p.n})"


# --- sweeps of named methods (benchmarks/hybrid.py, benchmarks/jit.py) ----------------------------

@dataclass(frozen=True)
class Sweep:
    """One harness sweep as a report reads it: every run (`runs`) and the per-puzzle lines
    (`lines`, `per_puzzle`), their `backend` the report's name of each method and `grid` the
    puzzle's own name."""

    runs: pd.DataFrame
    lines: pd.DataFrame

    @classmethod
    def of(cls, outcome: BenchOutcome, methods: Mapping[str, str], puzzles: Sequence[Puzzle],
           unique: bool = False) -> Sweep:
        """The sweep of `methods` (report name -> backend spec) on `puzzles`, judged first."""
        judge(outcome, unique)
        label = labels(methods.values())
        names = {label[spec]: name for name, spec in methods.items()}
        grids: dict[str, str] = {}
        for puzzle in puzzles:
            grids.setdefault(puzzle.digest, puzzle.name)
        runs, lines = results_frame(outcome.rows), per_puzzle(outcome)
        runs["answered"] = runs["status"].isin(ANSWERED_WORDS)
        for frame in (runs, lines):
            frame["backend"] = frame["backend"].map(names)
            frame["grid"] = frame["hash"].map(grids)
        return cls(runs, lines)

    def on(self, puzzles: Iterable[Puzzle]) -> Sweep:
        """The sweep restricted to these grids (one set of a sweep over several)."""
        keep = {p.digest for p in puzzles}
        return Sweep(self.runs[self.runs["hash"].isin(keep)],
                     self.lines[self.lines["hash"].isin(keep)])

    def of_method(self, name: str) -> pd.DataFrame:
        """A method's lines, indexed by the grids' hashes."""
        return lines_of(self.lines, name)

    def solved(self, name: str) -> pd.Series:
        """A method's seconds per grid it solved."""
        return solved(self.of_method(name))

    def table(self, names: Sequence[str], unit: Unit, label: str) -> list[str]:
        """Per method: solved, the median over the grids it solved with its bootstrap interval,
        p90, max, and the mean of `guesses` (solved grids) where the method counts them."""
        lines = [f"| method | {summary_head(label)} | mean guesses (solved) |",
                 "|---|---:|---:|---:|---:|---:|"]
        return lines + [f"| {name} | {summary(self.of_method(name), unit)} | "
                        f"{mean_of(self.of_method(name), 'guesses')} |" for name in names]

    def ratio(self, num: str, den: str) -> str:
        """'- num / den' on the grids both solved (`ratio`)."""
        return f"- {ratio(self.lines, den, num)}"


@dataclass
class Bench:
    """How a script's sweeps run: repeats, the shuffle's seed, runs at once, the wall limit of an
    unlimited run, where to keep each sweep's harness folder (None: nowhere), and the report's
    header gathering every sweep's calibration."""

    provenance: Provenance
    repeat: int = 3
    seed: int = 0
    jobs: int = 1
    timeout: float = 10.0
    results: Path | None = None
    titles: list[str] = field(default_factory=list)

    def sweep(self, title: str, methods: Mapping[str, str], puzzles: Sequence[Puzzle], *,
              limit: int = 1, cpu_limit: float | None = None, repeat: int | None = None,
              timeout: float | None = None, unique: bool = False) -> Sweep:
        """Every method (report name -> backend spec) on every grid through the harness, each run
        within `timeout` wall seconds (default: the bench's; with a CPU limit, WALL_SLACK times
        it)."""
        repeat = self.repeat if repeat is None else repeat
        self.titles.append(title)
        out = None
        if self.results is not None:
            slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
            out = self.results / f"{len(self.titles):02d}-{slug}"
        if timeout is None:
            timeout = self.timeout if cpu_limit is None else cpu_limit * WALL_SLACK
        print(f"{title}: {len(methods)} methods x {len(puzzles)} grids x {repeat}",
              file=sys.stderr, flush=True)
        outcome = measure(list(methods.values()), puzzles, repeat=repeat, seed=self.seed,
                          timeout=timeout, cpu_limit=cpu_limit, limit=limit, jobs=self.jobs,
                          out=out, provenance=self.provenance)
        return Sweep.of(outcome, methods, puzzles, unique)

    def method(self) -> list[str]:
        """The header line that says how every table was measured."""
        kept = f"; each sweep's harness folder kept under `{self.results}`" if self.results else ""
        return [f"- measured through the harness (`benchmarks/common.py` `measure`): each run in "
                f"a killable worker process, `seconds` = CPU seconds of the search alone; every "
                f"method on every grid {self.repeat} times (unless a table says otherwise), all "
                f"runs of a table in one order shuffled with seed {self.seed}, {self.jobs} at a "
                f"time, {self.timeout:g} s of wall time each (a CPU-limited run: {WALL_SLACK} "
                f"times its CPU limit); a grid's time is the median of its repeats, and it counts "
                f"as solved when more than half of them answered; per method, `solved k of N` "
                f"and the median over the grids it solved with a {CI}; `a / b` lines compare per "
                f"grid on the grids both solved, from the same sweep (`sudokucp.stats.paired`)"
                f"{kept}"]
