"""XCSP3: a puzzle as an XCSP3-core instance: an array x[N][N] of 1..N, one group of allDifferent
over the rows, columns and boxes, the givens as one instantiation, a blocked grid as a conflicts
table. The exporters write it; sudokucp.io.exporters.xcsp3 reads the solvers' output back."""

from __future__ import annotations

from collections.abc import Sequence

from sudokucp.puzzle import Grid, Puzzle


def to_xcsp3(puzzle: Puzzle, comments: Sequence[str], blocked: Sequence[Grid] = ()) -> str:
    """The XCSP3 instance of a puzzle, comment lines first."""
    n, r, c = puzzle.side, puzzle.shape.box_rows, puzzle.shape.box_cols
    args = [f"x[{i}][]" for i in range(n)] + [f"x[][{j}]" for j in range(n)]
    args += [f"x[{i}..{i + r - 1}][{j}..{j + c - 1}]"
             for i in range(0, n, r) for j in range(0, n, c)]
    lines = [f"<!-- {line.replace('--', '- -')} -->" for line in comments]
    lines += ['<instance format="XCSP3" type="CSP">', "  <variables>",
              f'    <array id="x" size="[{n}][{n}]"> 1..{n} </array>', "  </variables>",
              "  <constraints>", "    <group>", "      <allDifferent> %... </allDifferent>"]
    lines += [f"      <args> {a} </args>" for a in args]
    lines.append("    </group>")
    lines += _instantiation(puzzle) + [line for grid in blocked
                                       for line in _conflicts(puzzle, grid)]
    lines += ["  </constraints>", "</instance>"]
    return "\n".join(lines) + "\n"


def _name(n: int, cell: int) -> str:
    return f"x[{cell // n}][{cell % n}]"


def _instantiation(puzzle: Puzzle) -> list[str]:
    given = [(cell, v) for cell, v in enumerate(puzzle.cells) if v]
    if not given:
        return []
    names = " ".join(_name(puzzle.side, cell) for cell, _ in given)
    values = " ".join(str(v) for _, v in given)
    return ["    <instantiation>", f"      <list> {names} </list>",
            f"      <values> {values} </values>", "    </instantiation>"]


def _conflicts(puzzle: Puzzle, grid: Grid) -> list[str]:
    free = [cell for cell, v in enumerate(puzzle.cells) if not v]
    if not free:
        return []
    names = " ".join(_name(puzzle.side, cell) for cell in free)
    row = ",".join(str(grid[cell]) for cell in free)
    return ["    <extension>", f"      <list> {names} </list>",
            f"      <conflicts> ({row}) </conflicts>" if len(free) > 1 else
            f"      <conflicts> {row} </conflicts>", "    </extension>"]
