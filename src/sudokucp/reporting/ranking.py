"""The answer of a comparison, per class of puzzles (a data set, or each shape of a data set that
mixes shapes): the backends ranked by the puzzles they solved, then by their time over the best's,
the geometric mean of the per-puzzle ratios over the puzzles both solved, with its bootstrap
interval (sudokucp.stats.paired). A backend that solved as many puzzles as the best and whose
interval holds 1 (or that shares no solved puzzle with it) shares the best's rank: tied. The
pairs' verdicts, which need the Wilcoxon test too, are in `above` and `verdict`.

Every function takes the per-puzzle frame (sudokucp.stats.one_line_per_puzzle): one line per
backend and puzzle, repeats folded to their medians.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sudokucp.i18n import N_, _, ngettext
from sudokucp.machine.calibration import NOISY
from sudokucp.puzzle import line_side
from sudokucp.reporting.text import interval, md, sig, times
from sudokucp.result import ANSWERED
from sudokucp.stats import FLOOR_S, LEVEL, Paired, log_ratios, paired

SOLVED = frozenset(status.value for status in ANSWERED)
RULE = N_("Ranked by puzzles solved, then by the time over the best's: the geometric mean, over "
          "the puzzles both solved, of the per-puzzle ratio (each puzzle's median over its "
          "repeats), with its {level} bootstrap interval; a backend whose interval holds 1 "
          "shares the best's rank (tied).")
COLUMNS = ["class", "rank", "backend", "solved", "puzzles", "both", "ratio", "ci_low",
           "ci_high", "wilcoxon_p", "tied", "above", "above_ratio", "above_low", "above_high",
           "above_p", "above_verdict"]  # ranking.csv


@dataclass(frozen=True)
class Place:
    """One backend's place in a class: its rank (shared when tied with the best), puzzles
    solved of those it ran, and its time over the best's (ratio, interval low and high, the
    Wilcoxon p-value) on `both` puzzles both solved; the best's ratio is 1."""

    backend: str
    rank: int
    solved: int
    puzzles: int
    ratio: float
    low: float
    high: float
    both: int
    p_value: float
    tied: bool
    best: bool
    above: Paired | None = None  # against the backend ranked just above (ratio: this one's
    # time over that one's); None for the first
    verdict: str = ""  # the paired verdict against the best


def classes(puzzles: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The per-puzzle lines by class: a data set's name, or 'name, RxC' per shape when a data
    set mixes shapes; data sets in name order."""
    found: dict[str, pd.DataFrame] = {}
    if puzzles.empty:
        return found
    shapes = puzzles["grid"].map(shape_label)
    for dataset, group in puzzles.groupby("dataset", sort=True):
        kinds = shapes[group.index]
        if kinds.nunique() == 1:
            found[str(dataset)] = group
            continue
        for shape, part in group.groupby(kinds, sort=False):
            found[f"{dataset}, {shape}"] = part
    return found


def shape_label(grid: str) -> str:
    """'9x9' for the one-line form of a 9x9 grid."""
    side = line_side(str(grid))
    return f"{side}x{side}"


def rankings(puzzles: pd.DataFrame, pairs: pd.DataFrame | None = None
             ) -> dict[str, list[Place]]:
    """Per class label, the backends in ranking order. `pairs`, pairs.csv's frame of the same
    lines (sudokucp.reporting.scores.pairs_frame), spares the bootstrap again when there is one
    class: its pairs are then this ranking's."""
    found = classes(puzzles)
    known = paired_lines(pairs) if pairs is not None and len(found) == 1 else {}
    return {label: places(group, known) for label, group in found.items()}


def paired_lines(pairs: pd.DataFrame) -> dict[tuple[str, str], Paired]:
    """pairs.csv's lines as paired comparisons both ways: (a, b) holds b's time over a's."""
    known = {}
    for line in pairs.itertuples(index=False):
        slow, fast = str(line.a), str(line.b)  # a is `ratio` times slower than b
        known[(fast, slow)] = Paired(fast, slow, line.puzzles, line.ratio, line.ci_low,
                                     line.ci_high, line.b_faster, line.ties, line.a_faster,
                                     line.wilcoxon_p, line.verdict)
        known[(slow, fast)] = Paired(slow, fast, line.puzzles, 1 / line.ratio,
                                     1 / line.ci_high, 1 / line.ci_low, line.a_faster,
                                     line.ties, line.b_faster, line.wilcoxon_p, line.verdict)
    return known


def backend_order(puzzles: pd.DataFrame) -> list[str]:
    """Every backend in one order over all puzzles (for legends): most solved first, then the
    quickest against the best; no interval is drawn."""
    if puzzles.empty:
        return []
    times, counts = _times(puzzles)
    return _order(times, counts)


def places(lines: pd.DataFrame, known: Mapping[tuple[str, str], Paired] | None = None
           ) -> list[Place]:
    """The backends of one class in ranking order, with their ratios to the best and to the one
    above them (taken from `known` where it holds them). Those tied with the best come right
    after it, so that the ranks never go down the list."""
    known = known or {}
    times, counts = _times(lines)
    order = _order(times, counts)
    if not order:
        return []
    best = order[0]
    versus = {b: known.get((best, b)) or _pair(times, best, b) for b in order[1:]}
    tied = {b: bool(counts[b] == counts[best] and (p.n == 0 or p.low <= 1 <= p.high))
            for b, p in versus.items()}
    rest = sorted(order[1:], key=lambda b: (-counts[b], not tied[b], order.index(b)))
    runs = lines.groupby("backend")["hash"].nunique()
    found = [Place(best, 1, int(counts[best]), int(runs[best]), 1.0, 1.0, 1.0,
                   int(counts[best]), math.nan, False, True)]
    for i, backend in enumerate(rest, start=1):
        p, up = versus[backend], found[-1].backend
        above = p if up == best else known.get((up, backend)) or _pair(times, up, backend)
        found.append(Place(backend, 1 if tied[backend] else i + 1, int(counts[backend]),
                           int(runs[backend]), p.ratio, p.low, p.high, p.n, p.p_value,
                           tied[backend], False, above, p.verdict))
    return found


def _times(lines: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Seconds of the solved lines, a column per backend and a row per puzzle, and the puzzles
    each backend solved (0 for one that solved none)."""
    lines = lines.drop_duplicates(["backend", "hash"])
    solved = lines[lines["status"].isin(SOLVED)]
    times = solved.pivot(index="hash", columns="backend", values="seconds").astype(float)
    backends = sorted(lines["backend"].unique())
    return times.reindex(columns=backends), times.count().reindex(backends, fill_value=0)


def _order(times: pd.DataFrame, counts: pd.Series) -> list[str]:
    """Most solved first, then the least ratio to the first; the first is taken again until it
    stays first (at most once per backend)."""
    backends = list(counts.index)
    if not backends:
        return []
    best = _start(times, counts)
    order = backends
    for _turn in backends:
        ratios = {b: _point(times, best, b) for b in backends}
        order = sorted(backends, key=lambda b: (-counts[b], ratios[b], b))
        if order[0] == best:
            break
        best = order[0]
    return order


def _start(times: pd.DataFrame, counts: pd.Series) -> str:
    """The first guess at the best: among those that solved the most, the least mean of log
    times over the puzzles they all solved (over their own when they share none)."""
    top = [b for b in counts.index if counts[b] == counts.max()]
    common = times[top].dropna()
    logs = np.log(np.maximum(common if len(common) else times[top], FLOOR_S))
    return min(top, key=lambda b: (float(np.nanmean(logs[b])) if logs[b].notna().any()
                                   else math.inf, b))


def _point(times: pd.DataFrame, best: str, backend: str) -> float:
    """The geometric mean of backend's time over best's on the puzzles both solved (inf for
    none), without an interval."""
    both = times[[best, backend]].dropna() if backend != best else times[[best]].dropna()
    if both.empty:
        return math.inf
    return math.exp(float(log_ratios(both[best], both[backend]).mean()))


def _pair(times: pd.DataFrame, a: str, b: str) -> Paired:
    """The paired comparison of b's time over a's on the puzzles both solved."""
    both = times[[a, b]].dropna()
    return paired(both[a], both[b], a=a, b=b)


def ranking_frame(ranked: dict[str, list[Place]]) -> pd.DataFrame:
    """ranking.csv: a line per class and backend, in ranking order."""
    lines = []
    for label, found in ranked.items():
        for place in found:
            up = place.above
            lines.append([label, place.rank, place.backend, place.solved, place.puzzles,
                          place.both, place.ratio, place.low, place.high, place.p_value,
                          place.tied, up.a if up else "", up.ratio if up else math.nan,
                          up.low if up else math.nan, up.high if up else math.nan,
                          up.p_value if up else math.nan, up.verdict if up else ""])
    return pd.DataFrame(lines, columns=COLUMNS)


def from_frame(frame: pd.DataFrame) -> dict[str, list[Place]]:
    """ranking.csv read back as places (without the comparison to the one above)."""
    ranked: dict[str, list[Place]] = {}
    for line in frame.itertuples(index=False):
        place = Place(str(line.backend), int(line.rank), int(line.solved), int(line.puzzles),
                      float(line.ratio), float(line.ci_low), float(line.ci_high),
                      int(line.both), float(line.wilcoxon_p), bool(line.tied), len(
                          ranked.get(str(line[0]), [])) == 0)
        ranked.setdefault(str(line[0]), []).append(place)
    return ranked


def read_ranking(path: Path) -> dict[str, list[Place]]:
    """A ranking.csv read back (from_frame), names kept as written."""
    text = {"class": str, "backend": str, "above": str, "above_verdict": str}
    return from_frame(pd.read_csv(path, keep_default_na=False, na_values=[""], dtype=text))


def rule() -> str:
    """The scoring rule in one sentence, in the current language."""
    return _(RULE).format(level=f"{LEVEL:.0%}")


Noise = Callable[[Place], str]  # a note on a place that a noise warning touches, or ''
Name = Callable[[str], str]  # how a name from the runs is written (escaped for Markdown)


def place_text(place: Place, noise: Noise | None = None, name: Name = str) -> str:
    """'hybrid 1.24× [1.10, 1.41]': a backend and its time over the best's, with what to know
    (tied, fewer solved, a noise warning that touches it); `name` writes the backend's name."""
    notes = []
    backend = name(place.backend)
    if place.solved == 0:
        head = _("{backend}: none solved").format(backend=backend)
    elif place.best:
        head = _("{backend} 1 (fastest)").format(backend=backend)
    elif place.both == 0:
        head = _("{backend}: no puzzle solved by both it and the best").format(backend=backend)
    elif place.both == 1:  # one puzzle: no interval to speak of
        head = f"{backend} {ratio_text(place.ratio)}"
        if place.puzzles > 1:  # a class of one puzzle says so once
            notes.append(_("on 1 puzzle"))
    else:
        head = f"{backend} {ratio_text(place.ratio, place.low, place.high)}"
    if place.tied and place.solved:
        notes.append(_("tied"))
    if 0 < place.solved < place.puzzles:
        notes.append(_("{solved}/{puzzles} solved").format(solved=place.solved,
                                                           puzzles=place.puzzles))
    if noise is not None and not place.best and place.both and noise(place):
        notes.append(noise(place))
    return head + (f" ({'; '.join(notes)})" if notes else "")


def ratio_text(ratio: float, low: float = math.nan, high: float = math.nan) -> str:
    """'1.24× [1.10, 1.41]' for a slower one; '4.00× faster [3.50, 4.20]' for a ratio under
    1, so that N is 1 or more either way; no interval without `low`; '' for no ratio."""
    if ratio != ratio:
        return ""
    if ratio >= 1:
        return times(ratio) + ("" if low != low else f" {interval(low, high)}")
    span = "" if low != low else f" {interval(1 / high, 1 / low)}"
    return _("{ratio} faster{interval}").format(ratio=times(1 / ratio), interval=span)


def p_text(p_value: float) -> str:
    """A p-value to three significant digits, '< 0.001' below that; '' for none."""
    return "" if p_value != p_value else "< 0.001" if p_value < 0.001 else sig(p_value)


def headline_text(found: list[Place], noise: Noise | None = None, name: Name = str) -> str:
    """One class's ranking on one line, ' · ' between the places."""
    return " · ".join(place_text(place, noise, name) for place in found)


def class_text(label: str, found: list[Place], name: Name = str) -> str:
    """'examples (6 puzzles)': a class and its puzzles."""
    count = max((place.puzzles for place in found), default=0)
    return ngettext("{label} ({count} puzzle)", "{label} ({count} puzzles)", count).format(
        label=name(label), count=count)


def noise_marks(settings: Mapping[str, Any]) -> Noise | None:
    """The note that a bench's noise warnings put on a headline ratio: with the CPU time
    measured, a ratio within the calibration's CPU spread of 1; with the wall time, every ratio
    once a warning was given. None when no warning touches a ratio."""
    found = settings.get("calibration") or {}
    warned = bool(settings.get("warnings"))
    if settings.get("measure") == "wall" and warned:
        return lambda place: _("wall times on a busy machine: see the noise warnings")
    spread = found.get("cpu_spread") if isinstance(found, Mapping) else None
    if not warned or spread is None or float(spread) <= NOISY:
        return None
    share = float(spread)

    def mark(place: Place) -> str:
        if 1 / (1 + share) < place.ratio < 1 + share:
            return _("within the calibration's CPU spread of {share}: see the noise "
                     "warnings").format(share=f"{share:.0%}")
        return ""

    return mark


def markdown_lines(ranked: dict[str, list[Place]], noise: Noise | None = None) -> list[str]:
    """The headline in Markdown: a list item per class, then the scoring rule; names escaped."""
    if not ranked:
        return [_("No run finished: no ranking.")]
    items = [f"- **{class_text(label, found, md)}**: {headline_text(found, noise, md)}"
             for label, found in ranked.items()]
    return [*items, "", rule()]


def console_lines(ranked: dict[str, list[Place]], noise: Noise | None = None) -> list[str]:
    """The headline for the terminal: a line per class, then the scoring rule."""
    if not ranked:
        return [_("No run finished: no ranking.")]
    return [*(f"{class_text(label, found)}: {headline_text(found, noise)}"
              for label, found in ranked.items()), rule()]


def html_headline(ranked: dict[str, list[Place]], noise: Noise | None = None) -> str:
    """The headline as an HTML section (id 'headline'), every name escaped."""
    items = "".join(f"<li><b>{html.escape(class_text(label, found))}</b>: "
                    f"{html.escape(headline_text(found, noise))}</li>"
                    for label, found in ranked.items())
    body = (f"<ul>{items}</ul>\n<p class=\"note\">{html.escape(rule())}</p>" if ranked else
            f"<p>{html.escape(_('No run finished: no ranking.'))}</p>")
    return (f'<section id="headline"><h2>{html.escape(_("Answer"))}</h2>\n{body}'
            f"</section>")
