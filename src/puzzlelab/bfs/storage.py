"""Compressed record streams that live in memory until the budget is reached, then in files.

A :class:`RecordStore` is an append-only sequence of encoded blocks of sorted records, each with
an optional byte per record (a *tag*: the 1-byte parent hash). Blocks are read back sequentially,
optionally dropping each one once read. A :class:`MemoryBudget` accounts for the bytes of every
store kept in memory plus the working sets the engine reserves (chunk buffers, merge buffers);
when a request does not fit, it moves the largest in-memory stores to files under the work
directory (explicit files, never swap), and if that is still not enough the request fails with
a clear message.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import numpy as np

from puzzlelab.lab.errors import InputError
from puzzlelab.lab.sizes import format_size

from .codec import Codec
from .keys import find_key


class BudgetError(InputError):
    """The memory budget cannot hold the working set of one step."""


class DiskFullError(InputError):
    """A spill file could not be written (disk full or quota)."""


class MemoryBudget:
    """Bytes the engine may keep in memory: stores' blocks plus reserved working sets."""

    def __init__(self, capacity: int, workdir: Path):
        self.capacity = int(capacity)
        self.workdir = Path(workdir)
        self.stores: list[RecordStore] = []
        self.store_bytes = 0
        self.reserved = 0
        self.peak = 0
        self.spilled_bytes = 0
        self.spill_files = 0
        self._seq = 0

    @property
    def used(self) -> int:
        return self.store_bytes + self.reserved

    def _note_peak(self) -> None:
        self.peak = max(self.peak, self.used)

    def new_file(self, name: str) -> Path:
        self._seq += 1
        return self.workdir / f"{self._seq:05d}-{name}.blk"

    def make_room(self, nbytes: int, keep: RecordStore | None = None) -> bool:
        """Spill stores (largest first) until `nbytes` more fit; True when they do."""
        while self.used + nbytes > self.capacity:
            candidates = [s for s in self.stores if s.mem_bytes > 0 and s is not keep]
            if not candidates:
                return False
            max(candidates, key=lambda s: s.mem_bytes).spill()
        return True

    def reserve(self, nbytes: int, what: str) -> None:
        """Reserve a working set; spills stores to make room, BudgetError when it cannot fit at all."""
        if not self.make_room(nbytes):
            raise BudgetError(
                f"memory budget {format_size(self.capacity)} is too small: {what} needs "
                f"{format_size(nbytes)} on top of {format_size(self.reserved)} already reserved; "
                "raise --memory-budget")
        self.reserved += nbytes
        self._note_peak()

    def release(self, nbytes: int) -> None:
        self.reserved -= nbytes

    def charge(self, store: RecordStore, nbytes: int) -> bool:
        """Account a block kept in memory by `store`; False means: write it to a file instead."""
        if not self.make_room(nbytes, keep=store):
            return False
        self.store_bytes += nbytes
        self._note_peak()
        return True

    def uncharge(self, nbytes: int) -> None:
        self.store_bytes -= nbytes


def _pwrite_all(fd: int, data, offset: int, path: Path) -> None:
    view = memoryview(data).cast("B")
    done = 0
    try:
        while done < len(view):
            done += os.pwrite(fd, view[done:], offset + done)
    except OSError as err:
        if err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            raise DiskFullError(f"cannot spill search data: {os.strerror(err.errno)} while writing "
                                f"{format_size(len(view))}; free some space, point --workdir at a larger "
                                "disk or raise --memory-budget", path.parent) from None
        raise


class RecordStore:
    """Append-only blocks of encoded records (+ optional tag bytes), in memory or in one file."""

    def __init__(self, budget: MemoryBudget, name: str, width: int, codec: Codec, tagged: bool,
                 pack_tags: bool = False):
        self.budget = budget
        self.name = name
        self.width = width
        self.codec = codec
        self.tagged = tagged
        self.pack_tags = pack_tags  # tags compressed with zstd (move tags: few distinct values)
        # per block: [n, rows payload or None, tags payload or None, file offset, rows length, tags length]
        self.blocks: list[list] = []
        self.first_keys: list[tuple] = []  # the first sort key of each block, when the writer gave it
        self.count = 0
        self.rows_bytes = 0  # encoded record bytes ever appended
        self.tag_bytes = 0
        self.mem_bytes = 0
        self.path: Path | None = None
        self.fd: int | None = None
        self.file_size = 0
        self.closed = False
        budget.stores.append(self)

    # -- writing -------------------------------------------------------------------------------
    def append_block(self, rows: np.ndarray, tags: np.ndarray | None = None) -> None:
        """Encode and append a block of rows."""
        if rows.shape[0]:
            self.append_encoded(self.codec.encode(rows), rows.shape[0], tags)

    def append_keys(self, keys: np.ndarray, le: bool, tags: np.ndarray | None = None) -> None:
        """Encode and append a block given by its sort keys (same bytes as append_block of its rows)."""
        if keys.shape[0]:
            self.append_encoded(self.codec.encode_keys(keys, le, self.width), keys.shape[0], tags,
                                first_key=tuple(int(w) for w in keys[0]))

    def append_encoded(self, payload: bytes, n: int, tags: np.ndarray | None = None,
                       first_key: tuple | None = None) -> None:
        """Append a block of n records already encoded by this store's codec (first_key: its first sort key)."""
        if n == 0:
            return
        if first_key is not None:
            self.first_keys.append(first_key)
        tag_payload = None
        if self.tagged:
            if self.pack_tags:
                tag_payload = self.codec.pack_tags(tags)
            else:
                tag_payload = np.ascontiguousarray(tags, dtype=np.uint8).tobytes()
        size = len(payload) + (len(tag_payload) if tag_payload is not None else 0)
        self.count += n
        self.rows_bytes += len(payload)
        self.tag_bytes += len(tag_payload) if tag_payload is not None else 0
        if self.fd is None and self.budget.charge(self, size):
            self.blocks.append([n, payload, tag_payload, -1, len(payload), len(tag_payload or b"")])
            self.mem_bytes += size
            return
        if self.fd is None:
            self.spill()
        block = [n, None, None, self.file_size, len(payload), len(tag_payload or b"")]
        self._write(payload)
        if tag_payload is not None:
            self._write(tag_payload)
        self.blocks.append(block)

    def _write(self, data) -> None:
        _pwrite_all(self.fd, data, self.file_size, self.path)
        self.file_size += len(data)
        self.budget.spilled_bytes += len(data)

    def spill(self) -> None:
        """Move every in-memory block to this store's file (created on first use)."""
        if self.fd is None:
            self.path = self.budget.new_file(self.name)
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
            self.budget.spill_files += 1
        for block in self.blocks:
            if block[1] is None:
                continue
            block[3] = self.file_size
            self._write(block[1])
            if block[2] is not None:
                self._write(block[2])
            block[1] = block[2] = None
        self.budget.uncharge(self.mem_bytes)
        self.mem_bytes = 0

    # -- reading -------------------------------------------------------------------------------
    @property
    def stored_bytes(self) -> int:
        return self.rows_bytes + self.tag_bytes

    def block_count(self, i: int) -> int:
        return self.blocks[i][0]

    def payloads(self, i: int, tags: bool = True) -> tuple[bytes, bytes | None]:
        n, rows_p, tags_p, offset, rl, tl = self.blocks[i]
        if rows_p is not None or offset < 0:
            if rows_p is None:
                raise RuntimeError(f"block {i} of {self.name} was already dropped")
            return rows_p, tags_p
        rows_p = os.pread(self.fd, rl, offset)
        tags_p = os.pread(self.fd, tl, offset + rl) if self.tagged and tags else None
        return rows_p, tags_p

    def decode_keys(self, i: int, le: bool, out: np.ndarray) -> np.ndarray:
        """Sort keys of block i into out[:n] (returns that view)."""
        rows_p, _ = self.payloads(i, tags=False)
        return self.codec.decode_keys(rows_p, self.blocks[i][0], self.width, le, out)

    def tags_of(self, i: int) -> np.ndarray | None:
        """The tag bytes of block i (None for an untagged store)."""
        if not self.tagged:
            return None
        n, rows_p, tags_p, offset, rl, tl = self.blocks[i]
        if tags_p is None:
            if offset < 0:
                raise RuntimeError(f"block {i} of {self.name} was already dropped")
            tags_p = os.pread(self.fd, tl, offset + rl)
        return self._tags(tags_p, n)

    def _tags(self, payload: bytes, n: int) -> np.ndarray:
        if self.pack_tags:
            return self.codec.unpack_tags(payload, n)
        return np.frombuffer(payload, dtype=np.uint8)

    def decode(self, i: int, out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """Rows (and tags) of block i."""
        rows_p, tags_p = self.payloads(i)
        rows = self.codec.decode(rows_p, self.blocks[i][0], self.width, out)
        tags = self._tags(tags_p, self.blocks[i][0]) if tags_p is not None else None
        return rows, tags

    def find(self, key: tuple, le: bool) -> int | None:
        """The tag of the record with this sort key (a tuple of words), None when absent.

        Needs the first key of every block (stores written by a KeyWriter); one block is decoded."""
        import bisect

        if len(self.first_keys) != len(self.blocks):
            raise RuntimeError(f"{self.name}: the blocks' first keys are not known")
        i = bisect.bisect_right(self.first_keys, key) - 1
        if i < 0:
            return None
        keys = self.decode_keys(i, le, np.empty((self.blocks[i][0], len(key)), dtype=np.uint64))
        j = find_key(keys, np.array(key, dtype=np.uint64))
        if j < 0:
            return None
        tags = self.tags_of(i)
        return int(tags[j]) if tags is not None else 0

    def drop(self, i: int) -> None:
        """Free block i's memory (it will not be read again)."""
        block = self.blocks[i]
        if block[1] is not None:
            size = block[4] + block[5]
            block[1] = block[2] = None
            self.mem_bytes -= size
            self.budget.uncharge(size)

    def close(self) -> None:
        """Free the memory and delete the file."""
        if self.closed:
            return
        for i in range(len(self.blocks)):
            self.drop(i)
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
        self.closed = True
        if self in self.budget.stores:
            self.budget.stores.remove(self)

    def __len__(self) -> int:
        return self.count
