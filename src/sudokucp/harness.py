"""The comparison harness: plan (backends x puzzles x options) -> isolated runs -> verified rows.

Where the runs execute is an Executor's business (sudokucp.executors, "local" by default); the
plan, the verification, the cross-validation and the append-only results log do not depend on it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
import platform
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudokucp import calibration
from sudokucp.backends import available_backends, from_spec
from sudokucp.backends.base import Backend
from sudokucp.check import explain, is_solution
from sudokucp.executors import Executor, Outcome, ResourceLimits, Task, make_executor
from sudokucp.io.files import FolderBusy, FolderLock
from sudokucp.io.formats import Entry, iter_entries, to_line
from sudokucp.puzzle import Puzzle, Shape
from sudokucp.result import Row, Status, is_amount, is_real, is_strings
from sudokucp.runlog import RESULTS, BenchError, ResultLog, check_settings


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


@dataclass(frozen=True)
class Disagreement:
    """A puzzle on which backends contradict each other or the judge."""

    puzzle: str
    hash: str
    message: str
    wrong: tuple[str, ...] = ()


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


def run_key(label: str, digest: str, limit: int, repeat: int = 0) -> str:
    """The identity of a run in the results log (the first repeat keeps the plain key)."""
    key = f"{label}|{digest}|{limit}"
    return f"{key}#{repeat}" if repeat else key


def plan(contenders: Sequence[Contender], datasets: Sequence[Dataset], *, limit: int = 1,
         timeout: float | None = None, memory_mb: int | None = None,
         seed: int | None = None, repeat: int = 1, cpu_limit: float | None = None
         ) -> list[Task]:
    """Every contender on every puzzle `repeat` times; a puzzle seen twice runs once. Puzzle by
    puzzle, or with a seed (or repeats: seed 0 then) every run in a shuffled order, so that a
    drift of the machine's speed hits every backend alike."""
    puzzles = [(d.name, p) for d in datasets for p in d.puzzles]
    limits = {c.label: ResourceLimits(timeout, memory_mb=memory_mb, cores=c.cores,
                                      cpu_limit=cpu_limit) for c in contenders}
    tasks, seen = [], set()
    for dataset, puzzle in puzzles:
        line = puzzle.to_line()
        for index, c in itertools.product(range(repeat), contenders):
            key = run_key(c.label, puzzle.digest, limit, index)
            if key not in seen:
                seen.add(key)
                meta = {"dataset": dataset, "name": c.name, "options": c.options,
                        "version": c.version, "grid": line, "repeat": index}
                tasks.append(Task(key, c.label, puzzle, limit, limits[c.label], meta))
    order = shuffle_seed(seed, repeat)
    if order is not None:
        random.Random(order).shuffle(tasks)
    return tasks


def shuffle_seed(seed: int | None, repeat: int) -> int | None:
    """The seed that shuffles the runs: the one given, 0 with repeats, None (no shuffle) else."""
    return seed if seed is not None or repeat == 1 else 0


def verify(outcome: Outcome, measure: str = "cpu") -> Row:
    """The row of a finished run, its `seconds` the `measure` ("cpu" or "wall"); a claimed
    solution the judge refuses makes it WRONG."""
    task, result = outcome.task, outcome.result
    puzzle = task.puzzle
    bad = [s for s in result.solutions if not is_solution(puzzle, s)]
    status, error = result.status, result.error
    if bad:
        status, error = Status.WRONG, "invalid solution: " + "; ".join(explain(puzzle, bad[0])[:3])
    shape = puzzle.shape
    cpu = result.cpu
    row = Row(
        key=task.key, backend=task.spec, name=task.meta.get("name"),
        options=task.meta.get("options", {}), dataset=task.meta.get("dataset", ""),
        puzzle=puzzle.name, hash=puzzle.digest, box=f"{shape.box_rows}x{shape.box_cols}",
        grid=task.meta.get("grid") or puzzle.to_line(), status=status,
        verified=(not bad) if result.solutions else None, seconds=result.seconds, cpu=cpu,
        wall=result.seconds, rss_mb=outcome.rss_mb, repeat=task.meta.get("repeat", 0),
        count=result.count, complete=result.complete,
        solutions=tuple(to_line(shape, s) for s in result.solutions), stats=dict(result.stats),
        error=error, limit=task.limit, timeout=task.limits.time_limit,
        memory_mb=task.limits.memory_mb, cpu_limit=task.limits.cpu_limit,
        limit_hit=outcome.limit_hit, measure="wall",
        versions={"backend": task.meta.get("version"), "python": platform.python_version()})
    return measured(row, measure)


def measured(row: Row, measure: str) -> Row:
    """The row with `seconds` taken from its `measure` (a row without CPU time keeps wall)."""
    if row.measure == measure or row.cpu is None:
        return row
    return dataclasses.replace(row, seconds=row.cpu if measure == "cpu" else row.wall,
                               measure=measure)


def execute(tasks: Iterable[Task], executor: Executor, log: ResultLog | None = None, *,
            on_row: Callable[[Row], None] | None = None, measure: str = "cpu",
            points: list[calibration.Point] | None = None) -> Iterator[Row]:
    """Submit every task, then yield verified rows as runs finish, each logged before it is
    yielded; the calibration tasks' points go to `points`."""
    for task in tasks:
        executor.submit(task)
    for outcome in executor.results():
        if outcome.task.spec == calibration.SPEC:
            if points is not None and outcome.result.cpu is not None:
                points.append(calibration.Point(outcome.result.cpu, outcome.result.seconds))
            continue
        row = verify(outcome, measure)
        if log is not None:
            log.write(row)
        if on_row is not None:
            on_row(row)
        yield row


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


def enforce_time_limit(row: Row) -> Row:
    """An answer that came after the time limit (a backend that cannot be interrupted, caught
    within the kill's grace) or past the CPU limit counts as a TIMEOUT; its solutions still
    serve cross-validation."""
    if not row.answered:
        return row
    wall = row.seconds if row.measure == "wall" else row.wall
    if row.timeout and wall > row.timeout:
        return dataclasses.replace(row, status=Status.TIMEOUT, limit_hit="wall", error=f"answered "
                                   f"after {wall:.2f} s, past the {row.timeout:g} s limit")
    if row.cpu_limit and row.cpu is not None and row.cpu > row.cpu_limit:
        return dataclasses.replace(row, status=Status.TIMEOUT, limit_hit="cpu", error=f"answered "
                                   f"after {row.cpu:.2f} s of CPU, past the {row.cpu_limit:g} s "
                                   f"CPU limit")
    return row


def cross_validate(rows: Sequence[Row], answers: Mapping[str, str] | None = None
                   ) -> tuple[list[Row], list[Disagreement]]:
    """Rows with the WRONG verdicts that only comparison reveals, and the disagreements found.

    `answers` (puzzle hash -> solution line, checked) are solutions the puzzle files give: they
    count as verified solutions, so a complete search that finds another one alone is refuted."""
    by_puzzle: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_puzzle[row.hash].append(row)
    checked, found = [], []
    for digest, group in by_puzzle.items():
        given = (answers or {}).get(digest)
        group_rows, group_found = _judge_puzzle(group, () if given is None else (given,))
        checked += group_rows
        found += group_found
    return checked, found


def _judge_puzzle(group: list[Row], given: Sequence[str] = ()
                  ) -> tuple[list[Row], list[Disagreement]]:
    name, digest = group[0].puzzle, group[0].hash
    found = [Disagreement(name, digest, f"{r.backend}: {r.error}", (r.backend,))
             for r in group if r.status is Status.WRONG]
    found_here = {s for r in group if r.verified for s in r.solutions}
    known = found_here | set(given)
    exact = [r for r in group if r.complete and r.answered]
    short = [r for r in exact if r.count < len(known)]
    if short:
        labels = tuple(r.backend for r in short)
        claims = ", ".join(f"{r.backend} {r.count}" for r in short)
        source = " (one of them given in the puzzle file)" if known - found_here else ""
        found.append(Disagreement(name, digest, f"complete searches claim fewer solutions "
                                  f"({claims}) than the {len(known)} verified ones "
                                  f"found{source}", labels))
    counts = {r.count for r in exact} - {r.count for r in short}
    if len(counts) > 1:
        claims = ", ".join(f"{r.backend} {r.count}" for r in exact if r not in short)
        found.append(Disagreement(name, digest, f"complete searches disagree on the count: "
                                  f"{claims}"))
    wrong = {label for d in found for label in d.wrong}
    rows = [_mark_wrong(r) if r.backend in wrong and r.status is not Status.WRONG else r
            for r in group]
    return rows, found


def _mark_wrong(row: Row) -> Row:
    return dataclasses.replace(row, status=Status.WRONG, error=f"contradicted by a verified "
                               f"solution (claimed {row.status.value}, {row.count} solutions)")


@dataclass
class BenchConfig:
    """Everything `sudoku-cp bench` needs."""

    backends: list[str]
    puzzles: list[str]
    out: Path = Path("bench-out")
    limit: int = 1
    timeout: float | None = 10.0
    jobs: int = 1
    resume: bool = False
    seed: int | None = None
    memory_mb: int | None = 4096
    max_puzzles: int | None = None
    executor: str = "local"
    retry: frozenset[Status] = frozenset()  # with resume: finished runs that ended so run again
    command: str | None = None  # as typed, for the summary
    cluster: dict[str, Any] = field(default_factory=dict)  # executor options: scheduler, workers
    repeat: int = 1  # runs of each backend on each puzzle
    measure: str = "cpu"  # what `seconds` holds and the reports rank by: "cpu" or "wall"
    cpu_limit: float | None = None  # CPU seconds per run (None: none)
    pin: bool = False  # each worker on cores of its own (local executor)
    overwrite: bool = True  # without resume, replace the runs in out (False: refuse, as the CLI)


@dataclass
class BenchOutcome:
    """What a bench run produced: every row (old and new), disagreements, skipped input."""

    rows: list[Row]
    disagreements: list[Disagreement]
    problems: list[str]  # unreadable puzzle lines, skipped
    notes: list[str]  # unreadable lines of an earlier results log
    ran: int
    skipped: int
    interrupted: bool = False
    files: list[Path] = field(default_factory=list)
    measurement: dict[str, Any] = field(default_factory=dict)  # loads, calibration, warnings


def bench(config: BenchConfig, on_row: Callable[[Row], None] | None = None,
          on_plan: Callable[[int], None] | None = None,
          executor: Executor | None = None) -> BenchOutcome:
    """Plan, run what is not done yet, cross-validate, write the tables; Ctrl-C keeps results.
    Runs go to `executor`, by default the one `config.executor` names. Raises BenchError."""
    contenders = resolve(config.backends)
    datasets = [load_dataset(p, config.max_puzzles) for p in config.puzzles]
    require_puzzles(datasets)
    tasks = plan(contenders, datasets, limit=config.limit, timeout=config.timeout,
                 memory_mb=config.memory_mb, seed=config.seed, repeat=config.repeat,
                 cpu_limit=config.cpu_limit)
    with hold(config.out):
        log = ResultLog(config.out / RESULTS)
        refuse_to_replace(log.path, config)
        old, notes = _resume(log, config, contenders)
        todo = pending(tasks, old, config.retry)
        if on_plan is not None:
            on_plan(len(todo))
        note = outcome_note(config, contenders)
        executor = executor or make_executor(config.executor, **executor_options(config))
        points: list[calibration.Point] = []
        new, interrupted = _run(todo, executor, log, config, on_row, points)
        note |= measurement(points if new else [], note["load"])  # no run: nothing to warn of
        answers = {k: v for d in datasets for k, v in d.answers.items()}
        checked, disagreements = cross_validate([enforce_time_limit(row)
                                                 for row in _latest(old + new)], answers)
        problems = [msg for d in datasets for msg in d.problems]
        outcome = BenchOutcome(checked, disagreements, problems, notes, len(new),
                               len(tasks) - len(todo), interrupted,
                               measurement={k: note[k] for k in MEASUREMENT if k in note})
        _write_measurement(config.out, outcome.measurement)
        outcome.files = _write_reports(outcome, config.out, note)
    return outcome


MEASUREMENT = ("measure", "repeat", "cpu_limit", "pin", "load", "load_end", "calibration",
               "warnings")  # the settings that measurement.json keeps for `sudoku-cp report`
MEASUREMENT_FILE = "measurement.json"


def executor_options(config: BenchConfig) -> dict[str, Any]:
    """What the executor is built with: jobs, pinning (local only), the cluster's options."""
    pinned = {"pin": True} if config.pin else {}
    return {"jobs": config.jobs, **pinned, **config.cluster}


def measurement(points: Sequence[calibration.Point], load_start: str) -> dict[str, Any]:
    """The load at the end, the calibration and the noise warnings, for the summary."""
    end = os.getloadavg()
    loads = [float(load_start.split()[0]), end[0]]
    from sudokucp.executors.local import usable_cores

    found = calibration.warnings(points, loads, usable_cores()) if points else []
    return {"load_end": " ".join(f"{x:.2f}" for x in end),
            **({"calibration": calibration.summary(points)} if points else {}),
            "warnings": found}


def _write_measurement(out: Path, data: dict[str, Any]) -> None:
    """measurement.json beside the log: what `sudoku-cp report` shows of this bench's noise."""
    from sudokucp.io.files import write_text

    with contextlib.suppress(OSError):  # the tables say the same; the log holds every run
        write_text(out / MEASUREMENT_FILE, json.dumps(data, indent=1) + "\n")


def read_measurement(folder: Path) -> dict[str, Any]:
    """The measurement settings a bench left in `folder`, those of the expected types only ({}
    when none can be read): the file is input like any other."""
    try:
        data = json.loads((folder / MEASUREMENT_FILE).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: data[k] for k, ok in MEASUREMENT_TYPES.items() if k in data and ok(data[k])}


def _calibration(value: Any) -> bool:
    numbers = ("runs", "median_ms", "spread", "cpu_spread", "waiting")
    return isinstance(value, dict) and all(is_amount(value.get(k, 0)) for k in numbers) and all(
        isinstance(value.get(k, []), list) and all(map(is_amount, value.get(k, [])))
        for k in ("cpu_ms", "wall_ms"))


MEASUREMENT_TYPES: dict[str, Callable[[Any], bool]] = {
    "measure": lambda v: v in ("cpu", "wall"),
    "repeat": lambda v: is_real(v) and v >= 1,
    "cpu_limit": lambda v: v is None or (is_real(v) and v > 0),
    "pin": lambda v: isinstance(v, bool),
    "load": lambda v: isinstance(v, str),
    "load_end": lambda v: isinstance(v, str),
    "calibration": _calibration,
    "warnings": lambda v: isinstance(v, list) and is_strings(v),
}


def require_puzzles(datasets: Sequence[Dataset]) -> None:
    """Refuse a puzzle file without one readable puzzle (naming its first problems)."""
    for data in datasets:
        if not data.puzzles:
            shown = [p.removeprefix(f"{data.source}: ") for p in data.problems[:3]]
            more = len(data.problems) - len(shown)
            why = "; ".join(shown + ([f"{more} more unreadable entries"] if more else []))
            raise BenchError(f"{data.source}: no puzzle found" + (f" ({why})" if why else ""))


@contextlib.contextmanager
def hold(out: Path) -> Iterator[None]:
    """Make the output folder (with its parents) and hold its lock while the block runs."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise BenchError(f"cannot use {out} as the output folder: it exists and is not a "
                         f"folder") from None
    except NotADirectoryError:
        raise BenchError(f"cannot create the output folder {out}: "
                         f"{_file_above(out)} is a file, not a folder") from None
    except OSError as err:
        raise BenchError(f"cannot create the output folder {out}: {err.strerror}") from None
    try:
        lock = FolderLock(out)
        lock.acquire()
    except FolderBusy as err:
        raise BenchError(str(err)) from None
    except OSError as err:
        raise BenchError(f"cannot write in the output folder {out}: {err.strerror}") from None
    try:
        yield
    finally:
        lock.release()


def refuse_to_replace(path: Path, config: BenchConfig) -> None:
    """Refuse to replace the runs of an earlier bench at `path`, unless told to resume or
    overwrite; an empty or missing log holds nothing to lose."""
    if config.resume or config.overwrite or not _holds_lines(path):
        return
    raise BenchError(f"{path} already holds the runs of an earlier bench: add --resume to go on "
                     f"with them, or --overwrite to start over")


def _holds_lines(path: Path) -> bool:
    """Whether `path` is a file with something in it (a device such as /dev/full is not read)."""
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:  # one that cannot be read is named when it is opened
        return False


def _file_above(path: Path) -> Path:
    """The nearest ancestor of `path` that exists (a file, when mkdir said 'not a directory')."""
    return next((p for p in path.parents if p.exists()), path)


def _resume(log: ResultLog, config: BenchConfig,
            contenders: Sequence[Contender]) -> tuple[list[Row], list[str]]:
    """With --resume, the rows logged and notes on bad lines, if their settings are these."""
    if not config.resume:
        return [], []
    try:
        old, notes = log.load()
    except OSError as err:
        raise BenchError(f"cannot read {log.path}: {err.strerror}") from None
    check_settings(log, old, {"--limit": config.limit, "--timeout": config.timeout,
                              "--memory": config.memory_mb, "--cpu-limit": config.cpu_limit},
                   {c.label: c.version for c in contenders})
    walls = sum(1 for row in old if row.cpu is None)
    if walls and config.measure == "cpu":
        notes.append(f"{log.path}: {walls} runs logged before CPU time was measured keep their "
                     f"wall time in the tables")
    return [measured(row, config.measure) for row in old], notes


def pending(tasks: Sequence[Task], old: Sequence[Row], retry: frozenset[Status]) -> list[Task]:
    """The tasks not in the log, and those whose logged run ended with a status in `retry`."""
    shown = {r.key: r.status for r in cross_validate(
        [enforce_time_limit(r) for r in _latest(list(old))])[0]} if retry else {}
    done = {r.key for r in old}
    return [t for t in tasks if t.key not in done or shown.get(t.key) in retry]


def _run(todo: Sequence[Task], executor: Executor, log: ResultLog, config: BenchConfig,
         on_row: Callable[[Row], None] | None, points: list[calibration.Point]
         ) -> tuple[list[Row], bool]:
    """The rows of the runs done, and whether Ctrl-C stopped them; the executor is closed."""
    rows: list[Row] = []
    try:
        log.open(append=config.resume)
        for row in execute(calibrated(todo), executor, log, on_row=on_row,
                           measure=config.measure, points=points):
            rows.append(row)
    except KeyboardInterrupt:
        return rows, True
    finally:
        executor.close()
        log.close()
    return rows, False


def _write_reports(outcome: BenchOutcome, out: Path, note: dict[str, Any]) -> list[Path]:
    """The tables; the summary counts the runs made now and names every backend's version."""
    from sudokucp.reporting.report import write_reports

    note["runs"] = (outcome.ran, len(outcome.rows) - outcome.ran)
    for row in outcome.rows:  # backends of earlier runs that this bench does not name
        note["backends"].setdefault(row.backend, row.versions.get("backend") or "?")
    try:
        return write_reports(outcome.rows, outcome.disagreements, out, note,
                             outcome.problems + outcome.notes)
    except OSError as err:
        raise BenchError(f"cannot write {err.filename or out}: {err.strerror}; {RESULTS} holds "
                         f"every run: run the same command with --resume to write the tables "
                         f"again") from None


def _latest(rows: list[Row]) -> list[Row]:
    """One row per key, the last written."""
    return list({row.key: row for row in rows}.values())


def outcome_note(config: BenchConfig, contenders: Sequence[Contender]) -> dict[str, Any]:
    """Run settings for the markdown summary, with the date and the machine at the start."""
    from sudokucp.reporting.report import machine

    backends = {c.label: f"{c.version} ({c.package})" if c.package else c.version
                for c in contenders}
    return {"command": config.command, **machine(), "backends": backends, "runs": None,
            "limit": config.limit, "timeout": config.timeout, "memory_mb": config.memory_mb,
            "jobs": config.jobs, "executor": {"name": config.executor, **config.cluster},
            "seed": shuffle_seed(config.seed, config.repeat),
            "measure": config.measure, "repeat": config.repeat, "cpu_limit": config.cpu_limit,
            "pin": config.pin,
            "retry": sorted(status.value for status in config.retry),
            "puzzles": [str(p) for p in config.puzzles], "max_puzzles": config.max_puzzles}
