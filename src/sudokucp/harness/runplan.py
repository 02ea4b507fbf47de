"""What a bench runs: the contenders (backend configurations), the puzzles of each file, and the
plan (contenders x puzzles x repeats, shuffled), with calibration points among the runs."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudokucp.backends import available_backends, from_spec
from sudokucp.backends.base import Backend
from sudokucp.check import explain, is_solution
from sudokucp.executors import ResourceLimits, Task
from sudokucp.io.formats import Entry, iter_entries, to_line
from sudokucp.isomorph import forms, invert
from sudokucp.machine import calibration
from sudokucp.puzzle import Puzzle, Shape


@dataclass(frozen=True)
class Contender:
    """A backend configuration taking part: label, registry name, options, version, cores and
    the package it needs (None: pure Python)."""

    label: str
    name: str
    options: dict[str, Any]
    version: str
    cores: int
    package: str | None = None

    @classmethod
    def from_backend(cls, backend: Backend) -> Contender:
        return cls(backend.label, backend.name, dict(backend.options), backend.version(),
                   backend.cores, backend.distribution())


@dataclass(frozen=True)
class Dataset:
    """The puzzles of one file (named by its stem) and the lines that could not be read."""

    name: str
    puzzles: list[Puzzle]
    problems: list[str] = field(default_factory=list)
    source: str = ""
    answers: dict[str, str] = field(default_factory=dict)  # puzzle hash -> the file's solution


def resolve(specs: Iterable[str]) -> list[Contender]:
    """Contenders from specs such as 'mrv:order=static' or 'pkg.mod:Class'; 'all' means every
    available backend."""
    expanded = [name for spec in specs for name in
                (available_backends() if spec.strip().lower() == "all" else [spec])]
    contenders: dict[str, Contender] = {}
    for spec in expanded:
        contender = Contender.from_backend(from_spec(spec))
        contenders.setdefault(contender.label, contender)
    return list(contenders.values())


def load_dataset(path: str | Path, max_puzzles: int | None = None) -> Dataset:
    """The readable puzzles of a file (the first `max_puzzles`), with a message per bad line,
    and the solutions the file gives (a CSV solution column), each checked by the judge."""
    puzzles, problems, answers = [], [], {}
    for entry in iter_entries(path):  # streamed: reading stops at the max_puzzles-th puzzle
        if entry.error is not None:
            problems.append(f"{path}: {entry.error}")
            continue
        puzzles.append(entry.puzzle)
        if entry.solution is not None:
            _take_answer(path, entry, answers, problems)
        if len(puzzles) == max_puzzles:
            break
    return Dataset(Path(path).stem, puzzles, problems, str(path), answers)


def _take_answer(path: str | Path, entry: Entry, answers: dict[str, str],
                 problems: list[str]) -> None:
    """Keep the solution the file gives for its puzzle when the judge accepts it, else say why."""
    if is_solution(entry.puzzle, entry.solution):
        answers[entry.puzzle.digest] = to_line(entry.puzzle.shape, entry.solution)
        return
    why = "; ".join(explain(entry.puzzle, entry.solution)[:2])
    problems.append(f"{path}: line {entry.line}: the solution given in the file does not "
                    f"solve its puzzle ({why}); ignored")


def run_key(label: str, digest: str, limit: int, repeat: int = 0, form: int = 0,
            seed: int = 0) -> str:
    """The identity of a run in the results log (the first repeat of the puzzle as given keeps
    the plain key); an isomorph's key names its form and the seed it was drawn with."""
    key = f"{label}|{digest}|{limit}"
    key = f"{key}#{repeat}" if repeat else key
    return f"{key}~{form}@{seed}" if form else key


def key_seed(key: str) -> int | None:
    """The seed an isomorph's run key names (run_key), or None for a puzzle as given."""
    form, _, seed = key.rpartition("~")[2].partition("@")
    return int(seed) if "~" in key and form.isdigit() and seed.lstrip("-").isdigit() else None


def plan(contenders: Sequence[Contender], datasets: Sequence[Dataset], *, limit: int = 1,
         timeout: float | None = None, memory_mb: int | None = None,
         seed: int | None = None, repeat: int = 1, cpu_limit: float | None = None,
         isomorphs: int = 0) -> list[Task]:
    """Every contender on every puzzle and on `isomorphs` random isomorphs of it (drawn with
    `seed`), `repeat` times each; a puzzle seen twice runs once. Puzzle by puzzle, or with a
    seed (or repeats or isomorphs: seed 0 then) every run in a shuffled order, so that a drift
    of the machine's speed hits every backend alike."""
    puzzles = [(d.name, p) for d in datasets for p in d.puzzles]
    limits = {c.label: ResourceLimits(timeout, memory_mb=memory_mb, cores=c.cores,
                                      cpu_limit=cpu_limit) for c in contenders}
    order = shuffle_seed(seed, repeat * (isomorphs + 1))
    tasks, seen = [], set()
    for dataset, puzzle in puzzles:
        line = puzzle.to_line()
        for form, searched, back in _forms(puzzle, isomorphs, order or 0):
            for index, c in itertools.product(range(repeat), contenders):
                key = run_key(c.label, puzzle.digest, limit, index, form, order or 0)
                if key not in seen:
                    seen.add(key)
                    meta = {"dataset": dataset, "name": c.name, "options": c.options,
                            "version": c.version, "grid": line, "repeat": index,
                            **({"form": form, "back": back} if form else {})}
                    tasks.append(Task(key, c.label, searched, limit, limits[c.label], meta))
    if order is not None:
        random.Random(order).shuffle(tasks)
    return tasks


def _forms(puzzle: Puzzle, count: int, seed: int
           ) -> list[tuple[int, Puzzle, dict[str, Any] | None]]:
    """The puzzle as given (form 0), then `count` random isomorphs, each with the inverse of its
    transform (JSON-ready) that maps a solution back; a variant runs as given only."""
    drawn = forms(puzzle, count, seed) if count and puzzle.rules.classic else []
    return [(0, puzzle, None)] + [(k, moved, invert(t).to_dict())
                                  for k, (moved, t) in enumerate(drawn, 1)]


def shuffle_seed(seed: int | None, runs: int) -> int | None:
    """The seed that shuffles the runs: the one given, 0 with several runs of a backend on a
    puzzle (repeats, isomorphs), None (no shuffle) else."""
    return seed if seed is not None or runs == 1 else 0


def calibrated(tasks: Sequence[Task]) -> list[Task]:
    """The tasks with calibration points before, among (every `calibration.every` runs) and
    after them, run by the same workers under the same memory cap."""
    if not tasks:
        return []
    step = calibration.every(len(tasks))
    limits = ResourceLimits(60.0, memory_mb=tasks[0].limits.memory_mb)
    empty = Puzzle.empty(Shape(2, 2))
    out: list[Task] = []
    for index, task in enumerate(tasks):
        if index % step == 0:
            out.append(Task(f"calibration#{index}", calibration.SPEC, empty, 1, limits))
        out.append(task)
    out.append(Task("calibration#end", calibration.SPEC, empty, 1, limits))
    return out
