"""Paths through the 1-byte parent hashes or the move tags: shortest, legal, verified by replay; `bfs solve`."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from bfs_support import A007664, eight_puzzle_search

from puzzlelab.bfs.domain import Rooted
from puzzlelab.bfs.engine import search
from puzzlelab.bfs.hashset import search_hash
from puzzlelab.bfs.parents import replay
from puzzlelab.domains import make_domain


@pytest.fixture(scope="module")
def eight_puzzle():
    """The whole 8-puzzle, each state tagged with its parent's hash (the article's scheme)."""
    res = eight_puzzle_search(tags="parent-hash")
    yield res
    res.close()


@pytest.fixture(scope="module")
def eight_puzzle_moves():
    """The whole 8-puzzle, each state tagged with the move that produced it."""
    res = eight_puzzle_search(tags="move")
    yield res
    res.close()


def test_paths_through_move_tags_are_shortest_and_legal(eight_puzzle_moves):
    from puzzlelab.bfs.parents import rebuild_path_by_moves

    res = eight_puzzle_moves
    assert res.move_tags and res.frontier and res.to_json()["tags"] == "move"
    dom = res.domain
    for depth in (1, 7, 20, 31):
        store = res.layer_stores[depth]
        for i in (0, len(store.blocks) - 1):
            rows, tags = store.decode(i)
            for j in (0, rows.shape[0] - 1):
                path = rebuild_path_by_moves(dom, res.layer_stores, depth, rows[j], int(tags[j]), le=True)
                assert len(path) == depth and path.verified and replay(dom, path, rows[j])
                # each move is the tag of the state it produced
                assert path.moves[-1] == int(tags[j])


def test_a_wrong_move_tag_is_caught(eight_puzzle_moves):
    from puzzlelab.bfs.parents import rebuild_path_by_moves

    res = eight_puzzle_moves
    rows, tags = res.layer_stores[9].decode(0)
    wrong = next(m for m in range(4) if m != int(tags[0]))
    with pytest.raises(RuntimeError, match="path rebuild failed"):
        rebuild_path_by_moves(res.domain, res.layer_stores, 9, rows[0], wrong, le=True)


def test_paths_through_parent_hashes_are_shortest_and_legal(eight_puzzle):
    from puzzlelab.bfs.parents import RebuildStats, rebuild_path

    dom = eight_puzzle.domain
    for depth in (1, 7, 20, 31):
        rows, tags = eight_puzzle.layer_stores[depth].decode(0)
        for i in (0, rows.shape[0] - 1):
            stats = RebuildStats()
            path = rebuild_path(dom, eight_puzzle.layer_stores, depth, rows[i], int(tags[i]), stats=stats)
            assert len(path) == depth and path.verified
            assert replay(dom, path, rows[i])
            assert np.array_equal(path.states[-1], rows[i])
            # the hash filter re-expands only a few states per depth
            assert stats.expanded < max(4 * depth, stats.scanned // 16)


def test_replay_rejects_a_wrong_path(eight_puzzle):
    from puzzlelab.bfs.parents import rebuild_path

    rows, tags = eight_puzzle.layer_stores[5].decode(0)
    good = rebuild_path(eight_puzzle.domain, eight_puzzle.layer_stores, 5, rows[0], int(tags[0]))
    assert replay(eight_puzzle.domain, good, rows[0])
    for step in range(5):  # any other move at any step: not legal there, or not to the next state
        for move in set(range(4)) - {good.moves[step]}:
            path = copy.deepcopy(good)
            path.moves[step] = move
            assert not replay(eight_puzzle.domain, path, rows[0])
    path = copy.deepcopy(good)  # a state on the way swapped for another of its depth
    path.states[3] = eight_puzzle.layer_stores[3].decode(0)[0][-1]
    assert not np.array_equal(path.states[3], good.states[3])
    assert not replay(eight_puzzle.domain, path, rows[0])
    assert not replay(eight_puzzle.domain, good, rows[1])  # the wrong goal


def test_stop_at_goal_gives_a_verified_shortest_path():
    dom = make_domain("hanoi4:6")
    with search(dom, stop_at_goal=True, progress=False) as res:
        assert res.goal_depth == A007664[6] == len(res.path)
        assert res.path.verified and not res.complete


def test_solve_cli_hardest_eight_puzzle(run_cli, eight_puzzle):
    code, out, err = run_cli("bfs", "solve", "sliding:3x3", "--from", "8,6,7,2,5,4,3,0,1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["length"] == 27 and data["path"]["verified"]
    # the moves replay from the given board to the start
    dom = make_domain("sliding:3x3")
    cur = dom.parse_state("8,6,7,2,5,4,3,0,1")
    from puzzlelab.bfs.parents import apply_move
    for m in data["path"]["moves"]:
        cur = apply_move(dom, cur, "UDLR".index(m))
    assert np.array_equal(cur, dom.start[0])
    # and 27 is the distance: that board is in layer 27 of the full search
    target = bytes(dom.parse_state("8,6,7,2,5,4,3,0,1"))
    store = eight_puzzle.layer_stores[27]
    assert any(target in {bytes(r) for r in store.decode(i)[0]} for i in range(len(store.blocks)))


def test_solve_to_the_goal_without_from(run_cli):
    code, out, err = run_cli("bfs", "solve", "hanoi4:6", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["length"] == A007664[6] and data["to"] == "DDDDDD" and data["path"]["verified"]
    code, out, err = run_cli("bfs", "solve", "pancake:5")
    assert code == 2 and "has no goal test" in err


@pytest.mark.parametrize("spec, state, length", [("cube2:qtm", "R U F", 3), ("pancake:5", "5,4,3,2,1", 1),
                                                 ("hanoi4:3", "DDD", 5), ("sliding:3x3", "0,1,2,3,4,5,6,7,8", 0)])
def test_solve_other_domains(run_cli, spec, state, length):
    code, out, err = run_cli("bfs", "solve", spec, "--from", state, "--json")
    assert code == 0, err
    assert json.loads(out)["length"] == length


def test_solve_beyond_the_depth_limit_says_so(run_cli):
    code, out, err = run_cli("bfs", "solve", "sliding:3x3", "--from", "8,6,7,2,5,4,3,0,1", "--max-depth", "5", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["found"] is False and data["length"] is None and data["searched_depth"] == 5
    dom = make_domain("sliding:3x3")
    rooted = Rooted(dom, dom.parse_state("8,6,7,2,5,4,3,0,1"))
    assert not data["complete"] and data["states_searched"] == search_hash(rooted, max_depth=5, progress=False).states
