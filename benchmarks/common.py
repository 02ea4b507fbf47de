"""What the benchmark scripts share: the checkout's root, the machine a report was measured on,
runs isolated in the harness's killable workers."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from sudokucp.executors import Outcome, Task, make_executor

ROOT = Path(__file__).resolve().parents[1]


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as the report prints them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def machine() -> list[str]:
    """Report lines naming Python, the CPUs, the commit, the date and the load at the start."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                                capture_output=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    return [f"- Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
            f"commit {commit or '?'}; {time.strftime('%Y-%m-%d %H:%M')}",
            f"- load average at start: {load_average()}"]


def run_isolated(tasks: Iterable[Task], jobs: int = 1) -> Iterator[Outcome]:
    """Outcomes of `tasks` as they finish, each run in a worker process of the local executor:
    killed past its time limit plus its grace, a crash or a memory exhaustion contained."""
    with make_executor("local", jobs=jobs) as executor:
        for task in tasks:
            executor.submit(task)
        yield from executor.results()
