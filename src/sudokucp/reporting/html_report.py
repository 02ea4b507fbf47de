"""report.html: one self-contained page (styles, script and plots inside it, no network) with the
settings, the measurement warnings, the scores, the pairs of backends, the summary, the plots and
the per-instance table, its tables sortable and filterable by the small script in
templates/report.js."""

from __future__ import annotations

import base64
import html
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

import numpy as np
import pandas as pd

from sudokucp.i18n import _
from sudokucp.reporting.scores import UNSOLVED, VBS
from sudokucp.reporting.text import sig, spans
from sudokucp.stats import ANSWERED_WORDS


@dataclass
class Page:
    """What the page shows: tables, settings lines (markdown), plots, the notes below them."""

    settings: list[str]
    scores: pd.DataFrame
    summary: pd.DataFrame
    instances: pd.DataFrame
    cactus: Path | None = None
    scatter: Path | None = None  # the scatter matrix, or the pairs asked for
    disagreements: Sequence[str] = ()
    problems: Sequence[str] = ()
    notes: Mapping[str, str] = field(default_factory=dict)  # section: its explanation
    pairs: pd.DataFrame | None = None  # the paired comparisons; None: no such section
    warnings: Sequence[str] = ()  # the bench's measurement warnings, shown highlighted
    noise_note: str = ""  # said under "Measurement noise" when there is no warning
    headline: str = ""  # the answer first: the ranking per data set (ranking.html_headline)
    failures: str = ""  # the reasons of the error and crash runs (failures.html_section)
    runs: pd.DataFrame | None = None  # every run (results.csv); the page shows PAGE_RUNS


def _asset(name: str) -> str:
    folder = resources.files("sudokucp.reporting").joinpath("templates")
    return folder.joinpath(name).read_text(encoding="utf-8")


def render(page: Page, title: str | None = None) -> str:
    """The whole page as one string, its headings in the current language."""
    title = _("Comparison") if title is None else title
    body = [f"<h1>{html.escape(title)}</h1>", page.headline, _noise(page), page.failures,
            f"<h2>{html.escape(_('Settings'))}</h2>", _list(page.settings),
            _section(_("Scores"), "scores", page.scores, page.notes.get("scores", ""))]
    if page.pairs is not None:
        body.append(_section(_("Pairs of backends"), "pairs", page.pairs,
                             page.notes.get("pairs", ""), scroll=True))
    body += [_plots(page), _runs(page.runs),
             _section(_("Where the backends part ways"), "instances", page.instances,
                      page.notes.get("instances", ""), scroll=True),
             _section(_("Summary per backend and data set"), "summary", page.summary,
                      page.notes.get("summary", ""), scroll=True),
             f"<h2>{html.escape(_('Disagreements'))}</h2>", _list(page.disagreements or [
                 _("None: every claimed solution passed the checker and the backends agree.")])]
    if page.problems:
        body += [f"<h2>{html.escape(_('Skipped input'))}</h2>", _list(page.problems)]
    return Template(_asset("report.html")).substitute(
        title=html.escape(title), style=_asset("report.css"), body="\n".join(body),
        script=_asset("report.js"))


def _noise(page: Page) -> str:
    """The measurement warnings in a highlighted block; the note alone when there is none."""
    if page.warnings:
        return (f'<div class="warning" role="alert"><h2>{html.escape(_("Measurement noise"))}'
                '</h2>' + _list(page.warnings) + "</div>")
    if page.noise_note:
        return (f'<h2>{html.escape(_("Measurement noise"))}</h2>\n'
                f'<p class="note">{_inline(page.noise_note)}</p>')
    return ""


def _inline(text: str) -> str:
    """Markdown's `code` as <code>, everything else escaped."""
    return "".join(f"<code>{html.escape(part, quote=False)}</code>" if is_code
                   else html.escape(part, quote=False) for is_code, part in spans(text))


def _list(items: Sequence[str]) -> str:
    lines = (f"<li>{_inline(item.removeprefix('- '))}</li>" for item in items)
    return "<ul>\n" + "\n".join(lines) + "\n</ul>"


def _section(heading: str, ident: str, frame: pd.DataFrame, note: str,
             scroll: bool = False) -> str:
    parts = [f"<h2>{html.escape(heading)}</h2>"]
    if note:
        parts.append(f'<p class="note">{_inline(note)}</p>')
    if frame.empty:
        return "\n".join(parts + [f"<p>{html.escape(_('(none)'))}</p>"])
    parts.append(f'<div class="filter"><label>{html.escape(_("filter"))} <input '
                 f'type="search" data-filter="{ident}" placeholder='
                 f'"{html.escape(_("words that a row must hold"))}"></label> '
                 f'<span data-count="{ident}"></span></div>')
    table = table_html(frame, ident)
    parts.append(f'<div class="scroll">{table}</div>' if scroll else table)
    return "\n".join(parts)


def table_html(frame: pd.DataFrame, ident: str) -> str:
    """A table the script sorts and filters: numbers right-aligned, shown as summary.md shows
    them (three significant digits, no exponent) with their full value to sort by, unsolved
    statuses marked."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = []
    for values in frame.itertuples(index=False):
        mark = ' class="vbs"' if values[0] == VBS else ""
        rows.append(f"<tr{mark}>" + "".join(_td(v) for v in values) + "</tr>")
    return (f'<table class="data" id="{ident}"><thead><tr>{head}</tr></thead>\n<tbody>\n'
            + "\n".join(rows) + "\n</tbody></table>")


def _td(value: Any) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return "<td></td>"
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return f'<td class="num" data-sort="{int(value)}">{int(value)}</td>'
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        return f'<td class="num" data-sort="{float(value)!r}">{sig(float(value))}</td>'
    text = str(value)
    unsolved = ' class="unsolved"' if text in UNSOLVED else ""
    return f"<td{unsolved}>{html.escape(text)}</td>"


def data_uri(path: Path) -> str:
    """A PNG file as a data: URI."""
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _plots(page: Page) -> str:
    parts = [f"<h2>{html.escape(_('Plots'))}</h2>"]
    if page.cactus is not None and page.cactus.exists():
        parts.append(_figure(page.cactus, _("Cactus plot: puzzles solved against search time")))
    if page.scatter is not None and page.scatter.exists():
        parts.append(f'<p class="note">{_inline(page.notes.get("scatter", ""))}</p>')
        parts.append(_figure(page.scatter, _("Scatter plots: time per puzzle, backend against "
                                             "backend")))
    return "\n".join(parts)


def _figure(path: Path, caption: str) -> str:
    alt = html.escape(caption)
    return (f'<figure><img alt="{alt}" src="{data_uri(path)}">'
            f"<figcaption>{alt}</figcaption></figure>")


PAGE_RUNS = 1000  # runs the page's results table holds at most (results.csv holds every one)
RUN_COLUMNS = {"dataset": "dataset", "puzzle": "puzzle", "backend": "backend",
               "status": "status", "repeat": "repeat", "form": "form", "seconds": "time_ms",
               "cpu": "cpu_ms", "wall": "wall_ms", "rss_mb": "rss_mb", "error": "error"}
MS_COLUMNS = ("seconds", "cpu", "wall")


def page_runs(results: pd.DataFrame, cap: int | None = None) -> pd.DataFrame:
    """The runs the page's table shows, times in ms: every run when there are at most `cap`
    (PAGE_RUNS); else the runs that did not end solved or unsat first, then the slowest."""
    cap = PAGE_RUNS if cap is None else cap
    frame = results[[c for c in RUN_COLUMNS if c in results]]
    if len(frame) > cap:
        lost = ~frame["status"].isin(ANSWERED_WORDS)
        keys = pd.DataFrame({"lost": lost, "seconds": frame["seconds"].astype(float)})
        frame = frame.loc[keys.sort_values(["lost", "seconds"], ascending=False,
                                           kind="stable").index[:cap]]
    frame = frame.assign(**{c: pd.to_numeric(frame[c], errors="coerce") * 1000
                            for c in MS_COLUMNS if c in frame})
    return frame.rename(columns=RUN_COLUMNS)


def _runs(results: pd.DataFrame | None) -> str:
    """The results table: a line per run, at most PAGE_RUNS of them, and how many it shows."""
    if results is None:
        return ""
    shown = page_runs(results)
    note = _("A line per run, times in milliseconds (`time_ms`: the time the tables rank by).")
    if len(shown) < len(results):
        note += " " + _("The page shows {shown} of the {total} runs: those that did not end "
                        "solved or unsat first, then the slowest; `results.csv` holds every "
                        "one.").format(shown=f"{len(shown):,}", total=f"{len(results):,}")
    return _section(_("Results"), "runs", shown, note, scroll=True)
