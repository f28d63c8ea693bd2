"""Partner pruning: the second half of a round is enumerated against the first half's actual table.

Once one half's table for budget b is built, a partial of the other half is worth extending only
while some entry of that table could still pair with it: an entry e survives while its pieces are
disjoint from the partial's and ``cost_e + seam mismatches so far`` leaves room for the partial's
cost and its own suffix bound. The surviving entries are kept column by column (the walk finishes
a column, lays its seam colour, and filters the list of the column before), so the test for a
candidate is one lookup: ``best[j][s]``, the least ``cost_e + mismatches`` if the candidate lays
seam colour s in column j.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...lab.jit import kernel
from .bounds import mis

NONE = 1 << 30


class Partners(NamedTuple):
    """The first half's table, seen from the second half (seam read in the second half's column order)."""

    on: bool
    seam: np.ndarray  # (E, W) uint8
    cost: np.ndarray  # (E,) int64
    bits: np.ndarray  # (E, words) uint64

    @property
    def size(self) -> int:
        return int(self.cost.shape[0]) if self.on else 0

    @staticmethod
    def off(width: int, words: int) -> Partners:
        return Partners(False, np.zeros((0, width), np.uint8), np.zeros(0, np.int64), np.zeros((0, words), np.uint64))

    @staticmethod
    def state_bytes(entries: int, width: int) -> int:
        """Memory the walk needs for the surviving lists (two int32 per entry and column)."""
        return 8 * entries * (width + 1)


def partners_for(entries: dict, reverse: bool, words: int) -> Partners:
    seam = entries["seam"][:, ::-1] if reverse else entries["seam"]
    return Partners(True, np.ascontiguousarray(seam), entries["cost"].astype(np.int64),
                    np.ascontiguousarray(entries["bits"]).reshape(len(entries["cost"]), words))


@kernel
def start(n_entries, alive, alive_n, m):
    """Level 0: every entry survives, no mismatch yet."""
    for e in range(n_entries):
        alive[0, e] = e
        m[0, e] = 0
    alive_n[0] = n_entries


@kernel
def column(j, ncol, alive, alive_n, m, p_seam, p_cost, best_row):
    """best_row[s] for column j; returns the least cost_e + m_e over the surviving entries."""
    low = NONE
    for s in range(ncol):
        best_row[s] = NONE
    for k in range(alive_n[j]):
        e = alive[j, k]
        v = p_cost[e] + m[j, k]
        if v < low:
            low = v
        s = p_seam[e, j]
        if s != 0 and v < best_row[s]:
            best_row[s] = v
    for s in range(ncol):
        v = low + 1
        if s != 0 and best_row[s] < v:
            v = best_row[s]
        best_row[s] = v
    return low


@kernel
def advance(j, s, alive, alive_n, m, p_seam, p_cost, p_bits, used, limit):
    """Level j+1 from level j once seam colour s is laid in column j and `used` holds the partial's pieces."""
    n = 0
    words = used.shape[0]
    for k in range(alive_n[j]):
        e = alive[j, k]
        mm = m[j, k] + mis(s, p_seam[e, j])
        if p_cost[e] + mm > limit:
            continue
        clash = False
        for w in range(words):
            if p_bits[e, w] & used[w]:
                clash = True
                break
        if clash:
            continue
        alive[j + 1, n] = e
        m[j + 1, n] = mm
        n += 1
    alive_n[j + 1] = n


__all__ = ["Partners", "partners_for", "start", "column", "advance", "NONE"]
