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
