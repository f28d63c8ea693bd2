"""Destroy-and-repair polishing of a complete board: lift a region, re-place its pieces by branch and bound.

One move: choose a region (the shape and its place drawn from the seeded stream: a rectangle, a
rectangle around a mismatched edge, a two-row or two-column band, the ring of a rectangle, or
up to `assign_cells` cells of one kind no two of which touch), lift its pieces (hint cells are never lifted), and search
every re-placement of exactly those pieces in those cells depth first, cells in row-major order,
pieces in a seeded order. A branch is cut as soon as its mismatched edges (inside the region and
towards the cells around it) exceed the budget: at first the region's current mismatches (so an
equal arrangement other than the current one is found: a sideways move on the plateau), then one
less than the best arrangement found (so the search ends on the region's best). The best found is
put in place; the board's score never drops, and the best board seen is kept.

A node is one (piece, rotation) tried at a cell with its grey sides on the border. A move stops at
its own node cap; the run stops at the first move boundary at or after the node limit, so the
result is a pure function of (puzzle, board, hints, seed, options), and a run cut into slices
(to check a wall-clock timeout or print progress) does exactly the same moves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...lab.bits import popcount
from ...lab.errors import InputError, quote
from ...lab.jit import inline_kernel, kernel
from ..board import Board
from ..hints import Hint
from ..puzzle import Puzzle
from ..score import check_board, score_kernel
from ..search.mixing import GOLD, mix64, seed_hash

SHAPES = ("rect", "mismatch", "band", "ring", "assign")
RECT, MISMATCH, BAND, RING, ASSIGN = range(len(SHAPES))
# Vars: the run's scalar registers
V_NODES, V_SCORE, V_BEST, V_NIMPR, V_MOVES = range(5)
N_VARS = 5
MAX_IMPROVEMENTS = 4096  # trajectory rows kept (a 16x16 board improves at most 480 times)
MAX_ASSIGN = 512  # cells of one assignment move (its cost matrix is assign_cells squared)
MOVE_STATS = 3  # per shape: moves, moves that changed the board, moves that raised the score


class Geometry(NamedTuple):
    """The puzzle and board layout the moves read (read-only)."""

    col: np.ndarray  # (n, 4, 4) int32: colour on side s of piece p turned r
    grey: np.ndarray  # (n, 4) int32: bit s set when side s of piece p turned r is grey
    outside: np.ndarray  # (N,) int32: bit s set when side s of the cell faces the outside
    nb: np.ndarray  # (N, 4) int32: neighbour cell on side s, -1 outside
    fixed: np.ndarray  # (N,) uint8: 1 on hint cells
    rows: int
    cols: int


class Current(NamedTuple):
    """The board being polished and the best board seen (flat, row-major)."""

    piece: np.ndarray  # (N,) int32
    rot: np.ndarray  # (N,) int32
    best_piece: np.ndarray
    best_rot: np.ndarray


class Work(NamedTuple):
    """Scratch of one move, the trajectory and the per-shape counters (written by the kernel)."""

    reg: np.ndarray  # (N,) int32: region cells in search order
    pos: np.ndarray  # (N,) int32: cell -> index in the region, -1 outside it
    lift: np.ndarray  # (N,) int32: lifted pieces (lift[i] was at reg[i])
    perm: np.ndarray  # (N,) int32: order in which the lifted pieces are tried
    used: np.ndarray  # (N,) uint8: lifted piece placed on the current path
    cur: np.ndarray  # (N,) int32: per depth, next candidate (4 * slot + rotation)
    pl_j: np.ndarray  # (N,) int32: per depth, lifted piece placed
    pl_r: np.ndarray  # (N,) int32: per depth, rotation placed
    mism: np.ndarray  # (N + 1,) int32: mismatches above each depth
    sol_j: np.ndarray  # (N,) int32: best arrangement found
    sol_r: np.ndarray  # (N,) int32
    cand: np.ndarray  # (max_cells, 4 * max_cells) int32: per depth, candidates as listed
    order: np.ndarray  # the same, fewest mismatches first: class << 16 | slot << 2 | rotation
    ncand: np.ndarray  # (max_cells,) int32
    bucket: np.ndarray  # (5,) int32: counting-sort scratch
    cost: np.ndarray  # (assign_cells + 1, assign_cells + 1) int64: assignment costs (1-based, Hungarian method)
    best_r: np.ndarray  # (assign_cells, assign_cells) int32: best rotation of piece j at cell i
    hu: np.ndarray  # (assign_cells + 1,) int64: row potentials
    hv: np.ndarray  # column potentials
    hminv: np.ndarray
    hp: np.ndarray  # (assign_cells + 1,) int32: row matched to each column
    hway: np.ndarray
    hused: np.ndarray  # (assign_cells + 1,) uint8
    impr: np.ndarray  # (MAX_IMPROVEMENTS, 2) int64: (nodes, score) at each new best
    stats: np.ndarray  # (len(SHAPES), MOVE_STATS) int64


class Params(NamedTuple):
    """What a run may do: budgets, region sizes and the shape lottery."""

    node_limit: int  # stop at the first move boundary at or after this many nodes
    move_nodes: int  # node cap of one move
    min_cells: int
    max_cells: int  # cells of a region searched by branch and bound
    assign_cells: int  # cells of an assignment move
    uphill: int  # per mille of branch-and-bound moves that may lose one edge (0: the score never drops)
    max_drop: int  # the walk stays within this many edges of the best board
    shape_cum: np.ndarray  # (len(SHAPES),) int64: cumulative shape weights


@inline_kernel
def _rand(rng, n):
    """A draw in 0..n-1 from the run's splitmix64 stream (n >= 1)."""
    rng[0] += GOLD
    return int(mix64(rng[0]) % np.uint64(n))


@inline_kernel
def _between(rng, lo, hi):
    """A draw in lo..hi (lo <= hi)."""
    return lo + _rand(rng, hi - lo + 1)


@inline_kernel
def _mark(geo, work, cell, k, limit):
    """Add a cell to the region unless it is a hint, already in, or the region is full; returns the new size."""
    if geo.fixed[cell] == 0 and work.pos[cell] < 0 and k < limit:
        work.pos[cell] = k
        work.reg[k] = cell
        return k + 1
    return k


@inline_kernel
def _rect_size(geo, rng, area):
    """(h, w) of a rectangle of about `area` cells, each side at least 2 and within the board."""
    hmax = min(geo.rows, max(2, area // 2))
    h = _between(rng, 2, max(2, hmax))
    w = min(geo.cols, max(2, area // h))
    return min(h, geo.rows), w


@inline_kernel
def _add_rect(geo, work, r0, c0, h, w, hollow, k):
    limit = work.ncand.shape[0]  # the branch and bound's lists hold max_cells depths
    for r in range(r0, r0 + h):
        for c in range(c0, c0 + w):
            if hollow and r != r0 and r != r0 + h - 1 and c != c0 and c != c0 + w - 1:
                continue
            k = _mark(geo, work, r * geo.cols + c, k, limit)
    return k


@inline_kernel
def _is_mismatch(geo, cur, cell, s):
    """True when the inner edge on side s of the cell is not matched."""
    o = geo.nb[cell, s]
    if o < 0:
        return False
    a = geo.col[cur.piece[cell], cur.rot[cell], s]
    return a == 0 or a != geo.col[cur.piece[o], cur.rot[o], (s + 2) & 3]


@inline_kernel
def _pick_mismatch(geo, cur, rng):
    """A mismatched inner edge drawn uniformly, as its first cell * 2 + (0: right side, 1: down side); -1: none."""
    N = geo.rows * geo.cols
    count = 0
    for cell in range(N):
        for s in (1, 2):
            if _is_mismatch(geo, cur, cell, s):
                count += 1
    if count == 0:
        return -1
    want = _rand(rng, count)
    for cell in range(N):
        for s in (1, 2):
            if _is_mismatch(geo, cur, cell, s):
                if want == 0:
                    return cell * 2 + (s - 1)
                want -= 1
    return -1


@inline_kernel
def _add_scatter(geo, work, rng, area, k):
    """Up to `area` cells of one kind (corner, edge or inner: the first cell drawn decides), no two side by side."""
    N = geo.rows * geo.cols
    kind = -1
    for _ in range(8 * area):
        if k >= area:
            break
        cell = _rand(rng, N)
        if geo.fixed[cell] or work.pos[cell] >= 0:
            continue
        if kind >= 0 and popcount(geo.outside[cell]) != kind:
            continue
        touching = False
        for s in range(4):
            o = geo.nb[cell, s]
            if o >= 0 and work.pos[o] >= 0:
                touching = True
        if touching:
            continue
        kind = popcount(geo.outside[cell])
        k = _mark(geo, work, cell, k, area)
    return k


@inline_kernel
def _choose_region(geo, cur, work, par, rng, shape):
    """Fill work.reg / work.pos with the region of a move of this shape; returns its size."""
    R, C = geo.rows, geo.cols
    area = _between(rng, par.min_cells, par.max_cells)
    k = 0
    if shape == MISMATCH:
        e = _pick_mismatch(geo, cur, rng)
        if e < 0:
            shape = RECT
        else:
            cell = e >> 1
            r1, c1 = cell // C, cell % C
            r2, c2 = (r1, c1 + 1) if (e & 1) == 0 else (r1 + 1, c1)
            h, w = _rect_size(geo, rng, area)
            r0 = _between(rng, max(0, r2 - h + 1), min(r1, R - h))
            c0 = _between(rng, max(0, c2 - w + 1), min(c1, C - w))
            k = _add_rect(geo, work, r0, c0, h, w, False, k)
    if shape == RECT:
        h, w = _rect_size(geo, rng, area)
        k = _add_rect(geo, work, _rand(rng, R - h + 1), _rand(rng, C - w + 1), h, w, False, k)
    elif shape == BAND:
        if _rand(rng, 2) == 0:
            w = min(C, max(2, area // 2))
            k = _add_rect(geo, work, _rand(rng, R - 1), _rand(rng, C - w + 1), 2, w, False, k)
        else:
            h = min(R, max(2, area // 2))
            k = _add_rect(geo, work, _rand(rng, R - h + 1), _rand(rng, C - 1), h, 2, False, k)
    elif shape == RING:
        half = max(4, (area + 4) // 2)  # h + w of a ring of about `area` cells
        h = min(R, _between(rng, 3, max(3, half - 3)))
        w = min(C, max(3, half - h))
        k = _add_rect(geo, work, _rand(rng, R - h + 1), _rand(rng, C - w + 1), h, w, True, k)
    elif shape == ASSIGN:
        k = _add_scatter(geo, work, rng, _between(rng, par.min_cells, par.assign_cells), k)
    # search order: row-major (each cell then meets the cells above and to its left already decided)
    if shape != ASSIGN:
        _sort_region(work, k)
    for i in range(k):
        work.pos[work.reg[i]] = i
    return k


@inline_kernel
def _sort_region(work, k):
    """Insertion sort of the region's cells (k is small)."""
    for i in range(1, k):
        x = work.reg[i]
        j = i - 1
        while j >= 0 and work.reg[j] > x:
            work.reg[j + 1] = work.reg[j]
            j -= 1
        work.reg[j + 1] = x


@inline_kernel
def _mismatches(geo, cur, work, d, cell, p, r):
    """Mismatched edges between piece p turned r at region depth d and the cells already decided."""
    m = 0
    for s in range(4):
        o = geo.nb[cell, s]
        if o < 0:
            continue
        i = work.pos[o]
        if i < 0:
            b = geo.col[cur.piece[o], cur.rot[o], (s + 2) & 3]
        elif i < d:
            b = geo.col[work.lift[work.pl_j[i]], work.pl_r[i], (s + 2) & 3]
        else:
            continue
        a = geo.col[p, r, s]
        if a == 0 or a != b:
            m += 1
    return m


@inline_kernel
def _current_mismatches(geo, cur, work, k):
    """Mismatched edges of the region as the board has it now (edges inside it and towards its surroundings)."""
    m = 0
    for d in range(k):
        cell = work.reg[d]
        for s in range(4):
            o = geo.nb[cell, s]
            if o < 0 or (work.pos[o] >= 0 and work.pos[o] > d):
                continue
            a = geo.col[cur.piece[cell], cur.rot[cell], s]
            if a == 0 or a != geo.col[cur.piece[o], cur.rot[o], (s + 2) & 3]:
                m += 1
    return m


@inline_kernel
def _open_depth(geo, cur, work, d, k, allowed):
    """List the candidates of depth d within the budget, fewest mismatches first (a counting sort); returns
    (how many, nodes spent)."""
    cell = work.reg[d]
    om = geo.outside[cell]
    room = allowed - work.mism[d]
    nodes = 0
    n = 0
    for t in range(k):
        j = work.perm[t]
        if work.used[j]:
            continue
        p = work.lift[j]
        for r in range(4):
            if geo.grey[p, r] != om:
                continue
            nodes += 1
            m = _mismatches(geo, cur, work, d, cell, p, r)
            if m <= room:
                work.cand[d, n] = (m << 16) | (j << 2) | r
                n += 1
    # stable counting sort by class (0..4) into the depth's list
    for m in range(5):
        work.bucket[m] = 0
    for i in range(n):
        work.bucket[work.cand[d, i] >> 16] += 1
    acc = 0
    for m in range(5):
        c = work.bucket[m]
        work.bucket[m] = acc
        acc += c
    for i in range(n):
        x = work.cand[d, i]
        m = x >> 16
        work.order[d, work.bucket[m]] = x
        work.bucket[m] += 1
    work.cur[d] = 0
    work.ncand[d] = n
    return nodes


@inline_kernel
def _repair(geo, cur, work, k, old, allowed, cap):
    """Branch and bound over the re-placements of the lifted pieces other than the current one, with at most
    `allowed` mismatches (the region has `old`); returns (best mismatches found or -1, nodes)."""
    best = -1
    d = 0
    work.mism[0] = 0
    nodes = _open_depth(geo, cur, work, 0, k, allowed)
    while d >= 0 and nodes < cap:
        placed = False
        m = 0
        while work.cur[d] < work.ncand[d]:
            x = work.order[d, work.cur[d]]
            work.cur[d] += 1
            j = (x >> 2) & 0x3FFF
            if work.used[j]:  # cannot happen: listed on entry, used only deeper
                continue
            m = work.mism[d] + (x >> 16)
            if m > allowed:  # sorted: the rest of the list is over the budget too
                work.cur[d] = work.ncand[d]
                break
            work.pl_j[d] = j
            work.pl_r[d] = x & 3
            placed = True
            break
        if not placed:
            d -= 1
            if d >= 0:
                work.used[work.pl_j[d]] = 0
            continue
        if d + 1 == k:
            same = m == old
            if same:
                for i in range(k):
                    if work.pl_j[i] != i or work.pl_r[i] != cur.rot[work.reg[i]]:
                        same = False
                        break
            if not same:  # the current arrangement itself is never a move
                best = m
                for i in range(k):
                    work.sol_j[i] = work.pl_j[i]
                    work.sol_r[i] = work.pl_r[i]
                allowed = m - 1
                if allowed < 0:
                    break
            continue
        work.used[work.pl_j[d]] = 1
        work.mism[d + 1] = m
        d += 1
        nodes += _open_depth(geo, cur, work, d, k, allowed)
    return best, nodes


@inline_kernel
def _assign(geo, cur, work, rng, k):
    """Re-place the pieces of k pairwise non-touching cells by an optimal assignment (Hungarian method).

    Costs are mismatches * 16k plus a seeded tie-break in 0..15, so the optimum has the fewest
    mismatches and is drawn at random among the arrangements that have them. Returns (mismatches
    after, nodes = 4k^2 placements evaluated)."""
    big = np.int64(16 * k)
    for i in range(k):
        cell = work.reg[i]
        om = geo.outside[cell]
        for j in range(k):
            p = work.lift[j]
            bm = 5
            br = 0
            for r in range(4):
                if geo.grey[p, r] != om:
                    continue
                m = _mismatches(geo, cur, work, 0, cell, p, r)
                if m < bm:
                    bm = m
                    br = r
            work.best_r[i, j] = br
            work.cost[i + 1, j + 1] = bm * big + _rand(rng, 16)
    inf = np.int64(1) << np.int64(62)
    for j in range(k + 1):
        work.hu[j] = 0
        work.hv[j] = 0
        work.hp[j] = 0
        work.hway[j] = 0
    for i in range(1, k + 1):
        work.hp[0] = i
        j0 = 0
        for j in range(k + 1):
            work.hminv[j] = inf
            work.hused[j] = 0
        while True:
            work.hused[j0] = 1
            i0 = work.hp[j0]
            delta = inf
            j1 = 0
            for j in range(1, k + 1):
                if work.hused[j] == 0:
                    c = work.cost[i0, j] - work.hu[i0] - work.hv[j]
                    if c < work.hminv[j]:
                        work.hminv[j] = c
                        work.hway[j] = j0
                    if work.hminv[j] < delta:
                        delta = work.hminv[j]
                        j1 = j
            for j in range(k + 1):
                if work.hused[j]:
                    work.hu[work.hp[j]] += delta
                    work.hv[j] -= delta
                else:
                    work.hminv[j] -= delta
            j0 = j1
            if work.hp[j0] == 0:
                break
        while j0 != 0:
            j1 = work.hway[j0]
            work.hp[j0] = work.hp[j1]
            j0 = j1
    total = 0
    for j in range(1, k + 1):
        i = work.hp[j] - 1
        work.sol_j[i] = j - 1
        work.sol_r[i] = work.best_r[i, j - 1]
        total += work.cost[i + 1, j] // big
    return total, 4 * k * k


@kernel
def polish(geo, cur, work, par, var, rng, stop_at):
    """Run moves until the node count reaches `stop_at` (a move boundary); the state carries over between calls."""
    N = geo.rows * geo.cols
    n_shapes = par.shape_cum.shape[0]
    total_w = par.shape_cum[n_shapes - 1]
    while var[V_NODES] < stop_at:
        x = _rand(rng, total_w)
        shape = 0
        while par.shape_cum[shape] <= x:
            shape += 1
        k = _choose_region(geo, cur, work, par, rng, shape)
        var[V_MOVES] += 1
        work.stats[shape, 0] += 1
        if k >= 2:
            for i in range(k):
                work.lift[i] = cur.piece[work.reg[i]]
                work.perm[i] = i
                work.used[i] = 0
            for i in range(k - 1, 0, -1):  # Fisher-Yates: the seeded order of the pieces
                j = _rand(rng, i + 1)
                t = work.perm[i]
                work.perm[i] = work.perm[j]
                work.perm[j] = t
            old = _current_mismatches(geo, cur, work, k)
            if shape == ASSIGN:
                best, nodes = _assign(geo, cur, work, rng, k)
                if best == old:  # the same arrangement is no move
                    same = True
                    for i in range(k):
                        if work.sol_j[i] != i or work.sol_r[i] != cur.rot[work.reg[i]]:
                            same = False
                            break
                    if same:
                        best = -1
            else:
                # threshold walk: now and then a move may lose one edge, never more than max_drop below the best
                slack = 0
                if par.uphill > 0 and _rand(rng, 1000) < par.uphill and var[V_SCORE] > var[V_BEST] - par.max_drop:
                    slack = 1
                best, nodes = _repair(geo, cur, work, k, old, old + slack, par.move_nodes)
            var[V_NODES] += nodes + 1  # + 1: a move always costs a node, so every run ends
            if best >= 0:
                for i in range(k):
                    cur.piece[work.reg[i]] = work.lift[work.sol_j[i]]
                    cur.rot[work.reg[i]] = work.sol_r[i]
                var[V_SCORE] += old - best
                work.stats[shape, 1] += 1
                if best < old:
                    work.stats[shape, 2] += 1
                if var[V_SCORE] > var[V_BEST]:
                    var[V_BEST] = var[V_SCORE]
                    for c in range(N):
                        cur.best_piece[c] = cur.piece[c]
                        cur.best_rot[c] = cur.rot[c]
                    n = var[V_NIMPR]
                    if n < work.impr.shape[0]:
                        work.impr[n, 0] = var[V_NODES]
                        work.impr[n, 1] = var[V_SCORE]
                        var[V_NIMPR] = n + 1
        else:
            var[V_NODES] += 1
        for i in range(k):
            work.pos[work.reg[i]] = -1
    return var[V_NODES]


# --- driver -------------------------------------------------------------------------------------

DEFAULT_SHAPES = {"rect": 3, "mismatch": 4, "band": 1, "ring": 1, "assign": 1}
SLICE = 20_000_000  # nodes per kernel call between wall-clock checks and progress lines


@dataclass
class RefineResult:
    board: Board
    score: int
    start_score: int
    nodes: int
    moves: int
    improvements: list[tuple[int, int]]
    shape_stats: dict[str, dict[str, int]]
    timed_out: bool
    time_s: float


def geometry(puzzle: Puzzle, hints: list[Hint]) -> Geometry:
    """The kernel's view of the puzzle: colours, grey masks, cell outside masks, neighbours, hint cells."""
    R, C = puzzle.rows, puzzle.cols
    col = np.ascontiguousarray(puzzle.rotated, dtype=np.int32)
    grey = ((col == 0) * (1 << np.arange(4))).sum(axis=2).astype(np.int32)
    cells = np.arange(R * C)
    r, c = cells // C, cells % C
    nb = np.stack([np.where(r > 0, cells - C, -1), np.where(c < C - 1, cells + 1, -1),
                   np.where(r < R - 1, cells + C, -1), np.where(c > 0, cells - 1, -1)], axis=1).astype(np.int32)
    outside = ((nb < 0) * (1 << np.arange(4))).sum(axis=1).astype(np.int32)
    fixed = np.zeros(R * C, np.uint8)
    for h in hints:
        fixed[h.row * C + h.col] = 1
    return Geometry(col, grey, outside, nb, fixed, R, C)


def parse_shapes(text: str) -> dict[str, int]:
    """'rect:3,mismatch:4,band' -> weights (a shape without a weight counts 1)."""
    out: dict[str, int] = {}
    for part in text.split(","):
        name, sep, weight = part.strip().partition(":")
        if name not in SHAPES:
            raise InputError(f"unknown region shape {quote(name)} (expected {', '.join(SHAPES)})")
        try:
            w = int(weight) if sep else 1
        except ValueError:
            raise InputError(f"region shape {quote(part)}: the weight must be a whole number") from None
        if w < 0:
            raise InputError(f"region shape {quote(part)}: the weight must be 0 or more")
        out[name] = w
    if sum(out.values()) == 0:
        raise InputError(f"no region shape with a positive weight in {quote(text)}")
    return out


def _check(puzzle: Puzzle, board: Board, hints: list[Hint], min_cells: int, max_cells: int,
           assign_cells: int) -> None:
    """A refine run starts from a complete, valid board that keeps the hints, on a board of at least 2x2."""
    if puzzle.rows < 2 or puzzle.cols < 2:
        raise InputError(f"refine needs a board of at least 2x2, this puzzle is {puzzle.rows}x{puzzle.cols}")
    check = check_board(puzzle, board, hints)
    if not check.complete:
        raise InputError(f"refine starts from a complete board; this one has {check.placed} of "
                         f"{puzzle.n_cells} cells filled")
    if not check.valid:
        raise InputError(f"the start board is not valid: {check.problems[0]}")
    if not 2 <= min_cells <= max_cells:
        raise InputError(f"region sizes: need 2 <= --min-cells <= --max-cells, not {min_cells} and {max_cells}")
    if max_cells > puzzle.n_cells:
        raise InputError(f"--max-cells {max_cells} is more than the {puzzle.n_cells} cells of the board")
    if not min_cells <= assign_cells <= MAX_ASSIGN:
        raise InputError(f"--assign-cells must be between --min-cells ({min_cells}) and {MAX_ASSIGN}, "
                         f"not {assign_cells}")


def refine(puzzle: Puzzle, board: Board, hints: list[Hint], seed: int, node_limit: int,
           move_nodes: int = 20_000, min_cells: int = 6, max_cells: int = 16, assign_cells: int = 64,
           uphill: int = 50, max_drop: int = 3,
           shapes: dict[str, int] | None = None, deadline: float | None = None, on_improve=None) -> RefineResult:
    """Polish a complete board until `node_limit` nodes (or the wall-clock `deadline`, a safety stop)."""
    _check(puzzle, board, hints, min_cells, max_cells, assign_cells)
    start = time.perf_counter()
    shapes = DEFAULT_SHAPES if shapes is None else shapes
    N = puzzle.n_cells
    geo = geometry(puzzle, hints)
    piece = board.piece.ravel().astype(np.int32)
    rot = board.rot.ravel().astype(np.int32) & 3
    cur = Current(piece.copy(), rot.copy(), piece.copy(), rot.copy())

    def z(dtype=np.int32, extra=0):
        return np.zeros(N + extra, dtype)

    start_score = int(score_kernel(board.piece, board.rot, puzzle.rotated))
    mc, ac = int(max_cells), int(assign_cells)
    work = Work(z(), np.full(N, -1, np.int32), z(), z(), z(np.uint8), z(), z(), z(), z(extra=1), z(), z(),
                np.zeros((mc, 4 * mc), np.int32), np.zeros((mc, 4 * mc), np.int32), np.zeros(mc, np.int32),
                np.zeros(5, np.int32), np.zeros((ac + 1, ac + 1), np.int64), np.zeros((ac, ac), np.int32),
                np.zeros(ac + 1, np.int64), np.zeros(ac + 1, np.int64), np.zeros(ac + 1, np.int64),
                np.zeros(ac + 1, np.int32), np.zeros(ac + 1, np.int32), np.zeros(ac + 1, np.uint8),
                np.zeros((MAX_IMPROVEMENTS, 2), np.int64), np.zeros((len(SHAPES), MOVE_STATS), np.int64))
    par = Params(int(node_limit), int(move_nodes), int(min_cells), int(max_cells), ac, int(uphill), int(max_drop),
                 np.cumsum([shapes.get(s, 0) for s in SHAPES]).astype(np.int64))
    var = np.zeros(N_VARS, np.int64)
    var[V_SCORE] = var[V_BEST] = start_score
    rng = np.array([seed_hash(seed, 17)], np.uint64)
    timed_out = False
    reported = 0
    while var[V_NODES] < node_limit:
        polish(geo, cur, work, par, var, rng, min(node_limit, int(var[V_NODES]) + SLICE))
        if on_improve is not None:
            for n, s in work.impr[reported:int(var[V_NIMPR])].tolist():
                on_improve(n, s)
        reported = int(var[V_NIMPR])
        if deadline is not None and time.perf_counter() >= deadline and var[V_NODES] < node_limit:
            timed_out = True
            break
    best = Board(cur.best_piece.reshape(puzzle.rows, puzzle.cols), cur.best_rot.reshape(puzzle.rows, puzzle.cols))
    score = int(var[V_BEST])
    check = check_board(puzzle, best, hints)
    if not check.valid or not check.complete or check.score != score or score < start_score:
        raise RuntimeError(f"internal error: refine stated {score}, recount {check.score}, problems {check.problems}")
    stats = {name: dict(zip(("moves", "changed", "improved"), work.stats[i].tolist(), strict=True))
             for i, name in enumerate(SHAPES)}
    return RefineResult(board=best, score=score, start_score=start_score, nodes=int(var[V_NODES]),
                        moves=int(var[V_MOVES]),
                        improvements=[tuple(x) for x in work.impr[:int(var[V_NIMPR])].tolist()],
                        shape_stats=stats, timed_out=timed_out, time_s=time.perf_counter() - start)
