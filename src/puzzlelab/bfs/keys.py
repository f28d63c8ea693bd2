"""Sort keys for packed states: rows <-> uint64 words, LSD radix sort, dedup, 1-byte parent hashes.

A state row of `width` bytes becomes `nwords = ceil(width / 8)` uint64 words whose lexicographic
order is the sort order of the search. Byte order "be" makes row byte 0 the most significant (the
order of the rows as strings); "le" makes the last row byte the most significant (the order of
the row read as a little-endian integer). The codec always sees rows in their own byte layout, so
the two orders differ only in which records end up next to each other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ORDERS = ("le", "be")


def nwords(width: int) -> int:
    return (width + 7) // 8


@njit(cache=True, inline="always")
def _key_byte_pos(b, width, le):
    """Row byte that is key byte b (0 = most significant)."""
    return width - 1 - b if le else b


@njit(cache=True)
def rows_to_keys_into(rows, le, out):
    """Fill out[:n] (n, nwords) with the keys of rows (n, width)."""
    n, width = rows.shape
    nw = out.shape[1]
    if nw == 1:
        pad = np.uint64(8 * (8 - width))
        for i in range(n):
            v = np.uint64(0)
            if le:
                for j in range(width - 1, -1, -1):
                    v = (v << np.uint64(8)) | np.uint64(rows[i, j])
            else:
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


@njit(cache=True)
def keys_to_rows_into(keys, le, out):
    n, width = out.shape
    if keys.shape[1] == 1:
        pad = np.uint64(8 * (8 - width))
        for i in range(n):
            v = keys[i, 0] >> pad
            if le:
                for j in range(width):
                    out[i, j] = np.uint8(v & np.uint64(255))
                    v >>= np.uint64(8)
            else:
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


@njit(cache=True, inline="always")
def key_less(a, i, b, j):
    """a[i] < b[j] lexicographically over the words."""
    for w in range(a.shape[1]):
        x = a[i, w]
        y = b[j, w]
        if x != y:
            return x < y
    return False


@njit(cache=True, inline="always")
def key_equal(a, i, b, j):
    for w in range(a.shape[1]):
        if a[i, w] != b[j, w]:
            return False
    return True


@njit(cache=True)
def row_hash8(rows):
    """The 1-byte parent hash H(S): FNV-1a over the row bytes, folded to 8 bits."""
    n, width = rows.shape
    out = np.empty(n, dtype=np.uint8)
    for i in range(n):
        h = np.uint32(2166136261)
        for j in range(width):
            h = (h ^ np.uint32(rows[i, j])) * np.uint32(16777619)
        h ^= h >> np.uint32(16)
        h ^= h >> np.uint32(8)
        out[i] = np.uint8(h & np.uint32(255))
    return out


@njit(cache=True)
def radix_sort(keys, tags, nbytes, tmp_keys, tmp_tags):
    """Stable LSD radix sort of (keys, tags) by the first `nbytes` key bytes, 8 bits a pass.

    Passes whose byte is the same in every key are skipped. Returns the pair of arrays that holds
    the result (either the inputs or the scratch arrays).
    """
    n = keys.shape[0]
    nw = keys.shape[1]
    counts = np.zeros((nbytes, 256), dtype=np.int64)
    for i in range(n):
        for b in range(nbytes):
            w = b >> 3
            d = (keys[i, w] >> np.uint64(8 * (7 - (b & 7)))) & np.uint64(255)
            counts[b, d] += 1
    src_k, src_t, dst_k, dst_t = keys, tags, tmp_keys, tmp_tags
    offsets = np.empty(256, dtype=np.int64)
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
            offsets[d] = total
            total += counts[b, d]
        w = b >> 3
        shift = np.uint64(8 * (7 - (b & 7)))
        for i in range(n):
            d = (src_k[i, w] >> shift) & np.uint64(255)
            p = offsets[d]
            offsets[d] = p + 1
            for x in range(nw):
                dst_k[p, x] = src_k[i, x]
            dst_t[p] = src_t[i]
        src_k, dst_k = dst_k, src_k
        src_t, dst_t = dst_t, src_t
    return src_k, src_t


@njit(cache=True)
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


@njit(cache=True)
def child_keys_and_tags(children, parent_index, parent_hash, le, keys, tags):
    """Keys of the children and, for each, the 1-byte hash of its parent."""
    rows_to_keys_into(children, le, keys)
    for i in range(children.shape[0]):
        tags[i] = parent_hash[parent_index[i]]


@njit(cache=True)
def _pack_tags(keys1, tags, out):
    """One-word keys whose low byte is free (width <= 7): key | tag."""
    for i in range(keys1.shape[0]):
        out[i] = keys1[i] | np.uint64(tags[i])


@njit(cache=True)
def _unpack_dedup(packed, keys1, tags):
    """Sorted key|tag values -> distinct keys with their smallest tag; returns the count."""
    m = 0
    mask = ~np.uint64(255)
    for i in range(packed.shape[0]):
        value = packed[i]  # read first: keys1 may be packed itself (in-place use)
        key = value & mask
        if m > 0 and keys1[m - 1] == key:
            continue
        keys1[m] = key
        tags[m] = np.uint8(value & np.uint64(255))
        m += 1
    return m


@njit(cache=True)
def _scatter_top_byte(keys1, tags, out):
    """Bucket 8-byte keys by their top byte; inside a bucket store (key << 8) | tag. Returns bucket starts."""
    n = keys1.shape[0]
    starts = np.zeros(257, dtype=np.int64)
    for i in range(n):
        starts[(keys1[i] >> np.uint64(56)) + 1] += 1
    for b in range(256):
        starts[b + 1] += starts[b]
    fill = starts[:256].copy()
    for i in range(n):
        b = keys1[i] >> np.uint64(56)
        out[fill[b]] = (keys1[i] << np.uint64(8)) | np.uint64(tags[i])
        fill[b] += 1
    return starts


@njit(cache=True)
def _gather_top_byte(packed, starts, keys1, tags):
    """Inverse of _scatter_top_byte after each bucket was sorted, dropping duplicate keys."""
    m = 0
    for b in range(256):
        top = np.uint64(b) << np.uint64(56)
        for i in range(starts[b], starts[b + 1]):
            key = top | (packed[i] >> np.uint64(8))
            if m > 0 and keys1[m - 1] == key:
                continue
            keys1[m] = key
            tags[m] = np.uint8(packed[i] & np.uint64(255))
            m += 1
    return m


@njit(cache=True)
def child_packed(children, parent_index, parent_hash, le, out):
    """For states of <= 7 bytes: key | hash of the parent, one uint64 per child."""
    n, width = children.shape
    pad = np.uint64(8 * (8 - width))
    for i in range(n):
        v = np.uint64(0)
        if le:
            for j in range(width - 1, -1, -1):
                v = (v << np.uint64(8)) | np.uint64(children[i, j])
        else:
            for j in range(width):
                v = (v << np.uint64(8)) | np.uint64(children[i, j])
        out[i] = (v << pad) | np.uint64(parent_hash[parent_index[i]])


def sort_unique_children(children, parent_index, parent_hash, le: bool) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys of the children, each with the smallest hash among its parents."""
    m, width = children.shape
    k = nwords(width)
    if k == 1 and width <= 7:
        packed = np.empty(m, dtype=np.uint64)
        child_packed(children, parent_index, parent_hash, le, packed)
        packed.sort()
        tags = np.empty(m, dtype=np.uint8)
        n = _unpack_dedup(packed, packed, tags)  # in place: output index <= input index
        return packed[:n].reshape(n, 1), tags[:n]
    keys = np.empty((m, k), dtype=np.uint64)
    tags = np.empty(m, dtype=np.uint8)
    child_keys_and_tags(children, parent_index, parent_hash, le, keys, tags)
    return sort_unique(keys, tags, width)


def sort_unique(keys: np.ndarray, tags: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Sort (keys, tags) and drop duplicate keys (smallest tag kept); returns views of the result.

    One-word keys go through numpy's vectorised sort with the tag in the low byte (for 8-byte keys
    after one bucketing pass on the top byte, which frees a byte); longer keys take the radix sort.
    Either way the result is the same.
    """
    n = keys.shape[0]
    if keys.shape[1] == 1 and n > 1:
        keys1 = keys.reshape(-1)
        packed = np.empty(n, dtype=np.uint64)
        if width <= 7:
            _pack_tags(keys1, tags, packed)
            packed.sort()
            m = _unpack_dedup(packed, keys1, tags)
        else:
            starts = _scatter_top_byte(keys1, tags, packed)
            for b in np.flatnonzero(np.diff(starts) > 1):
                packed[starts[b]:starts[b + 1]].sort()
            m = _gather_top_byte(packed, starts, keys1, tags)
        return keys[:m], tags[:m]
    tmp_k = np.empty_like(keys)
    tmp_t = np.empty_like(tags)
    k, t = radix_sort(keys, tags, width, tmp_k, tmp_t)
    m = dedup_min_tag(k, t)
    return k[:m], t[:m]
