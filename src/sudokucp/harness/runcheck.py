"""What a bench makes of a finished run: its row, every claimed solution judged; answers past a
time limit counted as time-outs; and cross-validation, where the backends vouch for each other."""

from __future__ import annotations

import dataclasses
import platform
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sudokucp.check import explain, is_solution
from sudokucp.executors import Outcome
from sudokucp.io.formats import to_line
from sudokucp.isomorph import Transform, apply
from sudokucp.puzzle import Grid, Puzzle
from sudokucp.result import Result, Row, Status


@dataclass(frozen=True)
class Disagreement:
    """A puzzle on which backends contradict each other or the judge."""

    puzzle: str
    hash: str
    message: str
    wrong: tuple[str, ...] = ()


def verify(outcome: Outcome, measure: str = "cpu") -> Row:
    """The row of a finished run, its `seconds` the `measure` ("cpu" or "wall"); a claimed
    solution the judge refuses makes it WRONG."""
    task, result = outcome.task, outcome.result
    puzzle, solutions = as_given(task.puzzle, result.solutions, task.meta.get("back"))
    refused = refusal(puzzle, solutions)
    status, error = result.status, result.error
    if refused:
        status, error = Status.WRONG, refused
    shape = puzzle.shape
    row = Row(
        key=task.key, backend=task.spec, name=task.meta.get("name"),
        options=task.meta.get("options", {}), dataset=task.meta.get("dataset", ""),
        puzzle=puzzle.name, hash=puzzle.digest, box=f"{shape.box_rows}x{shape.box_cols}",
        grid=task.meta.get("grid") or puzzle.to_line(), status=status,
        verified=(refused is None) if solutions else None, seconds=result.seconds,
        cpu=result.cpu, wall=result.seconds, rss_mb=outcome.rss_mb,
        repeat=task.meta.get("repeat", 0), form=task.meta.get("form", 0), count=result.count,
        complete=result.complete, solutions=tuple(to_line(shape, s) for s in solutions),
        stats=dict(result.stats),
        error=error, limit=task.limit, timeout=task.limits.time_limit,
        memory_mb=task.limits.memory_mb, cpu_limit=task.limits.cpu_limit,
        limit_hit=outcome.limit_hit, measure="wall",
        rss_scope=None if outcome.rss_mb is None else outcome.rss_scope,
        rss_start_mb=outcome.rss_start_mb,
        versions={"backend": task.meta.get("version"), "python": platform.python_version()})
    return measured(row, measure)


def refusal(puzzle: Puzzle, solutions: Iterable[Grid]) -> str | None:
    """Why the judge refuses the first of `solutions` that does not solve `puzzle`
    ('invalid solution: ...'), or None when it refuses none."""
    bad = next((s for s in solutions if not is_solution(puzzle, s)), None)
    return None if bad is None else "invalid solution: " + "; ".join(explain(puzzle, bad)[:3])


def judged(puzzle: Puzzle, result: Result, refused: Sequence[Grid] = ()) -> Result:
    """`result` with every claimed solution judged, as bench judges them: one the judge refuses
    (among its solutions, or in `refused`: streamed ones a caller kept from showing) makes it
    WRONG with the reason as its error; only the accepted solutions stay, the count is the
    claimed one."""
    why = refusal(puzzle, [*refused, *result.solutions])
    if why is None:
        return result
    good = tuple(s for s in result.solutions if is_solution(puzzle, s))
    return dataclasses.replace(result, status=Status.WRONG, error=why, solutions=good,
                               found=None if result.count == len(good) else result.count)


def as_given(searched: Puzzle, solutions: Sequence[Grid], back: Mapping[str, Any] | None
             ) -> tuple[Puzzle, list[Grid]]:
    """The puzzle as given and the solutions mapped back onto it, when an isomorph was searched
    (`back`: the inverse transform, sudokucp.isomorph.Transform.to_dict)."""
    if back is None:
        return searched, list(solutions)
    undo = Transform.from_dict(searched.shape, back)
    original = Puzzle(searched.shape, apply(undo, searched.cells), searched.name)
    return original, [apply(undo, s) for s in solutions]


def measured(row: Row, measure: str) -> Row:
    """The row with `seconds` taken from its `measure` (a row without CPU time keeps wall)."""
    if row.measure == measure or row.cpu is None:
        return row
    return dataclasses.replace(row, seconds=row.cpu if measure == "cpu" else row.wall,
                               measure=measure)


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


def cross_validate(rows: Sequence[Row], answers: Mapping[str, str | Iterable[str]] | None = None
                   ) -> tuple[list[Row], list[Disagreement]]:
    """Rows with the WRONG verdicts that only comparison reveals, and the disagreements found.

    `answers` (puzzle hash -> solution line, or lines, checked) are solutions known elsewhere (a
    puzzle file, another results folder): they count as verified solutions, so a complete
    search that finds another one alone, or none, is refuted."""
    by_puzzle: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_puzzle[row.hash].append(row)
    checked, found = [], []
    for digest, group in by_puzzle.items():
        given = (answers or {}).get(digest, ())
        group_rows, group_found = _judge_puzzle(group, (given,) if isinstance(given, str)
                                                else tuple(given))
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


def latest(rows: Sequence[Row]) -> list[Row]:
    """One row per key, the last written."""
    return list({row.key: row for row in rows}.values())
