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
from typing import NamedTuple

import numpy as np

from ...lab.errors import InputError, quote
from ...lab.jit import allocating_kernel, inline_kernel, kernel
from ...lab.progress import Progress
from ..board import Board
from ..puzzle import Puzzle
from .candidates import Out, fitting, matching_all, matching_sides, neighbours, new_probe
from .candidates import is_used as _is_used
from .mixing import GOLD, mix64, seed_hash, zobrist
from .tables import Tables, board_of

DEDUP_MODES = ("none", "pieces", "path")


class States(NamedTuple):
    """One beam of W partial boards (a kernel's current beam, or the next one it writes)."""

    pr: np.ndarray  # (W, D) int16: orientation code placed at each depth
    used: np.ndarray  # (W, words) uint64: used-piece bitsets
    score: np.ndarray  # (W,) int32: matched edges so far
    free: np.ndarray  # (W, T) int32: unused candidates per cell type
    zp: np.ndarray  # (W,) uint64: Zobrist key of the piece set
    zf: np.ndarray  # (W,) uint64: Zobrist key of the colours facing empty cells


class Keys(NamedTuple):
    """The lottery seed, the fixed Zobrist tables of the dedup keys and the tie-break ranks."""

    seed: np.uint64
    zp: np.ndarray  # (n,) per piece
    zf: np.ndarray  # (R*C, 4, colours) per cell, side and colour shown
    tie: np.ndarray  # (D, 4n) uint64 rank << 56 per depth and orientation (ties.py); (1, 1): the lottery alone


class Options(NamedTuple):
    """How a beam selects its survivors (see the module docstring)."""

    width: int
    k_tie: int
    temperature: float
    dedup: int  # index in DEDUP_MODES
    max_score: int


class Picked(NamedTuple):
    """Children chosen for the next beam: parent index, orientation code, score."""

    par: np.ndarray
    pr: np.ndarray
    sc: np.ndarray


class Band(NamedTuple):
    """Children in the lottery band, with their lottery keys."""

    par: np.ndarray
    pr: np.ndarray
    sc: np.ndarray
    key: np.ndarray


class Ranked(NamedTuple):
    """Children ranked by priority (lower first), with their dedup keys."""

    par: np.ndarray
    pr: np.ndarray
    sc: np.ndarray
    prio: np.ndarray
    dkey: np.ndarray


@inline_kernel
def child_key(seed_h, depth, parent, pr):
    h = mix64(seed_h ^ (np.uint64(depth) * GOLD))
    h = mix64(h ^ np.uint64(parent))
    return mix64(h ^ np.uint64(pr))


@inline_kernel
def lottery_key(keys, depth, parent, pr):
    """A child's lottery key, lower wins: its tie-break rank in the top byte when a preference is set."""
    k = child_key(keys.seed, depth, parent, pr)
    if keys.tie.shape[0] > 1:
        k = keys.tie[depth, pr] | (k >> np.uint64(8))
    return k


@kernel
def _count(c, st, i, t, k, nb, hist, none):
    """hist[g] = children of state i with gain g (g = matched sides), g = 0..4; returns the total."""
    for g in range(5):
        hist[g] = 0
    npos = matching_sides(c, st.used, i, t, k, nb, 0, 0, none, hist, False)
    hist[0] = st.free[i, t] - npos
    return st.free[i, t]


@kernel
def _count_top(c, st, i, t, k, nb, none):
    """Children of state i with the largest possible gain (all k placed neighbours matched)."""
    if k == 0:
        return st.free[i, t]
    if k == 1:
        n = 0
        for x in range(c.side_ptr[t, nb.sides[0], nb.cols[0]], c.side_ptr[t, nb.sides[0], nb.cols[0] + 1]):
            if not _is_used(st.used, i, c.side_pr[x] >> 2):
                n += 1
        return n
    return matching_all(c, st.used, i, t, k, nb, none, False)


@kernel
def _enumerate(c, used, i, t, k, gmin, nb, out):
    """Children of state i with gain >= gmin, written to `out`; returns how many."""
    if k >= 2 and gmin >= k:
        return matching_all(c, used, i, t, k, nb, out, True)
    if gmin <= 0:
        return fitting(c, used, i, t, k, nb, -1, out)
    return matching_sides(c, used, i, t, k, nb, gmin, 4, out, out.g, True)


@allocating_kernel
def _cut(opt, score, hist, n_cur, total):
    """(lo, hi, total, H): children scoring > hi all survive; [lo, hi] is the lottery band.

    `hist` may leave out children that cannot reach the band; `total` is the true number of children."""
    H = np.zeros(opt.max_score + 6, np.int64)
    for i in range(n_cur):
        for g in range(5):
            if hist[i, g] > 0:
                H[score[i] + g] += hist[i, g]
    if total <= opt.width:
        return 0, -1, total, H
    cum = 0
    T = 0
    for s in range(len(H) - 1, -1, -1):
        cum += H[s]
        if cum >= opt.width:
            T = s
            break
    return max(0, T - opt.k_tie), T + opt.k_tie, total, H


@allocating_kernel
def _build_next(c, lay, keys, cur, nxt, sel, n_sel, d):
    """Write the selected children, sorted by (parent, orientation), as the next beam."""
    sortkey = np.empty(n_sel, np.int64)
    for j in range(n_sel):
        sortkey[j] = np.int64(sel.par[j]) * 65536 + sel.pr[j]
    idx = np.argsort(sortkey)
    n_types = cur.free.shape[1]
    cell = lay.order[d]
    nb = new_probe()
    for j in range(n_sel):
        a = idx[j]
        i = sel.par[a]
        pr = sel.pr[a]
        p = pr >> 2
        for e in range(d):
            nxt.pr[j, e] = cur.pr[i, e]
        nxt.pr[j, d] = pr
        for w in range(cur.used.shape[1]):
            nxt.used[j, w] = cur.used[i, w]
        nxt.used[j, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        for t in range(n_types):
            nxt.free[j, t] = cur.free[i, t] - c.nfit[p, t]
        nxt.score[j] = sel.sc[a]
        nxt.zp[j] = cur.zp[i] ^ keys.zp[p]
        k = neighbours(lay, c.rotcol, cur.pr, i, d, nb)
        z = cur.zf[i]
        for jj in range(k):
            z ^= keys.zf[lay.nb_cell[d, jj], (nb.sides[jj] + 2) & 3, nb.cols[jj]]
        for jj in range(lay.open_k[d]):
            s = lay.open_side[d, jj]
            z ^= keys.zf[cell, s, c.rotcol[pr, s]]
        nxt.zf[j] = z
    return n_sel


@allocating_kernel
def _count_exact(c, lay, opt, cur, hist, d, n_cur):
    """Fill hist[i] (children of state i per gain) where it matters for the cut; returns the children total.

    Children matching every placed neighbour (gain k, the same k for all states at this depth) are
    counted first: the cut T is at least T0, the W-th best score among them, so only states that can
    reach T0 - k_tie with a lower gain need their other children counted."""
    nb = new_probe()
    none = Out(np.empty(1, np.int32), np.empty(1, np.int32))
    t = lay.cell_type[lay.order[d]]
    k = lay.nb_k[d]
    top = np.empty(n_cur, np.int64)
    Htop = np.zeros(opt.max_score + 6, np.int64)
    total = 0
    n_top = 0
    for i in range(n_cur):
        neighbours(lay, c.rotcol, cur.pr, i, d, nb)
        top[i] = _count_top(c, cur, i, t, k, nb, none)
        Htop[cur.score[i] + k] += top[i]
        n_top += top[i]
        total += cur.free[i, t]
    reach = -1
    if n_top >= opt.width:
        cum = 0
        for s in range(len(Htop) - 1, -1, -1):
            cum += Htop[s]
            if cum >= opt.width:
                reach = s - opt.k_tie
                break
    none64 = Out(hist[0], hist[0])
    for i in range(n_cur):
        if reach < 0 or cur.score[i] + k - 1 >= reach:
            neighbours(lay, c.rotcol, cur.pr, i, d, nb)
            _count(c, cur, i, t, k, nb, hist[i], none64)
        else:
            for g in range(5):
                hist[i, g] = 0
            hist[i, k] = top[i]
    return total


@kernel
def _collect_exact(c, lay, keys, cur, d, n_cur, lo, hi, sel, band, out, nb):
    """Children above the band go to `sel`, those in [lo, hi] to `band` with their keys: (in sel, in band)."""
    t = lay.cell_type[lay.order[d]]
    na = 0
    nbd = 0
    for i in range(n_cur):
        s0 = cur.score[i]
        k = neighbours(lay, c.rotcol, cur.pr, i, d, nb)
        if s0 + k < lo:
            continue
        m = _enumerate(c, cur.used, i, t, k, lo - s0, nb, out)
        for x in range(m):
            sc = s0 + out.g[x]
            if sc > hi:
                sel.par[na] = i
                sel.pr[na] = out.pr[x]
                sel.sc[na] = sc
                na += 1
            elif sc >= lo:
                band.par[nbd] = i
                band.pr[nbd] = out.pr[x]
                band.sc[nbd] = sc
                band.key[nbd] = lottery_key(keys, d, i, out.pr[x])
                nbd += 1
    return na, nbd


@allocating_kernel
def _draw_lottery(sel, band, na, nbd, need):
    """Append the `need` band children with the smallest lottery keys to `sel` (ties: first listed); returns
    the size of `sel`."""
    n_sel = na
    if need <= 0:
        return n_sel
    if need >= nbd:
        for x in range(nbd):
            sel.par[n_sel] = band.par[x]
            sel.pr[n_sel] = band.pr[x]
            sel.sc[n_sel] = band.sc[x]
            n_sel += 1
        return n_sel
    kth = np.partition(band.key, need - 1)[need - 1]
    for x in range(nbd):
        if band.key[x] < kth:
            sel.par[n_sel] = band.par[x]
            sel.pr[n_sel] = band.pr[x]
            sel.sc[n_sel] = band.sc[x]
            n_sel += 1
    for x in range(nbd):
        if n_sel >= na + need:
            break
        if band.key[x] == kth:
            sel.par[n_sel] = band.par[x]
            sel.pr[n_sel] = band.pr[x]
            sel.sc[n_sel] = band.sc[x]
            n_sel += 1
    return n_sel


@allocating_kernel
def step_exact(c, lay, keys, opt, cur, nxt, hist, d, n_cur):
    """One depth, no dedup, no noise: count, cut, collect above-cut children + lottery in the band."""
    total = _count_exact(c, lay, opt, cur, hist, d, n_cur)
    lo, hi, total, H = _cut(opt, cur.score, hist, n_cur, total)
    n_above = 0
    n_band = 0
    for s in range(len(H)):
        if s > hi:
            n_above += H[s]
        elif s >= lo:
            n_band += H[s]
    need = min(opt.width, total) - n_above
    size = n_above + max(need, 0)
    sel = Picked(np.empty(size, np.int32), np.empty(size, np.int32), np.empty(size, np.int32))
    band = Band(np.empty(n_band, np.int32), np.empty(n_band, np.int32), np.empty(n_band, np.int32),
                np.empty(n_band, np.uint64))
    out = Out(np.empty(c.fit_pr.shape[0] + 4, np.int32), np.empty(c.fit_pr.shape[0] + 4, np.int32))
    na, nbd = _collect_exact(c, lay, keys, cur, d, n_cur, lo, hi, sel, band, out, new_probe())
    n_sel = _draw_lottery(sel, band, na, nbd, need)
    _build_next(c, lay, keys, cur, nxt, sel, n_sel, d)
    return n_sel, total


@kernel
def _collect_ranked(c, lay, keys, opt, cur, d, n_cur, lo, hi, ranked, out, nb):
    """Every child scoring lo or more, with its priority (noisy score, or score then lottery) and dedup key."""
    cell = lay.order[d]
    t = lay.cell_type[cell]
    n = 0
    for i in range(n_cur):
        s0 = cur.score[i]
        k = neighbours(lay, c.rotcol, cur.pr, i, d, nb)
        if s0 + k < lo:
            continue
        m = _enumerate(c, cur.used, i, t, k, lo - s0, nb, out)
        rem = np.uint64(0)
        for jj in range(k):
            rem ^= keys.zf[lay.nb_cell[d, jj], (nb.sides[jj] + 2) & 3, nb.cols[jj]]
        for x in range(m):
            pr = out.pr[x]
            sc = s0 + out.g[x]
            if opt.temperature > 0.0:
                key = child_key(keys.seed, d, i, pr)
                u = (np.float64(key >> np.uint64(11)) + 0.5) / 9007199254740992.0
                prio = sc + opt.temperature * (-np.log(-np.log(u)))
            else:
                key = lottery_key(keys, d, i, pr)
                eff = sc if sc > hi else hi
                prio = eff + 0.5 * (1.0 - np.float64(key >> np.uint64(11)) / 9007199254740992.0)
            zp = cur.zp[i] ^ keys.zp[pr >> 2]
            dk = zp
            if opt.dedup == 2:
                zf = cur.zf[i] ^ rem
                for jj in range(lay.open_k[d]):
                    s = lay.open_side[d, jj]
                    zf ^= keys.zf[cell, s, c.rotcol[pr, s]]
                dk = zp ^ mix64(zf)
            ranked.par[n] = i
            ranked.pr[n] = pr
            ranked.sc[n] = sc
            ranked.prio[n] = -prio
            ranked.dkey[n] = dk
            n += 1
    return n


@allocating_kernel
def _keep_distinct(opt, ranked, order, keep, cap):
    """The best-ranked children in `order`, at most W, dropping repeated dedup keys; returns how many."""
    if opt.dedup == 0:
        nk = min(opt.width, len(order))
        for x in range(nk):
            keep[x] = order[x]
        return nk
    nk = 0
    table = np.zeros(cap, np.uint64)
    for x in range(len(order)):
        if nk >= opt.width:
            break
        a = order[x]
        key = ranked.dkey[a]
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
    return nk


@allocating_kernel
def _rank(opt, ranked, n, cap):
    """(keep, nk): the W best children by priority, distinct by dedup key. A stable sort; only the best 4W
    (ties at the boundary included) are sorted, unless dedup drops so many that the rest is needed."""
    partial = n > 4 * opt.width
    keep = np.empty(min(opt.width, n), np.int64)
    nk = 0
    for attempt in range(2):
        if partial and attempt == 0:
            kth = np.partition(ranked.prio[:n], 4 * opt.width - 1)[4 * opt.width - 1]
            cand = np.nonzero(ranked.prio[:n] <= kth)[0]
            order = cand[np.argsort(ranked.prio[cand], kind="mergesort")]
        else:
            order = np.argsort(ranked.prio[:n], kind="mergesort")
        nk = _keep_distinct(opt, ranked, order, keep, cap)
        if nk >= opt.width or not partial:
            break
    return keep, nk


@allocating_kernel
def step_general(c, lay, keys, opt, cur, nxt, hist, d, n_cur):
    """One depth with Gumbel noise and/or dedup: rank children, drop duplicates, keep the W best."""
    nb = new_probe()
    t = lay.cell_type[lay.order[d]]
    total = 0
    none64 = Out(hist[0], hist[0])
    for i in range(n_cur):
        k = neighbours(lay, c.rotcol, cur.pr, i, d, nb)
        total += _count(c, cur, i, t, k, nb, hist[i], none64)
    lo, hi, total, H = _cut(opt, cur.score, hist, n_cur, total)
    if opt.temperature > 0.0:
        lo, hi = -1, -2  # everything is collected and ranked by noisy score
    out = Out(np.empty(c.fit_pr.shape[0] + 4, np.int32), np.empty(c.fit_pr.shape[0] + 4, np.int32))
    cap = 1
    while cap < 4 * opt.width:
        cap *= 2
    while True:
        n_col = 0
        for s in range(len(H)):
            if s >= lo:
                n_col += H[s]
        ranked = Ranked(np.empty(n_col, np.int32), np.empty(n_col, np.int32), np.empty(n_col, np.int32),
                        np.empty(n_col, np.float64), np.empty(n_col, np.uint64))
        n = _collect_ranked(c, lay, keys, opt, cur, d, n_cur, lo, hi, ranked, out, nb)
        keep, nk = _rank(opt, ranked, n, cap)
        if nk < opt.width and lo > 0 and opt.temperature <= 0.0 and n < total:
            lo -= 1
            hi -= 1
            continue
        sel = Picked(np.empty(nk, np.int32), np.empty(nk, np.int32), np.empty(nk, np.int32))
        for x in range(nk):
            sel.par[x] = ranked.par[keep[x]]
            sel.pr[x] = ranked.pr[keep[x]]
            sel.sc[x] = ranked.sc[keep[x]]
        _build_next(c, lay, keys, cur, nxt, sel, nk, d)
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


def _check_options(width: int, tie_window: int, temperature: float, dedup: str) -> None:
    if width < 1:
        raise InputError(f"--width must be at least 1, not {width}")
    if tie_window < 0:
        raise InputError(f"--tie-window must be 0 or more, not {tie_window}")
    if temperature < 0:
        raise InputError(f"--temperature must be 0 or more, not {temperature}")
    if dedup not in DEDUP_MODES:
        raise InputError(f"--dedup must be one of {', '.join(DEDUP_MODES)}, not {quote(dedup)}")


MAX_WIDTH = 1 << 22


def state_bytes(tables: Tables, width: int) -> int:
    """Memory of a beam's two state buffers and count table at this width (children lists come on top)."""
    D = max(len(tables.order), 1)
    words = (tables.n_pieces + 63) // 64
    per_state = 2 * D + 8 * words + 4 + 4 * tables.cands.nfit.shape[1] + 16
    return width * (2 * per_state + 40)


def check_width(tables: Tables, width: int, memory_budget: int | None) -> None:
    """The width must be sane, and the beam's states must fit in the memory budget, before any allocation."""
    if width > MAX_WIDTH:
        raise InputError(f"--width {width} is more than the {MAX_WIDTH} this engine allows")
    if memory_budget is not None and state_bytes(tables, width) > memory_budget:
        from ...lab.sizes import format_size

        raise InputError(f"--width {width}: the beam's states need {format_size(state_bytes(tables, width))}, more "
                         f"than the memory budget {format_size(memory_budget)}")


def _states(tables: Tables, width: int) -> States:
    D = len(tables.order)
    nw = (tables.n_pieces + 63) // 64
    n_types = tables.cands.nfit.shape[1]
    return States(np.zeros((width, max(D, 1)), np.int16), np.zeros((width, nw), np.uint64),
                  np.zeros(width, np.int32), np.zeros((width, n_types), np.int32), np.zeros(width, np.uint64),
                  np.zeros(width, np.uint64))


def beam_search(puzzle: Puzzle, tables: Tables, width: int, seed: int = 0, tie_window: int = 0,
                temperature: float = 0.0, dedup: str = "none", progress: bool = True,
                memory_budget: int | None = None, tie: np.ndarray | None = None) -> BeamResult:
    """Run the beam to a full board and return the best board of the last beam (`tie`: ties.tie_table)."""
    _check_options(width, tie_window, temperature, dedup)
    check_width(tables, width, memory_budget)
    start = time.perf_counter()
    D = len(tables.order)
    tie = np.zeros((1, 1), np.uint64) if tie is None else tie
    keys = Keys(seed_hash(seed), zobrist((tables.n_pieces,), 1), zobrist((tables.rows * tables.cols, 4,
                                                                            tables.n_colors), 2), tie)
    opt = Options(width, tie_window, float(temperature), DEDUP_MODES.index(dedup), tables.max_score)
    bufs = [_states(tables, width), _states(tables, width)]
    cur = bufs[0]
    for p in np.flatnonzero(tables.hint_used):
        cur.used[0, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    cur.free[0] = tables.cands.nfit[~tables.hint_used].sum(axis=0)
    cur.score[0] = tables.base_score
    n_cur = 1
    nodes = 0
    hist = np.zeros((width, 5), np.int64)
    step = step_exact if opt.dedup == 0 and opt.temperature == 0.0 else step_general
    with Progress(D, f"beam W={width} seed={seed}", unit="cells", enabled=progress) as prog:
        for d in range(D):
            nxt = bufs[(d + 1) % 2]
            n_next, total = step(tables.cands, tables.layout, keys, opt, cur, nxt, hist, d, n_cur)
            nodes += int(total)
            if n_next == 0:
                raise InputError(f"no legal placement for cell {int(tables.order[d])} at depth {d}: the pieces "
                                 "cannot fill the board")
            n_cur = int(n_next)
            cur = nxt
            prog.update(1, note=f"best {int(cur.score[:n_cur].max())}")
    best = int(np.argmax(cur.score[:n_cur])) if D else 0
    board = board_of(tables, cur.pr[best] if D else np.zeros(0, np.int16))
    score = int(cur.score[best]) if D else tables.base_score
    return BeamResult(board=board, score=score, max_score=tables.max_score, depth=int(board.filled), nodes=nodes,
                      time_s=time.perf_counter() - start, survivors=n_cur)
