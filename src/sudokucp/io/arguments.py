"""The values the command line and the API both take: whole numbers, counts, seconds, memory
caps, repeats and isomorphs, choices. Each parser reads a typed value or its text and returns it
checked, or raises ArgumentError with the reason; the CLI's argument types (cli/common.py) and
sudokucp.api's `compare` call the same ones, so both refuse the same values with the same words.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sudokucp.errors import OptionError

MAX_SECONDS = 365 * 24 * 3600  # a limit past a year is refused: a wait that long overflows
MAX_MEMORY_MB = 2**40  # an exbibyte: past it no address-space cap can be set
MAX_REPEAT = 1000  # runs of one backend on one puzzle: a median needs far fewer, and the
MAX_ISOMORPHS = 1000  # forms of a puzzle    # plan of a bench (each of its runs) is made first


class ArgumentError(OptionError):
    """A value an option does not take; the message says why."""


def _text(value: Any) -> str:
    """A value as a message quotes it: text as typed, anything else as Python writes it."""
    return value if isinstance(value, str) else repr(value)


def whole(value: Any) -> int:
    """A whole number (a seed): an int, or its text; never a bool or a float."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            pass
    raise ArgumentError(f"{_text(value)!r} is not a whole number" if isinstance(value, str)
                        else f"{_text(value)} is not a whole number")


def whole_at_least(value: Any, least: int) -> int:
    """A whole number of at least `least`."""
    number = whole(value)
    if number < least:
        raise ArgumentError(f"{_text(value)} must be at least {least}")
    return number


def count(value: Any) -> int:
    """A whole number of at least 1 (jobs, puzzles, tries)."""
    return whole_at_least(value, 1)


def size(value: Any) -> int:
    """A whole number of at least 0 (a cap where 0 means none)."""
    return whole_at_least(value, 0)


def number(value: Any) -> float:
    """A finite number: an int, a float or its text; never a bool, nan or inf."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ArgumentError(f"{_text(value)} is not a number")
    try:
        found = float(value)
    except (ValueError, OverflowError):
        raise ArgumentError(f"{_text(value)!r} is not a number") from None
    if not math.isfinite(found):
        raise ArgumentError(f"{_text(value)!r} is not a finite number")
    return found


def positive(value: Any) -> float:
    """A finite number above 0."""
    found = number(value)
    if found <= 0:
        raise ArgumentError(f"{_text(value)} must be positive")
    return found


def at_most(value: float, cap: float, why: str) -> float:
    """`value`, or ArgumentError saying `why` when it is over `cap`."""
    if value > cap:
        raise ArgumentError(f"{why} (at most {cap})")
    return value


def seconds(value: Any) -> float:
    """A time limit: a finite number of seconds above 0 and at most a year."""
    return at_most(positive(value), MAX_SECONDS, f"{_text(value)} seconds is over a year")


def memory(value: Any) -> int:
    """A memory cap in MB: a whole number from 0 (none) to MAX_MEMORY_MB."""
    return int(at_most(size(value), MAX_MEMORY_MB,
                       f"{_text(value)} MB is more than any address space"))


def repeat(value: Any) -> int:
    """Runs of each backend on each puzzle: 1 to MAX_REPEAT."""
    return int(at_most(count(value), MAX_REPEAT,
                       f"{_text(value)} repeats plan more runs than a bench keeps in memory"))


def isomorphs(value: Any) -> int:
    """Random forms of each puzzle: 0 (none) to MAX_ISOMORPHS."""
    return int(at_most(size(value), MAX_ISOMORPHS,
                       f"{_text(value)} isomorphs plan more runs than a bench keeps in memory"))


def choice(value: Any, choices: Sequence[Any]) -> Any:
    """One of `choices`."""
    if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
        raise ArgumentError(f"{_text(value)!r} is not one of {', '.join(map(str, choices))}"
                            if isinstance(value, str) else
                            f"{_text(value)} is not one of {', '.join(map(str, choices))}")
    return value


LIMITS = (0, 1, 2)  # solutions sought: all, the first, two (uniqueness)
MEASURES = ("cpu", "wall")
