"""Every installed backend on the first puzzles of each puzzle file, in isolated workers: verified,
in agreement."""

from __future__ import annotations

from collections import defaultdict

import pytest
from conftest import INSTALLED, PUZZLES

from sudokucp.executors.base import Task
from sudokucp.executors.local import LocalExecutor
from sudokucp.harness.bench import execute
from sudokucp.harness.runcheck import cross_validate
from sudokucp.harness.runplan import Contender, Dataset, load_dataset, plan
from sudokucp.result import Status

# Every backend on the files it is sampled on: its module's runs take about 20 s of two cores;
# jit's in the workers use the kernels the session warmed.
pytestmark = [pytest.mark.slow, pytest.mark.jit]

PER_FILE = 1  # the first puzzle of every file: every file and every backend, not every puzzle
TIMEOUT = 1.0  # seconds per run: far above the milliseconds the fast backends take on these grids
# Plain backtracking and python-constraint's pure-Python search end as TIMEOUT on the hard grids
# whatever the limit: a shorter one for them (they answer the small and easy grids, compared there).
SLOW = {"naive", "naive-iterative", "pyconstraint"}
SLOW_TIMEOUT = 0.25
MAX_SIDE = 16  # 25x25 minimal grids take most backends minutes: the generator's tests cover them
FAILURES = {Status.WRONG, Status.CRASH, Status.ERROR, Status.MEMOUT}
# Programs run on the same exported CNF as cadical, a process per grid: cadical speaks for them
# here; test_contract.py and test_command_formats.py run each of them.
SAME_CNF = {"kissat", "cryptominisat", "minisat", "picosat"}
BACKENDS = [name for name in INSTALLED if name not in SAME_CNF]
# A program started per grid (minizinc, cadical) and the slow searches cost most of the module's
# time: they run on the first file of each shape, the others on every file.
SAMPLED = {"minizinc", "cadical"} | SLOW


def sample() -> list[Dataset]:
    """The first PER_FILE puzzle(s) of every puzzle file whose grids are at most MAX_SIDE wide."""
    datasets = [load_dataset(path, PER_FILE) for path in sorted(PUZZLES.rglob("*.txt"))]
    return [d for d in datasets if d.puzzles and d.puzzles[0].side <= MAX_SIDE]


def one_per_shape(datasets: list[Dataset]) -> list[Dataset]:
    """The first file (by name) of each shape among `datasets`."""
    first: dict = {}
    for d in datasets:
        first.setdefault(d.puzzles[0].shape, d)
    return list(first.values())


def files_of(backend: str, datasets: list[Dataset]) -> list[Dataset]:
    """The files a backend runs on: every file, or one per shape for the SAMPLED ones."""
    return one_per_shape(datasets) if backend in SAMPLED else datasets


def runs(datasets: list[Dataset]) -> list[Task]:
    """Every backend on its files, the slow ones under their shorter limit."""
    return [task for name in BACKENDS
            for task in plan([Contender(name, name, {}, "dev", 1)], files_of(name, datasets),
                             limit=2, timeout=SLOW_TIMEOUT if name in SLOW else TIMEOUT)]


@pytest.fixture(scope="module")
def rows():
    datasets = sample()
    if not datasets:
        pytest.skip(f"no puzzle files under {PUZZLES}")
    with LocalExecutor(jobs=2) as executor:
        return list(execute(runs(datasets), executor))


def test_every_backend_ran_on_its_files(rows):
    datasets = sample()
    expected = {(b, d.name) for b in BACKENDS for d in files_of(b, datasets)}
    assert {(r.backend, r.dataset) for r in rows} == expected
    assert len(one_per_shape(datasets)) >= 5  # 4x4, 6x6, 9x9, 12x12, 16x16 at least


def test_every_answer_is_verified(rows):
    claimed = [r for r in rows if r.solutions]
    assert claimed, "no backend claimed any solution"
    assert [r.key for r in claimed if not r.verified] == []


def test_no_backend_fails(rows):
    failed = [(r.backend, r.puzzle, r.status, r.error) for r in rows if r.status in FAILURES]
    assert failed == []


def test_backends_agree(rows):
    _, disagreements = cross_validate(rows)
    assert [(d.puzzle, d.message) for d in disagreements] == []


def test_every_puzzle_gets_an_answer(rows):
    answered = defaultdict(bool)
    for r in rows:
        answered[r.puzzle] |= bool(r.verified) or (r.status is Status.UNSAT and r.complete)
    assert [name for name, ok in answered.items() if not ok] == []
