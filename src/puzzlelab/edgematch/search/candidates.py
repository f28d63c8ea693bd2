"""The candidate generator shared by the beam, DFS and LDS (numba): which placements a cell admits.

A state's placed neighbours of the current cell are given as `sides[j]` (side of the cell) and
`cols[j]` (colour the neighbour shows there), j < k. The gain of a candidate is the number of those
sides it matches. Three walks over the tables of `tables.py`, each in a fixed order:

- `matching_all`: candidates matching all k >= 2 sides, from the pair-indexed lists;
- `matching_sides`: candidates matching at least one side, each listed once (under the first side
  it matches), with their gain;
- `fitting`: every unused candidate of the cell type, with its gain.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def is_used(used, i, p):
    """Bit p of state i's used-piece bitset."""
    return (used[i, p >> 6] >> np.uint64(p & 63)) & np.uint64(1)


@njit(cache=True, inline="always")
def neighbours(i, d, st_pr, nb_k, nb_side, nb_depth, nb_fixcol, rotcol, sides, cols):
    """Fill sides/cols with the placed neighbours of the cell at depth d for state i; returns k."""
    k = nb_k[d]
    for j in range(k):
        s = nb_side[d, j]
        e = nb_depth[d, j]
        sides[j] = s
        if e < 0:
            cols[j] = nb_fixcol[d, j]
        else:
            cols[j] = rotcol[st_pr[i, e], (s + 2) & 3]
    return k


@njit(cache=True)
def matching_all(i, t, k, sides, cols, used, pair_ptr, pair_pr, rotcol, ncol, out_pr, out_g, write):
    """Candidates matching all k >= 2 placed sides (written when `write`); returns how many."""
    a, b = sides[0], sides[1]
    ca, cb = cols[0], cols[1]
    if a > b:
        a, b, ca, cb = b, a, cb, ca
    pi = (0 if b == 1 else (1 if b == 2 else 2)) if a == 0 else (3 if (a == 1 and b == 2) else (4 if a == 1 else 5))
    code = ca * ncol + cb
    n = 0
    for x in range(pair_ptr[t, pi, code], pair_ptr[t, pi, code + 1]):
        pr = pair_pr[x]
        if is_used(used, i, pr >> 2):
            continue
        ok = True
        for j in range(2, k):
            if rotcol[pr, sides[j]] != cols[j]:
                ok = False
                break
        if ok:
            if write:
                out_pr[n] = pr
                out_g[n] = k
            n += 1
    return n


@njit(cache=True)
def matching_sides(i, t, k, sides, cols, used, side_ptr, side_pr, rotcol, gmin, gmax, out_pr, out_g, hist, write):
    """Candidates matching at least one placed side. With `write`, those with gmin <= gain <= gmax go to
    out_pr/out_g and their number is returned; otherwise hist[gain] counts all of them (returns the total)."""
    n = 0
    for j in range(k):
        s, c = sides[j], cols[j]
        for x in range(side_ptr[t, s, c], side_ptr[t, s, c + 1]):
            pr = side_pr[x]
            if is_used(used, i, pr >> 2):
                continue
            first = True
            for jj in range(j):
                if rotcol[pr, sides[jj]] == cols[jj]:
                    first = False
                    break
            if not first:
                continue
            g = 1
            for jj in range(j + 1, k):
                if rotcol[pr, sides[jj]] == cols[jj]:
                    g += 1
            if not write:
                hist[g] += 1
                n += 1
            elif gmin <= g <= gmax:
                out_pr[n] = pr
                out_g[n] = g
                n += 1
    return n


@njit(cache=True)
def fitting(i, t, k, sides, cols, used, fit_ptr, fit_pr, rotcol, gexact, out_pr, out_g):
    """Every unused candidate of type t with its gain (only gain == gexact when gexact >= 0)."""
    n = 0
    for x in range(fit_ptr[t], fit_ptr[t + 1]):
        pr = fit_pr[x]
        if is_used(used, i, pr >> 2):
            continue
        g = 0
        for j in range(k):
            if rotcol[pr, sides[j]] == cols[j]:
                g += 1
        if gexact < 0 or g == gexact:
            out_pr[n] = pr
            out_g[n] = g
            n += 1
    return n
