"""The meet-in-the-middle index and join.

`index` turns one half's raw fillings into its table: one entry per (piece-set bitset, seam colour
row), keeping the least cost and the first leaf that reaches it. `join` pairs upper and lower
entries whose piece sets are disjoint and whose seam rows agree, allowing d mismatches on the
middle seam by grouping on the seam with those d positions masked out (each pair is found under
exactly one mask: the set of positions where it mismatches). Groups are formed by sorting 64-bit
hashes; every pair is checked colour by colour, so hash collisions never produce a wrong answer.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np

from ...lab.jit import allocating_kernel, inline_kernel, kernel
from .bounds import mis

MASKED = 255  # seam colour standing for "any colour" at a masked position


@inline_kernel
def _mix(h, v):
    h ^= v + np.uint64(0x9E3779B97F4A7C15) + (h << np.uint64(6)) + (h >> np.uint64(2))
    h ^= h >> np.uint64(31)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(29)
    return h


@allocating_kernel
def entry_hashes(bits, seam):
    """64-bit hash of (bitset, seam row) for each record."""
    n = bits.shape[0]
    out = np.empty(n, np.uint64)
    for r in range(n):
        h = np.uint64(0x243F6A8885A308D3)
        for w in range(bits.shape[1]):
            h = _mix(h, bits[r, w])
        for j in range(seam.shape[1]):
            h = _mix(h, np.uint64(seam[r, j]))
        out[r] = h
    return out


@allocating_kernel
def masked_hashes(seam, mask, rows_sel):
    """64-bit hash of each selected record's seam with the masked positions blanked."""
    out = np.empty(rows_sel.shape[0], np.uint64)
    for k in range(rows_sel.shape[0]):
        r = rows_sel[k]
        h = np.uint64(0x13198A2E03707344)
        for j in range(seam.shape[1]):
            v = np.uint64(MASKED) if mask[j] else np.uint64(seam[r, j])
            h = _mix(h, v)
        out[k] = h
    return out


@inline_kernel
def _same(bits, seam, a, b):
    for w in range(bits.shape[1]):
        if bits[a, w] != bits[b, w]:
            return False
    for j in range(seam.shape[1]):
        if seam[a, j] != seam[b, j]:
            return False
    return True


@kernel
def _group(order, hashes, bits, seam, cost, keep, best_cost, best_leaf):
    """Walk records in (hash, leaf) order; mark one representative per distinct (bits, seam)."""
    n = order.shape[0]
    s = 0
    nkeep = 0
    while s < n:
        e = s + 1
        while e < n and hashes[order[e]] == hashes[order[s]]:
            e += 1
        # records order[s:e] share a hash; group the truly equal ones (first-seen representative)
        for a in range(s, e):
            ra = order[a]
            if keep[ra] == -2:  # already merged into an earlier representative
                continue
            keep[ra] = ra
            nkeep += 1
            bc = cost[ra]
            bl = ra
            for b in range(a + 1, e):
                rb = order[b]
                if keep[rb] == -2:
                    continue
                if _same(bits, seam, ra, rb):
                    keep[rb] = -2
                    if cost[rb] < bc:
                        bc = cost[rb]
                        bl = rb
            best_cost[ra] = bc
            best_leaf[ra] = bl
        s = e
    return nkeep


def index(bits: np.ndarray, seam: np.ndarray, cost: np.ndarray) -> dict:
    """One entry per distinct (bitset, seam): least cost and the leaf (record number) reaching it first.

    Records are the fillings in walk order, so the record number is the leaf index `replay` needs.
    """
    n = cost.shape[0]
    if n == 0:
        return {"bits": bits[:0], "seam": seam[:0], "cost": cost[:0], "leaf": np.zeros(0, np.int64)}
    hashes = entry_hashes(bits, seam)
    order = np.argsort(hashes, kind="stable")
    keep = np.full(n, -1, np.int64)
    best_cost = np.zeros(n, np.uint8)
    best_leaf = np.zeros(n, np.int64)
    _group(order, hashes, bits, seam, cost, keep, best_cost, best_leaf)
    reps = np.flatnonzero(keep >= 0)  # in leaf order
    return {"bits": bits[reps], "seam": seam[reps], "cost": best_cost[reps], "leaf": best_leaf[reps]}


class Side(NamedTuple):
    """One half's table in a join step: selected records, their masked-seam hashes and sorting order."""

    order: np.ndarray  # positions in `sel`, by hash
    hashes: np.ndarray  # per position in `sel`
    sel: np.ndarray  # record numbers of the selected entries
    bits: np.ndarray
    seam: np.ndarray
    cost: np.ndarray
    leaf: np.ndarray


@kernel
def _join_groups(up, lo, mask, d, budget, result):
    """Merge two hash-sorted selections; check every pair in equal-hash groups.

    result: [candidates, joins, best_total, best_leaf_u, best_leaf_l] (updated in place).
    """
    ou, hu, sel_u, bits_u, seam_u, cost_u, leaf_u = up.order, up.hashes, up.sel, up.bits, up.seam, up.cost, up.leaf
    ol, hl, sel_l, bits_l, seam_l, cost_l, leaf_l = lo.order, lo.hashes, lo.sel, lo.bits, lo.seam, lo.cost, lo.leaf
    width = seam_u.shape[1]
    a = 0
    b = 0
    nu = ou.shape[0]
    nl = ol.shape[0]
    while a < nu and b < nl:
        ha = hu[ou[a]]
        hb = hl[ol[b]]
        if ha < hb:
            a += 1
            continue
        if hb < ha:
            b += 1
            continue
        ae = a
        while ae < nu and hu[ou[ae]] == ha:
            ae += 1
        be = b
        while be < nl and hl[ol[be]] == hb:
            be += 1
        for x in range(a, ae):
            ru = sel_u[ou[x]]
            for y in range(b, be):
                rl = sel_l[ol[y]]
                total = np.int64(cost_u[ru]) + np.int64(cost_l[rl]) + d
                if total > budget:
                    continue
                ok = True
                for j in range(width):
                    m = mis(seam_u[ru, j], seam_l[rl, j])
                    if m != (1 if mask[j] else 0):
                        ok = False
                        break
                if not ok:
                    continue
                result[0] += 1
                disjoint = True
                for w in range(bits_u.shape[1]):
                    if bits_u[ru, w] & bits_l[rl, w]:
                        disjoint = False
                        break
                if not disjoint:
                    continue
                result[1] += 1
                lu = leaf_u[ru]
                ll = leaf_l[rl]
                better = total < result[2] or (total == result[2] and (lu < result[3] or (lu == result[3]
                                                                                         and ll < result[4])))
                if better:
                    result[2] = total
                    result[3] = lu
                    result[4] = ll
        a = ae
        b = be


NO_TOTAL = np.iinfo(np.int64).max


def join(upper: dict, lower: dict, budget: int) -> dict:
    """All disjoint pairs with cost_u + cost_l + seam mismatches <= budget; the best one by (total, leaves).

    Returns candidates (seam-compatible pairs within budget), joins (of those, disjoint piece sets)
    and best = (total, upper leaf, lower leaf) or None.
    """
    result = np.array([0, 0, NO_TOTAL, NO_TOTAL, NO_TOTAL], np.int64)
    if len(upper["cost"]) and len(lower["cost"]):
        width = upper["seam"].shape[1]
        min_u = int(upper["cost"].min())
        min_l = int(lower["cost"].min())
        for d in range(0, min(width, budget - min_u - min_l) + 1):
            sel_u = np.flatnonzero(upper["cost"].astype(np.int64) <= budget - d - min_l)
            sel_l = np.flatnonzero(lower["cost"].astype(np.int64) <= budget - d - min_u)
            if len(sel_u) == 0 or len(sel_l) == 0:
                continue
            for positions in combinations(range(width), d):
                mask = np.zeros(width, np.bool_)
                mask[list(positions)] = True
                hu = masked_hashes(upper["seam"], mask, sel_u)
                hl = masked_hashes(lower["seam"], mask, sel_l)
                ou = np.argsort(hu, kind="stable")
                ol = np.argsort(hl, kind="stable")
                up = Side(ou, hu, sel_u, upper["bits"], upper["seam"], upper["cost"], upper["leaf"])
                lo = Side(ol, hl, sel_l, lower["bits"], lower["seam"], lower["cost"], lower["leaf"])
                _join_groups(up, lo, mask, d, budget, result)
    best = None if result[2] == NO_TOTAL else (int(result[2]), int(result[3]), int(result[4]))
    return {"candidates": int(result[0]), "joins": int(result[1]), "best": best}


__all__ = ["index", "join", "entry_hashes", "masked_hashes", "MASKED"]
