"""Lagrangian multipliers for the all-different rule, to sharpen the joint bound tables.

The bound tables relax "each piece once": a cheap piece may fill many cells. Pricing every piece
(lambda_p, added to its cost wherever it is placed) and subtracting the prices of the pieces still
to place keeps the bound admissible whenever the cells still to fill must use exactly the pieces
still unused (a band with as many pieces as cells), for any prices:

    bound = table_lambda(state) - sum(lambda_p for p unused)  <=  cost of any true completion.

Good prices push an over-used piece up and an unused one down; they are found once per band by a
subgradient ascent on the bound of the whole band (Polyak steps towards the completion in hand).
Costs are kept in integers: a mismatch is worth UNIT, prices are integers of that scale.
"""

from __future__ import annotations

import numpy as np

from .mitm_bounds import fill_bounds, trace_counts

UNIT = 32  # one mismatch, in price units
BIG = 1 << 30  # "impossible" in the scaled tables
ITERATIONS = 300
PATIENCE = 12  # iterations without progress before the step shrinks


def scaled_costs(static: np.ndarray, bits: np.ndarray, lam: np.ndarray, unit: int) -> np.ndarray:
    """Candidate costs in price units: fixed-neighbour mismatches plus the piece's price."""
    cost = static.astype(np.int64) * unit + lam[bits]
    cost[static >= 255] = BIG  # a hint that cannot be placed stays impossible
    return cost


def fill(v: dict, ncol: int, cost: np.ndarray, unit: int) -> np.ndarray:
    table = np.zeros((v["rows"] * v["width"] + 1, ncol ** (v["rows"] + 1)), np.int64)
    fill_bounds(v["rows"], v["width"], ncol, v["ptr"], v["u"], v["r"], v["d"], v["l"], cost, unit, BIG, table)
    return table


def optimise(v: dict, ncol: int, nbits: int, upper: int, iterations: int = ITERATIONS) -> tuple[np.ndarray, int]:
    """Prices (int64 per piece bit) and the whole-band bound they give, in mismatches (rounded up).

    `v` is a virtual half covering the whole band (`mitm_cross.joint_arrays`); `upper` the cost of a
    known completion (the target of the Polyak steps).
    """
    lam_f = np.zeros(nbits)
    best, best_lam = None, np.zeros(nbits, np.int64)
    theta, stall = 1.0, 0
    for _ in range(iterations):
        lam = np.rint(lam_f).astype(np.int64)
        cost = scaled_costs(v["static"], v["bit"], lam, UNIT)
        table = fill(v, ncol, cost, UNIT)
        value = int(table[0, 0]) - int(lam.sum())
        if value >= BIG // 2:
            break  # no relaxed filling at all
        counts = np.zeros(nbits, np.int64)
        if not trace_counts(v["rows"], v["width"], ncol, v["ptr"], v["u"], v["r"], v["d"], v["l"], cost, UNIT,
                            v["bit"], table, counts):
            break  # pragma: no cover - the table and its trace agree
        if best is None or value > best:
            best, best_lam, stall = value, lam, 0
        else:
            stall += 1
            if stall >= PATIENCE:
                theta, stall = theta / 2, 0
        grad = counts - 1
        norm = float((grad * grad).sum())
        if norm == 0 or theta < 1e-4:
            break  # the relaxed optimum uses every piece once: nothing left to price
        gap = max(float(upper * UNIT - value), float(UNIT))
        lam_f = lam_f + theta * gap / norm * grad
    bound = 0 if best is None else -(-best // UNIT)
    return best_lam, max(0, bound)


__all__ = ["UNIT", "BIG", "optimise", "scaled_costs", "fill"]
