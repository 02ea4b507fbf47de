"""Two results folders side by side, run by run (same backend label, puzzle and limit): what
became unsolved, what got slower beyond a ratio, per backend and per puzzle.

A regression is a run that was solved (SOLVED or UNSAT) and is not any more, or one whose time grew
by more than `slower` times; times under `floor_ms` count as `floor_ms`, so that timer noise on
sub-millisecond runs flags nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sudokucp.result import Row
from sudokucp.scores import natural, penalised_seconds, solved_mask

SLOWER = 2.0  # a run regressed when it takes more than this many times as long
FLOOR_MS = 10.0  # times under this count as this much when two runs are compared
NEWLY_UNSOLVED, SLOWER_RUN = "newly unsolved", "slower"
REGRESSIONS = (NEWLY_UNSOLVED, SLOWER_RUN)
KEPT = ["key", "backend", "dataset", "puzzle", "hash", "status", "seconds", "timeout", "nodes"]


@dataclass(frozen=True)
class Comparison:
    """Per run found in both folders, per backend, and the runs found in one folder only."""

    runs: pd.DataFrame
    backends: pd.DataFrame
    only_old: int
    only_new: int
    slower: float
    floor_ms: float

    @property
    def regressions(self) -> pd.DataFrame:
        return self.runs[self.runs["change"].isin(REGRESSIONS)]

    @property
    def changes(self) -> pd.DataFrame:
        return self.runs[self.runs["change"] != ""]


def compare(old: Sequence[Row], new: Sequence[Row], slower: float = SLOWER,
            floor_ms: float = FLOOR_MS) -> Comparison:
    """The runs of `old` and `new` matched by key, each judged, then summed up per backend."""
    before, after = (_frame(rows) for rows in (old, new))
    both = before.merge(after.drop(columns=["backend", "dataset", "puzzle", "hash"]), on="key",
                        suffixes=("_old", "_new"))
    both["ratio"] = (both["ms_new"].clip(lower=floor_ms) / both["ms_old"].clip(lower=floor_ms)
                     ).where(both["ok_old"] & both["ok_new"])
    both["change"] = _changes(both, slower)
    runs = both.sort_values(["backend", "dataset", "puzzle"], key=natural, kind="stable",
                            ignore_index=True)
    keys_old, keys_new = set(before["key"]), set(after["key"])
    return Comparison(runs, _per_backend(runs, before, after), len(keys_old - keys_new),
                      len(keys_new - keys_old), slower, floor_ms)


def _frame(rows: Sequence[Row]) -> pd.DataFrame:
    """A line per run key (the last one logged): its status, milliseconds, PAR-2 seconds."""
    frame = pd.DataFrame([{**row.record(), "key": row.key, "nodes": row.stats.get("nodes")}
                          for row in rows], columns=KEPT)
    frame = frame.drop_duplicates("key", keep="last")
    return frame.assign(ok=solved_mask(frame), ms=frame["seconds"].astype(float) * 1000,
                        par2=penalised_seconds(frame))


def _changes(both: pd.DataFrame, slower: float) -> pd.Series:
    change = np.select(
        [both["ok_old"] & ~both["ok_new"], ~both["ok_old"] & both["ok_new"],
         both["ratio"] > slower, both["ratio"] < 1 / slower,
         both["status_old"] != both["status_new"]],
        [NEWLY_UNSOLVED, "newly solved", SLOWER_RUN, "faster", "other status"], default="")
    return pd.Series(change, index=both.index, dtype=str)


def _per_backend(runs: pd.DataFrame, before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    lines = []
    for backend, group in runs.groupby("backend", sort=True):
        counts = group["change"].value_counts()
        lines.append({
            "backend": backend, "runs": len(group), "old_solved": int(group["ok_old"].sum()),
            "new_solved": int(group["ok_new"].sum()),
            **{name.replace(" ", "_"): int(counts.get(name, 0))
               for name in (NEWLY_UNSOLVED, "newly solved", SLOWER_RUN, "faster")},
            "old_par2_s": group["par2_old"].mean(), "new_par2_s": group["par2_new"].mean(),
            "median_ratio": group["ratio"].median(),
            "only_old": int((~before.loc[before["backend"] == backend, "key"].isin(
                runs["key"])).sum()),
            "only_new": int((~after.loc[after["backend"] == backend, "key"].isin(
                runs["key"])).sum())})
    return pd.DataFrame(lines)


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
