"""Sort keys for packed states: rows <-> uint64 words, LSD radix sort, dedup, 1-byte parent hashes.

A state row of `width` bytes becomes `nwords = ceil(width / 8)` uint64 words whose lexicographic
order is the sort order of the search. Byte order "be" makes row byte 0 the most significant (the
order of the rows as strings); "le" makes the last row byte the most significant (the order of
the row read as a little-endian integer). The codec always sees rows in their own byte layout, so
the two orders differ only in which records end up next to each other.
"""

from __future__ import annotations

import numpy as np

from puzzlelab.lab.jit import allocating_kernel, inline_kernel, kernel

ORDERS = ("le", "be")


def nwords(width: int) -> int:
    return (width + 7) // 8


@inline_kernel
def _key_byte_pos(b, width, le):
    """Row byte that is key byte b (0 = most significant)."""
    return width - 1 - b if le else b


@inline_kernel
def row_key_le(rows, i):
    """The one-word `le` key of rows[i] (rows of at most 8 bytes)."""
    width = rows.shape[1]
    v = np.uint64(0)
    for j in range(width - 1, -1, -1):
        v = (v << np.uint64(8)) | np.uint64(rows[i, j])
    return v << np.uint64(8 * (8 - width))


@inline_kernel
def key_row_le(key, rows, i):
    """Write the one-word `le` key into rows[i] (the inverse of `row_key_le`)."""
    width = rows.shape[1]
    v = key >> np.uint64(8 * (8 - width))
    for j in range(width):
        rows[i, j] = np.uint8(v & np.uint64(255))
        v >>= np.uint64(8)


@kernel
def rows_to_keys_into(rows, le, out):
    """Fill out[:n] (n, nwords) with the keys of rows (n, width)."""
    n, width = rows.shape
    nw = out.shape[1]
    if nw == 1 and le:
        for i in range(n):
            out[i, 0] = row_key_le(rows, i)
        return
    if nw == 1:
        pad = np.uint64(8 * (8 - width))
        for i in range(n):
            v = np.uint64(0)
            for j in range(width):
                v = (v << np.uint64(8)) | np.uint64(rows[i, j])
            out[i, 0] = v << pad
        return
    for i in range(n):
        for w in range(nw):
            v = np.uint64(0)
            for k in range(8):
                b = 8 * w + k
                v <<= np.uint64(8)
                if b < width:
                    v |= np.uint64(rows[i, _key_byte_pos(b, width, le)])
            out[i, w] = v


def rows_to_keys(rows: np.ndarray, le: bool) -> np.ndarray:
    out = np.empty((rows.shape[0], nwords(rows.shape[1])), dtype=np.uint64)
    rows_to_keys_into(np.ascontiguousarray(rows), le, out)
    return out


@kernel
def keys_to_rows_into(keys, le, out):
    n, width = out.shape
    if keys.shape[1] == 1 and le:
        for i in range(n):
            key_row_le(keys[i, 0], out, i)
        return
    if keys.shape[1] == 1:
        pad = np.uint64(8 * (8 - width))
        for i in range(n):
            v = keys[i, 0] >> pad
            for j in range(width - 1, -1, -1):
                out[i, j] = np.uint8(v & np.uint64(255))
                v >>= np.uint64(8)
        return
    for i in range(n):
        for b in range(width):
            w = b >> 3
            shift = np.uint64(8 * (7 - (b & 7)))
            out[i, _key_byte_pos(b, width, le)] = np.uint8((keys[i, w] >> shift) & np.uint64(255))


def keys_to_rows(keys: np.ndarray, width: int, le: bool) -> np.ndarray:
    out = np.empty((keys.shape[0], width), dtype=np.uint8)
    keys_to_rows_into(keys, le, out)
    return out


@inline_kernel
def key_less(a, i, b, j):
    """a[i] < b[j] lexicographically over the words."""
    for w in range(a.shape[1]):
        x = a[i, w]
        y = b[j, w]
        if x != y:
            return x < y
    return False


@inline_kernel
def key_equal(a, i, b, j):
    for w in range(a.shape[1]):
        if a[i, w] != b[j, w]:
            return False
    return True


@kernel
def find_key(keys, key):
    """Index of `key` (one row of words) in sorted distinct keys, -1 when absent (binary search)."""
    lo = 0
    hi = keys.shape[0]
    nw = keys.shape[1]
    while lo < hi:
        mid = (lo + hi) >> 1
        c = 0
        for w in range(nw):
            if keys[mid, w] != key[w]:
                c = -1 if keys[mid, w] < key[w] else 1
                break
        if c == 0:
            return mid
        if c < 0:
            lo = mid + 1
        else:
            hi = mid
    return -1


@inline_kernel
def row_hash(rows, i):
    """The 1-byte parent hash H(S) of rows[i]: FNV-1a over the row bytes, folded to 8 bits."""
    h = np.uint32(2166136261)
    for j in range(rows.shape[1]):
        h = (h ^ np.uint32(rows[i, j])) * np.uint32(16777619)
    h ^= h >> np.uint32(16)
    h ^= h >> np.uint32(8)
    return np.uint8(h & np.uint32(255))


@allocating_kernel
def row_hash8(rows):
    """`row_hash` of every row."""
    n = rows.shape[0]
    out = np.empty(n, dtype=np.uint8)
    for i in range(n):
        out[i] = row_hash(rows, i)
    return out


@kernel
def radix_sort_into(keys, tags, n, nbytes, tmp_keys, tmp_tags, counts):
    """Stable LSD radix sort of (keys[:n], tags[:n]) by the first `nbytes` key bytes, 8 bits a pass,
    with scratch of n and counts (nbytes, 256) int64 passed in (no allocation: callable per piece).

    Passes whose byte is the same in every key are skipped. Returns the pair of arrays that holds
    the result (either the inputs or the scratch arrays).
    """
    nw = keys.shape[1]
    for b in range(nbytes):
        for d in range(256):
            counts[b, d] = 0
    for i in range(n):
        for b in range(nbytes):
            w = b >> 3
            d = (keys[i, w] >> np.uint64(8 * (7 - (b & 7)))) & np.uint64(255)
            counts[b, d] += 1
    src_k, src_t, dst_k, dst_t = keys, tags, tmp_keys, tmp_tags
    for b in range(nbytes - 1, -1, -1):
        trivial = False
        for d in range(256):
            if counts[b, d] == n:
                trivial = True
                break
            if counts[b, d] != 0:
                break
        if trivial or n == 0:
            continue
        total = 0
        for d in range(256):
            c = counts[b, d]
            counts[b, d] = total
            total += c
        w = b >> 3
        shift = np.uint64(8 * (7 - (b & 7)))
        for i in range(n):
            d = (src_k[i, w] >> shift) & np.uint64(255)
            p = counts[b, d]
            counts[b, d] = p + 1
            for x in range(nw):
                dst_k[p, x] = src_k[i, x]
            dst_t[p] = src_t[i]
        src_k, dst_k = dst_k, src_k
        src_t, dst_t = dst_t, src_t
    return src_k, src_t


def radix_sort(keys: np.ndarray, tags: np.ndarray, nbytes: int) -> tuple[np.ndarray, np.ndarray]:
    """`radix_sort_into` of whole arrays with its own scratch; returns the pair that holds the result."""
    counts = np.empty((max(nbytes, 1), 256), dtype=np.int64)
    return radix_sort_into(keys, tags, keys.shape[0], nbytes, np.empty_like(keys), np.empty_like(tags), counts)


@kernel
def dedup_min_tag(keys, tags):
    """Compact sorted (keys, tags) in place to distinct keys, keeping the smallest tag; returns the count."""
    n = keys.shape[0]
    if n == 0:
        return 0
    m = 0
    for i in range(1, n):
        if key_equal(keys, i, keys, m):
            if tags[i] < tags[m]:
                tags[m] = tags[i]
        else:
            m += 1
            if m != i:
                for x in range(keys.shape[1]):
                    keys[m, x] = keys[i, x]
                tags[m] = tags[i]
    return m + 1


@kernel
def child_keys_and_tags(children, parent_index, parent_hash, le, keys, tags):
    """Keys of the children and, for each, the 1-byte hash of its parent."""
    rows_to_keys_into(children, le, keys)
    for i in range(children.shape[0]):
        tags[i] = parent_hash[parent_index[i]]


@kernel
def _span(keys):
    """(tz, top) for keys of one or two words read as one number (word 0 high): every bit a key sets
    lies in [tz, top) (from the OR of all keys)."""
    n, nw = keys.shape
    hi = np.uint64(0)
    lo = np.uint64(0)
    for i in range(n):
        if nw == 1:
            lo |= keys[i, 0]
        else:
            hi |= keys[i, 0]
            lo |= keys[i, 1]
    top = 0
    tz = 0
    if hi != 0:
        top = 64
        x = hi
        while x != 0:
            x >>= np.uint64(1)
            top += 1
    elif lo != 0:
        x = lo
        while x != 0:
            x >>= np.uint64(1)
            top += 1
    if lo != 0:
        x = lo
        while (x & np.uint64(1)) == 0:
            x >>= np.uint64(1)
            tz += 1
    elif hi != 0:
        tz = 64
        x = hi
        while (x & np.uint64(1)) == 0:
            x >>= np.uint64(1)
            tz += 1
    return tz, top


@inline_kernel
def _shr128(h, lo, s):
    """(h:lo) >> s for 0 <= s < 128."""
    if s == 0:
        return h, lo
    if s >= 64:
        return np.uint64(0), h >> np.uint64(s - 64)
    return h >> np.uint64(s), (lo >> np.uint64(s)) | (h << np.uint64(64 - s))


@inline_kernel
def _shl128(h, lo, s):
    if s == 0:
        return h, lo
    if s >= 64:
        return lo << np.uint64(s - 64), np.uint64(0)
    return (h << np.uint64(s)) | (lo >> np.uint64(64 - s)), lo << np.uint64(s)


@kernel
def _bucket_pack(keys, tags, parent_index, parent_hash, tz, nbucket_bits, out, starts):
    """Bucket keys by their top `nbucket_bits` significant bits; inside a bucket store
    (the 56 low significant bits << 8) | tag. Tags come from parent_hash[parent_index] when given."""
    n, nw = keys.shape
    nb = 1 << nbucket_bits
    low56 = (np.uint64(1) << np.uint64(56)) - np.uint64(1)
    for b in range(nb + 1):
        starts[b] = 0
    for i in range(n):
        h = keys[i, 0] if nw == 2 else np.uint64(0)
        h, lo = _shr128(h, keys[i, nw - 1], tz)
        b = np.int64((h << np.uint64(8)) | (lo >> np.uint64(56))) if nbucket_bits > 0 else 0
        starts[b + 1] += 1
    for b in range(nb):
        starts[b + 1] += starts[b]
    fill = starts[nb + 1:2 * nb + 1]  # the second half of `starts` is scratch
    for b in range(nb):
        fill[b] = starts[b]
    for i in range(n):
        h = keys[i, 0] if nw == 2 else np.uint64(0)
        h, lo = _shr128(h, keys[i, nw - 1], tz)
        b = np.int64((h << np.uint64(8)) | (lo >> np.uint64(56))) if nbucket_bits > 0 else 0
        t = parent_hash[parent_index[i]] if parent_index.shape[0] > 0 else tags[i]
        out[fill[b]] = ((lo & low56) << np.uint64(8)) | np.uint64(t)
        fill[b] += 1


@kernel
def _bucket_unpack(packed, starts, nbucket_bits, tz, keys, tags):
    """Inverse of _bucket_pack once each bucket is sorted, dropping duplicate keys (the smallest
    tag of each key comes first). Returns the number of distinct keys."""
    nb = 1 << nbucket_bits
    nw = keys.shape[1]
    m = 0
    ph = np.uint64(0)
    pl = np.uint64(0)
    for b in range(nb):
        bh = np.uint64(b) >> np.uint64(8)
        bl = np.uint64(b) << np.uint64(56)
        for i in range(starts[b], starts[b + 1]):
            v = packed[i]
            h, lo = _shl128(bh, bl | (v >> np.uint64(8)), tz)
            if m > 0 and h == ph and lo == pl:
                continue
            if nw == 2:
                keys[m, 0] = h
            keys[m, nw - 1] = lo
            tags[m] = np.uint8(v & np.uint64(255))
            ph = h
            pl = lo
            m += 1
    return m


MAX_BUCKET_BITS = 16


def _sort_unique_bucketed(keys, tags, parent_index, parent_hash):
    """Sorted distinct keys with their smallest tag, for keys of one or two words whose significant
    bits span at most 56 + MAX_BUCKET_BITS; None when they do not."""
    n, nw = keys.shape
    tz, top = _span(keys)
    span = max(0, top - tz)
    if nw > 2 or span > 56 + MAX_BUCKET_BITS:
        return None
    bits = max(0, span - 56)
    packed = np.empty(n, dtype=np.uint64)
    starts = np.empty(2 * (1 << bits) + 1, dtype=np.int64)
    _bucket_pack(keys, tags, parent_index, parent_hash, tz, bits, packed, starts)
    if bits == 0:
        packed.sort()
    else:
        bounds = starts[: (1 << bits) + 1]
        for b in np.flatnonzero(np.diff(bounds) > 1):
            packed[bounds[b]:bounds[b + 1]].sort()
    out_t = np.empty(n, dtype=np.uint8) if tags is None or tags.shape[0] != n else tags
    m = _bucket_unpack(packed, starts, bits, tz, keys, out_t)
    return keys[:m], out_t[:m]


def sort_unique_children(children, parent_index, parent_hash, le: bool) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys of the children, each with the smallest hash among its parents."""
    m, width = children.shape
    keys = np.empty((m, nwords(width)), dtype=np.uint64)
    rows_to_keys_into(children, le, keys)
    if m > 1:
        done = _sort_unique_bucketed(keys, np.empty(0, dtype=np.uint8), np.ascontiguousarray(parent_index),
                                     parent_hash)
        if done is not None:
            return done
    tags = np.empty(m, dtype=np.uint8)
    child_keys_and_tags(children, parent_index, parent_hash, le, keys, tags)
    return sort_unique(keys, tags, width)


def sort_unique(keys: np.ndarray, tags: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Sort (keys, tags) and drop duplicate keys (smallest tag kept); returns views of the result.

    Keys whose significant bits span at most 72 bits go through numpy's vectorised sort with the
    tag in the low byte (after one bucketing pass on the bits above the lowest 56 when needed);
    longer keys take the radix sort. Either way the result is the same.
    """
    n = keys.shape[0]
    if n > 1:
        done = _sort_unique_bucketed(keys, tags, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.uint8))
        if done is not None:
            return done
    k, t = radix_sort(keys, tags, width)
    m = dedup_min_tag(k, t)
    return k[:m], t[:m]


# --- children rows of at most 7 bytes: sorted in one pass as (row integer << 8 | tag) -----------------
PACKED_MAX_WIDTH = 7


@kernel
def pack_rows(rows, tags, le, out):
    """out[i] = (row i as an integer in key byte order) << 8 | tags[i], for rows of at most 7 bytes."""
    n, width = rows.shape
    for i in range(n):
        v = np.uint64(0)
        if le:
            for j in range(width - 1, -1, -1):
                v = (v << np.uint64(8)) | np.uint64(rows[i, j])
        else:
            for j in range(width):
                v = (v << np.uint64(8)) | np.uint64(rows[i, j])
        out[i] = (v << np.uint64(8)) | np.uint64(tags[i])


@kernel
def unpack_sorted(packed, width, keys, tags):
    """Sorted packed values to distinct one-word keys (smallest tag kept); returns their number."""
    pad = np.uint64(8 * (8 - width))
    n = packed.shape[0]
    if n == 0:
        return 0
    prev = packed[0] >> np.uint64(8)
    keys[0, 0] = prev << pad
    tags[0] = np.uint8(packed[0] & np.uint64(255))
    m = 1
    for i in range(1, n):  # without branches: each value is written, and kept when it is a new key
        v = packed[i]
        k = v >> np.uint64(8)
        keys[m, 0] = k << pad
        tags[m] = np.uint8(v & np.uint64(255))
        m += 1 if k != prev else 0
        prev = k
    return m


def sort_unique_rows(rows: np.ndarray, tags: np.ndarray, le: bool) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys of the rows, each with its smallest tag (rows of at most 7 bytes in one
    numpy sort of packed words; wider rows through their keys and sort_unique)."""
    n, width = rows.shape
    if width > PACKED_MAX_WIDTH:
        return sort_unique(rows_to_keys(rows, le), tags, width)
    packed = np.empty(n, dtype=np.uint64)
    pack_rows(rows, tags, le, packed)
    packed.sort()
    keys = np.empty((n, 1), dtype=np.uint64)
    out_tags = np.empty(n, dtype=np.uint8)
    m = unpack_sorted(packed, width, keys, out_tags)
    return keys[:m], out_tags[:m]
