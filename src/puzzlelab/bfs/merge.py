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

from .keys import keys_to_rows_into, rows_to_keys_into
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


@njit(cache=True, inline="always")
def _first(hk, hs, a, b):
    """Heap entry a comes before b: smaller key, ties to the lower input index."""
    return hk[a] < hk[b] or (hk[a] == hk[b] and hs[a] < hs[b])


@njit(cache=True, inline="always")
def _sift(hk, hs, size, i):
    while True:
        left = 2 * i + 1
        if left >= size:
            return
        best = left
        if left + 1 < size and _first(hk, hs, left + 1, left):
            best = left + 1
        if _first(hk, hs, best, i):
            tk = hk[best]
            hk[best] = hk[i]
            hk[i] = tk
            ts = hs[best]
            hs[best] = hs[i]
            hs[i] = ts
            i = best
        else:
            return


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


@njit(cache=True)
def _merge1(keys1, tags, pos, lim, old_input, out_vis, out_new, out_tags):
    """merge_round for one-word keys: a binary heap with the current keys cached in it."""
    k = pos.shape[0]
    hk = np.empty(k, dtype=np.uint64)
    hs = np.empty(k, dtype=np.int64)
    size = 0
    for i in range(k):
        if pos[i] < lim[i]:
            hk[size] = keys1[pos[i]]
            hs[size] = i
            size += 1
    for i in range(size // 2 - 1, -1, -1):
        _sift(hk, hs, size, i)
    nv = 0
    nn = 0
    have = False
    cur = np.uint64(0)
    cur_old = False
    cur_tag = np.uint8(0)
    while size > 0:
        i = hs[0]
        key = hk[0]
        p = pos[i]
        if have and key == cur:
            if i == old_input:
                cur_old = True
            elif tags[p] < cur_tag:
                cur_tag = tags[p]
        else:
            if have:
                out_vis[nv] = cur
                nv += 1
                if not cur_old:
                    out_new[nn] = cur
                    out_tags[nn] = cur_tag
                    nn += 1
            have = True
            cur = key
            cur_old = i == old_input
            cur_tag = tags[p]
        p += 1
        pos[i] = p
        if size == 1:
            # one input left: copy its remaining keys (all distinct and > cur) straight through
            if p < lim[i]:
                if have:
                    out_vis[nv] = cur
                    nv += 1
                    if not cur_old:
                        out_new[nn] = cur
                        out_tags[nn] = cur_tag
                        nn += 1
                old = i == old_input
                for q in range(p, lim[i] - 1):
                    out_vis[nv] = keys1[q]
                    nv += 1
                    if not old:
                        out_new[nn] = keys1[q]
                        out_tags[nn] = tags[q]
                        nn += 1
                q = lim[i] - 1
                cur = keys1[q]
                cur_old = old
                cur_tag = tags[q]
                pos[i] = lim[i]
            size = 0
            break
        if p < lim[i]:
            hk[0] = keys1[p]
        else:
            size -= 1
            hk[0] = hk[size]
            hs[0] = hs[size]
        _sift(hk, hs, size, 0)
    if have:
        out_vis[nv] = cur
        nv += 1
        if not cur_old:
            out_new[nn] = cur
            out_tags[nn] = cur_tag
            nn += 1
    return nv, nn


@njit(cache=True)
def _union2(ak, at, a0, a1, bk, bt, b0, b1, ok, ot):
    """Union of two sorted distinct key ranges (smallest tag on equal keys) into ok/ot; returns the count."""
    i = a0
    j = b0
    o = 0
    while i < a1 and j < b1:
        x = ak[i]
        y = bk[j]
        if x < y:
            ok[o] = x
            ot[o] = at[i]
            i += 1
        elif y < x:
            ok[o] = y
            ot[o] = bt[j]
            j += 1
        else:
            ok[o] = x
            ot[o] = at[i] if at[i] < bt[j] else bt[j]
            i += 1
            j += 1
        o += 1
    while i < a1:
        ok[o] = ak[i]
        ot[o] = at[i]
        i += 1
        o += 1
    while j < b1:
        ok[o] = bk[j]
        ot[o] = bt[j]
        j += 1
        o += 1
    return o


@njit(cache=True)
def _merge_pairwise(keys1, tags, pos, lim, old_input, out_vis, out_new, out_tags, s1k, s1t, s2k, s2t):
    """merge_round for one-word keys by two-way merges: the new runs pairwise, then against the visited set."""
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
        # a single run: merge it with the visited set straight from the arena
        src_k, src_t = keys1, tags
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
                s1k[total] = keys1[p]
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
                              dst_k[out:], dst_t[out:])
            else:
                cnt = seg[g + 1] - seg[g]
                for p in range(cnt):
                    dst_k[out + p] = src_k[seg[g] + p]
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
    # 3. against the visited set: every key goes to out_vis, candidates not in it to out_new
    v0 = pos[old_input] if old_input >= 0 else 0
    v1 = lim[old_input] if old_input >= 0 else 0
    i = v0
    nv = 0
    nn = 0
    while i < v1 and j < nc:
        x = keys1[i]
        y = src_k[j]
        if x < y:
            out_vis[nv] = x
            i += 1
        elif y < x:
            out_vis[nv] = y
            out_new[nn] = y
            out_tags[nn] = src_t[j]
            nn += 1
            j += 1
        else:
            out_vis[nv] = x
            i += 1
            j += 1
        nv += 1
    while i < v1:
        out_vis[nv] = keys1[i]
        i += 1
        nv += 1
    while j < nc:
        out_vis[nv] = src_k[j]
        out_new[nn] = src_k[j]
        out_tags[nn] = src_t[j]
        nn += 1
        nv += 1
        j += 1
    for q in range(k):
        pos[q] = lim[q]
    return nv, nn


@njit(cache=True)
def _mergek(keys, tags, pos, lim, old_input, out_vis, out_new, out_tags):
    """merge_round for multi-word keys: a binary heap over (key index, input)."""
    k = pos.shape[0]
    nw = keys.shape[1]
    heap = np.empty(k, dtype=np.int64)
    size = 0
    for i in range(k):
        if pos[i] < lim[i]:
            heap[size] = i
            size += 1

    def before(a, b):
        c = _cmp(keys, pos[a], pos[b])
        return c < 0 or (c == 0 and a < b)

    def sift(i, size):
        while True:
            left = 2 * i + 1
            if left >= size:
                return
            best = left
            if left + 1 < size and before(heap[left + 1], heap[left]):
                best = left + 1
            if before(heap[best], heap[i]):
                t = heap[best]
                heap[best] = heap[i]
                heap[i] = t
                i = best
            else:
                return

    for i in range(size // 2 - 1, -1, -1):
        sift(i, size)
    nv = 0
    nn = 0
    have = False
    cur = 0
    cur_old = False
    cur_tag = np.uint8(0)
    while size > 0:
        i = heap[0]
        p = pos[i]
        if have and _cmp(keys, p, cur) == 0:
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
        if pos[i] >= lim[i]:
            size -= 1
            heap[0] = heap[size]
        sift(0, size)
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


def merge_round(keys, tags, pos, end, more, old_input, out_vis, out_new, out_tags, scratch=None):
    """Merge what can be merged now; returns (visited written, new written). Advances pos.

    Inputs i occupy keys[pos[i]:end[i]]; `more[i]` says a further block follows. Only keys <= the
    smallest last-buffered key of the inputs with more blocks are merged, so every copy of a key
    meets in the same round. Keys from input `old_input` (the visited set, -1 for none) are old;
    every other key is new unless it is old, and keeps the smallest tag among its copies.
    """
    lim = _limits(keys, pos, end, more)
    if keys.shape[1] == 1 and scratch is not None:
        s1k, s1t, s2k, s2t = scratch
        return _merge_pairwise(keys.reshape(-1), tags, pos, lim, old_input, out_vis.reshape(-1), out_new.reshape(-1),
                               out_tags, s1k, s1t, s2k, s2t)
    if keys.shape[1] == 1:
        return _merge1(keys.reshape(-1), tags, pos, lim, old_input, out_vis.reshape(-1), out_new.reshape(-1),
                       out_tags)
    return _mergek(keys, tags, pos, lim, old_input, out_vis, out_new, out_tags)


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


def _scratch_records(k: int, block: int, visited: bool) -> int:
    """Room for the run segments when two or more runs are merged pairwise with the visited set (one-word
    keys); merges without a visited set (the cascade) use the heap and need none."""
    return (k - 1) * block if visited and k > 2 else 0


def merge_bytes(k: int, block: int, nwords: int, width: int, visited: bool = True) -> int:
    """Working set of a k-input merge: arena, outputs, pairwise scratch (one-word keys), one decode buffer."""
    scratch = 2 * 9 * _scratch_records(k, block, visited) if nwords == 1 else 0
    return k * block * (8 * nwords + 1) + k * block * (16 * nwords + 1) + scratch + block * width


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
    scratch = None
    if nwords == 1 and old_input >= 0:
        size = _scratch_records(k, block, old_input >= 0)
        scratch = (np.empty(size, dtype=np.uint64), np.empty(size, dtype=np.uint8),
                   np.empty(size, dtype=np.uint64), np.empty(size, dtype=np.uint8))

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
