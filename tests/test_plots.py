"""The figures: a cactus plot whose series stay apart past ten backends, a panel per data set and
its legend in ranking order; the scatter matrix of the first backends, or the pairs asked for by
--scatter, refused in one line when a name is no backend of the run."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest
from test_html_report import write_log

from sudokucp.cli import main
from sudokucp.reporting import plots
from sudokucp.reporting.plots import (
    CACTUS_POINTS,
    SCATTER_POINTS,
    cactus_figure,
    chosen_pairs,
    draw_points,
    series_style,
    thinned,
)

pytest.importorskip("matplotlib")
GRID = "1234341221434321"


def _frame(times: dict[str, list[float]], datasets: tuple[str, ...] = ("set",)) -> pd.DataFrame:
    """One solved run per backend and puzzle, puzzle i in datasets[i % len(datasets)]."""
    lines = [{"backend": b, "hash": f"h{i}", "puzzle": f"p{i}", "grid": GRID, "status": "solved",
              "seconds": s, "timeout": 10.0, "dataset": datasets[i % len(datasets)]}
             for b, seconds in times.items() for i, s in enumerate(seconds)]
    return pd.DataFrame(lines)


def _close(fig) -> None:
    from matplotlib import pyplot as plt

    plt.close(fig)


def test_sixteen_series_differ_in_colour_marker_and_line_style_from_one_to_the_next():
    styles = [series_style(i) for i in range(16)]
    assert len({tuple(style.values()) for style in styles}) == 16
    for one, two in zip(styles, styles[1:]):
        assert all(one[key] != two[key] for key in ("color", "marker", "linestyle"))


def test_the_cactus_legend_follows_the_ranking_and_every_line_has_its_own_style():
    names = [f"z{k:02d}" for k in range(16)][::-1]  # the fastest sorts last by name
    frame = _frame({name: [0.001 * (k + 1) * (1 + i / 10) for i in range(8)]
                    for k, name in enumerate(names)})
    fig = cactus_figure(frame, timeout=10.0)
    try:
        (legend,) = fig.legends
        labels = [t.get_text() for t in legend.get_texts()]
        assert labels[:16] == names and labels[-1] == "time limit (10 s)"
        lines = [line for line in fig.axes[0].get_lines() if line.get_label() in names]
        assert len({(line.get_color(), line.get_marker(), line.get_linestyle())
                    for line in lines}) == 16
    finally:
        _close(fig)


def test_the_cactus_plot_has_a_panel_per_data_set_and_draws_a_capped_number_of_points():
    frame = _frame({"a": [0.001 + i * 1e-6 for i in range(3000)],
                    "b": [0.002 + i * 1e-6 for i in range(3000)]}, datasets=("one", "two"))
    fig = cactus_figure(frame)
    try:
        assert [ax.get_title() for ax in fig.axes] == ["one", "two"]
        line = fig.axes[0].get_lines()[0]
        assert len(line.get_xdata()) <= CACTUS_POINTS and line.get_xdata()[-1] == 1500
    finally:
        _close(fig)
    assert thinned(5, 10).tolist() == [0, 1, 2, 3, 4]
    assert thinned(1000, 10)[[0, -1]].tolist() == [0, 999]


def test_a_scatter_panel_draws_a_sample_past_its_cap_and_says_so():
    from matplotlib import pyplot as plt

    frame = _frame({"a": [0.001] * (SCATTER_POINTS + 500), "b": [0.002] * (SCATTER_POINTS + 500)})
    fig, ax = plt.subplots()
    try:
        draw_points(ax, frame, "a", "b", 20000.0)
        drawn = sum(len(c.get_offsets()) for c in ax.collections)
        assert drawn == SCATTER_POINTS
        title = f"{SCATTER_POINTS + 500:,} puzzles; {SCATTER_POINTS:,} drawn"
        assert ax.get_title().startswith(title)
    finally:
        plt.close(fig)


def test_the_default_scatter_is_a_matrix_of_the_first_four_backends_of_the_ranking(tmp_path,
                                                                                 monkeypatch):
    seen = []
    monkeypatch.setattr(plots, "matrix_figure",
                        lambda frame, backends, timeout: seen.append(list(backends)) or
                        plots.pairs_figure(frame, [], timeout))
    frame = _frame({name: [0.001 * factor * (1 + i / 10) for i in range(8)]
                    for name, factor in (("a", 6), ("b", 5), ("c", 4), ("d", 3), ("e", 2),
                                         ("f", 1))})
    assert plots.scatter_plot(frame, tmp_path / "scatter.png") == tmp_path / "scatter.png"
    assert seen == [["f", "e", "d", "c"]]


def test_the_matrix_has_a_panel_per_pair_below_its_diagonal():
    frame = _frame({name: [0.001 * (k + 1)] * 6 for k, name in enumerate("abcd")})
    fig = plots.matrix_figure(frame, ["a", "b", "c", "d"], 10.0)
    try:
        drawn = [ax for ax in fig.axes if ax.axison]
        assert len(drawn) == 6  # 4 x 3 / 2
        assert {ax.texts[0].get_text() for ax in fig.axes if ax.texts} == set("abcd")
    finally:
        _close(fig)


@pytest.mark.parametrize("texts, pairs", [
    (["a,b"], [("a", "b")]),
    (["a,b;c,a", "b,c"], [("a", "b"), ("c", "a"), ("b", "c")]),
    (["a,b", " a , b ;"], [("a", "b")]),
    (["mrv:x=1,y=2,a"], [("mrv:x=1,y=2", "a")]),  # a label may hold a comma
])
def test_scatter_pairs_are_read_from_comma_and_semicolon_lists(texts, pairs):
    assert chosen_pairs(texts, ["a", "b", "c", "mrv:x=1,y=2"]) == pairs


@pytest.mark.parametrize("text, message", [
    ("a,zz", "'zz' is not a backend of this run"),
    ("a", "'a' is not two backends joined by a comma"),
    ("a,a", "'a,a' names one backend twice"),
])
def test_a_scatter_pair_that_names_no_two_backends_is_refused(text, message):
    with pytest.raises(ValueError, match=message) as caught:
        chosen_pairs([text], ["a", "b"])
    assert "\n" not in str(caught.value) and "(backends: a, b)" in str(caught.value)


def test_report_draws_the_pairs_named_and_refuses_an_unknown_name_with_exit_2(tmp_path):
    folder = write_log(tmp_path / "runs")
    assert main(["report", str(folder), "--scatter", "fast,slow;mid,fast"]) == 0
    assert (folder / "scatter.png").read_bytes().startswith(b"\x89PNG")
    assert "](scatter.png)" in (folder / "summary.md").read_text()
    before = (folder / "scatter.png").stat().st_mtime_ns
    done = subprocess.run([sys.executable, "-m", "sudokucp", "report", str(folder),
                           "--scatter", "fast,quick"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "sudoku-cp: --scatter: 'quick' is not a backend of this run (backends: fast, mid, slow)"]
    assert (folder / "scatter.png").stat().st_mtime_ns == before


def test_bench_refuses_an_unknown_scatter_name_before_any_run(tmp_path):
    puzzles = tmp_path / "small.txt"
    puzzles.write_text("1.3.3.1.2.4.4.2.\n")
    done = subprocess.run([sys.executable, "-m", "sudokucp", "bench", "--backends", "mrv,dlx",
                           "--puzzles", str(puzzles), "--out", str(tmp_path / "out"),
                           "--scatter", "mrv,jit"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "'jit' is not a backend of this run (backends: mrv, dlx)" in done.stderr
    assert not (tmp_path / "out" / "results.jsonl").exists()
