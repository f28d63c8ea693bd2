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

from typing import NamedTuple

import numpy as np

from ...lab.jit import allocating_kernel, inline_kernel

INF = 255  # "no filling possible": larger than any budget


class Grid(NamedTuple):
    """The candidates of a half (or of a virtual half), cell t = column * rows + row: their colours."""

    rows: int
    width: int
    ncol: int
    ptr: np.ndarray  # (n + 1,) candidates of cell t: ptr[t]:ptr[t + 1]
    u: np.ndarray
    r: np.ndarray
    d: np.ndarray
    l: np.ndarray  # noqa: E741 - the left side, like u, r, d


def grid_of(half, ncol: int) -> Grid:
    """The grid of a `band.Half`."""
    return Grid(half.rows, half.width, ncol, half.cand_ptr, half.cand_u, half.cand_r, half.cand_d, half.cand_l)


@inline_kernel
def mis(a, b):
    """1 when two touching edge colours do not match (grey, colour 0, never matches inside the board)."""
    return 0 if (a == b and a != 0) else 1


@allocating_kernel
def fill_bounds(grid, cost, unit, cap, lb):
    """Fill ``lb`` (n + 1, C**(rows + 1)) backwards: a mismatch costs `unit`, candidate q costs
    `cost[q]` on top (its fixed-neighbour mismatches times `unit`, plus any penalty), saturated at `cap`."""
    rows, width, ncol = grid.rows, grid.width, grid.ncol
    cand_ptr, cand_u, cand_r, cand_d, cand_l = grid.ptr, grid.u, grid.r, grid.d, grid.l
    n = rows * width
    pw = np.empty(rows + 2, np.int64)
    pw[0] = 1
    for k in range(1, rows + 2):
        pw[k] = pw[k - 1] * ncol
    big = np.int64(cap)
    m_left = np.empty(ncol, np.int64)
    m_up = np.empty(ncol, np.int64)
    m_both = np.empty((ncol, ncol), np.int64)
    nrest = pw[rows - 1]  # assignments of the right colours of the other rows
    for s in range(lb.shape[1]):
        lb[n, s] = 0
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
            m_all = big
            for a in range(ncol):
                m_left[a] = big
                m_up[a] = big
                for b in range(ncol):
                    m_both[a, b] = big
            for q in range(cand_ptr[t], cand_ptr[t + 1]):
                idx = base + cand_r[q] * pw[i]
                if i < rows - 1:
                    idx += cand_d[q] * pw[rows]
                v = np.int64(cost[q]) + np.int64(nxt[idx])
                if v > big:
                    v = big
                if v < m_all:
                    m_all = v
                if left_free and v < m_left[cand_l[q]]:
                    m_left[cand_l[q]] = v
                if up_free and v < m_up[cand_u[q]]:
                    m_up[cand_u[q]] = v
                if left_free and up_free and v < m_both[cand_l[q], cand_u[q]]:
                    m_both[cand_l[q], cand_u[q]] = v
            extra = ((1 if left_free else 0) + (1 if up_free else 0)) * unit
            for a in range(ncol if left_free else 1):
                for b in range(ncol if up_free else 1):
                    val = m_all + extra
                    if left_free and a != 0:
                        w = m_left[a] + (unit if up_free else 0)
                        if w < val:
                            val = w
                    if up_free and b != 0:
                        w = m_up[b] + (unit if left_free else 0)
                        if w < val:
                            val = w
                    if left_free and up_free and a != 0 and b != 0:
                        if m_both[a, b] < val:
                            val = m_both[a, b]
                    if val > big:
                        val = big
                    cur[base + a * pw[i] + b * pw[rows]] = val


def suffix_bounds(grid: Grid, static: np.ndarray) -> np.ndarray:
    """The table ``lb`` of shape (n + 1, C**(rows + 1)), uint8 mismatches, saturated at INF."""
    lb = np.zeros((grid.rows * grid.width + 1, grid.ncol ** (grid.rows + 1)), np.uint8)
    fill_bounds(grid, static.astype(np.int64), 1, INF, lb)
    return lb


@allocating_kernel
def trace_counts(grid, cost, unit, cand_bit, lb, counts):
    """Follow one optimal relaxed filling from the empty profile; counts[bit] += uses of each piece."""
    rows, width, ncol = grid.rows, grid.width, grid.ncol
    cand_ptr, cand_u, cand_r, cand_d, cand_l = grid.ptr, grid.u, grid.r, grid.d, grid.l
    n = rows * width
    pw = np.empty(rows + 2, np.int64)
    pw[0] = 1
    for k in range(1, rows + 2):
        pw[k] = pw[k - 1] * ncol
    right = np.zeros(rows, np.int64)
    down = 0
    for t in range(n):
        i = t % rows
        j = t // rows
        if i == 0:
            down = 0
        base = 0
        for k in range(rows):
            if k != i:
                base += right[k] * pw[k]
        here = np.int64(lb[t, base + right[i] * pw[i] + down * pw[rows]])
        pick = -1
        for q in range(cand_ptr[t], cand_ptr[t + 1]):
            v = np.int64(cost[q])
            if j > 0:
                v += 0 if (cand_l[q] == right[i] and right[i] != 0) else unit
            if i > 0:
                v += 0 if (cand_u[q] == down and down != 0) else unit
            idx = base + cand_r[q] * pw[i]
            if i < rows - 1:
                idx += cand_d[q] * pw[rows]
            v += np.int64(lb[t + 1, idx])
            if v == here:
                pick = q
                break
        if pick < 0:
            return False
        counts[cand_bit[pick]] += 1
        right[i] = cand_r[pick]
        down = cand_d[pick] if i < rows - 1 else 0
    return True


def table_bytes(rows: int, width: int, ncol: int) -> int:
    """Memory of one table, for the memory budget."""
    return (rows * width + 1) * ncol ** (rows + 1)


def start_bound(lb: np.ndarray) -> int:
    """The least cost of the whole half (profile of the empty half is index 0)."""
    return int(lb[0, 0])


__all__ = ["INF", "Grid", "grid_of", "mis", "fill_bounds", "suffix_bounds", "trace_counts", "table_bytes",
           "start_bound"]
