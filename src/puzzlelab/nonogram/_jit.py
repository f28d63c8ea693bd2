"""The decorator for the engine's kernels: numba, cached, without reference counting.

The kernels never allocate (every array comes from Python), so they run with numba's runtime
(NRT) switched off: each array passed or sliced in a hot loop otherwise costs an atomic
increment and decrement, which measured more than half of the search time. `_nrt` is a numba
option used by its own test-suite; without it the kernels still work, only slower.

numba's on-disk cache is keyed by each function's own file, so a kernel that inlines a function
from another module would keep stale code after that module changes. `guard_cache` drops this
engine's cached kernels whenever any kernel source differs from the last run.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from numba import njit

KERNEL_MODULES = ("_jit", "linesolve", "linecache", "search")


def guard_cache() -> None:
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    if not cache_dir or not Path(cache_dir).is_dir():
        return
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in KERNEL_MODULES:
        digest.update((here / f"{name}.py").read_bytes())
    stamp = Path(cache_dir) / "puzzlelab-nonogram-kernels.sha256"
    want = digest.hexdigest()
    try:
        if stamp.read_text().strip() == want:
            return
    except OSError:
        pass
    for sub in Path(cache_dir).glob("nonogram_*"):
        for f in sub.iterdir():
            if f.name.split(".", 1)[0] in KERNEL_MODULES and f.suffix in (".nbi", ".nbc"):
                try:
                    f.unlink()
                except OSError:
                    pass
    try:
        tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
        tmp.write_text(want + "\n")
        os.replace(tmp, stamp)
    except OSError:
        pass


guard_cache()


def kernel(fn):
    try:
        return njit(cache=True, _nrt=False)(fn)
    except (TypeError, KeyError):  # pragma: no cover - a numba without the option
        return njit(cache=True)(fn)
