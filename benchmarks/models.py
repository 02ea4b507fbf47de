"""Model backends benchmark: cpsat, sat and pyconstraint beside bare references (reports/models.md).

    python benchmarks/models.py [--puzzles DIR] [--sample 1000] [--seed 4] [--csp-sample 40]
        [--csp-limit 10] [--csp-16 15] [--cpsat-25 60] [--sat-25 30] [--skip-25] [--out FILE.md]

(a) 9x9: a seeded sample of royle17.txt and all of top95.txt, first solution, per puzzle including
    model building: the cpsat backend beside a bare CP-SAT model written here, the sat backend
    beside the textbook pycosat encoding rebuilt per puzzle; the methods take turns on each puzzle.
(b) pyconstraint at a time limit, each solve in a harness worker killed when the limit passes (it
    cannot be interrupted from inside), on the first --csp-sample puzzles of each 9x9 set.
(c) 16x16 (gecode_16x16.txt): cpsat and sat on every grid, pyconstraint on the first --csp-16.
(d) 25x25 (gecode_25x25.txt): cpsat and sat with their time limits, each run in a killed worker.
Every answer is judged by sudokucp.check.is_solution. Times are wall clock (perf_counter) with the
process CPU time beside them: read CPU time when the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from common import run_isolated

from sudokucp.backends import backend_class, from_spec
from sudokucp.check import is_solution
from sudokucp.executors import ResourceLimits, Task
from sudokucp.files import write_text
from sudokucp.formats import load_puzzles
from sudokucp.puzzle import Grid, Puzzle, geometry
from sudokucp.result import Status

ROOT = Path(__file__).resolve().parents[1]
GRACE = 5.0  # seconds past the limit before a run that honours its limit is killed


def bare_cpsat(puzzle: Puzzle) -> Grid:
    """The reference: the shortest faithful CP-SAT model, built and solved per puzzle."""
    from ortools.sat.python import cp_model

    n = puzzle.side
    model = cp_model.CpModel()
    cells = [model.new_int_var(v or 1, v or n, "") for v in puzzle.cells]
    for unit in geometry(puzzle.shape).units:
        model.add_all_different([cells[c] for c in unit])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.solve(model)
    return tuple(solver.value(v) for v in cells)


def textbook_clauses(puzzle: Puzzle) -> list[list[int]]:
    """The pycosat example's CNF: each cell one digit (pairs), digits distinct in every unit
    (pairs), a unit clause per given; every clause rebuilt for every puzzle."""
    n = puzzle.side

    def v(i: int, j: int, d: int) -> int:
        return n * n * (i - 1) + n * (j - 1) + d

    res = []
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            res.append([v(i, j, d) for d in range(1, n + 1)])
            res += [[-v(i, j, d), -v(i, j, e)]
                    for d in range(1, n + 1) for e in range(d + 1, n + 1)]
    for unit in geometry(puzzle.shape).units:
        cells = [(c // n + 1, c % n + 1) for c in unit]
        for a, (i, j) in enumerate(cells):
            for k, m in cells[a + 1:]:
                res += [[-v(i, j, d), -v(k, m, d)] for d in range(1, n + 1)]
    res += [[v(c // n + 1, c % n + 1, g)] for c, g in enumerate(puzzle.cells) if g]
    return res


def textbook_pycosat(puzzle: Puzzle) -> Grid:
    """The reference for sat: the example's encoding, solved, read back."""
    import pycosat

    n = puzzle.side
    model = set(pycosat.solve(textbook_clauses(puzzle)))
    return tuple(next((d for d in range(1, n + 1) if c * n + d in model), 0)
                 for c in range(n * n))


def backend_method(spec: str) -> Callable[[Puzzle], Grid | None]:
    backend = from_spec(spec)
    return lambda puzzle: backend.solve(puzzle).solution


def timed(method: Callable[[Puzzle], Grid | None], puzzle: Puzzle) -> tuple[float, float, bool]:
    """(wall seconds, CPU seconds, answer correct) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    grid = method(puzzle)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return wall, cpu, grid is not None and is_solution(puzzle, grid)


def race(methods: dict[str, Callable], puzzles: list[Puzzle]) -> dict[str, list[tuple]]:
    """Every method on every puzzle, taking turns puzzle by puzzle (rotating who goes first)."""
    for method in methods.values():  # warm up: imports, cached tables
        method(puzzles[0])
    names = list(methods)
    rows: dict[str, list[tuple]] = {name: [] for name in names}
    for k, puzzle in enumerate(puzzles):
        for name in names[k % len(names):] + names[:k % len(names)]:
            rows[name].append(timed(methods[name], puzzle))
    return rows


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def race_table(rows: dict[str, list[tuple]]) -> list[str]:
    lines = ["| method | median ms | p90 ms | max ms | median CPU ms | wrong or missing |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, runs in rows.items():
        wall, cpu = [r[0] for r in runs], [r[1] for r in runs]
        lines.append(f"| {name} | {ms(statistics.median(wall))} | {ms(quantile(wall, 0.9))} | "
                     f"{ms(max(wall))} | {ms(statistics.median(cpu))} | "
                     f"{sum(not r[2] for r in runs)} |")
    return lines


def ratio(rows: dict[str, list[tuple]], top: str, bottom: str) -> str:
    """Ratio of medians (wall and CPU) and the median of per-puzzle wall ratios."""
    med = {k: [statistics.median(r[i] for r in rows[k]) for i in (0, 1)] for k in (top, bottom)}
    per = statistics.median(a[0] / b[0] for a, b in zip(rows[top], rows[bottom]))
    return (f"{top} / {bottom}: {med[top][0] / med[bottom][0]:.2f} (medians, wall), "
            f"{med[top][1] / med[bottom][1]:.2f} (medians, CPU), {per:.2f} (median per puzzle)")


def section_9x9(sets: dict[str, list[Puzzle]]) -> list[str]:
    methods = {"cpsat": backend_method("cpsat"), "bare CP-SAT": bare_cpsat,
               "cpsat:model=boolean": backend_method("cpsat:model=boolean"),
               "sat": backend_method("sat"), "sat:encoding=minimal":
               backend_method("sat:encoding=minimal"), "textbook pycosat": textbook_pycosat}
    out = ["## (a) 9x9, first solution, per puzzle including model building", ""]
    for label, puzzles in sets.items():
        rows = race(methods, puzzles)
        out += [f"### {label} ({len(puzzles)} puzzles)", "", *race_table(rows), "",
                f"- {ratio(rows, 'cpsat', 'bare CP-SAT')}",
                f"- {ratio(rows, 'textbook pycosat', 'sat')}", ""]
        print(f"done: {label}", file=sys.stderr, flush=True)
    return out


def isolated(spec: str, puzzles: list[Puzzle], limit: float,
             kill_after: float) -> list[tuple[Status, float, bool]]:
    """(status, seconds, correct) of each solve, one at a time in a worker killed after
    `kill_after` seconds (a TIMEOUT then)."""
    limits = ResourceLimits(limit, grace=kill_after - limit)
    tasks = [Task(str(k), spec, p, 1, limits) for k, p in enumerate(puzzles)]
    runs = []
    for outcome in run_isolated(tasks):
        solution, puzzle = outcome.result.solution, outcome.task.puzzle
        ok = solution is not None and is_solution(puzzle, solution)
        runs.append((outcome.result.status, outcome.result.seconds, ok))
    return runs


def limited(spec: str, puzzles: list[Puzzle], limit: float, kill_after: float) -> list[str]:
    """A table row of solved / time-out counts with the median and max seconds of the solved."""
    runs = isolated(spec, puzzles, limit, kill_after)
    solved = [s for status, s, ok in runs if status is Status.SOLVED and ok]
    wrong = sum(status is Status.SOLVED and not ok for status, _, ok in runs)
    out_of_time = sum(status is Status.TIMEOUT for status, _, _ in runs)
    other = len(runs) - len(solved) - wrong - out_of_time
    times = (f"{statistics.median(solved):.3f} | {max(solved):.3f}" if solved else "- | -")
    print(f"done: {spec} on {len(puzzles)}", file=sys.stderr, flush=True)
    return [f"| {spec} | {len(puzzles)} | {limit:g} s | {len(solved)} | {out_of_time} | "
            f"{wrong} | {other} | {times} |"]


LIMITED_HEAD = ["| backend | puzzles | limit | solved | time-outs | wrong | other | "
                "median s (solved) | max s (solved) |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]


def section_csp(sets: dict[str, list[Puzzle]], count: int, limit: float) -> list[str]:
    out = ["## (b) pyconstraint, first solution, killed at the limit", "", *LIMITED_HEAD]
    for label, puzzles in sets.items():
        row = limited("pyconstraint", puzzles[:count], limit, limit)[0]
        out.append(row.replace("| pyconstraint |", f"| pyconstraint on {label} |", 1))
    return [*out, ""]


def section_16(puzzles: list[Puzzle], csp_count: int, csp_limit: float) -> list[str]:
    rows = race({"cpsat": backend_method("cpsat"), "bare CP-SAT": bare_cpsat,
                 "sat": backend_method("sat"), "textbook pycosat": textbook_pycosat}, puzzles)
    out = [f"## (c) 16x16, gecode_16x16.txt ({len(puzzles)} puzzles)", "", *race_table(rows), "",
           f"- {ratio(rows, 'cpsat', 'bare CP-SAT')}",
           f"- {ratio(rows, 'textbook pycosat', 'sat')}", "", *LIMITED_HEAD]
    out += limited("pyconstraint", puzzles[:csp_count], csp_limit, csp_limit)
    return [*out, ""]


def section_25(puzzles: list[Puzzle], limits: dict[str, float]) -> list[str]:
    out = [f"## (d) 25x25, gecode_25x25.txt ({len(puzzles)} puzzles), each run in a harness "
           f"worker (killed {GRACE:g} s after its limit)", "", *LIMITED_HEAD]
    for spec, limit in limits.items():
        out += limited(spec, puzzles, limit, limit + GRACE)
    return [*out, ""]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--sample", type=int, default=1000, help="royle17 puzzles sampled")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--csp-sample", type=int, default=40, help="9x9 grids per set for (b)")
    parser.add_argument("--csp-limit", type=float, default=10.0)
    parser.add_argument("--csp-16", type=int, default=15, help="16x16 grids for pyconstraint")
    parser.add_argument("--cpsat-25", type=float, default=60.0, help="cpsat limit on 25x25")
    parser.add_argument("--sat-25", type=float, default=30.0, help="sat limit on 25x25")
    parser.add_argument("--skip-25", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "models.md")
    args = parser.parse_args(argv)
    for name in ("cpsat", "sat", "pyconstraint"):
        if not backend_class(name).available():
            sys.exit(f"{name} needs {backend_class(name).distribution()}: "
                     f"pip install 'sudoku-cp[{backend_class(name).extra}]'")
    royle = load_puzzles(args.puzzles / "royle17.txt")
    sets = {"royle17 sample": random.Random(args.seed).sample(royle, args.sample),
            "top95": load_puzzles(args.puzzles / "top95.txt")}
    started = time.perf_counter()
    body = section_9x9(sets)
    body += section_csp(sets, args.csp_sample, args.csp_limit)
    body += section_16(load_puzzles(args.puzzles / "gecode_16x16.txt"), args.csp_16,
                       args.csp_limit)
    if not args.skip_25:
        body += section_25(load_puzzles(args.puzzles / "gecode_25x25.txt"),
                           {"cpsat": args.cpsat_25, "sat": args.sat_25})
    write(args, body, time.perf_counter() - started)


def write(args: argparse.Namespace, body: list[str], seconds: float) -> None:
    command = "python benchmarks/models.py " + " ".join(sys.argv[1:])
    versions = ", ".join(f"{n} {backend_class(n).version()}" for n in ("cpsat", "sat",
                                                                          "pyconstraint"))
    head = ["# Model backends: CP-SAT, CNF with pycosat, python-constraint2", "",
            f"Command: `{command.strip()}` (took {seconds / 60:.1f} min)", "",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}; {versions}. Other work shared the machine: "
            "compare figures within one table, where the methods took turns on each puzzle.", ""]
    write_text(args.out, "\n".join(head + body) + "\n")


if __name__ == "__main__":
    main()
