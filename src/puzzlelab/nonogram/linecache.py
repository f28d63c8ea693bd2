"""A direct-mapped cache of line-solver answers, keyed by (line, cell masks).

Probing and backtracking present the same line in the same state again and again (pbnsolve reports
80-90% hits); packing the masks (`bits` bits per cell, no cell split across words) and comparing a
few words is far cheaper than the dynamic programme. A colliding entry is simply overwritten.
Table row: [tag, hash, feasible, key words..., answer words...], tag = line + 1 + (epoch << 32)
(0 = empty); the extra last row holds the table's epoch. A table is reused from puzzle to puzzle
with the epoch raised (`reused`), so that no puzzle pays for zeroing megabytes: an entry of an
earlier epoch is a miss, exactly like an empty one, and hits (so answers and counters) are those
of a fresh table.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ..lab.jit import kernel

HEAD = 3
POOL_TABLES = 3  # table shapes kept for reuse in a process (a corpus has few puzzle sizes)
_pool: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()


def table(capacity_rows: int, words: int) -> np.ndarray:
    """An empty table of `capacity_rows` rows (a power of two) and its epoch row."""
    return np.zeros((capacity_rows + 1, HEAD + 2 * words), dtype=np.int64)


def reused(capacity_rows: int, words: int) -> np.ndarray:
    """A table of this shape for the next puzzle: the last one's, with its epoch raised, or a new one."""
    key = (capacity_rows, words)
    tab = _pool.pop(key, None)
    if tab is None:
        tab = table(capacity_rows, words)
    _pool[key] = tab
    while len(_pool) > POOL_TABLES:
        _pool.popitem(last=False)
    tab[-1, 0] += 1
    return tab


def ready(capacity_rows: int, words: int) -> None:
    """Put a table of this shape in the pool with every page written, before a timed run: the first
    touch of a new table (tens of MiB, in huge pages) cost the first puzzle up to 0.2 s of system time."""
    reused(capacity_rows, words)[:-1] = 0  # all entries empty, as after `reused`


def words_for(n: int, bits: int) -> int:
    per = 64 // bits
    return (n + per - 1) // per


@kernel
def pack(cells, n, bits, key):
    """Pack n masks of `bits` bits into key; returns the number of words and a 64-bit hash."""
    w = 0
    word = np.int64(0)
    shift = 0
    h = np.int64(-3750763034362895579)  # FNV offset basis as a signed 64-bit value
    for i in range(n):
        word |= cells[i] << shift
        shift += bits
        if shift + bits > 64 or i == n - 1:
            key[w] = word
            h = (h ^ word) * np.int64(1099511628211)
            h ^= (h >> np.int64(29)) & np.int64(0x7FFFFFFFF)
            w += 1
            word = np.int64(0)
            shift = 0
    return w, h


@kernel
def lookup(tab, line, h, key, nw, bits, n, out):
    """1 hit feasible (out filled), 0 hit infeasible, -1 miss."""
    rows = tab.shape[0] - 1
    r = (h ^ (h >> np.int64(17)) ^ line * np.int64(40503)) & (rows - 1)
    if tab[r, 0] != line + 1 + (tab[rows, 0] << np.int64(32)) or tab[r, 1] != h:
        return -1
    for w in range(nw):
        if tab[r, HEAD + w] != key[w]:
            return -1
    if tab[r, 2] == 0:
        return 0
    mask = (np.int64(1) << bits) - 1
    per = 64 // bits
    base = HEAD + nw
    for i in range(n):
        out[i] = (tab[r, base + i // per] >> ((i % per) * bits)) & mask
    return 1


@kernel
def store(tab, line, h, key, nw, bits, n, feasible, out):
    rows = tab.shape[0] - 1
    r = (h ^ (h >> np.int64(17)) ^ line * np.int64(40503)) & (rows - 1)
    tab[r, 0] = line + 1 + (tab[rows, 0] << np.int64(32))
    tab[r, 1] = h
    tab[r, 2] = 1 if feasible else 0
    for w in range(nw):
        tab[r, HEAD + w] = key[w]
    base = HEAD + nw
    per = 64 // bits
    for w in range(nw):
        tab[r, base + w] = 0
    if feasible:
        for i in range(n):
            tab[r, base + i // per] |= out[i] << ((i % per) * bits)
