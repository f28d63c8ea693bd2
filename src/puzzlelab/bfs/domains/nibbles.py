"""Pack small values (< 16) two to a byte: value i lives in byte i >> 1, low nibble first."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def unpack_row(row, cells, n):
    for i in range(n):
        b = row[i >> 1]
        cells[i] = (b >> 4) if (i & 1) else (b & 15)


@njit(cache=True, inline="always")
def pack_row(cells, n, out):
    for j in range(out.shape[0]):
        out[j] = 0
    for i in range(n):
        if i & 1:
            out[i >> 1] |= np.uint8(cells[i] << 4)
        else:
            out[i >> 1] |= np.uint8(cells[i])


def pack(values, width: int) -> np.ndarray:
    """One packed row from a sequence of small ints (Python side, for start states and parsing)."""
    out = np.zeros(width, dtype=np.uint8)
    for i, v in enumerate(values):
        out[i >> 1] |= (int(v) & 15) << (4 * (i & 1))
    return out


def unpack(row, n: int) -> list[int]:
    row = np.asarray(row, dtype=np.uint8)
    return [int((row[i >> 1] >> (4 * (i & 1))) & 15) for i in range(n)]
