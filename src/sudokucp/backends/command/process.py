"""One run of an external program: its own process group, killed whole at the deadline, dead
with the worker that started it, and whatever it left running (even in a session of its own)
killed when it ends, this process being their subreaper (machine/processes.py); its output read
as it comes, keeping what an answer needs (comment lines only at the end), its exit status, the
CPU time it took and its own peak resident memory (read when it is reaped)."""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sudokucp.machine.processes import (
    become_subreaper,
    children,
    die_with_parent,
    end_orphans,
    kill_tree,
)

REAP = 5.0  # seconds to wait for the pipes of a killed program to close
POLL = 0.05  # seconds between two looks at a running program where there is no pidfd
TAIL = 300  # characters of standard error quoted in an error
ERR_KEPT = 1 << 16  # bytes of standard error kept (its end)
OUT_KEPT = 1 << 28  # bytes of standard output kept, comment lines apart: past it, an error
COMMENTS_KEPT = 1000  # comment lines kept, the last ones (a solver's statistics come last)
LINE_KEPT = 1 << 12  # bytes kept of a comment line
CHUNK = 1 << 16


class TooMuchOutput(RuntimeError):
    """A program printed more than an answer can hold."""


@dataclass(frozen=True)
class Ran:
    """What a program left: its standard output and error, its exit status, whether the
    deadline killed it, the CPU seconds it (and what it waited for) took, and its peak resident
    memory in kB (0 where it could not be read)."""

    out: str
    err: str
    code: int
    timed_out: bool
    cpu: float
    peak_kb: int = 0


class Kept:
    """Standard output as it streams in: every line kept but comment lines (those opening with
    `comment`), of which only the last COMMENTS_KEPT stay, cut to LINE_KEPT bytes each; more
    than OUT_KEPT bytes of other lines is an error."""

    def __init__(self, comment: str | None) -> None:
        self.comment = comment.encode() if comment else None
        self.lines: list[bytes] = []
        self.comments: deque[bytes] = deque(maxlen=COMMENTS_KEPT)
        self.size = 0  # bytes kept in `lines` and `pieces`
        self.pieces: list[bytes] = []  # the line not ended yet

    def add(self, data: bytes) -> None:
        *whole, rest = data.split(b"\n")
        if whole:
            self._piece(whole[0])
            self._close()
            for line in whole[1:]:
                self._piece(line)
                self._close()
        self._piece(rest)

    def _is_comment(self) -> bool:
        return self.comment is not None and self.pieces[0].startswith(self.comment)

    def _piece(self, data: bytes) -> None:
        if not data:
            return
        if self.pieces and self._is_comment():
            if sum(map(len, self.pieces)) < LINE_KEPT:
                self.pieces.append(data[:LINE_KEPT])
            return
        self.pieces.append(data)
        if not self._is_comment():
            self._count(len(data))

    def _count(self, size: int) -> None:
        self.size += size
        if self.size > OUT_KEPT:
            raise TooMuchOutput(f"the program printed more than {OUT_KEPT >> 20} MB of output "
                                f"besides comment lines")

    def _close(self) -> None:
        """The line of `pieces` ended: kept, or kept among the last comment lines."""
        if self.pieces and self._is_comment():
            self.comments.append(b"".join(self.pieces)[:LINE_KEPT])
        else:
            self._count(1)  # its end of line
            self.lines.append(b"".join(self.pieces))
        self.pieces = []

    def text(self) -> str:
        """What was kept: the lines in order, then the last comment lines."""
        if self.pieces:
            self._close()
        lines = [*self.lines, *self.comments]
        return b"\n".join(lines).decode(errors="replace").replace("\r\n", "\n")


class Tail:
    """The last ERR_KEPT bytes of a stream."""

    def __init__(self) -> None:
        self.data = b""

    def add(self, data: bytes) -> None:
        self.data = (self.data + data)[-ERR_KEPT:]

    def text(self) -> str:
        return self.data.decode(errors="replace")


def run(argv: list[str], stdin: str | None, deadline: float | None,
        comment: str | None = None) -> Ran:
    """Run the program to its end or the deadline; lines of its output that open with
    `comment` are kept only at the end (COMMENTS_KEPT of them)."""
    before = children_cpu()
    out, err, code, timed_out, peak = _run(argv, stdin, deadline, comment)
    return Ran(out, err, code, timed_out, children_cpu() - before, peak)


def _run(argv: list[str], stdin: str | None, deadline: float | None, comment: str | None
         ) -> tuple[str, str, int, bool, int]:
    become_subreaper()
    known = children()
    out, errors = Kept(comment), Tail()
    with _feed(stdin) as feed:
        try:
            proc = subprocess.Popen(argv, stdin=feed, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, preexec_fn=_own_group)
        except OSError as err:
            raise RuntimeError(f"cannot run {argv[0]!r}: {err.strerror or err}") from None
    try:
        ended = _read(proc, deadline, {proc.stdout.fileno(): out,
                                       proc.stderr.fileno(): errors})
    except BaseException:
        _end(proc, known, None)
        raise
    peak = _end(proc, known, (out, errors) if ended else None)
    if not ended:
        return "", "", -signal.SIGKILL, True, peak
    return out.text(), errors.text(), proc.returncode, False, peak


@contextlib.contextmanager
def _feed(stdin: str | None) -> Iterator[Any]:
    """What the program reads: a file holding `stdin` (no pipe to keep fed), or nothing."""
    if stdin is None:
        yield subprocess.DEVNULL
        return
    with tempfile.TemporaryFile() as feed:
        feed.write(stdin.encode())
        feed.seek(0)
        yield feed


def _own_group() -> None:
    """In the child: a process group of its own (killed whole at the deadline), and death with
    the worker that started it (Linux's parent-death signal)."""
    os.setpgid(0, 0)
    die_with_parent()


def _read(proc: subprocess.Popen, deadline: float | None, sinks: dict) -> bool:
    """Read the program's pipes into their sinks until it exits (True) or the deadline passes
    (False); a descendant that holds the pipes open is no reason to wait."""
    exited = _pidfd(proc.pid)
    try:
        while not _exited(proc):
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return False
            wait = POLL if exited is None else left
            if wait is not None and left is not None:
                wait = min(wait, left)
            watched = [*sinks, *([] if exited is None else [exited])]
            ready, _, _ = select.select(watched, [], [], wait)
            for fd in ready:
                if fd in sinks and not _take(fd, sinks):
                    del sinks[fd]
        return True
    finally:
        if exited is not None:
            os.close(exited)


def _take(fd: int, sinks: dict) -> bool:
    """Read what a pipe holds now into its sink; False at its end."""
    data = os.read(fd, CHUNK)
    if data:
        sinks[fd].add(data)
    return bool(data)


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when `pid` exits (Linux 5.3 on), or None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _exited(proc: subprocess.Popen) -> bool:
    """Whether the program has ended, left unreaped (so that _reap reads its resource usage)
    where the system can look without reaping (waitid's WNOWAIT)."""
    if not hasattr(os, "waitid") or proc.returncode is not None:
        return proc.poll() is not None
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return proc.poll() is not None


def _reap(proc: subprocess.Popen) -> int:
    """Wait for the program and set its exit status; its peak resident memory (kB), 0 where
    it was reaped already."""
    if proc.returncode is not None:
        return 0
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except ChildProcessError:
        proc.wait()
        return 0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss


def _end(proc: subprocess.Popen, known: set[int], sinks: tuple | None) -> int:
    """Kill what the program left (its group, the orphans that came back to this process, all
    below them) or the program itself when it still runs, reap it, then read its pipes to their
    end into `sinks` (out, err) when given; its peak resident memory (kB, 0 unknown)."""
    if not _exited(proc):
        kill_tree([proc.pid])
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    peak = _reap(proc)
    end_orphans(known)
    pipes = [proc.stdout, proc.stderr]
    if sinks is not None:
        _drain(dict(zip((p.fileno() for p in pipes), sinks)))
    for pipe in pipes:
        pipe.close()
    return peak


def _drain(sinks: dict) -> None:
    """Read the pipes to their end, REAP seconds at most (a process that escaped the kill)."""
    stop = time.perf_counter() + REAP
    while sinks and time.perf_counter() < stop:
        ready, _, _ = select.select(list(sinks), [], [], max(stop - time.perf_counter(), 0))
        for fd in ready:
            if not _take(fd, sinks):
                del sinks[fd]


def children_cpu() -> float:
    """User + system seconds of the children this process waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tail(err: str) -> str:
    """'; stderr: ...' with the end of standard error, or nothing when it is empty."""
    text = " ".join(err.split())
    return f"; stderr: ...{text[-TAIL:]}" if len(text) > TAIL else (
        f"; stderr: {text}" if text else "")


def last_line(err: str) -> str:
    """'; stderr: LINE' with the last line of standard error that holds something."""
    lines = [line.strip() for line in err.splitlines() if line.strip()]
    if not lines:
        return "; nothing on stderr"
    line = lines[-1]
    return f"; stderr: {line if len(line) <= TAIL else line[:TAIL] + '...'}"


def exit_words(code: int) -> str:
    """'exit status 3', or 'killed by SIGSEGV' for a signal."""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
