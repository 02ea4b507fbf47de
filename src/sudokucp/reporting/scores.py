"""What solver people read off a results table: solved counts, PAR-2, the virtual best solver,
and the puzzles on which the backends part ways.

Solved means answered: SOLVED or UNSAT, after the checker and cross-validation (a refuted claim is
WRONG). Every other status is unsolved: timeout, unknown, crash, memout, error, wrong. PAR-2 is the
mean over a backend's runs of its time when solved, and of twice the run's time limit when not,
in milliseconds (`par2_ms`). A pair's ratio reads one way: a is `ratio` times slower than b.

With repeats, every table here takes each puzzle once, as its median over its repeats
(sudokucp.stats.per_puzzle_medians); the functions accept every run or those lines alike.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np
import pandas as pd

from sudokucp.result import ANSWERED, Status
from sudokucp.stats import one_line_per_puzzle, paired

PENALTY = 2  # PAR-2: an unsolved run costs twice the time limit
VBS = "virtual best"  # the row of a portfolio that picks, per puzzle, the fastest backend
SOLVED = frozenset(status.value for status in ANSWERED)
UNSOLVED = tuple(s.value for s in Status if s not in ANSWERED)  # in Status's order
SPREAD = 10.0  # the instance table keeps puzzles whose answered times differ by more than this
FLOOR_MS = 1.0  # times under this count as this much when ratios are taken (timer noise)


def solved_mask(results: pd.DataFrame) -> pd.Series:
    """True for the runs that ended SOLVED or UNSAT."""
    return results["status"].isin(SOLVED)


def penalised_seconds(results: pd.DataFrame, penalty: float = PENALTY) -> pd.Series:
    """Each run's PAR-k time: its seconds when solved, `penalty` x its time limit when not (its
    CPU limit when it had one, else its wall limit; NaN for an unsolved run with neither)."""
    limit = pd.to_numeric(results["timeout"], errors="coerce").astype(float)
    if "cpu_limit" in results:
        limit = pd.to_numeric(results["cpu_limit"], errors="coerce").astype(float).fillna(limit)
    return results["seconds"].astype(float).where(solved_mask(results), penalty * limit)


def scores_frame(results: pd.DataFrame) -> pd.DataFrame:
    """Per backend over all its puzzles, then the virtual best solver: puzzles, solved, each
    unsolved status, PAR-2 (ms, mean per puzzle), puzzles where it is fastest and the only one."""
    results = one_line_per_puzzle(results)
    frame = results.assign(par2=penalised_seconds(results), ok=solved_mask(results))
    best = _best_per_puzzle(frame)
    lines = [_score(backend, group, best) for backend, group in frame.groupby("backend")]
    lines.append(_vbs_line(frame, best))
    table = pd.DataFrame(lines)
    whole = [c for c in table.columns if c not in ("backend", "par2_ms")]
    return table.astype({c: "Int64" for c in whole} | {"par2_ms": float})


def _best_per_puzzle(frame: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle hash: the least PAR-2 time, the backend that had it (when solved) and the one
    backend that solved it (when only one did)."""
    order = frame.sort_values(["hash", "par2", "backend"], kind="stable", na_position="last")
    first = order.groupby("hash", sort=False).head(1).set_index("hash")
    solvers = frame[frame["ok"]].groupby("hash")["backend"].agg(["size", "first"])
    sole = solvers["first"].where(solvers["size"] == 1)  # cythonised: no list per puzzle
    return pd.DataFrame({"par2": first["par2"], "ok": first["ok"],
                         "fastest": first["backend"].where(first["ok"]),
                         "sole": sole.reindex(first.index)})


def _score(backend: str, group: pd.DataFrame, best: pd.DataFrame) -> dict[str, Any]:
    mine = best.loc[group["hash"].unique()]
    only = mine["sole"] == backend
    return {"backend": backend, "puzzles": group["hash"].nunique(),
            "solved": int(group["ok"].sum()), **_unsolved_counts(group),
            "par2_ms": _mean(group["par2"]) * 1000,
            "fastest": int((mine["fastest"] == backend).sum()), "only": int(only.sum())}


def _vbs_line(frame: pd.DataFrame, best: pd.DataFrame) -> dict[str, Any]:
    solved = int(best["ok"].sum())
    return {"backend": VBS, "puzzles": len(best), "solved": solved,
            **{status: pd.NA for status in UNSOLVED}, "unsolved": len(best) - solved,
            "par2_ms": _mean(best["par2"]) * 1000, "fastest": pd.NA, "only": pd.NA}


def _unsolved_counts(group: pd.DataFrame) -> dict[str, int]:
    counts = {status: int((group["status"] == status).sum()) for status in UNSOLVED}
    return counts | {"unsolved": int((~group["ok"]).sum())}


def _mean(values: pd.Series) -> float:
    """The mean, or NaN when any value is missing (an unsolved run without a time limit)."""
    return float(values.mean()) if len(values) and not values.isna().any() else float("nan")


def instances_frame(results: pd.DataFrame, spread: float = SPREAD,
                    floor_ms: float = FLOOR_MS) -> pd.DataFrame:
    """The puzzles run by two backends or more where their statuses differ or their solved times
    differ by more than `spread` (times under `floor_ms` count as `floor_ms`): per backend the
    milliseconds of a solved run or the status of an unsolved one."""
    results = one_line_per_puzzle(results)
    status = results.pivot(index="hash", columns="backend", values="status")
    ms = (results["seconds"].astype(float) * 1000).where(solved_mask(results))
    times = results.assign(ms=ms).pivot(index="hash", columns="backend", values="ms")
    floored = times.clip(lower=floor_ms)
    ratio = (floored.max(axis=1) / floored.min(axis=1)).where(floored.count(axis=1) > 1)
    differ = _differs(status)
    apart = ratio > spread
    keep = (status.count(axis=1) > 1) & (differ | apart)
    reason = (differ.map({True: "status", False: ""}) + (differ & apart).map(
        {True: ", ", False: ""}) + apart.map({True: "time", False: ""}))
    first = results.drop_duplicates("hash").set_index("hash")
    frame = pd.DataFrame({"dataset": first["dataset"], "puzzle": first["puzzle"],
                          "hash": status.index, "reason": reason, "ratio": ratio,
                          "fastest": _fastest(floored)})
    cells = times.map(lambda v: float(f"{v:.4g}"), na_action="ignore").astype(object)
    frame = frame.join(cells.where(times.notna(), status))[keep.reindex(frame.index)]
    return frame.sort_values(["dataset", "puzzle"], key=natural, kind="stable",
                             ignore_index=True)


def _differs(frame: pd.DataFrame) -> pd.Series:
    """Per row, whether its known values are not all the same (`nunique(axis=1) > 1`, without
    a Python call per row)."""
    values, known = frame.to_numpy(dtype=object), frame.notna().to_numpy()
    if values.size == 0:
        return pd.Series(False, index=frame.index)
    first = values[np.arange(len(values)), known.argmax(axis=1)]
    return pd.Series(((values != first[:, None]) & known).any(axis=1), index=frame.index)


def backend_pairs(results: pd.DataFrame) -> list[tuple[str, str]]:
    """Every pair of backends (sorted by name) that ran at least one puzzle in common."""
    runs = results.groupby("backend")["hash"].agg(set)
    return [(a, b) for a, b in itertools.combinations(sorted(runs.index), 2)
            if runs[a] & runs[b]]


def pairs_frame(results: pd.DataFrame) -> pd.DataFrame:
    """Per pair of backends that ran a puzzle in common, over the puzzles both solved
    (sudokucp.stats.paired): a is the slower by the geometric mean, `ratio` a's time over b's
    (1 or more) with its interval, a's wins, ties, b's wins, the Wilcoxon p-value, the
    verdict."""
    lines = one_line_per_puzzle(results)
    solved = lines[solved_mask(lines)]
    times = solved.pivot(index="hash", columns="backend", values="seconds").astype(float)
    table = [_pair_line(times, a, b) for a, b in backend_pairs(lines)]
    return pd.DataFrame(table, columns=PAIR_COLUMNS)


PAIR_COLUMNS = ["a", "b", "puzzles", "ratio", "ci_low", "ci_high", "a_faster", "ties",
                "b_faster", "wilcoxon_p", "verdict"]  # pairs.csv


def _pair_line(times: pd.DataFrame, a: str, b: str) -> dict[str, Any]:
    both = times.reindex(columns=[a, b]).dropna()
    p = paired(both[a], both[b], a=a, b=b)  # ratio b / a
    line = {"puzzles": p.n, "ties": p.ties, "wilcoxon_p": p.p_value, "verdict": p.verdict}
    if p.ratio < 1 or p.n == 0:  # a the slower (or none in common): 1 / ratio
        return {"a": a, "b": b, "ratio": 1 / p.ratio, "ci_low": 1 / p.high,
                "ci_high": 1 / p.low, "a_faster": p.wins, "b_faster": p.losses} | line
    return {"a": b, "b": a, "ratio": p.ratio, "ci_low": p.low, "ci_high": p.high,
            "a_faster": p.losses, "b_faster": p.wins} | line


def _fastest(ms: pd.DataFrame) -> pd.Series:
    """Per puzzle, the backend with the least time ('' when none solved it)."""
    solved = ms.count(axis=1) > 0
    return ms[solved].idxmin(axis=1).reindex(ms.index, fill_value="")


def natural(column: pd.Series) -> pd.Series:
    """Sort keys that put 'top95:9' before 'top95:10': digits compared as numbers."""
    return column.map(lambda text: tuple(int(p) if p.isdigit() else p
                                         for p in re.split(r"(\d+)", str(text))))


def _instance(group: pd.DataFrame, floor_ms: float) -> dict[str, Any]:
    solved = group[solved_mask(group)]
    ms = (solved["seconds"].astype(float) * 1000).clip(lower=floor_ms)
    first = group.iloc[0]
    return {"dataset": first["dataset"], "puzzle": first["puzzle"], "hash": first["hash"],
            "ratio": float(ms.max() / ms.min()) if len(ms) > 1 else np.nan,
            "fastest": solved.loc[ms.idxmin(), "backend"] if len(ms) else ""}


def _reasons(line: dict[str, Any], group: pd.DataFrame, spread: float) -> list[str]:
    reasons = ["status"] if group["status"].nunique() > 1 else []
    return reasons + (["time"] if line["ratio"] > spread else [])


def _cells(group: pd.DataFrame) -> dict[str, Any]:
    """backend: milliseconds (solved, 4 significant digits) or the status word."""
    return {row.backend: float(f"{row.seconds * 1000:.4g}") if row.status in SOLVED
            else row.status for row in group.itertuples(index=False)}
