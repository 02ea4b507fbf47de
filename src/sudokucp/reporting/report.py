"""Tables and pictures from result rows: results.csv, summary.csv, scores.csv, pairs.csv,
instances.csv, ranking.csv, cactus.png, scatter.png, summary.md and report.html; summary.md and
report.html open with the answer, the backends ranked per data set (sudokucp.reporting.ranking).

results.csv holds every run; the other tables and the plots take each puzzle once, as its median
over its repeats (sudokucp.stats.per_puzzle_medians).

Every file is written under a temporary name and renamed (sudokucp.io.files), so a reader never sees
half of one.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from operator import itemgetter, methodcaller
from pathlib import Path
from typing import Any

import pandas as pd

from sudokucp.i18n import N_, _
from sudokucp.io.files import atomic_write, write_text
from sudokucp.reporting import failures as failed_runs
from sudokucp.reporting.failures import Failure, failures
from sudokucp.reporting.forms import forms_frame, forms_markdown
from sudokucp.reporting.html_report import Page, render
from sudokucp.reporting.plots import (
    SCATTER_FILE,
    cactus,
    cactus_figure,
    remove_old_scatters,
    scatter_plot,
    shape_of,
)
from sudokucp.reporting.ranking import (
    Place,
    backend_order,
    html_headline,
    markdown_lines,
    noise_marks,
    p_text,
    ranking_frame,
    rankings,
    ratio_text,
)
from sudokucp.reporting.results_csv import write_results_csv
from sudokucp.reporting.scores import (
    FLOOR_MS,
    PENALTY,
    SPREAD,
    instances_frame,
    pairs_frame,
    scores_frame,
)
from sudokucp.reporting.settings import noise_of, settings_lines, stamped
from sudokucp.reporting.text import md, md_line, sig
from sudokucp.result import ANSWERED, Row, Status
from sudokucp.stats import (
    ALPHA,
    LEVEL,
    MIN_PAIRED,
    SAME,
    TIE,
    bootstrap_ci,
    one_line_per_puzzle,
    per_puzzle_medians,
    percentile,
)

__all__ = ["cactus_figure", "failures", "markdown", "rankings", "results_frame",
           "settings_lines", "shape_of", "summary_frame", "write_reports"]

COUNTED = {"solved": Status.SOLVED, "unsat": Status.UNSAT, "timeouts": Status.TIMEOUT,
           "unknown": Status.UNKNOWN, "errors": Status.ERROR, "crashes": Status.CRASH,
           "memouts": Status.MEMOUT, "wrong": Status.WRONG}  # summary column: puzzles that ended so
RESULT_COLUMNS = list(Row.columns())


def results_frame(rows: Sequence[Row]) -> pd.DataFrame:
    """One line per run; stats become columns named after them (nodes, guesses, ...). Built a
    column at a time (Row.record's cells) from the rows' own fields, not a dict per row."""
    fields = [vars(row) for row in rows]
    columns: dict[str, list[Any]] = {}
    for column, name, item in ROW_CELLS:
        values = list(map(itemgetter(name), fields))
        columns[column] = list(map(methodcaller("get", item), values)) if item else values
    columns["status"] = list(map(STATUS_WORDS.__getitem__, map(itemgetter("status"), fields)))
    stats = list(map(itemgetter("stats"), fields))
    extra = sorted(set().union(*stats) - set(RESULT_COLUMNS))
    for stat in extra:
        columns[stat] = list(map(methodcaller("get", stat, math.nan), stats))
    frame = pd.DataFrame(columns, columns=RESULT_COLUMNS + extra)
    return frame.sort_values(["dataset", "puzzle", "backend"], kind="stable", ignore_index=True)


STATUS_WORDS = {status: status.value for status in Status}
ROW_CELLS = [(f.metadata["column"] or f.name, f.name, f.metadata["item"])
             for f in dataclasses.fields(Row) if "column" in f.metadata]  # as Row.record


def summary_frame(results: pd.DataFrame) -> pd.DataFrame:
    """Per backend x dataset over each puzzle's median over its repeats: puzzles, runs, outcome
    counts of puzzles, then milliseconds (the median with its bootstrap interval) and search
    size (medians, whole numbers) over the answered puzzles."""
    lines = []
    puzzles = one_line_per_puzzle(results)
    for (backend, dataset), group in puzzles.groupby(["backend", "dataset"], sort=True):
        runs = int(group["runs"].sum()) if "runs" in group else len(group)
        line: dict[str, Any] = {"backend": backend, "dataset": dataset, "puzzles": len(group),
                                "runs": runs}
        line |= {name: int((group["status"] == status.value).sum())
                 for name, status in COUNTED.items()}
        answered = group[group["status"].isin([status.value for status in ANSWERED])]
        ms = answered["seconds"].astype(float).to_numpy() * 1000
        low, high = bootstrap_ci(ms)
        line |= {"median_ms": percentile(ms, 50), "ci_low_ms": low, "ci_high_ms": high,
                 "mean_ms": ms.mean() if ms.size else float("nan"),
                 "p90_ms": percentile(ms, 90), "max_ms": ms.max() if ms.size else float("nan")}
        for stat in ("nodes", "guesses"):
            values = answered[stat] if stat in answered else pd.Series(dtype=float)
            median = values.astype(float).median()
            line[f"median_{stat}"] = pd.NA if pd.isna(median) else round(median)
        lines.append(line)
    frame = pd.DataFrame(lines, columns=SUMMARY_COLUMNS)
    counts = [c for c in frame.columns if c.startswith("median_") and not c.endswith("_ms")]
    return frame.astype({c: "Int64" for c in counts})


SUMMARY_COLUMNS = ["backend", "dataset", "puzzles", "runs", *COUNTED, "median_ms", "ci_low_ms",
                   "ci_high_ms", "mean_ms", "p90_ms", "max_ms", "median_nodes",
                   "median_guesses"]  # summary.csv's columns, a header alone when no run ended


PER_PUZZLE = N_("Each puzzle counts once: with repeats, as its median over them (answered "
                "when more than half of its runs answered).")
NOTES = {  # what each table holds, in summary.md and report.html alike: notes() fills them in
    "scores": N_("Solved: SOLVED or UNSAT, verified and not contradicted. Unsolved: every other "
                 "status (timeout, unknown, error, wrong, crash, memout), counted per status. "
                 "`par2_ms`: PAR-2, the mean milliseconds per puzzle where an unsolved run "
                 "counts {penalty} x its time limit. `fastest`: puzzles on which the backend "
                 "was the quickest to solve; `only`: puzzles no other backend solved. The "
                 "virtual best solver takes, puzzle by puzzle, the quickest backend's time. "
                 "{per_puzzle}"),
    "pairs": N_("Each backend against the best of its class and against the one ranked just "
                "above it, over the puzzles both solved: its time over theirs, the geometric "
                "mean of the per-puzzle ratios with its {level} bootstrap interval (\"N× "
                "faster\" when it is the quicker one), and the two-sided p-value of the "
                "Wilcoxon signed-rank test on the log ratios. A verdict names the faster "
                "backend only when the interval leaves out 1 and p is under {alpha} (with "
                "{min_paired} puzzles or more); \"{same}\" is no ranking. `pairs.csv` holds "
                "every pair: `a` is `ratio` times slower than `b`. {per_puzzle}"),
    "instances": N_("Puzzles on which the backends' statuses differ, or their solve times "
                    "differ by more than {spread}x (`ratio`: slowest over quickest solve, times "
                    "under {floor} ms counted as {floor} ms). Per backend: the milliseconds of "
                    "a solved puzzle, or the status of an unsolved one. {per_puzzle}"),
    "summary": N_("Times (`*_ms`) are milliseconds of search per puzzle over the puzzles that "
                  "ended SOLVED or UNSAT; `ci_low_ms` / `ci_high_ms`: the {level} bootstrap "
                  "interval of `median_ms`; `p90_ms`: the 90th percentile (linear "
                  "interpolation); `median_nodes` / `median_guesses` are counts from the "
                  "backends' own stats, rounded to whole numbers; `runs` counts every run, "
                  "repeats included, the other columns count puzzles. {per_puzzle}"),
    "scatter": N_("Each point is one puzzle: the first backend's time (x) against the "
                  "second's (y), in milliseconds on log scales. Unsolved runs sit on the "
                  "border, at twice the time limit (their PAR-2 time); the dashed lines mark "
                  "the limit, the solid line equal times, the dotted lines 10x either way."),
}
NO_RUN = N_("No run finished: the tables hold their headers alone, and there is no plot.")
NO_WARNING = N_("No warning: the bench's noise checks (the machine's load, the calibration "
                "loop) found nothing to report.")
AGREED = N_("None: every claimed solution passed the checker and the backends agree.")


def notes() -> dict[str, str]:
    """What each table holds, in the current language, its thresholds filled in."""
    values = {"penalty": PENALTY, "level": f"{LEVEL:.0%}", "tie": f"{TIE:g}", "alpha": ALPHA,
              "min_paired": MIN_PAIRED, "same": SAME, "spread": f"{SPREAD:g}",
              "floor": f"{FLOOR_MS:g}", "per_puzzle": _(PER_PUZZLE)}
    return {key: _(text).format(**values) for key, text in NOTES.items()}


SHOWN_INSTANCES = 20  # rows of the instance table in summary.md (all of them in the CSV)
PAGE_INSTANCES = 5000  # rows of the instance table in report.html, at most


def markdown(summary: pd.DataFrame, disagreements: Sequence[Any], settings: Mapping[str, Any],
             problems: Sequence[str] = (), *, scores: pd.DataFrame | None = None,
             instances: pd.DataFrame | None = None, scatters: Sequence[str] = (),
             pairs: pd.DataFrame | None = None, forms: pd.DataFrame | None = None,
             ranked: Mapping[str, list[Place]] | None = None,
             failed: Sequence[Failure] = ()) -> str:
    """A short summary: the answer (the ranking per data set and its rule), measurement noise,
    errors and crashes, settings, scores, the pairs that matter (every pair without a
    ranking), the table, the plots, where the backends part ways, disagreements; in the
    current language, every name from the runs escaped."""
    told = notes()
    parts = [f"# {_('Comparison')}", ""]
    if ranked is not None:
        parts += [f"## {_('Answer')}", "", *markdown_lines(dict(ranked), noise_marks(settings)),
                  ""]
    warnings, calibrated = noise_of(settings)
    if warnings or calibrated:
        parts += [f"## {_('Measurement noise')}", "",
                  *([f"- {md_line(w)}" for w in warnings] or [_(NO_WARNING)]), ""]
    parts += failed_runs.markdown_lines(list(failed))
    parts += [f"## {_('Settings')}", "", *(md_line(line) for line in settings_lines(settings)),
              ""]
    if scores is not None:
        parts += [f"## {_('Scores')}", "", markdown_table(scores), "", told["scores"], ""]
    if ranked:
        parts += [f"## {_('Pairs that matter')}", "",
                  markdown_table(pairs_that_matter(ranked), escaped=True), "", told["pairs"], ""]
    elif pairs is not None:
        parts += [f"## {_('Pairs of backends')}", "", markdown_table(pairs), "", told["pairs"],
                  ""]
    if forms is not None and not forms.empty:
        parts += [*forms_markdown(forms, markdown_table(forms))[1:], ""]
    if scores is not None or pairs is not None:
        parts += [f"## {_('Summary per backend and data set')}", ""]
    parts += [markdown_table(summary), "", told["summary"], "",
              f"![{_('cactus plot')}](cactus.png)" if not summary.empty else _(NO_RUN), ""]
    if scatters:
        parts += [told["scatter"], "", *(f"![{_('scatter plots')}]({name})" for name in scatters),
                  ""]
    if instances is not None:
        parts += _instances_part(instances, told["instances"])
    parts += [f"## {_('Disagreements')}", ""]
    parts += [f"- {md(d.puzzle)} ({md(d.hash)}): {md(d.message)}" for d in disagreements] or [
        _(AGREED)]
    if problems:
        parts += ["", f"## {_('Skipped input')}", "", *(f"- {md(p)}" for p in problems)]
    return "\n".join(parts) + "\n"


PAIR_HEADS = ["class", "rank", "backend", "solved", "vs_best", "p", "verdict", "above",
              "vs_above", "p_above", "verdict_above"]  # the pairs that matter, column by column


def pairs_that_matter(ranked: Mapping[str, list[Place]]) -> pd.DataFrame:
    """Per class and backend in ranking order: its time over the best's and over the one's
    ranked just above it, each with its interval, p-value and verdict, as Markdown text."""
    lines = []
    for label, found in ranked.items():
        for place in found:
            up = place.above
            best = (_("1 (the best)") if place.best else
                    ratio_text(place.ratio, *((place.low, place.high) if place.both > 1
                                              else ())))
            lines.append([md(label), place.rank, md(place.backend),
                          f"{place.solved}/{place.puzzles}", best, p_text(place.p_value),
                          md(place.verdict), md(up.a) if up else "",
                          ratio_text(up.ratio, *((up.low, up.high) if up.n > 1 else ()))
                          if up else "",
                          p_text(up.p_value) if up else "", md(up.verdict) if up else ""])
    return pd.DataFrame(lines, columns=PAIR_HEADS)


def _instances_part(instances: pd.DataFrame, note: str) -> list[str]:
    heading = f"## {_('Where the backends part ways')}"
    if instances.empty:
        return [heading, "", note, "", _("None."), ""]
    shown = instances.sort_values("ratio", ascending=False, kind="stable").head(SHOWN_INSTANCES)
    more = (_("; the {count} with the largest ratios below, every one in `instances.csv` and "
              "`report.html`").format(count=len(shown)) if len(instances) > len(shown) else "")
    return [heading, "", note, "",
            _("{count} puzzles{more}.").format(count=len(instances), more=more), "",
            markdown_table(shown.drop(columns="hash")), ""]


def markdown_table(frame: pd.DataFrame, escaped: bool = False) -> str:
    """A GitHub table; floats with three significant digits and no exponent, missing values
    blank, names escaped (unless the cells are Markdown already: `escaped`)."""
    if frame.empty:
        return _("(no runs)")
    head = "| " + " | ".join(md(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(_cell(v, escaped) for v in row) + " |"
            for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def _cell(value: Any, escaped: bool = False) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float):
        return sig(value)
    return str(value) if escaped else md(value)


def write_reports(rows: Sequence[Row], disagreements: Sequence[Any], out: Path,
                  settings: Mapping[str, Any], problems: Sequence[str] = (),
                  scatter: Sequence[tuple[str, str]] | None = None) -> list[Path]:
    """results.csv (every run), then from each puzzle's median over its repeats summary.csv,
    scores.csv, pairs.csv, instances.csv, ranking.csv, cactus.png, scatter.png (the pairs
    `scatter`, else the scatter matrix of the first backends), summary.md and report.html in
    `out`, and forms.csv after isomorphs; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    settings = stamped(settings)
    results = results_frame(rows)
    empty = results.empty
    puzzles = per_puzzle_medians(results)
    tables = [frame(puzzles) for frame in (summary_frame, scores_frame, pairs_frame,
                                           instances_frame)]
    if empty:  # headers alone (scores would hold a virtual best of no puzzle)
        tables = [table.iloc[:0] for table in tables]
    summary, scores, pairs, instances = tables
    ranked = rankings(puzzles, pairs)
    failed = failures(zip(results["backend"], results["status"], results["error"]))
    paths = [out / name for name in ("results.csv", "summary.csv", "scores.csv", "pairs.csv",
                                     "instances.csv", "cactus.png", SCATTER_FILE, "summary.md",
                                     "report.html")]
    atomic_write(paths[0], lambda tmp: write_results_csv(results, tmp))  # full precision
    for path, frame in zip(paths[1:5], tables):
        _csv(frame, path)
    _csv(ranking_frame(ranked), out / "ranking.csv")
    plots = _plots(puzzles, paths[5], paths[6], settings.get("timeout"), scatter)
    names = [plots.name] if plots else []
    forms = forms_frame(results)
    if not forms.empty:
        paths.append(out / "forms.csv")
        _csv(forms, paths[-1])
    write_text(paths[7], markdown(summary, disagreements, settings, problems, scores=scores,
                                  instances=instances, scatters=names, pairs=pairs, forms=forms,
                                  ranked=ranked, failed=failed))
    lines = [f"- {d.puzzle} ({d.hash}): {d.message}" for d in disagreements]
    warnings, calibrated = noise_of(settings)
    told = notes()
    page = Page(settings_lines(settings), scores, summary, page_instances(instances),
                paths[5] if not empty else None, plots, lines, list(problems),
                told | {"instances": told["instances"] + _cut_note(instances)}, pairs=pairs,
                warnings=warnings, noise_note=_(NO_WARNING) if calibrated else "",
                headline=html_headline(ranked, noise_marks(settings)),
                failures=failed_runs.html_section(failed), runs=results)
    write_text(paths[8], render(page))
    paths.append(out / "ranking.csv")
    return [p for p in paths if p.is_file()]


def _plots(puzzles: pd.DataFrame, cactus_path: Path, scatter_path: Path, timeout: float | None,
           scatter: Sequence[tuple[str, str]] | None) -> Path | None:
    """The cactus plot and the scatter plot (its path, None when not drawn), their legends in
    the order of the ranking; with no run, neither (an earlier bench's removed). Earlier
    versions' scatter/ folder is removed."""
    remove_old_scatters(cactus_path.parent)
    if puzzles.empty:
        cactus_path.unlink(missing_ok=True)
        scatter_path.unlink(missing_ok=True)
        return None
    order = backend_order(puzzles)
    cactus(puzzles, cactus_path, timeout, order)
    return scatter_plot(puzzles, scatter_path, timeout, scatter, order)


def page_instances(instances: pd.DataFrame) -> pd.DataFrame:
    """The instance table as the page shows it: at most PAGE_INSTANCES rows, those whose statuses
    differ first, then the largest ratios (a page of a hundred thousand rows would not open)."""
    if len(instances) <= PAGE_INSTANCES:
        return instances
    order = instances.assign(_status=instances["reason"].str.startswith("status"))
    order = order.sort_values(["_status", "ratio"], ascending=False, kind="stable")
    return order.drop(columns="_status").head(PAGE_INSTANCES)


def _cut_note(instances: pd.DataFrame) -> str:
    if len(instances) <= PAGE_INSTANCES:
        return ""
    return " " + _("The page shows {shown} of the {count} puzzles (status differences first, "
                   "then the largest ratios); `instances.csv` has every one.").format(
        shown=PAGE_INSTANCES, count=len(instances))


def _csv(frame: pd.DataFrame, path: Path) -> None:
    atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False, float_format="%.6g"))
