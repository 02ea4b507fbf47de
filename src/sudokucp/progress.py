"""A one-line progress bar with rate and ETA, drawn on a terminal only."""

from __future__ import annotations

import sys
import time
from typing import IO, Any


class Progress:
    """Call it once per finished run; silent when the stream is not a terminal."""

    def __init__(self, total: int, stream: IO[str] | None = None, width: int = 30) -> None:
        stream = sys.stderr if stream is None else stream  # the one of now, not of the import
        self.total, self.stream, self.width = total, stream, width
        self.done, self.start = 0, time.monotonic()
        self.active = total > 0 and stream.isatty()
        self.shown = 0.0

    def __call__(self, row: Any = None) -> None:
        self.done += 1
        now = time.monotonic()
        if self.active and (now - self.shown > 0.1 or self.done == self.total):
            self.shown = now
            self.stream.write("\r" + self.line(now) + ("\n" if self.done == self.total else ""))
            self.stream.flush()

    def line(self, now: float) -> str:
        """The bar, runs done, rate, ETA and elapsed time as of `now` (a monotonic time)."""
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate else 0.0
        filled = self.width * self.done // self.total
        bar = "#" * filled + "." * (self.width - filled)
        return (f"[{bar}] {self.done}/{self.total}  {rate:.1f} runs/s  "
                f"ETA {_clock(eta)}  elapsed {_clock(elapsed)}")

    def finish(self) -> None:
        """End the line when the run stopped short of the total."""
        if self.active and self.done != self.total:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
