"""Exact deduction on one line: which colours each cell can still take, over all placements of its blocks.

A cell holds a bit mask of the palette indices it may still take (bit 0 = background). Dynamic
programming over (block, cell) decides, for every prefix, whether the first j blocks fit in it
(forward table P) and, for every suffix, whether blocks j.. fit in it (backward table S). A block
may start at s when its cells all allow its colour and the prefix/suffix tables agree; adjacent
blocks of the same colour need a background cell between them, blocks of different colours do not.
Block j can only start in a window [lo_j, hi_j]: the clue alone bounds it, and a greedy scan of the
cells as they are narrows it (earliest/latest start where the block fits after the blocks before it /
before the blocks after it), so every loop runs over windows (k·slack instead of k·n, and the slack
shrinks as the line fills in).

With `naive=False` "do all cells in [a, b) allow colour c?" is a difference of prefix counts and
"mark [a, b) as possibly c" is a difference array, so the line costs O(k·n) (the article's trick).
With `naive=True` both are plain loops over the segment, O(k·n·len) — kept for the ablation.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..lab.jit import kernel


class LineWork(NamedTuple):
    """Work tables of one line solve: P, S (k+1, n+2) prefix/suffix fits, nc and diff (nslot, n+2)
    prefix counts and difference arrays, win (2, k) the blocks' windows of this call."""

    P: np.ndarray
    S: np.ndarray
    nc: np.ndarray
    diff: np.ndarray
    win: np.ndarray


@kernel
def _fits(cells, nc, slot, bit, a, b, naive):
    """All cells in [a, b) allow the colour `bit` (slot = its prefix-count row)."""
    if naive:
        for i in range(a, b):
            if cells[i] & bit == 0:
                return False
        return True
    return nc[slot, b] == nc[slot, a]


@kernel
def solve_line(cells, n, blen, bcol, bslot, clo, chi, k, slotcol, nslot, work, out, naive):
    """Narrow `cells[:n]` into `out[:n]`; False when no placement of the blocks fits the line.

    blen/bcol: lengths and colour indices of the k blocks; clo/chi: first/last start each block can
    have from the clue alone; bslot: each block's row in the per-colour prefix-count table work.nc
    (slotcol lists the colour of each of the nslot rows); work: the LineWork tables.
    """
    P, S, nc, diff, win = work.P, work.S, work.nc, work.diff, work.win
    if k > 0 and chi[0] < clo[0]:
        return False  # the clue is longer than the line
    # Prefix counts of cells that do NOT allow each colour that occurs in the line.
    if not naive:
        for s in range(nslot):
            bit = np.int64(1) << slotcol[s]
            nc[s, 0] = 0
            acc = 0
            for i in range(n):
                if cells[i] & bit == 0:
                    acc += 1
                nc[s, i + 1] = acc
    # Narrow each block's window to the cells as they are now: the earliest start at which it fits
    # (all its cells allow its colour) after the earliest placement of the blocks before it, and the
    # latest start symmetrically. Every placement of the line lies inside these windows, and they keep
    # the spacing of the clue's windows, so the tables below stay exact while their loops shrink as
    # the line fills in. Each scan starts past the previous block, so this costs O(n + k).
    blo = win[0]
    bhi = win[1]
    pos = 0
    for j in range(k):
        if j > 0 and bcol[j - 1] == bcol[j]:
            pos += 1
        length = blen[j]
        bit = np.int64(1) << bcol[j]
        s = max(pos, clo[j])
        while s <= chi[j] and not _fits(cells, nc, bslot[j], bit, s, s + length, naive):
            s += 1
        if s > chi[j]:
            return False
        blo[j] = s
        pos = s + length
    pos = n
    for j in range(k - 1, -1, -1):
        if j < k - 1 and bcol[j + 1] == bcol[j]:
            pos -= 1
        length = blen[j]
        bit = np.int64(1) << bcol[j]
        s = min(pos - length, chi[j])
        while s >= blo[j] and not _fits(cells, nc, bslot[j], bit, s, s + length, naive):
            s -= 1
        if s < blo[j]:
            return False
        bhi[j] = s
        pos = s
    # A cell that cannot be background is covered by some block. Any such cell at or after the latest
    # end of blocks 0..j-1 needs one of blocks j.. on it, so block j starts at the latest there; any
    # before the earliest start of block j+1 needs one of blocks ..j, so block j ends there at the
    # earliest. Each bound is followed by a pass that restores the windows' spacing.
    if k > 0:
        x = 0
        for j in range(k):
            x = max(x, bhi[j - 1] + blen[j - 1] if j > 0 else 0)
            while x < n and cells[x] & 1:
                x += 1
            if x < bhi[j]:
                bhi[j] = x
        for j in range(k - 2, -1, -1):
            gap = 1 if bcol[j + 1] == bcol[j] else 0
            bhi[j] = min(bhi[j], bhi[j + 1] - blen[j] - gap)
        y = n - 1
        for j in range(k - 1, -1, -1):
            y = min(y, blo[j + 1] - 1 if j < k - 1 else n - 1)
            while y >= 0 and cells[y] & 1:
                y -= 1
            if y - blen[j] + 1 > blo[j]:
                blo[j] = y - blen[j] + 1
        for j in range(1, k):
            gap = 1 if bcol[j - 1] == bcol[j] else 0
            blo[j] = max(blo[j], blo[j - 1] + blen[j - 1] + gap)
        for j in range(k):
            if blo[j] > bhi[j]:
                return False
    # Forward: P[j, i] = blocks 0..j-1 fit in cells [0, i), the rest of the prefix background.
    # Row j is computed for i in [end_lo(j-1), hi_j] (to n for j = k); outside it is not read.
    top = n if k == 0 else bhi[0]
    P[0, 0] = 1
    for i in range(1, top + 1):
        P[0, i] = P[0, i - 1] if cells[i - 1] & 1 else 0
    for j in range(1, k + 1):
        length = blen[j - 1]
        slot = bslot[j - 1]
        bit = np.int64(1) << bcol[j - 1]
        same = j >= 2 and bcol[j - 2] == bcol[j - 1]
        first = blo[j - 1] + length
        last_end = bhi[j - 1] + length
        top = n if j == k else bhi[j]
        mid = min(top, last_end)
        prev = 0
        if naive:
            for i in range(first, mid + 1):
                s = i - length
                p = 0
                if _fits(cells, nc, slot, bit, s, i, True):
                    if same:
                        p = P[j - 1, s - 1] & (cells[s - 1] & 1)
                    else:
                        p = P[j - 1, s]
                p = p | (prev & (cells[i - 1] & 1))
                P[j, i] = p
                prev = p
        elif same:  # the same recurrence without branches: block j-1 ends at i, or background extends
            for i in range(first, mid + 1):
                s = i - length
                p = (P[j - 1, s - 1] & (cells[s - 1] & 1) & (nc[slot, i] == nc[slot, s])) | (prev & (cells[i - 1] & 1))
                P[j, i] = p
                prev = p
        else:
            for i in range(first, mid + 1):
                s = i - length
                p = (P[j - 1, s] & (nc[slot, i] == nc[slot, s])) | (prev & (cells[i - 1] & 1))
                P[j, i] = p
                prev = p
        for i in range(max(first, mid + 1), top + 1):
            p = prev & (cells[i - 1] & 1)
            P[j, i] = p
            prev = p
    if P[k, n] == 0:
        return False
    # Backward: S[j, i] = blocks j..k-1 fit in cells [i, n), the rest of the suffix background.
    # Row j is computed for i in [end_lo(j-1), hi_j] (from 0 for j = 0; to n for j = k). The same loops
    # mark every placement both tables allow (block j at i) and every cell that can stay background
    # (cell i between blocks j-1 and j: P[j, i] and S[j, i+1]).
    for i in range(n):
        out[i] = 0
    if not naive:
        for s in range(nslot):
            for i in range(n + 1):
                diff[s, i] = 0
    bottom = 0 if k == 0 else blo[k - 1] + blen[k - 1]
    S[k, n] = 1
    nxt = 1
    for i in range(n - 1, bottom - 1, -1):
        if cells[i] & 1:
            if nxt and P[k, i]:
                out[i] |= 1
        else:
            nxt = 0
        S[k, i] = nxt
    for j in range(k - 1, -1, -1):
        length = blen[j]
        slot = bslot[j]
        bit = np.int64(1) << bcol[j]
        last = j == k - 1
        same = j + 1 < k and bcol[j] == bcol[j + 1]
        same_left = j >= 1 and bcol[j - 1] == bcol[j]
        bottom = 0 if j == 0 else blo[j - 1] + blen[j - 1]
        nxt = 0
        for i in range(bhi[j], blo[j] - 1, -1):  # block j may start here
            bg = cells[i] & 1
            if nxt & bg & P[j, i]:
                out[i] |= 1
            e = i + length
            if last:
                r = S[k, e]
            elif same:
                r = (cells[e] & 1) & S[j + 1, e + 1]
            else:
                r = S[j + 1, e]
            s_ = 0
            if r and _fits(cells, nc, slot, bit, i, e, naive):
                s_ = 1
                if j == 0:
                    left = P[0, i]
                elif same_left:
                    left = P[j, i - 1] & (cells[i - 1] & 1)
                else:
                    left = P[j, i]
                if left:
                    if naive:
                        for t in range(i, e):
                            out[t] |= bit
                    else:
                        diff[slot, i] += 1
                        diff[slot, e] -= 1
            s_ = s_ | (nxt & bg)
            S[j, i] = s_
            nxt = s_
        for i in range(blo[j] - 1, bottom - 1, -1):  # only background before block j
            bg = cells[i] & 1
            if nxt & bg & P[j, i]:
                out[i] |= 1
            nxt = nxt & bg
            S[j, i] = nxt
    if not naive:
        for s in range(nslot):
            bit = np.int64(1) << slotcol[s]
            acc = 0
            for i in range(n):
                acc += diff[s, i]
                if acc > 0:
                    out[i] |= bit
    return True


def windows(clue: list[tuple[int, int]], n: int) -> tuple[list[int], list[int]]:
    """First and last start of every block from the clue alone (same colours need a gap)."""
    k = len(clue)
    lo, hi = [0] * k, [0] * k
    pos = 0
    for j, (length, colour) in enumerate(clue):
        if j > 0 and clue[j - 1][1] == colour:
            pos += 1
        lo[j] = pos
        pos += length
    pos = n
    for j in range(k - 1, -1, -1):
        length, colour = clue[j]
        if j < k - 1 and clue[j + 1][1] == colour:
            pos -= 1
        pos -= length
        hi[j] = pos
    return lo, hi
