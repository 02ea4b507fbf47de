"""The rungs of the propagation ladder: more inference at each, and the backend that runs it."""

from __future__ import annotations

from dataclasses import dataclass

from sudokucp.i18n import N_


@dataclass(frozen=True)
class Rung:
    """One step of the ladder: a short key, what it adds (English; `_(adds)` translates it),
    the backend spec that runs it."""

    key: str
    adds: str
    spec: str


RUNGS: tuple[Rung, ...] = (
    Rung("none", N_("no propagation (naive backtracking)"), "csp:propagation=none:order=static"),
    Rung("fc", N_("forward checking"), "csp:propagation=fc:order=static"),
    Rung("fc+mrv", N_("+ MRV"), "csp:propagation=fc:order=mrv"),
    Rung("singles", N_("+ hidden singles"), "hybrid:techniques=singles:node_techniques=singles"),
    Rung("locked", N_("+ locked candidates"), "hybrid:techniques=locked:node_techniques=locked"),
    Rung("subsets", N_("+ subsets"), "hybrid:techniques=subsets:node_techniques=subsets"),
    Rung("alldiff", N_("full alldifferent (CP-SAT)"), "cpsat"),
)
RUNG_KEYS = tuple(r.key for r in RUNGS)
