"""Every installed backend on the project's puzzles, in isolated workers: verified, in agreement."""

from __future__ import annotations

from collections import defaultdict

import pytest
from conftest import INSTALLED, PUZZLES

from sudokucp.executors.local import LocalExecutor
from sudokucp.harness import Contender, cross_validate, execute, load_dataset, plan
from sudokucp.result import Status

TIMEOUT = 2.0  # seconds per run: slow combinations (naive on hard grids) end as TIMEOUT
MAX_SIDE = 16  # 25x25 minimal grids take most backends minutes: the generator's tests cover them
FAILURES = {Status.WRONG, Status.CRASH, Status.ERROR, Status.MEMOUT}
# Programs run on the same exported CNF as cadical, a process per grid: cadical speaks for them
# here; test_contract.py and test_command_formats.py run each of them.
SAME_CNF = {"kissat", "cryptominisat", "minisat", "picosat"}


@pytest.fixture(scope="module")
def rows():
    files = sorted(PUZZLES.rglob("*.txt"))
    if not files:
        pytest.skip(f"no puzzle files under {PUZZLES}")
    datasets = [d for d in map(load_dataset, files)
                if d.puzzles and d.puzzles[0].side <= MAX_SIDE]
    contenders = [Contender(name, name, {}, "dev", 1) for name in INSTALLED
                  if name not in SAME_CNF]
    tasks = plan(contenders, datasets, limit=2, timeout=TIMEOUT)
    with LocalExecutor(jobs=2) as executor:
        return list(execute(tasks, executor))


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
