"""The generator: unique puzzles (two backends agree), reproducible from the seed, of the shape
asked, minimal when asked; the project's generated sets; the generate command."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from sudokucp import cli
from sudokucp.backends import available_backends, get_backend
from sudokucp.check import find_conflicts
from sudokucp.generators.generator import (
    GenerateError,
    checker,
    fill_grid,
    generate,
    generate_one,
    removal_steps,
)
from sudokucp.io.formats import load_puzzles, parse_many
from sudokucp.puzzle import Puzzle, Shape

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "puzzles" / "generated"
SMALL = ["4x4", "6x6", "9x9"]
MODELS = [name for name in ("sat", "cpsat") if name in available_backends()]


def count_solutions(puzzle: Puzzle, name: str) -> int:
    """Solutions found at limit 2, the search being exhausted when fewer than 2."""
    result = get_backend(name).solve(puzzle, limit=2)
    assert result.error is None
    assert result.count == 2 or result.complete
    return result.count


def test_complete_grids_of_every_shape_are_valid():
    for text in ("4x4", "6x6", "9x9", "12x12", "16x16", "25x25"):
        shape = Shape.parse(text)
        grid = fill_grid(shape, random.Random(text))
        assert len(grid) == shape.cells and all(grid)
        assert not find_conflicts(shape, grid)


@pytest.mark.parametrize("text", SMALL)
def test_puzzles_are_unique_for_two_backends(text):
    shape = Shape.parse(text)
    second = MODELS[0] if MODELS else "naive-iterative"
    for made in generate(shape, 3, seed=11):
        assert made.puzzle.shape == shape and made.minimal
        assert all(g in (0, s) for g, s in zip(made.puzzle.cells, made.solution))
        for name in ("mrv", second):
            assert count_solutions(made.puzzle, name) == 1, (name, made.puzzle.to_line())
        assert get_backend("mrv").solve(made.puzzle).solution == made.solution


@pytest.mark.parametrize("text", ["4x4", "6x6"])
def test_minimal_puzzles_lose_uniqueness_with_any_clue_removed(text):
    shape = Shape.parse(text)
    for made in generate(shape, 3, seed=5):
        cells = made.puzzle.cells
        for cell in (c for c, v in enumerate(cells) if v):
            fewer = Puzzle(shape, cells[:cell] + (0,) + cells[cell + 1:])
            assert count_solutions(fewer, "naive-iterative") == 2


def test_same_seed_same_puzzles_and_each_puzzle_stands_alone():
    shape = Shape.parse("9x9")
    first = [m.puzzle.cells for m in generate(shape, 3, seed="abc")]
    again = [m.puzzle.cells for m in generate(shape, 3, seed="abc", backend=get_backend("mrv"))]
    assert first == again
    assert generate_one(shape, "abc", 2).puzzle.cells == first[2]
    other = [m.puzzle.cells for m in generate(shape, 3, seed="abd")]
    assert other != first


@pytest.mark.parametrize(("text", "boxes"), [("6x6", (2, 3)), ("12x12", (3, 4))])
def test_rectangular_shapes_keep_their_boxes(text, boxes):
    made = generate_one(Shape.parse(text), 3, givens=Shape.parse(text).cells * 2 // 3)
    assert (made.puzzle.shape.box_rows, made.puzzle.shape.box_cols) == boxes
    assert count_solutions(made.puzzle, "mrv") == 1


def test_a_givens_target_stops_there_and_is_not_minimal():
    made = generate_one(Shape.parse("9x9"), 4, givens=40)
    assert made.puzzle.givens == 40 and not made.minimal
    assert count_solutions(made.puzzle, "naive-iterative") == 1


def test_an_unreachable_target_ends_minimal_above_it():
    made = generate_one(Shape.parse("4x4"), 4, givens=1)
    assert made.minimal and made.puzzle.givens > 1


def test_symmetric_removal_keeps_the_rotation():
    shape = Shape.parse("9x9")
    for made in generate(shape, 2, seed=8, symmetric=True):
        cells = made.puzzle.cells
        assert all((cells[c] == 0) == (cells[80 - c] == 0) for c in range(81))
        assert count_solutions(made.puzzle, "mrv") == 1


def test_symmetric_steps_pair_every_cell_once():
    steps = removal_steps(Shape.parse("9x9"), random.Random(0), symmetric=True)
    cells = sorted(c for step in steps for c in step)
    assert cells == list(range(81)) and len(steps) == 41


def test_bad_requests_are_refused():
    with pytest.raises(GenerateError, match="givens"):
        generate_one(Shape.parse("4x4"), 0, givens=17)
    with pytest.raises(GenerateError, match="not complete"):
        checker(Shape.parse("9x9"), "logic")


# --- the project's sets ----------------------------------------------------------------------

def generated_files() -> list[Path]:
    return sorted(GENERATED.glob("*.txt"))


def header_command(path: Path) -> list[str]:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# sudoku-cp generate ")
    return first.removeprefix("# sudoku-cp ").split()


def test_every_set_records_its_command_and_seed():
    files = generated_files()
    assert {p.stem for p in files} >= {"4x4", "6x6", "9x9-easy", "12x12", "16x16", "25x25"}
    for path in files:
        words = header_command(path)
        shape = Shape.parse(words[words.index("--shape") + 1])
        assert "--seed" in words
        puzzles = load_puzzles(path)
        assert puzzles and all(p.shape == shape for p in puzzles)
        assert len(puzzles) == int(words[words.index("--count") + 1])


@pytest.mark.parametrize("stem", ["4x4", "6x6", "9x9-easy", "9x9-expert", "12x12"])
def test_small_sets_are_unique(stem):
    for puzzle in load_puzzles(GENERATED / f"{stem}.txt"):
        assert count_solutions(puzzle, "mrv") == 1


@pytest.mark.skipif(not MODELS, reason="neither sat nor cpsat is installed")
def test_the_16x16_set_is_unique():
    for puzzle in load_puzzles(GENERATED / "16x16.txt"):
        assert count_solutions(puzzle, MODELS[0]) == 1


@pytest.mark.parametrize("stem", ["4x4", "6x6", "9x9-simple", "12x12"])
def test_sets_come_back_from_their_command(stem, tmp_path):
    out = tmp_path / "again.txt"
    assert cli.main([*header_command(GENERATED / f"{stem}.txt"), "--out", str(out)]) == 0
    kept = [e.puzzle.cells for e in parse_many((GENERATED / f"{stem}.txt").read_text())]
    assert [e.puzzle.cells for e in parse_many(out.read_text())] == kept


# --- the command -----------------------------------------------------------------------------

def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudokucp", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_generate_command_prints_a_header_and_one_puzzle_per_line():
    out = run("generate", "--shape", "6x6", "--count", "3", "--seed", "9")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "# sudoku-cp generate --shape 6x6 --count 3 --seed 9 --minimal"
    puzzles = [line for line in lines if not line.startswith("#")]
    assert len(puzzles) == 3 and all(len(p) == 36 for p in puzzles)
    again = run("generate", "--shape", "6x6", "--count", "3", "--seed", "9")
    assert again.stdout == out.stdout


def test_generate_command_says_when_a_target_cannot_be_reached():
    out = run("generate", "--shape", "4x4", "--seed", "1", "--givens", "2")
    assert out.returncode == 0
    assert "2 givens cannot be reached" in out.stderr


def test_generate_command_refuses_a_bad_count():
    out = run("generate", "--count", "0")
    assert out.returncode == 2 and "--count" in out.stderr
