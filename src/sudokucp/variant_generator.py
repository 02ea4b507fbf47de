"""Variant puzzles with one solution: X-sudoku, windoku, jigsaw, killer, pencil-mark, extra units,
anti-knight, anti-king, alone or together, on any shape.

A puzzle is made in four steps, every random choice drawn from one `random.Random` per puzzle:
1. the rules that fix where groups lie: diagonals, windows, chess-move pairs, and for a jigsaw
   random connected regions (the boxes, then cells traded between neighbouring regions while
   both stay connected);
2. a random full grid under them: fewest candidates first over every group of the layout, ties
   and digit order drawn from the seed, restarted after a node budget (when restarts keep
   failing, a jigsaw's regions are drawn again; for other rules the checker says whether any
   grid exists);
3. the rules read off that grid: extra units and killer cages grown over neighbouring cells whose
   digits differ (cage sums from the grid), pencil-mark candidates;
4. givens removed while a complete backend at limit 2 still finds one solution (sudokucp.generator's
   pass). A killer keeps no given when its cages alone make it unique. A pencil-mark puzzle has no
   givens: wrong candidates are struck in a random order, as few as uniqueness needs (the shortest
   prefix of that order, found by bisection since striking more only removes solutions), then
   each struck one is put back when uniqueness survives it.
Every decision reads only "unique or not", never which second solution a backend found, so a seed
gives the same puzzle whatever the checking backend (but for rules so tight that a long fill
fails where the checker found a grid: then its grid is taken).

Glossary: mask = digits as bits (bit d-1 for digit d); structure = the rules of step 1.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import cache

from sudokucp.backends import backend_class, checkers, get_backend
from sudokucp.backends.base import Backend
from sudokucp.engine.groups import Groups, pick
from sudokucp.generator import (
    Generated,
    GenerateError,
    OnStep,
    is_unique,
    removal_steps,
    remove_clues,
    single_bits,
)
from sudokucp.puzzle import Grid, Puzzle, Shape, box_of
from sudokucp.rules import KINDS, Cage, Rules, connected, layout

# The kinds that switch a rule on, by the Rules field that holds it.
FLAGS = {"x": "diagonals", "windoku": "windows", "anti-knight": "anti_knight",
         "anti-king": "anti_king"}
MADE = tuple(k for k in KINDS if k in FLAGS or k in ("jigsaw", "killer", "pencil-mark",
                                                     "extra-units"))  # the kinds made here
# Uniqueness checkers for variants, preferred first. CPU seconds per puzzle, puzzles 0-4 of seed 1
# (the shipped sets), 2-core machine, sat / mrv / cpsat: 9x9 x 0.11 / 0.11 / 0.63, windoku
# 0.12 / 0.13 / 0.54, jigsaw 0.15 / 0.47 / 0.57, extra units 0.13 / 0.17 / 0.53, 6x6 jigsaw
# 0.025 / 0.012 / 0.10; 9x9 killer 0.25 / about 60 / 0.36; 9x9 pencil-mark 8.6 / over 300 / 24
# (about 350 checks without givens). The same puzzles whichever checker.
# The backends rank themselves (Backend.checker: 'variant' sat, mrv, cpsat; 'hard', with killer
# cages or pencil-mark candidates, sat, cpsat, mrv); the registry's checkers() lists them.
HARD_KINDS = frozenset({"killer", "pencil-mark"})
FILL_BUDGET = 4  # search nodes per cell before a fill restarts (same random stream)
FILL_TRIES = 8  # budgeted fills before new regions, or the checker's search on the empty grid
LONG_TRIES = 100  # budgeted fills once the checker found a grid, before its grid is taken
LAYOUT_TRIES = 100  # jigsaw regions drawn before giving up
SEARCH_SECONDS = 20  # the checker's time on the empty grid when the fill keeps failing
REGION_ROUNDS = 12  # trades tried per cell when drawing jigsaw regions
CAGE_SIZES = (1, 2, 3, 4, 5)
CAGE_WEIGHTS = (1, 10, 4, 2, 1)  # how often a cage aims at each size (it may stop short)
UNIT_TRIES = 40  # starts tried per extra unit

RunProgress = Callable[[int, int, int, int], None]  # (puzzle index, steps done, steps, givens)


# --- kinds and seeds -------------------------------------------------------------------------

def parse_kinds(text: str) -> frozenset[str]:
    """Kinds written 'x', 'x+killer' or 'x,killer'; an unknown one lists the kinds made."""
    words = [w.strip().lower() for w in text.replace(",", "+").split("+")]
    kinds = frozenset(w for w in words if w)
    unknown = sorted(kinds - set(MADE))
    if not kinds:
        raise GenerateError(f"--kind names no kind; kinds: {', '.join(MADE)}")
    if unknown:
        raise GenerateError(f"--kind {text!r}: unknown kind {unknown[0]!r}; kinds: "
                            f"{', '.join(MADE)} (join several with '+': x+killer)")
    return kinds


def kind_name(kinds: frozenset[str]) -> str:
    """Kinds in naming order, joined by '+' ('x+killer')."""
    return "+".join(k for k in KINDS if k in kinds)


def variant_seed(seed: int | str, kinds: frozenset[str], shape: Shape, index: int) -> str:
    """The seed string of puzzle `index` of a run: each puzzle is reproducible on its own."""
    return f"{seed}:{kind_name(kinds)}:{shape.box_rows}x{shape.box_cols}:{index}"


# --- step 1: the structure -------------------------------------------------------------------

@cache
def neighbours(side: int) -> tuple[tuple[int, ...], ...]:
    """The orthogonal neighbours of each cell."""
    out = []
    for cell in range(side * side):
        r, c = divmod(cell, side)
        steps = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        out.append(tuple(y * side + x for y, x in steps if 0 <= y < side and 0 <= x < side))
    return tuple(out)


def random_regions(shape: Shape, rng: random.Random,
                   rounds: int = REGION_ROUNDS) -> tuple[tuple[int, ...], ...]:
    """N connected regions of N cells: the boxes, then a cell of one region traded for a cell of
    a neighbouring one whenever both stay connected."""
    n, near = shape.side, neighbours(shape.side)
    owner = [box_of(shape, c) for c in range(shape.cells)]
    members = [set() for _ in range(n)]
    for cell, k in enumerate(owner):
        members[k].add(cell)
    for _ in range(rounds * shape.cells):
        a = rng.randrange(shape.cells)
        b = rng.choice(near[a])
        ka, kb = owner[a], owner[b]
        if ka == kb:
            continue
        border = sorted(c for c in members[kb]
                        if any(owner[x] == ka and x != a for x in near[c]))
        if not border:
            continue
        c = rng.choice(border)
        one, two = members[ka] - {a} | {c}, members[kb] - {c} | {a}
        if connected(n, one) and connected(n, two):
            members[ka], members[kb] = one, two
            owner[a], owner[c] = kb, ka
    return tuple(tuple(sorted(m)) for m in members)


def structure(shape: Shape, kinds: frozenset[str], rng: random.Random) -> Rules:
    """The rules that fix where groups lie: the flags asked, and random regions for a jigsaw."""
    flags = {FLAGS[k]: True for k in kinds if k in FLAGS}
    regions = random_regions(shape, rng) if "jigsaw" in kinds else ()
    return Rules(regions=regions, **flags)


# --- step 2: the full grid -------------------------------------------------------------------

def fill_grid(shape: Shape, rules: Rules, rng: random.Random,
              tries: int = FILL_TRIES) -> Grid | None:
    """A random grid keeping `rules`; None when `tries` budgeted searches all ran out."""
    for _ in range(tries):
        grid = _try_fill(shape, rules, rng, FILL_BUDGET * shape.cells)
        if grid is not None:
            return grid
    return None


def _try_fill(shape: Shape, rules: Rules, rng: random.Random, budget: int) -> Grid | None:
    """Depth-first fill choosing as mrv's search does (fewest candidates, or a digit's last
    place in a full group), cells tried in a random order, digits in a random order; None when
    `budget` nodes did not suffice."""
    g = Groups(Puzzle(shape, (0,) * shape.cells, "", rules))
    cells = list(range(shape.cells))
    rng.shuffle(cells)  # tie-break among cells with as few candidates
    cands, full = [0] * shape.cells, g.units[:g.nfull]
    grid = [0] * shape.cells
    frames: list[list[int]] = []  # per depth, the digit bits left to try
    for _ in range(budget):
        k = len(frames)
        if k == shape.cells:
            return tuple(grid)
        digits = single_bits(pick(g, cells, cands, full, k, True, True))
        rng.shuffle(digits)
        frames.append(digits)
        if not _descend(g, grid, cells, frames):
            return None
    return None


def _descend(g: Groups, grid: list[int], cells: list[int], frames: list[list[int]]) -> bool:
    """Place the next untried digit of the deepest frame, backtracking; False when none is left."""
    while frames:
        cell = cells[len(frames) - 1]
        if grid[cell]:
            g.remove(cell, 1 << (grid[cell] - 1))
            grid[cell] = 0
        if frames[-1]:
            bit = frames[-1].pop()
            g.place(cell, bit)
            grid[cell] = bit.bit_length()
            return True
        frames.pop()
    return False


def solved_structure(shape: Shape, kinds: frozenset[str], rng: random.Random,
                     backend: Backend) -> tuple[Rules, Grid]:
    """The structure and a full grid under it. Jigsaw regions are drawn again while the
    budgeted fill fails; for fixed rules the checker is asked whether any grid exists."""
    if "jigsaw" not in kinds:
        rules = structure(shape, kinds, rng)
        grid = fill_grid(shape, rules, rng) or searched_grid(shape, rules, rng, backend)
        return rules, grid
    for _ in range(LAYOUT_TRIES):
        rules = structure(shape, kinds, rng)
        grid = fill_grid(shape, rules, rng)
        if grid is not None:
            return rules, grid
    raise GenerateError(f"no full grid found for {LAYOUT_TRIES} jigsaw layouts of {shape} "
                        f"drawn with {kind_name(kinds)} (these rules may leave none); try "
                        f"another seed or fewer kinds")


def searched_grid(shape: Shape, rules: Rules, rng: random.Random, backend: Backend) -> Grid:
    """A grid once the budgeted fill failed: a GenerateError when the checker finds none on the
    empty grid; else a longer fill, and failing that the checker's grid with its digits
    relabelled at random (the structure only asks for distinct digits), the one case where the
    grid depends on the checker."""
    empty = Puzzle(shape, (0,) * shape.cells, "", rules)
    result = backend.solve(empty, limit=1, time_limit=SEARCH_SECONDS)
    if result.error is not None:
        raise GenerateError(f"{backend.label} failed: {result.error}")
    if result.solution is None:
        if result.complete:
            raise GenerateError(f"no {shape} grid keeps the rules of {rules.kind} "
                                f"({backend.label} searched the empty grid)")
        raise GenerateError(f"no {shape} grid keeping {rules.kind} was found: the fill gave "
                            f"up and {backend.label} did not decide in {SEARCH_SECONDS} s")
    grid = fill_grid(shape, rules, rng, LONG_TRIES)
    if grid is not None:
        return grid
    digits = list(range(1, shape.side + 1))
    rng.shuffle(digits)
    return tuple(digits[v - 1] for v in result.solution)


# --- step 3: rules read off the grid ---------------------------------------------------------

def grow(start: int, size: int, grid: Grid, free: set[int], rng: random.Random) -> list[int]:
    """Connected cells from `start`, up to `size`, taken from `free`, with distinct digits."""
    near = neighbours(round(len(grid) ** 0.5))
    cells, digits = [start], {grid[start]}
    while len(cells) < size:
        options = sorted({y for x in cells for y in near[x]
                          if y in free and y not in cells and grid[y] not in digits})
        if not options:
            break
        cells.append(rng.choice(options))
        digits.add(grid[cells[-1]])
    return cells


def random_cages(shape: Shape, grid: Grid, rng: random.Random) -> tuple[Cage, ...]:
    """Connected cages of 1 to 5 cells (fewer on small grids) covering the grid, their digits
    distinct, summed from `grid`; a lone cell joins a neighbouring cage with room when it can."""
    top = min(max(CAGE_SIZES), shape.side)
    free = set(range(shape.cells))
    order = list(range(shape.cells))
    rng.shuffle(order)
    cages: list[list[int]] = []
    for start in order:
        if start in free:
            size = min(rng.choices(CAGE_SIZES, CAGE_WEIGHTS)[0], top)
            cells = grow(start, size, grid, free, rng)
            free.difference_update(cells)
            cages.append(cells)
    _merge_lone(cages, grid, shape.side, top, rng)
    return tuple(Cage(tuple(c), sum(grid[x] for x in c)) for c in cages if c)


def _merge_lone(cages: list[list[int]], grid: Grid, side: int, top: int,
                rng: random.Random) -> None:
    """Each one-cell cage joins a random neighbouring cage with room and without its digit."""
    near = neighbours(side)
    owner = {cell: k for k, cells in enumerate(cages) for cell in cells}
    for k, cells in enumerate(cages):
        if len(cells) != 1:
            continue
        cell = cells[0]
        hosts = sorted({owner[y] for y in near[cell]
                        if len(cages[owner[y]]) < top
                        and grid[cell] not in {grid[x] for x in cages[owner[y]]}})
        if hosts:
            host = rng.choice(hosts)
            cages[host].append(cell)
            owner[cell] = host
            cages[k] = []


def random_units(shape: Shape, grid: Grid, rules: Rules, rng: random.Random) -> tuple[
        tuple[int, ...], ...]:
    """About N/3 extra units of N connected cells with distinct digits (the longest grown when
    none reaches N), apart from each other and from the layout's groups."""
    taken: set[int] = set()
    existing = {tuple(sorted(g)) for g in layout(shape, rules).groups}
    units = []
    for _ in range(max(1, shape.side // 3)):
        best: list[int] = []
        for _ in range(UNIT_TRIES):
            free = set(range(shape.cells)) - taken
            start = rng.choice(sorted(free))
            cells = grow(start, shape.side, grid, free - {start}, rng)
            if len(cells) > len(best) and tuple(sorted(cells)) not in existing:
                best = cells
            if len(best) == shape.side:
                break
        if len(best) > 1:
            units.append(tuple(sorted(best)))
            taken.update(best)
    return tuple(units)


def derived_rules(shape: Shape, kinds: frozenset[str], rules: Rules, grid: Grid,
                  rng: random.Random) -> Rules:
    """The structure with the rules read off the grid: extra units, cages."""
    units = random_units(shape, grid, rules, rng) if "extra-units" in kinds else ()
    cages = random_cages(shape, grid, rng) if "killer" in kinds else ()
    return replace(rules, units=units, cages=cages)


# --- step 4: uniqueness ----------------------------------------------------------------------

def checker(shape: Shape, kinds: frozenset[str], name: str | None = None) -> Backend:
    """A complete backend taking `kinds` for limit-2 checks: `name`, or the first that loads
    of the preferred checkers for these kinds."""
    if name is not None:
        backend = get_backend(name)
        refuse_checker(backend, kinds)
        return backend
    for candidate in _takers(kinds):
        try:
            return get_backend(candidate)
        except Exception:  # a module not written or a package not installed
            continue
    raise GenerateError(f"no uniqueness checker takes {kind_name(kinds)} here "
                        f"(tried {', '.join(checkers('hard'))})")


def refuse_checker(backend: Backend, kinds: frozenset[str]) -> None:
    """A GenerateError when `backend` cannot prove uniqueness or does not take `kinds`."""
    if not backend.complete:
        raise GenerateError(f"the {backend.name} backend is not complete: it cannot prove "
                            f"uniqueness")
    missing = [k for k in KINDS if k in kinds - type(backend).kinds]
    if missing:
        raise GenerateError(f"the {backend.name} backend does not take {', '.join(missing)}; "
                            f"checkers that do: {', '.join(_takers(kinds))}")


def _takers(kinds: frozenset[str]) -> list[str]:
    """The checkers that take `kinds`, preferred first."""
    out = []
    for name in checkers("hard" if kinds & HARD_KINDS else "variant"):
        try:
            if kinds <= backend_class(name).kinds:
                out.append(name)
        except ImportError:
            continue
    return out


def strike_candidates(shape: Shape, rules: Rules, solution: Grid, rng: random.Random,
                      backend: Backend) -> tuple[Rules, int]:
    """Pencil-mark candidates for a puzzle without givens: wrong candidates struck in a random
    order, the shortest prefix that leaves one solution, then each struck one put back while
    the solution stays unique. Returns the rules and the checks run."""
    wrong = [(c, d) for c in range(shape.cells) for d in range(1, shape.side + 1)
             if d != solution[c]]
    rng.shuffle(wrong)
    checks = 0

    def unique(struck: Sequence[tuple[int, int]]) -> bool:
        nonlocal checks
        checks += 1
        return is_unique(_pencil(shape, rules, struck), backend)

    low, high = 0, len(wrong)  # unique with all struck; find the fewest that still is
    while low < high:
        mid = (low + high) // 2
        if unique(wrong[:mid]):
            high = mid
        else:
            low = mid + 1
    struck = wrong[:low]
    for item in list(struck[:-1]):
        trial = [s for s in struck if s != item]
        if unique(trial):
            struck = trial
    return _pencil(shape, rules, struck).rules, checks


def _pencil(shape: Shape, rules: Rules, struck: Sequence[tuple[int, int]]) -> Puzzle:
    """The puzzle without givens whose candidates are every digit but those struck."""
    masks = [(1 << shape.side) - 1] * shape.cells
    for cell, digit in struck:
        masks[cell] &= ~(1 << (digit - 1))
    return Puzzle(shape, (0,) * shape.cells, "", replace(rules, candidates=tuple(masks)))


# --- puzzles ---------------------------------------------------------------------------------

def generate_variant(shape: Shape, kinds: frozenset[str], seed: int | str, index: int = 0, *,
                     givens: int | None = None, symmetric: bool = False,
                     backend: Backend | None = None,
                     progress: OnStep | None = None) -> Generated:
    """Puzzle `index` of seed `seed` of the kinds asked: minimal, or stopped at `givens`
    givens (pencil-mark: no givens at all)."""
    if givens is not None and not 0 <= givens <= shape.cells:
        raise GenerateError(f"--givens must be 0 to {shape.cells} for {shape}, not {givens}")
    if givens is not None and "pencil-mark" in kinds:
        raise GenerateError("a pencil-mark puzzle has no givens: leave --givens out")
    backend = backend or checker(shape, kinds)
    start = time.perf_counter()
    key = variant_seed(seed, kinds, shape, index)
    rng = random.Random(key)
    rules, solution = solved_structure(shape, kinds, rng, backend)
    rules = derived_rules(shape, kinds, rules, solution, rng)
    if "pencil-mark" in kinds:
        rules, checks = strike_candidates(shape, rules, solution, rng, backend)
        cells, minimal = (0,) * shape.cells, True
    elif "killer" in kinds and givens is None and is_unique(
            Puzzle(shape, (0,) * shape.cells, "", rules), backend):
        cells, minimal, checks = (0,) * shape.cells, True, 1
    else:
        steps = removal_steps(shape, rng, symmetric)
        cells, minimal, checks = remove_clues(shape, solution, steps, backend, givens,
                                              progress, rules)
    puzzle = Puzzle(shape, cells, key, rules)
    return Generated(puzzle, solution, key, minimal, checks, time.perf_counter() - start)


def generate_variants(shape: Shape, kinds: frozenset[str], count: int, seed: int | str, *,
                      givens: int | None = None, symmetric: bool = False,
                      backend: Backend | None = None,
                      progress: RunProgress | None = None) -> Iterator[Generated]:
    """`count` puzzles of a seed, made in index order 0, 1, 2 ..."""
    backend = backend or checker(shape, kinds)
    for index in range(count):
        step = None if progress is None else _at(progress, index)
        yield generate_variant(shape, kinds, seed, index, givens=givens, symmetric=symmetric,
                               backend=backend, progress=step)


def _at(progress: RunProgress, index: int) -> OnStep:
    return lambda done, steps, left: progress(index, done, steps, left)
