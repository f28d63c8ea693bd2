"""The streaming k-way merge of sorted runs with the visited set (one pass per depth).

Every input is read one decoded block at a time into its own slot of an arena. A round merges,
with a binary heap, every buffered key that is <= the smallest "last buffered key" among the inputs
that still have blocks to read, so equal keys from different inputs always meet in the same
round; then the emptied slots are refilled. Output goes through :class:`KeyWriter` objects that
encode full blocks into stores. No input is ever read twice or out of order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .keys import key_equal, key_less, keys_to_rows_into, rows_to_keys_into
from .storage import RecordStore


@njit(cache=True, inline="always")
def _before(keys, pos, a, b):
    """Input a's current key comes before input b's (ties: lower input index first)."""
    if key_less(keys, pos[a], keys, pos[b]):
        return True
    if key_less(keys, pos[b], keys, pos[a]):
        return False
    return a < b


@njit(cache=True)
def _sift_down(heap, size, keys, pos, i):
    while True:
        left = 2 * i + 1
        if left >= size:
            return
        best = left
        right = left + 1
        if right < size and _before(keys, pos, heap[right], heap[left]):
            best = right
        if _before(keys, pos, heap[best], heap[i]):
            heap[best], heap[i] = heap[i], heap[best]
            i = best
        else:
            return


@njit(cache=True)
def merge_round(keys, tags, pos, end, more, old_input, out_vis, out_new, out_tags):
    """Merge what can be merged now; returns (visited written, new written). Advances pos.

    Inputs i occupy keys[pos[i]:end[i]]; `more[i]` says a further block follows. Keys from input
    `old_input` (the visited set, -1 for none) are old; every other key is new unless it is old,
    and keeps the smallest tag among its copies.
    """
    k = pos.shape[0]
    nw = keys.shape[1]
    # bound: the smallest last-buffered key of the inputs that have more blocks
    bound = -1
    for i in range(k):
        if more[i] and end[i] > pos[i]:
            if bound < 0 or key_less(keys, end[i] - 1, keys, bound):
                bound = end[i] - 1
    lim = end.copy()
    if bound >= 0:
        for i in range(k):
            lo = pos[i]
            hi = end[i]
            while lo < hi:  # first index with key > bound
                mid = (lo + hi) >> 1
                if key_less(keys, bound, keys, mid):
                    hi = mid
                else:
                    lo = mid + 1
            lim[i] = lo
    heap = np.empty(k, dtype=np.int64)
    size = 0
    for i in range(k):
        if pos[i] < lim[i]:
            heap[size] = i
            size += 1
    for i in range(size // 2 - 1, -1, -1):
        _sift_down(heap, size, keys, pos, i)
    nv = 0
    nn = 0
    have = False
    cur = 0  # arena index of the current group's key
    cur_old = False
    cur_tag = 0
    while size > 0:
        i = heap[0]
        p = pos[i]
        if have and key_equal(keys, p, keys, cur):
            if i == old_input:
                cur_old = True
            elif tags[p] < cur_tag:
                cur_tag = tags[p]
        else:
            if have:
                for w in range(nw):
                    out_vis[nv, w] = keys[cur, w]
                nv += 1
                if not cur_old:
                    for w in range(nw):
                        out_new[nn, w] = keys[cur, w]
                    out_tags[nn] = cur_tag
                    nn += 1
            have = True
            cur = p
            cur_old = i == old_input
            cur_tag = tags[p]
        pos[i] = p + 1
        if pos[i] < lim[i]:
            _sift_down(heap, size, keys, pos, 0)
        else:
            size -= 1
            heap[0] = heap[size]
            _sift_down(heap, size, keys, pos, 0)
    if have:
        for w in range(nw):
            out_vis[nv, w] = keys[cur, w]
        nv += 1
        if not cur_old:
            for w in range(nw):
                out_new[nn, w] = keys[cur, w]
            out_tags[nn] = cur_tag
            nn += 1
    return nv, nn


class KeyWriter:
    """Collects sorted keys (+ tags) and writes them to a store in blocks of `block` records."""

    def __init__(self, store: RecordStore, le: bool, block: int, nwords: int, on_block=None):
        self.store = store
        self.le = le
        self.block = block
        self.keys = np.empty((block, nwords), dtype=np.uint64)
        self.tags = np.zeros(block, dtype=np.uint8)
        self.rows = np.empty((block, store.width), dtype=np.uint8)
        self.n = 0
        self.written = 0
        self.on_block = on_block

    def append(self, keys: np.ndarray, tags: np.ndarray | None = None) -> None:
        i = 0
        total = keys.shape[0]
        while i < total:
            take = min(total - i, self.block - self.n)
            self.keys[self.n:self.n + take] = keys[i:i + take]
            if tags is not None:
                self.tags[self.n:self.n + take] = tags[i:i + take]
            self.n += take
            i += take
            if self.n == self.block:
                self.flush()

    def flush(self) -> None:
        if self.n == 0:
            return
        rows = self.rows[: self.n]
        keys_to_rows_into(self.keys[: self.n], self.le, rows)
        tags = self.tags[: self.n]
        self.store.append_block(rows, tags if self.store.tagged else None)
        if self.on_block is not None:
            self.on_block(rows, tags, self.written)
        self.written += self.n
        self.n = 0

    @staticmethod
    def bytes_needed(block: int, nwords: int, width: int) -> int:
        return block * (8 * nwords + 1 + width)


class KeySource:
    """Reads a store block by block into a slot of the merge arena (dropping blocks if asked)."""

    def __init__(self, store: RecordStore, le: bool, consume: bool):
        self.store = store
        self.le = le
        self.consume = consume
        self.next_block = 0

    def has_more(self) -> bool:
        return self.next_block < len(self.store.blocks)

    def fill(self, keys: np.ndarray, tags: np.ndarray, rows_scratch: np.ndarray) -> int:
        """Decode the next block into keys/tags (slot views); returns its record count."""
        i = self.next_block
        rows, t = self.store.decode(i, rows_scratch)
        n = rows.shape[0]
        rows_to_keys_into(rows, self.le, keys[:n])
        if t is not None:
            tags[:n] = t
        else:
            tags[:n] = 0
        if self.consume:
            self.store.drop(i)
        self.next_block += 1
        return n


def merge_bytes(k: int, block: int, nwords: int, width: int) -> int:
    """Working set of a k-input merge: arena, outputs, one decode buffer."""
    return k * block * (8 * nwords + 1) + k * block * (16 * nwords + 1) + block * width


def merge(sources: list[KeySource], old_input: int, block: int, nwords: int, width: int,
          vis_writer: KeyWriter | None, new_writer: KeyWriter) -> None:
    """Merge every source to the end: distinct keys to vis_writer, keys not in old_input to new_writer."""
    k = len(sources)
    keys = np.empty((k * block, nwords), dtype=np.uint64)
    tags = np.zeros(k * block, dtype=np.uint8)
    rows_scratch = np.empty((block, width), dtype=np.uint8)
    pos = np.zeros(k, dtype=np.int64)
    end = np.zeros(k, dtype=np.int64)
    more = np.zeros(k, dtype=np.bool_)
    out_vis = np.empty((k * block, nwords), dtype=np.uint64)
    out_new = np.empty((k * block, nwords), dtype=np.uint64)
    out_tags = np.empty(k * block, dtype=np.uint8)

    def refill(i: int) -> None:
        base = i * block
        if sources[i].has_more():
            n = sources[i].fill(keys[base:base + block], tags[base:base + block], rows_scratch)
            pos[i], end[i] = base, base + n
        else:
            pos[i] = end[i] = base
        more[i] = sources[i].has_more()

    for i in range(k):
        refill(i)
    while (pos < end).any():
        nv, nn = merge_round(keys, tags, pos, end, more, old_input, out_vis, out_new, out_tags)
        if vis_writer is not None:
            vis_writer.append(out_vis[:nv])
        new_writer.append(out_new[:nn], out_tags[:nn])
        for i in range(k):
            if pos[i] == end[i] and more[i]:
                refill(i)
    if vis_writer is not None:
        vis_writer.flush()
    new_writer.flush()
