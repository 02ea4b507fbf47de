"""The notebook's API: compare backends, explain a grid, replay a search, climb the ladder.

`compare` runs `sudoku-cp bench`'s path (sudokucp.harness.bench: killable workers with hard
limits, every answer checked, the backends cross-validated, calibration points among the runs)
and gives the tables of its report (sudokucp.reporting) as pandas frames, its plots as matplotlib
figures and the bench's summary; what it returns shows itself in Jupyter. `explain` gives the
logic engine's steps with the grid after each, `trace` the replay page of one search, `ladder`
the propagation ladder, `draw` a grid with the digits a backend found in another colour.
What compare and ladder read (backends, puzzles) is in api/inputs.py; draw, explain, trace and
solve in api/grids.py; their names are importable from here.
"""

from __future__ import annotations

import dataclasses
import html
import re
import tempfile
import warnings
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from sudokucp.api.grids import (
    STEP_CELL,
    Drawing,
    Explanation,
    Trace,
    as_puzzle,
    draw,
    explain,
    explanation_html,
    solve,
    trace,
)
from sudokucp.api.inputs import (
    GRIDS,
    MAX_PATH,
    BackendsLike,
    PuzzlesLike,
    backend_specs,
    puzzle_sets,
    sources,
    write_grids,
)
from sudokucp.harness.bench import BenchConfig, BenchOutcome, bench
from sudokucp.i18n import _, ngettext
from sudokucp.io import arguments
from sudokucp.io.arguments import LIMITS, MEASURES
from sudokucp.reporting.bench_report import summary_settings, write_tables
from sudokucp.reporting.failures import Failure, failures, html_section
from sudokucp.reporting.plots import _pyplot, cactus_figure, scatter_figure
from sudokucp.reporting.ranking import Place, html_headline, noise_marks, rankings
from sudokucp.reporting.report import (
    markdown,
    noise_of,
    results_frame,
    settings_lines,
    summary_frame,
)
from sudokucp.reporting.scores import instances_frame, pairs_frame, scores_frame
from sudokucp.reporting.text import sig
from sudokucp.result import Row
from sudokucp.stats import per_puzzle_medians
from sudokucp.teaching import ladder as laddering

__all__ = [  # what api/inputs.py and api/grids.py hold, still importable from here
    "GRIDS", "MAX_PATH", "STEP_CELL", "BackendsLike", "Comparison", "Drawing", "Explanation",
    "Ladder", "PuzzlesLike", "Trace", "as_puzzle", "backend_specs", "compare",
    "comparison_html", "draw", "explain", "explanation_html", "ladder", "puzzle_sets", "solve",
    "sources", "trace", "write_grids",
]


# --- compare ----------------------------------------------------------------------------------

def compare(backends: BackendsLike, puzzles: PuzzlesLike, *, timeout: float | None = 10.0,
            repeat: int = 1, jobs: int = 1, limit: int = 1, max_puzzles: int | None = None,
            seed: int | None = None, memory_mb: int | None = 4096, measure: str = "cpu",
            cpu_limit: float | None = None, out: str | Path | None = None,
            progress: bool = True, name: str = GRIDS) -> Comparison:
    """Run every backend on every puzzle as `sudoku-cp bench` does: each run in a worker process
    killed at `timeout` seconds (wall) or `cpu_limit` CPU seconds, every answer checked, the
    backends cross-validated. `puzzles`: a data set's name, a file, grids as text or Puzzles (or
    a list of those; the grids and Puzzles form one set, `name`). `out`: a folder keeping
    results.jsonl and, with .html(), every table (by default a temporary one). A bar shows the
    progress (tqdm's, in a notebook its widget)."""
    timeout = None if timeout is None else arguments.seconds(timeout)
    cpu_limit = None if cpu_limit is None else arguments.seconds(cpu_limit)
    memory_mb = None if memory_mb is None else arguments.memory(memory_mb)
    max_puzzles = None if max_puzzles is None else arguments.count(max_puzzles)
    seed = None if seed is None else arguments.whole(seed)
    repeat, jobs = arguments.repeat(repeat), arguments.count(jobs)
    limit, measure = arguments.choice(limit, LIMITS), arguments.choice(measure, MEASURES)
    keep = None if out is not None else tempfile.TemporaryDirectory(prefix="sudokucp-")
    folder = Path(out if out is not None else keep.name)
    folder.mkdir(parents=True, exist_ok=True)
    specs = backend_specs(backends)
    files, grids = sources(puzzles)
    if grids:
        files.append(str(write_grids(grids, folder, name)))
    config = BenchConfig(backends=specs, puzzles=files, out=folder, limit=limit,
                         timeout=timeout, jobs=jobs, seed=seed, memory_mb=memory_mb,
                         max_puzzles=max_puzzles, repeat=repeat, measure=measure,
                         cpu_limit=cpu_limit)
    bar = Bar(progress)
    try:
        outcome = bench(config, on_row=bar.update, on_plan=bar.start)
    finally:
        bar.close()
    names = {p.digest: p.name for p in grids if p.name}
    return Comparison(outcome, config, folder, keep, names)


class Bar:
    """A progress bar over the runs: tqdm's (tqdm.auto: a widget in a notebook that has
    ipywidgets, text elsewhere); none when tqdm is missing or `shown` is False."""

    def __init__(self, shown: bool) -> None:
        self.shown, self.bar = shown, None

    def start(self, total: int) -> None:
        if not self.shown:
            return
        try:
            from tqdm import TqdmWarning
            with warnings.catch_warnings():  # no ipywidgets: the text bar, without a warning
                warnings.simplefilter("ignore", TqdmWarning)
                from tqdm.auto import tqdm
                self.bar = tqdm(total=total, desc=_("runs"), unit=_("run"), mininterval=1.0)
        except ImportError:
            self.bar = None

    def update(self, row: Row) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(f"{row.backend}: {row.status.value}", refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@dataclasses.dataclass(eq=False)
class Comparison:
    """What `compare` found: every run (`rows`, `frame`), the bench's tables (`summary`,
    `scores`, `pairs`, `instances`), the disagreements, the measurement's warnings, the plots
    (`cactus()`, `scatter(a, b)`), the bench's summary (`markdown()`) and report (`html()`)."""

    outcome: BenchOutcome
    config: BenchConfig
    folder: Path
    _keep: Any = None  # the temporary folder, removed with this object
    names: dict[str, str] = dataclasses.field(default_factory=dict)  # digest: a Puzzle's name

    @cached_property
    def rows(self) -> list[Row]:
        """Every run, verified and cross-validated, the names of the Puzzles given kept."""
        return [dataclasses.replace(r, puzzle=self.names[r.hash]) if r.hash in self.names
                else r for r in self.outcome.rows]

    @property
    def disagreements(self) -> list[Any]:
        return self.outcome.disagreements

    @property
    def warnings(self) -> list[str]:
        """The measurement's noise warnings: what in these figures to distrust."""
        return noise_of(self.outcome.measurement)[0]

    @property
    def backends(self) -> list[str]:
        return list(dict.fromkeys(r.backend for r in self.rows))

    @cached_property
    def frame(self) -> pd.DataFrame:
        """One line per run: results.csv as a frame (stats as columns: nodes, guesses, ...)."""
        return results_frame(self.rows)

    @cached_property
    def per_puzzle(self) -> pd.DataFrame:
        """One line per backend and puzzle: the median over its repeats."""
        return per_puzzle_medians(self.frame)

    @cached_property
    def summary(self) -> pd.DataFrame:
        """Per backend and data set: counts by status, median ms with its bootstrap interval,
        percentiles, median nodes and guesses (summary.csv)."""
        return summary_frame(self.per_puzzle)

    @cached_property
    def scores(self) -> pd.DataFrame:
        """Solved counts, PAR-2, fastest and only-solver counts, the virtual best (scores.csv)."""
        return scores_frame(self.per_puzzle) if not self.frame.empty else pd.DataFrame()

    @cached_property
    def pairs(self) -> pd.DataFrame:
        """Every pair of backends: time ratio with its interval, Wilcoxon p, verdict."""
        return pairs_frame(self.per_puzzle) if not self.frame.empty else pd.DataFrame()

    @cached_property
    def ranking(self) -> dict[str, list[Place]]:
        """The answer: per data set (and shape), the backends ranked by puzzles solved, then by
        their time over the best's, ties with the best marked (ranking.csv)."""
        return rankings(self.per_puzzle)

    @cached_property
    def failed(self) -> list[Failure]:
        """The error and crash runs' reasons, grouped and counted per backend."""
        return failures((r.backend, r.status, r.error) for r in self.rows)

    @cached_property
    def instances(self) -> pd.DataFrame:
        """The puzzles on which the backends part ways (instances.csv)."""
        return instances_frame(self.per_puzzle) if not self.frame.empty else pd.DataFrame()

    def cactus(self) -> Any:
        """The cactus plot: puzzles solved against search time, one line per backend."""
        return _kept(cactus_figure(self.per_puzzle, self.config.timeout))

    def scatter(self, a: str, b: str) -> Any:
        """`a`'s time against `b`'s, puzzle by puzzle (log-log), unsolved on the border."""
        for label in (a, b):
            if label not in self.backends:
                raise ValueError(_("no backend {label!r} in this comparison; its backends: "
                                   "{labels}").format(label=label,
                                                      labels=", ".join(self.backends)))
        return _kept(scatter_figure(self.per_puzzle, a, b, self.config.timeout))

    def markdown(self) -> str:
        """The bench's summary (summary.md), in the current language."""
        return markdown(self.summary, self.disagreements, summary_settings(self.outcome),
                        self.outcome.problems, scores=self.scores, instances=self.instances,
                        pairs=self.pairs, ranked=self.ranking, failed=self.failed)

    def html(self) -> str:
        """The bench's self-contained report page (report.html), its files written in
        `folder` (every table as CSV, the plots as PNG)."""
        named = dataclasses.replace(self.outcome, rows=self.rows)
        write_tables(named, self.folder)
        return (self.folder / "report.html").read_text(encoding="utf-8")

    def __repr__(self) -> str:
        return (f"Comparison({len(self.backends)} backends, {len(self.rows)} runs, "
                f"{len(self.disagreements)} disagreements, folder={str(self.folder)!r})")

    def _repr_html_(self) -> str:
        return comparison_html(self)


def _kept(fig: Any) -> Any:
    """A figure let go by pyplot (shown once in a notebook, as the value of its cell)."""
    _pyplot().close(fig)
    return fig


SHOWN_PAIRS = 12  # pairs of backends a notebook shows (every one in .pairs)


def comparison_html(c: Comparison) -> str:
    """The comparison as a notebook shows it: the answer (the ranking per data set), warnings,
    errors, scores, pairs, summary, disagreements, the settings folded away."""
    runs = len(c.rows)
    puzzles = len({r.hash for r in c.rows})
    head = ngettext("{count} run of {backends} on {puzzles} puzzles",
                    "{count} runs of {backends} on {puzzles} puzzles", runs).format(
        count=runs, backends=", ".join(c.backends), puzzles=puzzles)
    parts = [f"<h3>{html.escape(_('Comparison'))}</h3>",
             html_headline(c.ranking, noise_marks(c.outcome.settings)),
             f"<p>{html.escape(head)}</p>"]
    if c.outcome.interrupted:
        parts.append(f"<p><b>{html.escape(_('Interrupted: the tables hold the runs done.'))}"
                     f"</b></p>")
    if c.warnings:
        items = "".join(f"<li>{_inline(w)}</li>" for w in c.warnings)
        parts.append(f'<div class="warning" style="border-left:4px solid #c62828;'
                     f'padding-left:0.6em"><b>{html.escape(_("Measurement noise"))}</b>'
                     f"<ul>{items}</ul></div>")
    parts.append(html_section(c.failed))
    parts += [f"<h4>{html.escape(_('Scores'))}</h4>", _table(c.scores),
              f"<h4>{html.escape(_('Pairs of backends'))}</h4>", _table(c.pairs.head(SHOWN_PAIRS))]
    if len(c.pairs) > SHOWN_PAIRS:
        parts.append("<p>" + html.escape(_("The first {shown} of {count} pairs: .pairs holds "
                                           "them all.").format(shown=SHOWN_PAIRS,
                                                               count=len(c.pairs))) + "</p>")
    parts += [f"<h4>{html.escape(_('Summary per backend and data set'))}</h4>",
              _table(c.summary)]
    parts.append(f"<h4>{html.escape(_('Disagreements'))}</h4>")
    lines = [f"{d.puzzle} ({d.hash}): {d.message}" for d in c.disagreements] or [
        _("None: every claimed solution passed the checker and the backends agree.")]
    parts.append("<ul>" + "".join(f"<li>{html.escape(x)}</li>" for x in lines) + "</ul>")
    settings = settings_lines(summary_settings(c.outcome))
    items = "".join(f"<li>{_inline(x.removeprefix('- '))}</li>" for x in settings)
    parts.append(f"<details><summary>{html.escape(_('Settings and machine'))}</summary>"
                 f"<ul>{items}</ul></details>")
    return '<div class="sudokucp-comparison">' + "\n".join(parts) + "</div>"


def _inline(text: str) -> str:
    """Markdown's `code` as <code>, the rest escaped."""
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", html.escape(text, quote=False))


def _table(frame: pd.DataFrame) -> str:
    if frame.empty:
        return f"<p>{html.escape(_('(none)'))}</p>"
    return frame.to_html(index=False, classes="sudokucp-table", na_rep="", border=0,
                         float_format=sig)

# --- the ladder -------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Ladder:
    """The propagation ladder's runs and table; a notebook shows the table and the plot."""

    runs: list[laddering.Run]
    rungs: list[Any]
    timeout: float

    @property
    def table(self) -> pd.DataFrame:
        """One line per grid set and rung (ladder.csv)."""
        return pd.DataFrame(laddering.table(self.runs, self.rungs))

    def markdown(self) -> str:
        return laddering.markdown(laddering.table(self.runs, self.rungs), self.timeout)

    def plot(self) -> Any:
        """Median nodes and milliseconds per rung, log scales."""
        return _kept(laddering.figure(laddering.table(self.runs, self.rungs), self.rungs))

    def _repr_markdown_(self) -> str:
        return self.markdown()


def ladder(puzzles: PuzzlesLike, *, timeout: float = 2.0, rungs: str | None = None,
           jobs: int = 1, max_puzzles: int | None = None, name: str = GRIDS,
           done: Callable[[laddering.Run], None] | None = None) -> Ladder:
    """Every rung of the ladder (or those named, 'none,fc,fc+mrv') on every puzzle, each run in
    a killable worker with `timeout` seconds; grids and Puzzles given one by one form the set
    `name`."""
    timeout, jobs = arguments.seconds(timeout), arguments.count(jobs)
    max_puzzles = None if max_puzzles is None else arguments.count(max_puzzles)
    chosen = laddering.pick_rungs(rungs)
    sets = puzzle_sets(puzzles, max_puzzles, name)
    return Ladder(laddering.climb(sets, chosen, timeout, jobs, done), chosen, timeout)
