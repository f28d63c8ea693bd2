"""The fused one-kernel search (`bfs.fused`, `snakebird.fused`) gives what the compressed engine gives:
layers, children, goal, path, visited and parent bytes, spilling; finished fused or handed over."""

from __future__ import annotations

import numpy as np
import pytest
from snakebird_support import DATA, SMALL

from conftest import corpus
from puzzlelab.bfs import fused as fused_mod
from puzzlelab.bfs.engine import search
from puzzlelab.snakebird.domain import SnakebirdDomain
from puzzlelab.snakebird.level import load_level

PROJECT = ["two-birds", "crate", "first-steps", "portal", "spike-bridge"]


def _summary(res) -> dict:
    path = None if res.path is None else ([bytes(s).hex() for s in res.path.states], res.path.moves)
    return {"layers": list(res.layers), "children": res.children, "complete": res.complete,
            "goal_depth": res.goal_depth, "goal": None if res.goal_row is None else bytes(res.goal_row).hex(),
            "goal_tag": res.goal_tag, "visited_bytes": res.visited_bytes, "parent_bytes": res.parent_bytes,
            "spilled_bytes": res.spilled_bytes, "spill_files": res.spill_files, "path": path,
            "verified": None if res.path is None else res.path.verified}


def _both(domain, tmp_path, **kw) -> tuple[dict, dict, list]:
    with search(domain, workdir=tmp_path, progress=False, fused=False, **kw) as a:
        plain = _summary(a)
    with search(domain, workdir=tmp_path, progress=False, fused=True, **kw) as b:
        fused = _summary(b)
        kinds = [d.get("fused", False) for d in b.depths]
    return plain, fused, kinds


@pytest.mark.parametrize("name", PROJECT)
def test_project_levels_fused_equal_the_engine(name, tmp_path):
    domain = SnakebirdDomain(load_level(DATA / f"{name}.txt"))
    plain, fused, kinds = _both(domain, tmp_path, stop_at_goal=True)
    assert plain["path"] is not None and plain["verified"]
    assert fused == plain
    assert all(kinds)  # small: searched fused to the end


def test_small_corpus_levels_fused_equal_the_engine(tmp_path):
    for name in SMALL[:8]:
        domain = SnakebirdDomain(load_level(corpus("snakebird", "levels", f"{name}.txt")))
        plain, fused, _ = _both(domain, tmp_path, stop_at_goal=True)
        assert fused == plain, name


@pytest.mark.parametrize("room_states", [1, 40, 300, 700])
def test_a_handover_at_any_depth_gives_the_same_result(room_states, tmp_path, monkeypatch):
    """Arrays too small for the level: the engine goes on from the fused search's stores."""
    monkeypatch.setattr(fused_mod, "MAX_FUSED_BYTES", room_states * fused_mod.BYTES_PER_STATE)
    domain = SnakebirdDomain(load_level(DATA / "crate.txt"))
    plain, fused, kinds = _both(domain, tmp_path, stop_at_goal=True)
    assert fused == plain
    assert kinds[0] and not all(kinds)  # begun fused, finished by the engine
    assert kinds == sorted(kinds, reverse=True)


def test_whole_space_and_max_depth_without_stopping(tmp_path, monkeypatch):
    domain = SnakebirdDomain(load_level(DATA / "two-birds.txt"))
    plain, fused, _ = _both(domain, tmp_path)  # every reachable state; the goal's depth noted
    assert plain["complete"] and plain["goal_depth"] == 10 and fused == plain
    plain, fused, _ = _both(domain, tmp_path, max_depth=6)
    assert not plain["complete"] and plain["goal_depth"] is None and len(plain["layers"]) == 7
    assert fused == plain
    monkeypatch.setattr(fused_mod, "MAX_FUSED_BYTES", 200 * fused_mod.BYTES_PER_STATE)
    plain, fused, _ = _both(domain, tmp_path)  # handed over after the goal's depth was noted
    assert fused == plain


def test_a_tight_budget_gives_the_same_result(tmp_path):
    domain = SnakebirdDomain(load_level(DATA / "meadow.txt"))
    plain, fused, _ = _both(domain, tmp_path, stop_at_goal=True, memory_budget="16M", chunk_states=2048)
    assert fused == plain


def test_states_wider_than_a_word_are_not_fused(tmp_path):
    """The arrays hold one 8-byte word per state; a wider level runs in the engine alone."""
    domain = SnakebirdDomain(load_level(corpus("snakebird", "levels", "levelstar2.txt")))
    assert domain.width > 8
    assert domain.search_fused(1000, None, True) is None
    with search(domain, workdir=tmp_path, progress=False, fused=True, max_depth=3) as res:
        assert not any(d.get("fused") for d in res.depths) and res.layers[0] == 1
    assert np.all(np.asarray(res.layers) > 0)
