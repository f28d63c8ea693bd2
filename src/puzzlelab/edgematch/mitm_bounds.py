"""Suffix lower-bound tables for one half of a band, built backwards column by column.

A half is filled column by column (top to bottom inside a column). After cell t is placed, the
only colours the rest of the half can still see are its *profile*: the right colour of the last
placed cell of every row and the down colour of cell t (when the column is not finished). The
table ``lb[t, profile]`` is the least number of mismatches cells t..n-1 can still make given that
profile, with pieces allowed to repeat (the relaxation that makes the table exact-and-cheap yet
admissible). The middle seam is free here: its mismatches are counted by the join.

Profile index: ``sum(right[k] * C**k for k < rows) + down * C**rows`` with C colours.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INF = 255  # "no filling possible": larger than any budget


@njit(cache=True)
def mis(a, b):
    """1 when two touching edge colours do not match (grey, colour 0, never matches inside the board)."""
    return 0 if (a == b and a != 0) else 1


@njit(cache=True)
def suffix_bounds(rows, width, ncol, cand_ptr, cand_u, cand_r, cand_d, cand_l, static):
    """The table ``lb`` of shape (n + 1, C**(rows + 1)), uint8, saturated at INF."""
    n = rows * width
    pw = np.empty(rows + 2, np.int64)
    pw[0] = 1
    for k in range(1, rows + 2):
        pw[k] = pw[k - 1] * ncol
    nstates = pw[rows + 1]
    lb = np.zeros((n + 1, nstates), np.uint8)
    m_left = np.empty(ncol, np.int32)
    m_up = np.empty(ncol, np.int32)
    m_both = np.empty((ncol, ncol), np.int32)
    nrest = pw[rows - 1]  # assignments of the right colours of the other rows
    for t in range(n - 1, -1, -1):
        i = t % rows
        j = t // rows
        up_free = i > 0
        left_free = j > 0
        nxt = lb[t + 1]
        cur = lb[t]
        for rest in range(nrest):
            # spread `rest` over the rows other than i
            base = 0
            rr = rest
            for k in range(rows):
                if k == i:
                    continue
                base += (rr % ncol) * pw[k]
                rr //= ncol
            m_all = INF
            for a in range(ncol):
                m_left[a] = INF
                m_up[a] = INF
                for b in range(ncol):
                    m_both[a, b] = INF
            for q in range(cand_ptr[t], cand_ptr[t + 1]):
                idx = base + cand_r[q] * pw[i]
                if i < rows - 1:
                    idx += cand_d[q] * pw[rows]
                v = np.int32(static[q]) + np.int32(nxt[idx])
                if v > INF:
                    v = INF
                if v < m_all:
                    m_all = v
                if left_free and v < m_left[cand_l[q]]:
                    m_left[cand_l[q]] = v
                if up_free and v < m_up[cand_u[q]]:
                    m_up[cand_u[q]] = v
                if left_free and up_free and v < m_both[cand_l[q], cand_u[q]]:
                    m_both[cand_l[q], cand_u[q]] = v
            extra = (1 if left_free else 0) + (1 if up_free else 0)
            for a in range(ncol if left_free else 1):
                for b in range(ncol if up_free else 1):
                    val = m_all + extra
                    if left_free and a != 0:
                        w = m_left[a] + (1 if up_free else 0)
                        if w < val:
                            val = w
                    if up_free and b != 0:
                        w = m_up[b] + (1 if left_free else 0)
                        if w < val:
                            val = w
                    if left_free and up_free and a != 0 and b != 0:
                        if m_both[a, b] < val:
                            val = m_both[a, b]
                    if val > INF:
                        val = INF
                    cur[base + a * pw[i] + b * pw[rows]] = val
    return lb


def table_bytes(rows: int, width: int, ncol: int) -> int:
    """Memory of one table, for the memory budget."""
    return (rows * width + 1) * ncol ** (rows + 1)


def start_bound(lb: np.ndarray) -> int:
    """The least cost of the whole half (profile of the empty half is index 0)."""
    return int(lb[0, 0])


__all__ = ["INF", "mis", "suffix_bounds", "table_bytes", "start_bound"]
