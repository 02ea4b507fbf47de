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

# Every backend on every file: its module's runs take half a minute of two cores, more under load.
pytestmark = pytest.mark.slow

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


def sample() -> list[Dataset]:
    """The first PER_FILE puzzle(s) of every puzzle file whose grids are at most MAX_SIDE wide."""
    datasets = [load_dataset(path, PER_FILE) for path in sorted(PUZZLES.rglob("*.txt"))]
    return [d for d in datasets if d.puzzles and d.puzzles[0].side <= MAX_SIDE]


def runs(datasets: list[Dataset]) -> list[Task]:
    """Every backend on every puzzle, the slow ones under their shorter limit."""
    contenders = [Contender(name, name, {}, "dev", 1) for name in BACKENDS]
    fast = [c for c in contenders if c.name not in SLOW]
    slow = [c for c in contenders if c.name in SLOW]
    return (plan(fast, datasets, limit=2, timeout=TIMEOUT)
            + plan(slow, datasets, limit=2, timeout=SLOW_TIMEOUT))


@pytest.fixture(scope="module")
def rows():
    datasets = sample()
    if not datasets:
        pytest.skip(f"no puzzle files under {PUZZLES}")
    with LocalExecutor(jobs=2) as executor:
        return list(execute(runs(datasets), executor))


def test_every_backend_ran_on_every_file(rows):
    files = {d.name for d in sample()}
    assert {(r.backend, r.dataset) for r in rows} == {(b, f) for b in BACKENDS for f in files}


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
