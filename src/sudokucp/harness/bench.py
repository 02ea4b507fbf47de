"""The comparison harness: plan (backends x puzzles x options) -> isolated runs -> verified rows.

Where the runs execute is an Executor's business (sudokucp.executors, "local" by default); the
plan (harness/runplan.py), the verification and cross-validation (harness/runcheck.py), the
append-only results log (harness/runlog.py) and the noise measurement (harness/measurement.py)
do not depend on it. This module runs a bench in its folder; the tables are written above it
(sudokucp.reporting.bench_report), through the `report` hook of `bench`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudokucp.executors import Executor, Task, make_executor
from sudokucp.harness.measurement import (
    kept,
    measurement,
    read_measurement,
    write_measurement,
)
from sudokucp.harness.runcheck import (
    Disagreement,
    cross_validate,
    enforce_time_limit,
    latest,
    measured,
    verify,
)
from sudokucp.harness.runlog import RESULTS, BenchError, ResultLog, check_settings
from sudokucp.harness.runplan import (
    Contender,
    Dataset,
    calibrated,
    key_seed,
    load_dataset,
    plan,
    resolve,
    shuffle_seed,
)
from sudokucp.io.files import FolderBusy, FolderLock
from sudokucp.machine import calibration
from sudokucp.result import Row, Status

__all__ = ["BenchConfig", "BenchOutcome", "bench", "execute", "hold", "pending"]


@dataclass(kw_only=True)
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
    isomorphs: int = 0  # random isomorphs of each puzzle also run (drawn with `seed`)
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
    files: list[Path] = field(default_factory=list)  # what the `report` hook wrote
    measurement: dict[str, Any] = field(default_factory=dict)  # loads, calibration, warnings
    settings: dict[str, Any] = field(default_factory=dict)  # the run's settings, for a summary


Report = Callable[[BenchOutcome, Path], list[Path]]  # writes the tables of an outcome in a folder


def bench(config: BenchConfig, on_row: Callable[[Row], None] | None = None,
          on_plan: Callable[[int], None] | None = None, executor: Executor | None = None, *,
          report: Report | None = None) -> BenchOutcome:
    """Plan, run what is not done yet, cross-validate, then `report` while the folder is held;
    Ctrl-C keeps results. Runs go to `executor`, by default the one `config.executor` names.
    Raises BenchError."""
    contenders = resolve(config.backends)
    datasets = [load_dataset(p, config.max_puzzles) for p in config.puzzles]
    require_puzzles(datasets)
    tasks = plan(contenders, datasets, limit=config.limit, timeout=config.timeout,
                 memory_mb=config.memory_mb, seed=config.seed, repeat=config.repeat,
                 cpu_limit=config.cpu_limit, isomorphs=config.isomorphs)
    with hold(config.out):
        log = ResultLog(config.out / RESULTS)
        refuse_to_replace(log.path, config)
        old, notes = _resume(log, config, contenders)
        todo = pending(tasks, old, config.retry)
        if on_plan is not None:
            on_plan(len(todo))
        settings = outcome_note(config, contenders)
        executor = executor or make_executor(config.executor, **executor_options(config))
        points: list[calibration.Point] = []
        new, interrupted = _run(todo, executor, log, config, on_row, points)
        settings |= measurement(points if new else [], settings["load"])  # no run: no warning
        answers = {k: v for d in datasets for k, v in d.answers.items()}
        checked, disagreements = cross_validate([enforce_time_limit(row)
                                                 for row in latest(old + new)], answers)
        problems = [msg for d in datasets for msg in d.problems]
        outcome = BenchOutcome(checked, disagreements, problems, notes, len(new),
                               len(tasks) - len(todo), interrupted,
                               measurement=kept(settings), settings=settings)
        write_measurement(config.out, outcome.measurement)
        if report is not None:
            outcome.files = report(outcome, config.out)
    return outcome


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


def executor_options(config: BenchConfig) -> dict[str, Any]:
    """What the executor is built with: jobs, pinning (local only), the cluster's options."""
    pinned = {"pin": True} if config.pin else {}
    return {"jobs": config.jobs, **pinned, **config.cluster}


def outcome_note(config: BenchConfig, contenders: Sequence[Contender]) -> dict[str, Any]:
    """Run settings for the markdown summary, with the date and the machine at the start."""
    backends = {c.label: f"{c.version} ({c.package})" if c.package else c.version
                for c in contenders}
    return {"command": config.command, **calibration.machine(), "backends": backends,
            "runs": None, "limit": config.limit, "timeout": config.timeout,
            "memory_mb": config.memory_mb, "jobs": config.jobs,
            "executor": {"name": config.executor, **config.cluster},
            "seed": shuffle_seed(config.seed, config.repeat * (config.isomorphs + 1)),
            "measure": config.measure, "repeat": config.repeat, "isomorphs": config.isomorphs,
            "cpu_limit": config.cpu_limit,
            "pin": config.pin,
            "retry": sorted(status.value for status in config.retry),
            "puzzles": [str(p) for p in config.puzzles], "max_puzzles": config.max_puzzles}


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
    _same_seed(log, old, shuffle_seed(config.seed, config.repeat * (config.isomorphs + 1)),
               read_measurement(config.out))
    walls = sum(1 for row in old if row.cpu is None)
    if walls and config.measure == "cpu":
        notes.append(f"{log.path}: {walls} runs logged before CPU time was measured keep their "
                     f"wall time in the tables")
    return [measured(row, config.measure) for row in old], notes


def _same_seed(log: ResultLog, old: Sequence[Row], seed: int | None,
               recorded: Mapping[str, Any]) -> None:
    """Refuse to resume with another seed than the logged isomorphs were drawn with (two sets
    of forms would stand side by side as one), or than the runs were shuffled with
    (measurement.json's `seed`, when a bench of the folder ended)."""
    drawn = sorted({s for row in old if (s := key_seed(row.key)) is not None})
    if drawn and drawn != [seed or 0]:
        raise BenchError(f"{log.path}: --resume with --seed {seed or 0}, but the isomorphs there "
                         f"were drawn with --seed {', '.join(map(str, drawn))}: use that seed, "
                         f"leave out --resume to start over, or choose another --out")
    if "seed" in recorded and recorded["seed"] != seed:
        made = "in order (no --seed)" if recorded["seed"] is None else (
            f"in the order of --seed {recorded['seed']}")
        given = "no --seed" if seed is None else f"--seed {seed}"
        raise BenchError(f"{log.path}: --resume with {given}, but the runs there were made "
                         f"{made}: use the same, leave out --resume to start over, or choose "
                         f"another --out")


def pending(tasks: Sequence[Task], old: Sequence[Row], retry: frozenset[Status]) -> list[Task]:
    """The tasks not in the log, and those whose logged run ended with a status in `retry`."""
    shown = {r.key: r.status for r in cross_validate(
        [enforce_time_limit(r) for r in latest(old)])[0]} if retry else {}
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
