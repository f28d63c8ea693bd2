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

from .keys import key_less as _less
from .keys import keys_to_rows
from .storage import RecordStore


@njit(cache=True, inline="always")
def _cmp(keys, a, b):
    """-1, 0 or 1: keys[a] against keys[b] (lexicographic over the words)."""
    for w in range(keys.shape[1]):
        x = keys[a, w]
        y = keys[b, w]
        if x != y:
            return -1 if x < y else 1
    return 0


@njit(cache=True)
def _limits(keys, pos, end, more):
    """Per input, the end of the keys that are <= the round's bound (see merge_round)."""
    k = pos.shape[0]
    bound = -1
    for i in range(k):
        if more[i] and end[i] > pos[i]:
            if bound < 0 or _cmp(keys, end[i] - 1, bound) < 0:
                bound = end[i] - 1
    lim = end.copy()
    if bound >= 0:
        for i in range(k):
            lo = pos[i]
            hi = end[i]
            while lo < hi:  # first index with key > bound
                mid = (lo + hi) >> 1
                if _cmp(keys, bound, mid) < 0:
                    hi = mid
                else:
                    lo = mid + 1
            lim[i] = lo
    return lim


@njit(cache=True, inline="always")
def _copy_key(dk, o, sk, i):
    for w in range(dk.shape[1]):
        dk[o, w] = sk[i, w]


@njit(cache=True, nogil=True)
def _union2(ak, at, a0, a1, bk, bt, b0, b1, ok, ot, o0):
    """Union of two sorted distinct key ranges (smallest tag on equal keys) into ok/ot from o0; returns the count."""
    i = a0
    j = b0
    o = o0
    while i < a1 and j < b1:
        if _less(ak, i, bk, j):
            _copy_key(ok, o, ak, i)
            ot[o] = at[i]
            i += 1
        elif _less(bk, j, ak, i):
            _copy_key(ok, o, bk, j)
            ot[o] = bt[j]
            j += 1
        else:
            _copy_key(ok, o, ak, i)
            ot[o] = at[i] if at[i] < bt[j] else bt[j]
            i += 1
            j += 1
        o += 1
    while i < a1:
        _copy_key(ok, o, ak, i)
        ot[o] = at[i]
        i += 1
        o += 1
    while j < b1:
        _copy_key(ok, o, bk, j)
        ot[o] = bt[j]
        j += 1
        o += 1
    return o - o0


@njit(cache=True, nogil=True)
def _merge_round_kernel(keys, tags, pos, lim, old_input, out_vis, out_new, out_tags, s1k, s1t, s2k, s2t):
    """One merge round: the new inputs' segments pairwise (smallest tag kept), then against the old one."""
    k = pos.shape[0]
    seg = np.empty(k + 1, dtype=np.int64)
    nseg = 0
    only = -1
    for i in range(k):
        if i != old_input and pos[i] < lim[i]:
            nseg += 1
            only = i
    src_k, src_t, dst_k, dst_t = s1k, s1t, s2k, s2t
    if nseg == 1:
        # a single run: merge it with the old input straight from the arena
        src_k, src_t = keys, tags
        seg[0] = pos[only]
        seg[1] = lim[only]
    else:
        # 1. copy the runs' segments side by side into s1 (segment bounds in seg)
        nseg = 0
        total = 0
        seg[0] = 0
        for i in range(k):
            if i == old_input or pos[i] >= lim[i]:
                continue
            for p in range(pos[i], lim[i]):
                _copy_key(s1k, total, keys, p)
                s1t[total] = tags[p]
                total += 1
            nseg += 1
            seg[nseg] = total
    # 2. merge neighbouring segments until one is left (ping-pong between s1 and s2)
    while nseg > 1:
        out = 0
        new_n = 0
        for g in range(0, nseg, 2):
            if g + 1 < nseg:
                cnt = _union2(src_k, src_t, seg[g], seg[g + 1], src_k, src_t, seg[g + 1], seg[g + 2],
                              dst_k, dst_t, out)
            else:
                cnt = seg[g + 1] - seg[g]
                for p in range(cnt):
                    _copy_key(dst_k, out + p, src_k, seg[g] + p)
                    dst_t[out + p] = src_t[seg[g] + p]
            seg[new_n] = out
            out += cnt
            new_n += 1
        seg[new_n] = out
        nseg = new_n
        src_k, dst_k = dst_k, src_k
        src_t, dst_t = dst_t, src_t
    j = seg[0] if nseg > 0 else 0
    nc = seg[nseg] if nseg > 0 else 0
    # 3. against the old input: every key goes to out_vis, candidates not in it to out_new
    v0 = pos[old_input] if old_input >= 0 else 0
    v1 = lim[old_input] if old_input >= 0 else 0
    i = v0
    nv = 0
    nn = 0
    while i < v1 and j < nc:
        if _less(keys, i, src_k, j):
            _copy_key(out_vis, nv, keys, i)
            i += 1
        elif _less(src_k, j, keys, i):
            _copy_key(out_vis, nv, src_k, j)
            _copy_key(out_new, nn, src_k, j)
            out_tags[nn] = src_t[j]
            nn += 1
            j += 1
        else:
            _copy_key(out_vis, nv, keys, i)
            i += 1
            j += 1
        nv += 1
    while i < v1:
        _copy_key(out_vis, nv, keys, i)
        i += 1
        nv += 1
    while j < nc:
        _copy_key(out_vis, nv, src_k, j)
        _copy_key(out_new, nn, src_k, j)
        out_tags[nn] = src_t[j]
        nn += 1
        nv += 1
        j += 1
    for q in range(k):
        pos[q] = lim[q]
    return nv, nn


def merge_round(keys, tags, pos, end, more, old_input, out_vis, out_new, out_tags, scratch):
    """Merge what can be merged now; returns (visited written, new written). Advances pos.

    Inputs i occupy keys[pos[i]:end[i]]; `more[i]` says a further block follows. Only keys <= the
    smallest last-buffered key of the inputs with more blocks are merged, so every copy of a key
    meets in the same round. Keys from input `old_input` (the visited set, -1 for none) are old;
    every other key is new unless it is old, and keeps the smallest tag among its copies.
    """
    lim = _limits(keys, pos, end, more)
    s1k, s1t, s2k, s2t = scratch
    return _merge_round_kernel(keys, tags, pos, lim, old_input, out_vis, out_new, out_tags, s1k, s1t, s2k, s2t)


class _Done:
    """A finished result with the `result()` of a future (a writer without a pool)."""

    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


class KeyWriter:
    """Collects sorted keys (+ tags) and writes them to a store in encoded blocks of `block` records.

    Blocks reach the store `ahead` blocks late, in order: with a thread pool they are encoded on its
    threads meanwhile, without one they are encoded at once and held. So the store's bytes, and when
    the memory budget is charged for them (hence what spills), do not depend on the threads."""

    def __init__(self, store: RecordStore, le: bool, block: int, nwords: int, on_block=None, pool=None,
                 ahead: int = 2):
        self.store = store
        self.le = le
        self.block = block
        self.nwords = nwords
        self.pool = pool
        self.ahead = ahead
        self.free = [(np.empty((block, nwords), dtype=np.uint64), np.zeros(block, dtype=np.uint8))
                     for _ in range(self.ahead + 1)]
        self.keys, self.tags = self.free.pop()
        self.pending: list = []  # (future, n, tags, buffers) in block order
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
                self._emit()

    def _emit(self) -> None:
        n = self.n
        if n == 0:
            return
        keys = self.keys[:n]
        tags = self.tags[:n]
        if self.on_block is not None:
            self.on_block(keys_to_rows(keys, self.store.width, self.le), tags, self.written)
        self.written += n
        self.n = 0
        if self.ahead == 0:
            self.store.append_keys(keys, self.le, tags if self.store.tagged else None)
            return
        if self.pool is None:
            fut = _Done(self.store.codec.encode_keys(keys, self.le, self.store.width))
        else:
            fut = self.pool.submit(self.store.codec.encode_keys, keys, self.le, self.store.width)
        self.pending.append((fut, n, (self.keys, self.tags)))
        while not self.free:
            self._drain_one()
        self.keys, self.tags = self.free.pop()

    def _drain_one(self) -> None:
        fut, n, bufs = self.pending.pop(0)
        payload = fut.result()
        self.store.append_encoded(payload, n, bufs[1][:n] if self.store.tagged else None)
        self.free.append(bufs)

    def flush(self) -> None:
        """Write the partial block and wait for every block in flight."""
        self._emit()
        while self.pending:
            self._drain_one()

    @staticmethod
    def bytes_needed(block: int, nwords: int, width: int, ahead: int = 2) -> int:
        return (ahead + 1) * block * (8 * nwords + 1) + block * width


class KeySource:
    """Reads a store block by block into a slot of the merge arena (dropping blocks if asked).

    With a thread pool, the next block is decoded on its threads while the current one is merged."""

    def __init__(self, store: RecordStore, le: bool, consume: bool, pool=None):
        self.store = store
        self.le = le
        self.consume = consume
        self.next_block = 0
        self.pool = pool
        self.future = None
        self.spare = None

    def has_more(self) -> bool:
        return self.next_block < len(self.store.blocks)

    def _decode(self, i: int, keys: np.ndarray) -> np.ndarray:
        return self.store.decode_keys(i, self.le, keys)

    def fill(self, keys: np.ndarray, tags: np.ndarray) -> int:
        """Decode the next block into keys/tags (slot views); returns its record count."""
        i = self.next_block
        if self.future is not None:
            got = self.future.result()
            n = got.shape[0]
            keys[:n] = got
        else:
            n = self._decode(i, keys).shape[0]
        t = self.store.tags_of(i)
        if t is not None:
            tags[:n] = t
        else:
            tags[:n] = 0
        if self.consume:
            self.store.drop(i)
        self.next_block += 1
        self.future = None
        if self.pool is not None and self.has_more():
            if self.spare is None:
                self.spare = np.empty_like(keys)
            self.future = self.pool.submit(self._decode, self.next_block, self.spare)
        return n

    @staticmethod
    def bytes_needed(block: int, nwords: int, prefetch: bool) -> int:
        return block * 8 * nwords if prefetch else 0


def _scratch_records(k: int, block: int, visited: bool) -> int:
    """Room for the new inputs' segments when two or more of them are merged pairwise."""
    new_inputs = k - 1 if visited else k
    return new_inputs * block if new_inputs >= 2 else 0


def merge_bytes(k: int, block: int, nwords: int, width: int, visited: bool = True, prefetch: bool = False) -> int:
    """Working set of a k-input merge: arena, outputs, pairwise scratch, prefetch buffers."""
    arena = k * block * (8 * nwords + 1)
    outputs = k * block * (16 * nwords + 1)
    scratch = 2 * _scratch_records(k, block, visited) * (8 * nwords + 1)
    return arena + outputs + scratch + k * KeySource.bytes_needed(block, nwords, prefetch)


def merge(sources: list[KeySource], old_input: int, block: int, nwords: int, width: int,
          vis_writer: KeyWriter | None, new_writer: KeyWriter) -> None:
    """Merge every source to the end: distinct keys to vis_writer, keys not in old_input to new_writer."""
    k = len(sources)
    keys = np.empty((k * block, nwords), dtype=np.uint64)
    tags = np.zeros(k * block, dtype=np.uint8)
    pos = np.zeros(k, dtype=np.int64)
    end = np.zeros(k, dtype=np.int64)
    more = np.zeros(k, dtype=np.bool_)
    out_vis = np.empty((k * block, nwords), dtype=np.uint64)
    out_new = np.empty((k * block, nwords), dtype=np.uint64)
    out_tags = np.empty(k * block, dtype=np.uint8)
    size = max(1, _scratch_records(k, block, old_input >= 0))
    scratch = (np.empty((size, nwords), dtype=np.uint64), np.empty(size, dtype=np.uint8),
               np.empty((size, nwords), dtype=np.uint64), np.empty(size, dtype=np.uint8))

    def refill(i: int) -> None:
        base = i * block
        if sources[i].has_more():
            n = sources[i].fill(keys[base:base + block], tags[base:base + block])
            pos[i], end[i] = base, base + n
        else:
            pos[i] = end[i] = base
        more[i] = sources[i].has_more()

    for i in range(k):
        refill(i)
    while (pos < end).any():
        nv, nn = merge_round(keys, tags, pos, end, more, old_input, out_vis, out_new, out_tags, scratch)
        if vis_writer is not None:
            vis_writer.append(out_vis[:nv])
        new_writer.append(out_new[:nn], out_tags[:nn])
        for i in range(k):
            if pos[i] == end[i] and more[i]:
                refill(i)
    if vis_writer is not None:
        vis_writer.flush()
    new_writer.flush()
