"""The one decorator module for numba kernels: cached, GIL-free, without reference counting.

Kernels never allocate (every array comes from Python), so they run with numba's runtime (NRT)
switched off: each array passed or sliced in a hot loop otherwise costs an atomic increment and
decrement (measured at more than half of the search time in the nonogram and Snakebird kernels).
`_nrt` is an option numba's own test-suite uses; without it the kernels still work, only slower.
Kernels that must allocate use `allocating_kernel`.
"""

from __future__ import annotations

from numba import njit


def _njit(fn, **options):
    try:
        return njit(cache=True, nogil=True, _nrt=False, **options)(fn)
    except (TypeError, KeyError):  # pragma: no cover - a numba without the option
        return njit(cache=True, nogil=True, **options)(fn)


def kernel(fn):
    """A cached, GIL-free kernel that never allocates (no reference counting)."""
    return _njit(fn)


def inline_kernel(fn):
    """Like `kernel`, inlined into its callers by numba (small per-cell steps of hot loops)."""
    return _njit(fn, inline="always")


def allocating_kernel(fn):
    """A cached, GIL-free kernel that may allocate arrays (reference counting on)."""
    return njit(cache=True, nogil=True)(fn)
