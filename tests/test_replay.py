"""The replay page: one self-contained file, and in a real headless Chromium it steps, goes back,
plays to the end and shows a solution the judge accepts, for 4x4, 9x9 and 16x16 grids."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser import open_page

from sudokucp.backends import get_backend
from sudokucp.check import is_solution
from sudokucp.cli import main
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle, geometry
from sudokucp.teaching import replay, trace

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
CASES = [("examples/4x4.txt", "naive"), ("seeds/004-telegram.txt", "naive-iterative"),
         ("seeds/002-logic-9x9.txt", "hybrid"), ("seeds/002-backtracking-16x16.txt", "mrv")]


def grid(path: str) -> Puzzle:
    return load_puzzles(PUZZLES / path)[0]


def page_file(tmp_path: Path, path: str, backend: str, **bounds: int) -> tuple[Path, list]:
    events = trace.record(get_backend(backend), grid(path), **bounds)
    out = tmp_path / "replay.html"
    out.write_text(replay.render(events), encoding="utf-8")
    return out, events


def digits(page) -> list[int]:
    return page.eval_on_selector_all("#grid .cell", "cells => cells.map(c => +c.dataset.digit)")


def test_the_page_is_self_contained_and_embeds_the_trace(tmp_path):
    out, events = page_file(tmp_path, "seeds/004-telegram.txt", "mrv")
    text = out.read_text()
    assert not re.search(r"(src|href)=\"(?!data:)|https?://|@import|fetch\(", text)
    embedded = re.search(r'<script type="application/json" id="trace">(.*?)</script>', text, re.S)
    assert json.loads(embedded.group(1)) == events
    assert "__TRACE__" not in text and "__SCRIPT__" not in text and "__STYLE__" not in text


def test_a_name_cannot_close_the_script():
    head = {"event": "start", "backend": "naive", "puzzle": "</script><b>", "side": 4,
            "box": [2, 2], "givens": [0] * 16, "max_steps": 1, "limit": 1}
    text = replay.render([head])
    assert "</script><b>" not in text and text.count("</script>") == 2


@pytest.mark.parametrize("path, backend", CASES)
def test_steps_go_back_and_the_end_shows_a_checked_solution(chromium, tmp_path, path,
                                                            backend):
    puzzle = grid(path)
    out, events = page_file(tmp_path, path, backend)
    steps = len(events) - 2
    first = events[1]
    with open_page(chromium, out) as (page, errors):
        assert int(page.get_attribute("body", "data-total")) == steps
        assert digits(page) == list(puzzle.cells)
        page.click("#step")
        after = digits(page)
        assert after != list(puzzle.cells) and after[first["cell"]] == first["digit"]
        assert "current" in page.get_attribute(f'.cell[data-cell="{first["cell"]}"]', "class")
        page.click("#back")
        assert digits(page) == list(puzzle.cells)
        page.click("#last")
        final = digits(page)
        assert page.get_attribute("body", "data-at") == str(steps)
        assert is_solution(puzzle, final)
        assert page.text_content("#c-nodes") == str(events[-1]["nodes"])
        assert page.text_content("#c-backtracks") == str(events[-1]["backtracks"])
        assert errors == []


def test_play_runs_to_the_end(chromium, tmp_path):
    puzzle = grid("seeds/004-telegram.txt")
    out, events = page_file(tmp_path, "seeds/004-telegram.txt", "mrv")
    with open_page(chromium, out) as (page, errors):
        page.fill("#speed", "100")
        page.dispatch_event("#speed", "input")
        page.click("#play")
        page.wait_for_function("document.body.dataset.at === document.body.dataset.total",
                               timeout=20_000)
        assert is_solution(puzzle, digits(page))
        assert "end: solved" in page.text_content("#event")
        assert errors == []


def test_candidates_are_the_digits_no_peer_holds(chromium, tmp_path):
    puzzle = grid("seeds/004-telegram.txt")
    out, _ = page_file(tmp_path, "seeds/004-telegram.txt", "naive")
    peers = geometry(puzzle.shape).peers
    with open_page(chromium, out) as (page, errors):
        shown = page.eval_on_selector_all(
            "#grid .cell", "cells => cells.map(c => c.querySelector('.cands').textContent)")
        for cell, text in enumerate(shown):
            if not puzzle.cells[cell]:
                held = {puzzle.cells[p] for p in peers[cell]}
                assert text == "".join(str(d) for d in range(1, 10) if d not in held)
        assert errors == []


def test_a_truncated_trace_says_so(chromium, tmp_path):
    out, _ = page_file(tmp_path, "seeds/001-anti-backtracking.txt", "naive", max_steps=300)
    with open_page(chromium, out) as (page, errors):
        page.click("#last")
        assert "cut at 300 steps" in page.text_content("#event")
        assert page.get_attribute("body", "data-at") == "300"
        assert errors == []


def test_cli_writes_the_page(tmp_path, capsys):
    target = tmp_path / "out" / "page.html"
    code = main(["trace", str(PUZZLES / "examples/4x4.txt"), "--html", str(target)])
    captured = capsys.readouterr()
    assert code == 0 and captured.out == "" and "wrote" in captured.err
    assert '"event":"start"' in target.read_text()
