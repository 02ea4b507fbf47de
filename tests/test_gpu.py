"""The gpu backend: its kernel under numba's CUDA simulator (and on a device where there is
one), the CPU handover, its refusals.

The simulator must be switched on before numba's CUDA target is first imported, and the test
process imports the real target early (every backend's available() runs at collection), so the
kernel runs in a child process (this file run as a script, NUMBA_ENABLE_CUDASIM=1, or =0 for the
device) that prints what each case returned; the tests judge it here against the judge and the
mrv backend.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

pytestmark = pytest.mark.jit  # the CPU handover runs the jit kernels
ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
SHAPED = ["examples/4x4.txt", "examples/6x6.txt", "seeds/002-logic-9x9.txt"]
HOLED = ["holed-12x12", "holed-16x16"]  # the simulator is too slow for the generated ones
HARD = "generated/9x9-expert.txt"  # needs guesses: the handover cases use it


def grids() -> dict[str, tuple[str, list[int]]]:
    """Every case's grid: name -> (shape as 'RxC', cells)."""
    from sudokucp.io.formats import read_puzzles
    from sudokucp.puzzle import Puzzle, Shape

    cases = {path: read_puzzles(PUZZLES / path)[0].puzzle for path in [*SHAPED, HARD]}
    solution = read_puzzles(PUZZLES / "seeds/002-logic-9x9.solution.txt")[0].puzzle
    cases["two"] = Puzzle(solution.shape, swappable(solution.cells, 9))
    clash = [0] * 16
    clash[0] = clash[1] = 1  # a digit twice in a row: no solution
    cases["clash"] = Puzzle(Shape(2, 2), tuple(clash))
    cases["empty-4x4"] = Puzzle(Shape(2, 2), (0,) * 16)  # 288 solutions
    for shape in (Shape(3, 4), Shape(4, 4)):
        cases[f"holed-{shape}"] = Puzzle(shape, holed(shape, 0.6))
    return {name: (f"{p.shape.box_rows}x{p.shape.box_cols}", list(p.cells))
            for name, p in cases.items()}


def holed(shape, share: float) -> tuple[int, ...]:
    """A solved grid of any shape (row i a shifted pattern of the boxes), a share blanked."""
    r, c, n = shape.box_rows, shape.box_cols, shape.side
    rng = random.Random(16)
    return tuple(0 if rng.random() < share else ((i % r) * c + i // r + j) % n + 1
                 for i in range(n) for j in range(n))


def swappable(cells: tuple[int, ...], n: int) -> tuple[int, ...]:
    """A solved 9x9 grid with the four cells of its first swappable rectangle blanked (two rows
    of one band, two columns of two stacks, digits a b / b a): exactly two solutions."""
    for r1 in range(n):
        for r2 in range(r1 + 1, r1 // 3 * 3 + 3):
            for c1 in range(n):
                for c2 in range(c1 // 3 * 3 + 3, n):
                    a, b = cells[r1 * n + c1], cells[r1 * n + c2]
                    if cells[r2 * n + c1] == b and cells[r2 * n + c2] == a:
                        holes = {r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2}
                        return tuple(0 if i in holes else v for i, v in enumerate(cells))
    raise AssertionError("no swappable rectangle in the solution")


def simulate() -> dict:
    """Run every case through the backend under the simulator (in this child process)."""
    try:
        from numba import cuda  # noqa: F401
    except Exception as err:  # noqa: BLE001 - any failure to import is the reason to skip
        return {"skip": f"numba's CUDA simulator cannot be imported: {err}"}
    import numpy as np

    from sudokucp.backends.jit.gpu import Gpu
    from sudokucp.io.formats import read_puzzles
    from sudokucp.puzzle import Puzzle, Shape

    cases, out = grids(), {"reason": Gpu.unavailable_reason()}
    for name, (shape, cells) in cases.items():
        puzzle = Puzzle(Shape(*map(int, shape.split("x"))), tuple(cells))
        result = Gpu().solve(puzzle, limit=2)
        out[f"solve/{name}"] = {"status": result.status.name, "complete": result.complete,
                                "solutions": [list(s) for s in result.solutions],
                                "error": result.error, "stats": dict(result.stats)}
    multiple = read_puzzles(PUZZLES / "seeds/004-multiple.txt")[0].puzzle  # 28 solutions
    empty = Puzzle(Shape(2, 2), (0,) * 16)  # 288: more than the device keeps
    for label, puzzle, keep in (("all", multiple, None), ("keep3", multiple, 3),
                                ("empty", empty, None)):
        result = Gpu().solve(puzzle, limit=0, keep=keep)
        out[f"count/{label}"] = {"count": result.count, "complete": result.complete,
                                 "solutions": [list(s) for s in result.solutions],
                                 "handed": result.stats.get("handed", 0)}
    nines = ["seeds/002-logic-9x9.txt", HARD, "two"]
    array = np.array([cases[n][1] for n in nines])
    for label, options in {"plain": {}, "budget1": {"budget": 1}, "depth1": {"depth": 1},
                           "givens": {"order": "givens"},
                           "second": {"budget": 1, "second": 100000}}.items():
        for limit in (1, 2):
            batch = Gpu(**options).solve_array(array, Shape(3, 3), limit=limit)
            out[f"batch/{label}/{limit}"] = {
                "names": nines, "solutions": batch.solutions.tolist(),
                "counts": batch.counts.tolist(), "complete": batch.complete.tolist(),
                "status": batch.status.tolist(), "handed": batch.handed.tolist(),
                "guesses": batch.guesses.tolist(), "seconds": sorted(batch.seconds)}
    return out


@cache
def child(where: str) -> dict:
    """What the child process printed, run on the simulator or on the device."""
    pytest.importorskip("numba", reason="the gpu backend's kernel needs numba (the [jit] or "
                                        "[gpu] extra)")
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1" if where == "simulator" else "0"}
    done = subprocess.run([sys.executable, __file__], capture_output=True, text=True, env=env,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def outcome(where: str) -> dict:
    """The cases' results on the simulator, or on a CUDA device where there is one (else the
    test skips with the reason)."""
    if where == "device":
        from sudokucp.backends.jit.gpu import Gpu

        if not Gpu.available():
            pytest.skip(f"no device to run the kernel on: {Gpu.unavailable_reason()}")
    out = child(where)
    if "skip" in out:
        pytest.skip(out["skip"])
    return out


@pytest.fixture(params=[pytest.param(where, marks=pytest.mark.slow)  # the simulator: ~15 s
                        for where in ("simulator", "device")])
def ran(request) -> dict:
    return outcome(request.param)


@cache
def expected(name: str) -> tuple[int, bool]:
    """(solutions up to 2, complete) from the mrv backend, which shares nothing with the kernel."""
    from sudokucp.backends import get_backend
    from sudokucp.puzzle import Puzzle, Shape

    shape, cells = grids()[name]
    result = get_backend("mrv").solve(Puzzle(Shape(*map(int, shape.split("x"))), tuple(cells)),
                                      limit=2)
    return len(result.solutions), result.complete


def judged(name: str, solution: list[int]) -> bool:
    from sudokucp.check import is_solution
    from sudokucp.puzzle import Puzzle, Shape

    shape, cells = grids()[name]
    return is_solution(Puzzle(Shape(*map(int, shape.split("x"))), tuple(cells)), solution)


# --- the kernel, one grid at a time --------------------------------------------------------------

@pytest.mark.parametrize("name", [*SHAPED, *HOLED, HARD, "two", "clash"])
def test_solve_agrees_with_mrv_and_the_judge(name, ran):
    got = ran[f"solve/{name}"]
    count, complete = expected(name)
    assert got["error"] is None
    assert len(got["solutions"]) == count
    assert got["status"] == ("SOLVED" if count else "UNSAT")
    assert got["complete"] == complete
    assert all(judged(name, s) for s in got["solutions"])
    assert len({tuple(s) for s in got["solutions"]}) == count


def test_the_two_solution_grid_has_two_and_the_clash_none(ran):
    assert expected("two") == (2, False) and expected("clash") == (0, True)
    assert ran["solve/clash"]["status"] == "UNSAT"


def test_empty_grid_stops_at_the_limit(ran):
    got = ran["solve/empty-4x4"]
    assert got["status"] == "SOLVED" and not got["complete"] and len(got["solutions"]) == 2
    assert all(judged("empty-4x4", s) for s in got["solutions"])


def test_counting_every_solution_keeps_what_was_asked(ran):
    from sudokucp.check import is_solution
    from sudokucp.io.formats import read_puzzles
    from sudokucp.puzzle import Puzzle, Shape

    multiple = read_puzzles(PUZZLES / "seeds/004-multiple.txt")[0].puzzle
    every, three = ran["count/all"], ran["count/keep3"]
    assert (every["count"], every["complete"], len(every["solutions"])) == (28, True, 28)
    assert (three["count"], three["complete"], len(three["solutions"])) == (28, True, 3)
    assert not every["handed"] and not three["handed"]
    assert all(is_solution(multiple, s) for s in every["solutions"] + three["solutions"])
    empty = ran["count/empty"]  # 288 solutions, more than the device keeps: jit counts them
    assert (empty["count"], empty["complete"], empty["handed"]) == (288, True, 1)
    assert len({tuple(s) for s in empty["solutions"]}) == 288
    assert all(is_solution(Puzzle(Shape(2, 2), (0,) * 16), s) for s in empty["solutions"])


@pytest.mark.slow
def test_the_simulator_is_not_a_device():
    assert "simulator" in outcome("simulator")["reason"]


# --- batches, the handover to the CPU, the tail options ----------------------------------------

@pytest.mark.parametrize("label", ["plain", "budget1", "depth1", "givens", "second"])
@pytest.mark.parametrize("limit", [1, 2])
def test_every_grid_of_a_batch_is_answered(label, limit, ran):
    got = ran[f"batch/{label}/{limit}"]
    for i, name in enumerate(got["names"]):
        count, complete = expected(name)
        assert got["counts"][i] == min(count, limit), (label, name)
        assert got["complete"][i] == (complete if limit == 2 else count == 0), (label, name)
        assert judged(name, got["solutions"][i]), (label, name)
    assert {"to_device", "kernel", "to_host", "verify", "total"} <= set(got["seconds"])


def test_a_tiny_budget_hands_the_hard_grid_to_the_cpu(ran):
    plain, tiny = ran["batch/plain/2"], ran["batch/budget1/2"]
    hard = plain["names"].index(HARD)
    assert plain["guesses"][hard] > 1 and not plain["handed"][hard]
    assert tiny["status"][hard] == 2 and tiny["handed"][hard]  # BUDGET, then jit
    assert "cpu" in tiny["seconds"]
    unique = [i for i, name in enumerate(plain["names"]) if expected(name)[0] == 1]
    assert all(tiny["solutions"][i] == plain["solutions"][i] for i in unique)


def test_a_full_stack_hands_the_grid_on(ran):
    got = ran["batch/depth1/2"]
    hard = got["names"].index(HARD)
    assert got["status"][hard] == 3 and got["handed"][hard]  # DEPTH, then jit


def test_a_second_launch_takes_what_the_first_left(ran):
    got = ran["batch/second/2"]
    assert any(got["handed"]) and "second" in got["seconds"] and "cpu" not in got["seconds"]


def test_sorting_by_givens_keeps_the_callers_order(ran):
    assert ran["batch/givens/2"]["solutions"] == ran["batch/plain/2"]["solutions"]


# --- refusals, without a device ----------------------------------------------------------------

def test_unavailable_with_its_reason_where_there_is_no_device():
    from sudokucp.backends import BackendUnavailable, get_backend
    from sudokucp.backends.jit.gpu import Gpu

    if Gpu.available():
        pytest.skip(f"a CUDA device is present: {Gpu.device()}")
    reason = Gpu.unavailable_reason()
    assert reason and ("CUDA" in reason or "numba" in reason)
    with pytest.raises(BackendUnavailable, match="gpu"):
        get_backend("gpu")


def test_solve_without_a_device_is_an_error_result_not_a_crash():
    from sudokucp.backends.jit.gpu import Gpu
    from sudokucp.puzzle import Puzzle, Shape
    from sudokucp.result import Status

    if Gpu.available():
        pytest.skip(f"a CUDA device is present: {Gpu.device()}")
    pytest.importorskip("numba", reason="without numba the search fails at its import")
    result = Gpu().solve(Puzzle(Shape(2, 2), (0,) * 16))
    assert result.status is Status.ERROR and result.error


def test_bad_batches_are_refused_with_a_reason():
    import numpy as np

    from sudokucp.backends import OptionError
    from sudokucp.backends.jit.gpu import Gpu
    from sudokucp.puzzle import Shape

    with pytest.raises(ValueError, match="36 columns"):
        Gpu().solve_array(np.zeros((2, 16)), Shape(2, 3))
    with pytest.raises(ValueError, match="grid 1 holds a value outside 0-4"):
        Gpu().solve_array(np.array([[0] * 16, [5] + [0] * 15]), Shape(2, 2))
    with pytest.raises(ValueError, match="whole numbers, not of float64"):
        Gpu().solve_array(np.full((1, 16), 1.5), Shape(2, 2))
    with pytest.raises(ValueError, match="limit 1 or 2"):
        Gpu().solve_array(np.zeros((1, 16)), Shape(2, 2), limit=0)
    with pytest.raises(OptionError, match="order"):
        Gpu(order="random")
    with pytest.raises(OptionError, match="'block' of 'gpu' takes 1 to 1024, not 2048"):
        Gpu(block=2048)
    with pytest.raises(OptionError, match="'budget'"):
        Gpu(budget=-1)


def test_the_benchmark_says_why_it_cannot_run_without_a_device():
    from sudokucp.backends.jit.gpu import Gpu

    if Gpu.available():
        pytest.skip(f"a CUDA device is present: {Gpu.device()}")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu.py"), "--sizes",
                           "1000"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "gpu" in done.stderr.lower()
    assert Gpu.unavailable_reason() in done.stderr


if __name__ == "__main__":
    print(json.dumps(simulate()))
