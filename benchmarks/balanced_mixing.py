"""How far the generalized Sudoku generator's chain mixes its full grids: a Markdown table.

    python benchmarks/balanced_mixing.py [--samples 20] [--out FILE]

Per shape and per number of chain swaps per cell (0 = the permuted pattern alone), over
`--samples` seeds: `kept`, the share of cells a grid keeps from its permuted pattern (about 1/N
between unrelated grids), and `cycles`, the mean number of cycles of the permutation that takes
row 1 to row 2. Up to 16x16 a row gives the same figures for the clue-removal generator's fill
(a randomised search, generators/generator.py), an independent reference; the last row of each
shape gives 1/N. No statistic here proves the chain uniform.
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from sudokucp.generators.balanced import full_grid, permuted
from sudokucp.generators.generator import fill_grid
from sudokucp.puzzle import Shape

SHAPES = (Shape(3, 3), Shape(4, 4), Shape(5, 6), Shape(6, 6))
MIXES = (0, 0.25, 0.5, 1, 2, 4, 8)


def cycles(grid: tuple[int, ...], n: int) -> int:
    """Cycles of the permutation digit of row 1 -> digit of row 2 (same column)."""
    step = {grid[j]: grid[n + j] for j in range(n)}
    seen, count = set(), 0
    for start in step:
        if start not in seen:
            count += 1
            while start not in seen:
                seen.add(start)
                start = step[start]
    return count


def figures(shape: Shape, grids: list[tuple[int, ...]], starts: list[tuple[int, ...]]) -> str:
    n = shape.side
    kept = statistics.mean(sum(a == b for a, b in zip(g, s)) / shape.cells
                           for g, s in zip(grids, starts))
    return f"{kept:.3f} | {statistics.mean(cycles(g, n) for g in grids):.2f}"


def table(samples: int) -> list[str]:
    lines = ["| shape | swaps per cell | kept | cycles |", "|---|---|---|---|"]
    for shape in SHAPES:
        name = f"{shape}:{shape.box_rows}x{shape.box_cols}"
        starts = [tuple(v for row in permuted(shape, random.Random(s)) for v in row)
                  for s in range(samples)]
        for mix in MIXES:
            grids = [full_grid(shape, random.Random(s), mix) for s in range(samples)]
            lines.append(f"| {name} | {mix} | {figures(shape, grids, starts)} |")
        if shape.side <= 16:
            filled = [fill_grid(shape, random.Random(s)) for s in range(samples)]
            lines.append(f"| {name} | search fill | {figures(shape, filled, starts)} |")
        lines.append(f"| {name} | 1/N | {1 / shape.side:.3f} | |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    text = "\n".join([f"# {__doc__.splitlines()[0]}", "",
                      f"`python benchmarks/balanced_mixing.py --samples {args.samples}`", "",
                      *__doc__.split("\n\n")[2:3], "", *table(args.samples)]) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
