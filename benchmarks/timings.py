"""What the benchmark scripts make of a harness sweep (`common.measure`): each puzzle once, as its
median over the repeats, and the figures the reports print from those lines: medians with their
bootstrap interval, percentiles, paired ratios between two backends of the same sweep.

Times are the rows' `seconds`, CPU seconds of the search unless the sweep measured wall time. A
puzzle counts as answered when more than half of its repeats answered (SOLVED or UNSAT); an
unanswered one counts as infinitely slow in the medians and percentiles (as UNANSWERED seconds, so
that interpolation stays finite), and a figure at or past the time limit prints as `> limit`.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from common import Provenance, measure

from sudokucp.harness import BenchOutcome
from sudokucp.puzzle import Puzzle
from sudokucp.report import results_frame
from sudokucp.stats import (
    ANSWERED_WORDS,
    LEVEL,
    bootstrap_ci,
    paired,
    per_puzzle_medians,
    percentile,
)

UNANSWERED = 1e9  # seconds an unanswered puzzle counts for: beyond every time limit
CI = f"{LEVEL:.0%} bootstrap interval"


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
    `answered`, the status and stats of a repeat that agrees with the majority."""
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


def times(lines: pd.DataFrame) -> np.ndarray:
    """Seconds per puzzle, an unanswered one as UNANSWERED."""
    return np.where(lines["answered"], lines["seconds"].astype(float), UNANSWERED)


def count(lines: pd.DataFrame, status: str) -> int:
    """Puzzles whose (majority) status is `status`."""
    return int((lines["status"] == status).sum())


def ms(seconds: float, limit: float | None = None) -> str:
    """Milliseconds with 3 significant figures (whole numbers from 1,000 on); '> limit' at or
    past the time limit, '-' for nothing."""
    if seconds != seconds:
        return "-"
    if seconds >= UNANSWERED / 2 or (limit is not None and seconds >= limit):
        return f"> {limit * 1000:,.0f}" if limit else "∞"
    value = seconds * 1000
    return f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"


def median_ci(seconds: Sequence[float] | np.ndarray, limit: float | None = None) -> str:
    """'median [low, high]' in milliseconds: the median and its bootstrap interval."""
    values = np.asarray(seconds, dtype=float)
    if values.size == 0:
        return "-"
    low, high = bootstrap_ci(values)
    return f"{ms(percentile(values, 50), limit)} [{ms(low, limit)}, {ms(high, limit)}]"


def pct(seconds: Sequence[float] | np.ndarray, q: float, limit: float | None = None) -> str:
    """The q-th percentile in milliseconds."""
    values = np.asarray(seconds, dtype=float)
    return ms(percentile(values, q), limit) if values.size else "-"


def spread(seconds: Sequence[float] | np.ndarray, limit: float | None = None) -> str:
    """'p10 to p90' in milliseconds."""
    values = np.asarray(seconds, dtype=float)
    if values.size == 0:
        return "-"
    return f"{pct(values, 10, limit)} to {pct(values, 90, limit)}"


def ratio(frame: pd.DataFrame, a: str, b: str, dataset: str | None = None) -> str:
    """B against A (labels) on the puzzles both answered, from `sudokucp.stats.paired`: the
    geometric mean of B's time over A's with its interval, the puzzles each was quicker on (more
    than 1.05x), the Wilcoxon p-value and the verdict."""
    mine, theirs = lines_of(frame, a, dataset), lines_of(frame, b, dataset)
    both = mine.index[mine["answered"]].intersection(theirs.index[theirs["answered"]])
    if both.empty:
        return f"`{b}` / `{a}`: no puzzle answered by both"
    p = paired(mine.loc[both, "seconds"].astype(float), theirs.loc[both, "seconds"].astype(float),
               a=f"`{a}`", b=f"`{b}`")
    p_value = "-" if math.isnan(p.p_value) else f"{p.p_value:.2g}"
    puzzles = "puzzle" if p.n == 1 else "puzzles"
    return (f"`{b}` / `{a}`: {p.ratio:.3g}x [{p.low:.3g}, {p.high:.3g}] over {p.n} {puzzles} "
            f"answered by both; `{a}` quicker on {p.wins}, ties {p.ties}, `{b}` quicker on "
            f"{p.losses}; Wilcoxon p = {p_value}; {p.verdict}")


def ratio_cell(frame: pd.DataFrame, a: str, b: str, dataset: str | None = None) -> str:
    """B / A for a table cell: '13.2x [12.1, 14.4] (n = 198)', '1x' for A itself."""
    if a == b:
        return "1x"
    mine, theirs = lines_of(frame, a, dataset), lines_of(frame, b, dataset)
    both = mine.index[mine["answered"]].intersection(theirs.index[theirs["answered"]])
    if both.empty:
        return "n/a"
    p = paired(mine.loc[both, "seconds"].astype(float), theirs.loc[both, "seconds"].astype(float))
    return f"{p.ratio:,.3g}x [{p.low:,.3g}, {p.high:,.3g}] (n = {p.n})"


def median_of(lines: pd.DataFrame, column: str, answered: bool = True) -> str:
    """The median of a stats column (nodes, guesses) over the answered puzzles, whole."""
    if column not in lines:
        return "n/a"
    values = lines.loc[lines["answered"], column] if answered else lines[column]
    values = pd.to_numeric(values, errors="coerce").dropna()
    return f"{np.median(values):,.0f}" if len(values) else "n/a"


def problems(outcome: BenchOutcome) -> list[str]:
    """Wrong answers, crashes, errors and disagreements of a sweep, one line each."""
    bad = [f"{r.backend} on {r.puzzle} (repeat {r.repeat}): {r.status.value} {r.error or ''}"
           for r in outcome.rows if r.status.value in ("wrong", "error", "crash", "memout")]
    return bad + [f"{d.puzzle}: {d.message}" for d in outcome.disagreements]


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
