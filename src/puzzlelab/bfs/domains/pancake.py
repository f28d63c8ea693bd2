"""Pancake sorting `pancake:N[:packed]`: flip the top k pancakes (2 <= k <= N); start = sorted stack.

A stack lists the pancake sizes 0..N-1 from the top. It is stored as the lexicographic rank of the
stack read from the bottom up (`ranking.py`; dense sets, for the `gap` codecs), or with `:packed`
as the sizes two to a byte. Layer counts are OEIS A092113 (row N); the deepest layer is the
pancake number (A058986). A flip undoes itself, so the graph is undirected (not bipartite: flips
of 2 and of 4 pancakes are permutations of different parity).
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

from puzzlelab.lab.errors import InputError, quote
from puzzlelab.lab.jit import inline_kernel, kernel

from ..domain import NO_MOVE, Domain, parse_int
from .nibbles import pack, unpack
from .ranking import rank_of, rank_tables, rank_width, unrank_into

INVERSE = np.arange(17, dtype=np.uint8)  # flip k undoes itself
_NO_PARENTS = np.empty(0, dtype=np.int64)


class Stack(NamedTuple):
    """What the expansion kernel knows about the stacks, and its scratch."""

    n: int
    width: int
    ranked: bool
    weight: np.ndarray
    recip: np.ndarray
    above: np.ndarray
    sig: np.ndarray  # uint8 (n): the stack from the bottom up
    flipped: np.ndarray  # uint8 (n): scratch


@inline_kernel
def _read(s, row):
    """The stack of a state row into s.sig (sig[k] = pancake k-th from the bottom)."""
    n = s.n
    if s.ranked:
        r = np.uint64(0)
        for j in range(s.width - 1, -1, -1):
            r = (r << np.uint64(8)) | np.uint64(row[j])
        unrank_into(r, n, s.weight, s.recip, s.sig)
    else:
        for c in range(n):  # c = position from the top
            v = row[c >> 1]
            s.sig[n - 1 - c] = (v >> 4) if (c & 1) else (v & 15)


@inline_kernel
def _write(s, stack, out, m):
    n = s.n
    if s.ranked:
        r = rank_of(stack, n, s.weight, s.above)
        for j in range(s.width):
            out[m, j] = np.uint8(r & np.uint64(255))
            r >>= np.uint64(8)
    else:
        for j in range(s.width):
            out[m, j] = 0
        for c in range(n):
            out[m, c >> 1] |= np.uint8(stack[n - 1 - c] << (4 * (c & 1)))


@kernel
def expand_moves_kernel(s, states, came_by, out, moves, parent):
    """Every flip of every stack but the one that produced it (it would undo it); returns the children."""
    n = s.n
    m = 0
    for i in range(states.shape[0]):
        _read(s, states[i])
        for k in range(2, n + 1):
            if k == came_by[i]:
                continue
            # the top k pancakes (sig[n-k:]) reversed
            for j in range(n - k):
                s.flipped[j] = s.sig[j]
            for j in range(k):
                s.flipped[n - k + j] = s.sig[n - 1 - j]
            _write(s, s.flipped, out, m)
            moves[m] = k
            if parent.shape[0] > 0:
                parent[m] = i
            m += 1
    return m


class Pancake(Domain):
    """Unburnt pancake stack of N pancakes."""

    reversible = True
    inverse_moves = INVERSE

    def __init__(self, n: int, packed: bool = False):
        self.n = n
        self.ranked = not packed
        self.name = f"pancake:{n}" + (":packed" if packed else "")
        self.width = rank_width(n) if self.ranked else (n + 1) // 2
        self.codec = "gap-zstd" if self.ranked else "rowfilter-zstd"
        self.max_children = n - 1
        self.space_size = math.factorial(n)
        weight, recip, above = rank_tables(n)
        self.stack = Stack(n, self.width, self.ranked, weight, recip, above, np.zeros(n, dtype=np.uint8),
                           np.zeros(n, dtype=np.uint8))
        self.start = self.pack(list(range(n)))[None, :]

    def expand_moves(self, states, came_by, out, moves) -> int:
        return expand_moves_kernel(self.stack, states, came_by, out, moves, _NO_PARENTS)

    def expand(self, states):
        states = np.ascontiguousarray(states, dtype=np.uint8)
        n = states.shape[0]
        out = np.empty((self.max_children * n, self.width), dtype=np.uint8)
        moves = np.empty(out.shape[0], dtype=np.uint8)
        parent = np.empty(out.shape[0], dtype=np.int64)
        m = expand_moves_kernel(self.stack, states, np.full(n, NO_MOVE, dtype=np.uint8), out, moves, parent)
        return out[:m], parent[:m], moves[:m]

    def pack(self, sizes) -> np.ndarray:
        """The state row of a stack (sizes 0..N-1 from the top)."""
        if not self.ranked:
            return pack(sizes, self.width)
        sig = [int(v) for v in reversed(list(sizes))]
        r, used = 0, []
        for k, v in enumerate(sig):
            r += (v - sum(1 for u in used if u < v)) * math.factorial(self.n - 1 - k)
            used.append(v)
        return np.frombuffer(int(r).to_bytes(self.width, "little"), dtype=np.uint8).copy()

    def sizes(self, row) -> list[int]:
        """The stack of a state row (sizes 0..N-1 from the top)."""
        row = np.asarray(row, dtype=np.uint8)
        if not self.ranked:
            return unpack(row, self.n)
        r = int.from_bytes(row.tobytes(), "little")
        pool, sig = list(range(self.n)), []
        for k in range(self.n):
            f = math.factorial(self.n - 1 - k)
            sig.append(pool.pop(r // f))
            r %= f
        return sig[::-1]

    def format_state(self, row) -> str:
        return ",".join(str(v + 1) for v in self.sizes(row))

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
        return self.pack([v - 1 for v in values])

    def format_move(self, move_id: int, parent_row=None) -> str:
        return f"flip{int(move_id)}"


def make(arg: str) -> Pancake:
    number, _, option = arg.partition(":")
    if option not in ("", "packed"):
        raise InputError(f"cannot read domain {quote('pancake:' + arg)}: expected pancake:N or pancake:N:packed")
    return Pancake(parse_int(number, "the number of pancakes", f"pancake:{arg}", 2, 16), packed=option == "packed")
