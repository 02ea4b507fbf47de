"""Files written whole or not at all (a temporary name in the same folder, then a rename), and a
folder held by one process at a time."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable
from pathlib import Path

LOCK = ".lock"


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


class FolderBusy(OSError):
    """Another process holds the folder's lock."""


class FolderLock:
    """One holder at a time for a folder: flock on FOLDER/.lock, which the kernel drops when the
    holder dies, however it dies. A second holder fails at once with FolderBusy."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK
        self.fd: int | None = None

    def __enter__(self) -> FolderLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the lock, or raise FolderBusy naming the holder's process id."""
        while self.fd is None:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
                os.close(fd)
                raise FolderBusy(f"{self.path.parent} is in use by another bench (process "
                                 f"{holder}): wait for it to end, or choose another "
                                 f"--out") from None
            if _same_file(fd, self.path):
                self.fd = fd
            else:  # the last holder removed the file as we locked it: lock the new one
                os.close(fd)
        os.ftruncate(self.fd, 0)
        os.write(self.fd, f"{os.getpid()}\n".encode())

    def release(self) -> None:
        """Remove the lock file, then let go of the lock."""
        if self.fd is not None:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            os.close(self.fd)
            self.fd = None


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False
