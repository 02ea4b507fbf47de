"""The pure-Python hybrid against its targets, written to reports/hybrid.md.

    python benchmarks/hybrid.py [--puzzles DIR] [--sample 2000] [--seed 17] [--norvig PATH]
        [--repeat 3] [--jobs 1] [--timeout 10] [--max-grids N] [--results DIR]
        [--limit-25 60] [--repeat-25 1] [--seeds-25 K] [--seed-limit 20]
        [--skip-rules] [--skip-25 | --only-25] [--out reports/hybrid.md]

Every table is one sweep of the harness (benchmarks/common.py `measure`): each run in a killable
worker process, CPU seconds of the search alone, every method on every grid --repeat times in an
order shuffled with --seed, every answer judged and cross-validated (a wrong one, a crash or a
disagreement stops the script). A grid's time is the median of its repeats; a table gives the
median over the grids with its bootstrap interval, and each `a / b` line the ratio of those
medians and the paired per-grid ratio (`sudokucp.stats.paired`) from the same sweep.
First solution (limit 1) throughout:
(a) royle17, a seeded sample: the hybrid, the yardstick (benchmarks/yardstick.py: singles + MRV,
    about 100 lines), and Norvig's solver when --norvig names a local copy of his sudoku.py (the
    script fetches nothing; it then runs in the harness as `yardstick:Norvig`).
(b) forum_hardest_1106: the hybrid, the `sat` backend, the yardstick. (c) top95 and gecode_16x16:
    the hybrid and the yardstick.
(d) The branching rules and node propagation, each on forum_hardest_1106, top95 and gecode_16x16,
    all in one sweep.
(e) gecode_25x25: the hybrid, --limit-25 CPU seconds each (the harness kills a run past it), in
    one sweep; --repeat-25 runs per grid (1 by default: the search is deterministic, a repeat
    would only time it again; (f) shows what its seed is worth). At most 18 x --limit-25 of CPU.
(f) with --seeds-25 K: #89 and #90 under the restarts' seeds 0..K-1, --seed-limit CPU seconds
    each, in one sweep: how much (e) owes to the default seed.
--only-25 runs (e) and (f) alone (default --out reports/hybrid_25.md). Notes written by hand about
these figures live in reports/hybrid-notes.md, never in the generated report.

The shared pieces (`Bench`, `Sweep`) are imported by benchmarks/jit.py too.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from common import ROOT, Provenance, measure

from sudokucp import stats
from sudokucp.backends import OptionError, backend_class, from_spec
from sudokucp.files import write_text
from sudokucp.formats import load_puzzles
from sudokucp.harness import BenchOutcome
from sudokucp.puzzle import Puzzle
from sudokucp.report import results_frame
from sudokucp.result import Status

RULES = ("smallest", "cell", "degree", "degree_unit", "wdeg")
WALL_SLACK = 3  # a CPU-limited run's wall limit, in CPU limits: load stops no run early
REFUSED = {Status.WRONG, Status.ERROR, Status.CRASH, Status.MEMOUT, Status.UNSAT}
Unit = Callable[[float], str]


class Wrong(SystemExit):
    """A wrong answer, a failed run or a disagreement: the script stops, naming them."""


# --- the harness sweeps and their tables (shared with benchmarks/jit.py) --------------------------

@dataclass(frozen=True)
class Sweep:
    """One harness sweep as the report reads it: every run (`runs`) and each method's median
    over its repeats per grid (`lines`), in columns `method` (the report's name) and `grid`."""

    runs: pd.DataFrame
    lines: pd.DataFrame

    @classmethod
    def of(cls, outcome: BenchOutcome, methods: Mapping[str, str], puzzles: Sequence[Puzzle],
           unique: bool = False) -> Sweep:
        """The sweep of `methods` (report name -> backend spec) on `puzzles`, judged first."""
        judge(outcome, unique)
        names = {from_spec(spec).label: name for name, spec in methods.items()}
        grids = {}
        for puzzle in puzzles:
            grids.setdefault(puzzle.digest, puzzle.name)
        runs = results_frame(outcome.rows)
        runs["method"] = runs["backend"].map(names)
        runs["grid"] = runs["hash"].map(grids)
        return cls(runs, stats.per_puzzle_medians(runs))

    def on(self, puzzles: Iterable[Puzzle]) -> Sweep:
        """The sweep restricted to these grids (one set of a sweep over several)."""
        keep = {p.digest for p in puzzles}
        return Sweep(self.runs[self.runs["hash"].isin(keep)],
                     self.lines[self.lines["hash"].isin(keep)])

    def of_method(self, name: str) -> pd.DataFrame:
        return self.lines[self.lines["method"] == name]

    def solved(self, name: str) -> pd.Series:
        """A method's seconds per grid (median of the repeats) on the grids it answered."""
        lines = self.of_method(name)
        return lines.loc[answered(lines), "seconds"].astype(float)

    def by_grid(self, name: str) -> pd.Series:
        """solved(name) indexed by the grids' hashes."""
        lines = self.of_method(name)
        return pd.Series(self.solved(name).to_numpy(),
                         index=lines.loc[answered(lines), "hash"].to_numpy())

    def table(self, names: Sequence[str], unit: Unit, label: str) -> list[str]:
        """Per method: grids, solved, the median over the answered grids with its 95% bootstrap
        interval, p90, mean and max, and the mean of `guesses` where the method counts them."""
        lines = [f"| method | grids | solved | median {label} [95% CI] | p90 {label} | "
                 f"mean {label} | max {label} | mean guesses |",
                 "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for name in names:
            every, seconds = self.of_method(name), self.solved(name)
            if seconds.empty:
                lines.append(f"| {name} | {len(every)} | 0 | - | - | - | - | - |")
                continue
            lines.append(f"| {name} | {len(every)} | {len(seconds)} | "
                         f"{median_ci(seconds, unit)} | "
                         f"{unit(stats.percentile(seconds, 90))} | {unit(seconds.mean())} | "
                         f"{unit(seconds.max())} | {mean_of(every, 'guesses')} |")
        return lines

    def ratio(self, num: str, den: str, digits: int = 3) -> str:
        """`num / den`: the ratio of the two medians, then the paired comparison per grid on the
        grids both answered (geometric mean with its interval, wins, Wilcoxon p, verdict)."""
        a, b = self.by_grid(den), self.by_grid(num)
        both = a.index.intersection(b.index)
        if both.empty:
            return f"- {num} / {den}: no grid answered by both"
        p = stats.paired(a[both].to_numpy(), b[both].to_numpy(), a=den, b=num)
        medians = stats.percentile(b, 50) / stats.percentile(a, 50)
        p_value = "-" if math.isnan(p.p_value) else f"{p.p_value:.2g}"
        f = f".{digits}f"
        return (f"- {num} / {den}: {medians:{f}} (ratio of the medians); per grid "
                f"{p.ratio:{f}}x [{p.low:{f}}, {p.high:{f}}] (geometric mean, {stats.LEVEL:.0%} "
                f"bootstrap interval) over {p.n} grids answered by both; {den} quicker on "
                f"{p.wins}, ties {p.ties} (within {stats.TIE - 1:.0%}), {num} quicker on "
                f"{p.losses}; Wilcoxon p = {p_value}; {p.verdict}")


def median_ci(seconds: pd.Series, unit: Unit) -> str:
    """'median [low, high]': the median of the grids' times and its 95% bootstrap interval."""
    if seconds.empty:
        return "-"
    low, high = stats.bootstrap_ci(seconds)
    return f"{unit(stats.percentile(seconds, 50))} [{unit(low)}, {unit(high)}]"


def answered(lines: pd.DataFrame) -> pd.Series:
    return lines["status"].isin(stats.ANSWERED_WORDS)


def mean_of(lines: pd.DataFrame, column: str, digits: int = 1) -> str:
    """The mean of a stats column, '-' where the method does not report it."""
    if column not in lines:
        return "-"
    values = pd.to_numeric(lines[column], errors="coerce").dropna()
    if values.empty:
        return "-"
    mean = values.mean()
    return f"{mean:,.{digits if mean < 1000 else 0}f}"


def judge(outcome: BenchOutcome, unique: bool = False) -> None:
    """Stop on a disagreement, a run that was wrong, failed or claimed UNSAT (the sets are all
    solvable), or, with `unique`, a count other than 1 (limit 2 on grids known unique)."""
    bad = [f"{r.backend} on {r.puzzle}: {r.status.value} {r.error or ''}".strip()
           for r in outcome.rows if r.status in REFUSED]
    if unique:
        bad += [f"{r.backend} found {r.count} solutions to {r.puzzle}"
                for r in outcome.rows if r.answered and r.count != 1]
    bad += [f"{d.puzzle}: {d.message}" for d in outcome.disagreements]
    if bad:
        raise Wrong("stopped, the harness found:\n  " + "\n  ".join(bad[:10])
                    + (f"\n  ... {len(bad) - 10} more" if len(bad) > 10 else ""))


@dataclass
class Bench:
    """How a script's sweeps run: repeats, the shuffle's seed, runs at once, the wall limit of an
    unlimited run, where to keep each sweep's harness folder (None: nowhere), and the report's
    header gathering every sweep's calibration."""

    provenance: Provenance
    repeat: int = 3
    seed: int = 0
    jobs: int = 1
    timeout: float = 10.0
    results: Path | None = None
    titles: list[str] = field(default_factory=list)

    def sweep(self, title: str, methods: Mapping[str, str], puzzles: Sequence[Puzzle], *,
              limit: int = 1, cpu_limit: float | None = None, repeat: int | None = None,
              timeout: float | None = None, unique: bool = False) -> Sweep:
        """Every method (report name -> backend spec) on every grid through the harness, each run
        within `timeout` wall seconds (default: the bench's; with a CPU limit, WALL_SLACK times
        it)."""
        repeat = self.repeat if repeat is None else repeat
        self.titles.append(title)
        out = None
        if self.results is not None:
            slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
            out = self.results / f"{len(self.titles):02d}-{slug}"
        if timeout is None:
            timeout = self.timeout if cpu_limit is None else cpu_limit * WALL_SLACK
        print(f"{title}: {len(methods)} methods x {len(puzzles)} grids x {repeat}",
              file=sys.stderr, flush=True)
        outcome = measure(list(methods.values()), puzzles, repeat=repeat, seed=self.seed,
                          timeout=timeout, cpu_limit=cpu_limit, limit=limit, jobs=self.jobs,
                          out=out, provenance=self.provenance)
        return Sweep.of(outcome, methods, puzzles, unique)

    def method(self) -> list[str]:
        """The header line that says how every table was measured."""
        kept = f"; each sweep's harness folder kept under `{self.results}`" if self.results else ""
        return [f"- measured through the harness (`benchmarks/common.py` `measure`): each run in "
                f"a killable worker process, `seconds` = CPU seconds of the search alone; every "
                f"method on every grid {self.repeat} times (unless a table says otherwise), all "
                f"runs of a table in one order shuffled with seed {self.seed}, {self.jobs} at a "
                f"time, {self.timeout:g} s of wall time each (a CPU-limited run: {WALL_SLACK} "
                f"times its CPU limit); a grid's time is the median of its repeats; medians come "
                f"with a 95% bootstrap interval over the grids; `a / b` lines compare per grid on "
                f"the grids both answered, from the same sweep (`sudokucp.stats.paired`){kept}"]


def sample(puzzles: list[Puzzle], n: int | None) -> list[Puzzle]:
    """The first n grids (all for None)."""
    return puzzles if n is None else puzzles[:n]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}" if seconds < 0.01 else f"{seconds * 1000:.1f}"


# --- the sections ---------------------------------------------------------------------------------

def section(bench: Bench, title: str, puzzles: list[Puzzle], methods: dict[str, str],
            pairs: list[tuple[str, str]]) -> list[str]:
    found = bench.sweep(title, methods, puzzles)
    return [f"## {title}", "", *found.table(list(methods), ms, "ms"), "",
            *(found.ratio(a, b) for a, b in pairs), ""]


def section_rules(bench: Bench, sets: dict[str, list[Puzzle]]) -> list[str]:
    """Every branching rule with singles, and with locked candidates, at the nodes: one sweep
    over the three sets."""
    methods: dict[str, str] = {}
    hybrid = backend_class("hybrid")
    for rule in RULES:
        for nodes in ("singles", "locked"):
            with contextlib.suppress(OptionError):  # a hybrid without that rule
                hybrid(branch=rule, node_techniques=nodes)
                methods[f"{rule}|{nodes}"] = f"hybrid:branch={rule}:node_techniques={nodes}"
    if not methods:
        return []
    title = "(d) Branching rules and node propagation"
    found = bench.sweep(title, methods, [p for grids in sets.values() for p in grids])
    lines = [f"## {title}", "",
             "Median CPU ms over the grids [95% CI] (mean guesses); every configuration on the "
             "same grids in one sweep.", "",
             "| branch | node_techniques | " + " | ".join(sets) + " |",
             "|---|---|" + "---:|" * len(sets)]
    for name in methods:
        cells = []
        for grids in sets.values():
            part = found.on(grids)
            seconds = part.solved(name)
            cells.append(f"{median_ci(seconds, ms)} ({mean_of(part.of_method(name), 'guesses')})"
                         if not seconds.empty else "-")
        lines.append(f"| {name.replace('|', ' | ')} | " + " | ".join(cells) + " |")
    return lines + [""]


def section_25(bench: Bench, puzzles: list[Puzzle], limit_s: float, repeat: int,
               count: int | None) -> list[str]:
    """The default hybrid on each 25x25 grid (the first `count`, #89 and #90 first), limit_s of
    CPU each, in one sweep."""
    grids = sample(sorted(puzzles, key=lambda p: not p.name.endswith(("#89", "#90"))), count)
    title = f"(e) gecode_25x25: the hybrid, first solution, {limit_s:g} s of CPU each"
    found = bench.sweep(title, {"hybrid": "hybrid"}, grids, cpu_limit=limit_s, repeat=repeat)
    lines = [f"## {title}", "",
             f"{repeat} run(s) per grid; a run past {limit_s:g} s of CPU is killed by the "
             f"harness. CPU s: the median over the runs (a killed run's: its CPU at the kill).", "",
             "| grid | solved | CPU s | guesses |", "|---|---|---:|---:|"]
    by_grid = found.lines.set_index("hash")
    for puzzle in grids:
        line = next(by_grid.loc[[puzzle.digest]].itertuples())
        lines.append(f"| {puzzle.name} | {runs_solved(found, puzzle.digest)} of {repeat} | "
                     f"{line.seconds:.1f} | {guesses(line)} |")
    solved = int(answered(found.lines).sum())
    return lines + ["", f"- solved {solved} of the {len(grids)} grids run ({len(puzzles)} in the "
                    "set)", ""]


def runs_solved(found: Sweep, digest: str) -> int:
    """How many runs on a grid answered."""
    return int(answered(found.runs[found.runs["hash"] == digest]).sum())


def guesses(line: object) -> str:
    value = getattr(line, "guesses", math.nan)
    return "-" if pd.isna(value) or getattr(line, "status", "") not in stats.ANSWERED_WORDS \
        else f"{value:.0f}"


def section_seeds(bench: Bench, puzzles: list[Puzzle], seeds: int, limit_s: float,
                  repeat: int) -> list[str]:
    """#89 and #90 with the restarts' seeds 0..seeds-1 in one sweep: how much the default's
    figure owes to its seed."""
    grids = [p for p in puzzles if p.name.endswith(("#89", "#90"))]
    methods = {f"seed {s}": f"hybrid:seed={s}" for s in range(seeds)}
    title = (f"(f) gecode_25x25 #89 and #90: restart seeds 0..{seeds - 1}, {limit_s:g} s of CPU "
             "each")
    found = bench.sweep(title, methods, grids, cpu_limit=limit_s, repeat=repeat)
    lines = [f"## {title}", "", f"{repeat} run(s) per seed and grid, all in one sweep.", "",
             "| grid | solved | median CPU s (solved) | CPU s per seed |", "|---|---:|---:|---|"]
    for puzzle in grids:
        part = found.on([puzzle])
        per_seed = [part.of_method(name) for name in methods]
        cpu = [float(x["seconds"].iloc[0]) for x in per_seed if answered(x).any()]
        median = f"{stats.percentile(cpu, 50):.1f}" if cpu else "-"
        cells = [f"{float(x['seconds'].iloc[0]):.1f}" if answered(x).any() else "-"
                 for x in per_seed]
        lines.append(f"| {puzzle.name} | {len(cpu)} of {seeds} | {median} | "
                     + ", ".join(cells) + " |")
    return lines + [""]


def main(argv: list[str] | None = None) -> None:
    args_in = sys.argv[1:] if argv is None else argv
    provenance = Provenance([sys.argv[0], *args_in])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--sample", type=int, default=2000, help="royle17 grids sampled")
    parser.add_argument("--seed", type=int, default=17,
                        help="seeds the royle17 sample and the order of the runs")
    parser.add_argument("--norvig", type=Path, help="a local copy of Norvig's sudoku.py")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each method on each grid")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="wall seconds per run in (a) to (d)")
    parser.add_argument("--max-grids", type=int,
                        help="the first N grids of every set in (b) to (e) (a quick run)")
    parser.add_argument("--results", type=Path, help="keep each sweep's harness folder here")
    parser.add_argument("--limit-25", type=float, default=60.0, help="CPU seconds per 25x25 run")
    parser.add_argument("--repeat-25", type=int, default=1, help="runs per grid in (e) and (f)")
    parser.add_argument("--seeds-25", type=int, default=0,
                        help="also #89 and #90 under this many restart seeds (f)")
    parser.add_argument("--seed-limit", type=float, default=20.0, help="CPU seconds per seed run")
    parser.add_argument("--skip-rules", action="store_true")
    parser.add_argument("--skip-25", action="store_true")
    parser.add_argument("--only-25", action="store_true", help="(e), and (f) with --seeds-25")
    parser.add_argument("--out", type=Path, help="default reports/hybrid.md "
                        "(reports/hybrid_25.md with --only-25)")
    args = parser.parse_args(args_in)
    if args.norvig and not args.norvig.is_file():
        parser.error(f"--norvig {args.norvig}: no such file")
    if not backend_class("sat").available():
        sys.exit("the sat backend needs pycosat: pip install 'sudoku-cp[sat]'")
    out = args.out or ROOT / "reports" / ("hybrid_25.md" if args.only_25 else "hybrid.md")
    started = time.perf_counter()
    bench = Bench(provenance, args.repeat, args.seed, args.jobs, args.timeout, args.results)
    body: list[str] = []
    if not args.only_25:
        body += sections_9_16(bench, args)
    if args.only_25 or not args.skip_25:
        grids = load_puzzles(args.puzzles / "gecode_25x25.txt")
        body += section_25(bench, grids, args.limit_25, args.repeat_25, args.max_grids)
        if args.seeds_25:
            body += section_seeds(bench, grids, args.seeds_25, args.seed_limit, args.repeat_25)
    top = ["# The pure-Python hybrid", "", *provenance.lines(),
           f"- took {(time.perf_counter() - started) / 60:.1f} min", *bench.method(), ""]
    write_text(out, "\n".join(top + body) + "\n")


def sections_9_16(bench: Bench, args: argparse.Namespace) -> list[str]:
    """(a) to (d)."""
    sets = {name: sample(load_puzzles(args.puzzles / f"{name}.txt"), args.max_grids)
            for name in ("forum_hardest_1106", "top95", "gecode_16x16")}
    royle = random.Random(args.seed).sample(load_puzzles(args.puzzles / "royle17.txt"),
                                            args.sample)
    methods = {"hybrid": "hybrid", "yardstick": "yardstick:Yardstick"}
    pairs = [("hybrid", "yardstick")]
    if args.norvig:
        methods["norvig"] = f"yardstick:Norvig:path={args.norvig.resolve()}"
        pairs += [("norvig", "hybrid"), ("norvig", "yardstick")]
    body = section(bench, f"(a) royle17: {len(royle)} grids sampled with seed {args.seed}",
                   royle, methods, pairs)
    if not args.norvig:
        body.insert(-1, "- Norvig's solver: not measured in this run (--norvig PATH names a "
                        "local copy of his sudoku.py)")
    body += section(bench, "(b) forum_hardest_1106", sets["forum_hardest_1106"],
                    {"hybrid": "hybrid", "sat": "sat", "yardstick": "yardstick:Yardstick"},
                    [("hybrid", "sat"), ("hybrid", "yardstick")])
    for name in ("top95", "gecode_16x16"):
        body += section(bench, f"(c) {name}", sets[name],
                        {"hybrid": "hybrid", "yardstick": "yardstick:Yardstick"},
                        [("hybrid", "yardstick")])
    if not args.skip_rules:
        body += section_rules(bench, sets)
    return body


if __name__ == "__main__":
    main()
