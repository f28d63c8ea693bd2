"""The candidate generator of the beam (numba): which placements a cell admits, given its placed neighbours.

A state's placed neighbours of the current cell are a `Probe`: `sides[j]` (side of the cell) and
`cols[j]` (colour the neighbour shows there), j < k. The gain of a candidate is the number of those
sides it matches. Three walks over the lists of `tables.Cands`, each in a fixed order:

- `matching_all`: candidates matching all k >= 2 sides, from the pair-indexed lists;
- `matching_sides`: candidates matching at least one side, each listed once (under the first side
  it matches), with their gain;
- `fitting`: every unused candidate of the cell type, with its gain.

`used[i]` is state i's used-piece bitset; a walk writes what it finds to an `Out` (or only counts).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...lab.jit import allocating_kernel, inline_kernel, kernel


class Probe(NamedTuple):
    """The placed neighbours of the cell being filled (first k entries): side of the cell, colour it meets."""

    sides: np.ndarray  # (4,) int64
    cols: np.ndarray  # (4,) int64


class Out(NamedTuple):
    """Where a walk writes its candidates: orientation codes and their gains."""

    pr: np.ndarray
    g: np.ndarray


@allocating_kernel
def new_probe():
    """A probe to fill (numba or Python)."""
    return Probe(np.empty(4, np.int64), np.empty(4, np.int64))


@inline_kernel
def is_used(used, i, p):
    """Bit p of state i's used-piece bitset."""
    return (used[i, p >> 6] >> np.uint64(p & 63)) & np.uint64(1)


@inline_kernel
def neighbours(lay, rotcol, st_pr, i, d, nb):
    """Fill the probe with the placed neighbours of the cell at depth d for state i; returns k."""
    k = lay.nb_k[d]
    for j in range(k):
        s = lay.nb_side[d, j]
        e = lay.nb_depth[d, j]
        nb.sides[j] = s
        if e < 0:
            nb.cols[j] = lay.nb_fixcol[d, j]
        else:
            nb.cols[j] = rotcol[st_pr[i, e], (s + 2) & 3]
    return k


@kernel
def matching_all(c, used, i, t, k, nb, out, write):
    """Candidates matching all k >= 2 placed sides (written when `write`); returns how many."""
    a, b = nb.sides[0], nb.sides[1]
    ca, cb = nb.cols[0], nb.cols[1]
    if a > b:
        a, b, ca, cb = b, a, cb, ca
    pi = (0 if b == 1 else (1 if b == 2 else 2)) if a == 0 else (3 if (a == 1 and b == 2) else (4 if a == 1 else 5))
    code = ca * c.ncol + cb
    n = 0
    for x in range(c.pair_ptr[t, pi, code], c.pair_ptr[t, pi, code + 1]):
        pr = c.pair_pr[x]
        if is_used(used, i, pr >> 2):
            continue
        ok = True
        for j in range(2, k):
            if c.rotcol[pr, nb.sides[j]] != nb.cols[j]:
                ok = False
                break
        if ok:
            if write:
                out.pr[n] = pr
                out.g[n] = k
            n += 1
    return n


@kernel
def matching_sides(c, used, i, t, k, nb, gmin, gmax, out, hist, write):
    """Candidates matching at least one placed side. With `write`, those with gmin <= gain <= gmax go to
    `out` and their number is returned; otherwise hist[gain] counts all of them (returns the total)."""
    n = 0
    for j in range(k):
        s, col = nb.sides[j], nb.cols[j]
        for x in range(c.side_ptr[t, s, col], c.side_ptr[t, s, col + 1]):
            pr = c.side_pr[x]
            if is_used(used, i, pr >> 2):
                continue
            first = True
            for jj in range(j):
                if c.rotcol[pr, nb.sides[jj]] == nb.cols[jj]:
                    first = False
                    break
            if not first:
                continue
            g = 1
            for jj in range(j + 1, k):
                if c.rotcol[pr, nb.sides[jj]] == nb.cols[jj]:
                    g += 1
            if not write:
                hist[g] += 1
                n += 1
            elif gmin <= g <= gmax:
                out.pr[n] = pr
                out.g[n] = g
                n += 1
    return n


@kernel
def fitting(c, used, i, t, k, nb, gexact, out):
    """Every unused candidate of type t with its gain (only gain == gexact when gexact >= 0)."""
    n = 0
    for x in range(c.fit_ptr[t], c.fit_ptr[t + 1]):
        pr = c.fit_pr[x]
        if is_used(used, i, pr >> 2):
            continue
        g = 0
        for j in range(k):
            if c.rotcol[pr, nb.sides[j]] == nb.cols[j]:
                g += 1
        if gexact < 0 or g == gexact:
            out.pr[n] = pr
            out.g[n] = g
            n += 1
    return n
