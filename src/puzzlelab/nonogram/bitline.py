"""Exact deduction on one black-and-white line of at most 62 cells, bit-parallel: one word per set of cells.

`o` holds the cells that may be black, `z` those that may be white (bit c = cell c). The same
dynamic programme as `linesolve`, but over sets of positions at once (bit p = "after p cells"):
forward, Gready[j] = positions where block j may start, Gfull[j] = positions right after blocks
0..j-1 and the white cells that follow them; backward, Hstart[j] / Hfull[j] the same for the suffix
holding blocks j..k-1. A block's possible starts are the positions where its run of black-able cells
fits (`_runs`), both tables agree; a cell may be black when a possible start of some block covers it
(`_cover`), and white when a prefix ending before it and a suffix starting after it hold all blocks
between them. Moving over white-able cells is an occluded fill (Kogge-Stone, 6 shifts), so a line
costs a few operations per block instead of one DP step per cell and block.
"""

from __future__ import annotations

import numpy as np

from ..lab.jit import inline_kernel, kernel

MAX_CELLS = 62  # positions 0..n must fit in a signed 64-bit word without touching its sign bit


@inline_kernel
def _fill_right(seeds, z, pmask):
    """Positions reachable from `seeds` by steps p -> p+1 over white-able cells p."""
    p = (z << 1) & pmask
    g = seeds
    g |= p & (g << 1)
    p &= p << 1
    g |= p & (g << 2)
    p &= p << 2
    g |= p & (g << 4)
    p &= p << 4
    g |= p & (g << 8)
    p &= p << 8
    g |= p & (g << 16)
    p &= p << 16
    g |= p & (g << 32)
    return g & pmask


@inline_kernel
def _fill_left(seeds, z):
    """Positions reachable from `seeds` by steps p -> p-1 over white-able cells p-1."""
    p = z
    g = seeds
    g |= p & (g >> 1)
    p &= p >> 1
    g |= p & (g >> 2)
    p &= p >> 2
    g |= p & (g >> 4)
    p &= p >> 4
    g |= p & (g >> 8)
    p &= p >> 8
    g |= p & (g >> 16)
    p &= p >> 16
    g |= p & (g >> 32)
    return g


@inline_kernel
def _runs(o, length):
    """Starts s whose cells s..s+length-1 are all in o."""
    r = o
    span = 1
    while span * 2 <= length:
        r &= r >> span
        span *= 2
    if span < length:
        r &= r >> (length - span)
    return r


@inline_kernel
def _cover(starts, length, cmask):
    """Cells covered by a block of `length` at any of `starts`."""
    c = starts
    span = 1
    while span * 2 <= length:
        c |= c << span
        span *= 2
    if span < length:
        c |= c << (length - span)
    return c & cmask


@kernel
def solve_bits(o, z, n, blen, k, tab):
    """Narrow a line: returns (ok, o', z'); tab is (4, k+1) int64 scratch for the per-block position sets."""
    one = np.int64(1)
    cmask = (one << n) - 1
    pmask = (one << (n + 1)) - 1
    o &= cmask
    z &= cmask
    # Forward: tab[0, j] = Gfull_j (after blocks 0..j-1 and white cells), tab[1, j] = starts of block j.
    ready = _fill_right(one, z, pmask)
    tab[0, 0] = ready
    for j in range(k):
        length = blen[j]
        st = ready & _runs(o, length)
        tab[1, j] = st
        ends = (st << length) & pmask
        ready = _fill_right(((ends & z) << 1) & pmask, z, pmask)  # block j+1 may start here
        tab[0, j + 1] = ready | ends
    if tab[0, k] >> n & 1 == 0:
        return False, o, z
    # Backward: tab[2, j] = Hfull_j (before blocks j..k-1, white cells first), tab[3, j] = starts of block j.
    full = _fill_left(one << n, z)
    tab[2, k] = full
    bo = np.int64(0)
    for j in range(k - 1, -1, -1):
        length = blen[j]
        ends = full if j == k - 1 else z & (full >> 1)  # block j may end here: the rest fits after it
        st = _runs(o, length) & (ends >> length)
        tab[3, j] = st
        full = _fill_left(st, z)
        tab[2, j] = full
        bo |= _cover(st & tab[1, j], length, cmask)
    bz = np.int64(0)
    for j in range(k + 1):
        bz |= tab[0, j] & (tab[2, j] >> 1)
    return True, o & bo, z & bz & cmask
