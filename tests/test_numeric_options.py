"""Every numeric option of every command refuses nan, inf, words and values out of its range in
one line naming the option, with exit status 2, before any work starts (issue 24, item 2)."""

from __future__ import annotations

import contextlib
import io
import math
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from sudokucp.cli import main

YEAR = 365 * 24 * 3600
NOT_NUMBERS = ["nan", "NaN", "inf", "-inf", "Infinity", "1e309", "-1e309", "abc", "", " "]


@dataclass(frozen=True)
class Option:
    """A numeric option, the command line around it (nothing to read, so no real work even if
    a value got through), and the smallest and largest values it takes (None: no bound)."""

    where: tuple[str, ...]
    name: str
    kind: str  # "seconds" (finite, above 0), "whole" (a whole number), "ratio" or "floor"
    least: float | None = None
    most: float | None = None  # the largest value taken, where one is set


def _options() -> list[Option]:
    bench = ("bench", "--backends", "mrv", "--puzzles", "nosuchfile")
    return [
        Option(bench, "--timeout", "seconds"), Option(bench, "--cpu-limit", "seconds"),
        Option(bench, "--jobs", "whole", 1), Option(bench, "--memory", "whole", 0, 2**40),
        Option(bench, "--max-puzzles", "whole", 1), Option(bench, "--repeat", "whole", 1),
        Option(bench, "--seed", "whole"), Option(bench, "--limit", "whole", 0),
        Option(bench, "--workers", "whole", 1), Option(bench, "--chunk", "whole", 1),
        Option(("solve", "nosuchfile"), "--timeout", "seconds"),
        Option(("solve", "nosuchfile"), "--cpu-limit", "seconds"),
        Option(("solve", "nosuchfile"), "--limit", "whole", 1),
        Option(("solve", "nosuchfile"), "--memory", "whole", 1),
        Option(("compare", "nosuchold", "nosuchnew"), "--slower", "ratio"),
        Option(("compare", "nosuchold", "nosuchnew"), "--floor-ms", "floor"),
        Option(("generate", "-b", "nosuch"), "--count", "whole", 1),
        Option(("generate", "-b", "nosuch"), "--givens", "whole", 0),
        Option(("generate", "-b", "nosuch", "--difficulty", "easy"), "--tries", "whole", 1),
        Option(("ladder", "nosuchfile"), "--timeout", "seconds"),
        Option(("ladder", "nosuchfile"), "--sample", "whole", 1),
        Option(("ladder", "nosuchfile"), "--seed", "whole"),
        Option(("ladder", "nosuchfile"), "--jobs", "whole", 1),
        Option(("trace", "nosuchfile"), "--max-steps", "whole", 1),
        Option(("trace", "nosuchfile"), "--limit", "whole", 0),
        Option(("trace", "nosuchfile"), "--index", "whole", 1),
        Option(("explain", "nosuchfile"), "--level", "whole", 1),
        Option(("explain", "nosuchfile"), "--max-steps", "whole", 1),
        Option(("rate", "nosuchfile"), "--shape", "shape"),
    ]


OPTIONS = _options()


def _bad_values(option: Option) -> st.SearchStrategy[str]:
    """Values the option must refuse: never numbers, and numbers out of its range."""
    words = st.sampled_from(NOT_NUMBERS)
    if option.kind == "shape":
        return words | st.sampled_from(["0", "-1", "0x0", "-3x3"])
    if option.kind == "whole":
        fractions = st.floats(allow_nan=True, allow_infinity=True).filter(
            lambda x: not math.isfinite(x) or x != int(x)).map(repr)
        below = (st.integers(max_value=int(option.least) - 1).map(str)
                 if option.least is not None else st.nothing())
        above = (st.integers(min_value=int(option.most) + 1).map(str)
                 if option.most is not None else st.nothing())
        return words | fractions | below | above
    least = {"seconds": 0.0, "ratio": 1.0, "floor": -math.ulp(0)}[option.kind]
    most = YEAR if option.kind == "seconds" else math.inf  # a longer wait overflows
    return words | st.floats(allow_nan=True, allow_infinity=True).filter(
        lambda x: not least < x <= most).map(repr)


def _run(argv: list[str]) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of the command, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


@st.composite
def refused(draw: st.DrawFn) -> tuple[Option, list[str]]:
    """An option, and a command line giving it a bad value, as `--opt V` or `--opt=V`."""
    option = draw(st.sampled_from(OPTIONS))
    value = draw(_bad_values(option))
    joined = draw(st.booleans())
    words = [f"{option.name}={value}"] if joined else [option.name, value]
    return option, [*option.where, *words]


@settings(max_examples=200, deadline=None)
@given(refused())
def test_every_numeric_option_refuses_bad_values_in_one_line(case):
    option, argv = case
    code, out, err = _run(argv)
    assert code == 2, (argv, err)
    assert out == "", argv
    assert len(err.strip().splitlines()) == 1 and option.name in err, (argv, err)
    assert "Traceback" not in err


def test_every_command_with_a_numeric_option_is_covered():
    commands = {option.where[0] for option in OPTIONS}
    assert commands == {"bench", "solve", "compare", "generate", "ladder", "trace", "explain",
                        "rate"}


def test_the_refusal_says_why():
    assert "'nan' is not a finite number" in _run(["solve", "x", "--timeout", "nan"])[2]
    assert "'1e309' is not a finite number" in _run(
        ["compare", "a", "b", "--floor-ms", "1e309"])[2]
    assert "'inf' is not a finite number" in _run(["compare", "a", "b", "--slower", "inf"])[2]
    assert "1e300 seconds is over a year" in _run(["ladder", "x", "--timeout", "1e300"])[2]
    assert "-1 must be positive" in _run(["bench", "--backends", "mrv", "--puzzles", "x",
                                          "--cpu-limit=-1"])[2]
