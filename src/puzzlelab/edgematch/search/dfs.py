"""Depth-first backtracking with a global mismatch tolerance, bounded by a node budget.

Cells are filled along the same visiting order and candidate tables as the beam. At each cell the
candidates are tried best first: those matching every placed neighbour, then those with one
mismatch, two, ... as long as the mismatches of the whole partial board stay within `tolerance`.
A node is one placement tried. The search stops at the budget, at a full board, or when the tree
is exhausted, and reports the deepest board it reached (the best scored among equally deep ones).

The same kernel runs limited-discrepancy search (`lds.py`): with `max_disc` set, taking any
candidate other than the first one at a cell costs one discrepancy, and paths with more than
`max_disc` discrepancies are not explored.

`seed` > 0 shuffles each cell's candidates within a mismatch class (random restarts); seed 0 keeps
the tables' order.

How it runs fast: the kernel keeps an explicit stack (one row per depth: the orientation placed,
the mismatch class, a cursor into the candidate lists, the colours the cell must match) and
walks the lists of `tables.Cands` lazily — the candidates with all placed neighbours matched come
straight from the list indexed by the two colours the cell must match, those with mismatches
from the per-side lists — so nothing is allocated or copied per node; a piece's use is one byte,
set and cleared in O(1). When no mismatch is left to allow, a placement whose next cell has no
matching candidate is taken back at once, without entering that cell. Everything the loop reads
per depth sits in two flat tables (`Plan.P`, the stack `Stack.S`), indexed without sign checks.
Only seeded runs, whose shuffle needs a whole class at once, copy a class into a per-depth
buffer first. The walk stops at a node quota and resumes exactly where it stopped.

Most of a long unseeded DFS runs with the mismatch budget spent (every open depth then takes only
from its pair list): `_walk_exact` runs that stretch as a tighter loop — the same nodes in the same
order — computing the next cell's usable mask once, at the placement, and keeping the deepest
depth in a register (about twice the general loop's placements per second on the official set).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...lab.bits import lowest_bit
from ...lab.errors import InputError
from ...lab.jit import inline_kernel, kernel
from ..board import Board
from .mixing import mix64, seed_hash
from .tables import SIDE_PAIRS, Tables, board_of

# Where a mismatch class comes from: the pair list, walked through a bit mask of its usable entries
# (PAIR; lists of up to 64 entries), or walked entry by entry (PAIR_LONG); the side lists (SIDES; for a
# cell with one placed neighbour matched, its one side list through a bit mask: SIDE_BITS); the type list.
PAIR, SIDES, FIT, PAIR_LONG, SIDE_BITS = 0, 1, 2, 3, 4
BUDGET, DONE, EXHAUSTED, QUOTA = 0, 1, 2, 3  # why a walk call returned (DONE: a full board; EXHAUSTED: the tree)
# the walk's scalar registers (Stack.vars)
V_D, V_NODES, V_MISM, V_SCORE, V_BEST_DEPTH, V_BEST_SCORE, V_RNG, V_STATUS = range(8)
SLICE = 50_000_000  # nodes per kernel call between wall-clock checks

# Plan.P: per depth, PW fields
PW = 32
P_K, P_PBASE, P_PSWAP, P_FITLO, P_FITHI = 0, 1, 2, 3, 4  # placed neighbours; pair block; sides swapped; type list
P_SRC, P_OSIDE, P_FIX, P_SIDE, P_SBASE = 5, 9, 13, 17, 21  # per neighbour j (4 each): depth (-1: hint), its side
#   facing the cell, a hint's colour, the cell's side, the (type, side) block of side_flat
# Stack.S: per depth, SW fields
SW = 16
S_PR, S_PHASE, S_TRIED, S_DISC, S_GAIN, S_MODE, S_POS, S_END, S_SIDE, S_COL, S_BUFN, S_SHUF, S_MASK = \
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15
#   orientation placed; mismatch class tried; candidates taken (read by LDS only: the exact loop leaves
#   it); discrepancies above; matched sides; list kind; cursor; list end; SIDES: which neighbour's list,
#   PAIR: the list's first entry; colours to match (4); seeded: class size, and 1 until the class is
#   shuffled; PAIR: the usable entries not yet taken (bits)


class Limits(NamedTuple):
    """What bounds a backtracking run: node budget, mismatch tolerance, discrepancies (< 0: any), shuffle seed."""

    budget: int
    tolerance: int
    max_disc: int
    seed: np.uint64  # 0: keep the tables' order
    exact_loop: bool  # run the spent-budget stretches in `_walk_exact` (False: the general loop only)


class Plan(NamedTuple):
    """The candidate lists and, per depth, what the walk looks up at each node (read-only, flat)."""

    P: np.ndarray  # (D * PW,) int64, fields P_*
    rotcol: np.ndarray  # (4n * 4,) uint8: colour on side s of orientation pr at pr * 4 + s
    pair_pr: np.ndarray  # int32, tables.Cands
    side_pr: np.ndarray
    fit_pr: np.ndarray
    pair_ptr: np.ndarray  # int64, Cands.pair_ptr flattened
    side_ptr: np.ndarray  # int64, Cands.side_ptr flattened
    ncol: int
    width: int  # a class holds fewer candidates than this


class Stack(NamedTuple):
    """The walk's explicit stack and registers; resumable between kernel calls."""

    S: np.ndarray  # ((D + 1) * SW,) int64, fields S_*
    used: np.ndarray  # (n,) uint8: 1 for a piece on the board (hints included)
    buf: np.ndarray  # (D * width,) int32: seeded runs, the shuffled class of each depth
    vars: np.ndarray  # (8,) int64: the registers V_*


def make_plan(tables: Tables) -> Plan:
    """The walk's view of the tables."""
    c, lay = tables.cands, tables.layout
    D = max(len(lay.order), 1)
    ncol = c.ncol
    P = np.zeros((D, PW), np.int64)
    P[:, P_PBASE] = -1
    for d in range(len(lay.order)):
        t = int(lay.cell_type[lay.order[d]])
        k = int(lay.nb_k[d])
        P[d, P_K] = k
        P[d, P_FITLO], P[d, P_FITHI] = c.fit_ptr[t], c.fit_ptr[t + 1]
        for j in range(k):
            s = int(lay.nb_side[d, j])
            P[d, P_SIDE + j] = s
            P[d, P_SRC + j] = lay.nb_depth[d, j]
            P[d, P_OSIDE + j] = (s + 2) & 3
            P[d, P_FIX + j] = lay.nb_fixcol[d, j]
            P[d, P_SBASE + j] = (t * 4 + s) * (ncol + 1)
        if k >= 2:
            a, b = int(lay.nb_side[d, 0]), int(lay.nb_side[d, 1])
            P[d, P_PSWAP] = 1 if a > b else 0
            P[d, P_PBASE] = (t * 6 + SIDE_PAIRS.index((min(a, b), max(a, b)))) * (ncol * ncol + 1)
    return Plan(P.ravel(), np.ascontiguousarray(c.rotcol).ravel(), c.pair_pr, c.side_pr, c.fit_pr,
                c.pair_ptr.ravel(), c.side_ptr.ravel(), ncol, c.fit_pr.shape[0] + 1)


def new_stack(tables: Tables, plan: Plan) -> Stack:
    """A fresh walk of these tables: hinted pieces used, depth 0 not yet entered."""
    D = max(len(tables.order), 1)
    return Stack(np.zeros((D + 1) * SW, np.int64), tables.hint_used.astype(np.uint8),
                 np.zeros(D * plan.width, np.int32), np.zeros(8, np.int64))


@inline_kernel
def _u(i):
    """An index known to be non-negative (numba then skips the wrap-around of negative indices)."""
    return np.uint64(i)


@inline_kernel
def _p(pl, d, f):
    return pl.P[_u(d * PW + f)]


@inline_kernel
def _s(st, d, f):
    return st.S[_u(d * SW + f)]


@inline_kernel
def _set(st, d, f, value):
    st.S[_u(d * SW + f)] = value


@inline_kernel
def _colour(pl, pr, side):
    return np.int64(pl.rotcol[_u(pr * 4 + side)])


@inline_kernel
def _pair_start(pl, st, d):
    """Index in pair_ptr of the list of depth d's two placed colours."""
    ca, cb = _s(st, d, S_COL), _s(st, d, S_COL + 1)
    if _p(pl, d, P_PSWAP):
        ca, cb = cb, ca
    return _p(pl, d, P_PBASE) + ca * pl.ncol + cb


@inline_kernel
def _usable(pl, st, d, lst, lo, hi, matched):
    """Bit y set for entry lo + y of `lst` (a pair list: `matched` = 2, a side list: 1) whose piece is
    unused and that matches depth d's placed sides past the first `matched`. The class's usable entries
    never change while it is open (the pieces placed below it come back before its next candidate is
    taken), so this is computed once, when it opens."""
    k = _p(pl, d, P_K)
    m = np.uint64(0)
    for y in range(hi - lo):
        pr = np.int64(lst[_u(lo + y)])
        ok = np.uint64(1) - np.uint64(st.used[_u(pr >> 2)])
        for j in range(matched, k):
            if not _matches(pl, st, d, pr, j):
                ok = np.uint64(0)
        m |= ok << np.uint64(y)
    return m


@inline_kernel
def _open_class(pl, st, d):
    """Point depth d's cursor at the start of its current mismatch class."""
    phase = _s(st, d, S_PHASE)
    want = _p(pl, d, P_K) - phase
    if want >= 2 and phase == 0:
        x = _pair_start(pl, st, d)
        lo, hi = pl.pair_ptr[_u(x)], pl.pair_ptr[_u(x + 1)]
        if hi - lo <= 64:
            _set(st, d, S_MODE, PAIR)
            _set(st, d, S_SIDE, lo)
            _set(st, d, S_MASK, np.int64(_usable(pl, st, d, pl.pair_pr, lo, hi, 2)))
        else:
            _set(st, d, S_MODE, PAIR_LONG)
            _set(st, d, S_POS, lo)
            _set(st, d, S_END, hi)
    elif want >= 1:
        x = _p(pl, d, P_SBASE) + _s(st, d, S_COL)
        lo, hi = pl.side_ptr[_u(x)], pl.side_ptr[_u(x + 1)]
        if want == 1 and phase == 0 and hi - lo <= 64:
            _set(st, d, S_MODE, SIDE_BITS)
            _set(st, d, S_SIDE, lo)
            _set(st, d, S_MASK, np.int64(_usable(pl, st, d, pl.side_pr, lo, hi, 1)))
        else:
            _set(st, d, S_MODE, SIDES)
            _set(st, d, S_SIDE, 0)
            _set(st, d, S_POS, lo)
            _set(st, d, S_END, hi)
    else:
        _set(st, d, S_MODE, FIT)
        _set(st, d, S_POS, _p(pl, d, P_FITLO))
        _set(st, d, S_END, _p(pl, d, P_FITHI))


@inline_kernel
def _matches(pl, st, d, pr, j):
    """Whether orientation pr shows, on the side facing neighbour j of depth d, that neighbour's colour."""
    return _colour(pl, pr, _p(pl, d, P_SIDE + j)) == _s(st, d, S_COL + j)


@inline_kernel
def _next_masked(pl, st, d):
    """PAIR / SIDE_BITS: the next usable entry of the list, the lowest bit left in its mask (cleared as
    it is taken), or -1."""
    m = np.uint64(_s(st, d, S_MASK))
    if m == 0:
        return -1
    _set(st, d, S_MASK, np.int64(m & (m - np.uint64(1))))
    y = _s(st, d, S_SIDE) + np.int64(lowest_bit(m))
    return np.int64(pl.pair_pr[_u(y)] if _s(st, d, S_MODE) == PAIR else pl.side_pr[_u(y)])


@inline_kernel
def _next_pair_long(pl, st, d, k):
    """The next unused candidate of a long pair list matching the other placed sides too, entry by entry."""
    x, end = _s(st, d, S_POS), _s(st, d, S_END)
    while x < end:
        pr = np.int64(pl.pair_pr[_u(x)])
        x += 1
        if st.used[_u(pr >> 2)]:
            continue
        ok = True
        for j in range(2, k):
            if not _matches(pl, st, d, pr, j):
                ok = False
                break
        if ok:
            _set(st, d, S_POS, x)
            return pr
    _set(st, d, S_POS, x)
    return -1


@inline_kernel
def _next_sides(pl, st, d, k):
    """The next unused candidate matching exactly `want` sides, listed under the first side it matches."""
    want = k - _s(st, d, S_PHASE)
    j = _s(st, d, S_SIDE)
    x, end = _s(st, d, S_POS), _s(st, d, S_END)
    while True:
        while x < end:
            pr = np.int64(pl.side_pr[_u(x)])
            x += 1
            if st.used[_u(pr >> 2)]:
                continue
            first = True
            for jj in range(j):
                if _matches(pl, st, d, pr, jj):
                    first = False
                    break
            if not first:
                continue
            g = 1
            for jj in range(j + 1, k):
                if _matches(pl, st, d, pr, jj):
                    g += 1
            if g == want:
                _set(st, d, S_POS, x)
                _set(st, d, S_SIDE, j)
                _set(st, d, S_END, end)
                return pr
        j += 1
        if j >= k:
            _set(st, d, S_POS, x)
            _set(st, d, S_SIDE, j)
            _set(st, d, S_END, end)
            return -1
        xx = _p(pl, d, P_SBASE + j) + _s(st, d, S_COL + j)
        x = pl.side_ptr[_u(xx)]
        end = pl.side_ptr[_u(xx + 1)]


@inline_kernel
def _next_fit(pl, st, d, k):
    """The next unused candidate of the cell type matching none of the placed sides."""
    x, end = _s(st, d, S_POS), _s(st, d, S_END)
    while x < end:
        pr = np.int64(pl.fit_pr[_u(x)])
        x += 1
        if st.used[_u(pr >> 2)]:
            continue
        ok = True
        for j in range(k):
            if _matches(pl, st, d, pr, j):
                ok = False
                break
        if ok:
            _set(st, d, S_POS, x)
            return pr
    _set(st, d, S_POS, x)
    return -1


@inline_kernel
def _next(pl, st, d):
    """The next candidate of depth d's current class in table order, or -1."""
    mode = _s(st, d, S_MODE)
    if mode == PAIR or mode == SIDE_BITS:
        return _next_masked(pl, st, d)
    k = _p(pl, d, P_K)
    if mode == SIDES:
        return _next_sides(pl, st, d, k)
    if mode == PAIR_LONG:
        return _next_pair_long(pl, st, d, k)
    return _next_fit(pl, st, d, k)


@inline_kernel
def _fill_class(pl, st, d):
    """Seeded runs: the whole class of depth d into its buffer (shuffled at its first take)."""
    n = 0
    base = d * pl.width
    while True:
        pr = _next(pl, st, d)
        if pr < 0:
            break
        st.buf[_u(base + n)] = pr
        n += 1
    _set(st, d, S_BUFN, n)
    _set(st, d, S_POS, 0)
    _set(st, d, S_SHUF, 1)


@inline_kernel
def _take_seeded(pl, st, d):
    """Seeded runs: the next candidate of depth d's buffer, the class shuffled first (Fisher-Yates on a
    splitmix stream shared by the whole run)."""
    n = _s(st, d, S_BUFN)
    pos = _s(st, d, S_POS)
    if pos >= n:
        return -1
    base = d * pl.width
    if _s(st, d, S_SHUF):
        rng = np.uint64(st.vars[V_RNG])
        for x in range(n - 1, 0, -1):
            rng = mix64(rng + np.uint64(0x9E3779B97F4A7C15))
            y = np.int64(rng % np.uint64(x + 1))
            tmp = st.buf[_u(base + x)]
            st.buf[_u(base + x)] = st.buf[_u(base + y)]
            st.buf[_u(base + y)] = tmp
        st.vars[V_RNG] = np.int64(rng)
        _set(st, d, S_SHUF, 0)
    _set(st, d, S_POS, pos + 1)
    return np.int64(st.buf[_u(base + pos)])


@inline_kernel
def _take(pl, lim, st, d):
    """The candidate depth d tries next, or -1 when its class is used up."""
    if lim.seed == 0:
        return _next(pl, st, d)
    return _take_seeded(pl, st, d)


@inline_kernel
def _open(pl, lim, st, d):
    """Open depth d's current class (seeded runs: copied out, to be shuffled at the first take)."""
    _open_class(pl, st, d)
    if lim.seed != 0:
        _fill_class(pl, st, d)


@inline_kernel
def _neighbour_colour(pl, st, d, j):
    """The colour placed neighbour j of depth d shows the cell."""
    e = _p(pl, d, P_SRC + j)
    if e < 0:
        return _p(pl, d, P_FIX + j)
    return _colour(pl, _s(st, e, S_PR), _p(pl, d, P_OSIDE + j))


@inline_kernel
def _enter(pl, lim, st, d):
    """Start depth d: the colours its placed neighbours show, class 0, nothing tried yet."""
    for j in range(_p(pl, d, P_K)):
        _set(st, d, S_COL + j, _neighbour_colour(pl, st, d, j))
    _set(st, d, S_PHASE, 0)
    _set(st, d, S_TRIED, 0)
    _open(pl, lim, st, d)


@inline_kernel
def _dead_end(pl, st, d):
    """True when depth d, with two placed neighbours, has no unused candidate matching both."""
    ca, cb = _neighbour_colour(pl, st, d, 0), _neighbour_colour(pl, st, d, 1)
    if _p(pl, d, P_PSWAP):
        ca, cb = cb, ca
    x = _p(pl, d, P_PBASE) + ca * pl.ncol + cb
    free = 0
    for y in range(pl.pair_ptr[_u(x)], pl.pair_ptr[_u(x + 1)]):
        free |= 1 - st.used[_u(pl.pair_pr[_u(y)] >> 2)]
    return free == 0


@inline_kernel
def _keep_best(st, best_pr, d, score):
    """A new deepest board (or a better one at the deepest depth): copy its placements."""
    v = st.vars
    if d + 1 > v[V_BEST_DEPTH] or (d + 1 == v[V_BEST_DEPTH] and score > v[V_BEST_SCORE]):
        v[V_BEST_DEPTH] = d + 1
        v[V_BEST_SCORE] = score
        for e in range(d + 1):
            best_pr[_u(e)] = _s(st, e, S_PR)


@inline_kernel
def _take_back(st, d, mism, score):
    """Lift depth d's piece; returns the mismatches and score without it."""
    st.used[_u(_s(st, d, S_PR) >> 2)] = 0
    return mism - _s(st, d, S_PHASE), score - _s(st, d, S_GAIN)


@inline_kernel
def _masked(st, d):
    """Depth d takes from a bit mask of the candidates matching all its placed sides (class 0)."""
    mode = _s(st, d, S_MODE)
    return (mode == PAIR or mode == SIDE_BITS) and _s(st, d, S_PHASE) == 0


@inline_kernel
def _walk_exact(pl, lim, st, best_pr, d, nodes, mism, score, stop):
    """The walk while no mismatch is left to allow (unseeded DFS, every open depth taking from its pair
    list's mask): the same nodes in the same order as `walk`'s general loop, with the next cell's mask
    computed once, at the placement (an empty one is a dead end: the placement is taken back without
    entering the cell). Returns (status, d, nodes, mism, score); status -1 hands back to `walk` (a
    depth in another mode, or the node quota reached)."""
    D = pl.P.shape[0] // PW
    status = -1
    deepest = st.vars[V_BEST_DEPTH] - 1  # a placement above it cannot make a new best board
    while nodes < stop:
        m = np.uint64(_s(st, d, S_MASK))
        if m == 0:  # depth d is done: back to the one above
            d -= 1
            if d < 0:
                d = 0
                status = EXHAUSTED
                break
            mism, score = _take_back(st, d, mism, score)
            if not _masked(st, d):
                break
            continue
        _set(st, d, S_MASK, np.int64(m & (m - np.uint64(1))))
        y = _s(st, d, S_SIDE) + np.int64(lowest_bit(m))
        pr = np.int64(pl.pair_pr[_u(y)] if _s(st, d, S_MODE) == PAIR else pl.side_pr[_u(y)])
        nodes += 1
        st.used[_u(pr >> 2)] = 1
        _set(st, d, S_PR, pr)
        g = _p(pl, d, P_K)
        _set(st, d, S_GAIN, g)
        score += g
        if d >= deepest:
            _keep_best(st, best_pr, d, score)
            deepest = st.vars[V_BEST_DEPTH] - 1
        if d + 1 == D:
            status = DONE
            break
        e = d + 1
        k = _p(pl, e, P_K)
        # Enter e as `_open_class` would for a masked list, keeping the mask for the dead-end test
        # (spelled out on purpose: entering through `_enter` made this loop ~25% slower, measured).
        if k >= 2:
            ca, cb = _neighbour_colour(pl, st, e, 0), _neighbour_colour(pl, st, e, 1)
            _set(st, e, S_COL, ca)
            _set(st, e, S_COL + 1, cb)
            for j in range(2, k):
                _set(st, e, S_COL + j, _neighbour_colour(pl, st, e, j))
            if _p(pl, e, P_PSWAP):
                ca, cb = cb, ca
            xx = _p(pl, e, P_PBASE) + ca * pl.ncol + cb
            lo, hi = pl.pair_ptr[_u(xx)], pl.pair_ptr[_u(xx + 1)]
            if hi - lo <= 64:
                mm = _usable(pl, st, e, pl.pair_pr, lo, hi, 2)
                if mm == 0 and k == 2:  # nothing matches at the next cell: entering it would come back
                    st.used[_u(pr >> 2)] = 0
                    score -= g
                    continue
                _set(st, e, S_PHASE, 0)
                _set(st, e, S_MODE, PAIR)
                _set(st, e, S_SIDE, lo)
                _set(st, e, S_MASK, np.int64(mm))
                d = e
                continue
        elif k == 1:
            c = _neighbour_colour(pl, st, e, 0)
            _set(st, e, S_COL, c)
            xx = _p(pl, e, P_SBASE) + c
            lo, hi = pl.side_ptr[_u(xx)], pl.side_ptr[_u(xx + 1)]
            if hi - lo <= 64:
                _set(st, e, S_PHASE, 0)
                _set(st, e, S_MODE, SIDE_BITS)
                _set(st, e, S_SIDE, lo)
                _set(st, e, S_MASK, np.int64(_usable(pl, st, e, pl.side_pr, lo, hi, 1)))
                d = e
                continue
        if k == 2 and _dead_end(pl, st, e):
            st.used[_u(pr >> 2)] = 0
            score -= g
            continue
        d = e
        _enter(pl, lim, st, d)
        break
    return status, d, nodes, mism, score


@kernel
def walk(pl, lim, st, best_pr, stop_at):
    """Advance the backtracking until the node budget (BUDGET), `stop_at` nodes (QUOTA), a full board (DONE)
    or the end of the tree (EXHAUSTED); returns the status (also kept in vars[V_STATUS]).

    The registers live in locals while the walk runs and go back to `st.vars` when it returns."""
    D = pl.P.shape[0] // PW
    v = st.vars
    d, nodes, mism, score = v[V_D], v[V_NODES], v[V_MISM], v[V_SCORE]
    stop = min(lim.budget, stop_at)
    lds = lim.max_disc >= 0
    exact = lim.exact_loop and not lds and lim.seed == 0
    status = QUOTA
    while True:
        if nodes >= stop:
            status = BUDGET if nodes >= lim.budget else QUOTA
            break
        if exact and mism >= lim.tolerance and _masked(st, d):
            status, d, nodes, mism, score = _walk_exact(pl, lim, st, best_pr, d, nodes, mism, score, stop)
            if status >= 0:
                break
            status = QUOTA
            continue
        pr = -1
        tried = _s(st, d, S_TRIED)
        if not (lds and tried >= 1 and _s(st, d, S_DISC) + 1 > lim.max_disc):
            pr = _take(pl, lim, st, d)
            while pr < 0 and _s(st, d, S_PHASE) < _p(pl, d, P_K) and mism + _s(st, d, S_PHASE) + 1 <= lim.tolerance:
                _set(st, d, S_PHASE, _s(st, d, S_PHASE) + 1)  # one more mismatch allowed here
                _open(pl, lim, st, d)
                pr = _take(pl, lim, st, d)
        if pr < 0:  # depth d is done: back to the one above
            d -= 1
            if d < 0:
                d = 0
                status = EXHAUSTED
                break
            mism, score = _take_back(st, d, mism, score)
            continue
        # place pr at depth d: one node
        _set(st, d + 1, S_DISC, _s(st, d, S_DISC) + (1 if tried >= 1 else 0))
        _set(st, d, S_TRIED, tried + 1)
        nodes += 1
        st.used[_u(pr >> 2)] = 1
        _set(st, d, S_PR, pr)
        m = _s(st, d, S_PHASE)
        g = _p(pl, d, P_K) - m
        _set(st, d, S_GAIN, g)
        mism += m
        score += g
        _keep_best(st, best_pr, d, score)
        if d + 1 == D:
            status = DONE
            break
        if lim.seed == 0 and mism + 1 > lim.tolerance and _p(pl, d + 1, P_K) == 2 and _dead_end(pl, st, d + 1):
            # no mismatch left to allow and nothing matches at the next cell: entering it would come back
            mism, score = _take_back(st, d, mism, score)
            continue
        d += 1
        _enter(pl, lim, st, d)
    v[V_D], v[V_NODES], v[V_MISM], v[V_SCORE], v[V_STATUS] = d, nodes, mism, score, status
    return status


@kernel
def _enter_first(pl, lim, st):
    """Enter depth 0 of a fresh walk."""
    _enter(pl, lim, st, 0)


@dataclass
class SearchResult:
    board: Board
    score: int
    max_score: int
    depth: int
    nodes: int
    time_s: float
    exhausted: bool
    iterations: int = 1
    timed_out: bool = False  # stopped by the deadline (then not reproducible)


def run_search(tables: Tables, nodes: int, tolerance: int, seed: int = 0, max_disc: int = -1,
               deadline: float | None = None, exact_loop: bool = True) -> SearchResult:
    """One backtracking run (DFS when max_disc < 0); the deepest board reached.

    `deadline` (a time.perf_counter() value) stops the walk between slices of SLICE nodes;
    `exact_loop=False` keeps every node in the general loop (the same result, slower: for tests)."""
    if nodes < 1:
        raise InputError(f"--node-limit must be at least 1, not {nodes}")
    if tolerance < 0:
        raise InputError(f"--tolerance must be 0 or more, not {tolerance}")
    start = time.perf_counter()
    D = len(tables.order)
    best_pr = np.zeros(max(D, 1), np.int32)
    seed_h = np.uint64(0) if seed == 0 else seed_hash(seed, 7)
    lim = Limits(int(nodes), int(tolerance), int(max_disc), seed_h, bool(exact_loop))
    plan = make_plan(tables)
    st = new_stack(tables, plan)
    st.vars[V_SCORE] = st.vars[V_BEST_SCORE] = tables.base_score
    st.vars[V_RNG] = np.array([seed_h], np.uint64).view(np.int64)[0]
    status = EXHAUSTED if D == 0 else QUOTA
    if D:
        _enter_first(plan, lim, st)
    while status == QUOTA:
        status = walk(plan, lim, st, best_pr, int(st.vars[V_NODES]) + SLICE)
        if deadline is not None and time.perf_counter() > deadline:
            break
    best_depth = int(st.vars[V_BEST_DEPTH])
    board = board_of(tables, best_pr[:best_depth])
    done = status in (DONE, EXHAUSTED)
    return SearchResult(board=board, score=int(st.vars[V_BEST_SCORE]), max_score=tables.max_score,
                        depth=int(board.filled), nodes=int(st.vars[V_NODES]), time_s=time.perf_counter() - start,
                        exhausted=bool(done and best_depth < D), timed_out=status == QUOTA)


def dfs(tables: Tables, nodes: int, tolerance: int, seed: int = 0, deadline: float | None = None) -> SearchResult:
    return run_search(tables, nodes, tolerance, seed, deadline=deadline)
