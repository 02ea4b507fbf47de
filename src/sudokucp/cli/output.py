"""Where a command writes what it makes: standard output, or a file written whole (under a
hidden temporary name beside it, renamed when complete)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO

from sudokucp.cli.common import CommandError


class Output:
    """Standard output, or FILE written under a hidden temporary name beside it and renamed when
    complete. FILE is checked on entry, before any puzzle is made; a failed write (a full disk)
    is one line naming FILE, and nothing is left behind."""

    def __init__(self, path: str | None) -> None:
        from pathlib import Path

        self.path = None if path is None else Path(path)

    def __enter__(self) -> TextIO:
        from sudokucp.io.files import NotWritable, temporary_beside, writable_file

        if self.path is None:
            return sys.stdout
        try:
            writable_file(self.path)
        except NotWritable as err:
            raise CommandError(str(err)) from None
        self.temp = temporary_beside(self.path)
        try:
            self.file = open(self.temp, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as err:
            raise CommandError(f"cannot write {self.path}: {err.strerror or err}") from None
        return self.file

    def __exit__(self, kind, value, traceback) -> None:
        if self.path is None:
            return
        try:
            self.file.close()
            if kind is None:
                os.replace(self.temp, self.path)
        except OSError as err:
            value = err
        finally:
            with contextlib.suppress(OSError):
                self.temp.unlink()
        if isinstance(value, OSError):
            raise CommandError(f"cannot write {self.path}: {value.strerror or value}; nothing "
                               f"was kept (the same command makes the same puzzles again)"
                               ) from None
