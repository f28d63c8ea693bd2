"""Lagrangian multipliers for the all-different rule, to sharpen the joint bound tables.

The bound tables relax "each piece once": a cheap piece may fill many cells. Pricing every piece
(lambda_p, added to its cost wherever it is placed) keeps the bound admissible once the prices of
the pieces that will fill the k covered cells still to come are subtracted; not knowing which
pieces those are, subtract the k largest prices among the unused pieces:

    bound = table_lambda(state) - (sum of the k largest lambda_p, p unused)  <=  true cost,

since any true completion puts k distinct unused pieces on those cells. When the table covers the
whole band and the band has as many pieces as cells, the k largest are simply all unused pieces.

Good prices push an over-used piece up and an unused one down; they are found once per table by
a subgradient ascent on its bound for the empty band (Polyak steps towards the completion in
hand). Costs stay integers: a mismatch is worth UNIT, prices are integers of that scale.
"""

from __future__ import annotations

import numpy as np

from .bounds import Grid, fill_bounds, trace_counts

UNIT = 32  # one mismatch, in price units
BIG = 1 << 30  # "impossible" in the scaled tables
ITERATIONS = 300
PATIENCE = 12  # iterations without progress before the step shrinks


def scaled_costs(static: np.ndarray, bits: np.ndarray, lam: np.ndarray, unit: int) -> np.ndarray:
    """Candidate costs in price units: fixed-neighbour mismatches plus the piece's price."""
    cost = static.astype(np.int64) * unit + lam[bits]
    cost[static >= 255] = BIG  # a hint that cannot be placed stays impossible
    return cost


def virtual_grid(v: dict, ncol: int) -> Grid:
    """The grid of a virtual half (`cross.joint_arrays`)."""
    return Grid(v["rows"], v["width"], ncol, v["ptr"], v["u"], v["r"], v["d"], v["l"])


def fill(v: dict, ncol: int, cost: np.ndarray, unit: int) -> np.ndarray:
    table = np.zeros((v["rows"] * v["width"] + 1, ncol ** (v["rows"] + 1)), np.int64)
    fill_bounds(virtual_grid(v, ncol), cost, unit, BIG, table)
    return table


def top_sum(lam: np.ndarray, k: int) -> tuple[int, np.ndarray]:
    """Sum of the k largest prices, and which pieces they are (ties: lower bit first)."""
    order = np.lexsort((np.arange(len(lam)), -lam))[:k]
    mask = np.zeros(len(lam), bool)
    mask[order] = True
    return int(lam[order].sum()), mask


def optimise(v: dict, ncol: int, nbits: int, upper: int, iterations: int = ITERATIONS) -> tuple[np.ndarray, int]:
    """Prices (int64 per piece bit) and the bound they give for the empty band, in mismatches (rounded up).

    `v` is a virtual half (`cross.joint_arrays`) with k cells; `upper` the cost of a known
    completion (the target of the Polyak steps).
    """
    k = v["rows"] * v["width"]
    lam_f = np.zeros(nbits)
    best, best_lam = None, np.zeros(nbits, np.int64)
    theta, stall = 1.0, 0
    for _ in range(iterations):
        lam = np.rint(lam_f).astype(np.int64)
        cost = scaled_costs(v["static"], v["bit"], lam, UNIT)
        table = fill(v, ncol, cost, UNIT)
        top, chosen = top_sum(lam, k)
        value = int(table[0, 0]) - top
        if value >= BIG // 2:
            break  # no relaxed filling at all
        counts = np.zeros(nbits, np.int64)
        if not trace_counts(virtual_grid(v, ncol), cost, UNIT, v["bit"], table, counts):
            break  # pragma: no cover - the table and its trace agree
        if best is None or value > best:
            best, best_lam, stall = value, lam, 0
        else:
            stall += 1
            if stall >= PATIENCE:
                theta, stall = theta / 2, 0
        grad = counts - chosen.astype(np.int64)
        norm = float((grad * grad).sum())
        if norm == 0 or theta < 1e-4:
            break  # the relaxed optimum uses every piece once: nothing left to price
        gap = max(float(upper * UNIT - value), float(UNIT))
        lam_f = lam_f + theta * gap / norm * grad
    bound = 0 if best is None else -(-best // UNIT)
    return best_lam, max(0, bound)


__all__ = ["UNIT", "BIG", "optimise", "scaled_costs", "fill", "top_sum"]
