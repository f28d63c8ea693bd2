"""Block codecs for sorted runs of fixed-width records (the article's "compresión" section).

- ``rowfilter-zstd`` (default): the row filter — per record a varint bitmask of the bytes that
  differ from the previous record (bit i = byte i, 7 bits per varint byte, low bits first), then
  only those bytes — followed by zstd.
- ``rowfilter``: the filter alone; ``zstd``: zstd on the raw records; ``delta-zstd``: bytewise
  subtraction of the previous record (PNG's "up" filter), then zstd; ``raw``: the records as they are.

Each block (about 1 MB of records) is encoded on its own: its first record is compared with an
all-zero record, so any block decodes without the others.
"""

from __future__ import annotations

import numpy as np
import zstandard
from numba import njit

from puzzlelab.lab.errors import InputError

CODECS = ("rowfilter-zstd", "zstd", "delta-zstd", "raw", "rowfilter")
DEFAULT_CODEC = "rowfilter-zstd"
DEFAULT_LEVEL = 3
BLOCK_BYTES = 1 << 20  # raw bytes of records per block


BLOCK_MAX_RECORDS = 1 << 17  # caps the merge buffers (they take ~26 bytes per record) for narrow states


def block_records(width: int) -> int:
    """Records per block: about BLOCK_BYTES of raw records, between 1024 and BLOCK_MAX_RECORDS."""
    return min(BLOCK_MAX_RECORDS, max(1024, BLOCK_BYTES // width))


@njit(cache=True)
def _rowfilter_encode_narrow(rows, out):
    """rowfilter_encode for rows of at most 8 bytes: the changed-byte mask by bit tricks on one word."""
    n, width = rows.shape
    p = 0
    prev = np.uint64(0)
    ones = np.uint64(0x0101010101010101)
    for i in range(n):
        cur = np.uint64(0)
        for j in range(width - 1, -1, -1):
            cur = (cur << np.uint64(8)) | np.uint64(rows[i, j])
        d = cur ^ prev
        prev = cur
        t = d | (d >> np.uint64(4))
        t |= t >> np.uint64(2)
        t |= t >> np.uint64(1)
        t &= ones
        mask = (t * np.uint64(0x0102040810204080)) >> np.uint64(56)  # bit j = byte j changed
        if mask < 128:
            out[p] = np.uint8(mask)
            p += 1
        else:
            out[p] = np.uint8((mask & np.uint64(0x7F)) | np.uint64(0x80))
            out[p + 1] = np.uint8(mask >> np.uint64(7))
            p += 2
        for j in range(width):
            out[p] = rows[i, j]
            p += np.int64((mask >> np.uint64(j)) & np.uint64(1))  # branch-free: keep the byte if it changed
    return p


@njit(cache=True)
def rowfilter_encode(rows, out):
    """Write the row filter of rows (n, width) into out; returns the number of bytes written."""
    n, width = rows.shape
    if width <= 8:
        return _rowfilter_encode_narrow(rows, out)
    changed = np.empty(width, dtype=np.int64)
    p = 0
    for i in range(n):
        nc = 0
        for j in range(width):
            prev = rows[i - 1, j] if i > 0 else 0
            if rows[i, j] != prev:
                changed[nc] = j
                nc += 1
        last = changed[nc - 1] if nc > 0 else -1
        ngroups = last // 7 + 1 if last >= 0 else 1
        c = 0
        for g in range(ngroups):
            bits = 0
            while c < nc and changed[c] < 7 * (g + 1):
                bits |= 1 << (changed[c] - 7 * g)
                c += 1
            if g + 1 < ngroups:
                bits |= 0x80
            out[p] = bits
            p += 1
        for c in range(nc):
            out[p] = rows[i, changed[c]]
            p += 1
    return p


@njit(cache=True)
def _rowfilter_decode_narrow(data, out):
    """rowfilter_decode for rows of at most 8 bytes (masks of one or two varint bytes)."""
    n, width = out.shape
    size = data.shape[0]
    p = 0
    for i in range(n):
        if p >= size:
            return -1
        mask = np.int64(data[p])
        p += 1
        if mask >= 128:
            if p >= size:
                return -1
            mask = (mask & 0x7F) | (np.int64(data[p]) << 7)
            p += 1
        if mask >> width:
            return -1
        for j in range(width):
            if (mask >> j) & 1:
                if p >= size:
                    return -1
                out[i, j] = data[p]
                p += 1
            else:
                out[i, j] = out[i - 1, j] if i > 0 else 0
    return p


@njit(cache=True)
def rowfilter_decode(data, out):
    """Inverse of rowfilter_encode into out (n, width); returns bytes consumed (-1 if data is short)."""
    n, width = out.shape
    if width <= 8:
        return _rowfilter_decode_narrow(data, out)
    p = 0
    size = data.shape[0]
    for i in range(n):
        for j in range(width):
            out[i, j] = out[i - 1, j] if i > 0 else 0
        g = 0
        mask_start = p
        while True:
            if p >= size:
                return -1
            b = data[p]
            p += 1
            g += 1
            if b < 0x80:
                break
        q = p
        for gg in range(g):
            bits = data[mask_start + gg] & 0x7F
            for k in range(7):
                if bits & (1 << k):
                    j = 7 * gg + k
                    if q >= size or j >= width:
                        return -1
                    out[i, j] = data[q]
                    q += 1
        p = q
    return p


@njit(cache=True)
def delta_encode(rows, out):
    n, width = rows.shape
    for i in range(n):
        for j in range(width):
            prev = rows[i - 1, j] if i > 0 else 0
            out[i, j] = np.uint8((rows[i, j] - prev) & 255)


@njit(cache=True)
def delta_decode(data, out):
    n, width = out.shape
    for i in range(n):
        for j in range(width):
            prev = out[i - 1, j] if i > 0 else 0
            out[i, j] = np.uint8((data[i * width + j] + prev) & 255)


class Codec:
    """Encode/decode blocks of rows (n, width) uint8 to bytes."""

    def __init__(self, name: str = DEFAULT_CODEC, level: int = DEFAULT_LEVEL):
        if name not in CODECS:
            raise InputError(f"unknown codec {name!r}: expected one of {', '.join(CODECS)}")
        self.name = name
        self.level = level
        self.zstd = name.endswith("zstd")
        self._cctx = zstandard.ZstdCompressor(level=level) if self.zstd else None
        self._dctx = zstandard.ZstdDecompressor() if self.zstd else None

    def encode(self, rows: np.ndarray) -> bytes:
        rows = np.ascontiguousarray(rows, dtype=np.uint8)
        n, width = rows.shape
        if self.name.startswith("rowfilter"):
            buf = np.empty(n * (width + (width + 6) // 7), dtype=np.uint8)
            filtered = buf[: rowfilter_encode(rows, buf)]
        elif self.name == "delta-zstd":
            filtered = np.empty_like(rows)
            delta_encode(rows, filtered)
        else:
            filtered = rows
        if self.zstd:
            return self._cctx.compress(filtered.data if filtered.flags.c_contiguous else filtered.tobytes())
        return filtered.tobytes()

    def decode(self, payload: bytes, n: int, width: int, out: np.ndarray | None = None) -> np.ndarray:
        if self.zstd:
            payload = self._dctx.decompress(payload)
        data = np.frombuffer(payload, dtype=np.uint8)
        if out is None:
            out = np.empty((n, width), dtype=np.uint8)
        else:
            out = out[:n]
        if self.name.startswith("rowfilter"):
            if rowfilter_decode(data, out) < 0:
                raise ValueError("corrupt row-filter block")
        elif self.name == "delta-zstd":
            delta_decode(data, out)
        else:
            out[:] = data.reshape(n, width)
        return out


def encoded_size(rows: np.ndarray, codec: Codec, block: int | None = None) -> int:
    """Bytes taken by rows when encoded block by block (for the codec experiments)."""
    width = rows.shape[1]
    block = block or block_records(width)
    return sum(len(codec.encode(rows[i:i + block])) for i in range(0, rows.shape[0], block))
