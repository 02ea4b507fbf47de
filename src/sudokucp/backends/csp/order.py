"""The course heuristics of the csp backend: which variable next (static, MRV, dom/wdeg) and in
which order its values (ascending, least constraining value first).

Glossary as in csp.py: s = the Search, net = its Network, x, y = variables, bit = a digit's bit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def pick_variable(s: Any, depth: int) -> int:
    """The variable to assign at `depth`, swapped into s.open[depth] (the static order takes it
    as it is). MRV: fewest legal values; dom/wdeg: fewest per weighted degree; ties: first."""
    order, open_ = s.order, s.open
    if order == "static":
        return open_[depth]
    net = s.net
    best, pick = None, depth
    for i in range(depth, len(open_)):
        x = open_[i]
        size = net.legal(x).bit_count()
        score = size if order == "mrv" else size / max(wdeg(net, x), 1)
        if best is None or score < best:
            best, pick = score, i
            if size < 2 and order == "mrv":
                break
    open_[depth], open_[pick] = open_[pick], open_[depth]
    return open_[depth]


def wdeg(net: Any, x: int) -> int:
    """The summed weights of x's constraints with an unassigned neighbour."""
    value, w = net.value, net.w[x]
    return sum(w[i] for i, y in enumerate(net.peers[x]) if not value[y])


def value_order(s: Any, x: int, domain: int) -> Iterator[int]:
    """The bits of `domain` in the order to try: ascending, or fewest values ruled out in the
    unassigned neighbours' legal sets first (ties ascending)."""
    bits = []
    while domain:
        bit = domain & -domain
        domain ^= bit
        bits.append(bit)
    if s.values == "lcv" and len(bits) > 1:
        net = s.net
        around = [net.legal(y) for y in net.peers[x] if not net.value[y]]
        bits.sort(key=lambda bit: (sum(1 for m in around if m & bit), bit))
    return iter(bits)
