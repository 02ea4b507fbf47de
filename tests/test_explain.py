"""The explain command: every step holds in the solution, the sentences name what they do.
(That its path is the logic backend's, move for move: tests/test_one_engine.py.)"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokucp.backends import backend_class
from sudokucp.cli import main
from sudokucp.engine.propagation import Board, eliminate, place, start
from sudokucp.engine.step import Step
from sudokucp.engine.techniques import TECHNIQUES
from sudokucp.generators.generator import checker, generate_one
from sudokucp.io.formats import load_puzzles, parse_grid, read_puzzles
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.teaching import explain as explain_module
from sudokucp.teaching.explain import explain

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "puzzles" / "generated"
SEEDS = ROOT / "puzzles" / "seeds"


def solution_of(puzzle: Puzzle) -> tuple[int, ...]:
    result = checker(puzzle.shape).solve(puzzle, limit=2)
    assert result.count == 1, f"{puzzle.name} should have one solution"
    return result.solution


def replay(puzzle: Puzzle, moves: list) -> Board:
    """The engine's board of `puzzle` with the moves' digits placed and candidates removed."""
    board = start(puzzle)
    assert board
    for move in moves:
        for cell, digit in move.placed:
            assert place(board, cell, 1 << (digit - 1)), move.text
        for cell, digit in move.removed:
            assert eliminate(board, [cell], 1 << (digit - 1)), move.text
    return board


def assert_sound(puzzle: Puzzle, moves: list) -> None:
    """Placements agree with the solution; no removal strikes the solution's digit."""
    solution = solution_of(puzzle)
    for move in moves:
        for cell, digit in move.placed:
            assert solution[cell] == digit, move.text
        for cell, digit in move.removed:
            assert solution[cell] != digit, move.text


@pytest.mark.parametrize("path", sorted(GENERATED.glob("*.txt"))[:9], ids=lambda p: p.stem)
def test_every_step_holds_in_the_solution(path: Path) -> None:
    for puzzle in load_puzzles(path)[:3]:
        moves = list(explain(puzzle, max_steps=400))
        assert_sound(puzzle, moves)
        if moves[-1].kind == "solved":
            assert tuple(replay(puzzle, moves[:-1]).vals) == solution_of(puzzle)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), side=st.sampled_from([4, 6, 9]))
def test_generated_grids_explained_soundly(seed: int, side: int) -> None:
    puzzle = generate_one(Shape.for_side(side), seed).puzzle
    assert_sound(puzzle, list(explain(puzzle)))


def test_logic_grid_of_seed_002_is_solved_by_the_path() -> None:
    puzzle = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    moves = list(explain(puzzle))
    assert moves[-1].kind == "solved"
    placed = sum(len(m.placed) for m in moves)
    assert placed == puzzle.shape.cells - puzzle.givens


def test_sixteen_by_sixteen_grid_uses_letters_for_digits_above_nine() -> None:
    puzzle = load_puzzles(SEEDS / "002-backtracking-16x16.txt")[0]
    moves = list(explain(puzzle))
    assert_sound(puzzle, moves)
    assert moves[-1].kind == "solved"
    assert any(re.search(r"(digit|can only be) [A-G]\b", m.text) for m in moves)


def test_tutorial_grid_is_stuck_and_names_the_guess() -> None:
    puzzle = load_puzzles(SEEDS / "000-tutorial.txt")[0]  # 434 solutions: logic must stop
    last = list(explain(puzzle))[-1]
    assert last.kind == "stuck"
    assert re.fullmatch(r"stuck: no technique applies with \d+ cells open; a search would guess "
                        r"at r\d+c\d+, which has the fewest candidates \(.+\)", last.text)


def test_a_contradiction_is_named() -> None:
    puzzle = parse_grid("123....4........")  # r1c4 needs a 4; its box holds one already
    assert backend_class("hybrid")().solve(puzzle, limit=1).count == 0
    moves = list(explain(puzzle))
    assert moves[-1].kind == "contradiction"
    assert moves[-1].text == ("contradiction: r1c4 has no candidate left: the grid has no "
                              "solution")


def test_repeated_given_is_a_contradiction_at_once() -> None:
    puzzle = Puzzle(Shape.for_side(4), (1, 0, 0, 1) + (0,) * 12)  # parse() would refuse it
    move = next(explain(puzzle))
    assert move.kind == "contradiction"
    assert move.text == ("contradiction: digit 1 appears twice among the peers of r1c1: the grid "
                         "has no solution")


def test_a_digit_without_a_place_is_named() -> None:
    cells = [0] * 81
    cells[6:9] = (2, 3, 4)  # row 1 keeps three open cells, r1c1 to r1c3 ...
    cells[9] = cells[21] = 1  # ... but r2c1 and r3c4 take digit 1 from boxes 1 and 2
    moves = list(explain(Puzzle(Shape(3, 3), tuple(cells))))
    assert moves[-1].text == ("contradiction: digit 1 has no place left in row 1: the grid has no "
                              "solution")


def test_a_contradiction_the_board_does_not_show_names_the_technique(monkeypatch) -> None:
    """k cells holding fewer than k digits leave no empty cell behind: the sentence names the
    pattern instead."""

    def refuse(board, names):
        yield "naked_triple", False

    monkeypatch.setattr(explain_module, "deduce", refuse)
    moves = list(explain(load_puzzles(SEEDS / "001-main.txt")[0]))
    assert [m.text for m in moves] == ["contradiction: the cells and digits of a naked triple "
                                       "cannot all be filled: the grid has no solution"]


def test_sentences_follow_the_pattern_of_each_technique() -> None:
    pattern = {
        "hidden single": r"hidden single: in (row|column|box) \d+, digit \w fits only r\d+c\d+",
        "naked single": r"naked single: r\d+c\d+ can only be \w, every other digit is among its "
                        r"peers",
        "pointing": r"pointing: in box \d+, digit (\w) lies only in (row|column) \d+, so \1 "
                    r"leaves r\d+c\d+.*",
        "claiming": r"claiming: in (row|column) \d+, digit (\w) lies only in box \d+, so \2 "
                    r"leaves r\d+c\d+.*",
    }
    seen = Counter()
    for path in sorted(GENERATED.glob("9x9-*.txt")):
        for puzzle in load_puzzles(path)[:5]:
            for move in explain(puzzle):
                if move.technique in pattern:
                    assert re.fullmatch(pattern[move.technique], move.text), move.text
                    seen[move.technique] += 1
    assert set(seen) == set(pattern), seen


def test_subset_and_fish_finders_on_hard_grids(shared_puzzles: Path) -> None:
    puzzles = load_puzzles(shared_puzzles / "top95.txt")[:30]
    found = Counter()
    for puzzle in puzzles:
        moves = list(explain(puzzle, max_steps=300))
        assert_sound(puzzle, moves)
        found.update(m.technique for m in moves)
    assert found["naked pair"] + found["hidden pair"] > 0, found


def test_a_solved_grid_is_solved_at_once_and_no_technique_finds_a_step() -> None:
    puzzle = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    solved = puzzle.with_cells(solution_of(puzzle))
    assert [m.kind for m in explain(solved)] == ["solved"]
    board = start(solved)
    assert board
    for technique in TECHNIQUES.values():
        assert technique(board) == Step()


def test_hint_levels_grow_from_technique_to_move(capsys) -> None:
    path = str(SEEDS / "001-main.txt")
    lines = []
    for level in (1, 2, 3):
        assert main(["explain", "--hint", "--level", str(level), path]) == 0
        lines.append(capsys.readouterr().out.strip())
    first = next(explain(load_puzzles(path)[0]))
    assert lines == [f"Look for a {first.technique}.",
                     f"Look for a {first.technique} in {first.where}.", first.text]


def test_cli_numbered_steps_and_exit_status(capsys) -> None:
    assert main(["explain", str(SEEDS / "002-logic-9x9.txt")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].strip().startswith("1. ")
    assert out[-1].strip().endswith("solved: every cell holds a digit")
    assert main(["explain", str(SEEDS / "000-tutorial.txt")]) == 1  # stuck


def test_cli_jsonl_steps(capsys) -> None:
    assert main(["explain", "--format", "jsonl", "--max-steps", "3",
                 str(SEEDS / "001-main.txt")]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["step"] for r in rows] == [1, 2, 3]
    assert all(re.fullmatch(r"r\d+c\d+", p["cell"]) for r in rows for p in r["placed"])


def test_cli_bad_input_is_a_message_not_a_traceback(tmp_path: Path, capsys) -> None:
    assert main(["explain", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("12345\n")
    assert main(["explain", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.txt" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as exit_:
        main(["explain", "--hint", "--level", "4", str(SEEDS / "001-main.txt")])
    assert exit_.value.code == 2


SHIPPED = sorted((ROOT / "puzzles").rglob("*.txt"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "puzzles")))
def test_explain_takes_every_shipped_puzzle(path: Path, capsys) -> None:
    """Every shipped file runs through explain, its hint at level 3 and the API: steps that hold
    in the solution and sentences, or a one-line refusal of a bad record (exit 2)."""
    from sudokucp.api import explain as api_explain

    code = main(["explain", "--max-steps", "30", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert code in (0, 1) or (code == 2 and err.strip()), err
    hint = main(["explain", "--hint", "--level", "3", str(path)])
    assert "Traceback" not in capsys.readouterr().err
    assert hint in (0, 1) if code != 2 else hint == 2
    for entry in read_puzzles(path)[:3]:
        if entry.error is None:
            moves = list(explain(entry.puzzle, max_steps=30))
            assert moves and all(m.text for m in moves)
            if entry.puzzle.givens < entry.puzzle.shape.cells and moves[-1].kind != "stuck":
                assert_sound(entry.puzzle, moves[:10])
            shown = api_explain(entry.puzzle, max_steps=3)
            assert len(shown) >= 1 and "<svg" in shown._repr_html_()


def test_explain_names_a_jigsaw_region_and_claiming_from_a_line() -> None:
    """A jigsaw's regions are regions, never boxes; a line's digit confined to a region or box
    is claiming (box-line reduction), whatever order the engine met the two units in."""
    texts = [m.text for p in load_puzzles(ROOT / "puzzles" / "variants" / "9x9-jigsaw.txt")
             for m in explain(p, max_steps=200)]
    assert not any("box" in t for t in texts)
    assert any(re.search(r"in region \d+", t) for t in texts)
    confined = [t for t in texts if re.match(r"(pointing|claiming):", t)]
    assert confined
    for text in confined:
        assert re.fullmatch(r"claiming: in (row|column) \d+, digit \w lies only in region \d+, "
                            r"so \w leaves .*|pointing: in region \d+, digit \w lies only in "
                            r"(row|column) \d+, so \w leaves .*", text), text
    marks = [m.text for p in load_puzzles(ROOT / "puzzles" / "variants" / "9x9-pencil-mark.txt")
             for m in explain(p, max_steps=50)]
    assert not any(re.match(r"pointing: in (row|column)", t) for t in marks)
