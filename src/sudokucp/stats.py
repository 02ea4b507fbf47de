"""The statistics behind the reports: percentiles, bootstrap confidence intervals, paired
comparisons of two backends, and each puzzle's median over its repeats.

Percentiles: one definition for the whole project, linear interpolation between order statistics
(Hyndman and Fan's type 7, numpy's default "linear", pandas' `quantile`): for n sorted values
x[0] <= ... <= x[n-1], the q-th percentile is x[h] interpolated at h = (n - 1) q / 100.

Bootstrap: the percentile bootstrap. `resamples` samples of the same size are drawn with
replacement (a seeded generator, so the same data give the same interval), the statistic is
taken on each, and the interval is the (1 - level) / 2 and (1 + level) / 2 percentiles of those.
Past 2,000 values two statistics skip the drawing: the median's resamples are drawn from the
law of its order statistic (the same law), and the mean's interval is the one the bootstrap tends
to, mean +/- z * sd / sqrt(n) (the data's own sd, ddof=0), which leaves out only the bootstrap's
skewness correction, of order 1 / sqrt(n), and its Monte Carlo noise.

Paired comparison of backends A and B on the puzzles both solved: ratio = B's time / A's time
per puzzle, so a ratio above 1 means B slower. Its summary is the geometric mean of the ratios
with a bootstrap interval of the mean of their logarithms, exponentiated; a puzzle is a tie when
its ratio lies within TIE either way; the Wilcoxon signed-rank test runs on the log ratios. Times
under FLOOR_S count as FLOOR_S first. The verdict names the faster backend only when the interval
leaves out 1 and the test's p-value is under ALPHA, over MIN_PAIRED puzzles or more (with fewer,
no two-sided signed-rank test can reach p < 0.05); else it says SAME: no difference measured,
which is no ranking.

Repeats: each puzzle counts once per backend, as its median over its repeats; see
per_puzzle_medians for when such a line counts as answered.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sudokucp.result import ANSWERED

if TYPE_CHECKING:  # pandas is imported by the functions that need it: the ladder does not
    import pandas as pd

    Values = Sequence[float] | np.ndarray | pd.Series

PERCENTILE_METHOD = "linear"  # Hyndman-Fan type 7, for every percentile in the project
LEVEL = 0.95  # confidence level of the intervals
RESAMPLES = 2000  # bootstrap resamples
SEED = 0  # the bootstrap's generator: the same data give the same interval
TIE = 1.05  # a ratio within 1.05x either way is a tie
FLOOR_S = 1e-6  # times under a microsecond count as one before ratios (a zero has no logarithm)
ALPHA = 0.05  # a verdict needs the Wilcoxon p-value under this too
MIN_PAIRED = 6  # fewer puzzles than this: no signed-rank test can reach p < 0.05, no verdict
CHUNK = 4_000_000  # resampled values held at once (the index matrix is cut into rows of this)
DIRECT_MEDIAN = 2000  # past this many values, a bootstrap median is drawn from its order statistics
NORMAL_MEAN = 2000  # past this many values, a bootstrap mean's interval is its normal limit
WIDTH = 8  # the median's law is evaluated within WIDTH * sqrt(n) ranks of the middle (16 sd)
SAME = "no difference measured"
ANSWERED_WORDS = frozenset(status.value for status in ANSWERED)
Statistic = Callable[..., np.ndarray]


def percentile(values: Values, q: float) -> float:
    """The q-th percentile (0 to 100) of the values, by linear interpolation (type 7); NaN
    for no value. NaN values are left out."""
    data = _known(values)
    return float(np.percentile(data, q, method=PERCENTILE_METHOD)) if data.size else math.nan


def bootstrap_ci(values: Values, statistic: Statistic = np.median, *, level: float = LEVEL,
                 resamples: int = RESAMPLES, seed: int = SEED) -> tuple[float, float]:
    """The percentile-bootstrap interval of `statistic` (a numpy reduction taking `axis=`) at
    `level`: (low, high); (NaN, NaN) for no value, (v, v) for one. The mean of more than
    NORMAL_MEAN values takes the interval the bootstrap tends to (mean_interval)."""
    data = _known(values)
    if data.size == 0:
        return math.nan, math.nan
    if data.size == 1:
        return float(data[0]), float(data[0])
    if statistic is np.mean and data.size > NORMAL_MEAN:
        return mean_interval(data, level)
    draws = _resampled(data, statistic, resamples, seed)
    tail = (1 - level) / 2 * 100
    return percentile(draws, tail), percentile(draws, 100 - tail)


def _resampled(data: np.ndarray, statistic: Statistic, resamples: int, seed: int) -> np.ndarray:
    """The statistic of `resamples` samples drawn with replacement, a matrix of indices at a
    time (rows of at most CHUNK values); the median of more than DIRECT_MEDIAN values drawn
    from its order statistics' law (median_draws)."""
    rng = np.random.default_rng(seed)
    if statistic is np.median and data.size > DIRECT_MEDIAN:
        return median_draws(data, resamples, rng)
    rows = max(1, CHUNK // data.size)
    parts = []
    for start in range(0, resamples, rows):
        index = rng.integers(0, data.size, size=(min(rows, resamples - start), data.size))
        parts.append(np.asarray(statistic(data[index], axis=1), dtype=float))
    return np.concatenate(parts)


def median_draws(data: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The medians of `resamples` samples of `data` drawn with replacement, each drawn without
    drawing its n values: the lower middle order statistic K (0-based index into the sorted
    data) has P(K <= k) = P(Binomial(n, (k+1)/n) >= m), m = (n+1) // 2, sampled by inverting
    that law; for even n the upper middle is K again when more than m draws fall at or under K,
    else the least of the other n - m draws, uniform over the indices above K. The same law as
    resampling, in O(n + resamples). The law is evaluated within WIDTH * sqrt(n) ranks of the
    middle only: past them it is 0 or 1 to far below a double's last digit."""
    from scipy.stats import binom

    x, n = np.sort(data), data.size
    m = (n + 1) // 2
    cdf = _median_cdf(n, m)
    low = np.minimum(np.searchsorted(cdf, rng.random(resamples), side="right"), n - 1)
    if n % 2:
        return x[low]
    at_low = cdf[low] - np.where(low > 0, cdf[low - 1], 0.0)  # P(K = k)
    exactly = binom.pmf(m, n, (low + 1) / n) - binom.pmf(m, n, low / n) * (
        (n - 1 - low) / (n - low)) ** (n - m)  # P(K = k and just m draws at or under it)
    alone = rng.random(resamples) * at_low < exactly
    above = n - 1 - low
    least = low + 1 + np.floor(above * (1 - rng.random(resamples) ** (1 / (n - m))))
    high = np.where(alone, np.minimum(least, n - 1), low).astype(np.intp)
    return (x[low] + x[high]) / 2


def _median_cdf(n: int, m: int) -> np.ndarray:
    """P(K <= k) for k = 0..n-1, K the lower middle order statistic of n draws (m = (n+1)//2)."""
    from scipy.stats import binom

    width = math.ceil(WIDTH * math.sqrt(n))
    first, last = max(0, m - 1 - width), min(n, m + width)
    cdf = np.zeros(n)
    cdf[last:] = 1.0
    cdf[first:last] = binom.sf(m - 1, n, np.arange(first + 1, last + 1) / n)
    return cdf


def mean_interval(data: np.ndarray, level: float) -> tuple[float, float]:
    """The interval the percentile bootstrap of the mean tends to: the mean plus or minus the
    normal quantile of `level` times the data's own (ddof=0) standard deviation over sqrt(n),
    the resampling law of the mean to within its skewness over sqrt(n) (central limit)."""
    from statistics import NormalDist

    half = NormalDist().inv_cdf((1 + level) / 2) * float(data.std()) / math.sqrt(data.size)
    mean = float(data.mean())
    return mean - half, mean + half


def _known(values: Values) -> np.ndarray:
    """The values as a float array, NaN left out."""
    data = np.asarray(values, dtype=float).ravel()
    return data[~np.isnan(data)]


@dataclass(frozen=True)
class Paired:
    """A and B on the puzzles both solved: ratio = B / A (above 1: B slower), the geometric mean
    of the per-puzzle ratios and its bootstrap interval, A's wins (ratio above TIE), ties and
    losses (ratio below 1 / TIE), the Wilcoxon signed-rank p-value and a verdict."""

    a: str
    b: str
    n: int
    ratio: float
    low: float
    high: float
    wins: int
    ties: int
    losses: int
    p_value: float
    verdict: str


def paired(a_seconds: Values, b_seconds: Values, *, a: str = "A", b: str = "B",
           floor: float = FLOOR_S, level: float = LEVEL, resamples: int = RESAMPLES,
           seed: int = SEED) -> Paired:
    """A's and B's seconds on the same puzzles (in the same order), compared: times under
    `floor` raised to it, ratio B / A; the verdict names the faster one only when the interval
    leaves out 1, the p-value is under ALPHA and there are MIN_PAIRED puzzles or more."""
    logs = log_ratios(a_seconds, b_seconds, floor)
    n = logs.size
    mean = float(logs.mean()) if n else math.nan
    low, high = bootstrap_ci(logs, np.mean, level=level, resamples=resamples, seed=seed)
    band = math.log(TIE)
    wins, losses = int((logs > band).sum()), int((logs < -band).sum())
    ratio, low, high = math.exp(mean), math.exp(low), math.exp(high)
    p = wilcoxon_p(logs)
    return Paired(a, b, n, ratio, low, high, wins, n - wins - losses, losses, p,
                  verdict(a, b, n, low, high, p))


def log_ratios(a_seconds: Values, b_seconds: Values, floor: float = FLOOR_S) -> np.ndarray:
    """log(B / A) per puzzle, both times first raised to `floor`."""
    a_s = np.maximum(np.asarray(a_seconds, dtype=float), floor)
    b_s = np.maximum(np.asarray(b_seconds, dtype=float), floor)
    if a_s.shape != b_s.shape:
        raise ValueError(f"paired times differ in length: {a_s.size} and {b_s.size}")
    return np.log(b_s) - np.log(a_s)


def wilcoxon_p(differences: Values) -> float:
    """The two-sided p-value of the Wilcoxon signed-rank test on the differences (scipy: exact
    for small samples without zeros); NaN for fewer than two, or when every one is zero."""
    from scipy.stats import wilcoxon

    data = np.asarray(differences, dtype=float)
    if data.size < 2 or not np.any(data):
        return math.nan
    with warnings.catch_warnings():  # scipy warns when zeros or ties force its normal approximation
        warnings.simplefilter("ignore")
        return float(wilcoxon(data).pvalue)


def verdict(a: str, b: str, n: int, low: float, high: float, p_value: float = 0.0) -> str:
    """'A faster', 'B faster' when the interval of B / A leaves out 1 and the p-value is under
    ALPHA (a NaN p-value is not); else SAME."""
    if n == 0:
        return "no puzzle solved by both"
    if n < MIN_PAIRED:
        return f"too few puzzles (under {MIN_PAIRED})"
    if not p_value < ALPHA:
        return SAME
    if low > 1:
        return f"{a} faster"
    if high < 1:
        return f"{b} faster"
    return SAME


def per_puzzle_medians(results: pd.DataFrame) -> pd.DataFrame:
    """One line per (backend, hash) from a results frame: `seconds` the median over its repeats
    and `runs` how many; answered when more than half of them answered, the other columns from
    the first repeat whose status agrees; `cpu`, `wall`, `rss_mb` medians over every repeat.

    An unanswered repeat counts as infinitely long, so the line is answered exactly when the
    median of those times is finite, i.e. when the median of the PAR-2 times is an answered
    time; its `seconds` is then that median. An unanswered line's `seconds` is the median of
    its repeats' own seconds."""
    import pandas as pd

    frame = results.reset_index(drop=True)
    if "repeat" in frame:
        frame = frame.sort_values("repeat", kind="stable")
    keys = [frame["backend"], frame["hash"]]
    seconds = frame["seconds"].astype(float)
    ok = frame["status"].isin(ANSWERED_WORDS)
    median = _by_puzzle(seconds.where(ok, np.inf), keys, "median")
    solved = np.isfinite(median)
    first = frame[ok == solved].drop_duplicates(["backend", "hash"]).index
    lines = frame.loc[first].drop(columns="repeat", errors="ignore")
    lines["seconds"] = median.where(solved, _by_puzzle(seconds, keys, "median")).loc[first]
    for column in ("cpu", "wall", "rss_mb"):
        if column in frame:
            each = pd.to_numeric(frame[column], errors="coerce").astype(float)
            lines[column] = _by_puzzle(each, keys, "median").loc[first]
    lines["runs"] = _by_puzzle(seconds, keys, "size").loc[first].astype(int)
    return lines.sort_index().reset_index(drop=True)


def _by_puzzle(values: pd.Series, keys: list[pd.Series], how: str) -> pd.Series:
    """`how` ("median", "size") of the values over each (backend, hash), on every line."""
    return values.groupby(keys, sort=False, dropna=False).transform(how)


def one_line_per_puzzle(results: pd.DataFrame) -> pd.DataFrame:
    """`results` as they are when each backend ran each puzzle once, else their per-puzzle
    medians over the repeats."""
    if results.empty or not results.duplicated(["backend", "hash"]).any():
        return results
    return per_puzzle_medians(results)
