"""`sudoku-cp report DIR`: every output rebuilt from results.jsonl alone, the log left as it is,
and report.html working in a real headless browser from the file system."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from browser import open_page

from sudokucp.cli import main
from sudokucp.harness.bench import BenchConfig
from sudokucp.harness.runlog import RESULTS, ResultLog
from sudokucp.reporting.bench_report import bench_and_report
from sudokucp.reporting.html_report import table_html
from sudokucp.reporting.text import sig
from sudokucp.result import Row, Status

GRID = "1234341221434321"
OUTPUTS = ("results.csv", "summary.csv", "scores.csv", "instances.csv", "cactus.png",
           "summary.md", "report.html")
# backend: (status, seconds) on puzzles p0..p5; "slow" is 50x "fast" on p0..p3
PLAN = {"fast": [("solved", 0.002)] * 4 + [("solved", 0.004), ("timeout", 1.0)],
        "slow": [("solved", 0.1)] * 4 + [("unknown", 0.01), ("solved", 0.3)],
        "mid": [("solved", 0.01)] * 5 + [("timeout", 1.0)]}


def write_log(folder: Path, plan=PLAN, timeout: float = 1.0) -> Path:
    """A results.jsonl written through the project's Row and ResultLog, as bench writes it."""
    folder.mkdir(parents=True, exist_ok=True)
    log = ResultLog(folder / RESULTS)
    log.open(append=False)
    for backend, runs in plan.items():
        for index, (status, seconds) in enumerate(runs):
            solved = status == "solved"
            log.write(Row(key=f"{backend}|h{index}|1", backend=backend, name=backend,
                          dataset="tiny" if index % 2 else "small", puzzle=f"p{index + 1}",
                          hash=f"h{index}", box="2x2", grid=GRID, status=Status(status),
                          verified=True if solved else None, seconds=seconds, wall=seconds,
                          count=int(solved), solutions=(GRID,) if solved else (),
                          timeout=timeout, versions={"backend": "1.0", "python": "3.11"}))
    log.close()
    return folder


@pytest.fixture
def rebuilt(tmp_path):
    """A folder holding only results.jsonl, after `sudoku-cp report`."""
    folder = write_log(tmp_path / "runs")
    before = (folder / RESULTS).read_bytes()
    assert main(["report", str(folder)]) == 0
    assert (folder / RESULTS).read_bytes() == before
    return folder


def test_report_rebuilds_every_output_from_the_log_alone(rebuilt, capsys):
    for name in OUTPUTS:
        assert (rebuilt / name).stat().st_size > 0, name
    assert (rebuilt / "scatter.png").read_bytes().startswith(b"\x89PNG")
    assert not (rebuilt / "scatter").exists()  # one scatter matrix, no file per pair
    scores = (rebuilt / "scores.csv").read_text().splitlines()
    assert scores[0].startswith("backend,puzzles,solved,")
    assert scores[-1].startswith("virtual best,6,6,")
    text = (rebuilt / "summary.md").read_text()
    assert "`sudoku-cp report " in text and "- timeout: 1 s per run" in text
    assert "## Where the backends part ways" in text and "data sets: small (3 puzzles)" in text


def test_the_page_needs_nothing_outside_it(rebuilt):
    page = (rebuilt / "report.html").read_text()
    assert "http://" not in page and "https://" not in page and "<link" not in page
    sources = re.findall(r'src="([^"]*)"', page)
    assert len(sources) == 2 and all(s.startswith("data:image/png;base64,") for s in sources)
    assert "default-src 'none'" in page  # the browser itself refuses any fetch


def test_the_page_sorts_and_filters_in_a_browser(chromium, rebuilt):
    with open_page(chromium, rebuilt / "report.html") as (page, errors):
        first = "#scores tbody tr td:first-child"
        assert page.locator(first).all_text_contents()[-1] == "virtual best"
        page.click("#scores thead th:text-is('par2_ms')")
        ascending = page.locator(first).all_text_contents()
        assert ascending[:2] == ["virtual best", "fast"] and ascending[-1] == "slow"
        page.click("#scores thead th:text-is('par2_ms')")
        assert page.locator(first).all_text_contents() == ascending[::-1]
        assert page.get_attribute("#scores thead th:text-is('par2_ms')",
                                  "aria-sort") == "descending"
        rows = page.locator("#instances tbody tr")
        total = rows.count()
        assert total == 6
        page.fill("input[data-filter='instances']", "status")
        assert page.locator("#instances tbody tr:visible").count() == 2
        assert page.text_content("[data-count='instances']") == f"2 of {total} rows"
        page.fill("input[data-filter='instances']", "STATUS tiny")
        assert page.locator("#instances tbody tr:visible td:nth-child(2)").all_text_contents(
            ) == ["p6"]
        page.fill("input[data-filter='instances']", "status nowhere")
        assert page.locator("#instances tbody tr:visible").count() == 0
        page.fill("input[data-filter='instances']", "")
        assert page.locator("#instances tbody tr:visible").count() == total
        assert errors == []


def test_the_page_opens_with_the_ranking_and_its_results_table_sorts_and_filters(
        chromium, rebuilt):
    with open_page(chromium, rebuilt / "report.html") as (page, errors):
        first = page.locator("h1 ~ *").first
        assert first.get_attribute("id") == "headline"
        classes = page.locator("#headline li").all_text_contents()
        assert classes[0].startswith("small (3 puzzles): fast 1 (fastest) · mid ")
        assert classes[1].startswith("tiny (3 puzzles): slow 1 (fastest) · fast ")
        runs = page.locator("#runs tbody tr")
        assert runs.count() == 18
        page.click("#runs thead th:text-is('time_ms')")
        page.click("#runs thead th:text-is('time_ms')")  # descending: the slowest first
        slowest = page.locator("#runs tbody tr:first-child td").all_text_contents()
        assert slowest[2:4] == ["fast", "timeout"] and slowest[6] == "1000"
        page.click("#runs thead th:text-is('time_ms')")  # ascending: by number, not by text
        times = page.locator("#runs tbody tr td:nth-child(7)")
        keys = [float(k) for k in times.evaluate_all("cells => cells.map(c => c.dataset.sort)")]
        texts = times.all_text_contents()
        assert keys == sorted(keys) and texts == [sig(key) for key in keys]
        assert texts[:5] == ["2.00"] * 4 + ["4.00"] and texts[-1] == "1000"
        page.fill("input[data-filter='runs']", "tiny slow")
        shown = page.locator("#runs tbody tr:visible td:nth-child(2)").all_text_contents()
        assert sorted(shown) == ["p2", "p4", "p6"]
        assert page.text_content("[data-count='runs']") == "3 of 18 rows"
        assert errors == []


def test_numbers_sort_as_numbers_and_words_after_them(chromium, rebuilt):
    with open_page(chromium, rebuilt / "report.html") as (page, errors):
        page.click("#instances thead th:text-is('fast')")
        cells = page.locator("#instances tbody tr td:nth-child(7)").all_text_contents()
        assert cells == ["2.00", "2.00", "2.00", "2.00", "4.00", "timeout"]
        assert errors == []


def test_a_time_cell_has_three_significant_digits_and_its_whole_value_to_sort_by():
    import pandas as pd

    table = table_html(pd.DataFrame({"time_ms": [0.0000123456, 0.5, 1234.5, 52.0]}), "t")
    cells = re.findall(r'<td class="num" data-sort="([^"]*)">([^<]*)</td>', table)
    assert cells == [("1.23456e-05", "0.0000123"), ("0.5", "0.500"), ("1234.5", "1230"),
                     ("52.0", "52.0")]

def test_an_unreadable_line_is_reported_and_the_log_left_untouched(tmp_path, capsys):
    folder = write_log(tmp_path / "runs")
    with (folder / RESULTS).open("a") as handle:
        handle.write('{"key": "torn')
    before = (folder / RESULTS).read_bytes()
    assert main(["report", str(folder)]) == 2
    assert "line 19 is not a result record" in capsys.readouterr().err
    assert (folder / RESULTS).read_bytes() == before
    assert (folder / "report.html").exists()


@pytest.mark.parametrize("make, message", [
    (lambda p: None, "no such folder"),
    (lambda p: p.mkdir(), "no results.jsonl there"),
    (lambda p: (p.mkdir(), (p / RESULTS).write_text("")), "no run recorded"),
])
def test_a_folder_without_runs_is_refused_in_one_line(tmp_path, make, message):
    folder = tmp_path / "out"
    make(folder)
    done = subprocess.run([sys.executable, "-m", "sudokucp", "report", str(folder)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_bench_writes_the_scores_the_plots_and_the_page(tmp_path):
    puzzles = tmp_path / "small.txt"
    puzzles.write_text("1.3.3.1.2.4.4.2.\n.2.4.4.2.1.3.3.1\n")
    outcome = bench_and_report(BenchConfig(backends=["mrv", "hybrid"], puzzles=[puzzles],
                                            out=tmp_path / "out", timeout=5))
    names = {p.name for p in outcome.files}
    assert {"scores.csv", "instances.csv", "scatter.png", "report.html"} <= names
    assert (tmp_path / "out" / "scatter.png").exists()
    assert "virtual best" in (tmp_path / "out" / "report.html").read_text()


def test_the_page_keeps_status_differences_first_when_it_cuts_the_table(monkeypatch):
    import pandas as pd

    from sudokucp.reporting import report

    monkeypatch.setattr(report, "PAGE_INSTANCES", 2)
    table = pd.DataFrame({"puzzle": ["a", "b", "c", "d"], "reason": ["time", "status", "time",
                                                                      "status, time"],
                          "ratio": [500.0, float("nan"), 20.0, 12.0]})
    assert report.page_instances(table)["puzzle"].tolist() == ["d", "b"]
    assert "shows 2 of the 4 puzzles" in report._cut_note(table)
    assert report.page_instances(table.head(2)).equals(table.head(2))


def _plan(backends: int, puzzles: int) -> dict[str, list[tuple[str, float]]]:
    """`backends` backends b0, b1, ... on `puzzles` puzzles, b<k> 1.5^k times slower than b0,
    one run in 50 of each a timeout."""
    return {f"b{k}": [("timeout", 1.0) if i % 50 == 7 else ("solved", 0.001 * 1.5**k + i * 1e-6)
                      for i in range(puzzles)] for k in range(backends)}


def test_the_page_of_twelve_backends_on_six_puzzles_stays_under_a_megabyte(tmp_path):
    folder = write_log(tmp_path / "runs", _plan(12, 6))
    assert main(["report", str(folder)]) == 0
    assert (folder / "report.html").stat().st_size < 1_000_000
    assert not (folder / "scatter").exists()


def test_the_page_caps_its_results_table_and_says_where_the_rest_is(tmp_path):
    folder = write_log(tmp_path / "runs", _plan(4, 1500))
    assert main(["report", str(folder)]) == 0
    page = (folder / "report.html").read_text()
    assert page.count("<tr") - page.count("<tr class=\"vbs\"") < 8000
    assert "The page shows 1,000 of the 6,000 runs" in page and "`results.csv`" not in page
    assert "<code>results.csv</code> holds every one" in page
    table = page[page.index('id="runs"'):]
    table = table[:table.index("</table>")]
    assert table.count("<tr>") == 1000 + 1  # the header's row and 1,000 runs
    assert table.count(">timeout<") == 4 * 30  # every unsolved run kept first
    assert len(page.encode()) < 2_000_000


def test_a_backtick_in_a_file_name_keeps_its_code_span(tmp_path):
    puzzles = tmp_path / "odd`name.txt"
    puzzles.write_text("1.3.3.1.2.4.4.2.\n")
    bench_and_report(BenchConfig(backends=["mrv"], puzzles=[puzzles], out=tmp_path / "out",
                                 timeout=5))
    page = (tmp_path / "out" / "report.html").read_text()
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert re.search(r"<code>[^<]*odd`name\.txt</code>", page)
    assert re.search(r"``[^`]*odd`name\.txt``", summary)  # a fence longer than the backtick
