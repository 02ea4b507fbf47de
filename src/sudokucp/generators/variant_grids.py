"""A variant puzzle's grid and rules, steps 1 to 3 of variant_generator.py: the structure
(flags asked, random jigsaw regions), a random full grid under it (budgeted fill, then the
checker's search on the empty grid), and the rules read off that grid (extra units, killer cages).
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

from sudokucp.backends.base import Backend
from sudokucp.engine.groups import Groups
from sudokucp.generators.generator import GenerateError, single_bits
from sudokucp.layout import layout
from sudokucp.puzzle import Grid, Puzzle, Shape, box_of
from sudokucp.rules import Cage, Rules, connected

# The kinds that switch a rule on, by the Rules field that holds it.
FLAGS = {"x": "diagonals", "windoku": "windows", "anti-knight": "anti_knight",
         "anti-king": "anti_king"}
FILL_BUDGET = 4  # search nodes per cell before a fill restarts (same random stream)
FILL_TRIES = 8  # budgeted fills before new regions, or the checker's search on the empty grid
LONG_TRIES = 100  # budgeted fills once the checker found a grid, before its grid is taken
SEARCH_SECONDS = 20  # the checker's time on the empty grid when the fill keeps failing
REGION_ROUNDS = 12  # trades tried per cell when drawing jigsaw regions
CAGE_SIZES = (1, 2, 3, 4, 5)
CAGE_WEIGHTS = (1, 10, 4, 2, 1)  # how often a cage aims at each size (it may stop short)
UNIT_TRIES = 40  # starts tried per extra unit


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
    grid = [0] * shape.cells
    frames: list[list[int]] = []  # per depth, the digit bits left to try
    for _ in range(budget):
        k = len(frames)
        if k == shape.cells:
            return tuple(grid)
        digits = single_bits(g.pick(cells, k, True, True))
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
