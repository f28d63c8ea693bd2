"""Checkpoints: a search killed between depths resumes from its last save and gives the same result."""

from __future__ import annotations

import json

import pytest
from bfs_support import A089484, Collatz

from puzzlelab.bfs import checkpoint as ckpt_mod
from puzzlelab.bfs.engine import search
from puzzlelab.domains import make_domain
from puzzlelab.lab.results import split_volatile


class Killed(Exception):
    """Stands for the SIGKILL that ends a session."""


def kill_after_saves(monkeypatch, saves: int) -> list[int]:
    """Make the search die right after its `saves`-th checkpoint; returns the depths saved."""
    real = ckpt_mod.Checkpointer.save
    depths: list[int] = []

    def save(self, mem, state):
        real(self, mem, state)
        depths.append(state["depth"])
        if len(depths) == saves:
            raise Killed

    monkeypatch.setattr(ckpt_mod.Checkpointer, "save", save)
    return depths


def stable(res) -> dict:
    return split_volatile(res.to_json())[0]


@pytest.mark.parametrize("spec,depth,kill,budget,kw", [
    ("sliding:4x4", 20, 19, "14M", {"frontier": False}),  # visited set, stores already spilled to files
    ("sliding:4x4", 21, 20, "20M", {"frontier": True}),  # frontier layers, spilled
    ("sliding:3x3", 31, 3, "256M", {"frontier": False, "tags": "parent-hash"}),  # everything in memory
])
def test_a_killed_search_resumes_to_the_same_result(monkeypatch, tmp_path, spec, depth, kill, budget, kw):
    opts = dict(max_depth=depth, memory_budget=budget, workdir=tmp_path / "spill", progress=False, **kw)
    with search(make_domain(spec), **opts) as res:
        expected = stable(res)
    saved = kill_after_saves(monkeypatch, kill)
    box = tmp_path / "ckpt"
    with pytest.raises(Killed):
        search(make_domain(spec), checkpoint=box, checkpoint_every_s=1e-9, **opts)
    assert saved == list(range(1, kill + 1)) and [p.name for p in box.iterdir()] == [f"depth-{kill:06d}"]
    index = json.loads((box / f"depth-{kill:06d}" / "index.json").read_text())
    assert any(not s["resident"] for s in index["stores"]) == (budget != "256M")  # stores in files are linked
    monkeypatch.undo()
    with search(make_domain(spec), checkpoint=box, checkpoint_every_s=1e-9, **opts) as res:
        assert res.resumed_from_depth == kill
        assert stable(res) == expected  # layers, sizes, and what spilled
        assert res.layers == A089484[: depth + 1] or spec == "sliding:3x3"
    assert not box.exists()  # the saves go once the search has ended


def test_a_resumed_search_rebuilds_the_same_path(monkeypatch, tmp_path):
    """Goal search with the layers kept: the path comes from stores saved and reloaded."""
    opts = dict(goal=make_domain("sliding:3x3").start, memory_budget="256M", workdir=tmp_path, progress=False)
    dom = make_domain("sliding:3x3")
    from puzzlelab.bfs.domain import Rooted

    state = dom.parse_state("8,6,7,2,5,4,3,0,1")  # 27 moves from the start
    with search(Rooted(dom, state), **opts) as res:
        expected = (res.goal_depth, [m for m in res.path.moves])
    kill_after_saves(monkeypatch, 20)
    with pytest.raises(Killed):
        search(Rooted(dom, state), checkpoint=tmp_path / "c", checkpoint_every_s=1e-9, **opts)
    monkeypatch.undo()
    with search(Rooted(dom, state), checkpoint=tmp_path / "c", checkpoint_every_s=1e-9, **opts) as res:
        assert res.resumed_from_depth == 20
        assert (res.goal_depth, [m for m in res.path.moves]) == expected and expected[0] == 27


def test_a_checkpoint_of_another_search_is_not_used(monkeypatch, tmp_path, capsys):
    kill_after_saves(monkeypatch, 2)
    with pytest.raises(Killed):
        search(Collatz(1000), checkpoint=tmp_path, checkpoint_every_s=1e-9, progress=False)
    monkeypatch.undo()
    with search(Collatz(999), checkpoint=tmp_path, checkpoint_every_s=1e-9, progress=True) as res:
        assert res.resumed_from_depth is None
    assert "belongs to another search" in capsys.readouterr().err
    with search(Collatz(999), progress=False) as plain:
        assert res.layers == plain.layers


def test_a_search_that_ends_before_its_first_save_leaves_another_searchs_save(monkeypatch, tmp_path):
    kill_after_saves(monkeypatch, 2)
    with pytest.raises(Killed):
        search(Collatz(1000), checkpoint=tmp_path, checkpoint_every_s=1e-9, progress=False)
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["depth-000002"]
    with search(Collatz(999), checkpoint=tmp_path, checkpoint_every_s=1e9, progress=False) as res:
        assert res.resumed_from_depth is None  # never saved: the other search's save is still there
    assert [p.name for p in tmp_path.iterdir()] == ["depth-000002"]
    with search(Collatz(1000), checkpoint=tmp_path, checkpoint_every_s=1e9, progress=False) as res:
        assert res.resumed_from_depth == 2  # and its own search resumes from it, then removes it
    assert not tmp_path.exists()


def test_cli_resumes_and_writes_the_same_artifact(run_cli, monkeypatch, tmp_path):
    args = ["bfs", "layers", "sliding:3x3", "--memory-budget", "64M", "--workdir", tmp_path / "w"]
    assert run_cli(*args, "--out", tmp_path / "plain.json")[0] == 0
    kill_after_saves(monkeypatch, 10)
    with pytest.raises(Killed):
        run_cli(*args, "--checkpoint", tmp_path / "c", "--checkpoint-every", "1e-9", "--out", tmp_path / "r.json")
    monkeypatch.undo()
    code, _, err = run_cli(*args, "--checkpoint", tmp_path / "c", "--checkpoint-every", "1e-9",
                           "--out", tmp_path / "r.json", "--timing", tmp_path / "r.timing.json")
    assert code == 0 and "resumed from the checkpoint at depth 10" in err
    assert (tmp_path / "r.json").read_bytes() == (tmp_path / "plain.json").read_bytes()
    assert '"resumed_from_depth": 10' in (tmp_path / "r.timing.json").read_text()


def test_checkpoint_errors_are_clear(run_cli, tmp_path):
    code, _, err = run_cli("bfs", "layers", "sliding:2x2", "--dedup", "hash", "--checkpoint", tmp_path)
    assert code == 2 and "--checkpoint needs the sort+merge" in err
    code, _, err = run_cli("bfs", "layers", "sliding:2x2", "--checkpoint", tmp_path, "--checkpoint-every", "0")
    assert code == 2 and "Traceback" not in err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run_cli("bfs", "layers", "sliding:2x2", "--checkpoint", blocker / "sub")
    assert code == 2 and "cannot use --checkpoint" in err and "Traceback" not in err
