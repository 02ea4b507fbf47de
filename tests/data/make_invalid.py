"""Write invalid.txt: 9x9 grids that break the rules in one way each, made for the project from
a solved grid (no copied puzzle): a duplicate given in a box, a column and a row, and four grids
with no solution although no unit repeats a digit (a cell with no candidate; a digit with no
place in a box, a column, a row). Each is checked here; run it from the repository's root."""

from __future__ import annotations

import random

from sudokucp.backends import get_backend
from sudokucp.puzzle import Puzzle, Shape, geometry, to_line
from sudokucp.result import Status

NINE = Shape(3, 3)
GEO = geometry(NINE)
SOLVED = [((r % 3) * 3 + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
UNITS = {"box": GEO.units[18:], "column": GEO.units[9:18], "row": GEO.units[:9]}


def holed(rng: random.Random, blanks: int) -> list[int]:
    """SOLVED with its digits shuffled and `blanks` cells emptied."""
    digits = rng.sample(range(1, 10), 9)
    cells = [digits[v - 1] for v in SOLVED]
    for x in rng.sample(range(81), blanks):
        cells[x] = 0
    return cells


def candidates(cells: list[int], x: int) -> set[int]:
    return set(range(1, 10)) - {cells[p] for p in GEO.peers[x]}


def clean(cells: list[int]) -> bool:
    """No unit repeats a given."""
    return all(len([v for v in (cells[x] for x in u) if v]) ==
               len({v for v in (cells[x] for x in u) if v}) for u in GEO.units)


def duplicate(rng: random.Random, kind: str) -> list[int]:
    """A grid whose only fault is one digit given twice in a unit of `kind` (and no other)."""
    while True:
        cells = holed(rng, 50)
        unit = rng.choice(UNITS[kind])
        given = [x for x in unit if cells[x]]
        empty = [x for x in unit if not cells[x]]
        if given and empty:
            y, x = rng.choice(given), rng.choice(empty)
            cells[x] = cells[y]
            others = [u for u in GEO.units if x in u and y in u]
            if len(others) == 1 and others[0] == unit and clean_but(cells, unit):
                return cells


def clean_but(cells: list[int], unit: tuple[int, ...]) -> bool:
    return clean([0 if x in unit else v for x, v in enumerate(cells)])


def no_candidate(rng: random.Random) -> list[int]:
    """An empty cell whose peers hold all nine digits, no unit repeating one."""
    while True:
        cells = holed(rng, 45)
        x = rng.choice([x for x in range(81) if not cells[x]])
        for digit in sorted(candidates(cells, x)):
            block(rng, cells, x, digit, ())
        if clean(cells) and not candidates(cells, x):
            return cells


def block(rng: random.Random, cells: list[int], x: int, digit: int, unit: tuple) -> None:
    """Give `digit` to an empty peer of x outside `unit` where no unit then repeats it."""
    blockers = [p for p in GEO.peers[x] if p not in unit and not cells[p]]
    rng.shuffle(blockers)
    for p in blockers:
        cells[p] = digit
        if clean(cells):
            return
        cells[p] = 0


def no_place(rng: random.Random, kind: str) -> list[int]:
    """A unit of `kind` where a digit it lacks has no empty cell left, every cell a candidate."""
    while True:
        cells = holed(rng, 50)
        unit = rng.choice(UNITS[kind])
        empty = [x for x in unit if not cells[x]]
        lacking = set(range(1, 10)) - {cells[x] for x in unit}
        if len(empty) < 2:
            continue
        digit = rng.choice(sorted(lacking))
        for x in empty:
            if digit in candidates(cells, x):
                block(rng, cells, x, digit, unit)
        if (clean(cells) and all(digit not in candidates(cells, x) for x in empty)
                and all(candidates(cells, x) for x in range(81) if not cells[x])):
            return cells


def main() -> None:
    rng = random.Random(2026)
    grids = [(duplicate(rng, k), f"{k} duplicate") for k in ("box", "column", "row")]
    grids.append((no_candidate(rng), "unsolvable square"))
    grids += [(no_place(rng, k), f"unsolvable {k}") for k in ("box", "column", "row")]
    hybrid = get_backend("hybrid")
    lines = []
    for cells, label in grids:
        if label.startswith("unsolvable"):
            result = hybrid.solve(Puzzle(NINE, tuple(cells)), limit=2)
            assert result.status is Status.UNSAT and result.complete, label
        lines.append(f"{to_line(NINE, tuple(cells))} {label}")
    with open("tests/data/puzzles/invalid.txt", "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
