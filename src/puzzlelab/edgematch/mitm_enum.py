"""Enumerate every filling of one half of a band within a mismatch budget (numba DFS kernel).

Cells are visited column by column, top to bottom inside a column (cell t = column * rows + row),
so the suffix bound of `mitm_bounds` is a table lookup. Each complete filling is recorded as
(piece-set bitset, seam colour row, cost); the filling itself is not stored: it is rebuilt on
demand by re-running the same deterministic walk up to its leaf index (`replay`).

The walk is an explicit-stack DFS whose whole state lives in `WalkState`, so the kernel can stop
when the record buffer is full or a node quota is used up, and resume exactly where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from .mitm_bounds import mis

DONE, FULL, QUOTA, FOUND = 0, 1, 2, 3


@njit(cache=True)
def _enter(t, rows, width, pw, chosen, cand_r, rest):
    """Profile part of depth t that placing cell t does not change (right colours of the other rows)."""
    i = t % rows
    j = t // rows
    base = 0
    for k in range(rows):
        if k < i:
            base += cand_r[chosen[j * rows + k]] * pw[k]
        elif k > i and j > 0:
            base += cand_r[chosen[(j - 1) * rows + k]] * pw[k]
    rest[t] = base


@njit(cache=True)
def walk(rows, width, ncol, seam, cand_ptr, cand_bit, cand_u, cand_r, cand_d, cand_l, static, lb, budget,
         st_t, ci, chosen, g, used, rest, counters,
         rec_bits, rec_seam, rec_cost, node_quota, target):
    """Advance the DFS. Returns DONE, FULL (record buffer full), QUOTA (node quota used) or FOUND.

    counters: [leaves, nodes, pruned, recorded]. With target >= 0 nothing is recorded and the walk
    stops with FOUND when leaf number `target` is reached (`chosen` then holds that filling).
    """
    n = rows * width
    pw = np.empty(rows + 2, np.int64)
    pw[0] = 1
    for k in range(1, rows + 2):
        pw[k] = pw[k - 1] * ncol
    cap = rec_cost.shape[0]
    nodes_here = 0
    t = st_t[0]
    while t >= 0:
        if t == n:
            leaf = counters[0]
            if target >= 0:
                if leaf == target:
                    st_t[0] = t
                    return FOUND
            else:
                rc = counters[3]
                if rc >= cap:
                    st_t[0] = t
                    return FULL
                for w in range(used.shape[0]):
                    rec_bits[rc, w] = used[w]
                if seam:
                    for j in range(width):
                        rec_seam[rc, j] = cand_d[chosen[j * rows + rows - 1]]
                rec_cost[rc] = g[n]
                counters[3] = rc + 1
            counters[0] = leaf + 1
            t -= 1
            b = cand_bit[chosen[t]]
            used[b >> 6] &= ~(np.uint64(1) << np.uint64(b & 63))
            continue
        q = ci[t]
        if q >= cand_ptr[t + 1]:
            if t == 0:
                t = -1
                break
            t -= 1
            b = cand_bit[chosen[t]]
            used[b >> 6] &= ~(np.uint64(1) << np.uint64(b & 63))
            continue
        if nodes_here >= node_quota:
            st_t[0] = t
            return QUOTA
        ci[t] = q + 1
        nodes_here += 1
        counters[1] += 1
        b = cand_bit[q]
        if (used[b >> 6] >> np.uint64(b & 63)) & np.uint64(1):
            continue
        i = t % rows
        c = np.int32(g[t]) + np.int32(static[q])
        if i > 0:
            c += mis(cand_u[q], cand_d[chosen[t - 1]])
        if t >= rows:
            c += mis(cand_l[q], cand_r[chosen[t - rows]])
        idx = rest[t] + cand_r[q] * pw[i]
        if i < rows - 1:
            idx += cand_d[q] * pw[rows]
        if c + np.int32(lb[t + 1, idx]) > budget:
            counters[2] += 1
            continue
        chosen[t] = q
        used[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
        g[t + 1] = c
        t += 1
        if t < n:
            ci[t] = cand_ptr[t]
            _enter(t, rows, width, pw, chosen, cand_r, rest)
    st_t[0] = -1
    return DONE


@dataclass
class WalkState:
    """The resumable state of one walk: DFS stack, piece bitset and counters."""

    n: int
    words: int
    t: np.ndarray = field(init=False)
    ci: np.ndarray = field(init=False)
    chosen: np.ndarray = field(init=False)
    g: np.ndarray = field(init=False)
    used: np.ndarray = field(init=False)
    rest: np.ndarray = field(init=False)
    counters: np.ndarray = field(init=False)

    def __post_init__(self):
        self.t = np.zeros(1, np.int64)
        self.ci = np.zeros(self.n + 1, np.int64)
        self.chosen = np.zeros(max(self.n, 1), np.int64)
        self.g = np.zeros(self.n + 1, np.int32)
        self.used = np.zeros(self.words, np.uint64)
        self.rest = np.zeros(self.n + 1, np.int64)
        self.counters = np.zeros(4, np.int64)

    @property
    def leaves(self) -> int:
        return int(self.counters[0])

    @property
    def nodes(self) -> int:
        return int(self.counters[1])

    @property
    def pruned(self) -> int:
        return int(self.counters[2])


__all__ = ["DONE", "FULL", "QUOTA", "FOUND", "walk", "WalkState"]
