"""Snakebird: level parsing and its errors, the rules move by move, canonical states, optimal
solutions and per-depth counts against the reference solver's published numbers."""

from __future__ import annotations

import csv
import textwrap
from collections import defaultdict

import numpy as np
import pytest

from conftest import REPO, corpus
from puzzlelab.lab.errors import InputError
from puzzlelab.snakebird.level import parse_level

DATA = REPO / "data" / "snakebird"

# Optimal move counts as published with the reference solver (jsnell/snakebird-solver, MIT: the
# EXPECT_EQ line of each src/snakebird/levelNN.cc), for every level of the shared corpus.
PUBLISHED_MOVES = {
    "level00": 29, "level01": 16, "level02": 25, "level03": 27, "level04": 30, "level05": 24, "level06": 36,
    "level07": 43, "level08": 29, "level09": 37, "level10": 33, "level11": 35, "level12": 52, "level13": 44,
    "level14": 24, "level15": 34, "level16": 65, "level17": 68, "level18": 35, "level19": 47, "level20": 50,
    "level21": 39, "level22": 45, "level23": 53, "level24": 26, "level25": 35, "level26": 35, "level27": 49,
    "level28": 49, "level29": 45, "level30": 15, "level31": 8, "level32": 21, "level33": 42, "level34": 17,
    "level35": 29, "level36": 29, "level37": 16, "level38": 28, "level39": 53, "level40": 51, "level41": 34,
    "level42": 42, "level43": 36, "level44": 36, "level45": 77, "levelstar1": 75, "levelstar2": 60,
    "levelstar3": 63, "levelstar4": 44, "levelstar5": 69, "levelstar6": 90, "levelvoid": 52,
}
# levelstar6's 90 is not its optimum: our search found the 89-move win below (2.2 h, README), and a
# driver built against the reference's own headers replayed it through its move generator to a win.
STAR6_89 = ("BU,BL,BL,BL,RU,GU,RR,GR,RR,BU,GU,RR,RU,RU,BL,BL,BL,BD,BR,GL,BR,BR,BR,BR,"
            "BR,RR,BR,BU,BL,RR,BU,RU,RU,GU,BL,BU,BU,GU,BL,BU,BL,BL,GR,GR,BL,BL,GU,BD,"
            "RL,RU,BR,GR,BR,BR,BR,RU,RR,GR,GU,GU,RR,RU,RU,RR,RU,GL,RR,RR,RU,RU,RL,RU,"
            "RU,RL,RL,GL,GU,GL,GL,RL,RL,BU,BR,RU,RU,GU,RR,BR,RU")
# Levels whose whole search stays small (well under a second each once compiled).
SMALL = ["level00", "level01", "level02", "level03", "level04", "level05", "level06", "level10", "level12",
         "level14", "level22", "level30", "level31", "level32", "level34", "level37"]


def level_of(text: str, name: str = "t"):
    return parse_level(textwrap.dedent(text).strip("\n") + "\n", path=f"{name}.txt")


def domain_of(text: str):
    from puzzlelab.snakebird.domain import SnakebirdDomain

    return SnakebirdDomain(level_of(text))


def memory_bfs(domain, max_depth: int = 200):
    """A plain in-memory layer BFS (numpy sort + set difference): an independent check of the
    engine's counts. Returns (goal depth or None, new states per depth)."""
    w = domain.width
    vt = np.dtype((np.void, w))
    visited = domain.start.view(vt).ravel().copy()
    frontier = domain.start
    layers = [1]
    for depth in range(1, max_depth + 1):
        children, _, _ = domain.expand(frontier)
        won = bool(domain.is_goal(children).any())
        uniq = np.unique(children.view(vt).ravel())
        new = uniq[~np.isin(uniq, visited)]
        layers.append(int(len(new)))
        if won:
            return depth, layers
        if not len(new):
            return None, layers
        visited = np.union1d(visited, new)
        frontier = np.ascontiguousarray(new).view(np.uint8).reshape(-1, w)
    return None, layers


def public_layers() -> dict[str, list[int]]:
    rows = defaultdict(list)
    with open(corpus("snakebird", "public_layers.csv"), newline="") as fh:
        for r in csv.DictReader(fh):
            assert int(r["distance"]) == len(rows[r["level"]]) + 1
            rows[r["level"]].append(int(r["new_unique"]))
    return dict(rows)


# ------------------------------------------------------------------------------------------ parser


def test_parse_project_level():
    lv = parse_level((DATA / "crate.txt").read_text(), path="crate.txt")
    assert (lv.height, lv.width) == (8, 12)
    assert lv.snake_letters == ["R"]
    assert [lv.rc(c) for c in lv.snakes[0]] == [(5, 3), (5, 2), (5, 1)]
    assert [lv.rc(c) for c in lv.fruit] == [(5, 9)]
    assert lv.gadgets == [[5 * 12 + 5]]
    assert lv.rc(lv.exit) == (2, 7)
    assert lv.snake_max_len == 4  # longest snake 3 + 1 fruit
    # §9.4: 2*(4-1) shape bits + 7 head bits + 3 length bits, 1 fruit bit, 7 gadget bits = 24 bits
    assert (lv.state_bits, lv.state_bytes) == (24, 3)


def test_snake_rebuilt_through_turns_and_metadata():
    lv = level_of("""
        ; name: hook
        ; snake_max_len: 9
        ; moves: 7
        .......
        .   * .
        . v<  .
        . R^  .
        . 0^  .
        .......
    """)
    assert lv.name == "hook" and lv.snake_max_len == 9 and lv.expected_moves == 7
    assert [lv.rc(c) for c in lv.snakes[0]] == [(3, 2), (2, 2), (2, 3), (3, 3), (4, 3)]
    assert lv.map_line == 4


def test_corpus_levels_parse_with_published_state_sizes():
    folder = corpus("snakebird", "levels")
    files = sorted(folder.glob("*.txt"))
    assert len(files) == 53
    sizes = {}
    for f in files:
        lv = parse_level(f.read_text(), path=str(f))
        sizes[lv.name] = lv.state_bytes
        # every body cell reached exactly once, gadgets at most 8 cells
        cells = [c for s in lv.snakes for c in s]
        assert len(cells) == len(set(cells))
    # §9.4: 3 bytes for these levels, 12 for star2, 8-9 for the hard star levels
    assert {n for n, b in sizes.items() if b == 3} == {
        "level00", "level01", "level02", "level03", "level04", "level05", "level06", "level10", "level22",
        "level30", "level31", "level33", "level35"}
    assert sizes["levelstar2"] == 12 and max(sizes.values()) == 12
    assert sizes["levelstar1"] == 8 and sizes["levelstar3"] == 8 and sizes["levelstar6"] == 9


def test_disconnected_gadget_is_one_object():
    lv = parse_level(corpus("snakebird", "levels", "levelstar4.txt").read_text(), path="levelstar4.txt")
    assert [len(g) for g in lv.gadgets] == [2, 2, 2]
    assert lv.gadget_shape(0) == (0, 4)  # two blocks four columns apart, moving together


@pytest.mark.parametrize("text, line, message", [
    ("....\n.R<.\n....\n", 1, "no exit"),
    ("......\n.*R<*.\n......\n", 2, "2 exits"),
    ("......\n.*R< .\n.....\n", 3, "ragged map: row 2 is 5 characters wide"),
    ("......\n.*R<  \n......\n", 2, "border is open"),
    ("......\n.*R< .\n.  > .\n......\n", 3, "cannot be reached from any head"),
    ("......\n.*R<1.\n......\n", 2, "digit 1 is used but 0 is not"),
    ("......\n.*R<x.\n......\n", 2, "unknown map symbol 'x'"),
    ("......\n.*   .\n......\n", 1, "no snake"),
    ("......\n.*R<T.\n......\n", 2, "1 teleporter cells"),
    ("......\n.*R<T.\n.TT  .\n......\n", 3, "3 teleporter cells"),
    ("; snake_max_len: 2\n......\n.*R<O.\n......\n", 1, "snake_max_len 2 is too small"),
    ("; moves: many\n......\n.*R< .\n......\n", 1, "'moves' must be an integer"),
    ("; oops\n......\n.*R< .\n......\n", 1, "metadata line must be"),
    ("; name: x\n", 2, "no map rows"),
    (".........\n.*R<    .\n.0000 00.\n.000    .\n.........\n", 4, "gadget 0 has 9 cells"),
])
def test_bad_levels_are_rejected_with_path_and_line(text, line, message):
    with pytest.raises(InputError) as err:
        parse_level(text, path="bad.txt")
    assert str(err.value).startswith(f"bad.txt:{line}: ")
    assert message in str(err.value)


def test_cli_bad_level_exit_2(run_cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("; name: bad\n......\n.*R< .\n.....\n")
    code, out, err = run_cli("snakebird", "show", bad)
    assert code == 2 and out == ""
    assert err.strip() == f"{bad}:4: ragged map: row 2 is 5 characters wide, row 0 is 6 (trailing spaces are part of the map)"
    code, _, err = run_cli("snakebird", "solve", tmp_path / "missing.txt")
    assert code == 2 and "missing.txt: no such level file" in err
    assert "Traceback" not in err


# ------------------------------------------------------------------------------------------- rules


def after(domain_text: str, *moves: str):
    """Draw the position after the moves (letters + U/R/D/L), or None if the last move is impossible."""
    from puzzlelab.snakebird.play import draw, parse_moves, replay

    dom = domain_of(domain_text)
    positions, error = replay(dom, parse_moves(",".join(moves), dom.level.snake_letters))
    if error:
        return None
    return draw(dom, positions[-1])


def picture(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def test_eating_grows_at_the_head():
    level = """
        .......
        .  *  .
        .     .
        .>RO  .
        .......
    """
    assert after(level, "RR") == picture("""
        .......
        .  *  .
        .     .
        .>>R  .
        .......
    """)


def test_head_never_steps_onto_its_own_tail():
    level = """
        ......
        .  * .
        . >v .
        . R< .
        ......
    """
    assert after(level, "RU") is None  # the tail cell would be freed, but stepping there is not allowed
    assert after(level, "RL") is not None


def test_push_chain_and_blocked_by_fruit_or_wall():
    level = """
        ..........
        .      * .
        .>R01    .
        ..........
    """
    assert after(level, "RR") == picture("""
        ..........
        .      * .
        . >R01   .
        ..........
    """)
    assert after(level, "RR", "RR", "RR", "RR") == picture("""
        ..........
        .      * .
        .    >R01.
        ..........
    """)
    assert after(level, "RR", "RR", "RR", "RR", "RR") is None  # the chain would enter the wall
    assert after(level.replace("01    ", "01O   "), "RR") is None  # fruit blocks pushes


def test_push_may_fill_the_movers_tail_cell():
    level = """
        .......
        .   * .
        . R<  .
        . 0^  .
        . >^  .
        .......
    """
    assert after(level, "RD") == picture("""
        .......
        .   * .
        . v<  .
        . R^  .
        . 0^  .
        .......
    """)


def test_snake_cannot_push_itself_through_an_object():
    level = """
        .......
        .    *.
        . v0R .
        . v0^ .
        . >>^ .
        .......
    """
    assert after(level, "RL") is None
    assert after(level, "RU") is not None


def test_falling_onto_spikes_or_into_water_kills_and_spikes_hold_gadgets():
    level = """
        ..........
        .       *.
        .>R  0   .
        ...##.....
        ~~~~~~~~~~
    """
    assert after(level, "RR") is not None  # the tail still rests on ground
    assert after(level, "RR", "RR") is None  # both cells over spikes: the snake falls onto them
    spikes = """
        ..........
        .       *.
        .>R0     .
        ...##.....
        ~~~~~~~~~~
    """
    # the gadget is pushed over the spikes and stays there: spikes hold gadgets up
    assert after(spikes, "RR") == picture("""
        ..........
        .       *.
        . >R0    .
        ...##.....
        ~~~~~~~~~~
    """)
    water = """
        .........
        .      *.
        .>R0    .
        ....~....
        ~~~~~~~~~
    """
    assert after(water, "RR") == picture("""
        .........
        .      *.
        . >R    .
        ....~....
        ~~~~~~~~~
    """)  # the gadget fell into the water and is gone


def test_snake_falls_until_supported():
    level = """
        ........
        .   *  .
        .>R    .
        ..  ....
        .      .
        ........
    """
    assert after(level, "RR") == picture("""
        ........
        .   *  .
        .      .
        ..  ....
        . >R   .
        ........
    """)


def test_teleporter_moves_the_whole_snake():
    level = """
        ..........
        .  *     .
        .  T     .
        . ...    .
        .>R  T   .
        ..........
    """
    assert after(level, "RR", "RR", "RR") == picture("""
        ..........
        .  *     .
        . >R     .
        . ...    .
        .    T   .
        ..........
    """)


def test_exit_opens_only_when_all_fruit_is_eaten():
    from puzzlelab.snakebird.play import is_won, parse_moves, replay

    level = """
        ........
        .      .
        .>R*  O.
        ........
    """
    dom = domain_of(level)
    positions, error = replay(dom, parse_moves("RR", ["R"]))
    assert error is None and not is_won(positions[-1])  # head on the closed exit: nothing happens
    moves = "RR,RR,RR,RR,RU,RL,RL,RL"
    positions, error = replay(dom, parse_moves(moves, ["R"]))
    assert error is None and is_won(positions[-1])
    assert [bool(is_won(p)) for p in positions].index(True) == 8


def test_canonical_state_ignores_which_snake_is_which():
    from puzzlelab.snakebird.domain import SnakebirdDomain
    from puzzlelab.snakebird.level import load_level

    dom = SnakebirdDomain(load_level(DATA / "two-birds.txt"))
    st = dom.unpack(dom.start_row)
    assert np.array_equal(dom.pack(st), dom.start_row)  # pack/unpack round trip
    swapped = st.copy()
    swapped.cells[[0, 1]] = swapped.cells[[1, 0]]
    swapped.slen[[0, 1]] = swapped.slen[[1, 0]]
    dom.canonicalize(swapped)
    assert np.array_equal(dom.pack(swapped), dom.start_row)


def test_expand_is_independent_of_thread_count(monkeypatch):
    import numba

    from puzzlelab.bfs.keys import row_hash8
    from puzzlelab.snakebird import domain as sbdomain
    from puzzlelab.snakebird.domain import SnakebirdDomain
    from puzzlelab.snakebird.level import load_level

    dom = SnakebirdDomain(load_level(DATA / "two-birds.txt"))
    frontier = dom.start
    for _ in range(6):
        children, _, _ = dom.expand(frontier)
        frontier = np.unique(children, axis=0)
    monkeypatch.setattr(sbdomain, "PIECE", 37)  # many pieces, shared out over the threads
    results = []
    saved = numba.get_num_threads()
    try:
        for threads in (1, numba.config.NUMBA_NUM_THREADS, 1):
            numba.set_num_threads(threads)
            results.append(dom.expand(frontier))
            # expand_into: the same children in the same order, each with its parent's hash byte
            phash = row_hash8(frontier)
            out = np.full((frontier.shape[0] * dom.max_children, dom.width), 255, dtype=np.uint8)
            tags = np.zeros(out.shape[0], dtype=np.uint8)
            m = dom.expand_into(frontier, phash, out, tags)
            children, parent, _ = results[-1]
            assert m == children.shape[0]
            assert np.array_equal(out[:m], children) and np.array_equal(tags[:m], phash[parent])
    finally:
        numba.set_num_threads(saved)
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)
    assert len(results[0][0]) > 100 and frontier.shape[0] > 2 * 37


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
