"""Exact deduction on one line, bit-parallel: one word per set of cells.

`o` holds the cells that may be black, `z` those that may be white (bit c = cell c). The same
dynamic programme as `linesolve`, but over sets of positions at once (bit p = "after p cells"):
forward, Gready[j] = positions where block j may start, Gfull[j] = positions right after blocks
0..j-1 and the white cells that follow them; backward, Hstart[j] / Hfull[j] the same for the suffix
holding blocks j..k-1. A block's possible starts are the positions where its run of black-able cells
fits (`_runs`), both tables agree; a cell may be black when a possible start of some block covers it
(`_cover`), and white when a prefix ending before it and a suffix starting after it hold all blocks
between them. Moving over white-able cells is an occluded fill (Kogge-Stone, 6 shifts), so a line
costs a few operations per block instead of one DP step per cell and block. `solve_colour_bits`
runs the same programme on colour lines of at most 62 cells, with one set of cells per colour, and
`solve_colour_pair` on two words up to 123 cells (beyond, the dynamic programme is faster than loops
over arrays of words for colour lines).
"""

from __future__ import annotations

import numpy as np

from ..lab.jit import inline_kernel, kernel

MAX_CELLS = 62  # positions 0..n must fit in a signed 64-bit word without touching its sign bit


@inline_kernel
def _kogge_right(x, p):
    """x and every position reachable from it by steps q -> q+1 into positions of p (occluded fill, 6 shifts;
    not masked: the caller masks to its word)."""
    x |= p & (x << 1)
    p &= p << 1
    x |= p & (x << 2)
    p &= p << 2
    x |= p & (x << 4)
    p &= p << 4
    x |= p & (x << 8)
    p &= p << 8
    x |= p & (x << 16)
    p &= p << 16
    x |= p & (x << 32)
    return x


@inline_kernel
def _kogge_left(x, p):
    """x and every position reachable from it by steps q -> q-1 into positions of p."""
    x |= p & (x >> 1)
    p &= p >> 1
    x |= p & (x >> 2)
    p &= p >> 2
    x |= p & (x >> 4)
    p &= p >> 4
    x |= p & (x >> 8)
    p &= p >> 8
    x |= p & (x >> 16)
    p &= p >> 16
    x |= p & (x >> 32)
    return x


@inline_kernel
def _fill_right(seeds, z, pmask):
    """Positions reachable from `seeds` by steps p -> p+1 over white-able cells p."""
    return _kogge_right(seeds, (z << 1) & pmask) & pmask


@inline_kernel
def _fill_left(seeds, z):
    """Positions reachable from `seeds` by steps p -> p-1 over white-able cells p-1."""
    return _kogge_left(seeds, z)


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


@kernel
def solve_colour_bits(cells, n, blen, bcol, bslot, k, slotcol, nslot, tab, out):
    """A line of at most 62 cells with blocks of any colours, bit-parallel: `linesolve.solve_line`'s answers.

    cells/out: colour masks per cell (bit 0 background); blocks as in `solve_line` (bslot: each block's
    colour slot, slotcol: the colour of each of the nslot slots). tab: (4, rows, words) int64 scratch
    with rows >= k + 1 and >= nslot. The programme of `solve_bits` with one set of cells per colour
    of the line: blocks of one colour need a background cell between them, blocks of two colours may
    touch. False when no placement fits.
    """
    one = np.int64(1)
    cmask = (one << n) - 1
    pmask = (one << (n + 1)) - 1
    z = np.int64(0)
    for s in range(nslot):
        tab[2, s, 0] = 0  # cells that may take the slot's colour
        tab[3, s, 0] = 0  # cells some possible placement covers with it
    for i in range(n):
        c = cells[i]
        z |= (c & 1) << i
        for s in range(nslot):
            tab[2, s, 0] |= ((c >> slotcol[s]) & 1) << i
    # Forward: tab[0, j] = positions after blocks 0..j-1 and background cells, tab[1, j] = starts of block j.
    full = _fill_right(one, z, pmask)
    tab[0, 0, 0] = full
    ends = np.int64(0)
    for j in range(k):
        length = blen[j]
        ready = full
        if j > 0 and bcol[j - 1] == bcol[j]:
            ready = _fill_right(((ends & z) << 1) & pmask, z, pmask)  # at least one background cell first
        st = ready & _runs(tab[2, bslot[j], 0], length)
        tab[1, j, 0] = st
        ends = (st << length) & pmask
        full = _fill_right(ends, z, pmask)
        tab[0, j + 1, 0] = full
    if full >> n & 1 == 0:
        return False
    # Backward: Hfull_j = positions before blocks j..k-1 (background cells first); a cell may stay
    # background when a prefix ending at it and a suffix starting after it hold all blocks between them.
    hfull = _fill_left(one << n, z)
    bz = tab[0, k, 0] & (hfull >> 1)
    for j in range(k - 1, -1, -1):
        length = blen[j]
        after = hfull  # block j may end here: the rest fits after it
        if j < k - 1 and bcol[j + 1] == bcol[j]:
            after = z & (hfull >> 1)
        st = _runs(tab[2, bslot[j], 0], length) & (after >> length)
        hfull = _fill_left(st, z)
        bz |= tab[0, j, 0] & (hfull >> 1)
        tab[3, bslot[j], 0] |= _cover(st & tab[1, j, 0], length, cmask)
    bz &= z
    for i in range(n):
        v = (bz >> i) & 1
        for s in range(nslot):
            v |= ((tab[3, s, 0] >> i) & 1) << slotcol[s]
        out[i] = v
    return True


# --- Lines of any length: the same programme over arrays of words -----------------------------------
# Position p lives in word p // WORD_BITS, bit p % WORD_BITS. Words keep their top two bits clear, so
# that shifts of int64 never reach the sign bit and a right shift is a logical one.
WORD_BITS = 62
WORD_MASK = (1 << WORD_BITS) - 1


def words_for(n: int) -> int:
    """Words per position set of a line of n cells (positions 0..n)."""
    return n // WORD_BITS + 1


@inline_kernel
def _w_shr(x, s, out, nw):
    """out = x >> s over nw words."""
    ws = s // WORD_BITS
    bs = s % WORD_BITS
    for i in range(nw):
        j = i + ws
        v = np.int64(0)
        if j < nw:
            v = x[j] >> bs
            if bs > 0 and j + 1 < nw:
                v |= (x[j + 1] << (WORD_BITS - bs)) & WORD_MASK
        out[i] = v


@inline_kernel
def _w_shl(x, s, out, nw):
    """out = x << s over nw words (bits past the last word are dropped)."""
    ws = s // WORD_BITS
    bs = s % WORD_BITS
    for i in range(nw - 1, -1, -1):
        j = i - ws
        v = np.int64(0)
        if j >= 0:
            v = (x[j] << bs) & WORD_MASK
            if bs > 0 and j >= 1:
                v |= x[j - 1] >> (WORD_BITS - bs)
        out[i] = v


@inline_kernel
def _w_runs(o, length, r, t, nw):
    """r = starts s whose cells s..s+length-1 are all in o (t: scratch)."""
    for i in range(nw):
        r[i] = o[i]
    span = 1
    while span * 2 <= length:
        _w_shr(r, span, t, nw)
        for i in range(nw):
            r[i] &= t[i]
        span *= 2
    if span < length:
        _w_shr(r, length - span, t, nw)
        for i in range(nw):
            r[i] &= t[i]


@inline_kernel
def _w_cover(starts, length, c, t, nw):
    """c = cells covered by a block of `length` at any of `starts` (not yet masked to the line)."""
    for i in range(nw):
        c[i] = starts[i]
    span = 1
    while span * 2 <= length:
        _w_shl(c, span, t, nw)
        for i in range(nw):
            c[i] |= t[i]
        span *= 2
    if span < length:
        _w_shl(c, length - span, t, nw)
        for i in range(nw):
            c[i] |= t[i]


@inline_kernel
def _w_fill_right(g, z, n, nw):
    """g |= positions reachable from g by steps p -> p+1 over white-able cells p (in place)."""
    carry = np.int64(0)
    for i in range(nw):
        # propagator: bit q of word i is set when cell q-1 is white-able (the step into q is allowed)
        p = (z[i] << 1) & WORD_MASK
        if i > 0:
            p |= z[i - 1] >> (WORD_BITS - 1)
        x = _kogge_right(g[i] | (carry & p), p) & WORD_MASK
        g[i] = x
        carry = x >> (WORD_BITS - 1)
    g[n // WORD_BITS] &= (np.int64(1) << (n % WORD_BITS + 1)) - 1


@inline_kernel
def _w_fill_left(g, z, nw):
    """g |= positions reachable from g by steps p -> p-1 over white-able cells p-1 (in place)."""
    carry = np.int64(0)
    for i in range(nw - 1, -1, -1):
        p = z[i]
        x = _kogge_left(g[i] | ((carry << (WORD_BITS - 1)) & p), p)
        g[i] = x
        carry = x & 1


@inline_kernel
def _p_shl(a0, a1, s):
    """The two-word set (a0, a1) shifted up by s < 124 positions (bits past the second word are dropped)."""
    if s >= WORD_BITS:
        return np.int64(0), (a0 << (s - WORD_BITS)) & WORD_MASK
    if s == 0:
        return a0, a1
    return (a0 << s) & WORD_MASK, ((a1 << s) | (a0 >> (WORD_BITS - s))) & WORD_MASK


@inline_kernel
def _p_shr(a0, a1, s):
    """The two-word set (a0, a1) shifted down by s < 124 positions."""
    if s >= WORD_BITS:
        return a1 >> (s - WORD_BITS), np.int64(0)
    if s == 0:
        return a0, a1
    return (a0 >> s) | ((a1 << (WORD_BITS - s)) & WORD_MASK), a1 >> s


@inline_kernel
def _p_fill_right(g0, g1, z0, z1, pm0, pm1):
    """`_w_fill_right` on two words; pm0/pm1 mask the positions 0..n."""
    x0 = _kogge_right(g0, (z0 << 1) & WORD_MASK) & WORD_MASK
    p1 = ((z1 << 1) & WORD_MASK) | (z0 >> (WORD_BITS - 1))
    x1 = _kogge_right(g1 | ((x0 >> (WORD_BITS - 1)) & p1), p1)
    return x0 & pm0, x1 & pm1


@inline_kernel
def _p_fill_left(g0, g1, z0, z1):
    """`_w_fill_left` on two words."""
    x1 = _kogge_left(g1, z1)
    x0 = _kogge_left(g0 | (((x1 & 1) << (WORD_BITS - 1)) & z0), z0)
    return x0, x1


@inline_kernel
def _p_runs(o0, o1, length):
    """`_w_runs` on two words."""
    r0, r1 = o0, o1
    span = 1
    while span * 2 <= length:
        t0, t1 = _p_shr(r0, r1, span)
        r0 &= t0
        r1 &= t1
        span *= 2
    if span < length:
        t0, t1 = _p_shr(r0, r1, length - span)
        r0 &= t0
        r1 &= t1
    return r0, r1


@inline_kernel
def _p_cover(s0, s1, length):
    """`_w_cover` on two words."""
    c0, c1 = s0, s1
    span = 1
    while span * 2 <= length:
        t0, t1 = _p_shl(c0, c1, span)
        c0 |= t0
        c1 |= t1
        span *= 2
    if span < length:
        t0, t1 = _p_shl(c0, c1, length - span)
        c0 |= t0
        c1 |= t1
    return c0, c1


@kernel
def _solve_pair(o, z, n, blen, k, tab):
    """`solve_words` for lines of at most 123 cells, whose positions fit in two words: the same
    programme on pairs of locals, without the loops over words (several times faster)."""
    two = n >= WORD_BITS  # the second word holds some position (else it stays empty and is not stored)
    top = n % WORD_BITS
    cells = (np.int64(1) << top) - 1  # cells of the word that holds position n
    ends = (np.int64(1) << (top + 1)) - 1  # positions 0..n of that word
    o0, z0 = o[0], z[0]
    o1 = z1 = np.int64(0)
    pm0, pm1 = ends, np.int64(0)
    if two:
        o1, z1 = o[1] & cells, z[1] & cells
        pm0, pm1 = WORD_MASK, ends
    else:
        o0 &= cells
        z0 &= cells
    # Forward: tab[0, j] = positions after blocks 0..j-1 and white cells, tab[1, j] = starts of block j.
    r0, r1 = _p_fill_right(np.int64(1), np.int64(0), z0, z1, pm0, pm1)
    tab[0, 0, 0] = r0
    if two:
        tab[0, 0, 1] = r1
    f0, f1 = r0, r1
    for j in range(k):
        length = blen[j]
        u0, u1 = _p_runs(o0, o1, length)
        s0, s1 = r0 & u0, r1 & u1
        tab[1, j, 0] = s0
        if two:
            tab[1, j, 1] = s1
        e0, e1 = _p_shl(s0, s1, length)  # positions right after block j
        t0, t1 = _p_shl(e0 & z0, e1 & z1, 1)  # block j+1 may start after one white cell...
        r0, r1 = _p_fill_right(t0, t1, z0, z1, pm0, pm1)  # ...or more
        f0, f1 = r0 | e0, r1 | e1
        tab[0, j + 1, 0] = f0
        if two:
            tab[0, j + 1, 1] = f1
    if ((f1 if two else f0) >> top) & 1 == 0:
        return False
    # Backward: tab[2, j] = positions before blocks j..k-1 (white cells first).
    h0, h1 = np.int64(0), np.int64(0)
    if two:
        h1 = np.int64(1) << top
    else:
        h0 = np.int64(1) << top
    h0, h1 = _p_fill_left(h0, h1, z0, z1)
    bz0, bz1 = _p_shr(h0, h1, 1)
    bz0 &= f0
    bz1 &= f1
    bo0 = bo1 = np.int64(0)
    for j in range(k - 1, -1, -1):
        length = blen[j]
        t0, t1 = h0, h1
        if j < k - 1:
            t0, t1 = _p_shr(h0, h1, 1)
            t0 &= z0
            t1 &= z1
        a0, a1 = _p_shr(t0, t1, length)  # block j may start here: the rest fits after it
        u0, u1 = _p_runs(o0, o1, length)
        h0, h1 = _p_fill_left(u0 & a0, u1 & a1, z0, z1)
        g0 = tab[0, j, 0]
        g1 = tab[0, j, 1] if two else np.int64(0)
        w0, w1 = _p_shr(h0, h1, 1)
        bz0 |= g0 & w0
        bz1 |= g1 & w1
        s1 = tab[1, j, 1] if two else np.int64(0)
        c0, c1 = _p_cover(u0 & a0 & tab[1, j, 0], u1 & a1 & s1, length)
        bo0 |= c0
        bo1 |= c1
    o[0] = o0 & bo0
    z[0] = z0 & bz0
    if two:
        o[1] = o1 & bo1
        z[1] = z1 & bz1
    return True


@kernel
def solve_words(o, z, n, blen, k, tab, tmp):
    """`solve_bits` for a line of any length: o and z are word arrays (bit c = cell c), narrowed in place.

    Returns False when the clue cannot fit. tab is (3, k+1, words) scratch for the per-block position
    sets and tmp (5, words) scratch; `words_for(n)` words each.
    """
    if n < 2 * WORD_BITS:
        return _solve_pair(o, z, n, blen, k, tab)
    nw = n // WORD_BITS + 1
    last = n // WORD_BITS
    top = n % WORD_BITS
    # cells are positions 0..n-1: position n (and everything above it) is never a cell
    o[last] &= (np.int64(1) << top) - 1
    z[last] &= (np.int64(1) << top) - 1
    run = tmp[0]
    t = tmp[1]
    ends = tmp[2]
    ready = tmp[4]
    # Forward: tab[0, j] = positions after blocks 0..j-1 and white cells, tab[1, j] = starts of block j.
    for i in range(nw):
        ready[i] = 0
    ready[0] = 1
    _w_fill_right(ready, z, n, nw)
    for i in range(nw):
        tab[0, 0, i] = ready[i]
    for j in range(k):
        length = blen[j]
        _w_runs(o, length, run, t, nw)
        for i in range(nw):
            tab[1, j, i] = ready[i] & run[i]
        _w_shl(tab[1, j], length, ends, nw)  # positions right after block j
        for i in range(nw):
            t[i] = ends[i] & z[i]
        _w_shl(t, 1, ready, nw)  # block j+1 may start after one white cell...
        _w_fill_right(ready, z, n, nw)  # ...or more
        for i in range(nw):
            tab[0, j + 1, i] = ready[i] | ends[i]
    if (tab[0, k, last] >> top) & 1 == 0:
        return False
    # Backward: tab[2, j] = positions before blocks j..k-1 (white cells first), starts of block j in run.
    for i in range(nw):
        tab[2, k, i] = 0
    tab[2, k, last] = np.int64(1) << top
    _w_fill_left(tab[2, k], z, nw)
    bo = tmp[3]
    for i in range(nw):
        bo[i] = 0
    for j in range(k - 1, -1, -1):
        length = blen[j]
        if j == k - 1:
            for i in range(nw):
                t[i] = tab[2, k, i]
        else:
            _w_shr(tab[2, j + 1], 1, t, nw)
            for i in range(nw):
                t[i] &= z[i]
        _w_shr(t, length, ends, nw)  # block j may start here: the rest fits after it
        _w_runs(o, length, run, t, nw)
        for i in range(nw):
            run[i] &= ends[i]
            tab[2, j, i] = run[i]
        _w_fill_left(tab[2, j], z, nw)
        for i in range(nw):
            run[i] &= tab[1, j, i]
        _w_cover(run, length, ends, t, nw)
        for i in range(nw):
            bo[i] |= ends[i]
    for i in range(nw):
        t[i] = 0
    for j in range(k + 1):
        _w_shr(tab[2, j], 1, ends, nw)
        for i in range(nw):
            t[i] |= tab[0, j, i] & ends[i]
    for i in range(nw):  # both stay within the cells: o and z were masked to them on entry
        o[i] &= bo[i]
        z[i] &= t[i]
    return True



@kernel
def solve_colour_pair(cells, n, blen, bcol, bslot, k, slotcol, nslot, tab, out):
    """`solve_colour_bits` for colour lines of 63 to 123 cells, whose positions fit in two words
    (pairs of locals, as `_solve_pair`); tab: (4, rows, >= 2) int64 scratch."""
    top = n - WORD_BITS
    cm1 = (np.int64(1) << top) - 1  # cells of the second word
    pm1 = (np.int64(1) << (top + 1)) - 1  # positions of the second word (to n)
    z0 = z1 = np.int64(0)
    for s in range(nslot):
        tab[2, s, 0] = 0  # cells that may take the slot's colour
        tab[2, s, 1] = 0
        tab[3, s, 0] = 0  # cells some possible placement covers with it
        tab[3, s, 1] = 0
    for i in range(n):
        c = cells[i]
        w = 0 if i < WORD_BITS else 1
        b = i - w * WORD_BITS
        if w == 0:
            z0 |= (c & 1) << b
        else:
            z1 |= (c & 1) << b
        for s in range(nslot):
            tab[2, s, w] |= ((c >> slotcol[s]) & 1) << b
    z1 &= cm1
    # Forward: tab[0, j] = positions after blocks 0..j-1 and background cells, tab[1, j] = starts of block j.
    f0, f1 = _p_fill_right(np.int64(1), np.int64(0), z0, z1, WORD_MASK, pm1)
    tab[0, 0, 0] = f0
    tab[0, 0, 1] = f1
    e0 = e1 = np.int64(0)
    for j in range(k):
        length = blen[j]
        r0, r1 = f0, f1
        if j > 0 and bcol[j - 1] == bcol[j]:  # at least one background cell first
            t0, t1 = _p_shl(e0 & z0, e1 & z1, 1)
            r0, r1 = _p_fill_right(t0, t1, z0, z1, WORD_MASK, pm1)
        slot = bslot[j]
        u0, u1 = _p_runs(tab[2, slot, 0], tab[2, slot, 1], length)
        s0, s1 = r0 & u0, r1 & u1
        tab[1, j, 0] = s0
        tab[1, j, 1] = s1
        e0, e1 = _p_shl(s0, s1, length)
        f0, f1 = _p_fill_right(e0, e1, z0, z1, WORD_MASK, pm1)
        tab[0, j + 1, 0] = f0
        tab[0, j + 1, 1] = f1
    if (f1 >> top) & 1 == 0:
        return False
    # Backward, as in `solve_colour_bits`.
    h0, h1 = _p_fill_left(np.int64(0), np.int64(1) << top, z0, z1)
    w0, w1 = _p_shr(h0, h1, 1)
    bz0, bz1 = f0 & w0, f1 & w1
    for j in range(k - 1, -1, -1):
        length = blen[j]
        t0, t1 = h0, h1  # block j may end here: the rest fits after it
        if j < k - 1 and bcol[j + 1] == bcol[j]:
            t0, t1 = _p_shr(h0, h1, 1)
            t0 &= z0
            t1 &= z1
        a0, a1 = _p_shr(t0, t1, length)
        slot = bslot[j]
        u0, u1 = _p_runs(tab[2, slot, 0], tab[2, slot, 1], length)
        u0 &= a0
        u1 &= a1
        h0, h1 = _p_fill_left(u0, u1, z0, z1)
        w0, w1 = _p_shr(h0, h1, 1)
        bz0 |= tab[0, j, 0] & w0
        bz1 |= tab[0, j, 1] & w1
        c0, c1 = _p_cover(u0 & tab[1, j, 0], u1 & tab[1, j, 1], length)
        tab[3, slot, 0] |= c0
        tab[3, slot, 1] |= c1
    bz0 &= z0
    bz1 &= z1
    for i in range(n):
        w = 0 if i < WORD_BITS else 1
        b = i - w * WORD_BITS
        v = ((bz0 if w == 0 else bz1) >> b) & 1
        for s in range(nslot):
            v |= ((tab[3, s, w] >> b) & 1) << slotcol[s]
        out[i] = v
    return True
