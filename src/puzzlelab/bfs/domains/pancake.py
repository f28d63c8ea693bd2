"""Pancake sorting `pancake:N`: flip the top k pancakes (2 <= k <= N); start = sorted stack.

A state is the stack from the top, pancake sizes 0..N-1 packed two to a byte. Layer counts are
OEIS A092113 (row N); the deepest layer is the pancake number (A058986).
"""

from __future__ import annotations

import math
import re

import numpy as np
from numba import njit

from puzzlelab.lab.errors import InputError, quote

from ..domain import Domain, parse_int
from .nibbles import pack, pack_row, unpack, unpack_row


@njit(cache=True)
def _expand(states, n):
    rows = states.shape[0]
    width = states.shape[1]
    children = np.empty((rows * (n - 1), width), dtype=np.uint8)
    parent = np.empty(rows * (n - 1), dtype=np.int64)
    move = np.empty(rows * (n - 1), dtype=np.uint8)
    cells = np.empty(n, dtype=np.uint8)
    flipped = np.empty(n, dtype=np.uint8)
    m = 0
    for i in range(rows):
        unpack_row(states[i], cells, n)
        for k in range(2, n + 1):
            for j in range(k):
                flipped[j] = cells[k - 1 - j]
            for j in range(k, n):
                flipped[j] = cells[j]
            pack_row(flipped, n, children[m])
            parent[m] = i
            move[m] = k
            m += 1
    return children, parent, move


class Pancake(Domain):
    """Unburnt pancake stack of N pancakes."""

    def __init__(self, n: int):
        self.n = n
        self.name = f"pancake:{n}"
        self.width = (n + 1) // 2
        self.max_children = n - 1
        self.space_size = math.factorial(n)
        self.start = pack(range(n), self.width)[None, :]

    def expand(self, states):
        return _expand(states, self.n)

    def format_state(self, row) -> str:
        return ",".join(str(v + 1) for v in unpack(row, self.n))

    def parse_state(self, text: str) -> np.ndarray:
        tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
        try:
            values = [int(t) for t in tokens]
        except ValueError:
            raise InputError(f"cannot read {self.name} state {quote(text)}: expected pancake sizes "
                             f"1..{self.n}") from None
        if sorted(values) != list(range(1, self.n + 1)):
            raise InputError(f"cannot read {self.name} state {quote(text)}: expected each size 1..{self.n} "
                             "exactly once, top of the stack first")
        return pack([v - 1 for v in values], self.width)

    def format_move(self, move_id: int, parent_row=None) -> str:
        return f"flip{int(move_id)}"


def make(arg: str) -> Pancake:
    return Pancake(parse_int(arg, "the number of pancakes", f"pancake:{arg}", 2, 16))
