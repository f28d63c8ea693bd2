"""Prefix trees over letter codes, stored compactly for the numba kernels.

Each node keeps a bit mask of its child symbols and the index of its first child in `kids`
(children are contiguous and sorted by symbol), so `child(node, s)` is a mask test plus a
population count. `term[node]` is the id of the word that ends there, or -1.

- The separator trie: for every word w and every position k, the string w[k:] + SEP + reversed(w[:k]).
  A search starts at the new letter, grows the word forward, crosses the separator and grows the rest
  backwards from the first cell — one tree instead of a forward and a backward one.
- The forward trie: the words themselves (the plain baseline, searched from every cell).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .bits import popcount


@dataclass
class Trie:
    mask: np.ndarray  # uint64 [nodes]: bit s set when the node has a child with symbol s
    base: np.ndarray  # int32 [nodes]: index in `kids` of the first child
    kids: np.ndarray  # int32 [nodes - 1]: children, grouped by parent, sorted by symbol
    term: np.ndarray  # int32 [nodes]: word id ending here, or -1
    sep: int  # the separator symbol (alphabet size), or -1 for a forward trie

    @property
    def nodes(self) -> int:
        return len(self.mask)

    @property
    def nbytes(self) -> int:
        return self.mask.nbytes + self.base.nbytes + self.kids.nbytes + self.term.nbytes


@njit(cache=True, inline="always")
def child(mask, base, kids, node, sym):
    """The child of `node` along symbol `sym`, or -1."""
    m = mask[node]
    bit = np.uint64(1) << np.uint64(sym)
    if m & bit == 0:
        return -1
    return kids[base[node] + np.int64(popcount(m & (bit - np.uint64(1))))]


@njit(cache=True)
def _separator_strings(codes, lengths, sep):
    """Rows w[k:] + SEP + reversed(w[:k]) for every word and k, symbols shifted by +1 (0 = padding)."""
    total = 0
    for i in range(len(lengths)):
        total += lengths[i]
    width = codes.shape[1] + 1
    rows = np.zeros((total, width), dtype=np.uint8)
    owner = np.empty(total, dtype=np.int32)
    r = 0
    for i in range(len(lengths)):
        n = lengths[i]
        for k in range(n):
            j = 0
            for t in range(k, n):
                rows[r, j] = codes[i, t] + 1
                j += 1
            rows[r, j] = sep + 1
            j += 1
            for t in range(k - 1, -1, -1):
                rows[r, j] = codes[i, t] + 1
                j += 1
            owner[r] = i
            r += 1
    return rows, owner


@njit(cache=True)
def _forward_strings(codes, lengths):
    rows = np.zeros((len(lengths), codes.shape[1]), dtype=np.uint8)
    owner = np.empty(len(lengths), dtype=np.int32)
    for i in range(len(lengths)):
        for t in range(lengths[i]):
            rows[i, t] = codes[i, t] + 1
        owner[i] = i
    return rows, owner


@njit(cache=True)
def _build_from_sorted(rows, owner, order):
    """Nodes of the trie of the sorted rows: parent and symbol per node (preorder), terminal ids."""
    n, width = rows.shape
    cap = 1
    for i in range(n):
        for j in range(width):
            if rows[i, j] != 0:
                cap += 1
    parent = np.empty(cap, dtype=np.int32)
    sym = np.empty(cap, dtype=np.int16)
    term = np.full(cap, -1, dtype=np.int32)
    parent[0] = -1
    sym[0] = -1
    path = np.zeros(width + 1, dtype=np.int32)
    count = 1
    prev = -1
    for q in range(n):
        r = order[q]
        lcp = 0
        if prev >= 0:
            while lcp < width and rows[r, lcp] == rows[prev, lcp] and rows[r, lcp] != 0:
                lcp += 1
        j = lcp
        while j < width and rows[r, j] != 0:
            parent[count] = path[j]
            sym[count] = rows[r, j] - 1
            path[j + 1] = count
            count += 1
            j += 1
        term[path[j]] = owner[r]
        prev = r
    return parent[:count], sym[:count], term[:count]


@njit(cache=True)
def _compress(parent, sym):
    """Children grouped by parent (stable, so sorted by symbol), first-child index and symbol mask."""
    nodes = len(parent)
    counts = np.zeros(nodes + 1, dtype=np.int32)
    for v in range(1, nodes):
        counts[parent[v] + 1] += 1
    base = np.empty(nodes, dtype=np.int32)
    acc = 0
    for v in range(nodes):
        acc += counts[v + 1]
        base[v] = acc - counts[v + 1]
    fill = base.copy()
    kids = np.empty(max(nodes - 1, 1), dtype=np.int32)
    mask = np.zeros(nodes, dtype=np.uint64)
    for v in range(1, nodes):
        p = parent[v]
        kids[fill[p]] = v
        fill[p] += 1
        mask[p] |= np.uint64(1) << np.uint64(sym[v])
    return mask, base, kids


def _lexicographic_order(rows: np.ndarray) -> np.ndarray:
    """Row indices in lexicographic order of the byte rows (shorter rows first, padding is 0)."""
    contiguous = np.ascontiguousarray(rows)
    keys = contiguous.view(np.dtype((np.void, contiguous.shape[1]))).ravel()
    return np.argsort(keys, kind="stable").astype(np.int64)


def _build(rows, owner, sep) -> Trie:
    order = _lexicographic_order(rows)
    parent, sym, term = _build_from_sorted(rows, owner, order)
    mask, base, kids = _compress(parent, sym)
    return Trie(mask, base, kids, term, sep)


def separator_trie(codes: np.ndarray, lengths: np.ndarray, alphabet_size: int) -> Trie:
    rows, owner = _separator_strings(codes, lengths.astype(np.int32), alphabet_size)
    return _build(rows, owner, alphabet_size)


def forward_trie(codes: np.ndarray, lengths: np.ndarray) -> Trie:
    rows, owner = _forward_strings(codes, lengths.astype(np.int32))
    return _build(rows, owner, -1)
