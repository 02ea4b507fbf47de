"""Variants benchmark (reports/variants.md): every backend that takes a kind, on each kind.

    python benchmarks/variants.py [--kinds KIND ...] [--count 8] [--side 9] [--small-side 6]
        [--repeat 3] [--timeout 10] [--pencil-grids 4] [--pencil '9:2,3,4,5,6 16:3,4,8']
        [--classic FILE ...] [--seed 0] [--jobs 1] [--datasets ../shared/datasets/raw]
        [--out reports/variants.md]

(a) Per kind of --kinds (all by default): --count generated puzzles of --side and of
    --small-side (sudokucp.generators.variant_generator, unique, seed --seed) and, for killer, the
    published killers of --datasets; every registered backend whose `kinds` take the kind,
    through the harness (killable workers, CPU time, --repeat runs in a shuffled order, every
    answer judged, the backends cross-validated); the others are listed as not taking it.
(b) The lines each backend's variant support needed: lines added and removed in the commits of
    the project's history whose subject names variants, in the backend's own files (git).
(c) Pencil-mark puzzles where clause learning overtakes the depth-first searches: per side of
    --pencil, --pencil-grids random complete grids, no givens, each cell's candidates its digit
    and E other random digits for each E listed, limit 2 (a proof of uniqueness, or a second
    solution), --pencil-repeat runs; the crossovers: the E at which each clause-learning
    backend's median CPU is below each depth-first search's (an unsolved puzzle counts as
    infinitely slow).
(d) The classic path before and after: the code before the first variants commit (a git
    worktree) and the code now, each running `bench` on --classic puzzles with --repeat runs,
    in the order before, after, after, before; `sudoku-cp compare` pairs each before with the
    after next to it (a backend is flagged when its time ratio's interval lies above 1.1).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from common import ROOT, Provenance, measure, write_report

from sudokucp.backends import BACKENDS, backend_class
from sudokucp.generators.generator import fill_grid
from sudokucp.generators.variant_generator import generate_variants
from sudokucp.io.formats import read_puzzles
from sudokucp.io.variants import to_text
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.reporting.report import markdown_table, results_frame
from sudokucp.result import ANSWERED, Status
from sudokucp.rules import KINDS, Rules
from sudokucp.stats import one_line_per_puzzle, percentile

SOURCES = {  # a backend's own files, for the lines its variants needed
    "naive": ["src/sudokucp/backends/naive.py"], "mrv": ["src/sudokucp/backends/mrv.py"],
    "hybrid": ["src/sudokucp/backends/hybrid"], "dlx": ["src/sudokucp/backends/dlx.py"],
    "jit": ["src/sudokucp/backends/jit"], "cpsat": ["src/sudokucp/backends/cpsat.py"],
    "sat": ["src/sudokucp/backends/sat"],
    "minizinc": ["src/sudokucp/backends/minizinc"], "csp": ["src/sudokucp/backends/csp"],
    "pyconstraint": ["src/sudokucp/backends/pyconstraint.py"],
    "(shared) rules, judge, formats, engine": [
        "src/sudokucp/rules.py", "src/sudokucp/check.py", "src/sudokucp/io/variants.py",
        "src/sudokucp/engine"]}
VARIANT_COMMITS = re.compile(r"^variants\b|variant's search state|the variant encodings",
                             re.IGNORECASE)  # subjects of the commits that made the variants
CLASSIC_BACKENDS = ("naive", "naive-iterative", "mrv", "hybrid", "dlx", "jit", "cpsat", "sat",
                    "pysat", "csp", "pyconstraint")
DFS = ("mrv", "hybrid", "dlx", "jit", "naive-iterative")
CDCL = ("sat", "pysat", "cpsat")
NAIVE = ("naive", "naive-iterative")  # row-major: on the large side most runs end at the limit
SKIPPED = ("command", "gpu", "logic")  # not a solver of its own here / no device / no search


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--side", type=int, default=9)
    parser.add_argument("--small-side", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--pencil-grids", type=int, default=4)
    parser.add_argument("--pencil", default="9:2,3,4,5,6 16:3,4,8",
                        help="sides and their extra candidates, 'SIDE:E,E SIDE:E'")
    parser.add_argument("--pencil-repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--classic", nargs="+", type=Path,
                        default=[ROOT / "puzzles" / "generated" / "9x9-expert.txt",
                                 ROOT / "puzzles" / "generated" / "6x6.txt"])
    parser.add_argument("--datasets", type=Path,
                        default=ROOT.parent / "shared" / "datasets" / "raw")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "variants.md")
    return parser.parse_args(argv)


def solvers() -> list[str]:
    """Every registered backend that is installed here and searches on its own."""
    return [name for name in BACKENDS if name not in SKIPPED and backend_class(name).available()]


def takers(kind: str, names: Sequence[str]) -> list[str]:
    return [n for n in names if kind in backend_class(n).kinds]


def write_set(folder: Path, name: str, puzzles: Sequence[Puzzle]) -> Path:
    """A file of variant blocks, named after the set (the harness's dataset column)."""
    path = folder / f"{name}.txt"
    path.write_text("\n".join(to_text(p) for p in puzzles))
    return path


def generated(kind: str, side: int, count: int, seed: int) -> tuple[list[Puzzle], float]:
    """The generated puzzles of a kind and the seconds making them took."""
    shape = Shape.for_side(side)
    made = list(generate_variants(shape, frozenset({kind}), count, seed))
    seconds = sum(g.seconds for g in made)
    log(f"generated {count} {kind} {shape}: {seconds:.1f} s")
    return [g.puzzle for g in made], seconds


def published_killers(raw: Path) -> list[Puzzle]:
    return [e.puzzle for path in sorted(raw.glob("killer_*.json"))
            for e in read_puzzles(str(path)) if e.puzzle is not None]


def cell(group: pd.DataFrame) -> str:
    """'solved/puzzles, median ms [p10, p90]' over each puzzle's median CPU time (a puzzle
    solved when more than half of its repeats answered: stats.one_line_per_puzzle)."""
    per_puzzle = one_line_per_puzzle(group)
    solved = per_puzzle[per_puzzle["status"].isin([s.value for s in ANSWERED])]
    if solved.empty:
        return f"0/{len(per_puzzle)}"
    ms = solved["seconds"].to_numpy() * 1000
    return (f"{len(solved)}/{len(per_puzzle)}, {percentile(ms, 50):.3g} ms "
            f"[{percentile(ms, 10):.3g}, {percentile(ms, 90):.3g}]")


def kinds_part(args: argparse.Namespace, provenance: Provenance, scratch: Path) -> list[str]:
    """Per kind, every backend that takes it on the generated (and published) puzzles; the
    naive pair on the small side only."""
    names, lines = solvers(), []
    killers = published_killers(args.datasets) if args.datasets.is_dir() else []
    for kind in args.kinds:
        small, small_s = generated(kind, args.small_side, args.count, args.seed)
        large, large_s = generated(kind, args.side, args.count, args.seed)
        sets = {"large": {f"{kind}_{args.side}x{args.side}": large},
                "small": {f"{kind}_{args.small_side}x{args.small_side}": small}}
        if kind == "killer" and killers:
            sets["large"]["killer_published"] = killers
        taking = takers(kind, names)
        log(f"{kind}: {', '.join(taking)}")
        frames, outcomes = [], []
        for size, named in sets.items():
            files = [write_set(scratch, name, ps) for name, ps in named.items()]
            run = [n for n in taking if size == "small" or n not in NAIVE]
            outcomes.append(measure(run, files, repeat=args.repeat, seed=args.seed,
                                    timeout=args.timeout, jobs=args.jobs, limit=2,
                                    provenance=provenance))
            frames.append(results_frame(outcomes[-1].rows))
        frame = pd.concat(frames, ignore_index=True)
        rows = [r for o in outcomes for r in o.rows]
        table = pd.DataFrame({name: {d.replace("_", " "): cell(g) for d, g in
                                     frame[frame["backend"] == name].groupby("dataset")}
                              for name in taking}).T.fillna("not run")
        lines += [f"### {kind}", "", f"{len(rows)} runs; wrong: "
                  f"{sum(r.status is Status.WRONG for r in rows)}; disagreements: "
                  f"{sum(len(o.disagreements) for o in outcomes)}; generated in "
                  f"{small_s:.1f} s ({args.small_side}x{args.small_side}) and {large_s:.1f} s "
                  f"({args.side}x{args.side}); not taking {kind}: "
                  f"{', '.join(n for n in names if n not in taking) or 'none'}", "",
                  markdown_table(table.rename_axis("backend").reset_index()), ""]
    return lines


def variant_commits() -> list[str]:
    """The commits whose subject names Sudoku variants (not the engine's variants of a
    technique), oldest first."""
    out = subprocess.run(["git", "log", "--reverse", "--format=%H %s"], cwd=ROOT, text=True,
                         capture_output=True, check=True).stdout
    return [sha for sha, _, subject in (line.partition(" ") for line in out.splitlines())
            if VARIANT_COMMITS.search(subject)]


def lines_part() -> list[str]:
    """Lines added and removed per backend's files in the variant commits."""
    commits, rows = variant_commits(), []
    for owner, paths in SOURCES.items():
        added = removed = 0
        for sha in commits:
            stat = subprocess.run(["git", "show", "--numstat", "--format=", sha, "--", *paths],
                                  cwd=ROOT, text=True, capture_output=True, check=True).stdout
            for line in stat.splitlines():
                a, r, _ = line.split("\t", 2)
                if a != "-":
                    added, removed = added + int(a), removed + int(r)
        rows.append({"backend": owner, "added": added, "removed": removed,
                     "net": added - removed})
    return [f"{len(commits)} commits (`git log` subjects naming variants): " +
            ", ".join(c[:7] for c in commits), "",
            markdown_table(pd.DataFrame(rows)), ""]


def pencil_puzzles(side: int, grids: int, extra: int, seed: int) -> list[Puzzle]:
    """Pencil-mark puzzles without givens: each cell its digit and `extra` other digits."""
    shape, out = Shape.for_side(side), []
    for k in range(grids):
        rng = random.Random(f"{seed}|pencil|{side}|{k}")
        grid = fill_grid(shape, rng)
        masks = []
        for v in grid:
            others = rng.sample([d for d in range(1, side + 1) if d != v], extra)
            masks.append(sum(1 << (d - 1) for d in (v, *others)))
        out.append(Puzzle(shape, (0,) * shape.cells, f"pencil{side}+{extra}-{k}",
                          Rules(candidates=tuple(masks))))
    return out


def pencil_levels(text: str) -> dict[int, list[int]]:
    """'9:2,3 16:4' as {9: [2, 3], 16: [4]}."""
    return {int(side): [int(e) for e in extras.split(",")]
            for side, extras in (part.split(":") for part in text.split())}


def pencil_part(args: argparse.Namespace, provenance: Provenance, scratch: Path
                ) -> list[str]:
    """Per side, median CPU of each backend per number of extra candidates, the crossovers."""
    names, lines = solvers(), []
    for side, extras in pencil_levels(args.pencil).items():
        taking = [n for n in (*DFS, *CDCL) if n in names and (side < 16 or n not in NAIVE)]
        files = [write_set(scratch, f"pencil_{e}", pencil_puzzles(side, args.pencil_grids, e,
                                                                  args.seed))
                 for e in extras]
        outcome = measure(taking, files, repeat=args.pencil_repeat, seed=args.seed,
                          timeout=args.timeout, jobs=args.jobs, limit=2, provenance=provenance)
        frame = results_frame(outcome.rows)
        table = pd.DataFrame({name: {int(d.split("_")[1]): cell(g) for d, g in
                                     frame[frame["backend"] == name].groupby("dataset")}
                              for name in taking}).sort_index()
        table.index.name = "extra"
        lines += [f"### {side}x{side}", "", f"{len(outcome.rows)} runs; wrong: "
                  f"{sum(r.status is Status.WRONG for r in outcome.rows)}; disagreements: "
                  f"{len(outcome.disagreements)}", "", markdown_table(table.reset_index()), "",
                  *crossovers(frame, extras)]
    return lines


def crossovers(frame: pd.DataFrame, extras: Sequence[int]) -> list[str]:
    """For each clause-learning backend and depth-first search, the extras at which the first
    is faster (an unsolved puzzle counts as infinitely slow), and from which extra on."""
    medians = {}
    for (name, dataset), g in frame.groupby(["backend", "dataset"]):
        per = one_line_per_puzzle(g)  # each puzzle's median, solved by a majority of repeats
        solved = per["status"].isin([s.value for s in ANSWERED])
        medians[name, int(dataset.split("_")[1])] = (
            float(per["seconds"].median()) if solved.all() else float("inf"))
    out = []
    for cdcl in [c for c in CDCL if (c, extras[0]) in medians]:
        for dfs in [d for d in DFS if (d, extras[0]) in medians]:
            faster = [e for e in extras if medians[cdcl, e] < medians[dfs, e]]
            since = next((e for e in extras if all(x in faster for x in extras if x >= e)),
                         None)
            out.append(f"- {cdcl} faster than {dfs} at extra {faster or 'none'}" + (
                f"; from {since} on" if since is not None else ""))
    return out + [""]


def classic_part(args: argparse.Namespace, scratch: Path) -> list[str]:
    """`compare` of the classic path before the variants and now, in ABBA order."""
    base = f"{variant_commits()[0]}^"
    before = scratch / "before"
    subprocess.run(["git", "worktree", "add", "--detach", str(before), base], cwd=ROOT,
                   check=True, capture_output=True)
    try:
        folders = [bench_round(args, scratch, tree, k) for k, tree in
                   enumerate((before, ROOT, ROOT, before))]
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT,
                       check=False, capture_output=True)
    short = subprocess.run(["git", "rev-parse", "--short", base], cwd=ROOT, text=True,
                           capture_output=True, check=True).stdout.strip()
    lines = [f"Before: {short} (the parent of the first variants commit); after: the "
             f"checkout. Backends: {', '.join(classic_backends())}; puzzles: "
             f"{', '.join(p.name for p in args.classic)}; limit 1, {args.repeat} runs each, "
             f"CPU time. The two pairs bracket the machine's drift: a backend whose classic "
             f"code the variants did not touch that reads faster in one pair and slower in the "
             f"other shows drift; a cost of the variants shows in both.", ""]
    for old, new in ((folders[0], folders[1]), (folders[3], folders[2])):
        shown = subprocess.run([sys.executable, "-m", "sudokucp", "compare", str(old),
                                str(new)], cwd=ROOT, text=True, capture_output=True)
        lines += [f"`compare {old.name} {new.name}` (exit {shown.returncode}):", "", "```",
                  shown.stdout.strip(), "```", ""]
    return lines


def classic_backends() -> list[str]:
    return [n for n in CLASSIC_BACKENDS if backend_class(n).available()]


def bench_round(args: argparse.Namespace, scratch: Path, tree: Path, k: int) -> Path:
    """One `bench` of the classic puzzles with the code of `tree`."""
    name = "before" if tree != ROOT else "after"
    out = scratch / f"{name}{k}"
    log(f"classic: {out.name}")
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    subprocess.run([sys.executable, "-m", "sudokucp", "bench", "--backends",
                    *classic_backends(), "--puzzles", *map(str, args.classic), "--repeat",
                    str(args.repeat), "--seed", str(k), "--timeout", str(args.timeout),
                    "--jobs", str(args.jobs), "--out", str(out)], cwd=tree, env=env,
                   check=False, capture_output=True)
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])
    with tempfile.TemporaryDirectory(prefix="sudokucp-variants-") as folder:
        scratch = Path(folder)
        kinds = kinds_part(args, provenance, scratch)
        pencil = pencil_part(args, provenance, scratch)
        classic = classic_part(args, scratch)
    body = ["## (a) Each kind, every backend that takes it", "",
            f"Each cell: puzzles solved (limit 2: the solution and the proof that it is the only "
            f"one) of those run, then the median CPU milliseconds per puzzle [p10, p90], each "
            f"puzzle as its median over {args.repeat} runs in a shuffled order, "
            f"{args.timeout:g} s a run.", "", *kinds,
            "## (b) The lines each backend needed", "", *lines_part(),
            "## (c) Pencil-mark: where clause learning overtakes the depth-first searches", "",
            f"{args.pencil_grids} random complete grids of each side, no givens; each cell may "
            f"hold its digit and `extra` other random digits; limit 2; {args.pencil_repeat} "
            f"run(s) a puzzle; the naive pair only below 16x16. Few extra candidates leave "
            f"one solution that propagation finds; many leave several, found at once; the "
            f"hard puzzles lie between.", "", *pencil,
            "## (d) The classic path before and after the variants", "", *classic]
    head = ["# Variants: each kind, each backend", "", *provenance.lines(), ""]
    write_report(args.out, "\n".join(head + body))
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
