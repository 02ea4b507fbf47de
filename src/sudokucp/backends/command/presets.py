"""Known solvers as named backends: the command backend with the run line written for them,
available when their program is on PATH (`sudoku-cp backends` says how to install the others).

SAT solvers read the DIMACS CNF of the `sat` backend (`encoding=minimal|extended`) and print
SAT-competition output; ACE, the XCSP3 solver bundled with PyCSP3, runs on Java. Their own
counters and time (conflicts, decisions, `solver_s`) go into the stats where they print them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from importlib import util
from pathlib import Path
from typing import ClassVar

from sudokucp.backends.base import OptionError
from sudokucp.backends.command.command import Command
from sudokucp.encodings.cnf import ENCODINGS

VERSION = re.compile(r"\d+(?:\.\d+)+|\b\d{3,}\b|\bsc\d{4}\b")
DEBIAN = "apt-get install"


class Preset(Command):
    """A known solver: the command backend with its run line fixed."""

    program: ClassVar[str]  # what must be on PATH
    line: ClassVar[str]  # the run line, placeholders in it
    install: ClassVar[str]  # how to get the program
    defaults = {"encoding": "extended"}
    choices = {"encoding": ENCODINGS}
    complete = True  # a count ends with the solver's UNSAT on the file that rules out the others
    stats_keys = ("exit_code", "cpu_s", "calls", "encode_s")
    counting = ("grows with the count: one run per solution, each on a file that rules out the "
                "grids found so far")

    def _argv(self) -> list[str]:
        return self.line.split()

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why the solver cannot run here: its program is not on PATH."""
        if shutil.which(cls.program) is None:
            return f"the program {cls.program!r} is not on PATH: {cls.install}"
        return None

    @classmethod
    def version(cls) -> str:
        """What the program says of its version, or 'not installed'."""
        return program_version(cls.program) if cls.available() else "not installed"


@cache
def program_version(program: str) -> str:
    """The version a program prints for --version (its first number), or 'unknown'."""
    try:
        done = subprocess.run([program, "--version"], capture_output=True, text=True,
                              timeout=10, check=False, errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    found = VERSION.search(done.stdout + done.stderr) if done.returncode == 0 else None
    return found.group() if found else "unknown"


class Cadical(Preset):
    name = "cadical"
    description = "CaDiCaL, a CDCL SAT solver, on the DIMACS CNF (Debian: cadical)"
    program, line, install = "cadical", "cadical {cnf}", f"{DEBIAN} cadical"


class Kissat(Preset):
    name = "kissat"
    description = "Kissat, a CDCL SAT solver, on the DIMACS CNF"
    program, line = "kissat", "kissat {cnf}"
    install = "build it from its sources, or a distribution's kissat package"


class CryptoMiniSat(Preset):
    name = "cryptominisat"
    description = "CryptoMiniSat 5, a CDCL SAT solver, on the DIMACS CNF (Debian: cryptominisat)"
    program, line = "cryptominisat5", "cryptominisat5 {cnf}"
    install = f"{DEBIAN} cryptominisat"


class MiniSat(Preset):
    name = "minisat"
    description = "MiniSat 2, a CDCL SAT solver, on the DIMACS CNF (Debian: minisat)"
    program, line, install = "minisat", "minisat {cnf} {out}", f"{DEBIAN} minisat"

    @classmethod
    def version(cls) -> str:
        """MiniSat prints no version."""
        return "installed" if cls.available() else "not installed"


class PicoSAT(Preset):
    name = "picosat"
    description = "PicoSAT, a CDCL SAT solver, on the DIMACS CNF (Debian: picosat)"
    program, line, install = "picosat", "picosat -v {cnf}", f"{DEBIAN} picosat"


class Ace(Preset):
    name = "ace"
    description = ("ACE, the XCSP3 constraint solver bundled with PyCSP3, on the XCSP3 instance "
                   "(allDifferent per unit); a Java virtual machine starts per run")
    program = "java"
    install = f"{DEBIAN} default-jre-headless, and pip install pycsp3 (it bundles ACE)"
    defaults: ClassVar[dict[str, object]] = {}
    choices: ClassVar[dict[str, tuple[object, ...]]] = {}

    def _argv(self) -> list[str]:
        jar = ace_jar()
        if jar is None:
            raise OptionError(f"backend 'ace': {self.unavailable_reason()}")
        return ["java", "-jar", str(jar), "{xcsp3}", "-xe", "-xc=false"]  # each solution, plain

    def _count_args(self, wanted: int) -> list[str]:
        """ACE counts by itself: -s=N solutions, or all."""
        return [f"-s={wanted or 'all'}"]

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why ACE cannot run here: no java on PATH, or no PyCSP3 (whose jar it is)."""
        if shutil.which("java") is None or ace_jar() is None:
            return f"ACE needs java on PATH and the package pycsp3: {cls.install}"
        return None

    @classmethod
    def version(cls) -> str:
        """The version in the jar's name (ACE-2.6.jar -> 2.6)."""
        jar = ace_jar()
        return jar.stem.removeprefix("ACE-") if jar else "not installed"


@cache
def ace_jar() -> Path | None:
    """The ACE jar inside the installed pycsp3 package (found without importing it), or None."""
    spec = util.find_spec("pycsp3")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        jars = sorted(Path(folder, "solvers", "ace").glob("ACE-*.jar"))
        if jars:
            return jars[-1]
    return None
