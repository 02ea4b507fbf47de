"""Solved counts, PAR-2, the virtual best solver, the per-instance table and the scatter plots,
on rows written through the project's own Row type."""

from __future__ import annotations

import math

import pytest

from sudokucp.reporting.report import results_frame
from sudokucp.reporting.scores import (
    UNSOLVED,
    VBS,
    instances_frame,
    penalised_seconds,
    scores_frame,
)
from sudokucp.result import Row, Status

GRID = "1234341221434321"
LIMIT = 2.0


def _row(backend: str, puzzle: str, status: Status, seconds: float, timeout=LIMIT,
         dataset: str = "set") -> Row:
    return Row(key=f"{backend}|{puzzle}|1", backend=backend, dataset=dataset, puzzle=puzzle,
               hash=puzzle, grid=GRID, status=status, seconds=seconds, timeout=timeout,
               verified=True if status is Status.SOLVED else None)


def _frame(rows):
    return results_frame(rows)


# a: solves p1 (0.1 s), p2 (1.0 s), times out on p3; b: p1 in 0.5 s, unknown on p2, solves p3
ROWS = [_row("a", "p1", Status.SOLVED, 0.1), _row("a", "p2", Status.UNSAT, 1.0),
        _row("a", "p3", Status.TIMEOUT, 2.0), _row("b", "p1", Status.SOLVED, 0.5),
        _row("b", "p2", Status.UNKNOWN, 0.2), _row("b", "p3", Status.SOLVED, 0.3)]


def _line(scores, backend):
    return scores.set_index("backend").loc[backend]


def test_par2_counts_an_unsolved_run_twice_the_limit_and_unsat_as_solved():
    scores = scores_frame(_frame(ROWS))
    a, b = _line(scores, "a"), _line(scores, "b")
    assert (a["puzzles"], a["solved"], a["unsolved"], a["timeout"]) == (3, 2, 1, 1)
    assert a["par2_ms"] == pytest.approx(1000 * (0.1 + 1.0 + 2 * LIMIT) / 3)
    assert (b["solved"], b["unknown"]) == (2, 1)
    assert b["par2_ms"] == pytest.approx(1000 * (0.5 + 2 * LIMIT + 0.3) / 3)


def test_the_virtual_best_solver_takes_the_quickest_backend_per_puzzle():
    scores = scores_frame(_frame(ROWS))
    assert list(scores["backend"])[-1] == VBS
    vbs = _line(scores, VBS)
    assert (vbs["puzzles"], vbs["solved"], vbs["unsolved"]) == (3, 3, 0)
    assert vbs["par2_ms"] == pytest.approx(1000 * (0.1 + 1.0 + 0.3) / 3)
    assert _line(scores, "a")["fastest"] == 2 and _line(scores, "b")["fastest"] == 1
    assert _line(scores, "a")["only"] == 1 and _line(scores, "b")["only"] == 1  # p2, p3


@pytest.mark.parametrize("status", [Status(s) for s in UNSOLVED])
def test_every_status_but_an_answer_is_unsolved(status):
    rows = [_row("a", "p1", status, 0.01)]
    scores = scores_frame(_frame(rows))
    line = _line(scores, "a")
    assert (line["solved"], line["unsolved"], line[status.value]) == (0, 1, 1)
    assert line["par2_ms"] == pytest.approx(1000 * 2 * LIMIT)
    assert set(UNSOLVED) == {"timeout", "unknown", "crash", "memout", "error", "wrong"}


def test_par2_is_blank_when_an_unsolved_run_had_no_time_limit():
    rows = [_row("a", "p1", Status.TIMEOUT, 3.0, timeout=None),
            _row("a", "p2", Status.SOLVED, 0.5, timeout=None)]
    frame = _frame(rows)
    penalised = penalised_seconds(frame).set_axis(frame["puzzle"])
    assert math.isnan(penalised["p1"]) and penalised["p2"] == 0.5
    scores = scores_frame(frame)
    assert scores["par2_ms"].dtype == float and scores["par2_ms"].isna().all()


def test_the_instance_table_keeps_status_and_tenfold_differences_only():
    rows = ROWS + [_row("a", "p4", Status.SOLVED, 0.200), _row("b", "p4", Status.SOLVED, 0.019),
                   _row("a", "p5", Status.SOLVED, 0.050), _row("b", "p5", Status.SOLVED, 0.010),
                   _row("a", "p6", Status.SOLVED, 0.0009), _row("b", "p6", Status.SOLVED, 1e-5),
                   _row("a", "p7", Status.SOLVED, 0.1)]  # p7: one backend only
    table = instances_frame(_frame(rows)).set_index("puzzle")
    assert sorted(table.index) == ["p2", "p3", "p4"]  # p5 is 5x; p6 is under the 1 ms floor
    assert table.loc["p2", "reason"] == "status" and table.loc["p2", "b"] == "unknown"
    assert table.loc["p3", "a"] == "timeout" and table.loc["p3", "b"] == 300.0
    assert table.loc["p4", "reason"] == "time" and table.loc["p4", "fastest"] == "b"
    assert table.loc["p4", "ratio"] == pytest.approx(200 / 19)
    both = instances_frame(_frame(ROWS + [_row("c", "p1", Status.TIMEOUT, 2.0),
                                          _row("c", "p9", Status.SOLVED, 1.0)]))
    p1 = both.set_index("puzzle").loc["p1"]
    assert p1["reason"] == "status" and p1["ratio"] == pytest.approx(5.0)


def test_the_names_sort_as_numbers():
    rows = [_row(b, f"top95:{n}", Status.SOLVED if b == "a" else Status.TIMEOUT, 0.1)
            for n in (10, 9, 100) for b in ("a", "b")]
    assert list(instances_frame(_frame(rows))["puzzle"]) == ["top95:9", "top95:10",
                                                             "top95:100"]


def test_a_scatter_plot_puts_unsolved_runs_on_the_border():
    pytest.importorskip("matplotlib")
    from sudokucp.reporting.plots import paired_times, pairs, scatter_figure

    frame = _frame(ROWS)
    assert pairs(frame) == [("a", "b")]
    times = paired_times(frame, "a", "b", 4000.0)
    assert times.loc["p3", "a"] == 4000.0 and times.loc["p2", "b"] == 4000.0
    assert times.loc["p1", "b"] == pytest.approx(500.0)
    fig = scatter_figure(frame, "a", "b", LIMIT)
    ax = fig.axes[0]
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert ax.get_xlim()[1] > 4000 and "(ms, log scale)" in ax.get_xlabel()
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_a_puzzle_nobody_solved_has_no_fastest_backend():
    rows = [_row("a", "p1", Status.TIMEOUT, 2.0), _row("b", "p1", Status.CRASH, 0.1),
            _row("a", "p2", Status.TIMEOUT, 2.0), _row("b", "p2", Status.TIMEOUT, 2.0)]
    table = instances_frame(_frame(rows))
    assert table["puzzle"].tolist() == ["p1"]  # p2: the same status, no time to compare
    assert table.loc[0, "fastest"] == "" and table.loc[0, "reason"] == "status"
    vbs = _line(scores_frame(_frame(rows)), VBS)
    assert (vbs["solved"], vbs["par2_ms"]) == (0, pytest.approx(2000 * LIMIT))
