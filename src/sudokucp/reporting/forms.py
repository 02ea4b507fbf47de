"""Order bias, measured: how a backend's time on one puzzle spreads over its isomorphic forms
(`bench --isomorphs K`). A fair search takes about as long on every form; a row-major
backtracking does not."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sudokucp.i18n import N_, _
from sudokucp.reporting.scores import FLOOR_MS
from sudokucp.stats import ANSWERED_WORDS, percentile

COLUMNS = ["backend", "puzzles", "forms", "answered", "ratio_median", "ratio_p90", "ratio_max",
           "cv_median", "split", "unanswered"]


def forms_frame(results: pd.DataFrame) -> pd.DataFrame:
    """Per backend, over the puzzles it ran in two forms or more: forms per puzzle (median),
    the share of (puzzle, form) pairs answered, the slowest form's time over the fastest's
    (median, p90, largest) and the coefficient of variation of the form times (median), for
    puzzles answered in every form; `split` counts puzzles answered in some forms only,
    `unanswered` those answered in none."""
    if "form" not in results or results.empty or results["form"].max() < 1:
        return pd.DataFrame(columns=COLUMNS)
    times = _form_times(results)
    lines = [_backend_line(backend, group) for backend, group in times.groupby("backend")]
    frame = pd.DataFrame(lines, columns=COLUMNS)
    return frame.sort_values("ratio_median", ascending=False, kind="stable",
                             na_position="last").reset_index(drop=True)


def _form_times(results: pd.DataFrame) -> pd.DataFrame:
    """One line per (backend, puzzle, form): the median seconds of its answered repeats (NaN
    when none answered), floored at FLOOR_MS."""
    ok = results["status"].isin(ANSWERED_WORDS)
    seconds = results["seconds"].astype(float).where(ok).clip(lower=FLOOR_MS / 1000)
    frame = results.assign(seconds=seconds)
    return frame.groupby(["backend", "hash", "form"], sort=False)["seconds"].median(
    ).reset_index()


def _backend_line(backend: str, times: pd.DataFrame) -> list[object]:
    """The COLUMNS of one backend from its form times."""
    ratios, cvs, split, none, counts, held = [], [], 0, 0, [], 0
    for _hash, group in times.groupby("hash", sort=False):
        values = group["seconds"].to_numpy()
        if len(values) < 2:
            continue
        counts.append(len(values))
        answered = values[~np.isnan(values)]
        held += len(answered)
        if len(answered) == len(values):
            low, high = answered.min(), answered.max()
            ratios.append(high / low)
            cvs.append(0.0 if high == low else answered.std(ddof=1) / answered.mean())
        elif len(answered):
            split += 1
        else:
            none += 1
    if not counts:
        return [backend, 0, None, None, None, None, None, None, 0, 0]
    return [backend, len(counts), float(np.median(counts)), f"{held}/{sum(counts)}",
            percentile(ratios, 50), percentile(ratios, 90), max(ratios, default=None),
            percentile(cvs, 50), split, none]


HEADING = N_("Order bias: time over the isomorphic forms of each puzzle")
NOTE = N_("Each puzzle was also run as random isomorphs (`--isomorphs`: digits relabelled, rows, "
          "columns, bands and stacks reordered); every solution was mapped back and judged on "
          "the puzzle as given. Per backend, over the puzzles answered in every form: `ratio` is "
          "the slowest form's time over the fastest's (each form its median over repeats, times "
          "floored at {floor} ms), `cv` the standard deviation of the form times over their "
          "mean; `answered`: (puzzle, form) pairs answered of those run; `split`: puzzles "
          "answered in some forms only, `unanswered`: in none. `forms.csv` holds this table.")


def forms_markdown(frame: pd.DataFrame, table: str) -> list[str]:
    """The summary's section on order bias, in the current language (none without isomorphs)."""
    if frame.empty:
        return []
    return ["", f"## {_(HEADING)}", "", _(NOTE).format(floor=f"{FLOOR_MS:g}"), "", table]
