"""Files written whole or not at all: a temporary name in the same folder, then a rename."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def atomic_write(path: Path, write: Callable[[str], None]) -> None:
    """Call `write` with a temporary path beside `path`, then rename it over `path`."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(str(tmp))
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text(path: Path, text: str) -> None:
    """Write a text file whole or not at all, making its folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
