"""The grids and solutions of a results folder, each written once, to puzzles.jsonl
beside results.jsonl, whose rows name them (a puzzle by its hash, a solution by its digest): a
64x64 grid is 4,096 cells, too many to repeat on every row.

Two kinds of record, a line each, appended before the first row that needs them:
    {"hash": H, "grid": G}          the grid of the puzzle whose hash is H
    {"ref": R, "solution": S}       the solution line S, whose digest is R
A row written so carries `refs` (its solutions' digests, in order) instead of `solutions`, and no
`grid` unless its text differs from the one stored for its hash. A row without `refs` (a log from
before puzzles.jsonl) carries its grid and solutions itself and is read as it always was.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudokucp.result import Row, RowError, is_strings

PUZZLES = "puzzles.jsonl"


def digest(line: str) -> str:
    """A solution line's reference: 16 hex digits of its BLAKE2b hash."""
    return hashlib.blake2b(line.encode(), digest_size=8).hexdigest()


@dataclass
class Stored:
    """What puzzles.jsonl holds: each puzzle's grid by hash, each solution line by digest."""

    grids: dict[str, str] = field(default_factory=dict)
    solutions: dict[str, str] = field(default_factory=dict)

    def add(self, record: Any) -> bool:
        """Take one decoded line; False when it is no record of either kind."""
        if not isinstance(record, dict):
            return False
        if _texts(record, "hash", "grid"):
            self.grids[record["hash"]] = record["grid"]
        elif _texts(record, "ref", "solution") and digest(record["solution"]) == record["ref"]:
            self.solutions[record["ref"]] = record["solution"]
        else:
            return False
        return True

    def compact(self, row: Row) -> tuple[list[dict[str, str]], dict[str, Any]]:
        """The records `row` needs that are not stored yet, and its object for results.jsonl;
        the records are stored here once written (`keep`)."""
        data = row.to_dict()
        grid = data.pop("grid")
        records: list[dict[str, str]] = []
        known = self.grids.get(row.hash)
        if known is None:
            records.append({"hash": row.hash, "grid": grid})
        elif known != grid:  # another text of the same puzzle: the row keeps its own
            data["grid"] = grid
        refs, new = [], {}
        for line in data.pop("solutions"):
            ref = digest(line)
            held = self.solutions.get(ref, new.get(ref))
            if held is None:
                new[ref] = line
                records.append({"ref": ref, "solution": line})
            elif held != line:  # two lines of one digest: this row keeps its own
                data["solutions"] = list(row.solutions)
            refs.append(ref)
        data["refs"] = refs
        return records, data

    def keep(self, records: Iterable[Mapping[str, str]]) -> None:
        """Store records that were written."""
        for record in records:
            self.add(dict(record))


def _texts(record: dict[str, Any], *names: str) -> bool:
    return record.keys() == set(names) and all(isinstance(record[n], str) for n in names)


def expand(data: Any, stored: Stored) -> Any:
    """A decoded row line as a row holds it: its grid and solutions taken from `stored` when it
    names them (`refs`); any other value left as it is. RowError when what it names is not
    stored."""
    if type(data) is not dict or "refs" not in data:
        return data
    refs = data.pop("refs")
    if not is_strings(refs):
        raise RowError("field 'refs' is not a list of strings")
    if "grid" not in data and isinstance(data.get("hash"), str):
        grid = stored.grids.get(data["hash"])
        if grid is None:
            raise RowError(f"its puzzle {data['hash']} is not in {PUZZLES}")
        data["grid"] = grid
    if "solutions" not in data:
        missing = [ref for ref in refs if ref not in stored.solutions]
        if missing:
            raise RowError(f"its solution {missing[0]} is not in {PUZZLES}")
        data["solutions"] = [stored.solutions[ref] for ref in refs]
    return data


def read_stored(path: Path, lines: Iterable[bytes]) -> tuple[Stored, list[str], int | None]:
    """The records of puzzles.jsonl's lines, a note per line that is none, and the offset of
    its last line when that one is cut short (not JSON), else None."""
    stored, notes, offset, torn = Stored(), [], 0, None
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                record = json.loads(line)
                torn = None
            except (ValueError, RecursionError):
                record, torn = None, offset
            if not stored.add(record):
                notes.append(f"{path}: line {number} is not a puzzle record; skipped")
        offset += len(line)
    return stored, notes, torn
