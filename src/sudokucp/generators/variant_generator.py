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
4. givens removed while a complete backend at limit 2 still finds one solution (generator.py's
   pass). A killer keeps no given when its cages alone make it unique. A pencil-mark puzzle has no
   givens: wrong candidates are struck in a random order, as few as uniqueness needs (the shortest
   prefix of that order, found by bisection since striking more only removes solutions), then
   each struck one is put back when uniqueness survives it.
Every decision reads only "unique or not", never which second solution a backend found, so a seed
gives the same puzzle whatever the checking backend (but for rules so tight that a long fill
fails where the checker found a grid: then its grid is taken).

Steps 1 to 3 live in variant_grids.py; their names are re-exported here.

Glossary: mask = digits as bits (bit d-1 for digit d); structure = the rules of step 1.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from sudokucp.backends import backend_class, checkers, get_backend
from sudokucp.backends.base import Backend
from sudokucp.generators.generator import (
    Generated,
    GenerateError,
    OnStep,
    is_unique,
    removal_steps,
    remove_clues,
)
from sudokucp.generators.variant_grids import (  # noqa: F401 (steps 1 to 3, their names re-exported)
    CAGE_SIZES,
    CAGE_WEIGHTS,
    FILL_BUDGET,
    FILL_TRIES,
    FLAGS,
    LONG_TRIES,
    REGION_ROUNDS,
    SEARCH_SECONDS,
    UNIT_TRIES,
    derived_rules,
    fill_grid,
    grow,
    neighbours,
    random_cages,
    random_regions,
    random_units,
    searched_grid,
    structure,
)
from sudokucp.puzzle import Grid, Puzzle, Shape
from sudokucp.rules import KINDS, Rules

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
LAYOUT_TRIES = 100  # jigsaw regions drawn before giving up

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


# --- steps 1 and 2: structure and grid (made in variant_grids.py) -------------------------------

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
