"""The registry: backend names, aliases, lookup by name with options.

A backend outside the package loads by its import path, as BenchExec finds tools:
`--backend mypackage.module:MyBackend:key=value` (see `sudokucp/backends/template.py`).
A program outside Python runs through the `command` wrapper: `command:run=./mysolver {file}`.
An option's value runs to the next ':name=' (or the end), so it may hold spaces, braces and
colons: 'command:run=docker run img:1.0 {file}'.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from sudokucp.backends.base import Backend, OptionError
from sudokucp.backends.names import ALIASES, BACKENDS, WRAPPERS, spec_name


class UnknownBackend(ValueError):
    """A name that is neither a backend nor an alias."""


class BackendUnavailable(RuntimeError):
    """A backend whose package is not installed."""


def canonical(name: str) -> str:
    """The registry name for a name or alias; unknown names list the valid ones."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in BACKENDS and key not in WRAPPERS:
        valid = ", ".join([*BACKENDS, *WRAPPERS])
        raise UnknownBackend(f"unknown backend {name!r}; valid names: {valid} "
                             f"(aliases: {', '.join(sorted(ALIASES))})")
    return key


def is_import_path(name: str) -> bool:
    """Whether `name` is 'module:Class' (a backend outside the registry), not a registry name."""
    module, sep, attr = name.partition(":")
    if module.strip().lower() in {**BACKENDS, **ALIASES, **WRAPPERS}:
        return False
    return bool(sep) and attr.isidentifier() and all(p.isidentifier() for p in module.split("."))


def backend_class(name: str) -> type[Backend]:
    """The class registered under a name or alias, or found at 'module:Class'."""
    target = name if is_import_path(name) else {**BACKENDS, **WRAPPERS}[canonical(name)]
    module, _, attr = target.partition(":")
    try:
        found = getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as err:
        if not is_import_path(name) or err.name != module.split(".")[0]:
            raise
        raise UnknownBackend(f"cannot load backend {name!r}: no module named {err.name!r}"
                             ) from None
    except AttributeError:
        raise UnknownBackend(f"cannot load backend {name!r}: {module} has no {attr!r}") from None
    if not (isinstance(found, type) and issubclass(found, Backend)):
        raise UnknownBackend(f"{name!r} is not a Backend subclass")
    return found


def get_backend(name: str, **options: Any) -> Backend:
    """An instance of a backend, checked to be installed: get_backend('mrv', order='static')."""
    cls = backend_class(name)
    if not cls.available():
        raise BackendUnavailable(f"backend {cls.name!r}: {unavailable_reason(cls)}")
    return cls(**options)


def unavailable_reason(cls: type[Backend]) -> str:
    """Why a backend is not available: its own reason (a missing program) or the package."""
    package = f"needs the package {cls.distribution()}: pip install 'sudoku-cp[{cls.extra}]'"
    return cls.unavailable_reason() or package


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """'mrv:order=static' -> ('mrv', {'order': 'static'}); 'pkg.mod:Class:k=v' ->
    ('pkg.mod:Class', {'k': 'v'})."""
    name, *parts = spec.strip().split(":")
    if parts and "=" not in parts[0] and is_import_path(f"{name}:{parts[0]}"):
        name, parts = f"{name}:{parts[0]}", parts[1:]
    options: dict[str, str] = {}
    key = None
    for part in parts:
        head, sep, value = part.partition("=")
        if sep and head.strip().isidentifier():
            key = head.strip()
            options[key] = value
        elif key is not None:  # a colon inside a value
            options[key] += ":" + part
        else:
            raise OptionError(f"cannot read option {part!r} in {spec!r}: write name:key=value")
    options = {k: v.strip() for k, v in options.items()}
    return (name if is_import_path(name) else canonical(name)), options


def split_specs(text: str) -> list[str]:
    """Comma-separated specs; a piece that names no backend belongs to the value before it
    ('command:run=./s a,b {file}' stays whole)."""
    specs: list[str] = []
    for piece in text.split(","):
        if specs and not _names_backend(piece):
            specs[-1] += "," + piece
        elif piece.strip():
            specs.append(piece.strip())
    return specs


def _names_backend(piece: str) -> bool:
    name = piece.strip().split(":")[0].strip().lower()
    return (not piece.strip() or name in {**BACKENDS, **ALIASES, **WRAPPERS, "all": ""}
            or is_import_path(":".join(piece.strip().split(":")[:2])))


def from_spec(spec: str) -> Backend:
    """A backend instance from 'name:key=value:key=value'."""
    name, options = parse_spec(spec)
    return get_backend(name, **options)


def checkers(use: str) -> tuple[str, ...]:
    """The registered backends ranked as uniqueness checkers for `use` ('classic', 'large',
    'variant', 'hard': Backend.checker), preferred first; those whose module fails to load are
    left out."""
    ranked = []
    for name in BACKENDS:
        try:
            rank = backend_class(name).checker.get(use)
        except ImportError:
            continue
        if rank is not None:
            ranked.append((rank, name))
    return tuple(name for _, name in sorted(ranked))


# The backend the library itself uses for a task, so that no module outside the registry names
# one: rating's solution counts and its guess column (QQWing's techniques, then branching).
ROLES: dict[str, str] = {"rating": "hybrid"}


def for_role(role: str, **options: Any) -> Backend:
    """The backend ROLES names for `role`, with `options`, checked to be installed."""
    return get_backend(ROLES[role], **options)


def missing_program(backend: Backend) -> str | None:
    """Why a `command` backend's program cannot start here, None when it can and for every other
    backend (backends/command/command.py)."""
    from sudokucp.backends.command import missing_program as why

    return why(backend)


def available_backends() -> list[str]:
    """Names of the backends whose module loads and whose package imports here; the others are
    named with the reason in one notice (logged at INFO: the command line shows it)."""
    names, missing = [], []
    for name in BACKENDS:
        try:
            cls = backend_class(name)
        except ImportError as err:
            missing.append(f"{name} (cannot load: {err})")
            continue
        if cls.available():
            names.append(name)
        else:
            missing.append(f"{name} ({unavailable_reason(cls)})")
    if missing:
        import logging  # here, not at start-up: the command line starts faster

        logging.getLogger(__name__).info("backends not available here, left out: %s",
                                         "; ".join(missing))
    return names


__all__ = ["BACKENDS", "ALIASES", "WRAPPERS", "Backend", "BackendUnavailable", "OptionError",
           "ROLES", "UnknownBackend", "available_backends", "backend_class", "canonical",
           "checkers", "for_role", "from_spec", "get_backend", "is_import_path", "missing_program",
           "parse_spec", "spec_name", "split_specs"]


AFTERWARDS: list[Callable[[], object]] = []  # work a backend leaves for after a command's answers


def after_answers(work: Callable[[], object]) -> None:
    """Leave work (once) for the command to run after it has answered: jit builds its 9x9 path's
    machine code there, so that later commands start faster."""
    if work not in AFTERWARDS:
        AFTERWARDS.append(work)


def run_afterwards() -> None:
    """Run the work the backends left (after_answers), each once; the command line's last step."""
    while AFTERWARDS:
        AFTERWARDS.pop(0)()
