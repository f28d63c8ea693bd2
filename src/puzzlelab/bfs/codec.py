"""Block codecs for sorted runs of fixed-width records (the article's "compresión" section).

- ``rowfilter-zstd`` (default): the row filter — per record a varint bitmask of the bytes that
  differ from the previous record (bit i = byte i, 7 bits per varint byte, low bits first), then
  only those bytes — followed by zstd.
- ``rowfilter``: the filter alone; ``zstd``: zstd on the raw records; ``delta-zstd``: bytewise
  subtraction of the previous record (PNG's "up" filter), then zstd; ``raw``: the records as they are.
- ``gap-zstd``: each record read as an integer in the key byte order, stored as its difference
  from the previous one in a LEB128 varint (7 bits a byte), then zstd; ``gap``: the varints alone.
  For dense state encodings (ranks: `domains/ranking.py`) the differences are small numbers.
  States of at most 16 bytes.

Each block (about 1 MB of records) is encoded on its own: its first record is compared with an
all-zero record, so any block decodes without the others.

The engine holds records as sort keys (`keys.py`); for states of up to 16 bytes the row filter
runs on the keys directly (`encode_keys`/`decode_keys`: a key is the row read as an integer, so
no row array is ever built), with output identical to filtering the rows. A `Codec` may be used
from several threads at once (each thread gets its own zstd contexts and scratch).
"""

from __future__ import annotations

import threading

import numpy as np
import zstandard

from puzzlelab.lab.bits import popcount
from puzzlelab.lab.errors import InputError, quote
from puzzlelab.lab.jit import allocating_kernel, inline_kernel, kernel

from .keys import keys_to_rows_into, nwords, rows_to_keys, rows_to_keys_into

CODECS = ("rowfilter-zstd", "zstd", "delta-zstd", "raw", "rowfilter", "gap-zstd", "gap")
GAP_MAX_WIDTH = 16  # the gap codecs work on keys of one or two words
DEFAULT_CODEC = "rowfilter-zstd"
DEFAULT_LEVEL = 3
BLOCK_BYTES = 1 << 20  # raw bytes of records per block


BLOCK_MAX_RECORDS = 1 << 17  # caps the merge buffers (they take ~26 bytes per record) for narrow states


def block_records(width: int) -> int:
    """Records per block: about BLOCK_BYTES of raw records, between 1024 and BLOCK_MAX_RECORDS."""
    return min(BLOCK_MAX_RECORDS, max(1024, BLOCK_BYTES // width))


@kernel
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


@allocating_kernel
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


@kernel
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


@kernel
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


@kernel
def delta_encode(rows, out):
    n, width = rows.shape
    for i in range(n):
        for j in range(width):
            prev = rows[i - 1, j] if i > 0 else 0
            out[i, j] = np.uint8((rows[i, j] - prev) & 255)


@kernel
def delta_decode(data, out):
    n, width = out.shape
    for i in range(n):
        for j in range(width):
            prev = out[i - 1, j] if i > 0 else 0
            out[i, j] = np.uint8((data[i * width + j] + prev) & 255)



# --- the row filter on sort keys (states of up to 16 bytes) ------------------------------------------
@inline_kernel
def _bswap64(x):
    x = ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8)) | ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF))
    x = ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16)) | ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF))
    return (x << np.uint64(32)) | (x >> np.uint64(32))


@inline_kernel
def _row_value(keys, i, le, width):
    """The row of key i as a little-endian integer (lo = row bytes 0-7, hi = bytes 8-15)."""
    if keys.shape[1] == 1:
        k = keys[i, 0]
        if le:
            return k >> np.uint64(8 * (8 - width)), np.uint64(0)
        return _bswap64(k), np.uint64(0)
    w0 = keys[i, 0]
    w1 = keys[i, 1]
    if not le:
        return _bswap64(w0), _bswap64(w1)
    pad = 8 * (16 - width)
    if pad == 0:
        return w1, w0
    return (w1 >> np.uint64(pad)) | (w0 << np.uint64(64 - pad)), w0 >> np.uint64(pad)


@inline_kernel
def _set_key(keys, i, le, width, lo, hi):
    """Inverse of _row_value."""
    if keys.shape[1] == 1:
        if le:
            keys[i, 0] = lo << np.uint64(8 * (8 - width))
        else:
            keys[i, 0] = _bswap64(lo)
        return
    if not le:
        keys[i, 0] = _bswap64(lo)
        keys[i, 1] = _bswap64(hi)
        return
    pad = 8 * (16 - width)
    if pad == 0:
        keys[i, 0] = hi
        keys[i, 1] = lo
    else:
        keys[i, 0] = (hi << np.uint64(pad)) | (lo >> np.uint64(64 - pad))
        keys[i, 1] = lo << np.uint64(pad)


@inline_kernel
def _byte_mask(d):
    """Bit j set when byte j of d is not zero."""
    t = d | (d >> np.uint64(4))
    t |= t >> np.uint64(2)
    t |= t >> np.uint64(1)
    t &= np.uint64(0x0101010101010101)
    return (t * np.uint64(0x0102040810204080)) >> np.uint64(56)


# the mask of the c low bytes of a word
_LOW_BYTES = np.array([(1 << (8 * c)) - 1 if c < 8 else (1 << 64) - 1 for c in range(9)], dtype=np.uint64)


@kernel
def rowfilter_encode_keys(keys, le, width, out):
    """rowfilter_encode of the rows of these keys (width <= 16), straight from the keys. `out` needs
    8 bytes of room past the encoded length (see Codec.encode_keys)."""
    n = keys.shape[0]
    p = 0
    plo = np.uint64(0)
    phi = np.uint64(0)
    for i in range(n):
        lo, hi = _row_value(keys, i, le, width)
        dlo = lo ^ plo
        dhi = hi ^ phi
        plo = lo
        phi = hi
        mlo = _byte_mask(dlo)
        mask = mlo | (_byte_mask(dhi) << np.uint64(8))
        m = mask
        while m >= np.uint64(128):
            out[p] = np.uint8((m & np.uint64(0x7F)) | np.uint64(0x80))
            p += 1
            m >>= np.uint64(7)
        out[p] = np.uint8(m)
        p += 1
        if mask == mlo and (mask & (mask + np.uint64(1))) == 0:
            # the usual case in sorted data: only the c lowest bytes changed; store 8, keep c
            for j in range(8):
                out[p + j] = np.uint8((lo >> np.uint64(8 * j)) & np.uint64(0xFF))
            p += np.int64(popcount(mask))
            continue
        j = 0
        while mask != np.uint64(0):
            if mask & np.uint64(1):
                if j < 8:
                    out[p] = np.uint8((lo >> np.uint64(8 * j)) & np.uint64(0xFF))
                else:
                    out[p] = np.uint8((hi >> np.uint64(8 * (j - 8))) & np.uint64(0xFF))
                p += 1
            mask >>= np.uint64(1)
            j += 1
    return p


@kernel
def rowfilter_decode_keys(data, le, width, keys):
    """Inverse of rowfilter_encode_keys into keys (n, nwords); returns bytes consumed (-1 if corrupt)."""
    n = keys.shape[0]
    size = data.shape[0]
    p = 0
    lo = np.uint64(0)
    hi = np.uint64(0)
    for i in range(n):
        mask = np.uint64(0)
        shift = 0
        while True:
            if p >= size or shift > 21:
                return -1
            b = np.uint64(data[p])
            p += 1
            mask |= (b & np.uint64(0x7F)) << np.uint64(shift)
            shift += 7
            if b < np.uint64(0x80):
                break
        if mask >> np.uint64(width):
            return -1
        if mask < np.uint64(256) and (mask & (mask + np.uint64(1))) == 0 and p + 8 <= size:
            # only the c lowest bytes changed: one 8-byte read, keep c bytes
            c = np.int64(popcount(mask))
            v = np.uint64(0)
            for j in range(8):
                v |= np.uint64(data[p + j]) << np.uint64(8 * j)
            keep = _LOW_BYTES[c]
            lo = (lo & ~keep) | (v & keep)
            p += c
        else:
            j = 0
            while mask != np.uint64(0):
                if mask & np.uint64(1):
                    if p >= size:
                        return -1
                    v = np.uint64(data[p])
                    p += 1
                    if j < 8:
                        sh = np.uint64(8 * j)
                        lo = (lo & ~(np.uint64(0xFF) << sh)) | (v << sh)
                    else:
                        sh = np.uint64(8 * (j - 8))
                        hi = (hi & ~(np.uint64(0xFF) << sh)) | (v << sh)
                mask >>= np.uint64(1)
                j += 1
        _set_key(keys, i, le, width, lo, hi)
    return p


# --- tags in 1, 2, 4 or 8 bits ----------------------------------------------------------------------------
@kernel
def pack_bits(tags, bits, out):
    """tags (each < 2^bits, bits in 1, 2, 4, 8) packed low bits first, 8 // bits to a byte."""
    lg = 3 if bits == 1 else 2 if bits == 2 else 1 if bits == 4 else 0  # log2 of tags per byte
    per = 1 << lg
    for j in range(out.shape[0]):
        v = 0
        for q in range(per):
            i = (j << lg) + q
            if i < tags.shape[0]:
                v |= tags[i] << (bits * q)
        out[j] = v


@kernel
def unpack_bits(data, bits, out):
    lg = 3 if bits == 1 else 2 if bits == 2 else 1 if bits == 4 else 0
    mask = (1 << bits) - 1
    for i in range(out.shape[0]):
        out[i] = (data[i >> lg] >> (bits * (i & ((1 << lg) - 1)))) & mask


# --- gaps between consecutive keys (one or two words), as LEB128 varints ------------------------------
@inline_kernel
def _key_value(keys, i, pad):
    """Key i with its padding bits dropped, as (hi, lo) of a 128-bit integer."""
    if keys.shape[1] == 1:
        return np.uint64(0), keys[i, 0] >> np.uint64(pad)
    hi = keys[i, 0]
    lo = keys[i, 1]
    if pad == 0:
        return hi, lo
    return hi >> np.uint64(pad), (lo >> np.uint64(pad)) | (hi << np.uint64(64 - pad))


@kernel
def gap_encode_keys(keys, pad, out):
    """Varints of the differences between consecutive keys (the first from 0); returns the bytes written.

    `pad` = bits of padding at the end of every key (64 * nwords - 8 * width); out needs 19 bytes a key."""
    p = 0
    ph = np.uint64(0)
    pl = np.uint64(0)
    for i in range(keys.shape[0]):
        h, lo = _key_value(keys, i, pad)
        gl = lo - pl
        gh = h - ph - (np.uint64(1) if lo < pl else np.uint64(0))  # 128-bit wrapping subtraction
        ph = h
        pl = lo
        while gh != np.uint64(0) or gl >= np.uint64(128):
            out[p] = np.uint8((gl & np.uint64(0x7F)) | np.uint64(0x80))
            p += 1
            gl = (gl >> np.uint64(7)) | (gh << np.uint64(57))
            gh >>= np.uint64(7)
        out[p] = np.uint8(gl)
        p += 1
    return p


@kernel
def gap_decode_keys(data, pad, keys):
    """Inverse of gap_encode_keys into keys (n, nwords); returns the bytes read (-1 if the data is corrupt)."""
    size = data.shape[0]
    nw = keys.shape[1]
    p = 0
    h = np.uint64(0)
    lo = np.uint64(0)
    for i in range(keys.shape[0]):
        gl = np.uint64(0)
        gh = np.uint64(0)
        shift = 0
        while True:
            if p >= size or shift > 126:
                return -1
            b = np.uint64(data[p])
            p += 1
            v = b & np.uint64(0x7F)
            if shift < 64:
                gl |= v << np.uint64(shift)
                if shift > 57:
                    gh |= v >> np.uint64(64 - shift)
            else:
                gh |= v << np.uint64(shift - 64)
            shift += 7
            if b < np.uint64(0x80):
                break
        nl = lo + gl
        h = h + gh + (np.uint64(1) if nl < lo else np.uint64(0))
        lo = nl
        if nw == 1:
            keys[i, 0] = lo << np.uint64(pad)
        elif pad == 0:
            keys[i, 0] = h
            keys[i, 1] = lo
        else:
            keys[i, 0] = (h << np.uint64(pad)) | (lo >> np.uint64(64 - pad))
            keys[i, 1] = lo << np.uint64(pad)
    return p


class Codec:
    """Encode/decode blocks of rows (n, width) uint8, or of their sort keys, to bytes.

    `le` is the key byte order the gap codecs read a row's integer in (the engine's --order)."""

    def __init__(self, name: str = DEFAULT_CODEC, level: int = DEFAULT_LEVEL, le: bool = True):
        if name not in CODECS:
            raise InputError(f"unknown codec {quote(name)}: expected one of {', '.join(CODECS)}")
        self.name = name
        self.level = level
        self.le = le
        self.zstd = name.endswith("zstd")
        self.rowfilter = name.startswith("rowfilter")
        self.gap = name.startswith("gap")
        self._local = threading.local()

    def check_width(self, width: int) -> None:
        """InputError when this codec cannot store states of `width` bytes."""
        if self.gap and width > GAP_MAX_WIDTH:
            raise InputError(f"codec {self.name} stores states of at most {GAP_MAX_WIDTH} bytes; these have {width}")

    @staticmethod
    def pack_tags(tags: np.ndarray) -> bytes:
        """A block's tags in 1, 2, 4 or 8 bits each (the fewest that hold the largest), after a byte saying which."""
        tags = np.ascontiguousarray(tags, dtype=np.uint8)
        top = int(tags.max()) if tags.shape[0] else 0
        bits = 1 if top < 2 else 2 if top < 4 else 4 if top < 16 else 8
        out = np.empty(1 + (tags.shape[0] * bits + 7) // 8, dtype=np.uint8)
        out[0] = bits
        pack_bits(tags, bits, out[1:])
        return out.tobytes()

    @staticmethod
    def unpack_tags(payload: bytes, n: int) -> np.ndarray:
        data = np.frombuffer(payload, dtype=np.uint8)
        out = np.empty(n, dtype=np.uint8)
        unpack_bits(data[1:], int(data[0]), out)
        return out

    @property
    def _cctx(self):
        ctx = getattr(self._local, "cctx", None)
        if ctx is None:
            ctx = self._local.cctx = zstandard.ZstdCompressor(level=self.level)
        return ctx

    @property
    def _dctx(self):
        ctx = getattr(self._local, "dctx", None)
        if ctx is None:
            ctx = self._local.dctx = zstandard.ZstdDecompressor()
        return ctx

    def _scratch(self, nbytes: int) -> np.ndarray:
        buf = getattr(self._local, "buf", None)
        if buf is None or buf.shape[0] < nbytes:
            buf = self._local.buf = np.empty(max(nbytes, 1 << 16), dtype=np.uint8)
        return buf

    def encode_keys(self, keys: np.ndarray, le: bool, width: int) -> bytes:
        """The encoding of the rows whose sort keys (order le/be) are `keys` (same bytes as encode(rows))."""
        n = keys.shape[0]
        if self.gap:
            self.check_width(width)
            buf = self._scratch(19 * n + 8)
            filtered = buf[: gap_encode_keys(keys, 64 * keys.shape[1] - 8 * width, buf)]
            return self._cctx.compress(filtered.data) if self.zstd else filtered.tobytes()
        if self.rowfilter and width <= 16:
            buf = self._scratch(n * (width + 3) + 8)
            filtered = buf[: rowfilter_encode_keys(keys, le, width, buf)]
            if self.zstd:
                return self._cctx.compress(filtered.data)
            return filtered.tobytes()
        rows = np.empty((n, width), dtype=np.uint8)
        keys_to_rows_into(keys, le, rows)
        return self.encode(rows)

    def decode_keys(self, payload: bytes, n: int, width: int, le: bool, out: np.ndarray) -> np.ndarray:
        """The sort keys of a block's n records into out[:n] (inverse of encode_keys)."""
        out = out[:n]
        if self.gap:
            if self.zstd:
                payload = self._dctx.decompress(payload)
            if gap_decode_keys(np.frombuffer(payload, dtype=np.uint8), 64 * out.shape[1] - 8 * width, out) < 0:
                raise ValueError("corrupt gap block")
            return out
        if self.rowfilter and width <= 16:
            if self.zstd:
                payload = self._dctx.decompress(payload)
            if rowfilter_decode_keys(np.frombuffer(payload, dtype=np.uint8), le, width, out) < 0:
                raise ValueError("corrupt row-filter block")
            return out
        rows = self.decode(payload, n, width)
        rows_to_keys_into(rows, le, out)
        return out

    def encode(self, rows: np.ndarray) -> bytes:
        rows = np.ascontiguousarray(rows, dtype=np.uint8)
        n, width = rows.shape
        if self.gap:
            return self.encode_keys(rows_to_keys(rows, self.le), self.le, width)
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
        if self.gap:
            keys = self.decode_keys(payload, n, width, self.le, np.empty((n, nwords(width)), dtype=np.uint64))
            rows = np.empty((n, width), dtype=np.uint8) if out is None else out[:n]
            keys_to_rows_into(keys, self.le, rows)
            return rows
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
