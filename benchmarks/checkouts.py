"""Two checkouts side by side: a worker process per checkout, fed jobs as JSON lines.

Imports nothing of sudokucp, so a worker puts its own checkout's src/ first on sys.path.

Why not the harness (`common.measure`): one harness imports one `sudokucp` and runs that
checkout's backends; comparing two versions of the same backend (benchmarks/engine.py,
benchmarks/trace_overhead.py) needs a process per checkout, each importing its own code, fed the
same grids in alternation so that both see the same load.
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


def interleaved(pair: tuple[Checkout, Checkout], job: dict, grids: list[str], chunk: int,
                rounds: int = 1) -> tuple[list, list]:
    """Every grid through both checkouts, `chunk` at a time, alternating which goes first; with
    several rounds, each grid keeps its least CPU time (the one least disturbed by other load)."""
    results: tuple[list, list] = ([], [])
    for r in range(rounds):
        for i in range(0, len(grids), chunk):
            order = (0, 1) if (i // chunk + r) % 2 == 0 else (1, 0)
            for side in order:
                done = pair[side].run({**job, "grids": grids[i:i + chunk]})
                if r == 0:
                    results[side].extend(done)
                else:
                    for k, row in enumerate(done, i):
                        results[side][k][0] = min(results[side][k][0], row[0])
    return results
