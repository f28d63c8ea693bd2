"""splitmix64 mixing: the seeded lottery keys of the beam, the DFS shuffles and the Zobrist tables.

`mix64` (numba, on uint64) and `mix_int` (Python ints) are the same function, so keys computed in
Python and in a kernel agree.
"""

from __future__ import annotations

import numpy as np

from ...lab.jit import inline_kernel

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
GOLD = np.uint64(0x9E3779B97F4A7C15)
_MASK = (1 << 64) - 1


@inline_kernel
def mix64(z):
    """splitmix64 finaliser (uint64 -> uint64)."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def mix_int(z: int) -> int:
    """splitmix64 finaliser on Python ints (same function as `mix64`)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def seed_hash(seed: int, salt: int = 0) -> np.uint64:
    """A search's seed as a 64-bit key (`salt` keeps the searches' streams apart)."""
    return np.uint64(mix_int((seed & _MASK) ^ (0x5EED0000 + salt)))


def zobrist(shape, salt: int) -> np.ndarray:
    """Fixed pseudo-random 64-bit tables (independent of the seed: the dedup keys never change)."""
    size = int(np.prod(shape))
    out = np.empty(size, np.uint64)
    h = 0xC0FFEE + salt
    for x in range(size):
        h = (h + 0x9E3779B97F4A7C15) & _MASK
        out[x] = mix_int(h)
    return out.reshape(shape)
