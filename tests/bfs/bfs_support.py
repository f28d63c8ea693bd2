"""Shared by the BFS tests: published layer counts, a search helper, a directed test graph."""

from __future__ import annotations

import numpy as np

from puzzlelab.bfs.domain import Domain
from puzzlelab.bfs.engine import search
from puzzlelab.domains import make_domain

# Published layer counts (OEIS), checked against the OEIS pages and the shared reference file.
A089473 = [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878, 16993,
           17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2]  # 8-puzzle, blank in a corner
A089474 = [1, 4, 8, 8, 16, 32, 60, 72, 136, 200, 376, 512, 964, 1296, 2368, 3084, 5482, 6736, 11132, 12208, 18612,
           18444, 24968, 19632, 22289, 13600, 11842, 4340, 2398, 472, 148]  # 8-puzzle, blank in the centre
A089483 = [1, 3, 5, 10, 14, 28, 42, 80, 108, 202, 278, 524, 726, 1348, 1804, 3283, 4193, 7322, 8596, 13930, 14713,
           21721, 19827, 25132, 18197, 18978, 9929, 7359, 2081, 878, 126, 2]  # 8-puzzle, blank mid-side
A079761 = [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]  # 2x2x2 cube, HTM
A092113_ROWS = {4: [1, 3, 6, 11, 3], 5: [1, 4, 12, 35, 48, 20], 6: [1, 5, 20, 79, 199, 281, 133, 2],
                7: [1, 6, 30, 149, 543, 1357, 1903, 1016, 35]}  # pancakes
A007664 = [0, 1, 3, 5, 9, 13, 17, 25, 33]  # four-peg Hanoi, start -> goal peg
A089484 = [1, 2, 4, 10, 24, 54, 107, 212, 446, 946, 1948, 3938, 7808, 15544, 30821, 60842, 119000, 231844, 447342,
           859744]  # 15-puzzle, blank in a corner
A090164 = [1, 4, 10, 20, 38, 80, 174, 372, 762, 1540, 3072, 6196]  # 15-puzzle, blank in a centre square
A090165 = [1, 3, 6, 14, 32, 66, 134, 280, 585, 1214, 2462, 4946]  # 15-puzzle, blank mid-edge


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
