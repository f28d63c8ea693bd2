"""The baseline: textbook BFS with an in-memory open-addressing hash set of visited keys (numba).

Same domain kernel, same chunked expansion and keys as the sort+merge engine (including, for
domains with move tags, not expanding a state back into its parent); each child is looked up in
the hash table (random access) and appended to the next frontier when new. Everything stays in
memory; no parent information is kept.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from puzzlelab.lab.jit import inline_kernel, kernel
from puzzlelab.lab.progress import Progress
from puzzlelab.lab.sizes import format_size, peak_rss_bytes

from .domain import NO_MOVE, uses_move_tags
from .keys import key_equal, nwords, rows_to_keys

MAX_CHUNK = 1 << 20


@inline_kernel
def _hash(keys, i):
    """splitmix64's finaliser over the words: every key bit reaches the low bits (the slot index),
    also for keys whose low bits are always zero (the padding of narrow states)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(keys.shape[1]):
        h ^= keys[i, w]
        h ^= h >> np.uint64(30)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(27)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(31)
    return h


@kernel
def insert_batch(table, used, size, keys, new_index):
    """Insert keys into the table; new_index receives the rows that were not there. Returns (count, size)."""
    mask = np.uint64(table.shape[0] - 1)
    nnew = 0
    for i in range(keys.shape[0]):
        slot = _hash(keys, i) & mask
        while True:
            s = np.int64(slot)
            if not used[s]:
                used[s] = 1
                for w in range(keys.shape[1]):
                    table[s, w] = keys[i, w]
                new_index[nnew] = i
                nnew += 1
                size += 1
                break
            if key_equal(table, s, keys, i):
                break
            slot = (slot + np.uint64(1)) & mask
    return nnew, size


@kernel
def rehash(table, used, new_table, new_used):
    mask = np.uint64(new_table.shape[0] - 1)
    for s in range(table.shape[0]):
        if used[s]:
            slot = _hash(table, s) & mask
            while new_used[np.int64(slot)]:
                slot = (slot + np.uint64(1)) & mask
            t = np.int64(slot)
            new_used[t] = 1
            for w in range(table.shape[1]):
                new_table[t, w] = table[s, w]


@dataclass
class HashResult:
    domain: object
    layers: list[int] = field(default_factory=list)
    complete: bool = False
    table_bytes: int = 0
    peak_rss_bytes: int = 0
    time_s: float = 0.0
    cpu_s: float = 0.0

    @property
    def states(self) -> int:
        return int(sum(self.layers))

    def to_json(self) -> dict:
        return {
            "domain": self.domain.name,
            "layers": list(self.layers),
            "states": self.states,
            "max_depth": len(self.layers) - 1,
            "complete": self.complete,
            "dedup": "hash",
            "width": int(self.domain.width),
            "visited_bytes": self.table_bytes,
            "bits_per_state": 8.0 * self.table_bytes / max(1, self.states),
            "parent_bytes": 0,
            "peak_rss_bytes": self.peak_rss_bytes,
            "time_s": self.time_s,
            "cpu_s": self.cpu_s,
        }


class HashSet:
    """Open-addressing set of (n, nwords) uint64 keys, kept at most half full."""

    def __init__(self, nw: int, capacity: int = 1 << 16):
        cap = 1 << max(4, math.ceil(math.log2(max(16, capacity))))
        self.table = np.zeros((cap, nw), dtype=np.uint64)
        self.used = np.zeros(cap, dtype=np.uint8)
        self.size = 0

    def insert(self, keys: np.ndarray) -> np.ndarray:
        """Insert; returns the indices of the keys that were new."""
        while 2 * (self.size + keys.shape[0]) > self.table.shape[0]:
            cap = 2 * self.table.shape[0]
            table = np.zeros((cap, self.table.shape[1]), dtype=np.uint64)
            used = np.zeros(cap, dtype=np.uint8)
            rehash(self.table, self.used, table, used)
            self.table, self.used = table, used
        new_index = np.empty(keys.shape[0], dtype=np.int64)
        n, self.size = insert_batch(self.table, self.used, self.size, keys, new_index)
        return new_index[:n]

    @property
    def nbytes(self) -> int:
        return self.table.nbytes + self.used.nbytes


def search_hash(domain, *, max_depth: int | None = None, progress: bool = True, chunk_states: int | None = None,
                order: str = "le") -> HashResult:
    """Layer counts by hash-set BFS (everything in memory)."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    width = int(domain.width)
    le = order == "le"
    chunk = chunk_states or MAX_CHUNK
    seen = HashSet(nwords(width))
    start = np.ascontiguousarray(domain.start, dtype=np.uint8)
    idx = seen.insert(rows_to_keys(start, le))
    frontier = start[idx]
    moves = uses_move_tags(domain)
    came_by = np.full(frontier.shape[0], NO_MOVE, dtype=np.uint8)  # with move tags: the move to each state
    res = HashResult(domain=domain, layers=[frontier.shape[0]])
    bar = Progress(max_depth, f"bfs-hash {domain.name}", unit="depth", interval_s=math.inf, enabled=progress)
    depth = 0
    with bar:
        while True:
            if frontier.shape[0] == 0:
                res.complete = True
                res.layers.pop()
                break
            if max_depth is not None and depth >= max_depth:
                break
            parts, part_moves = [], []
            if moves:
                out = np.empty((min(chunk, frontier.shape[0]) * int(domain.max_children), width), dtype=np.uint8)
                out_moves = np.empty(out.shape[0], dtype=np.uint8)
            for off in range(0, frontier.shape[0], chunk):
                batch = np.ascontiguousarray(frontier[off:off + chunk])
                if moves:
                    m = domain.expand_moves(batch, came_by[off:off + chunk], out, out_moves)
                    children, child_moves = out[:m], out_moves[:m]
                else:
                    children, _, _ = domain.expand(batch)
                    children = np.ascontiguousarray(children)
                new = seen.insert(rows_to_keys(children, le))
                parts.append(children[new])
                if moves:
                    part_moves.append(child_moves[new])
                del children
            frontier = np.concatenate(parts) if parts else np.empty((0, width), dtype=np.uint8)
            if moves:
                came_by = np.concatenate(part_moves) if part_moves else np.empty(0, dtype=np.uint8)
            depth += 1
            res.layers.append(frontier.shape[0])
            bar.update(1)
            bar.line(f"depth {depth}: {frontier.shape[0]:,} new, {seen.size:,} visited, "
                     f"table {format_size(seen.nbytes)}")
    res.table_bytes = seen.nbytes
    res.time_s = time.perf_counter() - t0
    res.cpu_s = time.process_time() - c0
    res.peak_rss_bytes = peak_rss_bytes()
    return res
