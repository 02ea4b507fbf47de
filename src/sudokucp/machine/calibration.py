"""The calibration loop: a fixed piece of pure-Python work timed before, during and after a
sweep, in the same workers as the runs, so that a machine whose speed moves says so.

A point is the median of SAMPLES timings of the loop (CPU and wall seconds). The spread of a
series is (max - min) / median; the waiting is how much the wall time exceeds the CPU time. A
spread or a waiting above NOISY, or a load average above the usable cores, gives the figures of
the sweep a warning that names what to distrust. `machine` names the machine the figures come
from (CPU model, cores, load, Python) for the summary."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sudokucp.clock import cpu_seconds

SPEC = "calibration"  # the task spec a worker answers with the loop instead of a backend
LOOP = 100_000  # iterations: about 5 ms of CPU on a 2020s core
SAMPLES = 5  # timings per point, back to back (longer than a woken process's first slice)
NOISY = 0.10  # a spread above this warns
POINTS = 10  # points spread over a sweep, besides the first and the last
FEWEST = 10  # runs between two points, at least (a point costs about 25 ms)
EVERY = 1000  # runs between two points, at most


@dataclass(frozen=True)
class Point:
    """One calibration point: the loop's median CPU and wall seconds."""

    cpu: float
    wall: float


def loop(n: int = LOOP) -> int:
    """The fixed work: integer arithmetic in a Python loop."""
    total = 0
    for i in range(n):
        total = (total + i * i) % 1_000_003
    return total


def measure(samples: int = SAMPLES) -> Point:
    """Time the loop `samples` times; the median CPU and wall seconds."""
    cpus, walls = [], []
    for _ in range(samples):
        cpu, wall = cpu_seconds(), time.perf_counter()
        loop()
        walls.append(time.perf_counter() - wall)
        cpus.append(cpu_seconds() - cpu)
    return Point(statistics.median(cpus), statistics.median(walls))


def every(runs: int) -> int:
    """Runs between two points for a sweep of `runs`: about POINTS of them, between FEWEST and
    EVERY runs apart."""
    return max(FEWEST, min(EVERY, runs // POINTS))


def spread(values: Sequence[float]) -> float:
    """(max - min) / median; 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    middle = statistics.median(values)
    return (max(values) - min(values)) / middle if middle > 0 else 0.0


def waiting(points: Sequence[Point]) -> float:
    """How much longer the loop took in wall time than in CPU time, at the median point: the
    share of time it waited for a core (0 on a quiet machine)."""
    ratios = [p.wall / p.cpu - 1 for p in points if p.cpu > 0]
    return max(0.0, statistics.median(ratios)) if ratios else 0.0


def summary(points: Sequence[Point]) -> dict[str, float]:
    """The calibration as the reports show it: points, median milliseconds, spreads, waiting."""
    walls = [p.wall for p in points]
    return {"runs": len(points),
            "median_ms": statistics.median(walls) * 1000 if walls else float("nan"),
            "spread": spread(walls), "cpu_spread": spread([p.cpu for p in points]),
            "waiting": waiting(points), "cpu_ms": [round(p.cpu * 1000, 4) for p in points],
            "wall_ms": [round(p.wall * 1000, 4) for p in points]}


def warnings(points: Sequence[Point], loads: Sequence[float], cores: int) -> list[str]:
    """What to distrust, given the calibration points, the 1-minute load averages seen and the
    usable cores; empty on a quiet machine."""
    found = []
    cpu, wall = spread([p.cpu for p in points]), spread([p.wall for p in points])
    if cpu > NOISY:
        found.append(f"the calibration loop's CPU time varied by {cpu:.0%} (over {NOISY:.0%}): "
                     f"the machine's speed moved during the sweep; distrust every time and "
                     f"every ratio of this report that is within {cpu:.0%} of 1")
    waited = waiting(points)
    shared = ("other work shared the cores; distrust the wall times (`wall`), CPU times are "
              "the steadier figures")
    if waited > NOISY:
        found.append(f"the calibration loop waited for a core: its wall time was {waited:.0%} "
                     f"over its CPU time at the median point (over {NOISY:.0%}): {shared}")
    elif wall > NOISY:
        found.append(f"the calibration loop's wall time varied by {wall:.0%} (over {NOISY:.0%}): "
                     f"{shared}")
    busiest = max(loads, default=0.0)
    if busiest > cores:
        found.append(f"the load average reached {busiest:.2f}, over the {cores} usable cores: "
                     f"runs waited for a core; distrust the wall times, and CPU times where "
                     f"the calibration's CPU spread is large")
    return found


def load() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def machine() -> dict[str, str]:
    """The date, this machine (CPU model, cores), its load average and Python, for the summary."""
    cores, usable = os.cpu_count() or 1, len(os.sched_getaffinity(0))
    where = (f"{_cpu_model()}, {cores} cores ({usable} usable), {platform.system()} "
             f"{platform.machine()}")
    return {"date": time.strftime("%Y-%m-%d %H:%M %Z"), "machine": where,
            "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
            "python": f"{platform.python_version()} ({platform.python_implementation()})"}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"
