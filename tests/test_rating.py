"""The rater: QQWing's classes from the techniques it reports, CSV and table, the rate command."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from sudokucp.backends import available_backends
from sudokucp.generators.rating import (
    CLASS_OF,
    CLASSES,
    COLUMNS,
    QQWING,
    classify,
    rate,
    summarize,
    to_csv,
    to_table,
)
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle, Shape

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "puzzles" / "generated"
CLASSED = {name: GENERATED / f"9x9-{name}.txt" for name in CLASSES}
HYBRID = "hybrid" in available_backends()


def expected_class(counts: dict[str, int], solved: bool) -> str:
    """QQWing's rules written out one by one, as getDifficulty reads them."""
    used = {name for name, k in counts.items() if k}
    if not solved or used - set(QQWING):
        return "expert"
    if used & {"pointing", "claiming", "naked_pair", "hidden_pair"}:
        return "intermediate"
    return "easy" if "hidden_single" in used else "simple"


def test_classify_follows_the_rules():
    assert classify({}, True) == "simple"
    assert classify({"naked_single": 30}, True) == "simple"
    assert classify({"naked_single": 30, "hidden_single": 2}, True) == "easy"
    assert classify({"hidden_single": 2, "claiming": 1}, True) == "intermediate"
    assert classify({"hidden_single": 2, "x_wing": 1}, True) == "expert"
    assert classify({"naked_single": 3}, False) == "expert"
    assert set(CLASS_OF) == set(QQWING)


def all_ratings() -> list:
    return [rate(p) for path in CLASSED.values() for p in load_puzzles(path)]


def test_class_agrees_with_the_techniques_reported():
    ratings = all_ratings()
    assert {r.klass for r in ratings} == set(CLASSES)
    for r in ratings:
        assert r.klass == expected_class(dict(r.counts), r.solved), r
        used = [name for name, k in r.counts.items() if k]
        assert r.hardest == (max(used, key=list(r.counts).index) if used else None)
        if HYBRID and r.klass == "expert":
            assert r.guesses > 0, r  # QQWing's techniques stuck: the hybrid had to guess


@pytest.mark.skipif(not HYBRID, reason="the hybrid backend is not available")
def test_the_hybrid_guesses_only_on_expert_puzzles():
    for r in all_ratings():
        assert (r.guesses > 0) == (r.klass == "expert"), r


@pytest.mark.parametrize("klass", CLASSES)
def test_each_classed_set_rates_as_its_class(klass):
    assert summarize(rate(p, guesses=False) for p in load_puzzles(CLASSED[klass]))[klass] == 10


def test_a_full_grid_is_simple_and_an_open_grid_not_unique():
    puzzle = load_puzzles(CLASSED["easy"])[0]
    full = rate(Puzzle(puzzle.shape, rate_solution(puzzle)), guesses=False)
    assert full.klass == "simple" and full.solved and full.hardest is None
    empty = rate(Puzzle.empty(Shape.parse("4x4")), guesses=False)
    assert empty.klass == "not unique" and not empty.solved and empty.solutions == 2


def rate_solution(puzzle: Puzzle) -> tuple[int, ...]:
    from sudokucp.backends import get_backend

    return get_backend("mrv").solve(puzzle).solution


def test_csv_has_every_column_and_a_row_per_puzzle():
    ratings = [rate(p) for p in load_puzzles(GENERATED / "6x6.txt")]
    rows = list(csv.DictReader(io.StringIO(to_csv(ratings))))
    assert len(rows) == len(ratings) and tuple(rows[0]) == COLUMNS
    assert [row["class"] for row in rows] == [r.klass for r in ratings]
    assert [int(row["givens"]) for row in rows] == [r.givens for r in ratings]


def test_table_shows_only_techniques_used():
    ratings = [rate(p, guesses=False) for p in load_puzzles(CLASSED["simple"])]
    head = to_table(ratings).splitlines()[0].split()
    assert head[:6] == list(COLUMNS[:6]) and head[6:] == ["naked_single"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudokucp", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_rate_command_csv_and_table():
    out = run("rate", "--format", "csv", str(CLASSED["intermediate"]))
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert len(rows) == 10 and {row["class"] for row in rows} == {"intermediate"}
    table = run("rate", str(GENERATED / "4x4.txt"))
    assert table.returncode == 0 and table.stdout.splitlines()[0].startswith("puzzle")
    assert "simple" in table.stdout.splitlines()[-1]


def test_rate_command_reports_a_bad_line(tmp_path):
    bad = tmp_path / "bad.txt"
    good = load_puzzles(GENERATED / "4x4.txt")[0].to_line()
    bad.write_text(good + "\n" + "12x" + "." * 13 + "\n")
    out = run("rate", str(bad))
    assert out.returncode == 2 and "line 2" in out.stderr
