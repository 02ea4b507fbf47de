"""The rungs of the propagation ladder: more inference at each, and the backend that runs it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rung:
    """One step of the ladder: a short key, what it adds, the backend spec that runs it."""

    key: str
    adds: str
    spec: str


RUNGS: tuple[Rung, ...] = (
    Rung("none", "no propagation (naive backtracking)", "csp:propagation=none:order=static"),
    Rung("fc", "forward checking", "csp:propagation=fc:order=static"),
    Rung("fc+mrv", "+ MRV", "csp:propagation=fc:order=mrv"),
    Rung("singles", "+ hidden singles", "hybrid:techniques=singles:node_techniques=singles"),
    Rung("locked", "+ locked candidates", "hybrid:techniques=locked:node_techniques=locked"),
    Rung("subsets", "+ subsets", "hybrid:techniques=subsets:node_techniques=subsets"),
    Rung("alldiff", "full alldifferent (CP-SAT)", "cpsat"),
)
RUNG_KEYS = tuple(r.key for r in RUNGS)
