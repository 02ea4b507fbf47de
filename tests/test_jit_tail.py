"""benchmarks/jit.py's tail target (table k): its verdict on made-up times."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
bench = pytest.importorskip("jit")  # benchmarks/jit.py (pandas, the harness)

INF = math.inf


def verdict(jit: list[float], pysat: list[float], cpsat: list[float]) -> str:
    return bench.tail_target({"jit": jit, "cpsat": cpsat, "pysat": pysat})


def test_a_lower_median_p90_and_max_meet_the_target():
    line = verdict([1.0] * 9 + [5.0], [2.0] * 9 + [6.0], [3.0] * 10)
    assert ": met;" in line
    assert "jit 1.00 / 1.40 / 5.00" in line


def test_a_higher_max_alone_misses_it():
    assert "not met" in verdict([1.0] * 9 + [7.0], [2.0] * 9 + [6.0], [3.0] * 10)


def test_a_median_above_cpsat_misses_it():
    assert "not met" in verdict([1.0] * 10, [2.0] * 10, [0.5] * 10)


def test_an_unsolved_run_is_slower_than_any():
    assert bench.tail_figures([1.0, 2.0, INF]) == (2.0, INF, INF)
    line = verdict([1.0] * 9 + [INF], [2.0] * 9 + [60.0], [3.0] * 10)
    assert "not met" in line and "jit 1.00 / unsolved / unsolved" in line
    assert ": met;" in verdict([1.0] * 10, [2.0] * 9 + [INF], [3.0] * 10)


# --- the clause-learning options against the tail: counts stay exact, each option honoured -------

ROOT = Path(__file__).resolve().parents[1]


def cdcl(**options):
    pytest.importorskip("numba", reason="the jit backend needs numba")
    from sudokucp.backends import get_backend

    return get_backend("jit", search="cdcl", **options)


def first(path: str):
    from sudokucp.io.formats import read_puzzles

    return read_puzzles(ROOT / "puzzles" / path)[0].puzzle


@pytest.mark.jit
@pytest.mark.parametrize(("options", "stat"), [({"modes": 1}, "switches"),
                                               ({"rephase": 1}, "rephases"),
                                               ({"shuffle": 1}, "shuffles"),
                                               ({"modes": 1, "shuffle": 1}, "shuffles")])
def test_the_tail_options_keep_counts_exact(options, stat):
    """Mode switching, rephasing and shuffles keep every count exact (limit 0, and 2 proves
    uniqueness), and they happen: their stat counts them, none without the option."""
    from sudokucp.check import is_solution

    backend = cdcl(**options)
    many = backend.solve(first("seeds/004-multiple.txt"), limit=0)
    assert (many.count, many.complete) == (28, True)
    assert many.stats[stat] > 0
    assert cdcl().solve(first("seeds/004-multiple.txt"), limit=0).stats[stat] == 0
    puzzle = first("generated/16x16.txt")
    unique = backend.solve(puzzle, limit=2)
    assert (unique.count, unique.complete) == (1, True)
    assert is_solution(puzzle, unique.solutions[0])


@pytest.mark.jit
def test_modes_and_shuffles_change_the_search_and_repeat_it():
    """A switch of modes, a rephase or a shuffle changes the search (another count of conflicts
    on a grid that takes a few hundred), and the same options give the same search twice (a
    seeded generator of the search's own)."""
    puzzle = first("generated/16x16.txt")
    plain = cdcl().solve(puzzle, limit=2).stats["backtracks"]
    for options in ({"modes": 10}, {"rephase": 10}, {"shuffle": 5}):
        runs = [cdcl(**options).solve(puzzle, limit=2).stats for _ in range(2)]
        assert runs[0]["backtracks"] == runs[1]["backtracks"]
        assert runs[0]["switches"] + runs[0]["rephases"] + runs[0]["shuffles"] > 0
        assert runs[0]["backtracks"] != plain, options
