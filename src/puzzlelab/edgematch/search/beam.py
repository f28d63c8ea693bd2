"""Beam search: keep the W best partial boards, grow every one by one cell, keep the W best children.

A state is a partial placement along the visiting order, its set of used pieces (a bitset) and its
score (matched inner edges so far). At depth d every survivor is extended by every legal
(piece, rotation) for cell order[d]: unused, grey sides exactly on the border; mismatches with
placed neighbours are allowed and simply not scored. The W best children survive.

Selection, exactly:

- every child gets a lottery number ``key = hash(seed, depth, parent index, orientation)``;
- with ``tie_window = k``, let T be the W-th best score among the children; children scoring more
  than T + k survive, and the remaining places go to the children scoring within [T - k, T + k]
  with the smallest keys (k = 0: a seeded lottery among exactly equal scores);
- with ``temperature = t > 0``, each child is ranked by ``score + t * G`` with G the standard Gumbel
  variable drawn from its key, and the W best ranks survive;
- ``dedup``: ``pieces`` keeps, among children using the same set of pieces, only the best ranked;
  ``path`` only merges children that use the same pieces *and* show the same colours to the cells
  still empty (the frontier of their path), i.e. children whose futures are identical;
  the cut is lowered until W distinct children survive (or none are left).

Survivors are stored in a canonical order (parent index, then orientation code), so a run is a
pure function of (puzzle, order, hints, width, seed, options): identical bytes for identical seeds.
Counting children uses the per-(side, colour) candidate lists, so only placements that match
something are looked at one by one; the others are counted from per-state inventory totals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from ...lab.errors import InputError
from ...lab.progress import Progress
from ..board import Board
from ..puzzle import Puzzle
from .candidates import fitting, matching_all, matching_sides
from .candidates import is_used as _is_used
from .candidates import neighbours as _neighbours
from .mixing import GOLD, mix64, seed_hash, zobrist
from .tables import Tables, board_of

DEDUP_MODES = ("none", "pieces", "path")

@njit(cache=True, inline="always")
def child_key(seed_h, depth, parent, pr):
    h = mix64(seed_h ^ (np.uint64(depth) * GOLD))
    h = mix64(h ^ np.uint64(parent))
    return mix64(h ^ np.uint64(pr))


@njit(cache=True)
def _count(i, t, k, sides, cols, used, free, fit_ptr, side_ptr, side_pr, rotcol, hist):
    """hist[g] = children of state i with gain g (g = matched sides), g = 0..4; returns the total."""
    for g in range(5):
        hist[g] = 0
    npos = matching_sides(i, t, k, sides, cols, used, side_ptr, side_pr, rotcol, 0, 0, hist, hist, hist, False)
    hist[0] = free[i, t] - npos
    return free[i, t]


@njit(cache=True)
def _count_top(i, t, k, sides, cols, used, free, side_ptr, side_pr, pair_ptr, pair_pr, rotcol, ncol, dummy):
    """Children of state i with the largest possible gain (all k placed neighbours matched)."""
    if k == 0:
        return free[i, t]
    if k == 1:
        n = 0
        for x in range(side_ptr[t, sides[0], cols[0]], side_ptr[t, sides[0], cols[0] + 1]):
            if not _is_used(used, i, side_pr[x] >> 2):
                n += 1
        return n
    return matching_all(i, t, k, sides, cols, used, pair_ptr, pair_pr, rotcol, ncol, dummy, dummy, False)


@njit(cache=True)
def _enumerate(i, t, k, gmin, sides, cols, used, fit_ptr, fit_pr, side_ptr, side_pr, pair_ptr, pair_pr, rotcol, ncol,
               out_pr, out_g):
    """Children of state i with gain >= gmin, written to out_pr/out_g; returns how many."""
    if k >= 2 and gmin >= k:
        return matching_all(i, t, k, sides, cols, used, pair_ptr, pair_pr, rotcol, ncol, out_pr, out_g, True)
    if gmin <= 0:
        return fitting(i, t, k, sides, cols, used, fit_ptr, fit_pr, rotcol, -1, out_pr, out_g)
    return matching_sides(i, t, k, sides, cols, used, side_ptr, side_pr, rotcol, gmin, 4, out_pr, out_g, out_g, True)


@njit(cache=True)
def _cut(n_cur, st_score, hist, width, k_tie, max_score, total):
    """(lo, hi, total, H): children scoring > hi all survive; [lo, hi] is the lottery band.

    `hist` may leave out children that cannot reach the band; `total` is the true number of children."""
    H = np.zeros(max_score + 6, np.int64)
    for i in range(n_cur):
        for g in range(5):
            if hist[i, g] > 0:
                H[st_score[i] + g] += hist[i, g]
    if total <= width:
        return 0, -1, total, H
    cum = 0
    T = 0
    for s in range(len(H) - 1, -1, -1):
        cum += H[s]
        if cum >= width:
            T = s
            break
    return max(0, T - k_tie), T + k_tie, total, H


@njit(cache=True)
def _build_next(d, sel_par, sel_pr, sel_sc, n_sel, st_pr, st_used, st_free, st_zp, st_zf,
                nx_pr, nx_used, nx_score, nx_free, nx_zp, nx_zf, nfit, zp_tab, zf_tab, cell, nb_k, nb_side, nb_depth,
                nb_fixcol, nb_cell, open_k, open_side, rotcol):
    """Write the selected children, sorted by (parent, orientation), as the next beam."""
    sortkey = np.empty(n_sel, np.int64)
    for j in range(n_sel):
        sortkey[j] = np.int64(sel_par[j]) * 65536 + sel_pr[j]
    idx = np.argsort(sortkey)
    n_types = st_free.shape[1]
    sides = np.empty(4, np.int64)
    cols = np.empty(4, np.int64)
    for j in range(n_sel):
        a = idx[j]
        i = sel_par[a]
        pr = sel_pr[a]
        p = pr >> 2
        for e in range(d):
            nx_pr[j, e] = st_pr[i, e]
        nx_pr[j, d] = pr
        for w in range(st_used.shape[1]):
            nx_used[j, w] = st_used[i, w]
        nx_used[j, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        for t in range(n_types):
            nx_free[j, t] = st_free[i, t] - nfit[p, t]
        nx_score[j] = sel_sc[a]
        nx_zp[j] = st_zp[i] ^ zp_tab[p]
        k = _neighbours(i, d, st_pr, nb_k, nb_side, nb_depth, nb_fixcol, rotcol, sides, cols)
        z = st_zf[i]
        for jj in range(k):
            z ^= zf_tab[nb_cell[d, jj], (sides[jj] + 2) & 3, cols[jj]]
        for jj in range(open_k[d]):
            s = open_side[d, jj]
            z ^= zf_tab[cell, s, rotcol[pr, s]]
        nx_zf[j] = z
    return n_sel


@njit(cache=True)
def step_exact(d, n_cur, width, k_tie, seed_h, t, max_score, st_pr, st_used, st_score, st_free, st_zp, st_zf,
               nx_pr, nx_used, nx_score, nx_free, nx_zp, nx_zf, hist, fit_ptr, fit_pr, side_ptr, side_pr, pair_ptr,
               pair_pr, rotcol, nfit, zp_tab, zf_tab, cell, nb_k, nb_side, nb_depth, nb_fixcol, nb_cell, open_k, open_side):
    """One depth, no dedup, no noise: count, cut, collect above-cut children + lottery in the band."""
    sides = np.empty(4, np.int64)
    cols = np.empty(4, np.int64)
    ncol = side_ptr.shape[2] - 1
    dummy = np.empty(1, np.int32)
    # Pass 1: children matching every placed neighbour (gain k, the same k for all states at this depth).
    k = nb_k[d]
    top = np.empty(n_cur, np.int64)
    Htop = np.zeros(max_score + 6, np.int64)
    total = 0
    n_top = 0
    for i in range(n_cur):
        _neighbours(i, d, st_pr, nb_k, nb_side, nb_depth, nb_fixcol, rotcol, sides, cols)
        top[i] = _count_top(i, t, k, sides, cols, st_used, st_free, side_ptr, side_pr, pair_ptr, pair_pr, rotcol,
                            ncol, dummy)
        Htop[st_score[i] + k] += top[i]
        n_top += top[i]
        total += st_free[i, t]
    # The cut T is at least T0, the W-th best score among those; only states that can reach T0 - k_tie
    # with a lower gain need their other children counted.
    reach = -1
    if n_top >= width:
        cum = 0
        for s in range(len(Htop) - 1, -1, -1):
            cum += Htop[s]
            if cum >= width:
                reach = s - k_tie
                break
    for i in range(n_cur):
        if reach < 0 or st_score[i] + k - 1 >= reach:
            _neighbours(i, d, st_pr, nb_k, nb_side, nb_depth, nb_fixcol, rotcol, sides, cols)
            _count(i, t, k, sides, cols, st_used, st_free, fit_ptr, side_ptr, side_pr, rotcol, hist[i])
        else:
            for g in range(5):
                hist[i, g] = 0
            hist[i, k] = top[i]
    lo, hi, total, H = _cut(n_cur, st_score, hist, width, k_tie, max_score, total)
    n_above = 0
    n_band = 0
    for s in range(len(H)):
        if s > hi:
            n_above += H[s]
        elif s >= lo:
            n_band += H[s]
    need = min(width, total) - n_above
    sel_par = np.empty(n_above + max(need, 0), np.int32)
    sel_pr = np.empty(n_above + max(need, 0), np.int32)
    sel_sc = np.empty(n_above + max(need, 0), np.int32)
    b_par = np.empty(n_band, np.int32)
    b_pr = np.empty(n_band, np.int32)
    b_sc = np.empty(n_band, np.int32)
    b_key = np.empty(n_band, np.uint64)
    out_pr = np.empty(fit_pr.shape[0] + 4, np.int32)
    out_g = np.empty(fit_pr.shape[0] + 4, np.int32)
    na = 0
    nb = 0
    for i in range(n_cur):
        s0 = st_score[i]
        k = _neighbours(i, d, st_pr, nb_k, nb_side, nb_depth, nb_fixcol, rotcol, sides, cols)
        if s0 + k < lo:
            continue
        m = _enumerate(i, t, k, lo - s0, sides, cols, st_used, fit_ptr, fit_pr, side_ptr, side_pr, pair_ptr,
                       pair_pr, rotcol, ncol, out_pr, out_g)
        for x in range(m):
            sc = s0 + out_g[x]
            if sc > hi:
                sel_par[na] = i
                sel_pr[na] = out_pr[x]
                sel_sc[na] = sc
                na += 1
            elif sc >= lo:
                b_par[nb] = i
                b_pr[nb] = out_pr[x]
                b_sc[nb] = sc
                b_key[nb] = child_key(seed_h, d, i, out_pr[x])
                nb += 1
    n_sel = na
    if need > 0:
        if need >= nb:
            for x in range(nb):
                sel_par[n_sel] = b_par[x]
                sel_pr[n_sel] = b_pr[x]
                sel_sc[n_sel] = b_sc[x]
                n_sel += 1
        else:
            kth = np.partition(b_key, need - 1)[need - 1]
            for x in range(nb):
                if b_key[x] < kth:
                    sel_par[n_sel] = b_par[x]
                    sel_pr[n_sel] = b_pr[x]
                    sel_sc[n_sel] = b_sc[x]
                    n_sel += 1
            for x in range(nb):
                if n_sel >= na + need:
                    break
                if b_key[x] == kth:
                    sel_par[n_sel] = b_par[x]
                    sel_pr[n_sel] = b_pr[x]
                    sel_sc[n_sel] = b_sc[x]
                    n_sel += 1
    _build_next(d, sel_par, sel_pr, sel_sc, n_sel, st_pr, st_used, st_free, st_zp, st_zf, nx_pr, nx_used, nx_score,
                nx_free, nx_zp, nx_zf, nfit, zp_tab, zf_tab, cell, nb_k, nb_side, nb_depth, nb_fixcol, nb_cell, open_k,
                open_side, rotcol)
    return n_sel, total


@njit(cache=True)
def step_general(d, n_cur, width, k_tie, temperature, dedup, seed_h, t, max_score, st_pr, st_used, st_score, st_free,
                 st_zp, st_zf, nx_pr, nx_used, nx_score, nx_free, nx_zp, nx_zf, hist, fit_ptr, fit_pr, side_ptr,
                 side_pr, pair_ptr, pair_pr, rotcol, nfit, zp_tab, zf_tab, cell, nb_k, nb_side, nb_depth, nb_fixcol, nb_cell, open_k,
                 open_side):
    """One depth with Gumbel noise and/or dedup: rank children, drop duplicates, keep the W best."""
    sides = np.empty(4, np.int64)
    cols = np.empty(4, np.int64)
    ncol = side_ptr.shape[2] - 1
    total = 0
    for i in range(n_cur):
        k = _neighbours(i, d, st_pr, nb_k, nb_side, nb_depth, nb_fixcol, rotcol, sides, cols)
        total += _count(i, t, k, sides, cols, st_used, st_free, fit_ptr, side_ptr, side_pr, rotcol, hist[i])
    lo, hi, total, H = _cut(n_cur, st_score, hist, width, k_tie, max_score, total)
    if temperature > 0.0:
        lo, hi = -1, -2  # everything is collected and ranked by noisy score
    out_pr = np.empty(fit_pr.shape[0] + 4, np.int32)
    out_g = np.empty(fit_pr.shape[0] + 4, np.int32)
    cap = 1
    while cap < 4 * width:
        cap *= 2
    while True:
        n_col = 0
        for s in range(len(H)):
            if s >= lo:
                n_col += H[s]
        c_par = np.empty(n_col, np.int32)
        c_pr = np.empty(n_col, np.int32)
        c_sc = np.empty(n_col, np.int32)
        c_prio = np.empty(n_col, np.float64)
        c_dkey = np.empty(n_col, np.uint64)
        n = 0
        for i in range(n_cur):
            s0 = st_score[i]
            k = _neighbours(i, d, st_pr, nb_k, nb_side, nb_depth, nb_fixcol, rotcol, sides, cols)
            if s0 + k < lo:
                continue
            m = _enumerate(i, t, k, lo - s0, sides, cols, st_used, fit_ptr, fit_pr, side_ptr, side_pr, pair_ptr,
                           pair_pr, rotcol, ncol, out_pr, out_g)
            rem = np.uint64(0)
            for jj in range(k):
                rem ^= zf_tab[nb_cell[d, jj], (sides[jj] + 2) & 3, cols[jj]]
            for x in range(m):
                pr = out_pr[x]
                sc = s0 + out_g[x]
                key = child_key(seed_h, d, i, pr)
                if temperature > 0.0:
                    u = (np.float64(key >> np.uint64(11)) + 0.5) / 9007199254740992.0
                    prio = sc + temperature * (-np.log(-np.log(u)))
                else:
                    eff = sc if sc > hi else hi
                    prio = eff + 0.5 * (1.0 - np.float64(key >> np.uint64(11)) / 9007199254740992.0)
                zp = st_zp[i] ^ zp_tab[pr >> 2]
                dk = zp
                if dedup == 2:
                    zf = st_zf[i] ^ rem
                    for jj in range(open_k[d]):
                        s = open_side[d, jj]
                        zf ^= zf_tab[cell, s, rotcol[pr, s]]
                    dk = zp ^ mix64(zf)
                c_par[n] = i
                c_pr[n] = pr
                c_sc[n] = sc
                c_prio[n] = -prio
                c_dkey[n] = dk
                n += 1
        # Rank: a stable sort by priority; only the best 4W (ties at the boundary included) are sorted,
        # unless dedup drops so many that the rest is needed.
        partial = n > 4 * width
        keep = np.empty(min(width, n), np.int64)
        nk = 0
        for attempt in range(2):
            if partial and attempt == 0:
                kth = np.partition(c_prio[:n], 4 * width - 1)[4 * width - 1]
                cand = np.nonzero(c_prio[:n] <= kth)[0]
                order = cand[np.argsort(c_prio[cand], kind="mergesort")]
            else:
                order = np.argsort(c_prio[:n], kind="mergesort")
            nk = 0
            if dedup == 0:
                for x in range(min(width, len(order))):
                    keep[x] = order[x]
                nk = min(width, len(order))
            else:
                table = np.zeros(cap, np.uint64)
                for x in range(len(order)):
                    if nk >= width:
                        break
                    a = order[x]
                    key = c_dkey[a]
                    if key == 0:
                        key = np.uint64(1)
                    h = np.int64(mix64(key) & np.uint64(cap - 1))
                    dup = False
                    while table[h] != 0:
                        if table[h] == key:
                            dup = True
                            break
                        h = (h + 1) & (cap - 1)
                    if dup:
                        continue
                    table[h] = key
                    keep[nk] = a
                    nk += 1
            if nk >= width or not partial:
                break
        if nk < width and lo > 0 and temperature <= 0.0 and n < total:
            lo -= 1
            hi -= 1
            continue
        sel_par = np.empty(nk, np.int32)
        sel_pr = np.empty(nk, np.int32)
        sel_sc = np.empty(nk, np.int32)
        for x in range(nk):
            sel_par[x] = c_par[keep[x]]
            sel_pr[x] = c_pr[keep[x]]
            sel_sc[x] = c_sc[keep[x]]
        _build_next(d, sel_par, sel_pr, sel_sc, nk, st_pr, st_used, st_free, st_zp, st_zf, nx_pr, nx_used, nx_score,
                    nx_free, nx_zp, nx_zf, nfit, zp_tab, zf_tab, cell, nb_k, nb_side, nb_depth, nb_fixcol, nb_cell,
                    open_k, open_side, rotcol)
        return nk, total


@dataclass
class BeamResult:
    board: Board
    score: int
    max_score: int
    depth: int
    nodes: int
    time_s: float
    survivors: int


def beam_search(puzzle: Puzzle, tables: Tables, width: int, seed: int = 0, tie_window: int = 0,
                temperature: float = 0.0, dedup: str = "none", progress: bool = True) -> BeamResult:
    """Run the beam to a full board and return the best board of the last beam."""
    if width < 1:
        raise InputError(f"--width must be at least 1, not {width}")
    if tie_window < 0:
        raise InputError(f"--tie-window must be 0 or more, not {tie_window}")
    if temperature < 0:
        raise InputError(f"--temperature must be 0 or more, not {temperature}")
    if dedup not in DEDUP_MODES:
        raise InputError(f"--dedup must be one of {', '.join(DEDUP_MODES)}, not {dedup!r}")
    start = time.perf_counter()
    D = len(tables.order)
    n_types = tables.nfit.shape[1]
    nw = (tables.n_pieces + 63) // 64
    zp_tab = zobrist((tables.n_pieces,), 1)
    zf_tab = zobrist((tables.rows * tables.cols, 4, tables.n_colors), 2)
    bufs = []
    for _ in range(2):
        bufs.append(dict(pr=np.zeros((width, max(D, 1)), np.int16), used=np.zeros((width, nw), np.uint64),
                         score=np.zeros(width, np.int32), free=np.zeros((width, n_types), np.int32),
                         zp=np.zeros(width, np.uint64), zf=np.zeros(width, np.uint64)))
    cur = bufs[0]
    for p in np.flatnonzero(tables.hint_used):
        cur["used"][0, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    cur["free"][0] = tables.nfit[~tables.hint_used].sum(axis=0)
    cur["score"][0] = tables.base_score
    n_cur = 1
    nodes = 0
    hist = np.zeros((width, 5), np.int64)
    seed_h = seed_hash(seed)
    dedup_code = DEDUP_MODES.index(dedup)
    with Progress(D, f"beam W={width} seed={seed}", unit="cells", enabled=progress) as prog:
        for d in range(D):
            nxt = bufs[(d + 1) % 2]
            cell = int(tables.order[d])
            t = int(tables.cell_type[cell])
            common = (cur["pr"], cur["used"], cur["score"], cur["free"], cur["zp"], cur["zf"],
                      nxt["pr"], nxt["used"], nxt["score"], nxt["free"], nxt["zp"], nxt["zf"], hist,
                      tables.fit_ptr, tables.fit_pr, tables.side_ptr, tables.side_pr, tables.pair_ptr,
                      tables.pair_pr, tables.rotcol, tables.nfit,
                      zp_tab, zf_tab, cell, tables.nb_k, tables.nb_side, tables.nb_depth, tables.nb_fixcol,
                      tables.nb_cell, tables.open_k, tables.open_side)
            if dedup_code == 0 and temperature == 0.0:
                n_next, total = step_exact(d, n_cur, width, tie_window, seed_h, t, tables.max_score, *common)
            else:
                n_next, total = step_general(d, n_cur, width, tie_window, float(temperature), dedup_code, seed_h, t,
                                             tables.max_score, *common)
            nodes += int(total)
            if n_next == 0:
                raise InputError(f"no legal placement for cell {cell} at depth {d}: the pieces cannot fill the board")
            n_cur = int(n_next)
            cur = nxt
            prog.update(1, note=f"best {int(cur['score'][:n_cur].max())}")
    best = int(np.argmax(cur["score"][:n_cur])) if D else 0
    board = board_of(tables, cur["pr"][best] if D else np.zeros(0, np.int16))
    score = int(cur["score"][best]) if D else tables.base_score
    return BeamResult(board=board, score=score, max_score=tables.max_score, depth=int(board.filled), nodes=nodes,
                      time_s=time.perf_counter() - start, survivors=n_cur)

