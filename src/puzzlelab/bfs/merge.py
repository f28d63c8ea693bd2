"""The streaming k-way merge of sorted runs with the keys already known (one pass per depth).

Every input is read one decoded block at a time into its own slot of an arena. A round merges
every buffered key that is <= the smallest "last buffered key" among the inputs that still have
blocks to read, so equal keys from different inputs always meet in the same round; then the
emptied slots are refilled. Inside a round the new inputs' segments are merged pairwise (the
smallest tag of a key's copies is kept), the old inputs' segments (the visited set, or the
previous layers of a frontier search) likewise, and then the two against each other: every key
goes to the "all" output, the new keys that are not old to the "new" output. Output goes through
:class:`KeyWriter` objects that encode full blocks into stores. No input is ever read twice or out
of order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from puzzlelab.lab.jit import inline_kernel, kernel

from .keys import key_less as _less
from .keys import keys_to_rows
from .storage import RecordStore


class Arena(NamedTuple):
    """The merge's inputs: input i's current block is keys[pos[i]:end[i]] (slot i of the arena)."""

    keys: np.ndarray  # uint64 (inputs * block, nwords)
    tags: np.ndarray  # uint8 (inputs * block)
    pos: np.ndarray  # int64 (inputs): first key not merged yet
    end: np.ndarray  # int64 (inputs): end of the buffered keys
    lim: np.ndarray  # int64 (inputs): end of the keys merged this round (set by round_limits)
    more: np.ndarray  # bool (inputs): a further block follows
    old: np.ndarray  # bool (inputs): the input's keys are known already (not new)


class Outputs(NamedTuple):
    """One round's output: every distinct key, and the new keys with their tags."""

    all: np.ndarray  # uint64 (inputs * block, nwords)
    new: np.ndarray  # uint64 (inputs * block, nwords)
    tags: np.ndarray  # uint8 (inputs * block)


class Scratch(NamedTuple):
    """Ping-pong buffers for merging the segments of a group pairwise, and segment bounds."""

    k1: np.ndarray
    t1: np.ndarray
    k2: np.ndarray
    t2: np.ndarray
    seg: np.ndarray  # int64 (inputs + 1)


@inline_kernel
def _cmp(keys, a, b):
    """-1, 0 or 1: keys[a] against keys[b] (lexicographic over the words)."""
    for w in range(keys.shape[1]):
        x = keys[a, w]
        y = keys[b, w]
        if x != y:
            return -1 if x < y else 1
    return 0


@kernel
def round_limits(a):
    """Set a.lim: per input, the end of the keys that are <= the round's bound (see merge)."""
    k = a.pos.shape[0]
    keys = a.keys
    bound = -1
    for i in range(k):
        if a.more[i] and a.end[i] > a.pos[i]:
            if bound < 0 or _cmp(keys, a.end[i] - 1, bound) < 0:
                bound = a.end[i] - 1
    for i in range(k):
        a.lim[i] = a.end[i]
    if bound >= 0:
        for i in range(k):
            lo = a.pos[i]
            hi = a.end[i]
            while lo < hi:  # first index with key > bound
                mid = (lo + hi) >> 1
                if _cmp(keys, bound, mid) < 0:
                    hi = mid
                else:
                    lo = mid + 1
            a.lim[i] = lo


@inline_kernel
def _copy_key(dk, o, sk, i):
    for w in range(dk.shape[1]):
        dk[o, w] = sk[i, w]


@inline_kernel
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


@inline_kernel
def _merge_group(a, old, s):
    """Merge this round's segments of the inputs with a.old[i] == old into one sorted distinct range.

    Returns (keys, tags, start, end): the arena itself when one input has keys this round, else
    one of the scratch buffers."""
    k = a.pos.shape[0]
    seg = s.seg
    nseg = 0
    only = -1
    for i in range(k):
        if a.old[i] == old and a.pos[i] < a.lim[i]:
            nseg += 1
            only = i
    if nseg == 0:
        return a.keys, a.tags, 0, 0
    if nseg == 1:
        return a.keys, a.tags, a.pos[only], a.lim[only]
    # copy the segments side by side into s.k1 (segment bounds in seg)
    nseg = 0
    total = 0
    seg[0] = 0
    for i in range(k):
        if a.old[i] != old or a.pos[i] >= a.lim[i]:
            continue
        for p in range(a.pos[i], a.lim[i]):
            _copy_key(s.k1, total, a.keys, p)
            s.t1[total] = a.tags[p]
            total += 1
        nseg += 1
        seg[nseg] = total
    # merge neighbouring segments until one is left (ping-pong between k1 and k2)
    src_k, src_t, dst_k, dst_t = s.k1, s.t1, s.k2, s.t2
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
    return src_k, src_t, 0, seg[1]


@inline_kernel
def _drop_known(a, i, nk, nt, j, nc, out, first):
    """The keys of nk[j:nc] (first pass) or out.new[:nc] not in old input i's segment, into out.new; returns the
    count (a filter in place after the first pass: it never writes ahead of what it reads)."""
    v = a.pos[i]
    v1 = a.lim[i]
    keys = a.keys
    nn = 0
    src_k = nk if first else out.new
    src_t = nt if first else out.tags
    while j < nc:
        while v < v1 and _less(keys, v, src_k, j):
            v += 1
        if v < v1 and not _less(src_k, j, keys, v):  # equal: known
            j += 1
            continue
        _copy_key(out.new, nn, src_k, j)
        out.tags[nn] = src_t[j]
        nn += 1
        j += 1
    return nn


@kernel
def merge_round(a, out, new_scratch, old_scratch):
    """Merge this round's keys (a.pos up to a.lim, see round_limits); returns (all written, new written).

    Keys of the old inputs are known; every other key is new unless it is old, and keeps the
    smallest tag among its copies. Advances a.pos to a.lim. With two or more old inputs (the
    layers of a frontier search, which are disjoint) only the new keys are written: they are
    filtered against each old input in turn, without merging the old ones."""
    nk, nt, j, nc = _merge_group(a, False, new_scratch)
    nold = 0
    for q in range(a.pos.shape[0]):
        if a.old[q]:
            nold += 1
    if nold >= 2:
        first = True
        for q in range(a.pos.shape[0]):
            if a.old[q]:
                nc = _drop_known(a, q, nk, nt, j, nc, out, first)
                j = 0
                first = False
        for q in range(a.pos.shape[0]):
            a.pos[q] = a.lim[q]
        return 0, nc
    ok, ot, i, v1 = _merge_group(a, True, old_scratch)
    nv = 0
    nn = 0
    while i < v1 and j < nc:
        if _less(ok, i, nk, j):
            _copy_key(out.all, nv, ok, i)
            i += 1
        elif _less(nk, j, ok, i):
            _copy_key(out.all, nv, nk, j)
            _copy_key(out.new, nn, nk, j)
            out.tags[nn] = nt[j]
            nn += 1
            j += 1
        else:
            _copy_key(out.all, nv, ok, i)
            i += 1
            j += 1
        nv += 1
    while i < v1:
        _copy_key(out.all, nv, ok, i)
        i += 1
        nv += 1
    while j < nc:
        _copy_key(out.all, nv, nk, j)
        _copy_key(out.new, nn, nk, j)
        out.tags[nn] = nt[j]
        nn += 1
        nv += 1
        j += 1
    for q in range(a.pos.shape[0]):
        a.pos[q] = a.lim[q]
    return nv, nn


class _Done:
    """A finished result with the `result()` of a future (a writer without a pool)."""

    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


# Blocks smaller than this are encoded or decoded at once rather than on the pool's threads: handing
# a block to a thread and waiting for it cost more than the work (30% of a small Snakebird level's
# search with two threads). The bytes are the same either way.
POOL_MIN_RECORDS = 4096


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
        if self.pool is None or n < POOL_MIN_RECORDS:
            fut = _Done(self.store.codec.encode_keys(keys, self.le, self.store.width))
        else:
            fut = self.pool.submit(self.store.codec.encode_keys, keys, self.le, self.store.width)
        self.pending.append((fut, n, (self.keys, self.tags), tuple(int(w) for w in keys[0])))
        while not self.free:
            self._drain_one()
        self.keys, self.tags = self.free.pop()

    def _drain_one(self) -> None:
        fut, n, bufs, first = self.pending.pop(0)
        payload = fut.result()
        self.store.append_encoded(payload, n, bufs[1][:n] if self.store.tagged else None, first_key=first)
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
        if self.pool is not None and self.has_more() and self.store.block_count(self.next_block) >= POOL_MIN_RECORDS:
            if self.spare is None:
                self.spare = np.empty_like(keys)
            self.future = self.pool.submit(self._decode, self.next_block, self.spare)
        return n

    @staticmethod
    def bytes_needed(block: int, nwords: int, prefetch: bool) -> int:
        return block * 8 * nwords if prefetch else 0


class ArraySource:
    """Sorted distinct keys (+ tags) still in memory, read block by block like a store (the last chunk
    of a depth, merged without being encoded)."""

    def __init__(self, keys: np.ndarray, tags: np.ndarray, block: int):
        self.keys = keys
        self.tags = tags
        self.block = block
        self.pos = 0

    def has_more(self) -> bool:
        return self.pos < self.keys.shape[0]

    def fill(self, keys: np.ndarray, tags: np.ndarray) -> int:
        n = min(self.block, self.keys.shape[0] - self.pos, keys.shape[0])
        keys[:n] = self.keys[self.pos:self.pos + n]
        tags[:n] = self.tags[self.pos:self.pos + n]
        self.pos += n
        return n


def _scratch_records(inputs: int, block: int) -> int:
    """Room for a group's segments when two or more of its inputs are merged pairwise."""
    return inputs * block if inputs >= 2 else 0


def merge_bytes(k: int, block: int, nwords: int, width: int, old: int = 1, prefetch: bool = False) -> int:
    """Working set of a k-input merge with `old` old inputs: arena, outputs, pairwise scratch, prefetch buffers.

    Two or more old inputs are never merged with each other (see merge_round): no scratch for them."""
    arena = k * block * (8 * nwords + 1)
    outputs = k * block * (16 * nwords + 1)
    scratch = 2 * _scratch_records(k - old, block) * (8 * nwords + 1)
    return arena + outputs + scratch + k * KeySource.bytes_needed(block, nwords, prefetch)


def _scratch(inputs: int, block: int, nwords: int, k: int) -> Scratch:
    size = max(1, _scratch_records(inputs, block))
    return Scratch(np.empty((size, nwords), dtype=np.uint64), np.empty(size, dtype=np.uint8),
                   np.empty((size, nwords), dtype=np.uint64), np.empty(size, dtype=np.uint8),
                   np.zeros(k + 1, dtype=np.int64))


def merge(sources: list[KeySource], old: list[bool], block: int, nwords: int, all_writer: KeyWriter | None,
          new_writer: KeyWriter) -> None:
    """Merge every source to the end: distinct keys to all_writer, keys of no old source to new_writer."""
    k = len(sources)
    a = Arena(np.empty((k * block, nwords), dtype=np.uint64), np.zeros(k * block, dtype=np.uint8),
              np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64),
              np.zeros(k, dtype=np.bool_), np.array(old, dtype=np.bool_))
    out = Outputs(np.empty((k * block, nwords), dtype=np.uint64), np.empty((k * block, nwords), dtype=np.uint64),
                  np.empty(k * block, dtype=np.uint8))
    nold = int(a.old.sum())
    if nold >= 2 and all_writer is not None:
        raise ValueError("a merge with several old inputs writes the new keys only")
    new_scratch = _scratch(k - nold, block, nwords, k)
    old_scratch = _scratch(1, block, nwords, k)  # one old input is merged straight from the arena

    def refill(i: int) -> None:
        base = i * block
        if sources[i].has_more():
            n = sources[i].fill(a.keys[base:base + block], a.tags[base:base + block])
            a.pos[i], a.end[i] = base, base + n
        else:
            a.pos[i] = a.end[i] = base
        a.more[i] = sources[i].has_more()

    for i in range(k):
        refill(i)
    while (a.pos < a.end).any():
        round_limits(a)
        nv, nn = merge_round(a, out, new_scratch, old_scratch)
        if all_writer is not None:
            all_writer.append(out.all[:nv])
        new_writer.append(out.new[:nn], out.tags[:nn])
        for i in range(k):
            if a.pos[i] == a.end[i] and a.more[i]:
                refill(i)
    if all_writer is not None:
        all_writer.flush()
    new_writer.flush()
