"""Measurements behind the bfs experiments: codec sizes of real state sets, parent-hash path rebuilding.

`measure_codecs` searches a domain, then re-encodes (in memory) the visited set after each depth
and the sorted chunk runs of the widest frontier with every codec and both key byte orders, and
compares them with the information-theoretic size of an arbitrary set of that many keys and with
Elias-Fano. `measure_parents` compares 1-byte parent hashes with full parent states and times the
path rebuilding with and without the hash filter.
"""

from __future__ import annotations

import math
import time

import numpy as np

from .codec import CODECS, DEFAULT_CODEC, GAP_MAX_WIDTH, Codec, encoded_size
from .keys import keys_to_rows, row_hash8, rows_to_keys, sort_unique


def log2_binomial(universe: int, n: int) -> float:
    """log2 C(universe, n): bits to name an arbitrary n-subset of the universe."""
    if n <= 0 or n >= universe:
        return 0.0
    if universe < 2**50:
        return (math.lgamma(universe + 1) - math.lgamma(n + 1) - math.lgamma(universe - n + 1)) / math.log(2)
    # n << universe: sum log2(U - i) - log2(n!) with the correction -n^2 / (2U ln 2)
    return n * math.log2(universe) - math.lgamma(n + 1) / math.log(2) - n * n / (2 * universe * math.log(2))


def elias_fano_bits(universe: int, n: int) -> float:
    """Size of the Elias-Fano code of n sorted distinct integers below `universe`."""
    if n <= 0:
        return 0.0
    low = max(0, math.floor(math.log2(universe / n))) if universe > n else 0
    return n * (low + 2) + 0.0


def sorted_rows(rows: np.ndarray, le: bool) -> np.ndarray:
    keys = rows_to_keys(rows, le)
    k, _ = sort_unique(keys, np.zeros(keys.shape[0], dtype=np.uint8), rows.shape[1])
    return keys_to_rows(np.ascontiguousarray(k), rows.shape[1], le)


def _points(sizes: list[int], max_points: int) -> list[int]:
    """Depth indices to measure: every depth with >= 64 visited states, thinned to max_points (last kept)."""
    idx = [d for d, n in enumerate(sizes) if n >= 64] or [len(sizes) - 1]
    if len(idx) <= max_points:
        return idx
    step = (len(idx) - 1) / (max_points - 1)
    return sorted({idx[round(i * step)] for i in range(max_points)})


def measure_codecs(domain, *, max_depth=None, codecs=CODECS, orders=("le", "be"), zstd_level=3,
                   chunk_states=65536, max_points=12, memory_budget="4G", workdir=None) -> dict:
    from .engine import search

    width = int(domain.width)
    universe = 256**width
    space = getattr(domain, "space_size", None)
    codecs = [c for c in codecs if not (c.startswith("gap") and width > GAP_MAX_WIDTH)]
    coders = {(c, order): Codec(c, zstd_level, le=order == "le") for c in codecs for order in orders}
    own = getattr(domain, "codec", None) or DEFAULT_CODEC  # what the engine stores the layers with
    with search(domain, max_depth=max_depth, memory_budget=memory_budget, workdir=workdir, progress=False) as res:
        layers = [store for store in res.layer_stores]
        rows_by_depth = []
        for store in layers:
            parts = [store.decode(i)[0].copy() for i in range(len(store.blocks))]
            rows_by_depth.append(np.concatenate(parts) if parts else np.empty((0, width), dtype=np.uint8))
        counts = list(res.layers)
    visited_sizes = list(np.cumsum(counts))
    visited_rows = []
    acc = np.empty((0, width), dtype=np.uint8)
    points = _points(visited_sizes, max_points)
    for d, rows in enumerate(rows_by_depth):
        acc = np.concatenate([acc, rows])
        if d in points:
            visited_rows.append((d, acc))
    visited = []
    for d, rows in visited_rows:
        n = rows.shape[0]
        rec = {"depth": d, "states": n, "raw_bits": 8.0 * width,
               "bound_key_bits": log2_binomial(universe, n) / n,
               "bound_space_bits": (log2_binomial(space, n) / n) if space else None,
               "elias_fano_bits": elias_fano_bits(universe, n) / n, "codecs": {}}
        for order in orders:
            srows = sorted_rows(rows, order == "le")
            for name in codecs:
                rec["codecs"][f"{name}/{order}"] = 8.0 * encoded_size(srows, coders[name, order]) / n
        # the layer of this depth alone, as a frontier search stores it
        layer = rows_by_depth[d]
        nl = max(1, layer.shape[0])
        rec["layer_states"] = int(layer.shape[0])
        rec["layer_codec"] = own
        rec["layer_bits"] = 8.0 * encoded_size(sorted_rows(layer, True), Codec(own, zstd_level)) / nl
        rec["bound_layer_bits"] = (log2_binomial(space, layer.shape[0]) / nl) if space else None
        visited.append(rec)
    # frontier runs: the chunk runs (sorted, deduplicated children) of the widest layer
    widest = int(np.argmax(counts[:-1])) if len(counts) > 1 else 0
    runs = {"depth": widest, "parents": counts[widest], "children": 0, "run_states": 0, "codecs": {}}
    frontier = rows_by_depth[widest]
    for order in orders:
        le = order == "le"
        sizes = dict.fromkeys(codecs, 0)
        total = 0
        children_total = 0
        for off in range(0, frontier.shape[0], chunk_states):
            children, _, _ = domain.expand(np.ascontiguousarray(frontier[off:off + chunk_states]))
            children_total += children.shape[0]
            keys = rows_to_keys(np.ascontiguousarray(children), le)
            k, _ = sort_unique(keys, np.zeros(keys.shape[0], dtype=np.uint8), width)
            srows = keys_to_rows(np.ascontiguousarray(k), width, le)
            total += srows.shape[0]
            for name in codecs:
                sizes[name] += encoded_size(srows, coders[name, order])
        runs["children"] = children_total
        runs["run_states"] = total
        for name in codecs:
            runs["codecs"][f"{name}/{order}"] = 8.0 * sizes[name] / max(1, total)
    return {"domain": domain.name, "width": width, "layers": counts, "space_size": space,
            "zstd_level": zstd_level, "chunk_states": chunk_states, "visited": visited, "runs": runs}


def measure_parents(domain, *, max_depth=None, samples=5, memory_budget="4G", workdir=None) -> dict:
    """Bytes of 1-byte parent hashes vs full parents; cost of rebuilding paths with and without the hash."""
    from .engine import search
    from .parents import RebuildStats, rebuild_path

    width = int(domain.width)
    with search(domain, max_depth=max_depth, memory_budget=memory_budget, workdir=workdir, progress=False,
                tags="parent-hash") as res:
        depth = res.max_depth
        store = res.layer_stores[depth]
        n = store.count
        m = min(samples, n)
        picks = sorted({round(i * (n - 1) / max(1, m - 1)) for i in range(m)})
        targets = []
        seen = 0
        for i in range(len(store.blocks)):
            rows, tags = store.decode(i)
            for p in picks:
                if seen <= p < seen + rows.shape[0]:
                    targets.append((rows[p - seen].copy(), int(tags[p - seen])))
            seen += rows.shape[0]
        paths = []
        for row, tag in targets:
            rec = {"target": domain.format_state(row), "depth": depth}
            for mode, use_hash in (("hash", True), ("full_scan", False)):
                stats = RebuildStats()
                t0 = time.process_time()
                path = rebuild_path(domain, res.layer_stores, depth, row, tag, use_hash=use_hash, stats=stats)
                rec[f"{mode}_time_s"] = time.process_time() - t0  # CPU seconds
                rec[f"{mode}_expanded"] = stats.expanded
                rec[f"{mode}_scanned"] = stats.scanned
                rec[f"{mode}_length"] = len(path)
                rec[f"{mode}_verified"] = path.verified
            paths.append(rec)
        states = res.states
        out = {
            "domain": domain.name, "width": width, "states": states, "max_depth": depth, "layers": list(res.layers),
            "parent_hash_bytes": res.parent_bytes, "full_parent_bytes": width * (states - res.layers[0]),
            "visited_bytes": res.visited_bytes,
            "layer_bytes": sum(d["layer_bytes"] for d in res.depths),
            "hash_max_share": _hash_spread(res.layer_stores),
            "paths": paths, "search_time_s": res.cpu_s,  # CPU seconds
        }
    return out


def _hash_spread(stores) -> float:
    """Largest share of one hash value among the states of the widest layer (1/256 = perfectly even)."""
    store = max(stores, key=lambda s: s.count)
    counts = np.zeros(256, dtype=np.int64)
    for i in range(len(store.blocks)):
        rows, _ = store.decode(i)
        counts += np.bincount(row_hash8(rows), minlength=256)
    return float(counts.max() / max(1, counts.sum()))


__all__ = ["measure_codecs", "measure_parents", "log2_binomial", "elias_fano_bits"]
