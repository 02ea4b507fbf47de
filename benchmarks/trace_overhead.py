"""The trace hooks' cost when tracing is off: the same grids through two checkouts, interleaved.

    git worktree add /tmp/before <commit without the hooks>
    git worktree add /tmp/after <the same commit>   # then apply only the hooks' diff there
    python benchmarks/trace_overhead.py --before /tmp/before --after /tmp/after [--out PATH]

Each checkout runs in a worker process of its own (its src/ first on sys.path). The grids go to
both in chunks, which one goes first alternating, for several rounds; each grid keeps its least
CPU time (process_time around solve()). Status, solution and counts must be identical.
Sets: naive and naive-iterative on the project's generated 9x9 grids and the seeds' 9x9 grids;
mrv on the first --royle grids of royle17.txt; hybrid on top95.txt (both from --puzzles).

Why not the harness (`common.measure`): the harness runs the backends of the one checkout whose
`sudokucp` it imports; here the same backend comes from two checkouts of the code (with and
without the hooks), so each needs a process with its own src/ first on sys.path
(benchmarks/checkouts.py), and the grid-by-grid identity of the two is part of what is checked.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from checkouts import Checkout, interleaved

ROOT = Path(__file__).resolve().parents[1]
CHUNK = 10
TIMINGS = ("logic_s", "search_s", "load_s")


def worker(src: str) -> None:
    """Answer jobs read from stdin, one JSON line each, with the checkout at `src`."""
    sys.path.insert(0, src)
    from sudokucp.backends import get_backend
    from sudokucp.io.formats import parse_grid

    for line in sys.stdin:
        job = json.loads(line)
        backend, out = get_backend(job["backend"]), []
        for text in job["grids"]:
            p = parse_grid(text)
            start = time.process_time()
            r = backend.solve(p, limit=1)
            cpu = time.process_time() - start
            stats = {k: v for k, v in r.stats.items() if k not in TIMINGS}
            out.append([cpu, r.status.value, "".join(map(str, r.solution or ())), stats])
        print(json.dumps(out), flush=True)


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          check=False).stdout.strip()


def row(label: str, before: list, after: list) -> tuple[str, int]:
    """A table row: CPU medians and sums, the median per-grid ratio, grids that differ."""
    b, a = [r[0] for r in before], [r[0] for r in after]
    differ = sum(1 for x, y in zip(before, after) if x[1:] != y[1:])
    ratio = statistics.median(y / x for x, y in zip(b, a) if x > 0)
    text = (f"| {label} | {len(b)} | {statistics.median(b) * 1e3:.3f} | "
            f"{statistics.median(a) * 1e3:.3f} | {sum(b):.3f} | {sum(a):.3f} | "
            f"{sum(a) / sum(b):.3f} | {ratio:.3f} | {differ} |")
    return text, differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="checkout without the hooks")
    parser.add_argument("--after", type=Path, default=ROOT, help="checkout with the hooks")
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--royle", type=int, default=300, help="royle17 grids for mrv")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "trace_overhead.md")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT / "src"))
    from common import Provenance, write_report

    from sudokucp.io.formats import load_puzzles

    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])

    def lines(path: Path, count: int = 0) -> list[str]:
        grids = [p.to_line() for p in load_puzzles(path)] if path.is_file() else []
        return grids[:count] if count else grids

    own = [g for name in ("9x9-simple", "9x9-easy", "9x9-intermediate", "9x9-expert")
           for g in lines(ROOT / "puzzles" / "generated" / f"{name}.txt")]
    own += [g for name in ("004-telegram", "002-logic-9x9", "001-main")
            for g in lines(ROOT / "puzzles" / "seeds" / f"{name}.txt")]
    sets = [("naive", "generated and seed 9x9", own),
            ("naive-iterative", "generated and seed 9x9", own),
            ("mrv", f"royle17 (first {args.royle})", lines(args.puzzles / "royle17.txt",
                                                           args.royle)),
            ("hybrid", "top95", lines(args.puzzles / "top95.txt"))]
    pair = (Checkout(args.before, __file__), Checkout(args.after, __file__))
    commits = [git(c, "rev-parse", "--short", "HEAD") for c in (args.before, args.after)]
    changed = git(args.after, "diff", "--shortstat") or "no change"
    out = [f"The command runs from the repository root. `{args.before}` is the commit "
           f"without the hooks, `{args.after}` the same commit with only the hooks' diff applied. "
           f"Chunks of {CHUNK} grids alternate which checkout goes first; each grid keeps its "
           f"least CPU time over {args.rounds} rounds. \"differ\" counts grids whose status, "
           "solution or counts are not identical.", "",
           f"- before: commit {commits[0]}; after: commit {commits[1]} with uncommitted "
           f"changes: {changed.strip()}", "",
           "| backend, set | grids | before median ms | after median ms | before total s | "
           "after total s | total ratio | median per-grid ratio | differ |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    bad = 0
    try:
        for backend, label, grids in sets:
            if grids:
                text, differ = row(f"{backend}, {label}",
                                   *interleaved(pair, {"backend": backend}, grids, CHUNK,
                                                 args.rounds))
                print(text, file=sys.stderr, flush=True)
                out.append(text)
                bad += differ
    finally:
        for checkout in pair:
            checkout.close()
    head = ["# Trace hooks: the search's speed with tracing off", "", *provenance.lines(), ""]
    write_report(args.out, "\n".join(head + out) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        sys.exit(main())
