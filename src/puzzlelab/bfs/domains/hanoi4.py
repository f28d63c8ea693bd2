"""Towers of Hanoi with four pegs `hanoi4:N`: all N discs start on peg A; the goal is peg D.

A state gives the peg (0-3) of each disc, smallest disc first, four discs to a byte (2 bits each).
Every state is reachable (4^N of them). The start-to-goal distance is the Frame-Stewart number,
OEIS A007664 (proved optimal by Bousch, 2014).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlelab.lab.errors import InputError, quote

from ..domain import Domain, parse_int

PEGS = "ABCD"


@njit(cache=True)
def _expand(states, ndisc):
    n = states.shape[0]
    width = states.shape[1]
    children = np.empty((n * 6, width), dtype=np.uint8)
    parent = np.empty(n * 6, dtype=np.int64)
    move = np.empty(n * 6, dtype=np.uint8)
    top = np.empty(4, dtype=np.int64)
    m = 0
    for i in range(n):
        for p in range(4):
            top[p] = ndisc  # empty peg
        for d in range(ndisc - 1, -1, -1):
            p = (states[i, d >> 2] >> (2 * (d & 3))) & 3
            top[p] = d
        for a in range(4):
            d = top[a]
            if d == ndisc:
                continue
            for b in range(4):
                if b == a or top[b] < d:
                    continue
                for j in range(width):
                    children[m, j] = states[i, j]
                shift = 2 * (d & 3)
                children[m, d >> 2] = (children[m, d >> 2] & ~np.uint8(3 << shift)) | np.uint8(b << shift)
                parent[m] = i
                move[m] = 4 * a + b
                m += 1
    return children[:m], parent[:m], move[:m]


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

    def expand(self, states):
        return _expand(states, self.n)

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
