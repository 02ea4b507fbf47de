"""The seeds reproduced: every checkable statement of the five seeds beside what sudoku-cp measures
(reports/seeds.md).

    python benchmarks/seeds.py [--seeds ../shared/seeds] [--puzzles ../shared/puzzles]
        [--hard-timeout 30] [--sample 30] [--royle-max N] [--out reports/seeds.md]

The grids are the project's copies in puzzles/seeds/. The seeds' own text (--seeds) is read when
present, for what only it holds (a printed solution, the TIPE's check examples) and to confirm the
copies; where it is absent the report says so and marks those statements unchecked. royle17.txt
comes from --puzzles. Every solution is judged by check.is_solution; runs are in-process with each
backend's cooperative time limit; times are wall clock on a shared machine (the load is recorded).

Why (mostly) not the harness: this script reproduces statements, one solve at a time: solution
counts, printed solutions, nodes, steps back, shares, arithmetic. The seconds it prints stand
beside the seeds' own (C or Caml on other machines) as context and rank no backend against
another. The one statement that compares backends, seed 003's ordering (which orders solve a grid
within 2 s), runs as a harness sweep (`seeds_claims.ordering`).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from common import Provenance, write_report  # noqa: E402
from seeds_claims import SEED_RULES, Claim, n, ordering, royle_claims, run_line, solve  # noqa: E402

from sudokucp.check import find_conflicts, is_solution  # noqa: E402
from sudokucp.io.formats import load_puzzles  # noqa: E402
from sudokucp.puzzle import Puzzle, Shape  # noqa: E402

GRIDS = ROOT / "puzzles" / "seeds"


def shown(path: Path) -> str:
    """`path` as the report names it: relative to the repository when it lies beside it
    (`../shared/seeds`), so that the report names no machine's folders; otherwise as given."""
    absolute = path.resolve()
    return os.path.relpath(absolute, ROOT) if absolute.is_relative_to(ROOT.parent) else str(path)


def grid(name: str) -> Puzzle:
    return load_puzzles(GRIDS / name)[0]


def count_line(puzzle: Puzzle, seconds: float = 20) -> tuple[int, str]:
    r = solve("hybrid", puzzle, limit=0, seconds=seconds)
    return r.count, (f"{n(r.count)} solutions" if r.complete else
                     f"at least {n(r.count)} solutions (count stopped after {seconds:g} s)")


def full_grid(path: Path) -> Puzzle:
    """A 9x9 grid read digit by digit, comments skipped, whatever it breaks."""
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if not x.startswith("#")]
    return Puzzle(Shape(3, 3), numbers(" ".join(lines)), name=path.stem)


def with_clues(puzzle: Puzzle, clues: dict[int, int], name: str) -> Puzzle:
    cells = list(puzzle.cells)
    for cell, value in clues.items():
        cells[cell] = value
    return Puzzle(puzzle.shape, tuple(cells), name=name)


# --- the seeds' text -----------------------------------------------------------------------------

class SeedText:
    """The five seeds' text files, when the folder exists."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files = sorted(folder.glob("00[0-4]_*.txt")) if folder.is_dir() else []

    def text(self, number: int) -> str | None:
        for f in self.files:
            if f.name.startswith(f"00{number}_"):
                return f.read_text(encoding="utf-8")
        return None


def numbers(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", text))


def copy_claim(seed: str, says: str, text: str | None, found: tuple[int, ...] | None,
               copy: Puzzle) -> Claim:
    if text is None:
        return Claim(seed, says, "seed text absent", "unchecked")
    same = found == copy.cells
    return Claim(seed, says, f"the seed's listing {'equals' if same else 'differs from'} "
                 f"`puzzles/seeds/{copy.name.split(':')[0]}.txt`", "agrees" if same else "differs")


# --- seed 000: the C tutorial --------------------------------------------------------------------

def seed_000(seeds: SeedText, hard: float, orders: dict[str, int]) -> list[Claim]:
    s = "000 tutorial"
    tut, wiki = grid("000-tutorial.txt"), grid("001-anti-backtracking.txt")
    text = seeds.text(0)
    found = None
    if text and (m := re.search(r"grille\[9\]\[9\] = \{(.*?)\};", text, re.S)):
        found = numbers(m.group(1))[:81]
    claims = [copy_claim(s, "the tutorial grid (`int grille[9][9]`)", text, found, tut)]
    first = solve("naive", tut)
    claims.append(Claim(s, "the recursive row-major backtracking solves the grid, in under half a "
                        "second (C, the author's machine)", run_line("naive", first),
                        "agrees" if first.solution else "differs",
                        "the time is Python's on a shared machine, not comparable; the nodes "
                        "(values placed) are the same in any language"))
    count, line = count_line(tut)
    everything = solve("naive", tut, limit=0, seconds=300)
    nodes = n(everything.stats["nodes"])
    claims.append(Claim(s, "(not said) how many solutions the grid has; the program stops at the "
                        "first", f"{line}; `naive` enumerates them in {nodes} nodes",
                        "unsaid" if count > 1 else "agrees",
                        "the grid is not a proper puzzle: the program's answer is one of many"))
    empty = tut.cells.count(0)
    claims.append(Claim(s, "N empty cells give 9^N combinations, too many for brute force; "
                        "backtracking cuts them down", f"N = {empty}: 9^N = {9.0 ** empty:.2e}; "
                        f"the whole backtracking tree has {n(everything.stats['nodes'])} nodes",
                        "agrees"))
    r = solve("naive", wiki, seconds=hard)
    claims.append(Claim(s, "Wikipedia's grid against brute force (`001-anti-backtracking.txt`) "
                        "takes the program about 20 s",
                        run_line("naive", r) + f" (limit {hard:g} s)",
                        "agrees" if r.solution is None or r.seconds > 1 else "differs",
                        f"{r.stats['nodes'] / r.seconds:,.0f} nodes a second here (Python): the "
                        "solution lies far along the row-major order, as the seed explains"))
    static, dynamic = solve("mrv:order=static", wiki, seconds=hard), solve("mrv:hidden=false", wiki)
    timeouts = orders["grids"] - orders["mrv:order=static"] if orders else None
    claims.append(Claim(s, "sorting the empty cells once by their number of possible values "
                        "(static order) makes the backtracking always optimal and avoids that "
                        "worst case", run_line("mrv:order=static", static) + " on this grid" +
                        (f"; {timeouts} of {orders['grids']} royle17 grids time out at 2 s "
                         "(seed 003's row)" if orders else ""),
                        "differs" if timeouts else "agrees",
                        ("it solves this grid" if static.solution else "it does not solve this "
                         "grid within the limit either") + ", but sorted once the order cannot "
                        "follow the grid as it fills: no guarantee against the worst case"))
    claims.append(Claim(s, "re-sorting during the descent (dynamic MRV) does better still",
                        run_line("mrv:hidden=false", dynamic), "agrees" if dynamic.solution and
                        dynamic.stats["nodes"] <= static.stats["nodes"] else "differs",
                        "`mrv:hidden=false` is the seed's idea: cells only, chosen at each node"))
    return claims


# --- seed 001: the TD ----------------------------------------------------------------------------

def seed_001(seeds: SeedText, hard: float) -> list[Claim]:
    s = "001 TD"
    main = grid("001-main.txt")
    text = seeds.text(1)
    claims = []
    if text:
        cells = [0] * 81
        for i, j, v in re.findall(r"^\s*grille\[(\d)\]\[(\d)\]=(\d);", text, re.M):
            cells[int(i) * 9 + int(j)] = int(v)
        claims.append(copy_claim(s, "the grid of `main` (15 `grille[i][j]=v` lines)", text,
                                 tuple(cells), main))
        rows = re.findall(r"^(\d(?:\t\d){8})\s*$", text, re.M)
        printed = tuple(int(x) for row in rows[:9] for x in row.split("\t"))
        ok = len(printed) == 81 and is_solution(main, printed)
        first = solve("naive", main).solution
        claims.append(Claim(s, "the printed grid is a solution of the instance shown",
                            f"{'a solution' if ok else 'not a solution'} of `001-main.txt`; "
                            f"{'it is' if printed == first else 'it is not'} the first one "
                            "row-major backtracking finds", "agrees" if ok else "differs"))
    else:
        claims.append(Claim(s, "the grid of `main` and the printed solution", "seed text absent",
                            "unchecked"))
    _, line = count_line(main, 10)
    claims.append(Claim(s, "(not said) the instance's number of solutions", line, "unsaid",
                        "15 clues: far from a proper puzzle"))
    r = solve("naive", main, seconds=hard)
    claims.append(Claim(s, "the recursive backtracking solves the grid of `main`",
                        run_line("naive", r), "agrees" if r.solution else "differs"))
    variants = [("+ r9c5=4", {76: 4}), ("+ r9c9=9", {80: 9}), ("+ both", {76: 4, 80: 9})]
    for label, clues in variants:
        v = with_clues(main, clues, f"001-main {label}")
        r, fast = solve("naive", v, seconds=hard), solve("hybrid", v, limit=2)
        claims.append(Claim(s, f"with the commented clue(s) {label}, it no longer finishes in "
                            "reasonable time", f"{run_line('naive', r)} (limit {hard:g} s); "
                            f"`hybrid`: {fast.describe_count()}, {fast.seconds * 1000:.1f} ms",
                            "agrees" if r.solution is None else "differs",
                            "a search that propagates answers at once: the row-major order is "
                            "what fails, not the grid"))
    claims.append(Claim(s, "about 6.67 × 10^21 solutions of the empty grid", "not measured",
                        "unchecked", "a published count (Felgenhauer and Jarvis), beyond "
                        "enumeration; seed 002's formula for it is checked below"))
    return claims


# --- seed 002: the TIPE --------------------------------------------------------------------------

def seed_002(seeds: SeedText, royle: list[Puzzle], sample: int) -> list[Claim]:
    s = "002 TIPE"
    logic9, back16 = grid("002-logic-9x9.txt"), grid("002-backtracking-16x16.txt")
    text = seeds.text(2)
    blocks = re.findall(r"sudoku \[\|(.*?)\|\]", text, re.S) if text else []
    claims = [copy_claim(s, "the 9x9 grid of the logic program's run", text,
                         numbers(blocks[0]) if blocks else None, logic9),
              copy_claim(s, "the 16x16 grid of the backtracking program's run", text,
                         numbers(blocks[1]) if len(blocks) > 1 else None, back16)]
    r = solve(f"logic:techniques={SEED_RULES}", logic9)
    printed = grid("002-logic-9x9.solution.txt").cells
    claims.append(Claim(s, "the logic program alone solves the 9x9 grid and prints its solution",
                        f"`logic` with the seed's rules: {r.status.value}; the printed solution "
                        f"{'equals' if r.solution == printed else 'differs from'} ours",
                        "agrees" if r.solution == printed else "differs"))
    r = solve("naive-iterative", back16, seconds=300)
    printed16 = grid("002-backtracking-16x16.solution.txt").cells
    ours = seed_loop(back16)
    claims.append(Claim(s, "the backtracking program solves the 16x16 grid with 94,638 "
                        "'itérations' (steps back) and prints its solution",
                        f"{n(r.stats['backtracks'])} steps back (`naive-iterative`: cells emptied "
                        f"after every digit failed); the seed's loop transcribed: {n(ours)}; the "
                        f"printed solution {same(r.solution, printed16)}",
                        "differs", "same grid, same solution, and the seed's own listing counts "
                        f"{n(ours)}: the 94,638 cannot come from this listing on this grid "
                        "(perhaps an earlier version of the program)"))
    claims += royle_claims(s, royle, sample)
    claims += arithmetic(s)
    claims += verifie(s, text)
    claims.append(Claim(s, "a World Cup final grid: over 6 min and 5 million steps back; logic "
                        "adds 5 digits, then 2 min and 1.5 million", "the grid is not given",
                        "unchecked"))
    return claims


def same(ours: object, theirs: object) -> str:
    return "equals ours" if ours == theirs else "differs from ours"


def seed_loop(puzzle: Puzzle) -> int:
    """The TIPE's backtracking loop transcribed (row-major, next acceptable value, step back to
    the previous empty cell): its counter of steps back."""
    n2, sud = puzzle.side, puzzle.cells
    sud2, peers = list(sud), puzzle.geometry.peers
    i = t = 0
    while i < len(sud):
        if sud[i]:
            i += 1
            continue
        used = {sud2[p] for p in peers[i]}
        a = sud2[i] + 1
        while a <= n2 and a in used:
            a += 1
        if a <= n2:
            sud2[i], i = a, i + 1
        elif i > 0:
            sud2[i], i, t = 0, i - 1, t + 1
            while i >= 0 and sud[i]:
                i -= 1
            if i < 0:
                break
        else:
            break
    return t


def arithmetic(s: str) -> list[Claim]:
    fj = math.factorial(9) * 72**2 * 2**7 * 27_704_267_971
    return [Claim(s, "(9!)^9 = 1.09 × 10^50", f"{math.factorial(9) ** 9:.3e}",
                  "agrees" if f"{math.factorial(9) ** 9:.2e}" == "1.09e+50" else "differs"),
            Claim(s, "9! × 72² × 2⁷ × 27,704,267,971 = 6.67 × 10^21", f"{fj:.3e}",
                  "agrees" if f"{fj:.2e}" == "6.67e+21" else "differs"),
            Claim(s, "O(n^(2(n^4 - d))) is 1.5 × 10^69 for d = 17 and 1.9 × 10^67 for d = 21",
                  f"9^(81-17) = {9.0 ** 64:.2e}, 9^(81-21) = {9.0 ** 60:.2e}", "differs",
                  "neither figure is 9 to the number of empty cells; their ratio (79) is not "
                  "9^4 (6,561) either")]


def verifie(s: str, text: str | None) -> list[Claim]:
    """The TIPE's `verifie` examples: a correct and an incorrect filled grid."""
    found = re.findall(r"verifie \[\|(.*?)\|\];;", text, re.S) if text else []
    if len(found) < 2:
        return [Claim(s, "the `verifie` examples", "seed text absent", "unchecked")]
    claims = []
    for label, block, expect in (("correct", found[0], True), ("incorrect", found[1], False)):
        cells = numbers(block)
        clash = find_conflicts(Shape(3, 3), cells)
        ok = not clash and len(cells) == 81
        what = "a valid grid" if ok else "; ".join(c.describe(Shape(3, 3)) for c in clash[:2])
        claims.append(Claim(s, f"`verifie` calls its {label} example {label}", what,
                            "agrees" if ok == expect else "differs"))
    return claims


# --- seeds 003 and 004 ---------------------------------------------------------------------------

def seed_004(hard: float) -> list[Claim]:
    s = "004 TP"
    telegram, multiple = grid("004-telegram.txt"), grid("004-multiple.txt")
    done = full_grid(GRIDS / "004-all-done.txt")  # the reader refuses it: a digit repeats
    r = solve("naive", telegram, limit=0)
    c = telegram.cells
    claims = [Claim(s, "the 36th element of `telegram` is the last element of the fifth row and is "
                    "2", f"element 36 is r4c9 = {c[35]}; the fifth row ends at element 45, "
                    f"r5c9 = {c[44]} (and index 36 counted from 0 is r5c1 = {c[36]})",
                    "agrees" if c[35] == 2 else "differs",
                    "the fifth row and its last digit are right, the position is not"),
              Claim(s, "the row-major backtracking solves `telegram` (it prints every solution)",
                    f"{r.describe_count()}; the whole tree: {n(r.stats['nodes'])} nodes",
                    "agrees" if r.count == 1 else "differs")]
    r = solve("naive", multiple, limit=0)
    claims.append(Claim(s, "`multiple` has 28 solutions", f"{r.describe_count()} "
                        f"(`naive`, {n(r.stats['nodes'])} nodes)",
                        "agrees" if r.count == 28 and r.complete else "differs"))
    clash = find_conflicts(done.shape, done.cells)
    r = solve("naive", done)
    claims.append(Claim(s, "`sudoku all_done` is run as a test; its code prints any full grid "
                        "as a solution", "; ".join(c.describe(done.shape) for c in clash) +
                        f"; `naive` says {r.status.value} (givens that clash)", "differs",
                        "the seed's solver never checks the givens, so it accepts a wrong grid"))
    empty = telegram.cells.count(0)
    claims.append(Claim(s, "the worst case is O(9^9)", f"`telegram` has {empty} empty cells: "
                        f"9^{empty} = {9.0 ** empty:.1e} leaves at most", "differs",
                        "the bound is 9 to the number of empty cells, not 9^9"))
    return claims


# --- the report ----------------------------------------------------------------------------------

def markdown(claims: list[Claim], head: list[str]) -> str:
    lines = head + ["", "| seed | the seed says | sudoku-cp measures | verdict | why |",
                    "|---|---|---|---|---|"]
    for c in claims:
        lines.append(f"| {c.seed} | {c.says} | {c.measured} | **{c.verdict}** | {c.why} |")
    tally = {v: sum(c.verdict == v for c in claims) for v in ("agrees", "differs", "unsaid",
                                                              "unchecked")}
    lines += ["", "Tally: " + ", ".join(f"{k} {v}" for k, v in tally.items()) + ".", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=Path, default=ROOT.parent / "shared" / "seeds")
    parser.add_argument("--puzzles", type=Path, default=ROOT.parent / "shared" / "puzzles")
    parser.add_argument("--hard-timeout", type=float, default=30.0,
                        help="seconds for the naive runs the seeds call hopeless")
    parser.add_argument("--sample", type=int, default=30, help="royle17 grids per timed sample")
    parser.add_argument("--royle-max", type=int, help="read only the first N royle17 grids")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "seeds.md")
    args = parser.parse_args(argv)
    provenance = Provenance(None if argv is None else [sys.argv[0], *argv])
    start = time.time()
    seeds = SeedText(args.seeds)
    royle_path = args.puzzles / "royle17.txt"
    royle = load_puzzles(royle_path)[:args.royle_max] if royle_path.is_file() else []
    source = (f"the seeds' text read from `{shown(args.seeds)}` ({len(seeds.files)} files)"
              if seeds.files else f"**the seeds' text is absent** (`{shown(args.seeds)}`): the "
              "statements that need it are marked unchecked")
    order_claims, orders = ordering(royle, args.sample, provenance)
    claims = seed_000(seeds, args.hard_timeout, orders) + seed_001(seeds, args.hard_timeout)
    claims += seed_002(seeds, royle, min(args.sample, 20)) + order_claims
    claims += seed_004(args.hard_timeout)
    head = ["# The seeds reproduced", "", *provenance.lines(),
            f"- grids from `puzzles/seeds/`; {source}; royle17 from `{shown(royle_path)}` "
            f"({n(len(royle))} grids); {len(claims)} statements in {time.time() - start:.0f} s"]
    legend = ("Verdicts: **agrees** (what we measure bears the statement out), **differs** (it "
              "does not, with the reason found), **unsaid** (a fact about the seed's grid the seed "
              "does not state), **unchecked** (nothing to measure it on, with why). Nodes are "
              "values placed by the search; `hybrid` counts solutions exactly (its deductions "
              "hold in every solution).")
    write_report(args.out, markdown(claims, head) + legend + "\n")
    print(f"wrote {args.out}: {len(claims)} statements", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
