"""Puzzles with one solution for any shape: a random complete grid, then clue removal.

The grid comes from a randomised search (fewest candidates first, ties and digit order drawn from
`random.Random`); clues are then removed one at a time (or in 180-degree pairs) in a random order,
each removal kept only when a complete backend at limit 2 still finds a single solution.
One pass over every clue leaves a minimal puzzle: removing a clue only adds solutions, so a clue
that could not go earlier cannot go later. Everything random is drawn from a seed, so a seed
gives the same puzzles whatever the timing or the checking backend.

The fill places and propagates on the engine's board (sudokucp.engine.propagation: settle places the
naked and hidden singles); its random stream is drawn in a fixed order, so a seed keeps its grid.

Glossary: cand[c] = bitmask of the digits open cell c may still take (bit v-1 for digit v, 0 once
placed); a step = one removal tried (one cell, or a symmetric pair).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, partial

from sudokucp.backends import backend_class, checkers, get_backend
from sudokucp.backends.base import Backend
from sudokucp.engine.propagation import Board, blank, settle
from sudokucp.puzzle import Grid, Puzzle, Shape
from sudokucp.rules import CLASSIC, Rules

# Uniqueness checkers, preferred first. Measured on one minimal-puzzle pass (benchmarks/generate.py
# reports the totals): up to 12x12 the hybrid and MRV searches take well under a second; on 16x16
# the CNF solver is about five times faster than the hybrid, and on 25x25 the hybrid can spend
# minutes on a single check that the CNF solver settles in a fraction of a second.
# The backends rank themselves (Backend.checker: 'classic' hybrid, mrv, naive-iterative; 'large'
# sat, hybrid, mrv); the registry's checkers() lists them in that order.
LARGE_SIDE = 16  # sides from here on prefer the 'large' checkers
FILL_BUDGET = 2  # search nodes per cell before a fill restarts (same random stream)

OnStep = Callable[[int, int, int], None]  # (steps done, steps in the pass, givens left)
RunProgress = Callable[[int, int, int, int], None]  # (puzzle index, steps done, steps, givens)


class GenerateError(ValueError):
    """A request the generator cannot satisfy (a bad target, no working checker)."""


@dataclass(frozen=True)
class Generated:
    """One puzzle with its solution and how it was made."""

    puzzle: Puzzle
    solution: Grid
    seed: str  # the per-puzzle seed string given to random.Random
    minimal: bool  # a whole pass ran: no clue (or symmetric pair) can be removed
    checks: int  # uniqueness checks run
    seconds: float


# --- the complete grid -----------------------------------------------------------------------

def fill_grid(shape: Shape, rng: random.Random) -> Grid:
    """A random complete grid; deterministic for the state of `rng`."""
    while True:
        grid = _try_fill(shape, rng, FILL_BUDGET * shape.cells)
        if grid is not None:
            return grid


def _try_fill(shape: Shape, rng: random.Random, budget: int) -> Grid | None:
    """Depth-first fill with singles propagated; None when `budget` nodes did not suffice."""
    rank = list(range(shape.cells))
    rng.shuffle(rank)  # tie-break among cells with as few candidates
    b = blank(shape)
    frames: list[tuple[Board, int, list[int]]] = []  # (state, cell, digit bits left to try)
    for _ in range(budget):
        cell = _pick(b.cand, rank)
        if cell < 0:
            return tuple(b.vals)
        digits = single_bits(b.cand[cell])
        rng.shuffle(digits)
        frames.append((b, cell, digits))
        trial = _descend(frames)
        if trial is None:
            return None
        b = trial
    return None


def _descend(frames: list[tuple[Board, int, list[int]]]) -> Board | None:
    """The next consistent state: try the untried digits of the deepest frame, backtracking."""
    while frames:
        base, cell, digits = frames[-1]
        while digits:
            trial = base.copy()
            if settle(trial, [(cell, digits.pop())]):
                return trial
        frames.pop()
    return None


def _pick(cands: list[int], rank: list[int]) -> int:
    """The open cell with the fewest candidates (ties by rank), or -1 when all are placed."""
    best, best_key = -1, None
    for cell, mask in enumerate(cands):
        if mask:
            key = (mask.bit_count(), rank[cell])
            if best_key is None or key < best_key:
                best, best_key = cell, key
    return best


def single_bits(mask: int) -> list[int]:
    """The single-bit masks of `mask`, lowest first."""
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit)
        mask ^= bit
    return out


# --- uniqueness ------------------------------------------------------------------------------

@cache
def default_checker(side: int = 9) -> str:
    """The first checker for `side` that loads, is installed and counts two solutions of an
    empty 4x4."""
    probe = Puzzle.empty(Shape(2, 2), "probe")
    names = checkers("large" if side >= LARGE_SIDE else "classic")
    for name in names:
        try:
            backend = get_backend(name)
        except Exception:  # a module not written or a package not installed
            continue
        result = backend.solve(probe, limit=2)
        if result.count == 2 and result.error is None:
            return name
    raise GenerateError(f"no uniqueness checker works (tried {', '.join(names)})")


def checker(shape: Shape, name: str | None = None) -> Backend:
    """A complete backend for limit-2 checks: `name`, or the best for `shape` that works here."""
    name = name or default_checker(shape.side)
    if not backend_class(name).complete:
        raise GenerateError(f"the {name} backend is not complete: it cannot prove uniqueness")
    return get_backend(name)


def is_unique(puzzle: Puzzle, backend: Backend) -> bool:
    """Whether `puzzle` has exactly one solution, proved by a limit-2 search."""
    result = backend.solve(puzzle, limit=2)
    if result.error is not None:
        raise GenerateError(f"{backend.label} failed: {result.error}")
    if result.count >= 2:
        return False
    if result.count == 1 and result.complete:
        return True
    raise GenerateError(f"{backend.label} could not decide uniqueness ({result.status.name})")


# --- removal ---------------------------------------------------------------------------------

def removal_steps(shape: Shape, rng: random.Random, symmetric: bool) -> list[tuple[int, ...]]:
    """Cells to try removing, in a random order: single cells, or 180-degree pairs."""
    last = shape.cells - 1
    if symmetric:
        steps = [(c, last - c) if c != last - c else (c,) for c in range(shape.cells // 2 + 1)
                 if c <= last - c]
    else:
        steps = [(c,) for c in range(shape.cells)]
    rng.shuffle(steps)
    return steps


def remove_clues(shape: Shape, solution: Grid, steps: Sequence[tuple[int, ...]],
                 backend: Backend, target: int | None = None,
                 progress: OnStep | None = None,
                 rules: Rules = CLASSIC) -> tuple[Grid, bool, int]:
    """Remove clues step by step while the solution stays unique under `rules`, down to
    `target` givens (a symmetric pair may take it to one below).

    Returns (cells, whether the whole pass ran, checks run)."""
    cells = list(solution)
    givens, checks = len(cells), 0
    for done, step in enumerate(steps):
        if target is not None and givens <= target:
            return tuple(cells), False, checks
        if progress is not None:
            progress(done, len(steps), givens)
        for c in step:
            cells[c] = 0
        checks += 1
        if is_unique(Puzzle(shape, tuple(cells), "", rules), backend):
            givens -= len(step)
        else:
            for c in step:
                cells[c] = solution[c]
    if progress is not None:
        progress(len(steps), len(steps), givens)
    return tuple(cells), True, checks


# --- puzzles ---------------------------------------------------------------------------------

def puzzle_seed(seed: int | str, shape: Shape, index: int) -> str:
    """The seed string of puzzle `index` of a run: each puzzle is reproducible on its own."""
    return f"{seed}:{shape.box_rows}x{shape.box_cols}:{index}"


def generate_one(shape: Shape, seed: int | str, index: int = 0, *, givens: int | None = None,
                 symmetric: bool = False, backend: Backend | None = None,
                 progress: OnStep | None = None) -> Generated:
    """Puzzle `index` of seed `seed`: minimal, or stopped at `givens` givens."""
    if givens is not None and not 0 <= givens <= shape.cells:
        raise GenerateError(f"--givens must be 0 to {shape.cells} for {shape}, not {givens}")
    backend = backend or checker(shape)
    start = time.perf_counter()
    key = puzzle_seed(seed, shape, index)
    rng = random.Random(key)
    solution = fill_grid(shape, rng)
    steps = removal_steps(shape, rng, symmetric)
    cells, minimal, checks = remove_clues(shape, solution, steps, backend, givens, progress)
    puzzle = Puzzle(shape, cells, f"{key}")
    return Generated(puzzle, solution, key, minimal, checks, time.perf_counter() - start)


def generate(shape: Shape, count: int, seed: int | str, *, givens: int | None = None,
             symmetric: bool = False, backend: Backend | None = None,
             difficulty: str | None = None, tries: int | None = None,
             progress: RunProgress | None = None) -> Iterator[Generated]:
    """`count` puzzles of a seed, made in index order 0, 1, 2 ...

    With `difficulty`, only the puzzles the rater puts in that class are kept, out of at most
    `tries` made (100 per puzzle asked by default); running out raises GenerateError."""
    backend = backend or checker(shape)
    if difficulty is not None:
        from sudokucp.generators.rating import CLASSES, rate

        if difficulty not in CLASSES:
            raise GenerateError(f"unknown class {difficulty!r}; classes: {', '.join(CLASSES)}")
    tries = tries or 100 * count
    kept = 0
    for index in range(tries if difficulty else count):
        step = None if progress is None else partial(progress, index)
        made = generate_one(shape, seed, index, givens=givens, symmetric=symmetric,
                            backend=backend, progress=step)
        if difficulty is None or rate(made.puzzle, guesses=False).klass == difficulty:
            kept += 1
            yield made
        if kept == count:
            return
    raise GenerateError(f"only {kept} of {count} {difficulty} puzzles among {tries} made; "
                        f"raise --tries, or change --givens")
