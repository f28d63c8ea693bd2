"""Shared by the BFS tests: published layer counts, a search helper, a directed test graph."""

from __future__ import annotations

import numpy as np

from puzzlelab.bfs import published as P
from puzzlelab.bfs.domain import Domain
from puzzlelab.bfs.engine import search
from puzzlelab.domains import make_domain

# Published layer counts (OEIS): the one copy is puzzlelab.bfs.published.
A089473, A089474, A089483 = list(P.A089473), list(P.A089474), list(P.A089483)
A079761 = list(P.A079761)
A092113_ROWS = {n: list(row) for n, row in P.A092113.items()}
A007664 = list(P.A007664)
A089484, A090164, A090165 = list(P.A089484), list(P.A090164), list(P.A090165)


def layers(spec: str, **kw) -> list[int]:
    with search(make_domain(spec), progress=False, **kw) as res:
        return res.layers


def eight_puzzle_search(tags: str = "auto"):
    """The whole 8-puzzle space, layers kept (a module fixture of the tests that need it)."""
    return search(make_domain("sliding:3x3"), progress=False, memory_budget="256M", tags=tags)


class Collatz(Domain):
    """A directed test graph on 0..n-1: x -> 2x mod n and x -> (3x + 1) mod n, as states of `width`
    bytes whose bytes `at` hold x (most significant first; every other byte is zero)."""

    max_children = 2

    def __init__(self, n: int, width: int = 3, at: tuple[int, ...] = (0, 1, 2)):
        self.n = n
        self.width = width
        self.at = at
        self.name = f"collatz:{n}"
        self.start = self.rows([1])

    def value(self, rows):
        x = np.zeros(rows.shape[0], dtype=np.int64)
        for pos in self.at:
            x = (x << 8) | rows[:, pos]
        return x

    def rows(self, values):
        values = np.asarray(values, dtype=np.int64)
        out = np.zeros((values.shape[0], self.width), dtype=np.uint8)
        for i, pos in enumerate(self.at):
            out[:, pos] = (values >> (8 * (len(self.at) - 1 - i))) & 255
        return out

    def expand(self, states):
        x = self.value(states)
        children = np.concatenate([self.rows((2 * x) % self.n), self.rows((3 * x + 1) % self.n)])
        parent = np.concatenate([np.arange(len(x)), np.arange(len(x))]).astype(np.int64)
        move = np.concatenate([np.zeros(len(x)), np.ones(len(x))]).astype(np.uint8)
        return children, parent, move


def collatz_layers(n: int) -> list[int]:
    seen, frontier, expected = {1}, [1], [1]
    while frontier:
        nxt = []
        for x in frontier:
            for y in ((2 * x) % n, (3 * x + 1) % n):
                if y not in seen:
                    seen.add(y)
                    nxt.append(y)
        frontier = nxt
        if nxt:
            expected.append(len(nxt))
    return expected
