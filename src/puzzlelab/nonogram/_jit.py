"""The decorator for the engine's kernels: numba, cached, without reference counting.

The kernels never allocate (every array comes from Python), so they run with numba's runtime
(NRT) switched off: each array passed or sliced in a hot loop otherwise costs an atomic
increment and decrement, which measured more than half of the search time. `_nrt` is a numba
option used by its own test-suite; without it the kernels still work, only slower.
"""

from __future__ import annotations

from numba import njit


def kernel(fn):
    try:
        return njit(cache=True, _nrt=False)(fn)
    except (TypeError, KeyError):  # pragma: no cover - a numba without the option
        return njit(cache=True)(fn)
