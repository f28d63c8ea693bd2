"""The one decorator module for numba kernels: cached, GIL-free, without reference counting.

Kernels never allocate (every array comes from Python), so they run with numba's runtime (NRT)
switched off: each array passed or sliced in a hot loop otherwise costs an atomic increment and
decrement (measured at more than half of the search time in the nonogram and Snakebird kernels).
`_nrt` is an option numba's own test-suite uses; without it the kernels still work, only slower.
Kernels that must allocate use `allocating_kernel`.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import threading
import time

from numba import njit

WARMING = "PUZZLELAB_WARMING"  # set in the child process that fills the kernel cache
CACHE_LOCK_SUFFIX = ".lock"  # beside each of numba's cache index files


def _locked(method, mode: int):
    """`method` of numba's cache file, run holding flock `mode` on the file beside its index."""

    def guarded(self, *args, **kwargs):
        with contextlib.ExitStack() as stack:
            try:
                stack.enter_context(_file_lock(self._index_path + CACHE_LOCK_SUFFIX, mode))
            except OSError:  # a cache folder this process cannot write: numba does without the cache
                pass
            return method(self, *args, **kwargs)

    guarded.__wrapped__ = method
    return guarded


def guard_cache_files() -> None:
    """Make numba's kernel cache safe for processes that fill it at once.

    numba reads a kernel's cache index, adds an entry and writes it back without a lock, and names the
    entry's data file by the first number free in the index it read: two processes compiling different
    specialisations of one kernel on a cold cache (pytest-xdist workers, parallel Snakemake jobs) can
    both take number N, and a later process then loads one specialisation's machine code for the other
    (seen in CI: the Balda forward baseline ran a `grow` compiled for empty start cells and listed wrong
    moves). numba's developers suggest a file lock (numba issue #10128): every save holds an exclusive
    lock beside the index, every load a shared one, so an index and its data files are always read whole.
    """
    from numba.core.caching import IndexDataCacheFile

    if getattr(IndexDataCacheFile.save, "__wrapped__", None) is not None:
        return
    IndexDataCacheFile.save = _locked(IndexDataCacheFile.save, fcntl.LOCK_EX)
    IndexDataCacheFile.flush = _locked(IndexDataCacheFile.flush, fcntl.LOCK_EX)
    IndexDataCacheFile.load = _locked(IndexDataCacheFile.load, fcntl.LOCK_SH)


guard_cache_files()


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


class CompileTimer:
    """Wall seconds (`seconds`) and CPU seconds (`cpu_seconds`) numba spends compiling or loading
    cached kernels inside a `with` block: a measured time less this is the work's own (a cold kernel
    cache adds a minute to the first search, a warm one 0.07 s to a Snakebird search). It times
    numba's compiler lock, which both hold (numba's `numba:compile` event covers compiling only);
    CPU per thread, since under load a compile's wall time is well above its CPU time."""

    def __init__(self):
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self._depth = 0  # lock holders and waiters, all threads: wall time is the union of their spans
        self._wall0 = 0.0
        self._threads: dict[int, list] = {}  # thread -> [depth, thread CPU at its outermost start]
        self._lock = threading.Lock()  # threads waiting for numba's lock start their events together

    def _start(self, _event) -> None:
        with self._lock:
            if self._depth == 0:
                self._wall0 = time.perf_counter()
            self._depth += 1
            mine = self._threads.setdefault(threading.get_ident(), [0, 0.0])
            if mine[0] == 0:
                mine[1] = time.thread_time()
            mine[0] += 1

    def _end(self, _event) -> None:
        with self._lock:
            mine = self._threads.get(threading.get_ident())
            if mine is not None and mine[0] > 0:
                mine[0] -= 1
                if mine[0] == 0:
                    self.cpu_seconds += time.thread_time() - mine[1]
            if self._depth > 0:
                self._depth -= 1
                if self._depth == 0:
                    self.seconds += time.perf_counter() - self._wall0

    def __enter__(self):
        from numba.core import event

        timer = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                timer._start(ev)

            def on_end(self, ev):
                timer._end(ev)

        self._ctx = event.install_listener("numba:compiler_lock", _Listener())
        self._ctx.__enter__()
        return self

    def __exit__(self, *exc):
        return self._ctx.__exit__(*exc)


class WorkClock:
    """Wall and CPU seconds of work inside a `with` block, numba's compiling or loading kernels
    meanwhile left out (`since(mark)` for a part of the block, e.g. one round of a search)."""

    def __enter__(self):
        self.compiling = CompileTimer().__enter__()
        self.start = self.mark()
        return self

    def __exit__(self, *exc):
        return self.compiling.__exit__(*exc)

    def mark(self) -> tuple[float, float, float, float]:
        return time.perf_counter(), time.process_time(), self.compiling.seconds, self.compiling.cpu_seconds

    def since(self, mark: tuple | None = None) -> tuple[float, float]:
        """(wall, CPU) seconds of work since `mark` (default: since the block began)."""
        t0, c0, k0, kc0 = mark or self.start
        wall = time.perf_counter() - t0 - (self.compiling.seconds - k0)
        return max(0.0, wall), max(0.0, time.process_time() - c0 - (self.compiling.cpu_seconds - kc0))


def kernels_cached(module) -> bool:
    """numba's cache holds some kernel of `module` already (the index file of one that is compiled on
    its own, not inlined into its callers), or the module has none."""
    seen = False
    for obj in list(vars(module).values()):
        index = getattr(getattr(getattr(obj, "_cache", None), "_cache_file", None), "_index_path", None)
        if index is None or getattr(obj, "targetoptions", {}).get("inline") == "always":
            continue
        seen = True
        if os.path.exists(index):
            return True
    return not seen


def warm_in_child(modules: list, argv: list[str]) -> None:
    """When the kernels of these modules are not in the cache yet, compile them in a child process that runs
    `puzzlelab ARGV` (a small run of the same command), so that this process loads them from the
    cache: the compiler's memory (700 MB on a Snakebird level) stays out of this process's peak."""
    if os.environ.get(WARMING):
        return
    # always under the lock, even when the cache looks warm: a warm-up child under way has already
    # saved some kernels, and a job that looked without the lock would compile the rest in-process
    with _warming_lock():  # jobs started together: one fills the cache, the others wait, then load it
        if all(kernels_cached(m) for m in modules):
            return
        subprocess.run([sys.executable, "-m", "puzzlelab.cli", *argv], env={**os.environ, WARMING: "1"},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


@contextlib.contextmanager
def _warming_lock():
    """An exclusive lock on a file beside numba's cache (one per version of the sources): without it,
    a job that starts while another is filling the cache sees some kernels there, skips its own
    warm-up and compiles the rest in-process (1.1 GB peak on a 138-state Snakebird level)."""
    import tempfile

    from numba.core.config import CACHE_DIR

    folder = CACHE_DIR or tempfile.gettempdir()
    os.makedirs(folder, exist_ok=True)
    with _file_lock(os.path.join(folder, ".puzzlelab-warming.lock"), fcntl.LOCK_EX):
        yield


@contextlib.contextmanager
def _file_lock(path: str, mode: int):
    """Hold flock `mode` (LOCK_EX or LOCK_SH) on the file at `path`, created when missing, for the block."""
    with open(path, "a") as fh:
        fcntl.flock(fh, mode)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
