"""The propagation ladder: the same grids solved with more and more inference, rung by rung.

Rungs: no propagation (textbook backtracking), forward checking, + MRV (the csp backend), + hidden
singles, + locked candidates, + subsets (the hybrid with those techniques at the root and at every
node), full alldifferent (CP-SAT). Every run goes through the local executor's killable workers with
a time limit, so a rung that cannot finish times out instead of hanging; every answer is checked.

Glossary: a Run is one (rung, puzzle) outcome; nodes = nodes of the search tree (csp: values
assigned; hybrid: alternatives tried, its propagation placing the rest; cpsat: branches);
guesses = alternatives tried where two or more were open (cpsat: branches).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sudokucp.check import is_solution
from sudokucp.executors import ResourceLimits, Task, make_executor
from sudokucp.i18n import _, number
from sudokucp.io.files import atomic_write, write_text
from sudokucp.puzzle import Puzzle
from sudokucp.result import Status
from sudokucp.teaching.rungs import RUNG_KEYS, RUNGS, Rung


@dataclass(frozen=True)
class Run:
    """One rung on one puzzle: solved (a verified solution), seconds of search, nodes, guesses
    (None when the worker was killed before it could say)."""

    rung: str
    grid_set: str
    size: str
    puzzle: str
    status: str
    solved: bool
    seconds: float
    nodes: float | None
    guesses: float | None

    @property
    def answered(self) -> bool:
        """Solved, or proved to have no solution: an answer, not a time-out."""
        return self.solved or self.status == Status.UNSAT.value


def pick_rungs(keys: str | None) -> list[Rung]:
    """The rungs named in a comma list (all when None), in ladder order."""
    if not keys:
        return list(RUNGS)
    wanted = [k.strip() for k in keys.split(",") if k.strip()]
    unknown = [k for k in wanted if k not in RUNG_KEYS]
    if unknown or not wanted:
        raise ValueError(f"unknown rung {', '.join(unknown) or keys!r}; rungs: "
                         f"{', '.join(RUNG_KEYS)}")
    return [r for r in RUNGS if r.key in wanted]


def tree_size(stats: dict[str, float]) -> tuple[float | None, float | None]:
    """(nodes, guesses) of a backend's stats, as the ladder compares them."""
    if "nodes" in stats:
        return stats["nodes"], stats.get("guesses")
    if "branches" in stats:
        return stats["branches"], stats["branches"]
    guesses = stats.get("guesses")
    return guesses, guesses


def climb(sets: Sequence[tuple[str, Sequence[Puzzle]]], rungs: Sequence[Rung], timeout: float,
          jobs: int = 1, done: Callable[[Run], None] | None = None) -> list[Run]:
    """Every rung on every puzzle of every (name, puzzles) set, `timeout` seconds per run."""
    tasks, where = [], {}
    for name, puzzles in sets:
        for i, puzzle in enumerate(puzzles):
            for rung in rungs:
                key = f"{rung.key}|{name}|{i}"
                where[key] = (rung, name, puzzle)
                tasks.append(Task(key, rung.spec, puzzle, limits=ResourceLimits(timeout), keep=1))
    found: dict[str, Run] = {}
    with make_executor("local", jobs=jobs) as executor:
        for task in tasks:
            executor.submit(task)
        for outcome in executor.results():
            rung, name, puzzle = where[outcome.task.key]
            found[outcome.task.key] = run = to_run(rung, name, puzzle, outcome.result, timeout)
            if done is not None:
                done(run)
    return [found[key] for key in where if key in found]


def to_run(rung: Rung, name: str, puzzle: Puzzle, result: Any, timeout: float) -> Run:
    """The Run of one outcome; a run without an answer (a verified solution, or a complete
    search that found none) counts the limit as its time."""
    solved = result.status is Status.SOLVED and bool(result.solutions) and all(
        is_solution(puzzle, s) for s in result.solutions)
    nodes, guesses = tree_size(dict(result.stats))
    proved = result.status is Status.UNSAT and result.complete
    seconds = result.seconds if solved or proved else max(result.seconds, timeout)
    return Run(rung.key, name, str(puzzle.shape), puzzle.name, result.status.value, solved,
               seconds, nodes, guesses)


# --- the table -----------------------------------------------------------------------------------

def median_of(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def p90(values: Sequence[float]) -> float:
    """The 90th percentile (the project's one definition: sudokucp.stats.percentile)."""
    from sudokucp.stats import percentile  # numpy: not for building the command's parser

    return percentile(values, 90)


def shrink(before: Sequence[Run], after: Sequence[Run]) -> tuple[float | None, int]:
    """How many times fewer nodes a rung makes than the one before, on the grids both solved:
    the median of (nodes before + 1) / (nodes after + 1), and how many grids that covers."""
    done = {r.puzzle: r.nodes for r in before if r.solved and r.nodes is not None}
    ratios = [(done[r.puzzle] + 1) / (r.nodes + 1) for r in after
              if r.solved and r.nodes is not None and r.puzzle in done]
    return (statistics.median(ratios) if ratios else None), len(ratios)


def table(runs: Sequence[Run], rungs: Sequence[Rung]) -> list[dict[str, Any]]:
    """One row per grid set and rung: grids, solved, time-outs, medians of nodes, guesses and
    milliseconds, p90 ms, and the shrink of the tree against the rung before. A run stopped by
    the limit counts with the work done by then, so a median over a set with time-outs is a
    lower bound (`lower` is True)."""
    rows = []
    sets = list(dict.fromkeys((r.grid_set, r.size) for r in runs))
    for name, size in sets:
        before: list[Run] = []
        for rung in rungs:
            mine = [r for r in runs if r.grid_set == name and r.rung == rung.key]
            if not mine:
                continue
            ratio, pairs = shrink(before, mine)
            before = mine
            times = [r.seconds * 1000 for r in mine]
            rows.append({"set": name, "size": size, "rung": rung.key, "adds": rung.adds,
                         "spec": rung.spec, "grids": len(mine),
                         "solved": sum(r.solved for r in mine),
                         "timeouts": sum(not r.answered for r in mine),
                         "median_nodes": median_of(r.nodes for r in mine),
                         "median_guesses": median_of(r.guesses for r in mine),
                         "median_ms": statistics.median(times), "p90_ms": p90(times),
                         "lower": any(not r.answered for r in mine),
                         "shrink": ratio, "shrink_grids": pairs})
    return rows


def _number(value: float | None, lower: bool, digits: int = 0) -> str:
    if value is None:
        return _("n/a")
    text = number(value, digits)
    return f"≥ {text}" if lower else text


def markdown(rows: Sequence[dict[str, Any]], timeout: float) -> str:
    """The table as markdown: lower bounds marked ≥ (runs stopped at the time limit)."""
    lines = [_("| grids | size | rung | adds | solved | time-outs | median nodes | median "
               "guesses | median ms | p90 ms | nodes ÷ |"),
             "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        low = r["lower"]
        ratio = "" if r["shrink"] is None else (f"{number(r['shrink'], 1)} "
                                                f"(n = {r['shrink_grids']})")
        lines.append(f"| {r['set']} | {r['size']} | `{r['rung']}` | {_(r['adds'])} | "
                     f"{r['solved']} / {r['grids']} | {r['timeouts']} | "
                     f"{_number(r['median_nodes'], low)} | {_number(r['median_guesses'], low)} | "
                     f"{_number(r['median_ms'], low, 2)} | {_number(r['p90_ms'], low, 2)} | "
                     f"{ratio} |")
    lines.append("\n" + _("Time limit {timeout} s per run; a run stopped by it counts with its "
                          "time and the nodes it had made by then, so a median marked ≥ is a "
                          "lower bound. `nodes ÷`: how many times fewer nodes than the rung "
                          "above, the median over the n grids both solved of (nodes above + 1) "
                          "/ (nodes + 1).").format(timeout=number(timeout)))
    return "\n".join(lines) + "\n"


def to_csv(records: Sequence[dict[str, Any]]) -> str:
    """Records (dicts with the same keys) as CSV text."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue()


def figure(rows: Sequence[dict[str, Any]], rungs: Sequence[Rung]) -> Any:
    """Median nodes and median milliseconds per rung (log scales), one line per grid set."""
    from sudokucp.reporting.plots import _pyplot

    keys = [r.key for r in rungs]
    fig, axes = _pyplot().subplots(1, 2, figsize=(12, 4.5))
    for (name, size) in dict.fromkeys((r["set"], r["size"]) for r in rows):
        mine = {r["rung"]: r for r in rows if r["set"] == name}
        xs = [i for i, k in enumerate(keys) if k in mine]
        for ax, column in zip(axes, ("median_nodes", "median_ms")):
            ys = [max(mine[keys[i]][column] or 0, 0.5 if column == "median_nodes" else 1e-3)
                  for i in xs]
            line, = ax.plot(xs, ys, marker="o", label=f"{name} ({size})")
            low = [(x, y) for x, y in zip(xs, ys) if mine[keys[x]]["lower"]]
            if low:  # lower bounds: hollow markers
                ax.plot(*zip(*low), linestyle="none", marker="o", markersize=9,
                        markerfacecolor="white", color=line.get_color())
    titles = (_("median search-tree nodes (0 drawn at 0.5)"), _("median milliseconds"))
    for ax, title in zip(axes, titles):
        ax.set_xticks(range(len(keys)), keys, rotation=30)
        ax.set_yscale("log")
        ax.set_title(title + "\n" + _("hollow: lower bound, time-outs counted with their work "
                                      "so far"), fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot(rows: Sequence[dict[str, Any]], rungs: Sequence[Rung], path: Path) -> None:
    """The ladder's figure as a PNG at `path`."""
    from sudokucp.reporting.plots import _pyplot

    fig = figure(rows, rungs)
    try:
        atomic_write(path, lambda tmp: fig.savefig(tmp, format="png", dpi=110))
    finally:
        _pyplot().close(fig)


FILES = ("ladder_runs.csv", "ladder.csv", "ladder.md", "ladder.png")  # in the order written


def write(runs: Sequence[Run], rungs: Sequence[Rung], timeout: float, out: Path,
          header: str = "") -> list[dict[str, Any]]:
    """ladder_runs.csv (every run, first: the most to lose), ladder.csv (the table), ladder.md
    and ladder.png in `out`. An OSError (a full disk) names the file; those before it stay."""
    out.mkdir(parents=True, exist_ok=True)
    rows = table(runs, rungs)
    write_text(out / "ladder_runs.csv", to_csv([vars(r) for r in runs]))
    write_text(out / "ladder.csv", to_csv(rows))
    rung_lines = "\n".join(f"- `{r.key}`: {_(r.adds)} — `{r.spec}`" for r in rungs)
    write_text(out / "ladder.md", f"# {_('The propagation ladder')}\n\n{header}{rung_lines}"
               f"\n\n{markdown(rows, timeout)}\n![{_('nodes and time per rung')}](ladder.png)\n")
    plot(rows, rungs, out / "ladder.png")
    return rows
