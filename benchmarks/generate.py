"""Generator benchmark: what minimal puzzles cost per shape, and which uniqueness checker to use.

    python benchmarks/generate.py [--count 100] [--seed bench] [--minimal-25] [--out FILE.md]

(a) `--count` minimal 9x9 puzzles with the default checker: median, p90 and max per puzzle, total;
(b) 12x12 and 16x16: one minimal puzzle each with every complete checker worth trying (the hybrid,
    MRV, the CNF solver); the 16x16 figures are why sat is the default checker from 16x16 on;
(c) 25x25: one puzzle with a --givens target of 60% of the cells (375) with the hybrid, and with
    --minimal-25 one minimal puzzle with the sat checker (3 to 30 minutes; the hybrid can spend
    minutes on a single check of a near-minimal 25x25).

Every puzzle made is checked again (unique at limit 2) with a second backend. Times are wall clock
(perf_counter) and process CPU time: read CPU time when the machine is shared.

Why not the harness (`common.measure`): what is timed is the generator, a loop of hundreds of
uniqueness checks on grids it makes up as it goes, not one backend's solve of a given puzzle;
the harness times solves of puzzles it is given. The checkers are compared by the generator's
whole run with each, one puzzle per shape and checker.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from common import Provenance, write_report

from sudokucp.backends import available_backends, get_backend
from sudokucp.generators.generator import Generated, checker, generate, generate_one
from sudokucp.puzzle import Shape
from sudokucp.stats import percentile

ROOT = Path(__file__).resolve().parents[1]


def timed_one(shape: Shape, seed: str, backend_name: str | None,
              givens: int | None = None) -> tuple[Generated, float, float]:
    """One puzzle with its wall and CPU seconds."""
    backend = checker(shape, backend_name)
    wall, cpu = time.perf_counter(), time.process_time()
    made = generate_one(shape, seed, 0, givens=givens, backend=backend)
    return made, time.perf_counter() - wall, time.process_time() - cpu


def confirm(made: Generated, name: str) -> None:
    """Stop the benchmark if a second backend does not find exactly one solution."""
    result = get_backend(name).solve(made.puzzle, limit=2)
    if not (result.count == 1 and result.complete):
        sys.exit(f"{made.seed}: {name} finds {result.describe_count()}")


def bench_9x9(count: int, seed: str) -> list[str]:
    """Section (a): many minimal 9x9 puzzles."""
    shape = Shape.parse("9x9")
    backend = checker(shape)
    wall, cpu = time.perf_counter(), time.process_time()
    made = list(generate(shape, count, seed, backend=backend))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    second = "sat" if "sat" in available_backends() else "mrv"
    for m in made:
        confirm(m, second)
    per = sorted(m.seconds for m in made)
    givens = sorted(m.puzzle.givens for m in made)
    return [f"## (a) {count} minimal 9x9 puzzles, checker {backend.label}", "",
            "| puzzles | median s/puzzle | p90 | max | total wall s | total CPU s | "
            "median givens | givens range |", "|---|---|---|---|---|---|---|---|",
            f"| {count} | {statistics.median(per):.3f} | {percentile(per, 90):.3f} | "
            f"{per[-1]:.3f} | {wall:.1f} | {cpu:.1f} | {statistics.median(givens):g} | "
            f"{givens[0]}-{givens[-1]} |", "",
            f"Every puzzle confirmed unique by {second} at limit 2.", ""]


def bench_large(minimal_25: bool, seed: str) -> list[str]:
    """Sections (b) and (c): one puzzle per shape and checker."""
    have = set(available_backends())
    plan = [("12x12", name, None) for name in ("hybrid", "mrv", "sat") if name in have]
    plan += [("16x16", name, None) for name in ("sat", "hybrid") if name in have]
    plan += [("25x25", "hybrid", 375)]
    if minimal_25:
        plan += [("25x25", "sat", None)]
    rows = ["## (b, c) One puzzle per shape and checker", "",
            "| shape | checker | kind | givens | checks | wall s | CPU s |",
            "|---|---|---|---|---|---|---|"]
    for text, name, givens in plan:
        if name not in have:
            continue
        shape = Shape.parse(text)
        made, wall, cpu = timed_one(shape, seed, name, givens)
        confirm(made, "sat" if name != "sat" and "sat" in have else "hybrid")
        kind = "minimal" if made.minimal else f"--givens {givens}"
        rows.append(f"| {text} | {name} | {kind} | {made.puzzle.givens} | {made.checks} | "
                    f"{wall:.1f} | {cpu:.1f} |")
        print(rows[-1], file=sys.stderr, flush=True)
    return [*rows, "", "Each puzzle confirmed unique at limit 2 by a second backend (sat, or the "
            "hybrid for the sat rows). The same seed gives the same puzzle whatever the checker: "
            "only the time differs.", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--minimal-25", action="store_true",
                        help="add a minimal 25x25 puzzle (sat checker; minutes to half an hour)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "generate.md")
    args = parser.parse_args()
    provenance = Provenance()
    body = bench_9x9(args.count, args.seed) + bench_large(args.minimal_25, args.seed)
    head = ["# Generator: the cost of minimal puzzles", "", *provenance.lines(), ""]
    write_report(args.out, "\n".join(head + body))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
