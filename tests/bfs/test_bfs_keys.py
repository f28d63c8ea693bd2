"""Sort keys: rows <-> keys, the sort and dedup paths against numpy."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlelab.bfs.keys import dedup_min_tag, keys_to_rows, radix_sort, rows_to_keys, sort_unique


@pytest.mark.parametrize("width, top", [(1, 3), (5, 3), (7, 3), (8, 3), (11, 3), (16, 3), (7, 256), (8, 128),
                                        (8, 256), (9, 4), (9, 256), (10, 2)])
@pytest.mark.parametrize("le", [True, False])
def test_sort_unique_matches_numpy(width, top, le):
    """Small and large spans of significant bits: one numpy sort, bucketed sorts, the radix sort."""
    rng = np.random.default_rng(width)
    rows = rng.integers(0, 3, (5000, width)).astype(np.uint8)
    rows[:, 0] = rng.integers(0, top, 5000)
    rows[:, -1] = rng.integers(0, top, 5000)
    tags = rng.integers(0, 256, 5000).astype(np.uint8)
    keys = rows_to_keys(rows, le)
    assert np.array_equal(keys_to_rows(keys, width, le), rows)
    k, t = sort_unique(keys.copy(), tags.copy(), width)
    got = keys_to_rows(np.ascontiguousarray(k), width, le)
    view = rows[:, ::-1] if le else rows
    order = np.lexsort(view.T[::-1])
    uniq, first = np.unique(view[order], axis=0, return_index=True)
    assert np.array_equal(got[:, ::-1] if le else got, uniq)
    # each key keeps the smallest tag among its copies
    best = {}
    for r, tag in zip(map(bytes, rows), tags, strict=True):
        best[r] = min(best.get(r, 256), int(tag))
    assert [best[bytes(r)] for r in got] == list(t)
    k2, t2 = radix_sort(keys.copy(), tags.copy(), width)
    m = dedup_min_tag(k2, t2)
    assert np.array_equal(k2[:m], k) and np.array_equal(t2[:m], t)
