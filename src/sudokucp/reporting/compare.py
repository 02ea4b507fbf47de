"""Two results folders side by side, puzzle by puzzle (same backend label, puzzle and limit): what
became unsolved, what got slower, per backend and per puzzle.

Each side takes each puzzle once, as its median over its repeats (sudokucp.stats.
per_puzzle_medians); a single run is its own median. Times under `floor_ms` count as `floor_ms`
(FLOOR_MS for single runs, FLOOR_MS_PAIRED with repeats), so that timer noise on sub-millisecond
runs flags nothing. A regression is a puzzle that was
solved (SOLVED or UNSAT) and is not any more, or a slowdown, judged by one of two rules:

- per run (neither folder has repeats): a run whose time grew by more than `slower` times
  (default SLOWER);
- paired (either folder has repeats): a backend whose geometric mean ratio NEW / OLD over the
  puzzles solved in both has a bootstrap interval whose lower end is above `slower` (default
  SLOWER_PAIRED). Single puzzles are then not judged on time: noise is what repeats measure.

A wrong answer on either side (a refused solution, or a claimed UNSAT or count that the verified
solutions of either folder refute) is a regression too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sudokucp.harness.runcheck import cross_validate
from sudokucp.reporting.scores import natural, penalised_seconds, solved_mask
from sudokucp.reporting.thresholds import FLOOR_MS, FLOOR_MS_PAIRED, SLOWER, SLOWER_PAIRED
from sudokucp.result import Row, Status
from sudokucp.stats import FLOOR_S, LEVEL, MIN_PAIRED, SAME, paired, per_puzzle_medians

PER_RUN, PAIRED = "per run", "paired"
NEWLY_UNSOLVED, SLOWER_RUN = "newly unsolved", "slower"
WRONG_OLD, WRONG_NEW = "wrong in OLD", "wrong in NEW"
REGRESSIONS = (WRONG_NEW, WRONG_OLD, NEWLY_UNSOLVED, SLOWER_RUN)
MATCH = ["backend", "hash", "limit"]  # what makes a run of OLD the same as one of NEW
KEPT = ["key", "backend", "dataset", "puzzle", "hash", "limit", "status", "seconds", "timeout",
        "repeat", "nodes"]


@dataclass(frozen=True)
class Comparison:
    """Per puzzle found in both folders, per backend, the puzzles found in one folder only, and
    the rule that judged slowdowns (PER_RUN or PAIRED) with its threshold."""

    runs: pd.DataFrame
    backends: pd.DataFrame
    only_old: int
    only_new: int
    slower: float
    floor_ms: float
    rule: str = PER_RUN

    @property
    def regressions(self) -> pd.DataFrame:
        """The puzzles that regressed: newly unsolved, or (per run) slower."""
        return self.runs[self.runs["change"].isin(REGRESSIONS)]

    @property
    def slower_backends(self) -> pd.DataFrame:
        """The backends found slower by the paired rule (none under the per-run rule)."""
        if "verdict" not in self.backends:
            return self.backends.iloc[:0]
        return self.backends[self.backends["verdict"] == SLOWER_RUN]

    @property
    def regressed(self) -> bool:
        return not (self.regressions.empty and self.slower_backends.empty)

    @property
    def changes(self) -> pd.DataFrame:
        return self.runs[self.runs["change"] != ""]


def has_repeats(rows: Sequence[Row]) -> bool:
    """True when some run is a repeat (index 1 or more) of another."""
    return any(row.repeat > 0 for row in rows)


def default_slower(repeated: bool) -> float:
    """The --slower of a rule: SLOWER_PAIRED with repeats, SLOWER for single runs."""
    return SLOWER_PAIRED if repeated else SLOWER


def compare(old: Sequence[Row], new: Sequence[Row], slower: float | None = None,
            floor_ms: float | None = None) -> Comparison:
    """The puzzles of `old` and `new` (medians over repeats) matched by backend, hash and limit,
    each judged, then summed up per backend; the rule is PAIRED when either side has repeats,
    `slower` and `floor_ms` its defaults when None."""
    rule = PAIRED if has_repeats(old) or has_repeats(new) else PER_RUN
    slower = default_slower(rule == PAIRED) if slower is None else slower
    if floor_ms is None:
        floor_ms = FLOOR_MS_PAIRED if rule == PAIRED else FLOOR_MS
    old, new = refuted(old, new), refuted(new, old)
    before, after = (_frame(rows) for rows in (old, new))
    both = before.merge(after.drop(columns=["key", "dataset", "puzzle"]), on=MATCH,
                        suffixes=("_old", "_new"))
    both["ratio"] = (both["ms_new"].clip(lower=floor_ms) / both["ms_old"].clip(lower=floor_ms)
                     ).where(both["ok_old"] & both["ok_new"])
    both["change"] = _changes(both, slower if rule == PER_RUN else None)
    runs = both.sort_values(["backend", "dataset", "puzzle"], key=natural, kind="stable",
                            ignore_index=True)
    only_old, only_new = _unmatched(before, runs), _unmatched(after, runs)
    backends = _per_backend(runs, only_old, only_new, floor_ms, slower, rule)
    return Comparison(runs, backends, int(only_old.sum()), int(only_new.sum()), slower, floor_ms,
                      rule)


def refuted(rows: Sequence[Row], other: Sequence[Row]) -> list[Row]:
    """`rows` cross-validated against the verified solutions of the `other` folder too: a claimed
    UNSAT or count that they refute is WRONG (sudokucp.harness.runcheck.cross_validate)."""
    known: dict[str, set[str]] = defaultdict(set)
    for row in other:
        if row.verified:
            known[row.hash].update(row.solutions)
    return cross_validate(rows, known)[0]


def _frame(rows: Sequence[Row]) -> pd.DataFrame:
    """A line per puzzle (the median over its repeats): its status, milliseconds, PAR-2 seconds
    and the number of runs behind it."""
    frame = pd.DataFrame([{**row.record(), "key": row.key, "nodes": row.stats.get("nodes")}
                          for row in rows], columns=KEPT)
    frame = per_puzzle_medians(frame.drop_duplicates("key", keep="last"))
    return frame.assign(ok=solved_mask(frame), ms=frame["seconds"].astype(float) * 1000,
                        par2=penalised_seconds(frame))


def _unmatched(side: pd.DataFrame, runs: pd.DataFrame) -> pd.Series:
    """Per backend, the puzzles of one side that the other side lacks."""
    matched = side.merge(runs[MATCH], on=MATCH, how="left", indicator=True)
    return (matched["_merge"] == "left_only").groupby(matched["backend"]).sum()


def _changes(both: pd.DataFrame, slower: float | None) -> pd.Series:
    """Each puzzle's change; time changes only under the per-run rule (`slower` given)."""
    timed = slower is not None
    limit = slower if timed else np.inf
    wrong = Status.WRONG.value
    change = np.select(
        [both["status_new"] == wrong, both["status_old"] == wrong,
         both["ok_old"] & ~both["ok_new"], ~both["ok_old"] & both["ok_new"],
         timed & (both["ratio"] > limit), timed & (both["ratio"] < 1 / limit),
         both["status_old"] != both["status_new"]],
        [WRONG_NEW, WRONG_OLD, NEWLY_UNSOLVED, "newly solved", SLOWER_RUN, "faster",
         "other status"], default="")
    return pd.Series(change, index=both.index, dtype=str)


def _per_backend(runs: pd.DataFrame, only_old: pd.Series, only_new: pd.Series, floor_ms: float,
                 slower: float, rule: str) -> pd.DataFrame:
    lines = []
    for backend, group in runs.groupby("backend", sort=True):
        counts = group["change"].value_counts()
        line = {"backend": backend, "runs": len(group), "old_solved": int(group["ok_old"].sum()),
                "new_solved": int(group["ok_new"].sum()),
                **{name.replace(" ", "_").lower(): int(counts.get(name, 0))
                   for name in (WRONG_NEW, WRONG_OLD, NEWLY_UNSOLVED, "newly solved",
                                SLOWER_RUN, "faster")},
                "old_par2_ms": group["par2_old"].mean() * 1000,
                "new_par2_ms": group["par2_new"].mean() * 1000,
                "median_ratio": group["ratio"].median()}
        if rule == PAIRED:  # a line per puzzle, time judged per backend
            line = {"puzzles" if k == "runs" else k: v for k, v in line.items()
                    if k not in (SLOWER_RUN, "faster")}
        line |= _paired_columns(group, floor_ms, slower, rule)
        line |= {"only_old": int(only_old.get(backend, 0)),
                 "only_new": int(only_new.get(backend, 0))}
        lines.append(line)
    return pd.DataFrame(lines)


def _paired_columns(group: pd.DataFrame, floor_ms: float, slower: float, rule: str) -> dict:
    """The geometric mean ratio NEW / OLD over the puzzles solved in both, its interval, and
    (paired rule) the verdict."""
    solved = group[group["ok_old"] & group["ok_new"]]
    floor = max(floor_ms, FLOOR_S * 1000)  # a zero time has no logarithm
    p = paired(solved["ms_old"], solved["ms_new"], a="OLD", b="NEW", floor=floor)
    columns = {"paired": p.n, "ratio": p.ratio, "ratio_low": p.low, "ratio_high": p.high}
    if rule == PAIRED:
        columns["verdict"] = backend_verdict(p.n, p.low, p.high, slower)
    return columns


def backend_verdict(n: int, low: float, high: float, slower: float) -> str:
    """'slower' when the interval of NEW / OLD lies above `slower`, 'faster' when it lies
    below 1 / `slower`; a smaller change that the interval still shows is named with its
    threshold; SAME when the interval holds 1."""
    if n < MIN_PAIRED:
        return "no puzzle solved in both" if n == 0 else f"too few puzzles (under {MIN_PAIRED})"
    if low > slower:
        return SLOWER_RUN
    if high < 1 / slower:
        return "faster"
    if low > 1:
        return f"slower, under {slower:g}x"
    if high < 1:
        return f"faster, under {slower:g}x"
    return SAME


def rule_line(comparison: Comparison) -> str:
    """The rule that judged slowdowns, in words."""
    floor = (f"times under {comparison.floor_ms:g} ms counted as {comparison.floor_ms:g} ms")
    if comparison.rule == PER_RUN:
        return (f"rule: single runs: a run is slower when it takes more than "
                f"{comparison.slower:g}x the time; {floor}; PAR-2 over the runs in both")
    return (f"rule: repeats: each puzzle's median over its repeats on each side; per backend, "
            f"the geometric mean of NEW / OLD over the puzzles solved in both with its "
            f"{LEVEL:.0%} bootstrap interval; a backend is slower when the interval's lower end "
            f"is above {comparison.slower:g}x (and {MIN_PAIRED} puzzles or more); {floor}; "
            f"PAR-2 over the puzzles in both")


def shown_runs(comparison: Comparison) -> pd.DataFrame:
    """The changed runs as a table to print: statuses, milliseconds, ratio, change, and the
    search nodes on both sides where the backend counts them (equal nodes: the same search, so a
    time change is the machine's)."""
    changes = comparison.changes
    table = changes.assign(old=_cell(changes, "old"), new=_cell(changes, "new"))
    columns = ["backend", "dataset", "puzzle", "old", "new", "ratio", "change"]
    if changes[["nodes_old", "nodes_new"]].notna().any().any():
        table = table.astype({"nodes_old": "Int64", "nodes_new": "Int64"})
        columns[5:5] = ["nodes_old", "nodes_new"]
    return table[columns]


def _cell(runs: pd.DataFrame, side: str) -> pd.Series:
    """'12.3 ms' for a solved run, its status for another."""
    ms = runs[f"ms_{side}"].map(lambda v: f"{v:.4g} ms")
    return ms.where(runs[f"ok_{side}"], runs[f"status_{side}"])
