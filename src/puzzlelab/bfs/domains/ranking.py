"""Permutations of 0..n-1 (n <= 20) as their lexicographic rank, a dense integer below n!.

A state set stored as ranks is dense where the search has been: sorted ranks differ by small
gaps, which the `gap` codecs store in a few bits (a complete space costs almost nothing). The
rank is written as `rank_width(n)` little-endian bytes, so the engine's default key order ("le":
the row read as a little-endian integer) is the rank order.

Both directions take O(n) word operations for n <= 16, without divisions by a variable:

- rank: the count of used values below v lives in 4-bit lane v of one word; taking value v adds
  1 to every lane above v (one table lookup).
- unrank: the unused values, in increasing order, live in the 4-bit lanes of one word; digit c
  picks lane c and deletes it. Digits come from the rank by multiplying with a precomputed
  reciprocal of (n-1-k)! (exact below 2^53, corrected by one step).

For 17 <= n <= 20 the same digits are found with a bit set of the used values (a little slower).
"""

from __future__ import annotations

import math

import numpy as np

from puzzlelab.lab.bits import popcount
from puzzlelab.lab.jit import inline_kernel

MAX_N = 20  # 20! < 2^64 <= 21!
LANES_N = 16  # up to here the one-word lane tricks apply


def rank_width(n: int) -> int:
    """Bytes of a rank of a permutation of n elements."""
    return max(1, ((math.factorial(n) - 1).bit_length() + 7) // 8)


def rank_tables(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(weight, reciprocal, above) for rank_of/unrank_into: weight[k] = (n-1-k)!, above[v] = lanes > v."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"permutations of {n} elements do not rank into 64 bits")
    weight = np.array([math.factorial(n - 1 - k) for k in range(n)], dtype=np.uint64)
    recip = np.array([1.0 / math.factorial(n - 1 - k) for k in range(n)], dtype=np.float64)
    above = np.zeros(n, dtype=np.uint64)
    if n <= LANES_N:
        for v in range(n):
            above[v] = sum(1 << (4 * u) for u in range(v + 1, n))
    return weight, recip, above


@inline_kernel
def rank_of(cells, n, weight, above):
    """Lexicographic rank of the permutation cells[0..n-1] of 0..n-1 (cells[0] most significant)."""
    r = np.uint64(0)
    if n <= LANES_N:
        less = np.uint64(0)
        for k in range(n - 1):
            v = np.uint64(cells[k])
            r += (v - ((less >> (np.uint64(4) * v)) & np.uint64(15))) * weight[k]
            less += above[cells[k]]
        return r
    used = np.uint64(0)
    for k in range(n - 1):
        v = np.uint64(cells[k])
        r += (v - popcount(used & ((np.uint64(1) << v) - np.uint64(1)))) * weight[k]
        used |= np.uint64(1) << v
    return r


@inline_kernel
def _digit(r, w, inv):
    """r // w for r < 2^53: from the floating-point quotient, corrected by one."""
    c = np.uint64(np.float64(r) * inv)
    if c * w > r:
        c -= np.uint64(1)
    elif (c + np.uint64(1)) * w <= r:
        c += np.uint64(1)
    return c


@inline_kernel
def unrank_into(r, n, weight, recip, cells):
    """cells[0..n-1] = the permutation of rank r (the inverse of rank_of).

    Digit k is q_k - (n-k) q_(k-1) with q_k = r // (n-1-k)!: the quotients do not depend on each
    other, so they are computed side by side instead of one division after the other."""
    if n <= LANES_N:
        pool = np.uint64(0xFEDCBA9876543210)  # unused values in increasing order, 4 bits each
        prev = np.uint64(0)
        for k in range(n - 1):
            q = _digit(r, weight[k], recip[k])
            c = q - np.uint64(n - k) * prev
            prev = q
            s = np.uint64(4) * c
            cells[k] = (pool >> s) & np.uint64(15)
            low = (np.uint64(1) << s) - np.uint64(1)
            pool = (pool & low) | ((pool >> np.uint64(4)) & ~low)
        cells[n - 1] = pool & np.uint64(15)
        return
    free = (np.uint64(1) << np.uint64(n)) - np.uint64(1)  # unused values as a bit set
    prev = np.uint64(0)
    for k in range(n):
        q = r // weight[k]  # past 2^53 the floating-point quotient is not close enough
        c = q - np.uint64(n - k) * prev
        prev = q
        x = free
        for _ in range(int(c)):
            x &= x - np.uint64(1)  # drop the c smallest unused values
        low = x & (~x + np.uint64(1))
        v = 0
        while (np.uint64(1) << np.uint64(v)) != low:
            v += 1
        cells[k] = v
        free ^= low
