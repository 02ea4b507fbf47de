"""The summary a bench writes: the settings with their units, the machine, milliseconds in both
tables, whole counts, each puzzle's median over its repeats with its interval, the pairs of
backends, the measurement warnings, and a cactus plot whose legend hides no line."""

from __future__ import annotations

import pytest

from sudokucp.machine.calibration import machine
from sudokucp.reporting.report import (
    cactus_figure,
    markdown,
    results_frame,
    settings_lines,
    summary_frame,
    write_reports,
)
from sudokucp.reporting.scores import pairs_frame, scores_frame
from sudokucp.result import Row, Status
from sudokucp.stats import SAME

FULL_4X4 = "1234341221434321"
FULL_9X9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _rows() -> list[Row]:
    """mrv and sat on two grids, twice each (repeats 0 and 1)."""
    rows = []
    for index, (backend, grid) in enumerate([("mrv", FULL_4X4), ("mrv", FULL_9X9),
                                             ("sat", FULL_4X4), ("sat", FULL_9X9)] * 2):
        rows.append(Row(key=str(index), backend=backend, dataset="set", puzzle=str(index % 4),
                        hash=str(index % 4), grid=grid, status=Status.SOLVED, verified=True,
                        seconds=0.001 * (index + 1), count=1, solutions=(grid,),
                        repeat=index // 4,
                        stats={"nodes": 3 + index % 2} if backend == "mrv" else {}))
    return rows


def test_the_summary_states_units_the_machine_and_whole_counts():
    settings = {"command": "sudoku-cp bench --backends mrv sat", **machine(),
                "backends": {"mrv": "0.1.0", "sat": "0.6.6 (pycosat)"}, "runs": (8, 0),
                "limit": 1, "timeout": 10.0, "memory_mb": 4096, "jobs": 2, "seed": None,
                "retry": [], "puzzles": ["a.txt"], "max_puzzles": None}
    summary = summary_frame(results_frame(_rows()))
    assert [c for c in summary.columns if c.endswith(("_s", "_ms"))] == [
        "median_ms", "ci_low_ms", "ci_high_ms", "mean_ms", "p90_ms", "max_ms"]
    text = markdown(summary, [], settings)
    for line in ("- command: `sudoku-cp bench --backends mrv sat`", "- timeout: 10 s per run",
                 "- memory: 4096 MB per worker", "- backend versions: mrv 0.1.0, sat 0.6.6 "
                 "(pycosat)", "- Python: 3.", "- machine: ", "cores", "- load average",
                 "- date: ", "- jobs: 2 (runs at a time)"):
        assert line in text
    mrv = text.split("| mrv | set | 2 | 4 | 2 |")[1].splitlines()[0]  # puzzles, runs, solved
    assert mrv.split("|")[-3].strip() == "4"  # median nodes of 3 and 4: whole, not 3.5
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
        (legend,) = fig.legends  # one legend for every panel, below them
        assert [t.get_text() for t in legend.get_texts()] == labels
        assert not legend.get_window_extent().overlaps(ax.get_window_extent())
    finally:
        plt.close(fig)


def _repeated(plan: dict[str, list[float]], repeats: int = 3) -> list[Row]:
    """Each backend on puzzles p0, p1, ... (the times in `plan`, seconds), `repeats` times, the
    k-th repeat 1% slower per k; a time of None times out."""
    rows = []
    for backend, times in plan.items():
        for index, seconds in enumerate(times):
            for k in range(repeats):
                solved = seconds is not None
                rows.append(Row(key=f"{backend}|h{index}|1" + (f"#{k}" if k else ""),
                                backend=backend, dataset="set", puzzle=f"p{index}",
                                hash=f"h{index}", grid=FULL_4X4, repeat=k,
                                status=Status.SOLVED if solved else Status.TIMEOUT,
                                seconds=seconds * (1 + k / 100) if solved else 1.0,
                                timeout=1.0, verified=True if solved else None))
    return rows


BASE = [0.010, 0.020, 0.030, 0.040, 0.050, 0.060, 0.070, 0.080]
PLAN = {"a": BASE, "b": [t * 1.5 for t in BASE],
        "c": [t * (1.3 if i % 2 else 1 / 1.3) for i, t in enumerate(BASE)]}


def test_the_summary_takes_each_puzzles_median_over_its_repeats():
    results = results_frame(_repeated({"a": BASE[:4] + [None]}))
    assert len(results) == 15  # results.csv keeps every run
    line = summary_frame(results).iloc[0]
    assert line[["puzzles", "runs", "solved", "timeouts"]].tolist() == [5, 15, 4, 1]
    medians = [t * 1.01 * 1000 for t in BASE[:4]]  # each puzzle's middle repeat, ms
    assert line["median_ms"] == pytest.approx(25.25)
    assert line["p90_ms"] == pytest.approx(medians[2] + 0.7 * (medians[3] - medians[2]))
    assert line["ci_low_ms"] <= line["median_ms"] <= line["ci_high_ms"]
    assert medians[0] <= line["ci_low_ms"] and line["ci_high_ms"] <= medians[3]
    scores = scores_frame(results).set_index("backend")  # repeats: no duplicate pivot
    assert scores.loc["a", ["puzzles", "solved", "timeout"]].tolist() == [5, 4, 1]


def test_the_pairs_table_names_a_faster_backend_only_outside_the_interval():
    frame = pairs_frame(results_frame(_repeated(PLAN)))
    assert (frame["ratio"] >= 1).all()  # one direction: a is `ratio` times slower than b
    pairs = frame.set_index(["a", "b"])
    assert list(pairs.columns) == ["puzzles", "ratio", "ci_low", "ci_high", "a_faster", "ties",
                                   "b_faster", "wilcoxon_p", "verdict"]
    slow = pairs.loc[("b", "a")]  # b is 1.5x slower than a
    assert slow["ratio"] == pytest.approx(1.5) and slow["verdict"] == "a faster"
    assert 1 < slow["ci_low"] <= 1.5 <= slow["ci_high"]
    assert slow[["puzzles", "a_faster", "ties", "b_faster"]].tolist() == [8, 0, 0, 8]
    assert slow["wilcoxon_p"] == pytest.approx(2 / 2**8)  # exact: every sign the same
    mixed = frame[frame[["a", "b"]].apply(set, axis=1) == {"a", "c"}].iloc[0]  # 1.3x both ways
    assert mixed["ratio"] == pytest.approx(1.0)
    assert mixed["ci_low"] < 1 < mixed["ci_high"] and mixed["verdict"] == SAME
    assert mixed[["a_faster", "ties", "b_faster"]].tolist() == [4, 0, 4]
    assert pairs.loc[("b", "c"), "verdict"] == "c faster"


SETTINGS = {"command": "sudoku-cp bench --repeat 3", "load": "0.10 0.20 0.30",
            "load_end": "0.12 0.30 0.40", "measure": "cpu", "repeat": 3, "cpu_limit": None,
            "pin": True, "timeout": 1.0,
            "calibration": {"runs": 5, "median_ms": 12.34, "spread": 0.031, "cpu_spread": 0.02,
                            "waiting": 0.04}}


def test_the_new_settings_have_their_lines():
    lines = "\n".join(settings_lines(SETTINGS))
    for text in ("- times: CPU seconds of the search (user + system, every thread, children "
                 "included)", "- repeats: 3 runs of each backend on each puzzle",
                 "- CPU time limit: none", "- workers pinned",
                 "- load average at the end (1, 5, 15 min): 0.12 0.30 0.40",
                 "- calibration loop: 5 points, median 12.3 ms", "3.1% of wall time",
                 "2.0% of CPU time; wall time 4.0% over CPU time"):
        assert text in lines
    assert "wall-clock" in settings_lines({"measure": "wall"})[0]
    assert settings_lines({"repeat": 1, "pin": False}) == [
        "- repeats: 1 (one run of each backend on each puzzle)",
        "- workers not pinned to CPU cores"]


def test_warnings_stand_near_the_top_and_their_absence_is_said():
    summary = summary_frame(results_frame(_repeated(PLAN)))
    warned = markdown(summary, [], SETTINGS | {"warnings": ["load average 3.5 on 2 cores"]},
                      scores=summary)
    assert warned.index("## Measurement noise") < warned.index("## Scores")
    assert "- load average 3.5 on 2 cores" in warned
    quiet = markdown(summary, [], SETTINGS | {"warnings": []})
    assert "## Measurement noise\n\nNo warning" in quiet
    old = markdown(summary, [], {"command": "x", "timeout": 1.0})  # before the noise checks
    assert "Measurement noise" not in old and "- command: `x`" in old


def test_the_written_reports_hold_the_pairs_and_the_warnings(tmp_path):
    pytest.importorskip("matplotlib")
    rows = _repeated({"a": BASE, "b": PLAN["b"]}, repeats=2)
    settings = SETTINGS | {"warnings": ["calibration spread 40% of its median"]}
    write_reports(rows, [], tmp_path, settings)
    assert len((tmp_path / "results.csv").read_text().splitlines()) == 33
    assert (tmp_path / "pairs.csv").read_text().splitlines()[1].startswith("b,a,8,1.5,")
    text = (tmp_path / "summary.md").read_text()
    assert "## Pairs that matter" in text and "| a faster |" in text
    page = (tmp_path / "report.html").read_text()
    assert 'id="pairs"' in page and 'class="warning"' in page
    assert page.index('<section id="headline">') < page.index("Measurement noise")  # answer first
    assert "a 1 (fastest) · b 1.50× [" in page
    assert "calibration spread 40% of its median" in page


def test_reports_of_no_run_are_headers_and_say_so(tmp_path):
    (tmp_path / "cactus.png").write_bytes(b"an earlier bench's plot")
    files = write_reports([], [], tmp_path, {"timeout": 1.0, "limit": 1})
    names = {path.name for path in files}
    assert names == {"results.csv", "summary.csv", "scores.csv", "pairs.csv", "instances.csv",
                     "ranking.csv", "summary.md", "report.html"}
    for name, first in (("results.csv", "dataset,puzzle"), ("summary.csv", "backend,dataset"),
                        ("scores.csv", "backend,puzzles"), ("pairs.csv", "a,b"),
                        ("ranking.csv", "class,rank,backend"),
                        ("instances.csv", "dataset,puzzle")):
        lines = (tmp_path / name).read_text().splitlines()
        assert len(lines) == 1 and lines[0].startswith(first), name
    text = (tmp_path / "summary.md").read_text()
    assert "No run finished" in text and "cactus.png" not in text
    assert not (tmp_path / "cactus.png").exists()
    assert "<html" in (tmp_path / "report.html").read_text().lower()


EVIL = "<script>alert(1)</script>"
IMAGE = "<img src=x onerror=alert(1)>"


def test_names_are_inert_in_summary_md_and_comparison_markdown(tmp_path):
    """Backend, data set, puzzle names and error messages from the runs come out escaped in
    summary.md (which Comparison.markdown() returns too), as report.html escapes them."""
    pytest.importorskip("matplotlib")
    from types import SimpleNamespace

    rows = []
    for index, seconds in enumerate(BASE):
        for backend, factor in ((EVIL, 1.0), (IMAGE, 2.0)):
            rows.append(Row(key=f"{backend}|{index}", backend=backend, dataset=IMAGE,
                            puzzle=f"{EVIL}{index}", hash=f"h{index}", grid=FULL_4X4,
                            status=Status.SOLVED, seconds=seconds * factor * (1 + index),
                            timeout=1.0, verified=True))
    rows.append(Row(key="x|9", backend=IMAGE, dataset=IMAGE, puzzle=EVIL, hash="h9",
                    grid=FULL_4X4, status=Status.ERROR, seconds=0.0, timeout=1.0,
                    error=f"cannot run {IMAGE}"))
    told = [SimpleNamespace(puzzle=IMAGE, hash="h1", message=f"{EVIL} disagrees")]
    write_reports(rows, told, tmp_path, {"command": f"sudoku-cp bench --backends '{EVIL}'"},
                  problems=[f"{IMAGE}: line 3 unreadable"])
    text = (tmp_path / "summary.md").read_text()
    assert "## Answer" in text and "## Errors and crashes" in text
    assert "<script" not in text.replace(f"`sudoku-cp bench --backends '{EVIL}'`", "")
    assert "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    page = (tmp_path / "report.html").read_text()
    assert EVIL not in page and IMAGE not in page
    assert "<script" not in markdown(summary_frame(results_frame(rows)), told, {},
                                     [f"{EVIL} skipped"])


def test_times_in_summary_md_have_three_significant_digits_and_no_exponent(tmp_path):
    pytest.importorskip("matplotlib")
    rows = _repeated({"a": [t / 1000 for t in BASE], "b": [t / 700 for t in BASE]}, repeats=1)
    write_reports(rows, [], tmp_path, {"timeout": 1.0})
    text = (tmp_path / "summary.md").read_text()
    assert "e-0" not in text and "e+" not in text
    scores = text.split("## Scores")[1].split("\n\n")[1]
    assert "par2_ms" in scores and "| 0.0450 |" in scores  # a's mean of 0.045 ms
    assert "| 0.0450 | 0.0" in text.split("## Summary per backend")[1]  # a: median_ms, ci
