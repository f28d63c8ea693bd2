"""Snakebird searches: per-depth counts against the public ones and an independent in-memory BFS,
optimal solutions through the CLI, determinism, spilling, the 89-move levelstar6 win."""

from __future__ import annotations

import pytest
from snakebird_support import (
    DATA,
    PUBLISHED_MOVES,
    STAR6_89,
    memory_bfs,
    public_layers,
)

from conftest import corpus

# -------------------------------------------------------------------------- searches and counts


def test_public_layer_counts_small_levels():
    from puzzlelab.snakebird.domain import SnakebirdDomain
    from puzzlelab.snakebird.level import load_level

    layers = public_layers()
    assert len(layers) == 12
    for name in ["level01", "level05", "level14", "level22", "level30", "level31", "level32", "level34", "level37"]:
        lv = load_level(corpus("snakebird", "levels", f"{name}.txt"))
        depth, got = memory_bfs(SnakebirdDomain(lv))
        assert depth == lv.expected_moves == PUBLISHED_MOVES[name], name
        want = layers[name]
        assert got[1:len(want) + 1] == want, name
        assert len(want) == depth - 1


@pytest.mark.slow
def test_public_layer_counts_larger_levels():
    from puzzlelab.snakebird.domain import SnakebirdDomain
    from puzzlelab.snakebird.level import load_level

    layers = public_layers()
    for name in ["level07", "level16", "level24"]:
        lv = load_level(corpus("snakebird", "levels", f"{name}.txt"))
        depth, got = memory_bfs(SnakebirdDomain(lv))
        assert depth == PUBLISHED_MOVES[name], name
        assert got[1:len(layers[name]) + 1] == layers[name], name


# ------------------------------------------------------------------ the CLI through the BFS engine


def test_cli_solve_project_level_matches_memory_bfs(run_cli, tmp_path):
    import json

    from puzzlelab.snakebird.domain import SnakebirdDomain
    from puzzlelab.snakebird.level import load_level

    level = DATA / "two-birds.txt"
    out = tmp_path / "two-birds.json"
    code, _, err = run_cli("snakebird", "solve", level, "--memory-budget", "64M", "--workdir", tmp_path,
                           "--out", out, "--timing", tmp_path / "t.json")
    assert code == 0, err
    res = json.loads(out.read_text())
    depth, layers = memory_bfs(SnakebirdDomain(load_level(level)))
    assert res["solved"] and res["replay_won"] and res["moves"] == depth == 10
    assert res["layers"] == layers and res["states"] == sum(layers)
    assert len(res["solution"]) == 10 and all(m[0] in "RG" and m[1] in "URDL" for m in res["solution"])
    assert "time_s" not in res and "peak_rss_bytes" not in res  # volatile: in the timing file
    assert res["bits_per_state"] == pytest.approx(8 * res["visited_bytes"] / res["states"])
    # the solution replays to a win from the command line; one move less does not win
    code, text, _ = run_cli("snakebird", "replay", level, "--moves", ",".join(res["solution"]), "--quiet")
    assert code == 0 and "the level is won" in text
    code, text, _ = run_cli("snakebird", "replay", level, "--moves", ",".join(res["solution"][:-1]), "--quiet")
    assert code == 1 and "not won" in text


def test_cli_solve_is_deterministic_and_spills(run_cli, tmp_path):
    outs = []
    for i, budget in enumerate(["64M", "64M"]):
        out = tmp_path / f"r{i}.json"
        code, _, err = run_cli("snakebird", "solve", DATA / "crate.txt", "--memory-budget", budget,
                               "--workdir", tmp_path / "spill", "--out", out)
        assert code == 0, err
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_cli_solve_corpus_level_public_layers(run_cli, tmp_path):
    import json

    level = corpus("snakebird", "levels", "level22.txt")
    out = tmp_path / "level22.json"
    code, _, err = run_cli("snakebird", "solve", level, "--out", out)
    assert code == 0, err
    res = json.loads(out.read_text())
    assert res["moves"] == res["expected_moves"] == 45 and res["matches_expected"] and res["replay_won"]
    assert res["layers"][1:45] == public_layers()["level22"]


def test_cli_show_and_replay_errors(run_cli):
    code, text, _ = run_cli("snakebird", "show", DATA / "portal.txt")
    assert code == 0
    assert text.splitlines()[7] == ".>>R  O  T  ."
    assert "teleporters: row 3, column 5 <-> row 7, column 9" in text
    code, _, err = run_cli("snakebird", "replay", DATA / "portal.txt", "--moves", "GU")
    assert code == 2 and "the level has no snake G (its snakes: R)" in err
    code, text, _ = run_cli("snakebird", "replay", DATA / "portal.txt", "--moves", "RR,RD")
    assert code == 1 and "move 2 RD is not possible in this position" in text


def test_levelstar6_has_an_89_move_win(run_cli):
    """One move fewer than the reference's EXPECT_EQ(90): every move legal, the level won."""
    assert len(STAR6_89.split(",")) == 89
    code, text, err = run_cli("snakebird", "replay", corpus("snakebird", "levels", "levelstar6.txt"),
                              "--moves", STAR6_89)
    assert code == 0, err
    assert text.rstrip().endswith("levelstar6: 89 of 89 moves played; every snake has left: the level is won.")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(PUBLISHED_MOVES) - {"levelstar1", "levelstar3", "levelstar6"}))
def test_every_corpus_level_solves_to_the_published_length(run_cli, tmp_path, name):
    """Every level but the three largest (those need hours; see the README's figures)."""
    import json

    out = tmp_path / f"{name}.json"
    code, _, err = run_cli("snakebird", "solve", corpus("snakebird", "levels", f"{name}.txt"),
                           "--workdir", tmp_path, "--out", out)
    assert code == 0, err
    res = json.loads(out.read_text())
    assert res["moves"] == PUBLISHED_MOVES[name] and res["replay_won"]
    want = public_layers().get(name)
    if want:
        assert res["layers"][1:len(want) + 1] == want
