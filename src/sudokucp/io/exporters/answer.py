"""What a solver printed, read back: a verdict, the grids of its models, whether the search was
exhausted, and the statistics a known solver prints. Garbage is a DecodeError saying why.

The output is read as a stream (`numbered_lines`: text, or a file read a line at a time): the
readers keep only the verdict, the model lines (capped: no model of a grid holds more) and the
statistics, so a solver's gigabyte of comments costs no memory.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from sudokucp.io.exporters.verdicts import SAT, UNSAT
from sudokucp.puzzle import Grid, Shape, cell_name

ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours (ACE prints them even into a pipe)
QUOTED = 60  # characters of a bad line quoted in an error
MAX_LINE = 1 << 23  # characters of a line read: a model line of a 64x64 CNF holds about 2.1M
COMMENTS = ("c", "%", "*", "d")  # how a line that may be cut starts: a comment or statistics
Output = str | Iterable[str]  # a solver's output: its text, or its lines (an open file)

# The statistics lines of known solvers, comment markers stripped: (pattern, key); the first
# match of a key counts (CryptoMiniSat repeats its lines). `solver_s` is the solver's own time.
STAT_LINES: tuple[tuple[re.Pattern[str], str | None], ...] = tuple(
    (re.compile(p, re.IGNORECASE), k) for p, k in (
        (r"^(conflicts|decisions|propagations|restarts)\s*:\s*([\d.]+)", None),  # CaDiCaL, ...
        (r"^([\d.]+)\s+(conflicts|decisions|propagations)$", None),  # PicoSAT -v
        (r"^total process time since initialization:\s*([\d.]+)", "solver_s"),  # CaDiCaL
        (r"^process-time:.*?([\d.]+)\s+seconds", "solver_s"),  # Kissat
        (r"^Total time \(this thread\)\s*:\s*([\d.]+)", "solver_s"),  # CryptoMiniSat
        (r"^CPU time\s*:\s*([\d.]+)", "solver_s"),  # MiniSat
        (r"^([\d.]+) seconds total run time", "solver_s"),  # PicoSAT -v
        (r"^WRONG DECISIONS\s+(\d+)", "wrong_decisions"),  # ACE
        (r"^CPU\s+([\d.]+)$", "solver_s"),  # ACE
        (r"^mzn-stat: (nodes|failures|propagations|restarts)=([\d.]+)", None),  # MiniZinc
        (r"^mzn-stat: solveTime=([\d.]+)", "solver_s"),  # MiniZinc's solvers
    ))
MARKERS = re.compile(r"^(c |c$|d |%+\s*|\*\s*)")  # comment and statistics prefixes


class DecodeError(ValueError):
    """A solver's output that holds no verdict or model, or a partial or malformed one."""


class WrongModel(DecodeError):
    """A model that contradicts itself or its CNF (a literal and its negation, two digits in a
    cell): the solver's answer is wrong, not unreadable."""


@dataclass
class Answer:
    """A solver's output read back: SAT with grids, UNSAT or UNKNOWN; `complete` when the
    solver says its search was exhausted (UNSAT, or MiniZinc's '==========')."""

    verdict: str
    grids: list[Grid] = field(default_factory=list)
    complete: bool = False
    stats: dict[str, float] = field(default_factory=dict)


class Reading:
    """One pass of a reader over a solver's output: the lines, stripped, each one's statistics
    kept; the verdict said so far; the Answer at the end."""

    def __init__(self, output: Output) -> None:
        self.output, self.stats, self.verdict = output, {}, None

    def lines(self) -> Iterator[tuple[int, str]]:
        """(number, stripped line) of the output, its statistics kept on the way."""
        for number, raw in numbered_lines(self.output):
            line = raw.strip()
            add_stats(self.stats, line)
            yield number, line

    def say(self, word: str, verdicts: Mapping[str, str], number: int, line: str) -> None:
        """Take the verdict `word` names in `verdicts`; an unknown one is a DecodeError."""
        word = " ".join(word.split()).upper()
        if word not in verdicts:
            raise DecodeError(f"line {number}: unknown verdict {quote(line)}")
        self.verdict = verdicts[word]

    def settled(self) -> Answer | None:
        """The answer when the verdict holds no model to read (UNSAT is complete), else None."""
        if self.verdict == SAT:
            return None
        return Answer(self.verdict, [], self.verdict == UNSAT, self.stats)

    def answer(self, grids: list[Grid], complete: bool = False) -> Answer:
        """The SAT answer with its grids."""
        return Answer(SAT, grids, complete, self.stats)


def plain(text: str) -> str:
    """The text without terminal colours."""
    return ANSI.sub("", text) if "\x1b" in text else text


def numbered_lines(output: Output) -> Iterator[tuple[int, str]]:
    """(number, line without colours) of a solver's output, text or a stream read a line at a
    time. A line past MAX_LINE characters is cut there when it is a comment, and a DecodeError
    otherwise: no model line is that long."""
    if isinstance(output, str):
        output = io.StringIO(output)
    readline = getattr(output, "readline", None)
    pieces = iter(lambda: readline(MAX_LINE + 1), "") if readline else iter(output)
    number, cut = 0, False
    for piece in pieces:
        ended = piece.endswith("\n")
        if cut:  # the rest of a long line
            cut = not ended
            continue
        number += 1
        if len(piece) > MAX_LINE and not ended:
            if not piece.lstrip().startswith(COMMENTS):
                raise DecodeError(f"line {number}: longer than {MAX_LINE} characters, which no "
                                  f"model line is")
            cut, piece = True, piece[:MAX_LINE]
        yield number, plain(piece)


def add_stats(stats: dict[str, float], line: str) -> None:
    """The counter or own time a known solver printed on one line, kept if it is the first of
    its key."""
    body = MARKERS.sub("", line.strip(), count=1).strip()
    for pattern, key in STAT_LINES:
        match = pattern.match(body)
        if match:
            name, value = _named(match, key)
            stats.setdefault(name, value)


def solver_stats(output: Output) -> dict[str, float]:
    """The counters and own time a known solver printed (comment lines), first match of each."""
    stats: dict[str, float] = {}
    for _, line in numbered_lines(output):
        add_stats(stats, line)
    return stats


def _named(match: re.Match[str], key: str | None) -> tuple[str, float]:
    if key is not None:
        return key, float(match.group(1))
    first, second = match.groups()
    word, number = (first, second) if first[0].isalpha() else (second, first)
    return word.lower(), float(number)


def quote(line: str) -> str:
    """A bad line as an error quotes it: stripped and cut."""
    text = line.strip()
    return repr(text if len(text) <= QUOTED else text[:QUOTED] + "...")


def grid_of_values(values: list[int], shape: Shape, where: str) -> Grid:
    """A grid from N*N digits as a solver printed them; a wrong count or a value out of 1..N is
    a DecodeError naming `where`."""
    if len(values) != shape.cells:
        raise DecodeError(f"{where}: {len(values)} values, not the {shape.cells} of a {shape} "
                          f"grid (a partial model?)")
    for cell, value in enumerate(values):
        if not 1 <= value <= shape.side:
            raise DecodeError(f"{where}: {cell_name(shape, cell)} is {value}, not a digit "
                              f"1-{shape.side}")
    return tuple(values)
