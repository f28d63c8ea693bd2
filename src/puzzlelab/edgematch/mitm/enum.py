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

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from .bounds import INF, mis
from .cross import advance_g, column_value, seam_values
from .partner import advance as partner_advance
from .partner import column as partner_column
from .partner import start as partner_start

DONE, FULL, QUOTA, FOUND = 0, 1, 2, 3
# candidate groups, tried in this order
BOTH, LEFT_ONLY, UP_ONLY, NEITHER, EXHAUSTED = 0, 1, 2, 3, 4


@njit(cache=True)
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


@njit(cache=True)
def _setup(t, rows, cand_ptr, lu_lo, lu_hi, l_lo, l_hi, u_lo, u_hi, phase, pos, end, src, la, ua, slack):
    """Move depth t to its next non-empty affordable group (phase), or EXHAUSTED."""
    i = t % rows
    dyn_u = i > 0
    dyn_l = t >= rows
    a = la[t]
    b = ua[t]
    p = phase[t]
    while p < EXHAUSTED:
        lo = 0
        hi = 0
        s = 2
        m = 0
        if p == BOTH:
            m = 0
            if dyn_l and dyn_u:
                if a != 0 and b != 0:
                    lo = lu_lo[t, a, b]
                    hi = lu_hi[t, a, b]
                    s = 0
            elif dyn_l:
                if a != 0:
                    lo = l_lo[t, a]
                    hi = l_hi[t, a]
                    s = 0
            elif dyn_u:
                if b != 0:
                    lo = u_lo[t, b]
                    hi = u_hi[t, b]
                    s = 1
            else:
                lo = cand_ptr[t]
                hi = cand_ptr[t + 1]
                s = 2
        elif p == LEFT_ONLY:
            m = 1
            if dyn_l and dyn_u and a != 0:
                lo = l_lo[t, a]
                hi = l_hi[t, a]
                s = 0
        elif p == UP_ONLY:
            m = 1
            if dyn_l and dyn_u and b != 0:
                lo = u_lo[t, b]
                hi = u_hi[t, b]
                s = 1
        else:  # NEITHER
            m = (1 if dyn_l else 0) + (1 if dyn_u else 0)
            if dyn_l or dyn_u:
                lo = cand_ptr[t]
                hi = cand_ptr[t + 1]
                s = 2
        if hi > lo and m <= slack:
            phase[t] = p
            pos[t] = lo
            end[t] = hi
            src[t] = s
            return
        p += 1
    phase[t] = EXHAUSTED


@njit(cache=True)
def _place_counts(bit, seam_colour, x_shows, avail, cnt, xs):
    """Piece `bit` leaves the other half's pool; a seam colour (>= 0) is laid. xs[0] = the excess."""
    for k in range(4):
        c = x_shows[bit, k]
        if c < 0:
            break
        if cnt[c] >= avail[c]:
            xs[0] += 1
        avail[c] -= 1
    if seam_colour >= 0:
        if cnt[seam_colour] >= avail[seam_colour]:
            xs[0] += 1
        cnt[seam_colour] += 1


@njit(cache=True)
def _unplace_counts(bit, seam_colour, x_shows, avail, cnt, xs):
    """Undo `_place_counts`."""
    if seam_colour >= 0:
        cnt[seam_colour] -= 1
        if cnt[seam_colour] >= avail[seam_colour]:
            xs[0] -= 1
    for k in range(4):
        c = x_shows[bit, k]
        if c < 0:
            break
        avail[c] += 1
        if cnt[c] >= avail[c]:
            xs[0] -= 1


@njit(cache=True)
def _excess_if(bit, seam_colour, x_shows, avail, cnt, xs):
    """The excess `_place_counts` would leave, without changing anything."""
    e = xs[0]
    hit = False
    for k in range(4):
        c = x_shows[bit, k]
        if c < 0:
            break
        if cnt[c] >= avail[c]:
            e += 1
        if c == seam_colour:
            hit = True
    if seam_colour >= 0:
        if cnt[seam_colour] >= avail[seam_colour] - (1 if hit else 0):
            e += 1
    return e


@njit(cache=True)
def _enter(t, rows, width, ncol, pw, chosen, cand_r, cand_d, rest, la, ua,
           x_on, x_ptr, x_left, x_right, x_up, x_static, x_F, x_min, Gst, Vst, Xst, floor, gf, xs, j_on,
           j_lam, j_order, used, topk, kth):
    """Set up depth t: the profile part placing cell t does not change, the colours of its placed
    neighbours, and the cross bound (`floor[t]`: the least the other half can still cost)."""
    i = t % rows
    j = t // rows
    if x_on and j_on:  # the joint table supersedes G and F: only the piece counts remain
        gf[t] = 0
        floor[t] = xs[0] + x_min
        # prices: the k largest among the unused pieces, k = cells the joint table still covers
        k = rows * width - t + width
        s = 0
        last = 0
        for x in range(j_order.shape[0]):
            if k == 0:
                break
            bb = j_order[x]
            if (used[bb >> 6] >> np.uint64(bb & 63)) & np.uint64(1):
                continue
            last = j_lam[bb]
            s += last
            k -= 1
        topk[t] = s
        kth[t] = last
    elif x_on:
        if i == 0:
            Xst[j] = column_value(j, ncol, Gst[j], x_F)
        if i == rows - 1:
            seam_values(j, width, ncol, Gst[j], x_F, x_ptr, x_left, x_right, x_up, x_static, Vst[j])
        gf[t] = Xst[j]
        floor[t] = max(Xst[j], xs[0] + x_min)
    else:
        gf[t] = 0
        floor[t] = x_min
    base = 0
    for k in range(rows):
        if k < i:
            base += cand_r[chosen[j * rows + k]] * pw[k]
        elif k > i and j > 0:
            base += cand_r[chosen[(j - 1) * rows + k]] * pw[k]
    rest[t] = base
    la[t] = cand_r[chosen[t - rows]] if j > 0 else 0
    ua[t] = cand_d[chosen[t - 1]] if i > 0 else 0


@njit(cache=True)
def walk(rows, width, ncol, seam, cand_ptr, cand_bit, cand_u, cand_r, cand_d, cand_l, static, lb, budget,
         ord_lu, ord_ul, lu_lo, lu_hi, l_lo, l_hi, u_lo, u_hi,
         x_on, x_ptr, x_left, x_right, x_up, x_static, x_F, x_min, x_shows, x_avail,
         j_on, jt, j_unit, j_lam, j_hcost, j_order, p_on, p_seam, p_cost, p_bits,
         st_t, phase, pos, end, src, la, ua, chosen, g, used, rest, counters, Gst, Vst, Xst, floor, gf,
         avail, cnt, xs, Hst, topk, kth, p_alive, p_m, p_n, p_best, p_min,
         rec_bits, rec_seam, rec_cost, node_quota, target):
    """Advance the DFS. Returns DONE, FULL (record buffer full), QUOTA (node quota used) or FOUND.

    `budget` is the band's: a partial is pruned when its cost, its own suffix bound and the least
    the other half must still pay (the cross bound, `cross`, or, when the other half's table
    is already built, its surviving entries, `partner`) exceed it.
    counters: [leaves, nodes, pruned, recorded]. With target >= 0 nothing is recorded and the walk
    stops with FOUND when leaf number `target` is reached (`chosen` then holds that filling).
    A fresh state has st_t[0] == -2 (the walk has not started).
    """
    n = rows * width
    pw = np.empty(rows + 3, np.int64)
    pw[0] = 1
    for k in range(1, rows + 3):
        pw[k] = pw[k - 1] * ncol
    cap = rec_cost.shape[0]
    nodes_here = 0
    t = st_t[0]
    if t == -2:
        t = 0
        g[0] = 0
        xs[0] = 0
        for c in range(ncol):
            avail[c] = x_avail[c]
            cnt[c] = 0
        _enter(0, rows, width, ncol, pw, chosen, cand_r, cand_d, rest, la, ua,
               x_on, x_ptr, x_left, x_right, x_up, x_static, x_F, x_min, Gst, Vst, Xst, floor, gf, xs, j_on,
               j_lam, j_order, used, topk, kth)
        if p_on:
            partner_start(p_cost.shape[0], p_alive, p_n, p_m)
            p_min[0] = partner_column(0, ncol, p_alive, p_n, p_m, p_seam, p_cost, p_best[0])
        phase[0] = BOTH
        _setup(0, rows, cand_ptr, lu_lo, lu_hi, l_lo, l_hi, u_lo, u_hi, phase, pos, end, src, la, ua,
               budget - floor[0])
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
            if x_on:
                _unplace_counts(b, cand_d[chosen[t]] if t % rows == rows - 1 else -1, x_shows, avail, cnt, xs)
            continue
        if phase[t] == EXHAUSTED:
            if t == 0:
                t = -1
                break
            t -= 1
            b = cand_bit[chosen[t]]
            used[b >> 6] &= ~(np.uint64(1) << np.uint64(b & 63))
            if x_on:
                _unplace_counts(b, cand_d[chosen[t]] if t % rows == rows - 1 else -1, x_shows, avail, cnt, xs)
            continue
        x = pos[t]
        if x >= end[t]:
            phase[t] += 1
            _setup(t, rows, cand_ptr, lu_lo, lu_hi, l_lo, l_hi, u_lo, u_hi, phase, pos, end, src, la, ua,
                   budget - g[t] - floor[t])
            continue
        if nodes_here >= node_quota:
            st_t[0] = t
            return QUOTA
        pos[t] = x + 1
        s = src[t]
        q = ord_lu[x] if s == 0 else (ord_ul[x] if s == 1 else x)
        p = phase[t]
        # inside a group, skip the candidates that belong to an earlier group
        i = t % rows
        if p == LEFT_ONLY:
            if mis(cand_u[q], ua[t]) == 0:
                continue
        elif p == UP_ONLY:
            if mis(cand_l[q], la[t]) == 0:
                continue
        elif p == NEITHER:
            if t >= rows and mis(cand_l[q], la[t]) == 0:
                continue
            if i > 0 and mis(cand_u[q], ua[t]) == 0:
                continue
        nodes_here += 1
        counters[1] += 1
        b = cand_bit[q]
        if (used[b >> 6] >> np.uint64(b & 63)) & np.uint64(1):
            continue
        c = np.int32(g[t]) + np.int32(static[q])
        if i > 0:
            c += mis(cand_u[q], ua[t])
        if t >= rows:
            c += mis(cand_l[q], la[t])
        idx = rest[t] + cand_r[q] * pw[i]
        if i < rows - 1:
            idx += cand_d[q] * pw[rows]
        other = x_min
        if x_on:
            sc = cand_d[q] if i == rows - 1 else -1
            other = gf[t] if (sc < 0 or j_on) else Vst[t // rows, sc]
            e = _excess_if(b, sc, x_shows, avail, cnt, xs) + x_min
            if e > other:
                other = e
        if p_on:
            partner = p_best[t // rows, cand_d[q]] if i == rows - 1 else p_min[t // rows]
            if partner > other:
                other = partner
        if c + np.int32(lb[t + 1, idx]) + other > budget:
            counters[2] += 1
            continue
        if j_on:
            # the joint table: A's remaining cells, B's seam row and the seam still to come, in price
            # units, less the prices of the pieces that will fill them (`lagrange`)
            j = t // rows
            tv = j * (rows + 1) + i + 1
            jbase = rest[t] + cand_r[q] * pw[i] + cand_d[q] * pw[rows + 1]
            if j == 0:
                best = np.int64(jt[tv, jbase])
            else:
                best = np.int64(1) << 40
                for xx in range(ncol):
                    gx = Hst[j, xx]
                    if gx >= best:
                        continue
                    v = gx + np.int64(jt[tv, jbase + xx * pw[rows]])
                    if v < best:
                        best = v
            # the k largest prices among the unused pieces, once this piece is placed
            lq = j_lam[b]
            top = topk[t] - (lq if lq > kth[t] else kth[t])
            if best - top > (budget - c) * np.int64(j_unit):
                counters[2] += 1
                continue
        chosen[t] = q
        used[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
        g[t + 1] = c
        if p_on and i == rows - 1:
            j = t // rows
            partner_advance(j, cand_d[q], p_alive, p_n, p_m, p_seam, p_cost, p_bits, used,
                            budget - c - np.int32(lb[t + 1, idx]))
            if j + 1 < width:
                p_min[j + 1] = partner_column(j + 1, ncol, p_alive, p_n, p_m, p_seam, p_cost, p_best[j + 1])
        if x_on:
            _place_counts(b, cand_d[q] if i == rows - 1 else -1, x_shows, avail, cnt, xs)
            if i == rows - 1:
                j = t // rows
                if not j_on:
                    advance_g(j, ncol, Gst[j], cand_d[q], x_ptr, x_left, x_right, x_up, x_static, 1, INF * 4,
                              Gst[j + 1])
                else:
                    advance_g(j, ncol, Hst[j], cand_d[q], x_ptr, x_left, x_right, x_up, j_hcost, j_unit,
                              np.int64(1) << 40, Hst[j + 1])
        t += 1
        if t < n:
            _enter(t, rows, width, ncol, pw, chosen, cand_r, cand_d, rest, la, ua,
                   x_on, x_ptr, x_left, x_right, x_up, x_static, x_F, x_min, Gst, Vst, Xst, floor, gf, xs, j_on,
               j_lam, j_order, used, topk, kth)
            phase[t] = BOTH
            _setup(t, rows, cand_ptr, lu_lo, lu_hi, l_lo, l_hi, u_lo, u_hi, phase, pos, end, src, la, ua,
                   budget - c - floor[t])
    st_t[0] = -1
    return DONE


@dataclass
class WalkState:
    """The resumable state of one walk: DFS stack, piece bitset and counters."""

    n: int
    words: int
    width: int = 1
    ncol: int = 1
    partners: int = 0  # entries of the other half's table used for partner pruning
    t: np.ndarray = field(init=False)
    phase: np.ndarray = field(init=False)
    pos: np.ndarray = field(init=False)
    end: np.ndarray = field(init=False)
    src: np.ndarray = field(init=False)
    la: np.ndarray = field(init=False)
    ua: np.ndarray = field(init=False)
    chosen: np.ndarray = field(init=False)
    g: np.ndarray = field(init=False)
    used: np.ndarray = field(init=False)
    rest: np.ndarray = field(init=False)
    counters: np.ndarray = field(init=False)
    Gst: np.ndarray = field(init=False)
    Hst: np.ndarray = field(init=False)
    topk: np.ndarray = field(init=False)
    kth: np.ndarray = field(init=False)
    p_alive: np.ndarray = field(init=False)
    p_m: np.ndarray = field(init=False)
    p_n: np.ndarray = field(init=False)
    p_best: np.ndarray = field(init=False)
    p_min: np.ndarray = field(init=False)
    Vst: np.ndarray = field(init=False)
    Xst: np.ndarray = field(init=False)
    floor: np.ndarray = field(init=False)
    gf: np.ndarray = field(init=False)
    avail: np.ndarray = field(init=False)
    cnt: np.ndarray = field(init=False)
    xs: np.ndarray = field(init=False)

    def __post_init__(self):
        size = self.n + 1
        self.t = np.full(1, -2, np.int64)
        self.phase = np.zeros(size, np.int64)
        self.pos = np.zeros(size, np.int64)
        self.end = np.zeros(size, np.int64)
        self.src = np.zeros(size, np.int64)
        self.la = np.zeros(size, np.int64)
        self.ua = np.zeros(size, np.int64)
        self.chosen = np.zeros(size, np.int64)
        self.g = np.zeros(size, np.int32)
        self.used = np.zeros(self.words, np.uint64)
        self.rest = np.zeros(size, np.int64)
        self.counters = np.zeros(4, np.int64)
        self.Gst = np.zeros((self.width + 1, self.ncol), np.int64)
        self.Hst = np.zeros((self.width + 1, self.ncol), np.int64)
        self.Vst = np.zeros((self.width, self.ncol), np.int32)
        self.Xst = np.zeros(self.width + 1, np.int32)
        self.floor = np.zeros(size, np.int32)
        self.gf = np.zeros(size, np.int32)
        self.avail = np.zeros(self.ncol, np.int32)
        self.cnt = np.zeros(self.ncol, np.int32)
        self.xs = np.zeros(1, np.int64)  # the seam-count excess
        self.topk = np.zeros(size, np.int64)
        self.kth = np.zeros(size, np.int64)
        e = max(self.partners, 1)
        self.p_alive = np.zeros((self.width + 1, e), np.int32)
        self.p_m = np.zeros((self.width + 1, e), np.int32)
        self.p_n = np.zeros(self.width + 1, np.int64)
        self.p_best = np.zeros((self.width, self.ncol), np.int64)
        self.p_min = np.zeros(self.width + 1, np.int64)

    def args(self) -> tuple:
        return (self.t, self.phase, self.pos, self.end, self.src, self.la, self.ua, self.chosen, self.g,
                self.used, self.rest, self.counters, self.Gst, self.Vst, self.Xst, self.floor, self.gf,
                self.avail, self.cnt, self.xs, self.Hst, self.topk, self.kth, self.p_alive, self.p_m, self.p_n,
                self.p_best, self.p_min)

    @property
    def nodes(self) -> int:
        return int(self.counters[1])

    @property
    def pruned(self) -> int:
        return int(self.counters[2])

    @property
    def recorded(self) -> int:
        return int(self.counters[3])




def prepare(half, ncol: int) -> tuple:
    """The per-cell candidate orderings of a half (see `candidate_index`)."""
    return candidate_index(half.rows, half.cand_ptr, half.cand_l, half.cand_u, ncol)


def advance(half, order: tuple, lb: np.ndarray, cross, partners, ncol: int, budget: int, state: WalkState,
            rec_bits, rec_seam, rec_cost, node_quota: int, target: int = -1) -> int:
    """One call of the kernel on a half: resume `state` until DONE, FULL, QUOTA or FOUND."""
    return walk(half.rows, half.width, ncol, half.seam, half.cand_ptr, half.cand_bit, half.cand_u, half.cand_r,
                half.cand_d, half.cand_l, half.static, lb, budget, *order, *cross.args(), *partners.args(),
                *state.args(), rec_bits, rec_seam, rec_cost, node_quota, target)


__all__ = ["DONE", "FULL", "QUOTA", "FOUND", "candidate_index", "walk", "WalkState", "prepare", "advance"]
