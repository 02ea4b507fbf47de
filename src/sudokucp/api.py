"""The notebook's API: compare backends, explain a grid, replay a search, climb the ladder.

`compare` runs `sudoku-cp bench`'s path (sudokucp.harness.bench: killable workers with hard
limits, every answer checked, the backends cross-validated, calibration points among the runs)
and gives the tables of its report (sudokucp.reporting) as pandas frames, its plots as matplotlib
figures and the bench's summary; what it returns shows itself in Jupyter. `explain` gives the
logic engine's steps with the grid after each, `trace` the replay page of one search, `ladder`
the propagation ladder, `draw` a grid with the digits a backend found in another colour.
"""

from __future__ import annotations

import dataclasses
import html
import re
import tempfile
import warnings
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from numbers import Integral
from pathlib import Path
from typing import Any

import pandas as pd

from sudokucp.backends import Backend, spec_name, split_specs
from sudokucp.display import cell_pixels, figure, grid_svg, puzzle_caption
from sudokucp.engine.propagation import eliminate, place, start
from sudokucp.harness import BenchConfig, BenchOutcome, bench
from sudokucp.i18n import _, ngettext
from sudokucp.io import arguments
from sudokucp.io.arguments import LIMITS, MEASURES, ArgumentError
from sudokucp.io.formats import parse_many
from sudokucp.io.variants import to_text
from sudokucp.puzzle import Grid, Puzzle, PuzzleError, Shape, cell_name
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
from sudokucp.result import Result, Row
from sudokucp.runplan import load_dataset
from sudokucp.stats import per_puzzle_medians
from sudokucp.teaching import explain as explaining
from sudokucp.teaching import ladder as laddering
from sudokucp.teaching import replay
from sudokucp.teaching import trace as tracing

PuzzlesLike = str | Path | Puzzle | Iterable[str | Path | Puzzle]
BackendsLike = str | type[Backend] | Iterable[str | type[Backend]]
GRIDS = "puzzles"  # the set that grids given one by one form (their file's stem)
MAX_PATH = 4096  # characters: a longer text is no path (the kernel's PATH_MAX)


# --- what compare reads: backends and puzzles ----------------------------------------------------

def backend_specs(backends: BackendsLike) -> list[str]:
    """Specs from 'mrv, naive', 'all', a list of specs, or Backend subclasses; a class the
    worker processes cannot import (one defined in the notebook itself) is refused."""
    items = [backends] if isinstance(backends, str | type) else _listed(backends, "backends")
    specs = []
    for item in items:
        if isinstance(item, type):
            specs.append(_importable(item))
        elif isinstance(item, str):
            specs += split_specs(item)
        else:
            raise ArgumentError(_("backends: {item} is neither a backend's name nor a Backend "
                                  "class").format(item=_shown(item)))
    if not specs:
        raise ValueError(_("no backend to compare: name some, e.g. 'mrv, naive' or 'all'"))
    return specs


def _importable(cls: type[Backend]) -> str:
    """'module:Class' for a backend class; ValueError for one of the notebook's own module."""
    if not issubclass(cls, Backend):
        raise ValueError(_("{name} is not a Backend subclass").format(name=cls.__name__))
    if cls.__module__ == "__main__":
        raise ValueError(_("{name} is defined in the notebook itself, which the worker "
                           "processes cannot import: save it in a file (%%writefile "
                           "my_backend.py) and name it 'my_backend:{name}'").format(
            name=cls.__qualname__))
    return spec_name(cls)


def _listed(items: Any, what: str) -> list[Any]:
    """A list of what an iterable holds; ArgumentError naming `what` for anything else."""
    if isinstance(items, Iterable) and not isinstance(items, bytes | dict):
        return list(items)
    raise ArgumentError(_("{what}: {item} is neither a name nor a list of them").format(
        what=what, item=_shown(items)))


def _source_of(text: str) -> str | None:
    """A file's path, or a data set's converted file (fetched on first use); None when `text`
    is neither (text of several lines, or too long for a path, is never a path)."""
    if "\n" in text or len(text) > MAX_PATH:
        return None
    try:
        if Path(text).is_file():
            return text
    except (OSError, ValueError):
        return None
    from sudokucp import datasets

    if text in datasets.BY_NAME:
        return datasets.source(text)
    return None


def sources(puzzles: PuzzlesLike) -> tuple[list[str], list[Puzzle]]:
    """The files to read (paths, data sets fetched) and the puzzles given one by one (Puzzle
    objects, or grids as text)."""
    items = ([puzzles] if isinstance(puzzles, str | Path | Puzzle)
             else _listed(puzzles, "puzzles"))
    files, grids = [], []
    for item in items:
        if isinstance(item, Puzzle):
            grids.append(item)
            continue
        if not isinstance(item, str | Path):
            raise ArgumentError(_("puzzles: {item} is neither a file, a data set, a grid nor a "
                                  "Puzzle").format(item=_shown(item)))
        found = _source_of(str(item))
        if found is not None:
            files.append(found)
            continue
        grids += _read_text(str(item))
    if not files and not grids:
        raise ValueError(_("no puzzle given"))
    return files, grids


def _read_text(text: str) -> list[Puzzle]:
    """The puzzles of text given in place of a file, read as the file would be (comments,
    titles, one grid a line or over several lines); a bad entry is refused with its line."""
    entries = list(parse_many(text, stem=GRIDS)) if "\n" in text.strip() else []
    if not entries:
        try:
            return [Puzzle.parse(text)]
        except PuzzleError as err:
            raise ArgumentError(_("{item}: no such file, no data set of that name, and not a "
                                  "grid ({reason})").format(item=_shown(text), reason=err)
                                ) from None
    for entry in entries:
        if entry.error is not None:
            raise ArgumentError(f"{_shown(text)}: {entry.error}")
    return [entry.puzzle for entry in entries]


def _shown(item: object) -> str:
    """A text or path quoted, anything else as Python writes it; cut short."""
    if not isinstance(item, str | Path):
        text = repr(item)
        return text if len(text) <= 40 else text[:37] + "..."
    text = str(item)
    return repr(text if len(text) <= 40 else text[:37] + "...")


def write_grids(grids: Sequence[Puzzle], folder: Path, name: str = GRIDS) -> Path:
    """The puzzles given one by one as `name`.txt, one-line grids, in `folder` (the tables call
    their set `name`); a shape whose boxes a line does not say (3x2 where the side says 2x3) is
    refused."""
    for puzzle in grids:
        if Shape.for_side(puzzle.side) != puzzle.shape:
            raise ValueError(_("{name}: a grid with {rows}x{cols} boxes cannot be written on "
                               "one line; give it in a file").format(
                name=puzzle.name or puzzle.to_line()[:20], rows=puzzle.shape.box_rows,
                cols=puzzle.shape.box_cols))
    if not re.fullmatch(r"[\w.-]+", name):
        raise ValueError(_("{name!r} cannot name a set of grids: use letters, digits, '_', '.' "
                           "or '-'").format(name=name))
    path = folder / f"{name}.txt"
    path.write_text("".join(p.to_line() + "\n" if p.rules.classic else to_text(p) + "\n"
                            for p in grids), encoding="utf-8")
    return path


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


# --- a grid, its steps, a search ----------------------------------------------------------------

def as_puzzle(puzzle: Puzzle | str) -> Puzzle:
    """A Puzzle, or one read from a grid's text."""
    return puzzle if isinstance(puzzle, Puzzle) else Puzzle.parse(puzzle)


@dataclasses.dataclass(frozen=True)
class Drawing:
    """A grid to show: givens in bold, the other digits (a backend's) in blue."""

    puzzle: Puzzle
    cells: Grid

    def _repr_svg_(self) -> str:
        return grid_svg(self.puzzle.shape, self.cells, givens=self.puzzle.cells)

    def _repr_html_(self) -> str:
        caption = puzzle_caption(self.puzzle.name, self.puzzle.shape, self.puzzle.givens)
        return figure(self._repr_svg_(), caption, "drawing")


def draw(puzzle: Puzzle | str, solution: Result | Sequence[int] | None = None) -> Drawing:
    """The grid with a solution's digits (a Result's first, or a grid of digits) in blue."""
    puzzle = as_puzzle(puzzle)
    if isinstance(solution, Result):
        solution = solution.solution
    cells = tuple(solution) if solution is not None else puzzle.cells
    if len(cells) != puzzle.shape.cells:
        raise ArgumentError(_("the solution has {found} cells, the grid {expected}").format(
            found=len(cells), expected=puzzle.shape.cells))
    n = puzzle.side
    for cell, value in enumerate(cells):
        if isinstance(value, bool) or not isinstance(value, Integral) or not 0 <= value <= n:
            raise ArgumentError(_("the solution holds {value} at {cell}: not a digit of a "
                                  "{shape} grid").format(value=_shown(value),
                                                         cell=cell_name(puzzle.shape, cell),
                                                         shape=puzzle.shape))
    return Drawing(puzzle, tuple(map(int, cells)))


class Explanation(list):
    """The logic engine's steps for a grid (teaching.explain's Moves): a list that a notebook
    shows as numbered sentences, each with the grid after it."""

    def __init__(self, puzzle: Puzzle, moves: Iterable[explaining.Move]) -> None:
        super().__init__(moves)
        self.puzzle = puzzle

    def __str__(self) -> str:
        return "\n".join(f"{n:>4}. {m.text}" for n, m in enumerate(self, 1))

    def _repr_html_(self) -> str:
        return explanation_html(self.puzzle, list(self))


STEP_CELL = 28  # pixels of a cell in the grid drawn after each step (9x9 and below)


def explanation_html(puzzle: Puzzle, moves: Sequence[explaining.Move]) -> str:
    """The grid, then each step: its sentence and the grid after it (placed cells marked,
    candidates shown where the step struck some, those struck in red)."""
    shape, board = puzzle.shape, start(puzzle)
    cell = min(STEP_CELL, cell_pixels(shape.side))
    caption = puzzle_caption(puzzle.name, shape, puzzle.givens)
    parts = [figure(grid_svg(shape, puzzle.cells), caption, "puzzle"),
             '<div class="sudokucp-steps" style="display:flex;flex-wrap:wrap;gap:0.8em">']
    for number, move in enumerate(moves, 1):
        svg = ""
        if board is not False and (move.placed or move.removed):
            for c, d in move.placed:
                place(board, c, 1 << (d - 1))
            for c, d in move.removed:
                eliminate(board, [c], 1 << (d - 1))
            svg = grid_svg(shape, board.vals, givens=puzzle.cells, cell=cell,
                           candidates=board.cand if move.removed else None,
                           marked={c for c, _d in move.placed}, struck=move.removed)
        parts.append(f'<div class="step" style="width:{shape.side * cell + 12}px">'
                     f"<p><b>{number}.</b> {html.escape(move.text)}</p>{svg}</div>")
    parts.append("</div>")
    return '<div class="sudokucp-explain">' + "".join(parts) + "</div>"


def explain(puzzle: Puzzle | str, *, max_steps: int | None = None) -> Explanation:
    """The logic engine's solution path, step by step, in the current language."""
    puzzle = as_puzzle(puzzle)
    max_steps = None if max_steps is None else arguments.count(max_steps)
    return Explanation(puzzle, explaining.explain(puzzle, max_steps=max_steps))


@dataclasses.dataclass(frozen=True)
class Trace:
    """The events of one traced search; a notebook shows the replay page in a frame."""

    events: list[dict[str, Any]]
    height: int = 640

    def html(self) -> str:
        """The self-contained replay page (teaching.replay), in the current language."""
        return replay.render(self.events)

    def _repr_html_(self) -> str:
        page = html.escape(self.html(), quote=True)
        return (f'<iframe class="sudokucp-trace" srcdoc="{page}" sandbox="allow-scripts" '
                f'style="width:100%;height:{self.height}px;border:1px solid #ddd"></iframe>')


def trace(puzzle: Puzzle | str, backend: str = "naive", *, max_steps: int = 2000,
          limit: int = 1) -> Trace:
    """Trace one search (naive, naive-iterative, mrv or hybrid), at most `max_steps` events;
    in-process, bounded by the steps."""
    from sudokucp.backends import from_spec

    max_steps, limit = arguments.count(max_steps), arguments.size(limit)
    events = tracing.record(from_spec(backend), as_puzzle(puzzle), max_steps=max_steps,
                            limit=limit)
    return Trace(events)


def solve(puzzle: Puzzle | str, backend: str = "naive", *, limit: int = 1,
          timeout: float | None = None) -> Result:
    """One grid solved by one backend ('mrv:order=static'), up to `limit` solutions (0: all),
    every one judged as bench judges them: one the judge refuses makes the result WRONG. A
    backend that cannot look at the clock runs, under a `timeout`, in a worker killed at it."""
    from sudokucp.backends import from_spec
    from sudokucp.executors import ResourceLimits, Task, make_executor
    from sudokucp.runcheck import judged

    puzzle, solver = as_puzzle(puzzle), from_spec(backend)
    if timeout is None or solver.interruptible:
        return judged(puzzle, solver.solve(puzzle, limit=limit, time_limit=timeout))
    limits = ResourceLimits(time_limit=timeout, cores=solver.cores)
    with make_executor("local", jobs=1) as executor:
        executor.submit(Task(puzzle.digest, solver.label, puzzle, limit, limits))
        return judged(puzzle, next(iter(executor.results())).result)


# --- the ladder -------------------------------------------------------------------------------

def puzzle_sets(puzzles: PuzzlesLike, max_puzzles: int | None = None, name: str = GRIDS
                ) -> list[tuple[str, list[Puzzle]]]:
    """(name, puzzles) per file or data set, then the puzzles given one by one as one set,
    `name`."""
    files, grids = sources(puzzles)
    sets = []
    for path in files:
        data = load_dataset(path, max_puzzles)
        if data.problems:
            raise ValueError("; ".join(data.problems[:3]))
        sets.append((data.name, data.puzzles))
    if grids:
        sets.append((name, grids[:max_puzzles]))
    return sets


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
