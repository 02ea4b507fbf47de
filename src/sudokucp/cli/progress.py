"""Progress on standard error: a one-line bar with rate and ETA on a terminal; elsewhere (a log
file, a pipe, CI) a plain line every tenth of the runs or every minute, whichever comes first.
The library's notices (logged under 'sudokucp') reach the same stream through show_notices."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import IO, Any

LOG_SHARE = 10  # off a terminal: a line per tenth of the runs...
LOG_SECONDS = 60.0  # ... or per minute, whichever comes first


class Progress:
    """Call it once per finished run: a bar redrawn on a terminal, plain lines elsewhere."""

    def __init__(self, total: int, stream: IO[str] | None = None, width: int = 30,
                 clock: Callable[[], float] = time.monotonic) -> None:
        stream = sys.stderr if stream is None else stream  # the one of now, not of the import
        self.total, self.stream, self.width, self.clock = total, stream, width, clock
        self.done, self.start = 0, clock()
        self.bar = total > 0 and stream.isatty()
        self.every = max(1, total // LOG_SHARE)
        self.shown = self.start

    def __call__(self, row: Any = None) -> None:
        self.done += 1
        now = self.clock()
        if self.bar:
            self._draw(now)
        elif self._due(now):
            self.shown = now
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()

    def _draw(self, now: float) -> None:
        """Redraw the bar at most ten times a second, and at the last run."""
        if now - self.shown > 0.1 or self.done == self.total:
            self.shown = now
            self.stream.write("\r" + self.line(now) + ("\n" if self.done == self.total else ""))
            self.stream.flush()

    def _due(self, now: float) -> bool:
        """Off a terminal: a line at every `every` runs, after a minute without one, at the end."""
        return (self.done % self.every == 0 or self.done == self.total
                or now - self.shown >= LOG_SECONDS)

    def line(self, now: float) -> str:
        """The bar, runs done, rate, ETA and elapsed time as of `now` (a monotonic time), in the
        current language."""
        from sudokucp.i18n import _, number

        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate else 0.0
        filled = self.width * min(self.done, self.total) // max(self.total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        counts = _("{done}/{total}  {rate} runs/s  ETA {eta}  elapsed {elapsed}").format(
            done=self.done, total=self.total, rate=number(rate, 1), eta=_clock(eta),
            elapsed=_clock(elapsed))
        return f"[{bar}] {counts}"

    def finish(self) -> None:
        """End the bar's line when the run stopped short of the total."""
        if self.bar and self.done != self.total:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


# --- notices: one-off news from the library (a first compile, backends left out) ----------------

NOTICES = "sudokucp"  # the package's logger: modules log under sudokucp.<module>


class _Notices(logging.Handler):
    """Writes each record as 'sudoku-cp: message' on the standard error of the moment."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(f"sudoku-cp: {record.getMessage()}\n")
            sys.stderr.flush()
        except Exception:  # a closed stream must not stop the command
            self.handleError(record)


def show_notices() -> None:
    """Show the package's notices (log records of INFO and up) on standard error; once."""
    logger = logging.getLogger(NOTICES)
    if not any(isinstance(h, _Notices) for h in logger.handlers):
        logger.addHandler(_Notices(logging.INFO))
        logger.setLevel(logging.INFO)
