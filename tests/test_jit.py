"""The compiled backend: both kernels on every shape, limits, exact counts, time-outs, batches."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba", reason="the jit backend needs numba: pip install 'sudoku-cp[jit]'")

from sudokucp.backends import OptionError, get_backend  # noqa: E402
from sudokucp.backends.jit.jit import BRANCHES, LEVELS  # noqa: E402
from sudokucp.check import is_solution  # noqa: E402
from sudokucp.io.formats import (
    parse_grid,
    read_puzzles,  # noqa: E402
)
from sudokucp.puzzle import Puzzle, Shape  # noqa: E402
from sudokucp.result import Status  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
KERNELS = ["dfs", "bands", "cdcl"]
ANY_SHAPE = ["dfs", "cdcl"]  # the kernels that take every shape (bands: 9x9 alone)


def jit(**options):
    return get_backend("jit", **options)


def takes(search: str, shape: Shape) -> bool:
    """Whether a kernel takes a shape: the band-wise one 9x9 alone (dfs searches the others, as
    its own test does)."""
    from sudokucp.backends.jit.jit import BAND_SIDES

    return search != "bands" or shape.side in BAND_SIDES


def full_grid(shape: Shape) -> tuple[int, ...]:
    """A solved grid of any shape: row i is a shifted pattern of the boxes."""
    r, c, n = shape.box_rows, shape.box_cols, shape.side
    return tuple(((i % r) * c + i // r + j) % n + 1 for i in range(n) for j in range(n))


def holed(shape: Shape, share: float, seed: int = 1) -> Puzzle:
    """The full grid with a share of its cells blanked at random."""
    rng = random.Random(seed)
    return Puzzle(shape, tuple(0 if rng.random() < share else v for v in full_grid(shape)),
                  name=f"{shape}-holed")


def first(path: str) -> Puzzle:
    return read_puzzles(PUZZLES / path)[0].puzzle


def check(puzzle: Puzzle, result, status=Status.SOLVED) -> None:
    assert result.status is status, (puzzle.name, result)
    assert all(is_solution(puzzle, s) for s in result.solutions), puzzle.name


# --- shapes --------------------------------------------------------------------------------------

SHAPED = ["examples/4x4.txt", "examples/6x6.txt", "seeds/002-logic-9x9.txt",
          "generated/12x12.txt", "generated/16x16.txt"]


@pytest.mark.parametrize(("path", "search"), [(p, k) for p in SHAPED for k in KERNELS
                                              if takes(k, first(p).shape)])
def test_each_shape_the_project_reads(path, search):
    for entry in read_puzzles(PUZZLES / path)[:3]:
        result = jit(search=search).solve(entry.puzzle, limit=2, time_limit=30)
        check(entry.puzzle, result)
        assert result.complete and result.count == 1


def test_the_shapes_are_what_they_say():
    assert first("examples/6x6.txt").shape == Shape(2, 3)
    assert first("generated/12x12.txt").shape == Shape(3, 4)


HOLED = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3), Shape(3, 4), Shape(4, 3),
         Shape(4, 4), Shape(5, 5)]


@pytest.mark.parametrize(("shape", "search"), [(h, k) for h in HOLED for k in KERNELS
                                               if takes(k, h)], ids=str)
def test_holed_grids_of_every_shape(shape, search):
    puzzle = holed(shape, 0.5)
    check(puzzle, jit(search=search).solve(puzzle, limit=1, time_limit=30))


@pytest.mark.parametrize("search", ANY_SHAPE)
def test_a_25x25_minimal_grid_is_unique(search, public_sets):
    entries = {e.puzzle.name: e.puzzle for e in read_puzzles(public_sets / "gecode_25x25.txt")}
    puzzle = entries["gecode_25x25#89"]  # the easiest of the 18
    backend = jit(search=search, propagation="full")
    result = backend.solve(puzzle, limit=2, time_limit=60)
    check(puzzle, result)
    assert result.complete and result.count == 1


def test_the_largest_side():
    shape = Shape(5, 7)  # 35 digits: the masks use 35 bits
    puzzle = holed(shape, 0.3)
    for search in ANY_SHAPE:
        check(puzzle, jit(search=search).solve(puzzle, limit=1, time_limit=30))


# --- limits and counts ---------------------------------------------------------------------------

@pytest.mark.parametrize("search", KERNELS)
def test_limits_and_exact_counts(search):
    puzzle = first("seeds/004-multiple.txt")
    backend = jit(search=search)
    for limit, count, complete in [(1, 1, False), (2, 2, False), (0, 28, True), (28, 28, False),
                                   (30, 28, True)]:
        result = backend.solve(puzzle, limit=limit)
        check(puzzle, result)
        assert (result.count, result.complete) == (count, complete), limit
        assert len(set(result.solutions)) == count


@pytest.mark.parametrize("search", KERNELS)
def test_counts_past_the_buffer(search, monkeypatch):
    """Limit 0 hands solutions over whenever the kernel's buffer fills, and goes on."""
    from sudokucp.backends.jit import jit as module

    monkeypatch.setattr(module, "CAPACITY", 5)
    result = jit(search=search).solve(Puzzle.empty(Shape(2, 2)), limit=0)
    assert (result.count, result.complete, len(set(result.solutions))) == (288, True, 288)


@pytest.mark.parametrize("search", KERNELS)
def test_keep_counts_every_solution_and_keeps_a_few(search):
    puzzle = first("seeds/004-multiple.txt")
    for limit in (0, 2, 30):
        result = jit(search=search).solve(puzzle, limit=limit, keep=1)
        assert (result.count, len(result.solutions)) == (min(limit or 28, 28), 1)
        check(puzzle, result)
    result = jit(search=search).solve(Puzzle.empty(Shape(3, 4)), limit=0, keep=0,
                                      time_limit=0.5)
    assert result.status is Status.TIMEOUT and not result.solutions  # keep=0: none kept


@pytest.mark.parametrize("search", KERNELS)
def test_tdoku_counts(search, public_sets):
    backend = jit(search=search)
    entries = read_puzzles(public_sets / "counts_tdoku_test.txt")
    assert len(entries) >= 40
    for entry in entries:
        count = int(entry.comment.split(":")[0])
        result = backend.solve(entry.puzzle, limit=0)
        check(entry.puzzle, result, Status.SOLVED if count else Status.UNSAT)
        assert (result.count, result.complete) == (count, True), entry.puzzle.name
        assert len(set(result.solutions)) == count


# --- no solution ---------------------------------------------------------------------------------

@pytest.mark.parametrize("search", KERNELS)
def test_unsat_grids(search, public_sets):
    backend = jit(search=search)
    assert backend.solve(parse_grid("." + "123" + "4" + "." * 11)).status is Status.UNSAT
    lines = (public_sets / "invalid.txt").read_text().splitlines()
    rows = [line.split(maxsplit=1) for line in lines if line.strip() and not line.startswith("#")]
    assert len(rows) == 7  # three with a duplicate given (the reader refuses them), four unsolvable
    for text, label in rows:
        puzzle = Puzzle(Shape(3, 3), tuple(0 if ch == "." else int(ch) for ch in text))
        result = backend.solve(puzzle, limit=2)
        assert result.status is Status.UNSAT and result.complete, label


@pytest.mark.parametrize("search", KERNELS)
def test_clashing_givens_are_unsat(search):
    cells = [0] * 81
    cells[0] = cells[80] = 5  # no clash: far apart
    cells[1] = 5  # clashes with cell 0 in row 1
    result = jit(search=search).solve(Puzzle(Shape(3, 3), tuple(cells)), limit=2)
    assert (result.status, result.complete, result.count) == (Status.UNSAT, True, 0)


# --- time -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("search", KERNELS)
def test_the_deadline_stops_the_search(search):
    """Counting every 12x12 grid never ends: the kernel stops between budgets and says why."""
    puzzle = Puzzle.empty(Shape(3, 4))
    result = jit(search=search).solve(puzzle, limit=0, time_limit=0.2)
    check(puzzle, result, Status.TIMEOUT)
    assert result.stats["timed_out"] == 1 and not result.complete


def test_the_first_result_reports_the_compile_apart():
    """In a fresh process: available() loads no kernel; the first solve of a shape reports the
    compile (or the load from numba's cache) as build_s, outside its seconds."""
    code = ("import sys\n"
            "from sudokucp.backends import backend_class, get_backend\n"
            "from sudokucp.puzzle import Puzzle, Shape\n"
            "assert backend_class('jit').available()\n"
            "kernels = ('sudokucp.backends.jit.dfs', 'sudokucp.backends.jit.bands',\n"
            "           'sudokucp.backends.jit.cdcl')\n"
            "assert not any(m in sys.modules for m in kernels)\n"
            "b = get_backend('jit')\n"
            "r1, r2 = (b.solve(Puzzle.empty(Shape(3, 3))) for _ in range(2))\n"
            "print(r1.stats['build_s'] > 0, 'build_s' in r2.stats,\n"
            "      'sudokucp.backends.jit.bands' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "True"]


@st.composite
def nine_by_nine(draw) -> tuple[int, ...]:
    """A 9x9 grid: a solved grid with its digits, rows and columns shuffled (within bands and
    stacks), then from 20 to 64 cells blanked; some have many solutions, a few a clash."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    digits = rng.sample(range(1, 10), 9)
    rows = [b * 3 + i for b in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]
    cols = [b * 3 + i for b in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]
    base = full_grid(Shape(3, 3))
    cells = [digits[base[r * 9 + c] - 1] for r in rows for c in cols]
    for x in rng.sample(range(81), draw(st.integers(20, 64))):
        cells[x] = 0
    if draw(st.booleans()) and draw(st.booleans()):
        x = rng.randrange(81)
        cells[x] = rng.randint(1, 9)  # perhaps a clash
    return tuple(cells)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nine_by_nine())
def test_the_nine_by_nine_band_steps_count_as_dfs(cells):
    """search=bands at 9x9 (bands.py's steps) against dfs: the same counts up to 40, every
    solution judged, one after another and in a batch."""
    puzzle = Puzzle(Shape(3, 3), cells)
    bands, dfs = jit(search="bands"), jit(search="dfs")
    ours, theirs = bands.solve(puzzle, limit=40), dfs.solve(puzzle, limit=40)
    assert (ours.count, ours.complete) == (theirs.count, theirs.complete)
    assert all(is_solution(puzzle, s) for s in ours.solutions)
    batch = bands.solve_many([puzzle], limit=40)
    assert batch.counts.tolist() == [ours.count]
    assert not ours.count or is_solution(puzzle, batch.solutions[0].tolist())


def test_a_lone_cell_whose_last_digit_a_placing_struck_is_a_contradiction():
    """Two cells of one box whose one digit left is the same 9: the band search's pass over the
    cells with one digit places the first, which strikes the second's last digit; the second is
    then a cell with no digit (a contradiction), never a placing of a tenth digit (which wrote
    over another band's masks: two solutions claimed on 8 of forum_hardest_1905_11plus's grids,
    some of them wrong)."""
    import numpy as np

    from sudokucp.backends.jit.band_layout import WIDTH
    from sudokucp.backends.jit.kernels import module
    from sudokucp.backends.jit.layout import REGS_LEN

    bands = module("bands")
    OPEN = bands.OPEN  # noqa: N806 - the kernel's own name
    st, regs = np.zeros(WIDTH, np.int64), np.zeros(REGS_LEN, np.int64)
    st[:OPEN], st[OPEN:] = (1 << 27) - 1, (1 << 27) - 1  # every digit open in every cell
    for p in (0, 10):  # the box's cells at row 0, column 0 and row 1, column 1: 9 alone
        for d in range(8):
            st[d] &= ~(1 << p)
    before = st.copy()
    assert not bands.propagate(st, np.int64(0), regs)
    others = [9 * b + d for b in (1, 2) for d in range(8)] + [OPEN + 1, OPEN + 2]
    assert (st[others] == before[others]).all()  # the other bands lost a 9 at most


@st.composite
def band_states(draw):
    """A band search state of open cells (no cell placed), each with 1 to 9 digits (most with
    few: many cells of one digit, many contradictions), from a drawn seed; and the masks marked
    to filter."""
    import numpy as np

    from sudokucp.backends.jit.band_layout import WIDTH

    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    state = np.zeros(WIDTH, np.int64)
    for b in range(3):
        for p in range(27):
            for d in rng.sample(range(9), rng.choice((1, 2, 2, 3, 9))):
                state[9 * b + d] |= 1 << p
    state[27:] = (1 << 27) - 1
    return state, rng.getrandbits(27)


@settings(max_examples=300, deadline=None)
@given(band_states())
def test_the_band_propagation_only_ever_strikes(drawn):
    """Whatever the state, true or refuted, propagation takes digits and open cells away and
    never adds one: a placing writes into no mask but its own digit's, in its own band."""
    import numpy as np

    from sudokucp.backends.jit.kernels import module
    from sudokucp.backends.jit.layout import REGS_LEN

    state, dirty = drawn
    before = state.copy()
    module("bands").propagate(state, np.int64(dirty), np.zeros(REGS_LEN, np.int64))
    assert not (state & ~before).any(), np.flatnonzero(state & ~before)


@st.composite
def allowed_grids(draw):
    """A shape, a solved grid of it (full_grid with its digits relabelled and its rows shuffled
    within their bands) and each cell's allowed digits: the solution's, and others at a drawn
    rate (from none to many: few solutions to a hundred and more)."""
    shape = draw(st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n, r = shape.side, shape.box_rows
    grid = full_grid(shape)
    digits = rng.sample(range(1, n + 1), n)
    rows = [band + i for band in range(0, n, r) for i in rng.sample(range(r), r)]
    solution = [digits[grid[rows[i] * n + j] - 1] for i in range(n) for j in range(n)]
    rate = draw(st.sampled_from([0.0, 0.05, 0.15, 0.3]))
    allowed = [1 << (v - 1) | sum(1 << d for d in range(n) if rng.random() < rate)
               for v in solution]
    return shape, solution, allowed


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(allowed_grids())
def test_every_dfs_level_keeps_every_solution_of_a_drawn_state(drawn):
    """From a state of drawn candidates (the `allowed` digits of each cell, no givens) every
    propagation level finds the same solutions: none of them strikes a digit some solution
    needs, so the planted one is always found, and each answer is a grid within the state."""
    import numpy as np

    from sudokucp.backends.jit.jit import dfs_version
    from sudokucp.backends.jit.kernels import ready
    from sudokucp.backends.jit.layout import R_FOUND, R_PHASE, R_STORED
    from sudokucp.backends.jit.layout import tables as dfs_tables
    from sudokucp.rules import CLASSIC

    shape, solution, allowed = drawn
    n, cells, most = shape.side, shape.cells, 150
    found = list(dfs_tables(shape, CLASSIC))
    found[3] = np.array(allowed, np.int64)  # a copy: the cached tables stay as they are
    answers = {}
    for level in range(len(LEVELS)):
        k = ready("dfs", "run", dfs_version(level))
        geo = k.layout(n, shape.box_rows, shape.box_cols, level, 0, most, 1, len(found[0]),
                       len(found[5]))
        state = k.state(tuple(found), geo, most)
        state.regs[R_PHASE] = 0
        k.run(np.zeros(cells, np.uint8), state, np.int64(-1))
        stored = state.sols[:state.regs[R_STORED]].tolist()
        assert state.regs[R_FOUND] == len(stored) >= 1
        for grid in stored:
            assert all(allowed[c] >> (v - 1) & 1 for c, v in enumerate(grid))
            assert is_solution(Puzzle(shape, (0,) * cells), grid)
        if len(stored) < most:
            assert solution in stored
        answers[LEVELS[level]] = sorted(map(tuple, stored))
    assert len({tuple(a) for a in answers.values()}) == 1, {k: len(v) for k, v in answers.items()}


# --- batches -------------------------------------------------------------------------------------

def test_solve_many_agrees_with_solve():
    puzzles = [e.puzzle for path in ["seeds/002-logic-9x9.txt", "seeds/004-telegram.txt",
                                     "seeds/004-multiple.txt", "generated/9x9-expert.txt"]
               for e in read_puzzles(PUZZLES / path)]
    backend = jit()
    batch = backend.solve_many(puzzles, limit=2)
    assert batch.solutions.shape == (len(puzzles), 81) and batch.seconds > 0
    for i, puzzle in enumerate(puzzles):
        single = backend.solve(puzzle, limit=2)
        assert batch.counts[i] == single.count
        assert batch.complete[i] == single.complete
        assert is_solution(puzzle, batch.solutions[i].tolist())
        assert batch.stats[i].tolist() == [single.stats[k] for k in ("nodes", "guesses",
                                                                       "backtracks")]


def test_solve_many_counts_and_unsat():
    multiple = first("seeds/004-multiple.txt")
    unsat = Puzzle(Shape(3, 3), (5, 5) + (0,) * 79)
    batch = jit().solve_many([multiple, unsat], limit=0)
    assert batch.counts.tolist() == [28, 0] and batch.complete.tolist() == [True, True]
    assert is_solution(multiple, batch.solutions[0].tolist()) and not batch.solutions[1].any()


def test_solve_many_refuses_what_it_cannot_batch():
    with pytest.raises(ValueError, match="one shape"):
        jit().solve_many([Puzzle.empty(Shape(2, 2)), Puzzle.empty(Shape(3, 3))])
    with pytest.raises(NotImplementedError, match="search=dfs"):
        jit().solve_many([Puzzle.empty(Shape(5, 5))])
    batch = jit(search="dfs").solve_many([holed(Shape(5, 5), 0.3)])
    assert batch.counts.tolist() == [1]
    import numpy as np

    with pytest.raises(ValueError, match=r"grid 1 holds a value outside 0-4 \(1 grids do\)"):
        jit().solve_array(np.array([[0] * 16, [260] + [0] * 15]), Shape(2, 2))  # 260 wraps to 4
    with pytest.raises(ValueError, match="grid 0 holds a value outside 0-4"):
        jit().solve_array(np.array([[-1] + [0] * 15]), Shape(2, 2))
    with pytest.raises(ValueError, match="16 columns"):
        jit().solve_array(np.zeros((1, 9)), Shape(2, 2))


# --- options -------------------------------------------------------------------------------------

@pytest.mark.parametrize("propagation", LEVELS)
@pytest.mark.parametrize("branch", BRANCHES)
def test_every_dfs_option_counts_alike(propagation, branch):
    backend = jit(search="dfs", propagation=propagation, branch=branch)
    multiple = first("seeds/004-multiple.txt")
    result = backend.solve(multiple, limit=0)
    assert (result.count, result.complete) == (28, True)
    for entry in read_puzzles(PUZZLES / "generated/12x12.txt")[:2]:
        result = backend.solve(entry.puzzle, limit=2)
        check(entry.puzzle, result)
        assert (result.count, result.complete) == (1, True)


@pytest.mark.parametrize("options", [{"restarts": "glucose"}, {"phase": "saved"},
                                     {"phase": "true"}, {"minimise": "local"}, {"probe": True}])
def test_cdcl_options(options):
    backend = jit(search="cdcl", **options)
    result = backend.solve(first("seeds/004-multiple.txt"), limit=0)
    assert (result.count, result.complete) == (28, True)
    puzzle = first("generated/16x16.txt")
    check(puzzle, backend.solve(puzzle, limit=2))


@pytest.mark.parametrize(("options", "said"), [
    ({"fallback": 30000}, "no option 'fallback'"), ({"root": "full"}, "no option 'root'"),
    ({"propagation": "dual"}, "'propagation' of 'jit' is one of .*, not 'dual'"),
    ({"branch": "smallest"}, "'branch' of 'jit' is one of cell, wdeg, not 'smallest'")])
def test_the_removed_options_are_refused_by_name(options, said):
    """The options removed (a start-over, a dfs root propagation before learning, the matching
    filter on the views, Knuth's branching) are refused with a message that names them."""
    with pytest.raises(OptionError, match=said):
        jit(**options)


def test_options_are_checked_and_named():
    with pytest.raises(OptionError, match="propagation"):
        jit(propagation="magic")
    with pytest.raises(OptionError, match="no option"):
        jit(speed=11)
    assert jit(search="cdcl", restarts="glucose").label == "jit:restarts=glucose:search=cdcl"
    assert jit().kernel(Shape(5, 5)) == "cdcl" and jit().kernel(Shape(4, 4)) == "dfs"
    assert jit().kernel(Shape(3, 3)) == "bands" and jit(branch="cell").kernel(NINE) == "dfs"
    assert jit(search="bands").kernel(Shape(4, 4)) == "dfs"  # bands: 9x9 alone, else dfs
    assert jit(search="bands").kernel(Shape(2, 3)) == "dfs"
    assert LEVELS[jit().level(Shape(4, 4))] == "full"
    assert LEVELS[jit().level(Shape(3, 3))] == "locked"


def test_search_bands_off_nine_by_nine_is_dfs():
    """search=bands on a 12x12 grid runs dfs: its one solution, judged (a general band-wise
    kernel, since removed, gave two wrong ones on this grid)."""
    puzzle = parse_grid(".....4C..58..C....97.B.14..61..2A.C...1..2..8.9..56....AC...92.BC..1.4"
                          "...........A....2...A.561....849......31...........B.5.6.3..4......8."
                          "..CB3", shape=Shape(3, 4))
    result = jit(search="bands").solve(puzzle, limit=2)
    check(puzzle, result)
    assert result.complete and result.count == 1


# --- solve_lines: one-line grids read and solved in compiled code ---------------------------------

NINE = Shape(3, 3)


def plain_lines(path: Path, count: int | None = None, seed: int = 5) -> list[bytes]:
    """The grids of a file as plain lines ('.' blanks), a seeded sample of `count` of them."""
    puzzles = [e.puzzle for e in read_puzzles(path) if e.puzzle is not None]
    if count is not None:
        puzzles = random.Random(seed).sample(puzzles, count)
    return [p.to_line().encode() for p in puzzles]


def read_back(lines, stem: str = "") -> list[tuple]:
    """(line, name, cells) of every puzzle and (line, message) of every error, in line order: the
    grids read in compiled code and the ordinary reader's entries of the rest."""
    grids = [(int(n), f"{stem}:{n}", tuple(g)) for n, g in zip(lines.numbers.tolist(),
                                                                 lines.grids.tolist())]
    return sorted(grids + [described(e) for e in lines.rest], key=lambda item: item[0])


def described(entry) -> tuple:
    if entry.error is not None:
        return entry.line, str(entry.error)
    return entry.line, entry.puzzle.name, entry.puzzle.cells


def ordinary(path: Path, shape: Shape | None = None) -> list[tuple]:
    return [described(e) for e in read_puzzles(path, shape=shape)]


def mixed_text() -> bytes:
    """Good grids among lines the compiled reader hands on: each kind the ordinary reader has."""
    good = plain_lines(PUZZLES / "generated/9x9-expert.txt")
    dup = b"11" + good[0][2:]
    sixteen = plain_lines(PUZZLES / "generated/16x16.txt")[0]
    rows = [bytes(good[1][i:i + 9]) for i in range(0, 81, 9)]
    return b"\n".join([
        b"# a comment", good[0], b"", good[1].replace(b".", b"0") + b"\r", good[2][:80],
        good[3][:40] + b"x" + good[3][41:], dup, good[4] + b"  # with a comment",
        b"\xff" + good[5][1:], b"Grid 01", *rows, b"   ", good[6], sixteen, b"#\tnot a comment",
        good[7].lower(), good[8]]) + b"\n"


def test_solve_lines_answers_are_judged_and_counts_agree_with_dfs(public_sets):
    from sudokucp.check import solved_rows

    lines = plain_lines(public_sets / "top95.txt") + [
        line for f in sorted((PUZZLES / "generated").glob("9x9-*.txt")) for line in plain_lines(f)]
    unique = len(lines)  # proper puzzles: one solution each
    counted = [e for e in read_puzzles(public_sets / "counts_tdoku_test.txt")]
    lines += [e.puzzle.to_line().encode() for e in counted]
    batch = jit().solve_lines(b"\n".join(lines), limit=2, kept=2)
    got = batch.lines
    assert len(got.numbers) == len(lines) and not got.rest and got.shape == NINE
    solved = batch.solved
    found = solved.counts > 0
    for kept in range(2):
        rows = found & (solved.counts > kept)
        assert solved_rows(NINE, got.grids[rows], solved.solutions[rows, kept]).all()
    assert (solved.counts[:unique] == 1).all() and solved.complete[:unique].all()
    for entry, count in zip(counted, solved.counts[unique:].tolist(), strict=True):
        assert count == min(int(entry.comment.split(":")[0]), 2), entry.puzzle.name
    dfs = jit(search="dfs")
    for i in range(0, len(lines), 7):  # a sample, grid by grid through the ordinary solve
        result = dfs.solve(Puzzle(NINE, tuple(got.grids[i].tolist())), limit=2)
        assert (result.count, result.complete) == (solved.counts[i], solved.complete[i]), i


def test_solve_lines_reads_as_the_ordinary_reader(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_bytes(mixed_text())
    from sudokucp.backends.jit.lines import read_lines

    lines = read_lines(path.read_bytes(), stem="mixed")
    assert len(lines.numbers) == 5 and len(lines.rest) == 7  # errors, a grid of rows, 16x16
    assert read_back(lines, "mixed") == ordinary(path)
    shaped = read_lines(path.read_bytes(), NINE, stem="mixed")
    assert read_back(shaped, "mixed") == ordinary(path, NINE)


@pytest.mark.parametrize("text", [
    b"quizzes,solutions\n" + b"." * 81 + b",\n",  # a CSV header: the columns name the fields
    b"." * 81 + b"\n" + b"." * 40 + b"\r" + b"." * 41 + b"\n",  # a lone CR splits a line
    b"\xff\xfe" + "1".encode("utf-16-le") * 81,  # UTF-16: the reader stops at once
    b"1234" * 4 + b"\n",  # 4x4: a line that short may be a row, the reader decides
], ids=["csv", "lone-cr", "utf16", "4x4"])
def test_solve_lines_leaves_to_the_reader_what_it_reads_otherwise(tmp_path, text):
    from sudokucp.backends.jit.lines import read_lines

    path = tmp_path / "other.txt"
    path.write_bytes(text)
    lines = read_lines(text, stem="other")
    assert not len(lines.numbers)
    assert read_back(lines, "other") == ordinary(path)


def test_solve_lines_takes_arrays_of_rows():
    import numpy as np

    lines = plain_lines(PUZZLES / "generated/9x9-easy.txt")
    from_bytes = jit().solve_lines(b"\n".join(lines))
    for rows in (np.array(lines, "S81"), np.frombuffer(b"".join(lines), np.uint8).reshape(-1, 81)):
        batch = jit().solve_lines(rows)
        assert (batch.lines.grids == from_bytes.lines.grids).all()
        assert (batch.solved.solutions == from_bytes.solved.solutions).all()
    short = np.array([lines[0], b"1" * 80], "S81")  # numpy pads the short row with a NUL
    batch = jit().solve_lines(short, stem="s")
    assert len(batch.lines.numbers) == 1 and str(batch.lines.rest[0].error).startswith("line 2: ")
    assert "NUL" not in str(batch.lines.rest[0].error)  # the padding is no part of the line
    with pytest.raises(TypeError, match="bytes, or an array of rows"):
        jit().solve_lines("text")


def test_solve_lines_refuses_what_it_cannot_batch():
    from sudokucp.backends.jit.lines import solve_grids

    with pytest.raises(NotImplementedError, match="search=dfs"):
        jit().solve_lines(holed(Shape(5, 5), 0.3).to_line().encode())
    with pytest.raises(ValueError, match="1 to 64 solutions"):
        solve_grids(jit(), [], NINE, kept=65)


def normalised(text: str) -> list:
    """solve's output with the figures that differ from run to run taken out."""
    import json

    records = []
    for line in text.splitlines():
        record = json.loads(line)
        for key in ("seconds", "cpu"):
            record.pop(key)
        for key in ("load_s", "build_s"):
            record["stats"].pop(key, None)
        records.append(record)
    return records


@pytest.mark.parametrize("how", [[], ["--limit", "2"], ["--count"]], ids=["first", "two", "count"])
def test_solve_on_a_line_file_gives_what_the_one_by_one_path_gives(tmp_path, capsys,
                                                                    monkeypatch, how):
    from sudokucp.backends.jit.lines import FileBatch
    from sudokucp.cli import main

    path = tmp_path / "mixed.txt"
    path.write_bytes(mixed_text() + b"\n".join(plain_lines(PUZZLES / "seeds/004-multiple.txt")))
    args = ["solve", str(path), "--backend", "jit", "--format", "json", *how]
    batched, real = [], FileBatch.open
    monkeypatch.setattr(FileBatch, "open", lambda *a: batched.append(1) or real(*a))
    code = main(args)
    monkeypatch.undo()
    fast = capsys.readouterr()
    assert main([*args, "--timeout", "60"]) == code == 2  # bad lines: exit 2, as ever
    slow = capsys.readouterr()
    assert batched == [1] and normalised(fast.out) == normalised(slow.out)
    assert fast.err == slow.err and "line 5" in fast.err  # the same messages, in order


def test_a_nine_by_nine_solve_compiles_only_its_entry_point():
    """In a fresh process: one 9x9 grid loads the band-wise one-grid search alone (bands.py),
    one 16x16 grid the strong dfs one (mate of two dimensions): no clause learning, no batch, no
    reading kernel."""
    code = ("import sys\n"
            "from sudokucp.backends import get_backend\n"
            "from sudokucp.puzzle import Puzzle, Shape\n"
            "jit = get_backend('jit')\n"
            "jit.solve(Puzzle.empty(Shape(3, 3)))\n"
            "print('sudokucp.backends.jit.dfs' in sys.modules)\n"
            "jit.solve(Puzzle.empty(Shape(4, 4)))\n"
            "from sudokucp.backends.jit import bands, dfs\n"
            "state = dfs.run.signatures[0][1]\n"
            "print(len(bands.run.signatures), len(bands.run_many.signatures),\n"
            "      len(dfs.run.signatures), len(dfs.run_many.signatures),\n"
            "      dict(zip(state.fields, state.types))['mate'].ndim,\n"
            "      any(m in sys.modules for m in ('sudokucp.backends.jit.cdcl',\n"
            "                                     'sudokucp.backends.jit.scan')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "1", "0", "1", "0", "2", "False"]


def printed_in_a_cold_cache(code: str, cache) -> list[str]:
    """The words that `code` prints in a fresh process with an empty numba cache folder. LLVM's
    optimisations off (NUMBA_OPT=0): which functions compile is settled before them (numba's
    typing, inlining and pruning), and a cold compile takes a fifth less."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "NUMBA_OPT": "0"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=env)
    return out.stdout.split()


@pytest.mark.slow  # a cold compile: 15 s on a quiet core
def test_the_strong_dfs_batch_compiles_the_units_filter_and_its_search(tmp_path):
    """In a fresh process and an empty numba cache: the strong dfs version's batch (`full`, the
    16x16 default) compiles the units' matching filter and calls the one-grid search. The tests'
    warm-up compiles that batch first and notes it (conftest.STRONG_FIRST); where it did not
    (its cache was warm already), the test compiles it cold itself."""
    from conftest import SESSION_ENV, STRONG_FIRST

    noted = Path(os.environ[SESSION_ENV]) / STRONG_FIRST
    if noted.is_file():
        assert noted.read_text().split() == ["1"] * 5
        return
    code = ("from sudokucp.backends.jit.kernels import STRONG, ready\n"
            "from sudokucp.backends.jit import dfs, matching\n"
            "ready('dfs', 'run_many', STRONG)\n"
            "print(*(len(f.signatures) for f in (dfs.run_many, dfs.fixpoint, matching.alldiff,\n"
            "      matching.gac, dfs.run)))\n")
    assert printed_in_a_cold_cache(code, tmp_path) == ["1"] * 5


def test_backends_warm_compiles_ahead_and_says_so(capsys, monkeypatch):
    """Every entry point in turn, then the 9x9 path built ahead. The compiles are recorded, not
    run (each entry point's compile is tested where it is used: all of them take minutes on a
    cold cache), nor the build (tests/test_jit_ahead.py's)."""
    from sudokucp.backends.jit import ahead, kernels
    from sudokucp.cli import main

    compiled = []
    monkeypatch.setattr(kernels, "ready", lambda *key: compiled.append(key))

    monkeypatch.setattr(ahead, "build_apart", lambda: "not built (left to another test)")
    monkeypatch.setattr(ahead, "prune", lambda: (2, 3 * 2**20))  # tested on its own below
    assert main(["backends", "--warm", "jit"]) == 0
    out, err = capsys.readouterr()
    assert "jit: dfs.run (1/9)…" in err.splitlines() and "jit: scan.scan (8/9)…" in err
    assert "jit: dfs.run_many (strong) (4/9)…" in err.splitlines()
    assert "jit: bands.run (5/9)…" in err.splitlines()
    assert "jit: bands.run_many (6/9)…" in err.splitlines()
    assert compiled == [(k, e, v) for k in kernels.KERNELS for e, v in kernels.entries(k)]
    assert len(set(compiled)) == 8
    assert "jit: the 9x9 path built ahead (numba.pycc, a C compiler) (9/9)…" in err.splitlines()
    assert out.startswith("jit: in ") and out.rstrip().endswith(
        "8 kernels compiled or loaded, later runs load them from numba's cache; the 9x9 "
        "path's machine code not built (left to another test); 2 stale cache folders of "
        "earlier sources removed (3.0 MB)")
    assert main(["backends", "--warm", "naive"]) == 2
    assert "naive compiles nothing ahead" in capsys.readouterr().err


def test_warming_removes_the_caches_of_earlier_sources_only(tmp_path):
    """prune() removes the other `jit-<16 hex digits>` folders of the cache base, and nothing
    else: not this version's folder, not a folder of another name."""
    from sudokucp.backends.jit import ahead

    mine = ahead.kernel_folder(str(tmp_path))
    old, other = tmp_path / "jit-0123456789abcdef", tmp_path / "jit-mine"
    for folder, size in ((mine, 5), (old, 1000), (other, 7)):
        (folder / "sub").mkdir(parents=True)
        (folder / "sub" / "code.nbc").write_bytes(b"x" * size)
    (old / "index.nbi").write_bytes(b"y" * 24)
    assert ahead.stale_folders(str(tmp_path)) == [old]
    assert ahead.prune(str(tmp_path)) == (1, 1024)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, "jit-mine"])
    assert ahead.prune(str(tmp_path)) == (0, 0)
