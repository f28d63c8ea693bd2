"""Enumerate every filling of one half of a band within a mismatch budget (numba DFS kernel).

Cells are visited column by column, top to bottom inside a column (cell t = column * rows + row),
so the suffix bound of `bounds` is a table lookup. Each complete filling is recorded as
(piece-set bitset, seam colour row, cost); the filling itself is not stored: it is rebuilt on
demand by re-running the same deterministic walk up to its leaf index (replay mode).

A cell's candidates are tried in groups by how many of its placed neighbours (left, up) they
mismatch: both match, left only, up only, neither. The groups come from per-cell sorted indexes,
so a group that the remaining budget cannot afford is skipped without looking at its candidates.

The walk is an explicit-stack DFS whose whole state lives in `WalkState`, so the kernel can stop
when the record buffer is full or a node quota is used up, and resume exactly where it stopped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...lab.jit import allocating_kernel, inline_kernel, kernel
from .bounds import INF, mis
from .cross import advance_g, column_value, seam_values
from .partner import advance as partner_advance
from .partner import column as partner_column
from .partner import start as partner_start

DONE, FULL, QUOTA, FOUND = 0, 1, 2, 3
# candidate groups, tried in this order
BOTH, LEFT_ONLY, UP_ONLY, NEITHER, EXHAUSTED = 0, 1, 2, 3, 4
CONTINUE = -1  # a step of the walk that does not end the kernel call


class HalfArrays(NamedTuple):
    """One half of the band as the walk sees it: its candidates (see `band.Half`) and suffix bounds."""

    rows: int
    width: int
    ncol: int
    seam: bool  # the half's bottom side is the middle seam
    cand_ptr: np.ndarray
    cand_bit: np.ndarray
    cand_u: np.ndarray
    cand_r: np.ndarray
    cand_d: np.ndarray
    cand_l: np.ndarray
    static: np.ndarray
    lb: np.ndarray  # (n + 1, C**(rows + 1)) suffix bounds (`bounds.suffix_bounds`)
    pw: np.ndarray  # (rows + 3,) powers of the colour count: profile index weights


class Groups(NamedTuple):
    """Per-cell orderings of the candidates (`candidate_index`): by (left, up) and by (up, left), with ranges."""

    ord_lu: np.ndarray
    ord_ul: np.ndarray
    lu_lo: np.ndarray  # (n, C, C) into ord_lu
    lu_hi: np.ndarray
    l_lo: np.ndarray  # (n, C) into ord_lu
    l_hi: np.ndarray
    u_lo: np.ndarray  # (n, C) into ord_ul
    u_hi: np.ndarray


class Records(NamedTuple):
    """Where the walk records complete fillings: piece-set bitset, seam colour row, cost."""

    bits: np.ndarray
    seam: np.ndarray
    cost: np.ndarray


class WalkState(NamedTuple):
    """The resumable state of one walk: DFS stack, piece bitset, bound state and counters."""

    t: np.ndarray  # (1,) depth; -2 = not started, -1 = done
    phase: np.ndarray
    pos: np.ndarray
    end: np.ndarray
    src: np.ndarray
    la: np.ndarray
    ua: np.ndarray
    chosen: np.ndarray
    g: np.ndarray
    used: np.ndarray
    rest: np.ndarray
    counters: np.ndarray  # [leaves, nodes, pruned, recorded]
    Gst: np.ndarray
    Vst: np.ndarray
    Xst: np.ndarray
    floor: np.ndarray
    gf: np.ndarray
    avail: np.ndarray
    cnt: np.ndarray
    xs: np.ndarray  # (1,) the seam-count excess
    Hst: np.ndarray
    topk: np.ndarray
    kth: np.ndarray
    p_alive: np.ndarray
    p_m: np.ndarray
    p_n: np.ndarray
    p_best: np.ndarray
    p_min: np.ndarray

    @property
    def nodes(self) -> int:
        return int(self.counters[1])

    @property
    def pruned(self) -> int:
        return int(self.counters[2])

    @property
    def recorded(self) -> int:
        return int(self.counters[3])


def new_walk(n: int, words: int, width: int = 1, ncol: int = 1, partners: int = 0) -> WalkState:
    """A fresh walk of a half of n cells (`partners`: entries of the other half's table used for pruning)."""
    size = n + 1
    e = max(partners, 1)
    return WalkState(
        t=np.full(1, -2, np.int64), phase=np.zeros(size, np.int64), pos=np.zeros(size, np.int64),
        end=np.zeros(size, np.int64), src=np.zeros(size, np.int64), la=np.zeros(size, np.int64),
        ua=np.zeros(size, np.int64), chosen=np.zeros(size, np.int64), g=np.zeros(size, np.int32),
        used=np.zeros(words, np.uint64), rest=np.zeros(size, np.int64), counters=np.zeros(4, np.int64),
        Gst=np.zeros((width + 1, ncol), np.int64), Vst=np.zeros((width, ncol), np.int32),
        Xst=np.zeros(width + 1, np.int32), floor=np.zeros(size, np.int32), gf=np.zeros(size, np.int32),
        avail=np.zeros(ncol, np.int32), cnt=np.zeros(ncol, np.int32), xs=np.zeros(1, np.int64),
        Hst=np.zeros((width + 1, ncol), np.int64), topk=np.zeros(size, np.int64), kth=np.zeros(size, np.int64),
        p_alive=np.zeros((width + 1, e), np.int32), p_m=np.zeros((width + 1, e), np.int32),
        p_n=np.zeros(width + 1, np.int64), p_best=np.zeros((width, ncol), np.int64),
        p_min=np.zeros(width + 1, np.int64))


@allocating_kernel
def candidate_index(rows, cand_ptr, cand_l, cand_u, ncol):
    """Per-cell orderings of the candidates: by (left, up) and by (up, left), with their ranges.

    Returns ord_lu, ord_ul (candidate numbers) and lu_lo/lu_hi (n, C, C), l_lo/l_hi (n, C) into
    ord_lu, u_lo/u_hi (n, C) into ord_ul.
    """
    n = cand_ptr.shape[0] - 1
    k = cand_ptr[n]
    ord_lu = np.empty(k, np.int64)
    ord_ul = np.empty(k, np.int64)
    lu_lo = np.zeros((n, ncol, ncol), np.int64)
    lu_hi = np.zeros((n, ncol, ncol), np.int64)
    l_lo = np.zeros((n, ncol), np.int64)
    l_hi = np.zeros((n, ncol), np.int64)
    u_lo = np.zeros((n, ncol), np.int64)
    u_hi = np.zeros((n, ncol), np.int64)
    for t in range(n):
        lo = cand_ptr[t]
        hi = cand_ptr[t + 1]
        key_lu = np.empty(hi - lo, np.int64)
        key_ul = np.empty(hi - lo, np.int64)
        for q in range(lo, hi):
            key_lu[q - lo] = (cand_l[q] * ncol + cand_u[q]) * k + q
            key_ul[q - lo] = (cand_u[q] * ncol + cand_l[q]) * k + q
        a = np.argsort(key_lu)
        b = np.argsort(key_ul)
        for x in range(hi - lo):
            ord_lu[lo + x] = lo + a[x]
            ord_ul[lo + x] = lo + b[x]
        for x in range(hi - 1, lo - 1, -1):  # backwards: the first position of a key wins
            q = ord_lu[x]
            lu_lo[t, cand_l[q], cand_u[q]] = x
            l_lo[t, cand_l[q]] = x
            q = ord_ul[x]
            u_lo[t, cand_u[q]] = x
        for x in range(lo, hi):
            q = ord_lu[x]
            lu_hi[t, cand_l[q], cand_u[q]] = x + 1
            l_hi[t, cand_l[q]] = x + 1
            q = ord_ul[x]
            u_hi[t, cand_u[q]] = x + 1
    return ord_lu, ord_ul, lu_lo, lu_hi, l_lo, l_hi, u_lo, u_hi


@inline_kernel
def _setup(h, grp, st, t, slack):
    """Move depth t to its next non-empty affordable group (phase), or EXHAUSTED."""
    rows = h.rows
    i = t % rows
    dyn_u = i > 0
    dyn_l = t >= rows
    a = st.la[t]
    b = st.ua[t]
    p = st.phase[t]
    while p < EXHAUSTED:
        lo = 0
        hi = 0
        s = 2
        m = 0
        if p == BOTH:
            m = 0
            if dyn_l and dyn_u:
                if a != 0 and b != 0:
                    lo = grp.lu_lo[t, a, b]
                    hi = grp.lu_hi[t, a, b]
                    s = 0
            elif dyn_l:
                if a != 0:
                    lo = grp.l_lo[t, a]
                    hi = grp.l_hi[t, a]
                    s = 0
            elif dyn_u:
                if b != 0:
                    lo = grp.u_lo[t, b]
                    hi = grp.u_hi[t, b]
                    s = 1
            else:
                lo = h.cand_ptr[t]
                hi = h.cand_ptr[t + 1]
                s = 2
        elif p == LEFT_ONLY:
            m = 1
            if dyn_l and dyn_u and a != 0:
                lo = grp.l_lo[t, a]
                hi = grp.l_hi[t, a]
                s = 0
        elif p == UP_ONLY:
            m = 1
            if dyn_l and dyn_u and b != 0:
                lo = grp.u_lo[t, b]
                hi = grp.u_hi[t, b]
                s = 1
        else:  # NEITHER
            m = (1 if dyn_l else 0) + (1 if dyn_u else 0)
            if dyn_l or dyn_u:
                lo = h.cand_ptr[t]
                hi = h.cand_ptr[t + 1]
                s = 2
        if hi > lo and m <= slack:
            st.phase[t] = p
            st.pos[t] = lo
            st.end[t] = hi
            st.src[t] = s
            return
        p += 1
    st.phase[t] = EXHAUSTED


@inline_kernel
def _place_counts(x, st, bit, seam_colour):
    """Piece `bit` leaves the other half's pool; a seam colour (>= 0) is laid. xs[0] = the excess."""
    for k in range(4):
        c = x.shows[bit, k]
        if c < 0:
            break
        if st.cnt[c] >= st.avail[c]:
            st.xs[0] += 1
        st.avail[c] -= 1
    if seam_colour >= 0:
        if st.cnt[seam_colour] >= st.avail[seam_colour]:
            st.xs[0] += 1
        st.cnt[seam_colour] += 1


@inline_kernel
def _unplace_counts(x, st, bit, seam_colour):
    """Undo `_place_counts`."""
    if seam_colour >= 0:
        st.cnt[seam_colour] -= 1
        if st.cnt[seam_colour] >= st.avail[seam_colour]:
            st.xs[0] -= 1
    for k in range(4):
        c = x.shows[bit, k]
        if c < 0:
            break
        st.avail[c] += 1
        if st.cnt[c] >= st.avail[c]:
            st.xs[0] -= 1


@inline_kernel
def _excess_if(x, st, bit, seam_colour):
    """The excess `_place_counts` would leave, without changing anything."""
    e = st.xs[0]
    hit = False
    for k in range(4):
        c = x.shows[bit, k]
        if c < 0:
            break
        if st.cnt[c] >= st.avail[c]:
            e += 1
        if c == seam_colour:
            hit = True
    if seam_colour >= 0:
        if st.cnt[seam_colour] >= st.avail[seam_colour] - (1 if hit else 0):
            e += 1
    return e


@inline_kernel
def _joint_prices(h, x, st, t):
    """Prices of the k largest unused pieces (k = cells the joint table still covers) into topk/kth[t]."""
    k = h.rows * h.width - t + h.width
    s = 0
    last = 0
    for y in range(x.order.shape[0]):
        if k == 0:
            break
        bb = x.order[y]
        if (st.used[bb >> 6] >> np.uint64(bb & 63)) & np.uint64(1):
            continue
        last = x.lam[bb]
        s += last
        k -= 1
    st.topk[t] = s
    st.kth[t] = last


@inline_kernel
def _enter(h, x, st, t):
    """Set up depth t: the profile part placing cell t does not change, the colours of its placed
    neighbours, and the cross bound (`floor[t]`: the least the other half can still cost)."""
    rows = h.rows
    i = t % rows
    j = t // rows
    if x.on and x.joint_on:  # the joint table supersedes G and F: only the piece counts remain
        st.gf[t] = 0
        st.floor[t] = st.xs[0] + x.other_min
        _joint_prices(h, x, st, t)
    elif x.on:
        if i == 0:
            st.Xst[j] = column_value(j, h.ncol, st.Gst[j], x.F)
        if i == rows - 1:
            seam_values(j, h.width, h.ncol, st.Gst[j], x.F, x.ptr, x.left, x.right, x.up, x.static, st.Vst[j])
        st.gf[t] = st.Xst[j]
        st.floor[t] = max(st.Xst[j], st.xs[0] + x.other_min)
    else:
        st.gf[t] = 0
        st.floor[t] = x.other_min
    base = 0
    for k in range(rows):
        if k < i:
            base += h.cand_r[st.chosen[j * rows + k]] * h.pw[k]
        elif k > i and j > 0:
            base += h.cand_r[st.chosen[(j - 1) * rows + k]] * h.pw[k]
    st.rest[t] = base
    st.la[t] = h.cand_r[st.chosen[t - rows]] if j > 0 else 0
    st.ua[t] = h.cand_d[st.chosen[t - 1]] if i > 0 else 0


@inline_kernel
def _pop(h, x, st, t):
    """Take back the piece placed at depth t."""
    b = h.cand_bit[st.chosen[t]]
    st.used[b >> 6] &= ~(np.uint64(1) << np.uint64(b & 63))
    if x.on:
        _unplace_counts(x, st, b, h.cand_d[st.chosen[t]] if t % h.rows == h.rows - 1 else -1)


@inline_kernel
def _leaf(h, st, rec, target):
    """A complete filling: record it (or stop at the target leaf). Returns FULL, FOUND or CONTINUE."""
    n = h.rows * h.width
    leaf = st.counters[0]
    if target >= 0:
        if leaf == target:
            return FOUND
    else:
        rc = st.counters[3]
        if rc >= rec.cost.shape[0]:
            return FULL
        for w in range(st.used.shape[0]):
            rec.bits[rc, w] = st.used[w]
        if h.seam:
            for j in range(h.width):
                rec.seam[rc, j] = h.cand_d[st.chosen[j * h.rows + h.rows - 1]]
        rec.cost[rc] = st.g[n]
        st.counters[3] = rc + 1
    st.counters[0] = leaf + 1
    return CONTINUE


@inline_kernel
def _skips(h, st, t, q, p):
    """Inside a group, the candidates that belong to an earlier group are skipped."""
    if p == LEFT_ONLY:
        return mis(h.cand_u[q], st.ua[t]) == 0
    if p == UP_ONLY:
        return mis(h.cand_l[q], st.la[t]) == 0
    if p == NEITHER:
        if t >= h.rows and mis(h.cand_l[q], st.la[t]) == 0:
            return True
        if t % h.rows > 0 and mis(h.cand_u[q], st.ua[t]) == 0:
            return True
    return False


@inline_kernel
def _other_floor(h, x, pt, st, t, q, b):
    """The least the other half must still pay once candidate q is placed at depth t (cross and partners)."""
    i = t % h.rows
    other = x.other_min
    if x.on:
        sc = h.cand_d[q] if i == h.rows - 1 else -1
        other = st.gf[t] if (sc < 0 or x.joint_on) else st.Vst[t // h.rows, sc]
        e = _excess_if(x, st, b, sc) + x.other_min
        if e > other:
            other = e
    if pt.on:
        partner = st.p_best[t // h.rows, h.cand_d[q]] if i == h.rows - 1 else st.p_min[t // h.rows]
        if partner > other:
            other = partner
    return other


@inline_kernel
def _joint_prunes(h, x, st, t, q, b, c, budget):
    """The joint table's test: A's remaining cells, B's seam row and the seam still to come, in price units,
    less the prices of the pieces that will fill them (`lagrange`), cannot fit in the budget."""
    rows = h.rows
    i = t % rows
    j = t // rows
    tv = j * (rows + 1) + i + 1
    jbase = st.rest[t] + h.cand_r[q] * h.pw[i] + h.cand_d[q] * h.pw[rows + 1]
    if j == 0:
        best = np.int64(x.joint[tv, jbase])
    else:
        best = np.int64(1) << 40
        for xx in range(h.ncol):
            gx = st.Hst[j, xx]
            if gx >= best:
                continue
            v = gx + np.int64(x.joint[tv, jbase + xx * h.pw[rows]])
            if v < best:
                best = v
    # the k largest prices among the unused pieces, once this piece is placed
    lq = x.lam[b]
    top = st.topk[t] - (lq if lq > st.kth[t] else st.kth[t])
    return best - top > (budget - c) * np.int64(x.unit)


@inline_kernel
def _push(h, x, pt, st, t, q, b, c, idx, budget):
    """Place candidate q (piece bit b, cost so far c, profile index idx) at depth t; returns t + 1."""
    rows = h.rows
    i = t % rows
    st.chosen[t] = q
    st.used[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
    st.g[t + 1] = c
    if pt.on and i == rows - 1:
        j = t // rows
        partner_advance(j, h.cand_d[q], st.p_alive, st.p_n, st.p_m, pt.seam, pt.cost, pt.bits, st.used,
                        budget - c - np.int32(h.lb[t + 1, idx]))
        if j + 1 < h.width:
            st.p_min[j + 1] = partner_column(j + 1, h.ncol, st.p_alive, st.p_n, st.p_m, pt.seam, pt.cost,
                                             st.p_best[j + 1])
    if x.on:
        _place_counts(x, st, b, h.cand_d[q] if i == rows - 1 else -1)
        if i == rows - 1:
            j = t // rows
            if not x.joint_on:
                advance_g(j, h.ncol, st.Gst[j], h.cand_d[q], x.ptr, x.left, x.right, x.up, x.static, 1, INF * 4,
                          st.Gst[j + 1])
            else:
                advance_g(j, h.ncol, st.Hst[j], h.cand_d[q], x.ptr, x.left, x.right, x.up, x.hcost, x.unit,
                          np.int64(1) << 40, st.Hst[j + 1])
    t += 1
    if t < rows * h.width:
        _enter(h, x, st, t)
        st.phase[t] = BOTH
    return t


@inline_kernel
def _start(h, grp, x, pt, st, budget):
    """Begin a fresh walk at depth 0."""
    st.g[0] = 0
    st.xs[0] = 0
    for c in range(h.ncol):
        st.avail[c] = x.avail[c]
        st.cnt[c] = 0
    _enter(h, x, st, 0)
    if pt.on:
        partner_start(pt.cost.shape[0], st.p_alive, st.p_n, st.p_m)
        st.p_min[0] = partner_column(0, h.ncol, st.p_alive, st.p_n, st.p_m, pt.seam, pt.cost, st.p_best[0])
    st.phase[0] = BOTH
    _setup(h, grp, st, 0, budget - st.floor[0])


@kernel
def walk(h, grp, x, pt, st, rec, budget, node_quota, target):
    """Advance the DFS. Returns DONE, FULL (record buffer full), QUOTA (node quota used) or FOUND.

    `budget` is the band's: a partial is pruned when its cost, its own suffix bound and the least
    the other half must still pay (the cross bound `x`, `cross`, or, when the other half's table
    is already built, its surviving entries `pt`, `partner`) exceed it.
    With target >= 0 nothing is recorded and the walk stops with FOUND when leaf number `target` is
    reached (`chosen` then holds that filling). A fresh state has t[0] == -2 (not started).
    """
    n = h.rows * h.width
    nodes_here = 0
    t = st.t[0]
    if t == -2:
        t = 0
        _start(h, grp, x, pt, st, budget)
    while t >= 0:
        if t == n:
            status = _leaf(h, st, rec, target)
            if status != CONTINUE:
                st.t[0] = t
                return status
            t -= 1
            _pop(h, x, st, t)
            continue
        if st.phase[t] == EXHAUSTED:
            if t == 0:
                t = -1
                break
            t -= 1
            _pop(h, x, st, t)
            continue
        xq = st.pos[t]
        if xq >= st.end[t]:
            st.phase[t] += 1
            _setup(h, grp, st, t, budget - st.g[t] - st.floor[t])
            continue
        if nodes_here >= node_quota:
            st.t[0] = t
            return QUOTA
        st.pos[t] = xq + 1
        s = st.src[t]
        q = grp.ord_lu[xq] if s == 0 else (grp.ord_ul[xq] if s == 1 else xq)
        if _skips(h, st, t, q, st.phase[t]):
            continue
        nodes_here += 1
        st.counters[1] += 1
        b = h.cand_bit[q]
        if (st.used[b >> 6] >> np.uint64(b & 63)) & np.uint64(1):
            continue
        i = t % h.rows
        c = np.int32(st.g[t]) + np.int32(h.static[q])
        if i > 0:
            c += mis(h.cand_u[q], st.ua[t])
        if t >= h.rows:
            c += mis(h.cand_l[q], st.la[t])
        idx = st.rest[t] + h.cand_r[q] * h.pw[i]
        if i < h.rows - 1:
            idx += h.cand_d[q] * h.pw[h.rows]
        if c + np.int32(h.lb[t + 1, idx]) + _other_floor(h, x, pt, st, t, q, b) > budget:
            st.counters[2] += 1
            continue
        if x.joint_on and _joint_prunes(h, x, st, t, q, b, c, budget):
            st.counters[2] += 1
            continue
        t = _push(h, x, pt, st, t, q, b, c, idx, budget)
        if t < n:
            _setup(h, grp, st, t, budget - c - st.floor[t])
    st.t[0] = -1
    return DONE


def half_arrays(half, lb: np.ndarray, ncol: int) -> HalfArrays:
    """The walk's view of a `band.Half` with its suffix bound table."""
    pw = np.empty(half.rows + 3, np.int64)
    pw[0] = 1
    for k in range(1, half.rows + 3):
        pw[k] = pw[k - 1] * ncol
    return HalfArrays(half.rows, half.width, ncol, half.seam, half.cand_ptr, half.cand_bit, half.cand_u, half.cand_r,
                      half.cand_d, half.cand_l, half.static, lb, pw)


def prepare(half, ncol: int) -> Groups:
    """The per-cell candidate orderings of a half (see `candidate_index`)."""
    return Groups(*candidate_index(half.rows, half.cand_ptr, half.cand_l, half.cand_u, ncol))


def no_records(words: int, width: int) -> Records:
    """An empty record buffer (for replaying a walk to a leaf)."""
    return Records(np.zeros((0, words), np.uint64), np.zeros((0, width), np.uint8), np.zeros(0, np.uint8))


__all__ = ["DONE", "FULL", "QUOTA", "FOUND", "HalfArrays", "Groups", "Records", "WalkState", "candidate_index",
           "walk", "new_walk", "half_arrays", "prepare", "no_records"]
