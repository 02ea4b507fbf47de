"""The summary a bench writes: the settings with their units, the machine, milliseconds in both
tables, whole counts, and a cactus plot whose legend hides no line."""

from __future__ import annotations

import pytest

from sudokucp.report import (
    cactus_figure,
    machine,
    markdown,
    results_frame,
    settings_lines,
    summary_frame,
)
from sudokucp.result import Row, Status

FULL_4X4 = "1234341221434321"
FULL_9X9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _rows() -> list[Row]:
    rows = []
    for index, (backend, grid) in enumerate([("mrv", FULL_4X4), ("mrv", FULL_9X9),
                                             ("sat", FULL_4X4), ("sat", FULL_9X9)] * 2):
        rows.append(Row(key=str(index), backend=backend, dataset="set", puzzle=str(index),
                        hash=str(index % 4), grid=grid, status=Status.SOLVED, verified=True,
                        seconds=0.001 * (index + 1), count=1, solutions=(grid,),
                        stats={"nodes": 3 + index % 2} if backend == "mrv" else {}))
    return rows


def test_the_summary_states_units_the_machine_and_whole_counts():
    settings = {"command": "sudoku-cp bench --backends mrv sat", **machine(),
                "backends": {"mrv": "0.1.0", "sat": "0.6.6 (pycosat)"}, "runs": (8, 0),
                "limit": 1, "timeout": 10.0, "memory_mb": 4096, "jobs": 2, "seed": None,
                "retry": [], "puzzles": ["a.txt"], "max_puzzles": None}
    summary = summary_frame(results_frame(_rows()))
    assert [c for c in summary.columns if c.endswith(("_s", "_ms"))] == [
        "median_ms", "mean_ms", "p90_ms", "max_ms"]
    text = markdown(summary, [], settings)
    for line in ("- command: `sudoku-cp bench --backends mrv sat`", "- timeout: 10 s per run",
                 "- memory: 4096 MB per worker", "- backend versions: mrv 0.1.0, sat 0.6.6 "
                 "(pycosat)", "- Python: 3.", "- machine: ", "cores", "- load average",
                 "- date: ", "- jobs: 2 (runs at a time)"):
        assert line in text
    mrv = text.split("| mrv | set | 4 | 4 |")[1].splitlines()[0]
    assert mrv.split("|")[-3].strip() == "4"  # median nodes of 3, 4, 3, 4: whole, not 3.5
    assert ".0 |" not in text and "e+" not in text
    assert summary["median_nodes"].dtype == "Int64"


def test_no_time_limit_and_no_memory_cap_say_none():
    assert settings_lines({"timeout": None, "memory_mb": None, "seed": None}) == [
        "- timeout: none", "- memory: no cap"]


def test_the_cactus_plot_has_a_curve_per_shape_a_time_limit_and_a_legend_off_the_axes():
    pytest.importorskip("matplotlib")
    from matplotlib import pyplot as plt

    fig = cactus_figure(results_frame(_rows()), timeout=2.0)
    try:
        ax = fig.axes[0]
        labels = [line.get_label() for line in ax.get_lines()]
        assert labels == ["mrv, 4x4", "mrv, 9x9", "sat, 4x4", "sat, 9x9", "time limit (2 s)"]
        assert ax.get_lines()[-1].get_ydata()[0] == 2000  # milliseconds, as the y axis says
        assert "(ms, log scale)" in ax.get_ylabel() and "count" in ax.get_xlabel()
        fig.canvas.draw()
        legend = ax.get_legend().get_window_extent()
        assert not legend.overlaps(ax.get_window_extent())
    finally:
        plt.close(fig)
