"""Search events: replayed, they rebuild the backend's grids; their counters are its stats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokucp.backends import get_backend
from sudokucp.backends.base import Backend
from sudokucp.check import is_solution
from sudokucp.cli import main
from sudokucp.io.formats import load_puzzles
from sudokucp.puzzle import Puzzle
from sudokucp.teaching import trace

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
TRACED = [("naive", {}), ("naive-iterative", {}), ("mrv", {}), ("mrv", {"order": "static"}),
          ("mrv", {"hidden": False}), ("hybrid", {}), ("hybrid", {"techniques": "singles"})]
COUNTED = {"naive": ("nodes", "backtracks"), "naive-iterative": ("nodes", "backtracks"),
           "mrv": ("nodes", "backtracks"), "hybrid": ("guesses", "backtracks")}
GRIDS = [("examples/4x4.txt", 0), ("examples/6x6.txt", 0), ("seeds/004-telegram.txt", 0),
         ("seeds/002-logic-9x9.txt", 0)]


def grid(path: str, index: int = 0) -> Puzzle:
    return load_puzzles(PUZZLES / path)[index]


def replay(puzzle: Puzzle, events: list[dict]) -> list[tuple[int, ...]]:
    """Apply the steps to the givens, checking each against the grid so far and the depth
    against the open hypotheses; the solutions met on the way."""
    cells, open_nodes, found = list(puzzle.cells), [], []
    for e in events[1:-1]:
        kind = e["event"]
        if kind == "place":
            assert cells[e["cell"]] == 0
            if e["guess"]:
                assert e["depth"] == len(open_nodes) + 1
                open_nodes.append([e["cell"]])
            else:
                assert e["depth"] == len(open_nodes)
                (open_nodes[-1] if open_nodes else []).append(e["cell"])
            cells[e["cell"]] = e["digit"]
        elif kind == "remove":
            assert e["depth"] == len(open_nodes) and e["cell"] == open_nodes[-1].pop()
            assert cells[e["cell"]] == e["digit"]
            cells[e["cell"]] = 0
            if not open_nodes[-1]:
                open_nodes.pop()
        elif kind == "backtrack":  # the failed node is the deepest open one
            assert e["depth"] == len(open_nodes)
        else:
            assert kind == "solution" and e["grid"] == cells
            assert is_solution(puzzle, cells)
            found.append(tuple(cells))
    return found


def backend(name: str, options: dict) -> Backend:
    return get_backend(name, **options)


# Every backend on every grid, for one solution and for all; but a static order proving the 9x9
# unique, a benchmark rather than a check (4 s of the others' milliseconds).
REPLAYED = [(name, options, path, index, limit) for limit in (1, 0) for path, index in GRIDS
            for name, options in TRACED
            if not (limit == 0 and options.get("order") == "static" and "9x9" in path)]


@pytest.mark.parametrize("name, options, path, index, limit", REPLAYED)
def test_replayed_events_rebuild_the_solutions_and_count_as_the_backend(name, options, path,
                                                                         index, limit):
    puzzle = grid(path, index)
    events = trace.record(backend(name, options), puzzle, max_steps=10**6, limit=limit)
    result = backend(name, options).solve(puzzle, limit=limit)
    assert events[0]["event"] == "start" and events[0]["givens"] == list(puzzle.cells)
    end = events[-1]
    assert end["event"] == "end" and end["status"] == result.status.value
    found = replay(puzzle, events)
    assert found == list(result.solutions) and len(found) == result.count == end["solutions"]
    for key in COUNTED[name]:
        assert end[key] == result.stats[key], key
    assert [e["step"] for e in events[1:-1]] == list(range(1, len(events) - 1))


@pytest.mark.parametrize("name", ["naive", "naive-iterative", "mrv"])
def test_naive_and_mrv_count_every_digit_as_a_hypothesis(name):
    events = trace.record(get_backend(name), grid("seeds/004-multiple.txt"), limit=0,
                          max_steps=10**6)
    end = events[-1]
    assert end["solutions"] == 28 and end["nodes"] == end["guesses"] > 28
    assert all(e["guess"] for e in events if e["event"] == "place")


def test_hybrid_marks_the_digits_propagation_deduced():
    events = trace.record(get_backend("hybrid"), grid("seeds/002-backtracking-16x16.txt"))
    places = [e for e in events if e["event"] == "place"]
    assert any(not e["guess"] for e in places)
    assert events[-1]["nodes"] == len(places) > events[-1]["guesses"]


class BoardWatcher(trace.Tracer):
    """A tracer that checks, at each hybrid guess, that its grid is the board of the node the
    guess is made in: the depth and the deductions it wrote are the search's."""

    def guess(self, cell: int, bit: int, vals) -> None:
        super().guess(cell, bit, vals)
        assert self.grid[:cell] + [0] + self.grid[cell + 1:] == list(vals)
        assert self.levels[-1] == [cell]
        self.checked += 1


@pytest.mark.parametrize("path", ["seeds/001-main.txt", "seeds/000-tutorial.txt"])
@pytest.mark.parametrize("limit", [1, 2])
def test_hybrid_guesses_sit_on_the_board_of_their_node(path, limit):
    hybrid, puzzle = get_backend("hybrid"), grid(path)
    watcher = BoardWatcher(puzzle, lambda event: None, 10**6)
    watcher.checked = 0
    hybrid.tracer = watcher
    result = hybrid.solve(puzzle, limit=limit)
    assert watcher.checked == result.stats["guesses"] > 1


@pytest.mark.parametrize("name", ["naive", "naive-iterative", "mrv", "hybrid"])
def test_max_steps_ends_with_a_truncation_and_stops_the_search(name):
    hard = grid("seeds/001-anti-backtracking.txt")  # naive would run for hours
    events = trace.record(get_backend(name), hard, max_steps=50)
    assert events[-1]["event"] == "truncated" or events[-1]["event"] == "end"
    if events[-1]["event"] == "truncated":
        steps = events[1:-1]
        assert len(steps) == 50 and events[-1]["max_steps"] == 50
        assert {k: events[-1][k] for k in ("nodes", "guesses", "backtracks")} == \
               {k: steps[-1][k] for k in ("nodes", "guesses", "backtracks")}
    if name.startswith("naive"):
        assert events[-1]["event"] == "truncated"


@pytest.mark.parametrize("name", ["naive", "mrv", "hybrid"])
def test_the_backend_is_untouched_after_a_trace(name):
    b, puzzle = get_backend(name), grid("seeds/004-telegram.txt")
    trace.record(b, puzzle, max_steps=5)
    assert b.tracer is None and "collector" not in vars(b)
    again, fresh = b.solve(puzzle), get_backend(name).solve(puzzle)
    assert {k: v for k, v in again.stats.items() if not k.endswith("_s")} == \
           {k: v for k, v in fresh.stats.items() if not k.endswith("_s")}


def test_untraced_backends_are_refused_by_name():
    with pytest.raises(trace.NotTraced, match="naive, naive-iterative, mrv"):
        trace.record(get_backend("logic"), grid("examples/4x4.txt"))
    assert {"naive", "naive-iterative", "mrv", "hybrid"} <= set(trace.traced_names())


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["trace", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_writes_json_lines_to_stdout_and_to_a_file(capsys, tmp_path):
    seed = str(PUZZLES / "seeds/004-telegram.txt")
    code, out, err = run_cli(capsys, seed, "--backend", "mrv")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and not err
    assert lines[0]["event"] == "start" and lines[-1]["event"] == "end"
    assert replay(grid("seeds/004-telegram.txt"), lines)
    target = tmp_path / "t.jsonl"
    code, out, err = run_cli(capsys, seed, "-b", "mrv", "--out", str(target))
    assert code == 0 and not out
    assert [json.loads(line) for line in target.read_text().splitlines()] == lines


def test_cli_truncation_exits_1(capsys):
    code, out, _ = run_cli(capsys, str(PUZZLES / "seeds/001-anti-backtracking.txt"),
                           "--max-steps", "7")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 9 and json.loads(lines[-1])["event"] == "truncated"


def test_cli_index_picks_a_grid(capsys):
    code, out, _ = run_cli(capsys, str(PUZZLES / "examples/4x4.txt"), "--index", "2")
    assert code == 0
    assert json.loads(out.splitlines()[0])["givens"] == list(grid("examples/4x4.txt", 1).cells)


@pytest.mark.parametrize("args, message", [
    (["MISSING"], "cannot read"),
    (["4x4", "-b", "nope"], "unknown backend 'nope'"),
    (["4x4", "-b", "logic"], "is not traced"),
    (["4x4", "--index", "9"], "no grid number 9"),
    (["4x4", "--out", "DIR/"], "cannot write"),
])
def test_cli_bad_input_gets_one_line_and_exit_2(capsys, tmp_path, args, message):
    names = {"MISSING": str(tmp_path / "missing.txt"), "4x4": str(PUZZLES / "examples/4x4.txt"),
             "DIR/": str(tmp_path)}
    code, out, err = run_cli(capsys, *(names.get(a, a) for a in args))
    assert code == 2 and not out and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("value", ["0", "-3", "x"])
def test_cli_bad_max_steps_exits_2(capsys, value):
    with pytest.raises(SystemExit) as stop:
        main(["trace", str(PUZZLES / "examples/4x4.txt"), "--max-steps", value])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "--max-steps" in err and "Traceback" not in err


def test_the_teaching_tracer_is_what_the_backends_call():
    """teaching.trace.Tracer has every method of the protocol declared in backends/base.py,
    and only traced backends have the hook."""
    from sudokucp.backends.base import Tracer as Protocol

    tracer = trace.Tracer(grid("examples/4x4.txt"), lambda event: None)
    assert isinstance(tracer, Protocol)
    assert not isinstance(object(), Protocol)
    assert not hasattr(get_backend("logic"), "tracer") and get_backend("mrv").tracer is None
