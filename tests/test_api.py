"""The notebook's API: compare runs the bench's path (killable workers, checked answers) and gives
its tables, plots and summary; a stubborn backend is killed at the limit; explain, trace, ladder
and draw give what a notebook shows."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import fake_backends
import pytest
from fake_backends import PID_DIR, Stubborn

import sudokucp
from sudokucp import api
from sudokucp.backends.template import Template
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "puzzles" / "seeds"
FOUR = ROOT / "puzzles" / "examples" / "4x4.txt"


@pytest.fixture(scope="module")
def comparison():
    """Two backends, one of them given as a class, on grids given as text and as a Puzzle."""
    named = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    named = Puzzle(named.shape, named.cells, "the seed's logic grid")
    grids = [line for line in FOUR.read_text().splitlines() if not line.startswith("#")][:2]
    return api.compare([Template, "mrv"], [*grids, named], timeout=20, progress=False)


def test_the_names_of_the_package_load_their_module_on_first_use():
    assert sudokucp.compare is api.compare and sudokucp.explain is api.explain
    assert {"compare", "explain", "trace", "ladder", "draw"} <= set(dir(sudokucp))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        sudokucp.nothing  # noqa: B018


def test_compare_runs_every_backend_on_every_puzzle_and_checks_the_answers(comparison):
    rows = comparison.rows
    assert len(rows) == 6
    assert sorted(comparison.backends) == ["mrv", "sudokucp.backends.template:Template"]
    assert {r.status for r in rows} == {Status.SOLVED} and all(r.verified for r in rows)
    assert comparison.disagreements == []
    assert "the seed's logic grid" in set(comparison.frame["puzzle"])
    frame = comparison.frame
    assert {"backend", "puzzle", "status", "cpu", "wall", "nodes"} <= set(frame.columns)
    assert len(comparison.summary) == 2 * frame["dataset"].nunique()
    assert list(comparison.scores["backend"])[-1] == "virtual best"
    assert len(comparison.pairs) == 1


def test_compare_gives_the_plots_as_figures(comparison):
    a, b = comparison.backends
    cactus, scatter = comparison.cactus(), comparison.scatter(a, b)
    assert cactus.axes and cactus.axes[0].get_yscale() == "log"
    assert scatter.axes[0].get_xlabel().startswith(a)
    with pytest.raises(ValueError, match="no backend 'dlx' in this comparison"):
        comparison.scatter(a, "dlx")


def test_compare_shows_its_tables_summary_and_report(comparison, tmp_path):
    page = comparison._repr_html_()
    assert page.startswith('<div class="sudokucp-comparison">')
    assert page.count('class="dataframe sudokucp-table"') == 3
    assert "None: every claimed solution passed the checker" in page
    assert page.index('<section id="headline">') < page.index("Scores")  # the answer first
    assert "1 (fastest)" in page and "geometric mean" in page
    summary = comparison.markdown()
    assert summary.startswith("# Comparison\n\n## Answer\n") and "## Scores" in summary
    assert set(comparison.ranking) == {"puzzles, 4x4", "puzzles, 9x9"}  # a set mixing shapes
    assert not comparison.failed
    report = comparison.html()
    assert report.startswith("<!DOCTYPE html>") and (comparison.folder / "report.html").is_file()
    assert "Comparison(2 backends, 6 runs" in repr(comparison)


def test_compare_kills_a_stubborn_backend_at_its_limit(tmp_path, monkeypatch):
    """The stubborn backend never looks at the clock: its worker is killed (its process is gone
    once compare returns), its run is a TIMEOUT, and the other backend's run is kept."""
    monkeypatch.setenv("PYTHONPATH", fake_backends.pythonpath())
    monkeypatch.setenv(PID_DIR, str(tmp_path))
    grid = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    result = api.compare([fake_backends.spec(Stubborn), "mrv"], grid, timeout=1.0,
                         progress=False, out=tmp_path / "out")
    status = {r.backend: r for r in result.rows}
    stuck = status["fake_backends:Stubborn"]
    assert stuck.status is Status.TIMEOUT and stuck.limit_hit == "wall"
    assert status["mrv"].status is Status.SOLVED
    pids = [int(p.name) for p in tmp_path.iterdir() if p.name.isdigit()]
    assert pids, "the stubborn search started"
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert (tmp_path / "out" / "results.jsonl").is_file()


def test_compare_shows_a_progress_bar(capsys):
    api.compare("mrv", FOUR, max_puzzles=2, timeout=10)
    assert re.search(r"runs: 100%.*2/2", capsys.readouterr().err)


def test_compare_refuses_what_it_cannot_run(tmp_path):
    class Mine(Template):
        pass

    Mine.__module__ = "__main__"
    with pytest.raises(ValueError, match="%%writefile my_backend.py"):
        api.compare([Mine], FOUR)
    with pytest.raises(ValueError, match=r"'nonsense': no such file, no data set of that name, "
                                         r"and not a grid"):
        api.compare("mrv", "nonsense")
    with pytest.raises(ValueError, match="no backend to compare"):
        api.compare([], FOUR)
    sideways = Puzzle(Shape(3, 2), (0,) * 36, "3x2 boxes")
    with pytest.raises(ValueError, match="3x2 boxes: a grid with 3x2 boxes cannot be written"):
        api.compare("mrv", [sideways], out=tmp_path)


def test_explain_gives_numbered_steps():
    steps = api.explain(load_puzzles(SEEDS / "002-logic-9x9.txt")[0].to_line())
    assert steps[-1].kind == "solved"
    assert str(steps).splitlines()[0].startswith("   1. ")
    # the start, then a grid per step but the last ("solved")
    assert steps._repr_html_().count("<svg") == 1 + len(steps) - 1


def test_trace_embeds_the_replay_page_without_network():
    grid = load_puzzles(SEEDS / "004-telegram.txt")[0]
    traced = api.trace(grid, "naive", max_steps=100)
    frame = traced._repr_html_()
    srcdoc = re.search(r'srcdoc="([^"]*)"', frame).group(1)
    assert html.unescape(srcdoc) == traced.html()
    assert not re.search(r"(src|href)=\"(?!data:)|https?://", traced.html())
    assert traced.events[0]["event"] == "start" and len(traced.events) == 102


def test_ladder_climbs_the_rungs_named():
    grids = [line for line in FOUR.read_text().splitlines() if not line.startswith("#")][:2]
    climbed = api.ladder(grids, rungs="none,fc", timeout=10)
    assert list(climbed.table["rung"]) == ["none", "fc"]
    assert list(climbed.table["solved"]) == [2, 2]
    assert climbed._repr_markdown_().startswith("| grids | size | rung |")
    assert len(climbed.plot().axes) == 2
