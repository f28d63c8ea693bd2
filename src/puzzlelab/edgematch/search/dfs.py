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
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...lab.errors import InputError
from ...lab.jit import allocating_kernel, kernel
from ..board import Board
from .candidates import Out, fitting, matching_all, matching_sides, neighbours, new_probe
from .mixing import mix64, seed_hash
from .tables import Tables, board_of


class Limits(NamedTuple):
    """What bounds a backtracking run: node budget, mismatch tolerance, discrepancies (< 0: any), shuffle seed."""

    budget: int
    tolerance: int
    max_disc: int
    seed: np.uint64  # 0: keep the tables' order


@kernel
def _fill(c, d, m, k, t, nb, used, out):
    """Candidates for depth d with exactly m mismatches against the k placed neighbours."""
    want = k - m
    if want >= 2:
        if m == 0:
            return matching_all(c, used, 0, t, k, nb, out, True)
        return matching_sides(c, used, 0, t, k, nb, want, want, out, out.g, True)
    if want == 1:
        return matching_sides(c, used, 0, t, k, nb, 1, 1, out, out.g, True)
    return fitting(c, used, 0, t, k, nb, 0, out)


@allocating_kernel
def search_kernel(c, lay, lim, base_score, used0, best_pr):
    """Backtracking (max_disc < 0: unlimited discrepancies). Returns (nodes, best depth, best score, done)."""
    D = lay.order.shape[0]
    budget, tolerance, max_disc, seed_h = lim.budget, lim.tolerance, lim.max_disc, lim.seed
    width = c.fit_pr.shape[0] + 1
    cand = np.empty((max(D, 1), width), np.int32)
    gains = np.empty(width, np.int32)
    cand_n = np.zeros(max(D, 1), np.int64)
    cand_pos = np.zeros(max(D, 1), np.int64)
    phase = np.zeros(max(D, 1), np.int64)
    tried = np.zeros(max(D, 1), np.int64)
    disc = np.zeros(max(D, 1) + 1, np.int64)
    cur = np.zeros((1, max(D, 1)), np.int16)
    gain_at = np.zeros(max(D, 1), np.int64)
    used = np.zeros((1, used0.shape[0]), np.uint64)
    used[0, :] = used0
    nb = new_probe()
    nodes = 0
    mism = 0
    score = base_score
    best_depth = 0
    best_score = base_score
    if D == 0:
        return 0, 0, base_score, True
    d = 0
    k = neighbours(lay, c.rotcol, cur, 0, 0, nb)
    cand_n[0] = _fill(c, 0, 0, k, lay.cell_type[lay.order[0]], nb, used, Out(cand[0], gains))
    cand_pos[0] = 0
    phase[0] = 0
    tried[0] = 0
    rng = seed_h
    while True:
        if nodes >= budget:
            return nodes, best_depth, best_score, False
        if cand_pos[d] < cand_n[d]:
            if max_disc >= 0 and tried[d] >= 1 and disc[d] + 1 > max_disc:
                cand_pos[d] = cand_n[d]
                phase[d] = 99
                continue
            if seed_h != 0 and cand_pos[d] == 0:
                # shuffle this batch of candidates (Fisher-Yates on a splitmix stream)
                for x in range(cand_n[d] - 1, 0, -1):
                    rng = mix64(rng + np.uint64(0x9E3779B97F4A7C15))
                    y = np.int64(rng % np.uint64(x + 1))
                    tmp = cand[d, x]
                    cand[d, x] = cand[d, y]
                    cand[d, y] = tmp
            pr = cand[d, cand_pos[d]]
            cand_pos[d] += 1
            disc[d + 1] = disc[d] + (1 if tried[d] >= 1 else 0)
            tried[d] += 1
            nodes += 1
            p = pr >> 2
            used[0, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
            cur[0, d] = pr
            kk = lay.nb_k[d]
            gain_at[d] = kk - phase[d]
            mism += phase[d]
            score += gain_at[d]
            if d + 1 > best_depth or (d + 1 == best_depth and score > best_score):
                best_depth = d + 1
                best_score = score
                for e in range(d + 1):
                    best_pr[e] = cur[0, e]
            if d + 1 == D:
                return nodes, best_depth, best_score, True
            d += 1
            k = neighbours(lay, c.rotcol, cur, 0, d, nb)
            phase[d] = 0
            cand_pos[d] = 0
            tried[d] = 0
            cand_n[d] = _fill(c, d, 0, k, lay.cell_type[lay.order[d]], nb, used, Out(cand[d], gains))
            continue
        # this mismatch class is exhausted: allow one more mismatch here if the budget permits
        if phase[d] < lay.nb_k[d] and mism + phase[d] + 1 <= tolerance:
            phase[d] += 1
            k = neighbours(lay, c.rotcol, cur, 0, d, nb)
            cand_pos[d] = 0
            cand_n[d] = _fill(c, d, phase[d], k, lay.cell_type[lay.order[d]], nb, used, Out(cand[d], gains))
            continue
        # backtrack
        d -= 1
        if d < 0:
            return nodes, best_depth, best_score, True
        pr = cur[0, d]
        p = pr >> 2
        used[0, p >> 6] &= ~(np.uint64(1) << np.uint64(p & 63))
        mism -= phase[d]
        score -= gain_at[d]


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


def run_search(tables: Tables, nodes: int, tolerance: int, seed: int = 0, max_disc: int = -1) -> SearchResult:
    """One backtracking run (DFS when max_disc < 0); the deepest board reached."""
    if nodes < 1:
        raise InputError(f"--node-limit must be at least 1, not {nodes}")
    if tolerance < 0:
        raise InputError(f"--tolerance must be 0 or more, not {tolerance}")
    start = time.perf_counter()
    D = len(tables.order)
    nw = (tables.n_pieces + 63) // 64
    used0 = np.zeros(nw, np.uint64)
    for p in np.flatnonzero(tables.hint_used):
        used0[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    best_pr = np.zeros(max(D, 1), np.int16)
    seed_h = np.uint64(0) if seed == 0 else seed_hash(seed, 7)
    lim = Limits(int(nodes), int(tolerance), int(max_disc), seed_h)
    n, best_depth, best_score, done = search_kernel(tables.cands, tables.layout, lim, tables.base_score, used0,
                                                    best_pr)
    board = board_of(tables, best_pr[:best_depth])
    return SearchResult(board=board, score=int(best_score), max_score=tables.max_score, depth=int(board.filled),
                        nodes=int(n), time_s=time.perf_counter() - start, exhausted=bool(done and best_depth < D))


def dfs(tables: Tables, nodes: int, tolerance: int, seed: int = 0) -> SearchResult:
    return run_search(tables, nodes, tolerance, seed)
