#!/usr/bin/env python3
"""A student's Sudoku solver, as a course might hand one in: any N x N grid on one line of the
file named on the command line ('.' or '0' for blanks), the solution printed on one line, or
UNSAT. Backtracking on the cell with the fewest candidates. It knows nothing of sudoku-cp.

    python3 docs/examples/student_solver.py puzzle.txt
"""

import math
import sys

DIGITS = "123456789ABCDEFGHIJKLMNOP"


def read(path):
    with open(path) as handle:
        line = handle.read().split()[0]
    return [0 if c in ".0" else DIGITS.index(c.upper()) + 1 for c in line]


def peers_of(n):
    box = math.isqrt(n)
    peers = []
    for i in range(n * n):
        r, c = divmod(i, n)
        r0, c0 = r - r % box, c - c % box
        same = {r * n + k for k in range(n)} | {k * n + c for k in range(n)}
        same |= {(r0 + y) * n + c0 + x for y in range(box) for x in range(box)}
        peers.append(sorted(same - {i}))
    return peers


def solve(grid, peers, n):
    best, options = None, None
    for i, v in enumerate(grid):
        if v == 0:
            free = set(range(1, n + 1)) - {grid[p] for p in peers[i]}
            if best is None or len(free) < len(options):
                best, options = i, free
                if len(free) <= 1:
                    break
    if best is None:
        return True
    for d in sorted(options):
        grid[best] = d
        if solve(grid, peers, n):
            return True
    grid[best] = 0
    return False


def main():
    grid = read(sys.argv[1])
    n = math.isqrt(len(grid))
    sys.setrecursionlimit(10 * n * n)
    if solve(grid, peers_of(n), n):
        print("".join(DIGITS[v - 1] for v in grid))
    else:
        print("UNSAT")


if __name__ == "__main__":
    main()
