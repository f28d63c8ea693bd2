"""Limited-discrepancy search (Harvey and Ginsberg): revisit the greedy path a few deviations at a time.

Iteration K = 0, 1, ..., max_disc runs the backtracker of `dfs.py` (same candidates, same
best-first order, same mismatch tolerance) but only along paths that take a candidate other than
the first one at most K times. The node budget is shared by all iterations; the result is the
deepest board reached in any of them.
"""

from __future__ import annotations

import time

from ...lab.errors import InputError
from .dfs import SearchResult, run_search
from .tables import Tables


def lds(tables: Tables, nodes: int, tolerance: int, max_disc: int = 8, seed: int = 0,
        deadline: float | None = None) -> SearchResult:
    """Iterations 0..max_disc under one node budget; `deadline` (a time.perf_counter() value) stops them early."""
    if max_disc < 0:
        raise InputError(f"--max-discrepancy must be 0 or more, not {max_disc}")
    start = time.perf_counter()
    best = None
    used = 0
    iterations = 0
    timed_out = False
    for k in range(max_disc + 1):
        if used >= nodes:
            break
        if deadline is not None and time.perf_counter() > deadline and best is not None:
            timed_out = True
            break
        res = run_search(tables, nodes - used, tolerance, seed, max_disc=k, deadline=deadline)
        used += res.nodes
        iterations += 1
        timed_out = res.timed_out
        if best is None or (res.depth, res.score) > (best.depth, best.score):
            best = res
        if timed_out or res.depth == tables.rows * tables.cols or res.nodes == 0:  # a full board, or nothing left
            break
    assert best is not None
    best.nodes = used
    best.iterations = iterations
    best.time_s = time.perf_counter() - start
    best.exhausted = False
    best.timed_out = timed_out
    return best
