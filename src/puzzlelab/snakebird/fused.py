"""The whole BFS of a small level in one kernel call (`bfs.fused`): the compressed engine's layers,
tags and parent choices, kept uncompressed in memory, with no Python between depths.

States of at most 8 bytes are single uint64 keys in the engine's `le` order (`bfs.keys`). Each depth
expands its layer piece by piece with `kernels.expand_range`, sorts each piece's children (stable
LSD radix sort), keeps per distinct child the parent the engine's path rebuild would find (smallest
parent hash, then the first parent in key order, then the first move), then sorts the pieces'
survivors the same way and walks them beside the visited set to keep the new states. The kernel stops when the
level is done, at the goal, at `max_depth`, or when the next layer would not fit in the arrays it
was given: the engine then takes over from the last complete depth (`bfs.fused.FusedRun.HANDOVER`).
"""

from __future__ import annotations

import numpy as np

from ..bfs.fused import COMPLETE, GOAL, HANDOVER, MAX_DEPTH, FusedArrays, FusedRun
from ..bfs.keys import key_row_le, radix_sort_into, row_hash, row_key_le, rows_to_keys
from ..lab.jit import inline_kernel, kernel
from .kernels import expand_range, goal_mask
from .layout import make_work, no_children

PIECE = 4096  # parents expanded per call of expand_range


@inline_kernel
def _better(h1, p1, m1, h2, p2, m2):
    """(hash, parent, move) 1 before 2: the parent the engine's rebuild finds (see bfs.parents.find_parent)."""
    if h1 != h2:
        return h1 < h2
    if p1 != p2:
        return p1 < p2
    return m1 < m2


@kernel
def bfs_fused(tb, wk, ch, start_key, width, max_depth, stop_at_goal, fa, out):
    """BFS from start_key into the `bfs.fused.FusedArrays` fa; out[:6] = status, last complete depth,
    visited states, children generated, goal depth, goal index in its layer (-1 when none)."""
    cap = fa.keys.shape[0]
    ccap = fa.ckey.shape[0]
    fa.keys[0] = start_key
    fa.tags[0] = 0
    fa.ppos[0] = -1
    fa.moves[0] = 0
    fa.off[0] = 0
    fa.off[1] = 1
    fa.visited[0] = start_key
    nvis = 1
    depth = 0
    children = 0
    goal_depth = -1
    goal_index = -1
    status = HANDOVER
    # is the start a goal?
    key_row_le(start_key, fa.rows, 0)
    goal_mask(tb, fa.rows[:1], fa.goal)
    if fa.goal[0]:
        goal_depth = 0
        goal_index = 0
    while True:
        if goal_depth >= 0 and stop_at_goal:
            status = GOAL
            break
        if max_depth >= 0 and depth >= max_depth:
            status = MAX_DEPTH
            break
        base = fa.off[depth]
        n = fa.off[depth + 1] - base
        nc = 0  # candidates of this depth (distinct within their piece, not visited)
        made = 0  # children of this depth (counted once the depth is complete)
        full = False
        for lo in range(0, n, PIECE):
            cnt = min(PIECE, n - lo)
            for i in range(cnt):
                key_row_le(fa.keys[base + lo + i], fa.rows, i)
                fa.phash[i] = row_hash(fa.rows, i)
            m = expand_range(tb, wk, fa.rows, 0, cnt, fa.phash, ch, 0)
            made += m
            for j in range(m):
                fa.skey[j, 0] = row_key_le(ch.rows, j)
                fa.sidx[j] = j
            sk, si = radix_sort_into(fa.skey, fa.sidx, m, width, fa.tkey, fa.tidx, fa.counts)
            j = 0
            while j < m:
                key = sk[j, 0]
                best = si[j]  # stable: the first of the group in generation order
                bh = fa.phash[ch.parent[best]]
                j2 = j + 1
                while j2 < m and sk[j2, 0] == key:
                    c = si[j2]
                    if fa.phash[ch.parent[c]] < bh:
                        best = c
                        bh = fa.phash[ch.parent[c]]
                    j2 += 1
                j = j2
                if nc == ccap:
                    full = True
                    break
                fa.ckey[nc] = key
                fa.chash[nc] = bh
                fa.cpar[nc] = lo + ch.parent[best]
                fa.cmove[nc] = ch.move[best]
                nc += 1
            if full:
                break
        if full:
            break
        # the pieces' survivors: sort, keep one per state
        for i in range(nc):
            fa.skey[i, 0] = fa.ckey[i]
            fa.sidx[i] = i
        sk, si = radix_sort_into(fa.skey, fa.sidx, nc, width, fa.tkey, fa.tidx, fa.counts)
        top = fa.off[depth + 1]
        u = 0
        j = 0
        v = 0  # the visited set is walked once, in step with the sorted candidates
        while j < nc:
            key = sk[j, 0]
            best = si[j]
            j2 = j + 1
            while j2 < nc and sk[j2, 0] == key:
                c = si[j2]
                if _better(fa.chash[c], fa.cpar[c], fa.cmove[c], fa.chash[best], fa.cpar[best], fa.cmove[best]):
                    best = c
                j2 += 1
            j = j2
            while v < nvis and fa.visited[v] < key:
                v += 1
            if v < nvis and fa.visited[v] == key:
                continue
            if top + u == cap or nvis + u == cap:
                full = True
                break
            at = top + u
            fa.keys[at] = key
            fa.tags[at] = fa.chash[best]
            fa.ppos[at] = fa.cpar[best]
            fa.moves[at] = fa.cmove[best]
            u += 1
        if full or depth + 2 >= fa.off.shape[0]:
            break
        children += made
        if u == 0:
            status = COMPLETE
            break
        # merge the new layer into the visited set, from the back
        i = nvis - 1
        k = u - 1
        w = nvis + u - 1
        while k >= 0:
            if i >= 0 and fa.visited[i] > fa.keys[top + k]:
                fa.visited[w] = fa.visited[i]
                i -= 1
            else:
                fa.visited[w] = fa.keys[top + k]
                k -= 1
            w -= 1
        nvis += u
        depth += 1
        fa.off[depth + 1] = top + u
        if goal_depth < 0:
            for lo in range(0, u, PIECE):
                cnt = min(PIECE, u - lo)
                for i in range(cnt):
                    key_row_le(fa.keys[top + lo + i], fa.rows, i)
                goal_mask(tb, fa.rows[:cnt], fa.goal)
                for i in range(cnt):
                    if fa.goal[i]:
                        goal_depth = depth
                        goal_index = lo + i
                        break
                if goal_depth >= 0:
                    break
    out[0] = status
    out[1] = depth
    out[2] = nvis
    out[3] = children
    out[4] = goal_depth
    out[5] = goal_index


def search_fused(domain, cap: int, max_depth: int | None, stop_at_goal: bool) -> FusedRun | None:
    """`bfs.fused` entry point of the Snakebird domain: the search in arrays for `cap` states, or None
    when the level's states do not fit one word."""
    width = int(domain.width)
    if width > 8 or cap < 1:
        return None
    nm = int(domain.max_children)
    fa = FusedArrays.allocate(cap, width, PIECE, nm)
    ns, ng = domain.nsnakes, len(domain.level.gadgets)
    ch = no_children(ns, ng)._replace(rows=np.empty((PIECE * nm, width), dtype=np.uint8),
                                      parent=np.empty(PIECE * nm, dtype=np.int64),
                                      move=np.empty(PIECE * nm, dtype=np.uint8))
    start = np.ascontiguousarray(domain.start, dtype=np.uint8)
    if start.shape[0] != 1:
        return None
    start_key = rows_to_keys(start, True)[0, 0]
    out = np.zeros(6, dtype=np.int64)
    wk = make_work(domain.tables, domain.level.snake_max_len)
    bfs_fused(domain.tables, wk, ch, start_key, width, -1 if max_depth is None else int(max_depth),
              bool(stop_at_goal), fa, out)
    return FusedRun.from_kernel(fa, out)
