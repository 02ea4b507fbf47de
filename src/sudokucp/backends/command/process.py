"""One run of an external program: its own process group, killed whole at the deadline, dead
with the worker that started it; its output, exit status and the CPU time it took."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

PR_SET_PDEATHSIG = 1  # linux/prctl.h
REAP = 5.0  # seconds to wait for the pipes of a killed program to close
TAIL = 300  # characters of standard error quoted in an error


@dataclass(frozen=True)
class Ran:
    """What a program left: its standard output and error, its exit status, whether the
    deadline killed it, and the CPU seconds it (and what it waited for) took."""

    out: str
    err: str
    code: int
    timed_out: bool
    cpu: float


def run(argv: list[str], stdin: str | None, deadline: float | None) -> Ran:
    """Run the program to its end or the deadline."""
    before = children_cpu()
    out, err, code, timed_out = _run(argv, stdin, deadline)
    return Ran(out, err, code, timed_out, children_cpu() - before)


def _run(argv: list[str], stdin: str | None, deadline: float | None
         ) -> tuple[str, str, int, bool]:
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin is not None
                                else subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, errors="replace",
                                preexec_fn=_own_group)
    except OSError as err:
        raise RuntimeError(f"cannot run {argv[0]!r}: {err.strerror or err}") from None
    timeout = None if deadline is None else max(deadline - time.perf_counter(), 0.0)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        return "", "", -signal.SIGKILL, True
    except BaseException:
        _kill(proc)
        raise
    with contextlib.suppress(ProcessLookupError):  # what it left running in its group
        os.killpg(proc.pid, signal.SIGKILL)
    return out, err, proc.returncode, False


def _own_group() -> None:
    """In the child: a process group of its own (killed whole at the deadline), and death with
    the worker that started it (Linux's parent-death signal)."""
    os.setpgid(0, 0)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _kill(proc: subprocess.Popen) -> None:
    """SIGKILL the program's whole process group, then reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    try:
        proc.communicate(timeout=REAP)
    except subprocess.TimeoutExpired:  # a descendant that left the group holds the pipes
        for pipe in (proc.stdout, proc.stderr):
            pipe.close()
        proc.wait()


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
