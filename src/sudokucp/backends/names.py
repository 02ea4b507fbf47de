"""The backends' names: each registered backend's import path, the wrappers', the aliases, and the
name a spec gives a class. The registry (backends/__init__.py) looks names up here; `Backend.label`
(backends/base.py) asks `spec_name`. Add a backend with one line in BACKENDS."""

from __future__ import annotations

BACKENDS: dict[str, str] = {
    "naive": "sudokucp.backends.naive:NaiveRecursive",
    "naive-iterative": "sudokucp.backends.naive:NaiveIterative",
    "mrv": "sudokucp.backends.mrv:MRV",
    "logic": "sudokucp.backends.logic:Logic",
    "hybrid": "sudokucp.backends.hybrid.hybrid:Hybrid",
    "cpsat": "sudokucp.backends.cpsat:CPSat",
    "sat": "sudokucp.backends.sat.sat:PycoSAT",
    "pyconstraint": "sudokucp.backends.pyconstraint:PyConstraint",
    "csp": "sudokucp.backends.csp.csp:CSP",
    "jit": "sudokucp.backends.jit.jit:Jit",
    "gpu": "sudokucp.backends.jit.gpu:Gpu",
    "pysat": "sudokucp.backends.sat.pysat:PySAT",
    "minizinc": "sudokucp.backends.minizinc.minizinc:MiniZinc",
    "dlx": "sudokucp.backends.dlx:DancingLinks",
    # known solvers run as programs on the exported CNF (the command backend, its line written)
    "cadical": "sudokucp.backends.command.presets:Cadical",
    "kissat": "sudokucp.backends.command.presets:Kissat",
    "cryptominisat": "sudokucp.backends.command.presets:CryptoMiniSat",
    "minisat": "sudokucp.backends.command.presets:MiniSat",
    "picosat": "sudokucp.backends.command.presets:PicoSAT",
}

# Backends that wrap a program the user names: they need options to run, so they are left out of
# 'all', of available_backends() and of the tests built from BACKENDS; so is `ace`, whose every
# run starts a Java virtual machine (about a second a grid).
WRAPPERS: dict[str, str] = {
    "command": "sudokucp.backends.command.command:Command",
    "ace": "sudokucp.backends.command.presets:Ace",
}

ALIASES: dict[str, str] = {
    "backtracking": "naive",
    "recursive": "naive",
    "iterative": "naive-iterative",
    "ortools": "cpsat",
    "cp-sat": "cpsat",
    "pycosat": "sat",
    "python-constraint": "pyconstraint",
    "numba": "jit",
    "python-sat": "pysat",
    "mzn": "minizinc",
    "gecode": "minizinc",
    "algorithm-x": "dlx",
    "cryptominisat5": "cryptominisat",
}


def spec_name(cls: type) -> str:
    """How a spec names `cls`: its registry name, or 'module:Class' for one from outside."""
    path = f"{cls.__module__}:{cls.__qualname__}"
    return cls.name if {**BACKENDS, **WRAPPERS}.get(cls.name) == path else path
