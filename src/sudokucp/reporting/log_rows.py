"""The rows of a results log read in bulk: a line whose fields all have the plain JSON types and
ranges that Row.from_dict accepts becomes a Row without the field-by-field checks; every other
line goes through Row.from_dict, which names its first wrong field. Never looser than
Row.from_dict: a value it would refuse never takes the quick path."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from itertools import islice
from json.scanner import make_scanner
from pathlib import Path
from typing import Any

from sudokucp.harness.puzzlelog import Stored, expand
from sudokucp.harness.runlog import TornLine, line_note
from sudokucp.result import FIELD_CHECKS, LARGEST, REQUIRED, STATUS_VALUES, Row, RowError, Status

MISSING = type("missing", (), {})  # the type of an absent field's stand-in
NONE = type(None)
TEXT, NUMBER = frozenset({str}), frozenset({int, float})
TYPES: dict[str, frozenset[type]] = {  # field: the types its quick path takes (from FIELD_CHECKS)
    **dict.fromkeys(("key", "dataset", "puzzle", "hash", "backend", "grid", "box", "status"),
                    TEXT),
    **dict.fromkeys(("name", "error", "limit_hit", "rss_scope"), TEXT | {NONE}),
    "verified": frozenset({bool, NONE}), "complete": frozenset({bool}),
    **dict.fromkeys(("seconds", "wall"), NUMBER),
    **dict.fromkeys(("cpu", "rss_mb", "timeout", "cpu_limit", "rss_start_mb"), NUMBER | {NONE}),
    **dict.fromkeys(("repeat", "form", "count", "limit"), frozenset({int})),
    "memory_mb": frozenset({int, NONE}), "measure": TEXT,
    **dict.fromkeys(("versions", "options", "stats"), frozenset({dict})),
    "solutions": frozenset({list}),
}
FIELDS = tuple(TYPES)
ABSENT = (MISSING(),) * len(FIELDS)  # what data.get gives for each field that is absent
AMOUNTS = ("seconds", "wall", "cpu", "rss_mb", "timeout", "cpu_limit", "repeat", "form", "count",
           "limit", "memory_mb", "rss_start_mb")  # numbers from 0 to LARGEST
WORDS = {"status": STATUS_VALUES, "limit_hit": {None, "cpu", "wall"},
         "measure": {"cpu", "wall"}, "rss_scope": {None, "run", "worker"}}  # closed sets


CHUNK = 10_000  # lines parsed at a time (their JSON objects are dropped once rows)


def read_lines(path: Path, lines: Iterable[bytes], stored: Stored | None = None
               ) -> tuple[list[Row], list[str]]:
    """The rows of a results log's lines and a note per unreadable line (naming `path` and the
    line), as sudokucp.harness.runlog.read_row reads each, the grids and solutions they name
    taken from `stored`; the lines taken CHUNK at a time."""
    rows: list[Row] = []
    notes: list[str] = []
    shared: dict[Any, Any] = {}
    stored = stored or Stored()
    numbered = enumerate(lines, 1)
    while chunk := list(islice(numbered, CHUNK)):
        found: list[tuple[int, Any]] = []
        for number, line in chunk:
            if not line.strip():
                continue
            try:
                found.append((number, expand(decoded(line), stored)))
            except RowError as err:
                notes.append(line_note(path, number, err))
            except (ValueError, RecursionError):
                notes.append(line_note(path, number, TornLine("is not a result record")))
        quick = quick_rows([data for _, data in found], shared)
        for (number, data), row in zip(found, quick):
            try:
                rows.append(row if row is not None else Row.from_dict(data))
            except RowError as err:
                notes.append(line_note(path, number, err))
    return rows, notes


SCAN = make_scanner(json.JSONDecoder())  # json.loads' own scanner, called without its wrappers
BLANK = " \t\n\r"  # the whitespace json.loads allows after a value


def decoded(line: bytes) -> Any:
    """json.loads(line), its C scanner called directly on a UTF-8 line that opens an object
    (json.loads itself, and its error, for any other line or any failure)."""
    if line[:1] == b"{" and line[1:2] != b"\0":  # json.loads would read it as UTF-8
        try:
            text = line.decode("utf-8", "surrogatepass")
            data, end = SCAN(text, 0)
            if end == len(text) or not text[end:].strip(BLANK):
                return data
        except (StopIteration, ValueError, RecursionError):
            pass
    return json.loads(line)


def quick_rows(objects: Sequence[Any], shared: dict[Any, Any] | None = None
               ) -> list[Row | None]:
    """A Row for each object that passes the quick checks, None for the others (and for every
    one when a value somewhere fails a column's check); `shared` holds the repeated texts."""
    found = [(data, _plain(data)) for data in objects]
    plain = [(data, values) for data, values in found if values is not None]
    if not plain or not _columns_pass([values for _, values in plain]):
        return [None] * len(objects)
    shared = {} if shared is None else shared
    made = {id(data): _row(data, shared) for data, _ in plain}
    return [made.get(id(data)) for data in objects]


KNOWN: set[tuple[type, ...]] = set()  # the type signatures seen to pass, memoised
ABSENT_VALUE = ABSENT[0]  # data.get's stand-in for an absent field (one object)
CLOSED = [(FIELDS.index(name), frozenset(words) | {ABSENT_VALUE})
          for name, words in WORDS.items()]  # an absent field takes its default, a known word
PLACES = {name: FIELDS.index(name) for name in FIELDS}
REQUIRED_NAMES = frozenset(REQUIRED)


def _plain(data: Any) -> tuple[Any, ...] | None:
    """The values of an object's fields (ABSENT_VALUE where absent) when they have only known
    plain types and a known word in each closed field, else None (ranges are checked by
    column, in _columns_pass)."""
    if type(data) is not dict or not data.keys() >= REQUIRED_NAMES:
        return None
    values = tuple(map(data.get, FIELDS, ABSENT))
    signature = tuple(map(type, values))
    if signature not in KNOWN:
        if not all(kind in TYPES[name] or kind is MISSING for name, kind in
                   zip(FIELDS, signature)):
            return None
        KNOWN.add(signature)
    for place, words in CLOSED:
        if values[place] not in words:
            return None
    return values


def _columns_pass(plain: list[tuple[Any, ...]]) -> bool:
    """Whether every number is within its field's range and every nested value has its type,
    judged a column at a time (`plain`: each object's values, as _plain gives them)."""
    columns = list(zip(*plain))
    for name in AMOUNTS:
        column = columns[PLACES[name]]
        values = [v for v in column if v is not None and v is not ABSENT_VALUE]
        if not _within(values, 0):
            return False
    nested = [columns[PLACES[name]] for name in ("stats", "versions", "solutions")]
    stats, versions, solutions = ([v for d in column if d is not ABSENT_VALUE for v in
                                   (d.values() if type(d) is dict else d)] for column in nested)
    if not set(map(type, stats)) <= NUMBER or not _within(stats, -LARGEST):
        return False
    return set(map(type, versions)) <= {str, NONE} and set(map(type, solutions)) <= {str}


def _within(values: list[Any], low: float) -> bool:
    """Whether the numbers (ints and floats) lie in low..LARGEST, none of them NaN."""
    if not values:
        return True
    try:
        total = sum(values)  # NaN when one is NaN (or when infinities cancel: past LARGEST)
    except OverflowError:  # an integer past any float: past LARGEST too
        return False
    if total != total:
        return False
    return min(values) >= low and max(values) <= LARGEST  # exact, ints and floats alike


SHARED = ("dataset", "puzzle", "hash", "backend", "name", "grid", "box")  # texts rows repeat
NAMES = frozenset(FIELD_CHECKS)
STATUSES = {status.value: status for status in Status}
COPIED = ("options", "stats", "versions")  # dicts a row holds a copy of


def _defaults() -> dict[str, Any]:
    """Each field of Row with its default (a fresh dict where the default is one)."""
    found = {}
    for f in dataclasses.fields(Row):
        if f.default is not dataclasses.MISSING:
            found[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            found[f.name] = f.default_factory()
    return found


DEFAULTS = _defaults()


def _row(data: dict[str, Any], shared: dict[Any, Any]) -> Row:
    """The Row of an object that passed the quick checks, equal to Row.from_dict's (its fields
    set at once: the generated __init__ costs more than the rest); the texts and solutions that
    many rows hold, held once (`shared`)."""
    values = dict(DEFAULTS)
    values.update(data if data.keys() <= NAMES else
                  {name: value for name, value in data.items() if name in NAMES})
    for name in SHARED:
        values[name] = shared.setdefault(values[name], values[name])
    values["status"] = STATUSES[values["status"]]
    solutions = tuple(values["solutions"])
    values["solutions"] = shared.setdefault(solutions, solutions)
    for name in COPIED:
        values[name] = dict(values[name])
    row = Row.__new__(Row)
    object.__setattr__(row, "__dict__", values)
    return row
