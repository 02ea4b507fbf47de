"""The statistics of the reports against values worked out by hand: the percentile, bootstrap
intervals, the paired comparison (geometric mean, Wilcoxon), each puzzle's median over repeats."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sudokucp.reporting.report import results_frame
from sudokucp.result import Row, Status
from sudokucp.stats import (
    SAME,
    bootstrap_ci,
    one_line_per_puzzle,
    paired,
    per_puzzle_medians,
    percentile,
    wilcoxon_p,
)

SAMPLE = np.array([0.8, 1.3, 2.1, 2.2, 3.9, 5.0, 7.4, 11.0, 12.5, 30.0])


def test_the_percentile_interpolates_linearly():
    # type 7: h = (n - 1) q / 100 = 3 * 0.9 = 2.7, so x[2] + 0.7 (x[3] - x[2]) = 3 + 0.7 = 3.7
    assert percentile([4, 1, 3, 2], 90) == pytest.approx(3.7)
    assert percentile([4, 1, 3, 2], 50) == 2.5
    assert percentile([5.0], 90) == 5.0
    assert math.isnan(percentile([], 90))
    assert percentile(SAMPLE, 90) == pytest.approx(pd.Series(SAMPLE).quantile(0.9))


def test_a_bootstrap_interval_of_a_constant_sample_has_no_width():
    assert bootstrap_ci([4.2] * 7) == (4.2, 4.2)
    assert bootstrap_ci([4.2] * 7, np.mean) == pytest.approx((4.2, 4.2))


def test_a_two_value_sample_spans_its_two_values():
    # each resample's median and mean is 1, 3 or 5; 1 and 5 each come a quarter of the time,
    # far more than the 2.5% each tail of the 95% interval holds
    assert bootstrap_ci([1.0, 5.0]) == (1.0, 5.0)
    assert bootstrap_ci([1.0, 5.0], np.mean) == (1.0, 5.0)


def test_no_value_and_one_value():
    low, high = bootstrap_ci([])
    assert math.isnan(low) and math.isnan(high)
    assert bootstrap_ci([0.3]) == (0.3, 0.3)
    assert bootstrap_ci([np.nan, 0.3]) == (0.3, 0.3)  # NaN left out


def test_the_interval_follows_shifts_and_scales_and_holds_the_median():
    low, high = bootstrap_ci(SAMPLE)
    assert low <= np.median(SAMPLE) <= high
    assert bootstrap_ci(SAMPLE + 100) == pytest.approx((low + 100, high + 100))
    assert bootstrap_ci(SAMPLE * 3) == pytest.approx((3 * low, 3 * high))
    assert bootstrap_ci(SAMPLE) == (low, high)  # the same seed, the same interval
    narrow = bootstrap_ci(SAMPLE, level=0.5)
    assert low <= narrow[0] <= narrow[1] <= high


def test_the_paired_comparison_of_a_hand_worked_sample():
    # B / A = 2, 3, 4, 5, 6, 1/7: geometric mean (2*3*4*5*6/7) ** (1/6) = (720/7) ** (1/6)
    # Wilcoxon: |log ratios| rank 1..6 with the negative one ranked 6, so W- = 6 and W+ = 15.
    # Of the 2**6 = 64 sign patterns, 14 have a sum of negative ranks of 6 or less ({}, {1},
    # {2}, {3}, {1,2}, {4}, {1,3}, {5}, {1,4}, {2,3}, {6}, {1,5}, {2,4}, {1,2,3}):
    # two-sided p = 2 * 14 / 64 = 0.4375
    a = [0.5] * 6
    b = [1.0, 1.5, 2.0, 2.5, 3.0, 0.5 / 7]
    result = paired(a, b, a="x", b="y")
    assert result.n == 6 and (result.a, result.b) == ("x", "y")
    assert result.ratio == pytest.approx((720 / 7) ** (1 / 6))
    assert result.p_value == pytest.approx(0.4375)
    assert (result.wins, result.ties, result.losses) == (5, 0, 1)
    assert result.low < 1 < result.high and result.verdict == SAME


def test_every_ratio_on_one_side_gives_the_smallest_exact_p_and_a_verdict():
    # no negative rank: only the empty set has a sum of 0, p = 2 * 1 / 64 = 0.03125
    a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    b = [x * r for x, r in zip(a, [1.5, 1.6, 1.7, 1.8, 1.9, 2.0])]
    slow = paired(a, b, a="x", b="y")
    assert slow.p_value == pytest.approx(0.03125)
    assert 1.5 <= slow.low <= slow.ratio <= slow.high <= 2.0
    assert slow.verdict == "x faster" and slow.wins == 6
    assert paired(b, a, a="x", b="y").verdict == "y faster"


def test_ties_sit_within_five_percent_and_equal_times_measure_no_difference():
    same = paired([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1.04, 2.0, 2.9, 4.0, 5.0, 6.0])
    assert (same.wins, same.ties, same.losses) == (0, 6, 0)
    equal = paired([0.1] * 8, [0.1] * 8)
    assert equal.ratio == 1 and (equal.low, equal.high) == (1, 1)
    assert math.isnan(equal.p_value) and equal.verdict == SAME


def test_zero_times_and_small_samples():
    zero = paired([0.0, 0.0], [0.0, 1e-6])
    assert zero.ratio == pytest.approx(1.0)  # raised to a microsecond, not log(0)
    assert paired([1.0] * 3, [2.0] * 3).verdict.startswith("too few puzzles")
    empty = paired([], [])
    assert empty.n == 0 and empty.verdict == "no puzzle solved by both"
    assert math.isnan(wilcoxon_p([0.5]))
    with pytest.raises(ValueError, match="differ in length"):
        paired([1.0], [1.0, 2.0])


def _run(backend: str, puzzle: str, repeat: int, status: Status, seconds: float) -> Row:
    return Row(key=f"{backend}|{puzzle}|1" + (f"#{repeat}" if repeat else ""), backend=backend,
               dataset="set", puzzle=puzzle, hash=puzzle, status=status, seconds=seconds,
               wall=seconds * 2, cpu=seconds, timeout=1.0, repeat=repeat,
               stats={"nodes": 10 + repeat})


S, T, U = Status.SOLVED, Status.TIMEOUT, Status.UNKNOWN


def test_each_puzzle_takes_its_median_over_its_repeats():
    rows = [_run("a", "p1", 0, S, 0.3), _run("a", "p1", 1, S, 0.1), _run("a", "p1", 2, S, 0.2),
            # two answers of three: answered, the median of (0.4, 0.5, inf) is 0.5
            _run("a", "p2", 0, T, 1.1), _run("a", "p2", 1, S, 0.4), _run("a", "p2", 2, S, 0.5),
            # one answer of three: unanswered, the first unanswered status, seconds' median
            _run("a", "p3", 0, S, 0.2), _run("a", "p3", 1, U, 0.05), _run("a", "p3", 2, T, 1.2),
            # two of four is not more than half
            *(_run("b", "p1", k, s, x) for k, (s, x) in enumerate([(S, 0.1), (T, 1.1),
                                                                  (S, 0.3), (T, 1.3)])),
            _run("b", "p2", 0, S, 0.7)]
    lines = per_puzzle_medians(results_frame(rows)).set_index(["backend", "hash"])
    assert lines.loc[("a", "p1"), ["status", "seconds", "runs", "nodes"]].tolist() == [
        "solved", 0.2, 3, 10]
    assert lines.loc[("a", "p2"), ["status", "seconds", "nodes"]].tolist() == [
        "solved", 0.5, 11]  # other columns from the first answered repeat
    assert lines.loc[("a", "p3"), ["status", "seconds", "nodes"]].tolist() == [
        "unknown", 0.2, 11]
    assert lines.loc[("b", "p1"), "status"] == "timeout"
    assert lines.loc[("b", "p1"), "seconds"] == pytest.approx(0.7)  # median of all four
    assert lines.loc[("b", "p2"), ["status", "seconds", "runs"]].tolist() == ["solved", 0.7, 1]
    assert lines.loc[("a", "p2"), "wall"] == pytest.approx(1.0)  # median of 2.2, 0.8, 1.0
    assert len(lines) == 5 and "repeat" not in lines.columns


def test_single_runs_stay_as_they_are():
    frame = results_frame([_run("a", "p1", 0, S, 0.3), _run("b", "p1", 0, T, 1.1)])
    assert one_line_per_puzzle(frame) is frame
    lines = per_puzzle_medians(frame)
    assert lines["seconds"].tolist() == [0.3, 1.1] and lines["runs"].tolist() == [1, 1]
    assert per_puzzle_medians(frame.iloc[:0]).empty


def test_an_interval_that_leaves_out_1_is_no_verdict_when_the_test_does_not_pass():
    # five puzzles at 2x and one at 0.9x: every resampled mean is above 0, but the one
    # negative rank gives p = 2 * 2 / 64 = 0.0625, over ALPHA
    a = [1.0] * 6
    b = [2.0] * 5 + [0.9]
    result = paired(a, b, a="x", b="y")
    assert result.low > 1 and result.p_value == pytest.approx(0.0625)
    assert result.verdict == SAME


@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_median_drawn_from_its_order_statistics_has_the_law_of_resampling(n):
    import itertools

    from sudokucp.stats import median_draws

    data = np.array([1.0, 2.0, 2.5, 7.0, 9.0, 11.0][:n])
    law: dict[float, float] = {}
    for index in itertools.product(range(n), repeat=n):  # every resample, equally likely
        value = float(np.median(data[list(index)]))
        law[value] = law.get(value, 0.0) + 1 / n**n
    draws = median_draws(data, 200_000, np.random.default_rng(3))
    values, counts = np.unique(draws, return_counts=True)
    assert set(values.tolist()) <= set(law)
    for value, count in zip(values, counts):
        assert count / draws.size == pytest.approx(law[float(value)], abs=0.005)


@pytest.mark.parametrize("n", [2001, 3000])
def test_a_large_sample_median_interval_matches_plain_resampling(n):
    from sudokucp.stats import DIRECT_MEDIAN

    data = np.random.default_rng(5).lognormal(size=n)
    assert n > DIRECT_MEDIAN
    plain = bootstrap_ci(data, lambda a, axis: np.median(a, axis=axis))  # index matrices
    direct = bootstrap_ci(data)
    assert direct == pytest.approx(plain, rel=0.02)
    assert direct == bootstrap_ci(data)  # seeded


@pytest.mark.parametrize("n", [2001, 5000])
def test_a_large_sample_mean_interval_is_the_normal_limit_of_resampling(n):
    from statistics import NormalDist

    from sudokucp.stats import NORMAL_MEAN

    data = np.random.default_rng(7).normal(size=n)
    assert n > NORMAL_MEAN
    half = NormalDist().inv_cdf(0.975) * data.std() / np.sqrt(n)
    assert bootstrap_ci(data, np.mean) == pytest.approx((data.mean() - half, data.mean() + half),
                                                        rel=1e-12)
    plain = bootstrap_ci(data, lambda a, axis: np.mean(a, axis=axis))  # index matrices
    assert bootstrap_ci(data, np.mean) == pytest.approx(plain, abs=0.1 * half)


def test_the_median_law_is_the_same_evaluated_near_the_middle_only():
    from scipy.stats import binom

    from sudokucp.stats import _median_cdf

    for n in (2001, 2002, 25_000):
        m = (n + 1) // 2
        full = binom.sf(m - 1, n, np.arange(1, n + 1) / n)
        near = _median_cdf(n, m)
        assert np.abs(near - full).max() < 1e-30
        assert np.array_equal(near == 1.0, full == 1.0)
