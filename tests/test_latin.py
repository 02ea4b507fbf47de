"""Quasigroup with holes: the Jacobson-Matthews chain, the holes, the puzzles and their solving."""

from __future__ import annotations

import random
import sys
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokucp.backends import get_backend
from sudokucp.check import is_solution
from sudokucp.generators.balanced import BalanceError, counts, hole_count
from sudokucp.generators.latin import (
    cube_of,
    cyclic,
    intercalates,
    is_latin,
    latin_square,
    make_qwh,
    proper_move,
    row_rules,
    square_of,
    step,
)
from sudokucp.io.formats import read_puzzles
from sudokucp.io.variants import to_text
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Status
from sudokucp.rules import Cage, Rules

FIVE = ("jit", "pysat", "cpsat", "sat", "hybrid")


def lines_of(cube: list[int], n: int) -> list[list[int]]:
    """Every line of the cube: symbols of a cell, columns of a row's symbol, rows of a column's."""
    at = [[[cube[(r * n + c) * n + s] for s in range(n)] for c in range(n)] for r in range(n)]
    return ([at[r][c] for r in range(n) for c in range(n)]
            + [[at[r][c][s] for c in range(n)] for r in range(n) for s in range(n)]
            + [[at[r][c][s] for r in range(n)] for c in range(n) for s in range(n)])


def test_cyclic_and_chain_squares_are_latin():
    assert is_latin(cyclic(7), 7)
    for n in (4, 5, 6, 9):
        square = latin_square(n, random.Random(n), moves=n ** 3)
        assert is_latin(square, n)
        assert square != cyclic(n)
    assert is_latin((1, 2, 2, 1), 2)
    assert not is_latin((1, 2, 1, 2), 2)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 7), seed=st.integers(0, 10 ** 6), steps=st.integers(1, 60))
def test_every_step_keeps_the_cube_a_latin_cube(n, seed, steps):
    rng = random.Random(seed)
    cube, improper = cube_of(latin_square(n, rng, moves=3), n), None
    for _ in range(steps):
        improper = step(cube, n, improper, rng)
        assert all(sum(line) == 1 for line in lines_of(cube, n))
        assert set(cube) <= {-1, 0, 1} and cube.count(-1) == (improper is not None)
        if improper is None:
            assert is_latin(square_of(cube, n), n)
    while improper is not None:
        improper = step(cube, n, improper, rng)
    assert is_latin(square_of(cube, n), n)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 8), seed=st.integers(0, 10 ** 6))
def test_a_proper_move_ends_on_a_latin_square(n, seed):
    rng = random.Random(seed)
    cube = cube_of(cyclic(n), n)
    assert proper_move(cube, n, rng) >= 1
    assert is_latin(square_of(cube, n), n)


def test_intercalates_count_the_2x2_subsquares():
    square = latin_square(6, random.Random(3), moves=100)
    rows = [square[i * 6:(i + 1) * 6] for i in range(6)]
    brute = sum(1 for a, b in combinations(range(6), 2) for c, d in combinations(range(6), 2)
                if rows[a][c] == rows[b][d] and rows[a][d] == rows[b][c])
    assert intercalates(square, 6) == brute
    # cyclic, even N: rows i, i + N/2 and columns j, j + N/2; odd N: none
    assert intercalates(cyclic(4), 4) == 4 and intercalates(cyclic(5), 5) == 0


def test_seeds_reproduce_and_differ():
    shape = Shape.parse("9x9")
    one = make_qwh(shape, 0.4, "random", 7, 1)
    assert one == make_qwh(shape, 0.4, "random", 7, 1)
    assert one.puzzle.cells != make_qwh(shape, 0.4, "random", 8, 1).puzzle.cells
    other_f = make_qwh(shape, 0.5, "singly", 7, 1)
    assert other_f.solution == one.solution  # one square per seed and index, holes apart
    assert make_qwh(shape, 0.4, "random", 7, 2).solution != one.solution


@pytest.mark.parametrize("order", ["16x16", "30x30:5x6"])
@pytest.mark.parametrize("fraction", [0.3, 0.42, 0.55])
def test_hole_counts_and_singly_balance(order, fraction):
    shape = Shape.parse(order)
    n, total = shape.side, hole_count(shape, fraction)
    for balance in ("random", "singly"):
        made = make_qwh(shape, fraction, balance, 1, 0, moves=200)
        assert made.holes == total == made.puzzle.cells.count(0)
        assert is_latin(made.solution, n)
        assert all(v in (0, s) for v, s in zip(made.puzzle.cells, made.solution))
    per = counts(shape, make_qwh(shape, fraction, "singly", 1, 0, moves=200).puzzle.cells)
    h = total // n
    assert set(per["row"]) <= {h, h + 1} and set(per["column"]) <= {h, h + 1}


def test_doubly_is_refused():
    with pytest.raises(BalanceError, match="doubly balanced needs boxes"):
        make_qwh(Shape.parse("9x9"), 0.4, "doubly", 0)


def test_row_regions_leave_rows_and_columns_alone():
    shape = Shape.parse("4x4")
    square = cyclic(4)  # Latin, not a Sudoku: its first box holds 1 2 2 3
    assert not is_solution(Puzzle(shape, (0,) * 16), square)
    assert is_solution(Puzzle(shape, (0,) * 16, rules=row_rules(4)), square)
    assert row_rules(4).kind == "jigsaw"


def test_qwh_puzzles_read_back_from_their_variant_blocks(tmp_path):
    made = [make_qwh(Shape.parse("16x16"), 0.42, b, 0, 0, moves=500).puzzle
            for b in ("random", "singly")]
    path = tmp_path / "qwh.txt"
    path.write_text("\n".join(to_text(p) for p in made))
    back = [entry.puzzle for entry in read_puzzles(path)]
    assert [(p.cells, p.rules) for p in back] == [(p.cells, p.rules) for p in made]


@pytest.mark.parametrize("backend", FIVE)
def test_a_qwh_instance_of_order_16_is_solved_and_judged(backend):
    puzzle = make_qwh(Shape.parse("16x16"), 0.42, "singly", 0).puzzle
    result = get_backend(backend).solve(puzzle, limit=1, time_limit=20)
    assert result.status is Status.SOLVED
    assert is_solution(puzzle, result.solutions[0])
    assert is_latin(result.solutions[0], 16)


def test_phase_writes_qwh_files_and_compares_made_up_peaks(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    phase_qwh = pytest.importorskip("phase_qwh")  # benchmarks/phase_qwh.py (pandas)
    import pandas as pd

    files = phase_qwh.qwh_files("9x9", ["random", "doubly", "singly"], [0.4], 2, 0, tmp_path)
    assert [f.name for f in files] == ["9_qwh-random_0.40.txt", "9_qwh-singly_0.40.txt"]
    read = [entry.puzzle for entry in read_puzzles(files[1])]
    assert len(read) == 2 and all(p.rules == row_rules(9) and p.cells.count(0) == 32
                                  for p in read)
    top = pd.DataFrame({"backend": ["jit", "sat"] * 3, "side": [16] * 6,
                        "balance": ["doubly"] * 2 + ["random"] * 2 + ["qwh-singly"] * 2,
                        "fraction": [0.5, 0.5, 0.45, 0.45, 0.4, 0.5],
                        "median": [0.4, 2.0, 0.1, 0.2, 0.1, 1.0]})
    text = phase_qwh.comparison(top, 2.0, [0.3, 0.4, 0.5])
    assert "Sudoku doubly over QWH singly" in text and "higher in 2 of 2 pairs" in text
    assert "1 of the 6 peaks reached the CPU limit" in text and "from 0.30 to 0.50" in text
    where = phase_qwh.where_table(top).iloc[0]
    assert where["QWH singly"] == "0.45 (0.40-0.50)" and where["Sudoku doubly"].startswith("0.50")


@pytest.mark.parametrize("rules", [row_rules(9), Rules(cages=(Cage((0, 10, 20), 12),),
                                                       diagonals=True)])
def test_a_variants_kill_table_is_every_cells_other_digits_then_its_peers(rules):
    import numpy as np

    from sudokucp.encodings.cnf import padded_kills
    from sudokucp.layout import layout

    lay, n = layout(Shape.parse("9x9"), rules), 9
    var = np.arange(1, n ** 3 + 1).reshape(n * n, n)
    kills = padded_kills(lay, var)
    for cell, peers in enumerate(lay.peers):
        for d in range(n):
            row = [var[cell, e] for e in range(n) if e != d] + [var[p, d] for p in peers]
            assert kills[var[cell, d]].tolist() == row + [0] * (kills.shape[1] - len(row))
    assert not kills[0].any()


def test_phase_puts_a_peak_tied_at_the_limit_at_its_middle_f():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    phase = pytest.importorskip("phase")  # benchmarks/phase.py (pandas, the harness)
    import pandas as pd

    fractions = [0.3, 0.35, 0.4, 0.45, 0.5]
    table = pd.DataFrame({"backend": "sat", "side": 36, "balance": "qwh-singly",
                          "fraction": fractions, "median": [0.1, 2.0, 2.0, 2.0, 0.5],
                          "p90": [0.1, 2.0, 2.0, 2.0, 0.6], "puzzles": 2,
                          "solved": [2, 0, 0, 0, 2]})
    top = phase.peaks(table, {(36, True): fractions})
    assert top.loc[0, "fraction"] == 0.4 and top.loc[0, "tied"] == "0.35 0.40 0.45"
    assert "0.40 (tied: 0.35 0.40 0.45)" in phase.peak_table(top, 2.0)
    alone = phase.peaks(table.assign(median=[0.1, 0.2, 0.3, 0.2, 0.1]))
    assert alone.loc[0, "fraction"] == 0.4 and alone.loc[0, "tied"] == ""


def test_phase_tries_each_order_at_its_own_window_of_f():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    phase = pytest.importorskip("phase")  # benchmarks/phase.py (pandas, the harness)
    import pandas as pd

    args = phase.parse_args(["--orders", "16x16@0.6-0.7", "25x25", "--fractions", "0.5", "0.6",
                             "0.65", "0.7", "--qwh", "--qwh-fractions", "0.3", "0.4"])
    assert phase.tried(args) == {(16, False): [0.6, 0.65, 0.7], (16, True): [0.3, 0.4],
                                 (25, False): [0.5, 0.6, 0.65, 0.7], (25, True): [0.3, 0.4]}
    assert phase.windows_text(phase.tried(args)) == (
        "F in 0.60, 0.65, 0.70 at 16x16; 0.30, 0.40 at 16x16 (QWH); 0.50, 0.60, 0.65, 0.70 at "
        "25x25; 0.30, 0.40 at 25x25 (QWH)")
    table = pd.DataFrame({"backend": "jit", "side": [16, 16, 25, 25, 16, 16],
                          "balance": ["doubly"] * 4 + ["qwh-singly"] * 2,
                          "fraction": [0.6, 0.65, 0.6, 0.7, 0.3, 0.4],
                          "median": [0.2, 0.1, 0.2, 0.1, 0.1, 0.3], "p90": 0.3, "puzzles": 2,
                          "solved": 2})
    top = phase.peaks(table, phase.tried(args))
    assert top["edge"].tolist() == [True, True, False]  # 16 doubly, 16 QWH, 25 doubly
    shown = phase.peak_table(top, 2.0)
    assert "| 16 | doubly | jit | 0.60 (edge) |" in shown
    assert "| 25 | doubly | jit | 0.60 |" in shown
    assert "| 16 | qwh-singly | jit | 0.40 (edge) |" in shown
    assert "F = 0.60 for doubly" in phase.peak_place(top)
    where = phase_where(top)
    assert where == {16: ("none inside, 1 at an edge", "none inside, 1 at an edge"),
                     25: ("0.60 (0.60-0.60)", None)}
    assert [phase.seconds(v, 1200.0) for v in (0.0123, 12.34, 1200.0)] == [
        "12.3 ms", "12.3 s", "≥1,200 s"]
    for bad in ("16x16@0.6", "16x16@x-0.7", "16x16@0.95-0.99"):
        with pytest.raises(SystemExit, match="16x16@"):
            phase.tried(phase.parse_args(["--orders", bad, "--fractions", "0.6", "0.7"]))


def phase_where(top) -> dict:
    """where_table's Sudoku doubly and QWH singly cells, by side (None: no such cell)."""
    phase_qwh = pytest.importorskip("phase_qwh")
    rows = phase_qwh.where_table(top).set_index("side")
    return {side: tuple(row.get(name) if isinstance(row.get(name), str) else None
                        for name in ("Sudoku doubly", "QWH singly"))
            for side, row in rows.iterrows()}
