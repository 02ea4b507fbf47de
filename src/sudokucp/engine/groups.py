"""The searches' state over every group of a layout (sudokucp.rules), for any rule set: a free
mask per group (full groups first: only they force a digit's last place), each cell's allowed
digits, and each cage sum's unused digits, the sum still to make and its cells still open. A
classic grid is a layout whose groups are its rows, columns and boxes. The searches that place
and remove digits one at a time (naive, mrv, the variant generator's fill) run on it.
"""

from __future__ import annotations

from sudokucp.engine.propagation import lone_digits
from sudokucp.layout import layout
from sudokucp.puzzle import Grid, Puzzle
from sudokucp.rules import reachable


class Groups:
    """A search state: a free mask per group (full groups first), each cage sum's digits left
    unused, the sum still to make and its cells still open, and the candidates of the open cells
    at the last full scan (cands: 0 once placed)."""

    def __init__(self, puzzle: Puzzle) -> None:
        lay = layout(puzzle.shape, puzzle.rules)
        order = sorted(range(len(lay.groups)), key=lambda g: not lay.is_full(g))
        at = {g: i for i, g in enumerate(order)}
        self.units = [lay.groups[g] for g in order]
        self.nfull = sum(1 for g in order if lay.is_full(g))
        self.full_units = self.units[:self.nfull]
        self.free = [lay.full] * len(self.units)
        self.allowed = lay.allowed
        self.cell_units = [tuple(at[g] for g in groups) for groups in lay.cell_groups]
        self.unused = [lay.full] * len(lay.sums)
        self.left = [total for _, total in lay.sums]
        self.open = [len(cells) for cells, _ in lay.sums]
        self.cell_sums: list[tuple[int, ...]] = [() for _ in lay.allowed]
        for k, (cells, _) in enumerate(lay.sums):
            for c in cells:
                self.cell_sums[c] += (k,)
        self.cands = [0] * len(lay.allowed)
        self.worst = lay.side + 1  # more candidates than any cell can have
        # three groups a cell, no cage sum, every digit allowed (the classic grid): candidates,
        # place, remove and scan unpack a cell's groups instead of looping (naive ~7% faster)
        plain = not lay.sums and all(a == lay.full for a in lay.allowed)
        self.triples = self.cell_units if plain and {len(u) for u in self.cell_units} == {3} \
            else None

    def candidates(self, cell: int) -> int:
        """The digits `cell` may take now."""
        if self.triples is not None:
            a, b, d = self.triples[cell]
            free = self.free
            return free[a] & free[b] & free[d]
        mask = self.allowed[cell]
        for u in self.cell_units[cell]:
            mask &= self.free[u]
        for k in self.cell_sums[cell]:
            mask &= self.sum_digits(k)
        return mask

    def sum_digits(self, k: int) -> int:
        """The digits one more cell of cage k may take so that the rest can still make its sum."""
        ok, unused, count, left = 0, self.unused[k], self.open[k] - 1, self.left[k]
        mask = unused
        while mask:
            bit = mask & -mask
            mask ^= bit
            if reachable(unused ^ bit, count, left - bit.bit_length()):
                ok |= bit
        return ok

    def place(self, cell: int, bit: int) -> None:
        """Put the digit of `bit` in `cell`."""
        if self.triples is not None:
            a, b, d = self.triples[cell]
            free = self.free
            free[a] ^= bit
            free[b] ^= bit
            free[d] ^= bit
            self.cands[cell] = 0
            return
        for u in self.cell_units[cell]:
            self.free[u] ^= bit
        for k in self.cell_sums[cell]:
            self.unused[k] ^= bit
            self.left[k] -= bit.bit_length()
            self.open[k] -= 1
        self.cands[cell] = 0

    def remove(self, cell: int, bit: int) -> None:
        """Take the digit of `bit` out of `cell` again."""
        if self.triples is not None:
            a, b, d = self.triples[cell]
            free = self.free
            free[a] |= bit
            free[b] |= bit
            free[d] |= bit
            return
        for u in self.cell_units[cell]:
            self.free[u] |= bit
        for k in self.cell_sums[cell]:
            self.unused[k] |= bit
            self.left[k] += bit.bit_length()
            self.open[k] += 1

    def take_givens(self, cells: Grid) -> bool:
        """Place the givens; False when one breaks a rule."""
        for cell, value in enumerate(cells):
            if value:
                bit = 1 << (value - 1)
                if not self.candidates(cell) & bit:
                    return False
                self.place(cell, bit)
        return True

    def pick(self, cells: list[int], k: int, dynamic: bool, hidden: bool) -> int:
        """The candidates of the cell swapped into place k of `cells` (whose first k are filled):
        the fewest (dynamic) or the next (static); with `hidden`, a digit's last place in a full
        group when no cell is forced (0 when a digit has none left)."""
        if not dynamic:
            return self.candidates(cells[k])
        best, mask, at = self.scan(cells, k)
        if hidden and best > 1:  # every open cell scanned: a full group may force a digit
            cands = self.cands
            found = lone_digits(cands, self.full_units, self.free)
            if found is False:
                return 0
            if found is not None:
                u, lone = found
                bit = lone & -lone
                cell = next(c for c in self.full_units[u] if cands[c] & bit)
                at, mask = cells.index(cell, k), bit
        cells[k], cells[at] = cells[at], cells[k]
        return mask

    def scan(self, cells: list[int], k: int) -> tuple[int, int, int]:
        """The open cells cells[k:] scanned, their candidates kept in cands, until one has at
        most one: (how many the fewest has, its candidates, its place in `cells`)."""
        if self.triples is not None:
            return self._scan_triples(cells, k)
        allowed, cell_units, cell_sums, free, cands = \
            self.allowed, self.cell_units, self.cell_sums, self.free, self.cands
        best, mask, at = self.worst, 0, k
        for i in range(k, len(cells)):
            c = cells[i]
            cand = allowed[c]
            for u in cell_units[c]:
                cand &= free[u]
            for s in cell_sums[c]:
                cand &= self.sum_digits(s)
            cands[c] = cand
            if cand.bit_count() < best:
                best, mask, at = cand.bit_count(), cand, i
                if best < 2:
                    break
        return best, mask, at

    def _scan_triples(self, cells: list[int], k: int) -> tuple[int, int, int]:
        """scan where every cell has three groups and no cage sum (every digit allowed)."""
        triples, free, cands = self.triples, self.free, self.cands
        best, mask, at = self.worst, 0, k
        for i in range(k, len(cells)):
            c = cells[i]
            a, b, d = triples[c]
            cand = free[a] & free[b] & free[d]
            cands[c] = cand
            n = cand.bit_count()
            if n < best:
                best, mask, at = n, cand, i
                if n < 2:
                    break
        return best, mask, at
