"""The rater: which techniques a puzzle needs, how many guesses the hybrid makes, and its class.

Classes follow QQWing's getDifficulty, which looks only at the counts of what its solver used:
expert when it had to guess; intermediate when it used a box-line reduction, a pointing pair or
triple, a hidden pair or a naked pair; easy when it used a hidden single; simple when naked
singles alone did it. Our techniques map onto QQWing's as follows:

    naked_single                                   -> simple        (QQWing: single)
    hidden_single                                  -> easy          (QQWing: hidden single)
    pointing, claiming, naked_pair, hidden_pair    -> intermediate  (pointing, box-line, pairs)
    naked/hidden triple and quad, x_wing, swordfish -> expert       (QQWing has none: it guesses)
    logic stuck                                    -> expert        (QQWing guesses)

QQWing's solver knows only the first six techniques, so the rater first runs those (QQWING,
easiest first, as QQWing tries them); only when they get stuck does it run every technique, whose
counts are then the ones reported. Because every technique only removes candidates, a puzzle the
six cannot finish needs one of the others (or a guess) on any path: the class is expert exactly
when QQWing would have guessed, whatever order our engine tries techniques in. The hybrid's
guesses are counted with the same six techniques at its root, branching by Knuth's rule (the
hybrid's `smallest`, kept so that the counts stay comparable): an expert puzzle always makes it
guess, as QQWing would, and a hybrid whose root reaches the logic engine's fixpoint guesses on no
other. QQWing rates 9x9 only; the rules apply to any shape. A grid with no solution is rated
"unsolvable" and one with several "not unique" (the hybrid counts up to two when logic neither
finishes nor fails): neither is a puzzle, so neither gets a difficulty.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from sudokucp.engine.techniques import TECHNIQUES, apply_logic
from sudokucp.puzzle import Puzzle

CLASSES = ("simple", "easy", "intermediate", "expert")
VERDICT_OF = {0: "unsolvable", 2: "not unique"}  # solutions (up to 2) -> class: not a puzzle
VERDICTS = tuple(VERDICT_OF.values())
QQWING = ("naked_single", "hidden_single", "pointing", "claiming", "naked_pair", "hidden_pair")
CLASS_OF: dict[str, str] = {
    "naked_single": "simple",
    "hidden_single": "easy",
    "pointing": "intermediate",
    "claiming": "intermediate",
    "naked_pair": "intermediate",
    "hidden_pair": "intermediate",
}  # every other technique: expert
COLUMNS = ("puzzle", "givens", "logic_solves", "hardest", "guesses", "class", *TECHNIQUES)


@dataclass(frozen=True)
class Rating:
    """What the rater found for one puzzle."""

    name: str
    givens: int
    solved: bool  # logic alone (every technique) fills the grid
    hardest: str | None
    counts: Mapping[str, int] = field(default_factory=dict)
    guesses: int | None = None  # the hybrid's, None when the hybrid is not available
    klass: str = "expert"  # or a verdict: unsolvable, not unique
    solutions: int = 1  # counted up to 2

    def row(self) -> dict[str, object]:
        """One row for CSV or a table, a column per technique."""
        return {"puzzle": self.name, "givens": self.givens,
                "logic_solves": "yes" if self.solved else "no", "hardest": self.hardest or "-",
                "guesses": "-" if self.guesses is None else self.guesses, "class": self.klass,
                **{name: self.counts.get(name, 0) for name in TECHNIQUES}}


def classify(counts: Mapping[str, int], solved: bool) -> str:
    """QQWing's class from the techniques used (counts > 0) and whether logic finished."""
    if not solved:
        return "expert"
    used = [CLASS_OF.get(name, "expert") for name, k in counts.items() if k]
    return max(used, key=CLASSES.index, default="simple")


def hybrid_guesses(puzzle: Puzzle) -> int | None:
    """Guesses of the hybrid solving `puzzle` with QQWing's techniques at its root."""
    from sudokucp.backends import for_role

    try:
        backend = for_role("rating", techniques=",".join(QQWING), branch="smallest")
    except Exception:  # not written or not installed: the column stays empty
        return None
    result = backend.solve(puzzle, limit=1)
    if result.error is not None:
        return None
    return int(result.stats.get("guesses", 0))


def rate(puzzle: Puzzle, *, guesses: bool = True) -> Rating:
    """Rate one puzzle: QQWing's techniques first, every technique when they get stuck."""
    outcome = apply_logic(puzzle, list(QQWING))
    if not outcome.solved and not outcome.contradiction:
        outcome = apply_logic(puzzle, list(TECHNIQUES))
    counts = {name: outcome.counts.get(name, 0) for name in TECHNIQUES}
    found = 0 if outcome.contradiction else 1 if outcome.solved else count_solutions(puzzle)
    klass = VERDICT_OF.get(found) or classify(counts, outcome.solved)
    return Rating(puzzle.name, puzzle.givens, outcome.solved, outcome.hardest, counts,
                  hybrid_guesses(puzzle) if guesses and found == 1 else None, klass, found)


def count_solutions(puzzle: Puzzle) -> int:
    """The solutions of `puzzle` counted up to two by a complete search (the hybrid's)."""
    from sudokucp.backends import for_role

    result = for_role("rating").solve(puzzle, limit=2)
    if result.error is not None:
        raise RuntimeError(f"cannot count the solutions of {puzzle.name or 'the grid'}: "
                           f"{result.error}")
    return min(result.count, 2)


def to_csv(ratings: Iterable[Rating]) -> str:
    """CSV text with a header row."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for r in ratings:
        writer.writerow(r.row())
    return out.getvalue()


def to_table(ratings: Iterable[Rating]) -> str:
    """An aligned text table; technique columns appear only when some puzzle used them."""
    rows = [r.row() for r in ratings]
    used = [name for name in TECHNIQUES if any(row[name] for row in rows)]
    columns = [c for c in COLUMNS if c not in TECHNIQUES] + used
    cells = [columns] + [[str(row[c]) for c in columns] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(line, widths)).rstrip()
                     for line in cells)


def csv_lines(ratings: Iterable[Rating]) -> Iterator[str]:
    """CSV as it streams: the header, then a line per rating as it comes (no newline)."""
    yield ",".join(COLUMNS)
    for r in ratings:
        out = io.StringIO()
        csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="").writerow(r.row())
        yield out.getvalue()


STREAM_WIDTHS = {"givens": 6, "logic_solves": 12, "hardest": 14, "guesses": 7, "class": 12}


def table_lines(ratings: Iterable[Rating]) -> Iterator[str]:
    """An aligned table as it streams: columns as wide as the first row's (the puzzle name's)
    and the usual values, techniques used as one last column 'name=count ...'."""
    widths: list[int] = []
    for r in ratings:
        row = r.row()
        if not widths:
            widths = [max(len("puzzle"), len(str(row["puzzle"])) + 2),
                      *(STREAM_WIDTHS[c] for c in COLUMNS[1:6])]
            yield _aligned([*COLUMNS[:6], "techniques"], widths)
        used = " ".join(f"{name}={row[name]}" for name in TECHNIQUES if row[name])
        yield _aligned([*(str(row[c]) for c in COLUMNS[:6]), used or "-"], widths)


def _aligned(values: list[str], widths: list[int]) -> str:
    """Values padded to their widths, two spaces apart; the last one as it is."""
    return "  ".join([*(v.ljust(w) for v, w in zip(values, widths)), values[-1]]).rstrip()


def summarize(ratings: Iterable[Rating]) -> dict[str, int]:
    """How many puzzles fall in each class (and verdict, when some do)."""
    tally = dict.fromkeys(CLASSES, 0)
    for r in ratings:
        tally[r.klass] = tally.get(r.klass, 0) + 1
    return tally
