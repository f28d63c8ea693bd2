"""numba's kernel cache under processes that fill it at once (see `puzzlelab.lab.jit.guard_cache_files`)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import textwrap

import pytest
from numba.core.caching import IndexDataCacheFile

import puzzlelab.lab.jit as jit


def _lock_is_held(index_path: str) -> bool:
    with open(index_path + jit.CACHE_LOCK_SUFFIX, "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
        return False


def test_saves_and_loads_hold_the_lock_beside_the_index(tmp_path, monkeypatch):
    cache = IndexDataCacheFile(str(tmp_path), "kernel-1.py311", source_stamp=(1.0, 2))
    seen = {}
    save_data, load_data = IndexDataCacheFile._save_data, IndexDataCacheFile._load_data

    def spy_save(self, name, data):
        seen["save"] = _lock_is_held(self._index_path)
        return save_data(self, name, data)

    def spy_load(self, name):
        seen["load"] = _lock_is_held(self._index_path)
        return load_data(self, name)

    monkeypatch.setattr(IndexDataCacheFile, "_save_data", spy_save)
    monkeypatch.setattr(IndexDataCacheFile, "_load_data", spy_load)
    cache.save(("sig-a",), b"code of a")
    cache.save(("sig-b",), b"code of b")
    assert cache.load(("sig-a",)) == b"code of a" and cache.load(("sig-b",)) == b"code of b"
    assert seen == {"save": True, "load": True}
    assert not _lock_is_held(cache._index_path)  # released afterwards
    jit.guard_cache_files()  # a second call does not wrap twice
    assert IndexDataCacheFile.save.__wrapped__.__name__ == "save"


WORKER = textwrap.dedent("""
    import sys
    from numba.core.caching import IndexDataCacheFile
    import puzzlelab.lab.jit  # installs the lock
    cache = IndexDataCacheFile(sys.argv[1], "kernel-7.py311", source_stamp=(1.0, 2))
    me = sys.argv[2]
    for i in range(int(sys.argv[3])):
        cache.save((me, i), (me, i))
""")


def test_processes_saving_at_once_never_swap_entries(tmp_path):
    """Two processes add different specialisations of one kernel at once: every entry the index keeps
    loads its own data (numba alone can hand one key the other's data file)."""
    n = 150
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path), who, str(n)], env=os.environ.copy())
             for who in ("a", "b")]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    cache = IndexDataCacheFile(str(tmp_path), "kernel-7.py311", source_stamp=(1.0, 2))
    index = cache._load_index()
    assert len(index) == 2 * n
    for key in index:
        assert cache.load(key) == key


@pytest.mark.parametrize("method", ["save", "load", "flush"])
def test_the_guard_is_installed_on_import(method):
    assert getattr(getattr(IndexDataCacheFile, method), "__wrapped__", None) is not None
