"""Competition SAT solvers on the exported CNF beside the in-process ones (reports/external.md).

    python benchmarks/external.py [--puzzles DIR] [--sets top95 forum_hardest_1106 gecode_25x25]
        [--max-puzzles N] [--timeout 60] [--repeat 3] [--repeat-25 1] [--jobs 1] [--seed 5]
        [--backends cadical kissat cryptominisat minisat picosat pysat sat] [--out FILE.md]

Debian's SAT solvers (the presets `cadical`, `cryptominisat`, `minisat`, `picosat`, and `kissat`
where it is on PATH) run as programs on the DIMACS file of `sudoku-cp export` (extended
encoding, givens applied, fixed variables as unit clauses); `pysat` (CaDiCaL 1.9.5 inside the
process) and `sat` (PicoSAT through pycosat) solve the same clauses in the worker. Each set is
one harness sweep (`common.measure` through `timings.sweep`): every run in a killable worker, the
runs shuffled, each answer judged and the backends cross-validated; first solution (limit 1).

Per backend and set: solved, the median CPU of the run as the harness measures it (the worker's
CPU time of the search, the child program's included, with the Python-side encoding), and for
the programs the child's CPU time alone (`cpu_s`), the time the solver prints as its own
(`solver_s`: CaDiCaL's process time, CryptoMiniSat's thread time, MiniSat's CPU time, PicoSAT's
run time; 0.00 where a solver prints two decimals and took less) and the start-up, the child's
CPU not covered by the solver's own clock (`cpu_s - solver_s`); the encoding column is the
backends' `encode_s`, wall seconds of the Python side (the programs: writing the DIMACS file;
`pysat` and `sat`: putting the givens into the clauses). Each puzzle counts as its median over
its repeats; the medians over the puzzles solved come with a bootstrap interval.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from common import ROOT, Provenance, write_report
from timings import CI, cpu_s, median_ci, ms, problems, solved_of, sweep

from sudokucp.backends import backend_class
from sudokucp.io.formats import load_puzzles

PROGRAMS = ["cadical", "kissat", "cryptominisat", "minisat", "picosat"]
IN_PROCESS = ["pysat", "sat"]
SETS = ["top95", "forum_hardest_1106", "gecode_25x25"]
PACKAGES = {"cadical": "cadical", "kissat": "kissat", "cryptominisat": "cryptominisat",
            "minisat": "minisat", "picosat": "picosat"}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def debian_version(package: str) -> str | None:
    """The installed Debian package's version, where dpkg knows it."""
    if shutil.which("dpkg-query") is None:
        return None
    done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


def versions(backends: list[str]) -> str:
    parts = []
    for name in backends:
        debian = debian_version(PACKAGES[name]) if name in PACKAGES else None
        said = backend_class(name).version()
        parts.append(f"{name} {said}" + (f" (Debian package {debian})" if debian else ""))
    return "; ".join(parts)


def per_puzzle_stat(rows, backend: str, key: str) -> dict[str, float]:
    """puzzle hash -> the median over its answered repeats of one stat of a backend's runs."""
    values: dict[str, list[float]] = {}
    for row in rows:
        if row.backend == backend and row.answered and key in row.stats:
            values.setdefault(row.hash, []).append(float(row.stats[key]))
    return {h: float(np.median(v)) for h, v in values.items()}


def table(frame, outcome, backends: list[str], unit) -> list[str]:
    """One line per backend: solved, the harness's CPU, and the child's CPU split into the
    solver's own time and the start-up, each the median over the puzzles solved."""
    lines = [f"| backend | solved | median CPU of the run [{CI}] | median child CPU | "
             "median solver's own time | median start-up (child CPU - own time) | "
             "median encoding (Python) | time-outs | other |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in backends:
        mine = frame[frame["backend"] == name].set_index("hash")
        solved = mine[mine["answered"]]
        child = per_puzzle_stat(outcome.rows, name, "cpu_s")
        own = per_puzzle_stat(outcome.rows, name, "solver_s")
        encode = per_puzzle_stat(outcome.rows, name, "encode_s")
        keys = [h for h in solved.index if h in child]
        startup = [child[h] - own[h] for h in keys if h in own]
        timeouts = int((mine["status"] == "timeout").sum())
        other = len(mine) - len(solved) - timeouts
        lines.append(
            f"| `{name}` | {solved_of(mine)} | {median_ci(solved['cpu'].astype(float), unit)} | "
            f"{_median([child[h] for h in keys], unit)} | "
            f"{_median([own[h] for h in keys if h in own], unit)} | {_median(startup, unit)} | "
            f"{_median([encode[h] for h in solved.index if h in encode], unit)} | "
            f"{timeouts} | {other} |")
    return lines


def _median(values: list[float], unit) -> str:
    return unit(float(np.median(values))) if values else "-"


def section(name: str, path: Path, backends: list[str], args: argparse.Namespace,
            provenance: Provenance, found: list[str]) -> list[str]:
    puzzles = load_puzzles(path)
    if args.max_puzzles:
        puzzles = puzzles[:args.max_puzzles]
    large = puzzles[0].side > 9
    repeat = args.repeat_25 if large else args.repeat
    unit, word = (cpu_s, "CPU seconds") if large else (ms, "CPU milliseconds")
    log(f"{name}: {len(puzzles)} puzzles x {len(backends)} backends x {repeat}")
    frame, outcome = sweep(backends, name, puzzles, provenance=provenance,
                           timeout=args.timeout, repeat=repeat, seed=args.seed, jobs=args.jobs)
    found += [f"{name}: {p}" for p in problems(outcome)]
    return [f"## {name}: {len(puzzles)} grids of {puzzles[0].shape}, {repeat} run(s) each, "
            f"{args.timeout:g} s per run", "", f"Times in {word}.", "",
            *table(frame, outcome, backends, unit), ""]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--sets", nargs="+", default=SETS)
    parser.add_argument("--max-puzzles", type=int, default=0, help="first N of each set (0: all)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per 9x9 puzzle")
    parser.add_argument("--repeat-25", type=int, default=1, help="runs per larger puzzle")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time")
    parser.add_argument("--seed", type=int, default=5, help="seed of the run order")
    parser.add_argument("--backends", nargs="+", default=PROGRAMS + IN_PROCESS)
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "external.md")
    args = parser.parse_args(argv)
    missing = {n: backend_class(n) for n in args.backends if not backend_class(n).available()}
    backends = [n for n in args.backends if n not in missing]
    for name, cls in missing.items():
        log(f"left out {name}: {cls.unavailable_reason() or cls.distribution()}")
    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])
    found: list[str] = []
    body: list[str] = []
    for name in args.sets:
        body += section(name, args.puzzles / f"{name}.txt", backends, args, provenance, found)
    body += ["## Wrong answers, errors and disagreements", "",
             *([f"- {p}" for p in found] or ["None: every answer passed the judge and the "
                                             "backends agreed."]), ""]
    left = [f"`{n}` ({missing[n].unavailable_reason() or missing[n].distribution()})"
            for n in missing]
    head = ["# Competition SAT solvers on the exported CNF", "", *provenance.lines(),
            f"- versions: {versions(backends)}",
            *([f"- not run here: {', '.join(left)}"] if left else []),
            f"- sets (from {args.puzzles}): {', '.join(args.sets)}"
            + (f", the first {args.max_puzzles} grids of each" if args.max_puzzles else ""),
            f"- runs shuffled (seed {args.seed}), {args.jobs} at a time, each in a harness "
            f"worker; first solution; every answer judged by the checker",
            "- the solver's own time is what it prints: CaDiCaL, CryptoMiniSat and PicoSAT print "
            "two decimals, so a run under 5 ms of their own reads 0 and its start-up column holds "
            "the whole child CPU; MiniSat prints microseconds", ""]
    write_report(args.out, "\n".join(head + body) + "\n")
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
