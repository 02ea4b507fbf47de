"""Model backends benchmark: cpsat, sat and pyconstraint beside bare references (reports/models.md).

    python benchmarks/models.py [--puzzles DIR] [--sample 1000] [--seed 4] [--timeout 60]
        [--csp-sample 40] [--csp-limit 10] [--csp-16 15] [--cpsat-25 60] [--sat-25 30]
        [--repeat 3] [--repeat-25 1] [--jobs 1] [--skip-25] [--out FILE.md]

(a) 9x9: a seeded sample of royle17.txt and all of top95.txt, first solution, per puzzle including
    model building: the cpsat backend beside a bare CP-SAT model, the sat backend beside the
    textbook pycosat encoding rebuilt per puzzle (both in benchmarks/references.py), in one sweep
    per set, with paired ratios;
(b) pyconstraint at a time limit (it cannot be interrupted from inside: the harness kills it) on
    the first --csp-sample puzzles of each 9x9 set;
(c) 16x16 (gecode_16x16.txt): cpsat, sat and their references on every grid, pyconstraint on the
    first --csp-16;
(d) 25x25 (gecode_25x25.txt): cpsat and sat with their time limits, `--repeat-25` runs per grid
    (1 by default: a run there takes up to a minute).

Every time comes from the harness (`common.measure`): each run in a killable worker, CPU time of
the search (model building included, as the backends measure it), `--repeat` runs of each method
on each puzzle in a shuffled order, each puzzle counted as its median over them; every answer is
judged by the checker and the methods cross-validated. Unsolved puzzles as in the harness's
summary (benchmarks/timings.py): `solved k of N`, times over the puzzles solved, ratios over the
puzzles both solved.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from common import ROOT, Provenance, write_report
from timings import (
    CI,
    LIMITED_HEAD,
    count,
    labels,
    limited_row,
    lines_of,
    median_ci,
    pct,
    ratio,
    solved,
    solved_of,
    spread,
    sweep,
)

from sudokucp.backends import backend_class
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle

BARE, TEXTBOOK = "references:BareCpsat", "references:TextbookPycosat"
METHODS_9 = ["cpsat", BARE, "cpsat:model=boolean", "sat", "sat:encoding=minimal", TEXTBOOK]
METHODS_16 = ["cpsat", BARE, "sat", TEXTBOOK]
SHOWN = {BARE: "bare CP-SAT (`references:BareCpsat`)",
         TEXTBOOK: "textbook pycosat (`references:TextbookPycosat`)"}
PAIRS = [("cpsat", BARE), ("sat", TEXTBOOK)]  # (A, B): B / A


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Sweeps:
    """Harness sweeps of this script, with its settings and its provenance."""

    def __init__(self, args: argparse.Namespace, provenance: Provenance) -> None:
        self.args, self.provenance = args, provenance
        self.problems: list[str] = []

    def run(self, specs: list[str], name: str, puzzles: list[Puzzle] | Path, timeout: float,
            repeat: int | None = None):
        """The per-puzzle lines of `specs` on one set (a file, or puzzles written under
        `name`); disagreements are kept for the report."""
        frame, outcome = sweep(specs, name, puzzles, provenance=self.provenance,
                               timeout=timeout, repeat=repeat or self.args.repeat,
                               seed=self.args.seed, jobs=self.args.jobs)
        self.problems += [f"{name}: {d.puzzle}: {d.message}" for d in outcome.disagreements]
        log(f"done: {', '.join(specs)} on {name}")
        return frame


def race_table(frame, names: dict[str, str]) -> list[str]:
    """The methods of one sweep: solved, then the median with its interval, p10 to p90 and max
    over the puzzles solved."""
    lines = [f"| method | solved | median ms (solved) [{CI}] | p10 to p90 ms (solved) | max ms "
             "(solved) | wrong or missing |", "|---|---:|---:|---:|---:|---:|"]
    for spec, label in names.items():
        mine = lines_of(frame, label)
        seconds = solved(mine)
        lines.append(f"| {SHOWN.get(spec, f'`{label}`')} | {solved_of(mine)} | "
                     f"{median_ci(seconds)} | {spread(seconds)} | {pct(seconds, 100)} | "
                     f"{len(mine) - count(mine, 'solved')} |")
    return lines


def race(sweeps: Sweeps, specs: list[str], name: str, puzzles: list[Puzzle] | Path,
         heading: str) -> list[str]:
    names = labels(specs)
    frame = sweeps.run(list(names.values()), name, puzzles, sweeps.args.timeout)
    size = len(frame) // len(names)
    return [f"{heading} ({size} puzzles)", "", *race_table(frame, names),
            "", *[f"- {ratio(frame, names[a], names[b])}" for a, b in PAIRS], ""]


def limited(sweeps: Sweeps, spec: str, name: str, puzzles: list[Puzzle] | Path, limit: float,
            label: str | None = None, repeat: int | None = None) -> str:
    """A row under LIMITED_HEAD: solved, the times over the solved, how the others ended."""
    frame = sweeps.run([spec], name, puzzles, limit, repeat)
    return limited_row(label or spec, lines_of(frame, labels([spec])[spec]), limit)


def section_9x9(sweeps: Sweeps, sets: dict[str, list[Puzzle] | Path]) -> list[str]:
    out = ["## (a) 9x9, first solution, per puzzle including model building", "",
           "The six methods on a set in one sweep, their runs shuffled together; the ratios are "
           "`sudokucp.stats.paired` over the puzzles both solved (B / A: above 1, B slower).",
           ""]
    for name, puzzles in sets.items():
        out += race(sweeps, METHODS_9, name, puzzles, f"### {name}")
    return out


def section_csp(sweeps: Sweeps, sets: dict[str, list[Puzzle]], number: int,
                limit: float) -> list[str]:
    out = ["## (b) pyconstraint, first solution, killed at the limit", "", *LIMITED_HEAD]
    for name, puzzles in sets.items():
        out.append(limited(sweeps, "pyconstraint", f"{name}-first{number}", puzzles[:number],
                           limit, f"pyconstraint on {name}"))
    return [*out, ""]


def section_16(sweeps: Sweeps, path: Path, csp_count: int, csp_limit: float) -> list[str]:
    out = race(sweeps, METHODS_16, "gecode_16x16", path, "## (c) 16x16, gecode_16x16.txt")
    first = load_puzzles(path)[:csp_count]
    return [*out, *LIMITED_HEAD, limited(sweeps, "pyconstraint", f"gecode_16x16-first{csp_count}",
                                         first, csp_limit), ""]


def section_25(sweeps: Sweeps, path: Path, limits: dict[str, float], repeat: int) -> list[str]:
    out = [f"## (d) 25x25, gecode_25x25.txt, {repeat} run(s) per grid, each in a harness worker",
           "", *LIMITED_HEAD]
    for spec, limit in limits.items():
        out.append(limited(sweeps, spec, "gecode_25x25", path, limit, repeat=repeat))
    return [*out, ""]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--sample", type=int, default=1000, help="royle17 puzzles sampled")
    parser.add_argument("--seed", type=int, default=4, help="seed of the sample and the order")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds per run in (a) and (c), a backstop")
    parser.add_argument("--csp-sample", type=int, default=40, help="9x9 grids per set for (b)")
    parser.add_argument("--csp-limit", type=float, default=10.0)
    parser.add_argument("--csp-16", type=int, default=15, help="16x16 grids for pyconstraint")
    parser.add_argument("--cpsat-25", type=float, default=60.0, help="cpsat limit on 25x25")
    parser.add_argument("--sat-25", type=float, default=30.0, help="sat limit on 25x25")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each method per puzzle")
    parser.add_argument("--repeat-25", type=int, default=1, help="runs per 25x25 grid")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time")
    parser.add_argument("--skip-25", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "models.md")
    args = parser.parse_args(argv)
    for name in ("cpsat", "sat", "pyconstraint"):
        if not backend_class(name).available():
            sys.exit(f"{name} needs {backend_class(name).distribution()}: "
                     f"pip install 'sudoku-cp[{backend_class(name).extra}]'")
    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])
    sweeps = Sweeps(args, provenance)
    royle = load_puzzles(args.puzzles / "royle17.txt")
    sample = random.Random(args.seed).sample(royle, min(args.sample, len(royle)))
    top95 = load_puzzles(args.puzzles / "top95.txt")
    body = section_9x9(sweeps, {"royle17-sample": sample, "top95": args.puzzles / "top95.txt"})
    body += section_csp(sweeps, {"royle17-sample": sample, "top95": top95}, args.csp_sample,
                        args.csp_limit)
    body += section_16(sweeps, args.puzzles / "gecode_16x16.txt", args.csp_16, args.csp_limit)
    if not args.skip_25:
        body += section_25(sweeps, args.puzzles / "gecode_25x25.txt",
                           {"cpsat": args.cpsat_25, "sat": args.sat_25}, args.repeat_25)
    if sweeps.problems:
        body += ["## Disagreements", "", *[f"- {p}" for p in sweeps.problems], ""]
    versions = ", ".join(f"{n} {backend_class(n).version()}" for n in ("cpsat", "sat",
                                                                          "pyconstraint"))
    head = ["# Model backends: CP-SAT, CNF with pycosat, python-constraint2", "",
            *provenance.lines(), f"- versions: {versions}",
            f"- each method {args.repeat} time(s) on each puzzle, the runs of a sweep shuffled "
            f"(seed {args.seed}), {args.jobs} at a time, each in a harness worker; times are CPU "
            "milliseconds of the search with model building, each puzzle its median over its "
            "runs; per method `solved k of N` and the times over the puzzles solved, as in the "
            "harness's summary; every answer judged by the checker",
            ""]
    write_report(args.out, "\n".join(head + body) + "\n")
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
