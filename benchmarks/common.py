"""What the benchmark scripts share: the checkout's root, the machine a report was measured on."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from pathlib import Path

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
