"""Prefix trees over letter codes, stored compactly for the numba kernels.

Nodes are numbered breadth first, so the children of a node have consecutive ids in symbol order:
a node keeps a bit mask of its child symbols and the id of its first child, and `child(node, s)`
is one 16-byte load, a mask test and a population count. `term[node]` is the id of the word that ends there, or -1.

- The separator trie: for every word w and every position k, the string w[k:] + SEP + reversed(w[:k]).
  A search starts at the new letter, grows the word forward, crosses the separator and grows the rest
  backwards from the first cell — one tree instead of a forward and a backward one.
- The forward trie: the words themselves (the plain baseline, searched from every cell).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lab.bits import popcount
from ..lab.jit import allocating_kernel, inline_kernel


@dataclass
class Trie:
    info: np.ndarray  # uint64 [nodes, 2]: (bit mask of child symbols, id of the first child)
    term: np.ndarray  # int32 [nodes]: word id ending here, or -1
    sep: int  # the separator symbol (alphabet size), or -1 for a forward trie

    @property
    def nodes(self) -> int:
        return len(self.info)

    @property
    def nbytes(self) -> int:
        return self.info.nbytes + self.term.nbytes


@inline_kernel
def child(info, node, sym):
    """The child of `node` along symbol `sym`, or -1 (children have consecutive ids in symbol order)."""
    m = info[node, 0]
    bit = np.uint64(1) << np.uint64(sym)
    if m & bit == 0:
        return -1
    return np.int64(info[node, 1] + popcount(m & (bit - np.uint64(1))))


@allocating_kernel
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


@allocating_kernel
def _forward_strings(codes, lengths):
    rows = np.zeros((len(lengths), codes.shape[1]), dtype=np.uint8)
    owner = np.empty(len(lengths), dtype=np.int32)
    for i in range(len(lengths)):
        for t in range(lengths[i]):
            rows[i, t] = codes[i, t] + 1
        owner[i] = i
    return rows, owner


@allocating_kernel
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


@allocating_kernel
def _compress(parent, sym, term):
    """Renumber the nodes breadth first, so that every node's children have consecutive ids (in symbol
    order) and the top levels, which every search touches, share cache lines; pack (mask, first child)."""
    nodes = len(parent)
    counts = np.zeros(nodes + 1, dtype=np.int64)
    for v in range(1, nodes):
        counts[parent[v] + 1] += 1
    start = np.zeros(nodes + 1, dtype=np.int64)
    for v in range(nodes):
        start[v + 1] = start[v] + counts[v + 1]
    fill = start[:nodes].copy()
    kids = np.empty(max(nodes - 1, 1), dtype=np.int64)
    for v in range(1, nodes):  # preorder ids: each parent's children arrive in symbol order
        p = parent[v]
        kids[fill[p]] = v
        fill[p] += 1
    order = np.empty(nodes, dtype=np.int64)  # breadth-first: new id -> old id
    order[0] = 0
    tail = 1
    for head in range(nodes):
        v = order[head]
        for i in range(start[v], start[v + 1]):
            order[tail] = kids[i]
            tail += 1
    new_id = np.empty(nodes, dtype=np.int64)
    for i in range(nodes):
        new_id[order[i]] = i
    info = np.zeros((nodes, 2), dtype=np.uint64)
    new_term = np.empty(nodes, dtype=np.int32)
    for i in range(nodes):
        v = order[i]
        new_term[i] = term[v]
        m = np.uint64(0)
        for j in range(start[v], start[v + 1]):
            m |= np.uint64(1) << np.uint64(sym[kids[j]])
        info[i, 0] = m
        info[i, 1] = new_id[kids[start[v]]] if start[v + 1] > start[v] else 0
    return info, new_term


def _lexicographic_order(rows: np.ndarray) -> np.ndarray:
    """Row indices in lexicographic order of the byte rows (shorter rows first, padding is 0)."""
    contiguous = np.ascontiguousarray(rows)
    keys = contiguous.view(np.dtype((np.void, contiguous.shape[1]))).ravel()
    return np.argsort(keys, kind="stable").astype(np.int64)


def _build(rows, owner, sep) -> Trie:
    order = _lexicographic_order(rows)
    parent, sym, term = _build_from_sorted(rows, owner, order)
    info, term = _compress(parent, sym, term)
    return Trie(info, term, sep)


def separator_trie(codes: np.ndarray, lengths: np.ndarray, alphabet_size: int) -> Trie:
    rows, owner = _separator_strings(codes, lengths.astype(np.int32), alphabet_size)
    return _build(rows, owner, alphabet_size)


def forward_trie(codes: np.ndarray, lengths: np.ndarray) -> Trie:
    rows, owner = _forward_strings(codes, lengths.astype(np.int32))
    return _build(rows, owner, -1)
