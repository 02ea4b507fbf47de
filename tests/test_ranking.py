"""The ranked headline on hand-made rows: the order by puzzles solved then time, ties with the best,
classes per data set and shape, the texts, and names made inert in Markdown and HTML."""

from __future__ import annotations

import math
import re

import pytest

from sudokucp.reporting.ranking import (
    backend_order,
    console_lines,
    from_frame,
    headline_text,
    html_headline,
    markdown_lines,
    noise_marks,
    ranking_frame,
    rankings,
    read_ranking,
)
from sudokucp.reporting.report import results_frame
from sudokucp.reporting.text import md, sig
from sudokucp.result import Row, Status
from sudokucp.stats import SAME, per_puzzle_medians

GRID4 = "1234341221434321"
GRID6 = "1" * 36


def _row(backend, puzzle, seconds, status=Status.SOLVED, dataset="set", grid=GRID4):
    return Row(key=f"{backend}|{puzzle}|1", backend=backend, dataset=dataset, puzzle=puzzle,
               hash=f"{dataset}:{puzzle}", grid=grid, status=status, seconds=seconds,
               timeout=10.0, verified=True if status is Status.SOLVED else None)


def _puzzles(rows):
    return per_puzzle_medians(results_frame(rows))


BASE = [0.010, 0.020, 0.015, 0.030, 0.012, 0.025, 0.018, 0.022]


def _rows(factors, dataset="set", grid=GRID4, status=None):
    """A backend per factor: its time on each puzzle is BASE times its factor(s)."""
    rows = []
    for backend, factor in factors.items():
        for i, base in enumerate(BASE):
            f = factor[i] if isinstance(factor, list) else factor
            s = (status or {}).get((backend, i), Status.SOLVED)
            rows.append(_row(backend, f"p{i}", base * f, s, dataset, grid))
    return rows


def test_backends_rank_by_time_over_the_best_with_an_interval():
    ranked = rankings(_puzzles(_rows({"slow": 3.0, "fast": 1.0, "mid": 1.5})))
    (label, found), = ranked.items()
    assert label == "set"
    assert [p.backend for p in found] == ["fast", "mid", "slow"]
    assert [p.rank for p in found] == [1, 2, 3]
    best, mid, slow = found
    assert best.best and best.ratio == 1 and not best.tied
    assert mid.ratio == pytest.approx(1.5) and slow.ratio == pytest.approx(3.0)
    assert mid.low <= 1.5 <= mid.high and mid.both == 8 and mid.p_value < 0.05
    assert mid.above is not None and mid.above.a == "fast"
    assert slow.above is not None and slow.above.a == "mid"
    assert slow.above.ratio == pytest.approx(2.0)


def test_puzzles_solved_come_before_time():
    lost = {("fast", 0): Status.TIMEOUT}
    found = rankings(_puzzles(_rows({"fast": 1.0, "slow": 4.0}, status=lost)))["set"]
    assert [p.backend for p in found] == ["slow", "fast"]
    assert (found[0].solved, found[1].solved) == (8, 7)
    fast = found[1]
    assert fast.rank == 2 and not fast.tied and fast.ratio == pytest.approx(0.25)
    assert "4.00× faster" in headline_text(found) and "7/8 solved" in headline_text(found)


def test_a_backend_whose_interval_holds_1_shares_the_best_s_rank():
    # b is 10% slower on half the puzzles and 5% quicker on the others: the interval holds 1
    noisy = [1.1, 0.95] * 4
    found = rankings(_puzzles(_rows({"a": 1.0, "b": noisy, "c": 2.0})))["set"]
    assert [(p.backend, p.rank, p.tied) for p in found] == [("a", 1, False), ("b", 1, True),
                                                             ("c", 3, False)]
    assert found[1].low < 1 < found[1].high
    assert "(tied)" in headline_text(found)


def test_an_interval_without_1_is_no_tie_even_where_the_test_gives_no_verdict():
    # 2x on seven puzzles, 0.9x on one: the interval leaves out 1 and p < 0.05 (n = 8)
    found = rankings(_puzzles(_rows({"a": 1.0, "b": [2.0] * 7 + [0.9]})))["set"]
    assert found[1].low > 1 and found[1].p_value < 0.05 and not found[1].tied
    assert found[1].verdict == "a faster"
    # the same on six puzzles: p = 0.0625, the pair says "no difference measured", the rank 2
    six = [r for r in _rows({"a": 1.0, "b": [2.0] * 5 + [0.9] + [2.0] * 2})
           if r.puzzle in {f"p{i}" for i in range(6)}]
    found = rankings(_puzzles(six))["set"]
    assert found[1].low > 1 and found[1].p_value == pytest.approx(0.0625)
    assert (found[1].rank, found[1].tied, found[1].verdict) == (2, False, SAME)


def test_on_one_puzzle_the_headline_gives_no_interval():
    one = [r for r in _rows({"a": 1.0, "b": 3.0}) if r.puzzle == "p0"]
    found = rankings(_puzzles(one))["set"]
    assert headline_text(found) == "a 1 (fastest) · b 3.00×"  # the class says "1 puzzle"
    assert console_lines(rankings(_puzzles(one)))[0].startswith("set (1 puzzle): ")
    assert found[1].rank == 2
    two = [r for r in _rows({"a": 1.0, "b": 3.0}, status={("b", 1): Status.TIMEOUT})
           if r.puzzle in ("p0", "p1")]
    found = rankings(_puzzles(two))["set"]
    assert headline_text(found) == "a 1 (fastest) · b 3.00× (on 1 puzzle; 1/2 solved)"


def test_classes_split_a_data_set_that_mixes_shapes():
    rows = _rows({"a": 1.0, "b": 2.0}, dataset="mixed")
    rows += [_row(b, f"q{i}", 0.01 * f, dataset="mixed", grid=GRID6)
             for b, f in (("a", 3.0), ("b", 1.0)) for i in range(6)]
    rows += _rows({"a": 1.0, "b": 2.0}, dataset="other")
    ranked = rankings(_puzzles(rows))
    assert list(ranked) == ["mixed, 4x4", "mixed, 6x6", "other"]
    assert ranked["mixed, 6x6"][0].backend == "b" and ranked["mixed, 4x4"][0].backend == "a"
    assert backend_order(_puzzles(rows))[0] in {"a", "b"}


def test_backend_order_puts_the_most_solved_first_then_the_quickest():
    lost = {("z", i): Status.ERROR for i in range(3)}
    order = backend_order(_puzzles(_rows({"z": 0.5, "y": 2.0, "x": 1.0}, status=lost)))
    assert order == ["x", "y", "z"]
    assert backend_order(_puzzles([])) == []


def test_the_ranking_reads_back_from_its_csv():
    ranked = rankings(_puzzles(_rows({"a": 1.0, "b": 1.5})))
    frame = ranking_frame(ranked)
    assert list(frame["backend"]) == ["a", "b"] and list(frame["above"]) == ["", "a"]
    back = from_frame(frame)
    assert [(p.backend, p.rank, p.best) for p in back["set"]] == [("a", 1, True),
                                                                   ("b", 2, False)]
    assert back["set"][1].ratio == pytest.approx(ranked["set"][1].ratio)


def test_names_that_look_like_numbers_or_blanks_read_back_as_written(tmp_path):
    ranked = rankings(_puzzles(_rows({"NA": 1.0, "1e3": 1.5}, dataset="007")))
    ranking_frame(ranked).to_csv(tmp_path / "ranking.csv", index=False)
    back = read_ranking(tmp_path / "ranking.csv")
    assert list(back) == ["007"] and [p.backend for p in back["007"]] == ["NA", "1e3"]
    assert console_lines(back)[0] == console_lines(ranked)[0]


def test_the_headline_reads_best_first_with_three_significant_digits():
    ranked = rankings(_puzzles(_rows({"jit": 1.0, "hybrid": 1.24})))
    line = headline_text(ranked["set"])
    assert line.startswith("jit 1 (fastest) · hybrid 1.24× [")
    lines = console_lines(ranked)
    assert lines[0].startswith("set (8 puzzles): jit 1 (fastest)")
    assert "geometric mean" in lines[1]


def test_a_noise_warning_that_touches_a_ratio_says_so_next_to_it():
    ranked = rankings(_puzzles(_rows({"a": 1.0, "b": 1.08, "c": 2.0})))
    settings = {"warnings": ["the calibration loop's CPU time varied by 20%"],
                "calibration": {"cpu_spread": 0.2}, "measure": "cpu"}
    line = headline_text(ranked["set"], noise_marks(settings))
    b, c = line.split(" · ")[1:]
    assert "CPU spread of 20%" in b and "spread" not in c
    assert noise_marks({"calibration": {"cpu_spread": 0.02}, "warnings": []}) is None


def test_names_are_inert_in_the_markdown_and_html_headlines():
    evil = "<script>alert(1)</script>"
    image = "<img src=x onerror=alert(1)>"
    rows = _rows({evil: 1.0, image: 2.0}, dataset="[x](javascript:alert(1))")
    ranked = rankings(_puzzles(rows))
    text = "\n".join(markdown_lines(ranked))
    assert "<script>" not in text and "<img" not in text
    assert not re.search(r"(?<!\\)\]\(", text) and "\\[x\\](javascript" in text
    assert "&lt;script&gt;" in text
    page = html_headline(ranked)
    assert "<script>" not in page and "<img" not in page and "&lt;img" in page


def test_sig_writes_three_significant_digits_without_exponents():
    assert [sig(x) for x in (6.217e-05, 0.0002497, 1.1, 12.34, 1234.5, 98765.0)] == [
        "0.0000622", "0.000250", "1.10", "12.3", "1230", "98800"]
    assert sig(math.nan) == "" and sig(0.0) == "0" and sig(math.inf) == "inf"
    assert md("a|b*c`d") == "a\\|b\\*c\\`d"


def test_pairs_csv_spares_the_bootstrap_and_gives_the_same_ranking():
    from sudokucp.reporting.scores import pairs_frame

    puzzles = _puzzles(_rows({"a": 1.0, "b": [1.1, 0.95] * 4, "c": 2.0, "d": 2.5}))
    again = rankings(puzzles, pairs_frame(puzzles))["set"]
    for mine, known in zip(rankings(puzzles)["set"], again):
        assert (mine.backend, mine.rank, mine.tied, mine.verdict) == (
            known.backend, known.rank, known.tied, known.verdict)
        assert (mine.ratio, mine.low, mine.high) == pytest.approx(
            (known.ratio, known.low, known.high))
        assert (mine.above is None) == (known.above is None)
        if mine.above is not None:
            assert mine.above.ratio == pytest.approx(known.above.ratio)
            assert (mine.above.a, mine.above.b) == (known.above.a, known.above.b)


def test_a_class_where_nothing_was_solved_names_no_fastest():
    lost = {(b, i): Status.TIMEOUT for b in "ab" for i in range(len(BASE))}
    found = rankings(_puzzles(_rows({"a": 1.0, "b": 2.0}, status=lost)))["set"]
    assert headline_text(found) == "a: none solved · b: none solved"
    assert [p.rank for p in found] == [1, 1]


def test_with_wall_times_every_ratio_carries_the_warning():
    ranked = rankings(_puzzles(_rows({"a": 1.0, "b": 3.0})))
    noise = noise_marks({"measure": "wall", "warnings": ["the load average reached 5"]})
    assert "wall times on a busy machine" in headline_text(ranked["set"], noise).split(" · ")[1]
    assert noise_marks({"measure": "wall", "warnings": []}) is None


def test_backends_tied_with_the_best_come_right_after_it_so_ranks_never_go_down():
    # b is 1.2x slower on every puzzle; c is 1.34x by the geometric mean but all over the place
    found = rankings(_puzzles(_rows({"a": 1.0, "b": 1.2, "c": [0.6, 3.0] * 4})))["set"]
    assert [(p.backend, p.rank, p.tied) for p in found] == [("a", 1, False), ("c", 1, True),
                                                             ("b", 3, False)]
    assert found[2].above is not None and found[2].above.a == "c"
    assert found[1].ratio > found[2].ratio  # the point estimate alone would put b first
