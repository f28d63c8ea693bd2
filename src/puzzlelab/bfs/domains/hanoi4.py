"""Towers of Hanoi with four pegs `hanoi4:N`: all N discs start on peg A; the goal is peg D.

A state gives the peg (0-3) of each disc, smallest disc first, four discs to a byte (2 bits each).
Every state is reachable (4^N of them), so read as integers the states are exactly 0 .. 4^N - 1.
Moves are named `A>B` (the top disc of peg A onto peg B). The start-to-goal distance is the Frame-Stewart number,
OEIS A007664 (proved optimal by Bousch, 2014).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlelab.lab.errors import InputError, quote
from puzzlelab.lab.jit import kernel

from ..domain import NO_MOVE, Domain, parse_int

PEGS = "ABCD"
INVERSE = np.array([4 * (m % 4) + m // 4 for m in range(16)], dtype=np.uint8)  # a>b is undone by b>a
_NO_PARENTS = np.empty(0, dtype=np.int64)


@kernel
def expand_moves_kernel(states, came_by, ndisc, out, moves, parent):
    """Every legal move of every state, except moving again the disc that came_by[i] moved (that child
    is a neighbour of the state's parent, never deeper than the state); returns the children written.

    parent[j] receives the row of child j's parent when `parent` is not empty."""
    n = states.shape[0]
    width = states.shape[1]
    m = 0
    for i in range(n):
        t0 = ndisc  # top disc of each peg (ndisc: empty)
        t1 = ndisc
        t2 = ndisc
        t3 = ndisc
        for d in range(ndisc - 1, -1, -1):
            p = (states[i, d >> 2] >> (2 * (d & 3))) & 3
            if p == 0:
                t0 = d
            elif p == 1:
                t1 = d
            elif p == 2:
                t2 = d
            else:
                t3 = d
        moved_to = came_by[i] & 3 if came_by[i] != NO_MOVE else 4
        for a in range(4):
            if a == moved_to:
                continue
            d = t0 if a == 0 else t1 if a == 1 else t2 if a == 2 else t3
            if d == ndisc:
                continue
            for b in range(4):
                top_b = t0 if b == 0 else t1 if b == 1 else t2 if b == 2 else t3
                if b == a or top_b < d:
                    continue
                for j in range(width):
                    out[m, j] = states[i, j]
                shift = 2 * (d & 3)
                out[m, d >> 2] = (out[m, d >> 2] & ~np.uint8(3 << shift)) | np.uint8(b << shift)
                moves[m] = 4 * a + b
                if parent.shape[0] > 0:
                    parent[m] = i
                m += 1
    return m


@njit(cache=True)
def _all_on_last_peg(states, goal):
    n = states.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        ok = True
        for j in range(states.shape[1]):
            if states[i, j] != goal[j]:
                ok = False
                break
        out[i] = ok
    return out


class Hanoi4(Domain):
    """Four-peg Towers of Hanoi with N discs."""

    max_children = 6
    reversible = True  # a disc goes back where it came from; odd cycles exist (three pegs), not bipartite
    inverse_moves = INVERSE
    codec = "gap-zstd"  # 2 bits a disc: every integer below 4^N is a state, so sorted sets are dense

    def __init__(self, n: int):
        self.n = n
        self.name = f"hanoi4:{n}"
        self.width = (n + 3) // 4
        self.space_size = 4**n
        self.start = np.zeros((1, self.width), dtype=np.uint8)
        self.goal = self.pack([3] * n)

    def pack(self, pegs) -> np.ndarray:
        row = np.zeros(self.width, dtype=np.uint8)
        for d, p in enumerate(pegs):
            row[d >> 2] |= p << (2 * (d & 3))
        return row

    def expand_moves(self, states, came_by, out, moves) -> int:
        return expand_moves_kernel(states, came_by, self.n, out, moves, _NO_PARENTS)

    def expand(self, states):
        states = np.ascontiguousarray(states, dtype=np.uint8)
        n = states.shape[0]
        out = np.empty((6 * n, self.width), dtype=np.uint8)
        moves = np.empty(6 * n, dtype=np.uint8)
        parent = np.empty(6 * n, dtype=np.int64)
        m = expand_moves_kernel(states, np.full(n, NO_MOVE, dtype=np.uint8), self.n, out, moves, parent)
        return out[:m], parent[:m], moves[:m]

    def is_goal(self, states):
        return _all_on_last_peg(states, self.goal)

    def format_state(self, row) -> str:
        row = np.asarray(row)
        return "".join(PEGS[(int(row[d >> 2]) >> (2 * (d & 3))) & 3] for d in range(self.n))

    def parse_state(self, text: str) -> np.ndarray:
        t = text.strip().upper()
        if len(t) != self.n or any(c not in PEGS for c in t):
            raise InputError(f"cannot read {self.name} state {quote(text)}: expected {self.n} peg letters A-D, "
                             "the smallest disc first")
        return self.pack([PEGS.index(c) for c in t])

    def format_move(self, move_id: int, parent_row=None) -> str:
        return f"{PEGS[int(move_id) // 4]}>{PEGS[int(move_id) % 4]}"


def make(arg: str) -> Hanoi4:
    return Hanoi4(parse_int(arg, "the number of discs", f"hanoi4:{arg}", 1, 32))
