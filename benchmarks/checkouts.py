"""Two checkouts side by side: a worker process per checkout, fed jobs as JSON lines.

Imports nothing of sudokucp, so a worker puts its own checkout's src/ first on sys.path.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


class Checkout:
    """A worker process running `script --worker ROOT/src`: one job per line in, one reply out."""

    def __init__(self, root: Path, script: str) -> None:
        self.root = root
        self.proc = subprocess.Popen([sys.executable, script, "--worker", str(root / "src")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, job: dict) -> list:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()
