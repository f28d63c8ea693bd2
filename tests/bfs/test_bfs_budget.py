"""The memory budget: spilling to files, cleaning up, clear errors for a small budget or a full disk."""

from __future__ import annotations

import errno
import json
import os

import pytest
from bfs_support import A089484, A092113_ROWS, layers
from bfs_support import A089484 as PUBLISHED

from puzzlelab.bfs.engine import search
from puzzlelab.domains import make_domain
from puzzlelab.lab.results import split_volatile


def test_small_budget_spills_to_files_and_cleans_up(tmp_path):
    with search(make_domain("sliding:4x4"), max_depth=19, memory_budget="14M", workdir=tmp_path,
                progress=False) as res:
        assert res.layers == A089484[:20]
        assert res.spilled_bytes > 0 and res.spill_files > 0
        assert res.accounted_peak_bytes <= 14 << 20
        run_dir = res.run_dir
        assert any(run_dir.iterdir())
    assert not run_dir.exists() and list(tmp_path.iterdir()) == []


def test_spilling_does_not_depend_on_the_codec_threads(tmp_path):
    """What spills (and so the artifact) is the same with and without codec threads."""
    for spec, depth, budget, frontier in (("sliding:4x4", 21, "20M", True), ("sliding:4x4:packed", 19, "18M", False)):
        out = []
        for threads in (1, 2):
            with search(make_domain(spec), max_depth=depth, memory_budget=budget, chunk_states=20000,
                        workdir=tmp_path, progress=False, threads=threads, frontier=frontier) as res:
                assert res.layers == list(PUBLISHED[: depth + 1]) and res.spilled_bytes > 0
                out.append(split_volatile(res.to_json())[0])
        assert out[0] == out[1]


def test_budget_too_small_is_a_clear_error(run_cli, tmp_path):
    code, out, err = run_cli("bfs", "layers", "sliding:4x4", "--memory-budget", "1M", "--workdir", tmp_path)
    assert code == 2 and "too small" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_full_disk_is_a_clear_error_and_leaves_workdir_clean(run_cli, tmp_path, monkeypatch):
    from puzzlelab.bfs import storage

    def full(fd, data, offset):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(storage.os, "pwrite", full)
    code, out, err = run_cli("bfs", "layers", "sliding:4x4", "--max-depth", "19", "--memory-budget", "14M",
                             "--workdir", tmp_path)
    assert code == 2 and "No space left on device" in err and str(tmp_path) in err
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    code, out, err = run_cli("bfs", "layers", "pancake:6", "--memory-budget", "14M", "--workdir", tmp_path, "--json")
    assert code == 0 and json.loads(out)["layers"] == A092113_ROWS[6]


def test_leftovers_of_dead_runs_are_removed(tmp_path):
    stale = tmp_path / "puzzlelab-bfs-999999999-abc"
    stale.mkdir()
    (stale / "00001-visited.blk").write_bytes(b"x")
    layers("pancake:5", workdir=tmp_path)
    assert not stale.exists()


@pytest.mark.slow
def test_peak_rss_stays_near_the_budget(tmp_path):
    """A search whose raw states (6 B x 79 M at depth 25) take more than the budget: peak RSS stays
    within the budget + 200 MB (PUZZLELAB_BFS_RSS_DEPTH / _BUDGET: e.g. 27 and 2G)."""
    import subprocess
    import sys

    from puzzlelab.lab.sizes import parse_size

    depth = int(os.environ.get("PUZZLELAB_BFS_RSS_DEPTH", "25"))
    budget = os.environ.get("PUZZLELAB_BFS_RSS_BUDGET", "384M")
    out = tmp_path / "r.json"
    done = subprocess.run([sys.executable, "-m", "puzzlelab.cli", "bfs", "layers", "sliding:4x4", "--max-depth",
                           str(depth), "--memory-budget", budget, "--workdir", str(tmp_path), "--out", str(out),
                           "--timing", str(tmp_path / "t.json")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(out.read_text())
    timing = json.loads((tmp_path / "t.json").read_text())
    assert data["layers"] == list(PUBLISHED[:depth + 1])
    if depth >= 25 and budget == "384M":
        assert data["states"] * data["width"] > parse_size(budget)  # the raw states are larger than the budget
    assert data["accounted_peak_bytes"] <= parse_size(budget)
    assert timing["peak_rss_bytes"] < parse_size(budget) + (200 << 20)
