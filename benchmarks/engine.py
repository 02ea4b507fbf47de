"""Engine before/after: the same grids through two checkouts of sudokucp, interleaved.

    git worktree add /tmp/before <commit>
    python benchmarks/engine.py --before /tmp/before [--puzzles DIR] [--royle 0] [--out PATH]

Each checkout runs in a worker process of its own (its src/ first on sys.path). The grids go to
both in chunks, which one goes first alternating, so that both see the same load on a shared
machine; a small set runs several rounds, each grid keeping its least time. Per grid the worker
times solve() (or apply_logic) in CPU seconds (process_time) and returns the status and stats,
which must be identical in both (timings aside):

(a) hybrid with its defaults on royle17.txt (all, or the first --royle), top95.txt and
    forum_hardest_1106.txt; (b) mrv with its defaults on the same grids;
(c) apply_logic with the seed 002's rule set (and `fish`) on every royle17 grid: shares solved.

Why not the harness (`common.measure`): the harness runs the backends of one checkout, the one
whose `sudokucp` it imports; here the same backend comes from two checkouts of the code, so each
checkout needs a process with its own src/ first on sys.path (benchmarks/checkouts.py), and the
grid-by-grid identity of statuses, solutions and stats across the two is part of what is checked.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from checkouts import Checkout, interleaved

ROOT = Path(__file__).resolve().parents[1]
SEED_RULES = "singles,locked,naked_pair,naked_triple,naked_quad"
TIMINGS = ("logic_s", "search_s")  # stats that are times, not counts
CHUNK = 20
SMALL = 2000  # a set of fewer grids runs several rounds, up to about this many solves


def worker(src: str) -> None:
    """Answer jobs read from stdin, one JSON line each, with the checkout at `src`."""
    sys.path.insert(0, src)
    from sudokucp.backends import get_backend
    from sudokucp.io.formats import parse_grid

    try:
        from sudokucp.engine.techniques import apply_logic
    except ImportError:  # a checkout from before the engine
        from sudokucp.backends.logic import apply_logic

    backends: dict[str, object] = {}
    for line in sys.stdin:
        job = json.loads(line)
        out = []
        for text in job["grids"]:
            p = parse_grid(text)
            if job["what"] == "logic":
                start = time.process_time()
                o = apply_logic(p, job["rules"])
                cpu = time.process_time() - start
                out.append([cpu, "solved" if o.solved else "contradiction" if o.contradiction
                            else "stuck", {"cells": "".join(map(str, o.cells)), **o.counts}])
                continue
            backend = backends.setdefault(job["what"], get_backend(job["what"]))
            start = time.process_time()
            r = backend.solve(p, limit=1)
            cpu = time.process_time() - start
            stats = {k: v for k, v in r.stats.items() if k not in TIMINGS}
            out.append([cpu, r.status.value, {"solution": "".join(map(str, r.solution or ())),
                                              **stats}])
        print(json.dumps(out), flush=True)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def p90(values: list[float]) -> float:
    from sudokucp.stats import percentile

    return percentile(values, 90)


def compare(label: str, before: list, after: list) -> tuple[str, int]:
    """A table row (CPU medians, p90, ratios) and how many grids' outcomes differ."""
    b_cpu, a_cpu = [r[0] for r in before], [r[0] for r in after]
    differ = sum(1 for x, y in zip(before, after) if x[1:] != y[1:])
    ratios = [a / b for a, b in zip(a_cpu, b_cpu) if b > 0]
    mb, ma = statistics.median(b_cpu), statistics.median(a_cpu)
    row = (f"| {label} | {len(before)} | {ms(mb)} | {ms(ma)} | {100 * (ma / mb - 1):+.1f}% | "
           f"{ms(p90(b_cpu))} | {ms(p90(a_cpu))} | "
           f"{ms(sum(b_cpu) / len(b_cpu))} | {ms(sum(a_cpu) / len(a_cpu))} | "
           f"{statistics.median(ratios):.3f} | {differ} |")
    return row, differ


def shares(label: str, before: list, after: list) -> tuple[str, int]:
    """A table row of the logic shares solved, with the grids whose outcome differs."""
    n = len(before)
    solved = [sum(1 for r in side if r[1] == "solved") for side in (before, after)]
    differ = sum(1 for x, y in zip(before, after) if x[1:] != y[1:])
    cpu = [statistics.median(r[0] for r in side) for side in (before, after)]
    row = (f"| {label} | {n} | {solved[0]} ({100 * solved[0] / n:.2f}%) | "
           f"{solved[1]} ({100 * solved[1] / n:.2f}%) | {ms(cpu[0])} | {ms(cpu[1])} | {differ} |")
    return row, differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="checkout to compare with")
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--royle", type=int, default=0, help="first N royle17 grids (0: all)")
    parser.add_argument("--logic-royle", type=int, default=0,
                        help="first N royle17 grids for (c) (0: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "engine.md")
    args = parser.parse_args(argv)
    if not (args.puzzles / "royle17.txt").is_file():
        print(f"skipped: no royle17.txt in {args.puzzles} (give --puzzles)", file=sys.stderr)
        return 0
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT / "src"))
    from common import Provenance, write_report

    from sudokucp.io.formats import load_puzzles

    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])

    def lines(name: str, count: int = 0) -> list[str]:
        path = args.puzzles / name
        grids = [p.to_line() for p in load_puzzles(path)] if path.is_file() else []
        return grids[:count] if count else grids

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    sets = [("royle17", lines("royle17.txt", args.royle)), ("top95", lines("top95.txt")),
            ("forum_hardest_1106", lines("forum_hardest_1106.txt"))]
    pair = (Checkout(args.before, __file__), Checkout(ROOT, __file__))
    out = [f"`{args.before}` is the checkout compared with (the command runs from the "
           "repository root). Each checkout runs in its own process; the grids go to both in "
           f"chunks of {CHUNK}, which one goes first alternating; a set of fewer than {SMALL} "
           "grids runs several rounds, each grid keeping its least time. Times are CPU seconds "
           "per grid inside the worker; \"differ\" counts grids whose status, solution or stats "
           "(timings aside) are not identical.", "",
           "| backend, set | grids | before median ms | after median ms | change | before p90 | "
           "after p90 | before mean | after mean | median per-grid ratio | differ |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    bad = 0
    try:
        for what in ("hybrid", "mrv"):
            for name, grids in sets:
                if grids:
                    rounds = max(1, SMALL // len(grids))
                    label = f"{what}, {name}" + (f" (best of {rounds})" if rounds > 1 else "")
                    row, differ = compare(label, *interleaved(pair, {"what": what}, grids,
                                                              CHUNK, rounds))
                    log(row)
                    out.append(row)
                    bad += differ
        royle = lines("royle17.txt", args.logic_royle)
        out += ["", "Logic alone (apply_logic) on royle17.txt:", "",
                "| rule set | grids | solved before | solved after | before median ms | "
                "after median ms | differ |", "|---|---:|---:|---:|---:|---:|---:|"]
        for rules in (SEED_RULES, "fish"):
            row, differ = shares(rules, *interleaved(pair, {"what": "logic", "rules": rules},
                                                      royle, CHUNK))
            log(row)
            out.append(row)
            bad += differ
    finally:
        for checkout in pair:
            checkout.close()
    head = ["# Propagation engine: before and after", "", *provenance.lines(), ""]
    write_report(args.out, "\n".join([*head, *out, ""]))
    log(f"wrote {args.out}; {bad} grids differ")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(sys.argv[2])
    else:
        raise SystemExit(main())
