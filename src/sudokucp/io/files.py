"""Files written whole or not at all (a temporary name in the same folder, then a rename), the
check that a file or folder a command will write can be written (made before any work), and a
folder held by one process at a time."""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

LOCK = ".lock"


def temporary_beside(path: Path) -> Path:
    """The hidden name a file is written under before it is renamed to `path`."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def atomic_write(path: Path, write: Callable[[str], None]) -> None:
    """Call `write` with a temporary path beside `path`, then rename it over `path`. An OSError
    names `path`, not the temporary name (a full disk: 'cannot write PATH')."""
    tmp = temporary_beside(path)
    try:
        write(str(tmp))
        os.replace(tmp, path)
    except OSError as err:
        if err.filename in (None, str(tmp)):
            err.filename = str(path)
        raise
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_text(path: Path, text: str) -> None:
    """Write a text file whole or not at all, making its folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


class NotWritable(Exception):
    """A file or folder a command will write cannot be written; the message says which and why."""


def writable_folder(path: str | Path) -> Path:
    """`path` as a folder that exists (made with its parents) and takes new files, checked before
    any work; NotWritable saying why not (a file in its place, no permission, read-only)."""
    folder = Path(path)
    _make_folder(folder, folder)
    _try_a_file_in(folder, folder)
    return folder


def writable_file(path: str | Path) -> Path:
    """`path` as a file that can be written whole (a new file beside it, renamed over it): not a
    folder, in a folder that exists (made if needed) and takes new files; NotWritable if not."""
    file = Path(path)
    if file.is_dir():
        raise NotWritable(f"cannot write {file}: it is a folder")
    folder = file.parent
    _make_folder(folder, file)
    _try_a_file_in(folder, file)
    return file


def write_error(err: OSError, path: str | Path) -> str:
    """One line on a failed write: the file the error names (else `path`) and the reason."""
    return f"cannot write {err.filename or path}: {err.strerror or err}"


def _make_folder(folder: Path, target: Path) -> None:
    """Make `folder` and its parents, or NotWritable naming `target` and what is in the way."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NotWritable(f"cannot write in {folder}: it is a file, not a folder" if
                          target == folder else f"cannot write {target}: {folder} is a file, "
                          f"not a folder") from None
    except NotADirectoryError:
        above = next((p for p in folder.parents if p.exists()), folder)
        raise NotWritable(f"cannot write {target}: {above} is a file, not a folder") from None
    except OSError as err:
        raise NotWritable(f"cannot write {target}: cannot create the folder {folder} "
                          f"({err.strerror or err})") from None


def _try_a_file_in(folder: Path, target: Path) -> None:
    """Make and remove a file in `folder`: the one test that permissions, a read-only filesystem
    and the superuser all answer truly."""
    try:
        fd, name = tempfile.mkstemp(prefix=".sudokucp-", suffix=".probe", dir=folder)
    except OSError as err:
        why = err.strerror or err
        raise NotWritable(f"cannot write in the folder {folder}: {why}" if target == folder
                          else f"cannot write {target}: {why} (in the folder {folder})") from None
    os.close(fd)
    os.unlink(name)


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
