"""The values the command line and the API share (sudokucp.io.arguments): --repeat and
--isomorphs bounded, and the API's compare and draw refusing what the CLI refuses, with the same
words, as the project's error (ArgumentError, an OptionError) rather than a TypeError."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokucp import api
from sudokucp.cli import main
from sudokucp.errors import OptionError
from sudokucp.io import arguments
from sudokucp.io.arguments import ArgumentError
from sudokucp.io.formats import parse_grid

ROOT = Path(__file__).resolve().parents[1]
FOUR = ROOT / "puzzles" / "examples" / "4x4.txt"


@pytest.mark.parametrize(("option", "value", "reason"), [
    ("--repeat", "1000000000", "1000000000 repeats plan more runs than a bench keeps in memory "
                               "(at most 1000)"),
    ("--isomorphs", "1000000000", "1000000000 isomorphs plan more runs than a bench keeps in "
                                  "memory (at most 1000)"),
    ("--isomorphs", "-1", "-1 must be at least 0"),
    ("--repeat", "-1", "-1 must be at least 1"),
])
def test_repeat_and_isomorphs_are_bounded(option: str, value: str, reason: str, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--backends", "mrv", "--puzzles", str(FOUR), option, value])
    assert exit_.value.code == 2
    assert f"argument {option}: {reason}" in capsys.readouterr().err
    assert arguments.MAX_REPEAT == arguments.MAX_ISOMORPHS == 1000


BAD_CALLS = {  # case: (the keywords compare is given, what the refusal says)
    "timeout nan": ({"timeout": float("nan")}, "'nan' is not a finite number"),
    "timeout inf": ({"timeout": float("inf")}, "'inf' is not a finite number"),
    "timeout 0": ({"timeout": 0}, "0 must be positive"),
    "timeout -1": ({"timeout": -1}, "-1 must be positive"),
    "repeat 0": ({"repeat": 0}, "0 must be at least 1"),
    "repeat huge": ({"repeat": 10**9}, "at most 1000"),
    "limit 7": ({"limit": 7}, "7 is not one of 0, 1, 2"),
    "jobs 0": ({"jobs": 0}, "0 must be at least 1"),
    "measure x": ({"measure": "x"}, "'x' is not one of cpu, wall"),
    "max_puzzles 0": ({"max_puzzles": 0}, "0 must be at least 1"),
    "memory huge": ({"memory_mb": 10**20}, "MB is more than any address space"),
    "seed 1.5": ({"seed": 1.5}, "1.5 is not a whole number"),
    "no backends": ({"backends": None}, "backends: None is neither a name nor a list"),
    "puzzles 42": ({"puzzles": 42}, "puzzles: 42 is neither a name nor a list"),
    "a puzzle 42": ({"puzzles": [42]}, "puzzles: 42 is neither a file"),
}


@pytest.mark.parametrize("case", BAD_CALLS)
def test_the_api_checks_what_the_cli_checks(case: str, tmp_path: Path) -> None:
    keywords, reason = BAD_CALLS[case]
    backends = keywords.pop("backends", ["mrv"])
    puzzles = keywords.pop("puzzles", FOUR)
    with pytest.raises(ArgumentError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        api.compare(backends, puzzles, out=tmp_path, progress=False, **keywords)
    assert not (tmp_path / "results.jsonl").exists()  # refused before any run
    assert issubclass(ArgumentError, OptionError)


def test_the_api_and_the_cli_refuse_a_timeout_in_the_same_words(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--backends", "mrv", "--puzzles", str(FOUR), "--timeout", "nan"])
    cli = capsys.readouterr().err
    with pytest.raises(ArgumentError) as err:
        api.compare("mrv", FOUR, timeout="nan", progress=False)
    assert f"argument --timeout: {err.value}" in cli


def test_the_api_reads_text_of_a_puzzle_file_as_the_file(tmp_path: Path) -> None:
    text = FOUR.read_text()
    assert "#" in text
    comparison = api.compare(["naive"], [text], max_puzzles=2, timeout=20, progress=False,
                             out=tmp_path)
    assert len(comparison.rows) == 2
    assert {row.status.name for row in comparison.rows} <= {"SOLVED"}


def test_the_api_refuses_a_bad_entry_of_text_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(ArgumentError, match="line 2"):
        api.compare(["naive"], ["# two grids\n1..2\n"], out=tmp_path, progress=False)


def test_draw_refuses_a_value_past_the_side() -> None:
    puzzle = parse_grid("." * 81)
    with pytest.raises(ArgumentError, match="99 at r1c1: not a digit of a 9x9 grid"):
        api.draw(puzzle, [99] * 81)
    assert "<svg" in api.draw(puzzle, [0] * 81)._repr_svg_()


@pytest.mark.parametrize(("call", "reason"), [
    (lambda: api.ladder(FOUR, timeout=float("nan")), "'nan' is not a finite number"),
    (lambda: api.ladder(FOUR, jobs=0), "0 must be at least 1"),
    (lambda: api.ladder(FOUR, max_puzzles=0), "0 must be at least 1"),
    (lambda: api.trace("1" + "." * 15, max_steps=0), "0 must be at least 1"),
    (lambda: api.trace("1" + "." * 15, limit=-1), "-1 must be at least 0"),
    (lambda: api.explain("1" + "." * 15, max_steps=-3), "-3 must be at least 1"),
])
def test_ladder_trace_and_explain_check_as_their_commands_do(call, reason: str) -> None:
    with pytest.raises(ArgumentError, match=reason):
        call()
