"""Balda search: alpha-beta against plain minimax and an independent Python negamax, pruning, passes,
self-play determinism."""

from __future__ import annotations

import json

import numpy as np
from balda_support import (
    EN,
    RU,
    VARIANTS,
    python_negamax,
    russian_engine,
    selfplay_positions,
    small_dictionary,
)

from puzzlelab.balda.board import Board, from_start_word
from puzzlelab.balda.engine import Engine, SearchOptions


def test_alphabeta_equals_minimax_and_python_negamax_to_the_end():
    """3x3 games solved to the end (passes and a full board included)."""
    d = small_dictionary()
    e = Engine(d)
    # (start word, depths compared, deepest depth also checked by the Python negamax); depth 7 reaches
    # the end of every 3x3 game (6 empty cells, passes included)
    cases = [("bob", (1, 2, 3, 4, 7), 3), ("tsa", (1, 2, 3, 4), 3), ("cat", (1, 2, 3, 4), 2)]
    for start, depths, python_depth in cases:
        board = from_start_word(start, EN)
        for depth in depths:
            values = {name: e.search(board, depth, opts).value for name, opts in VARIANTS.items()}
            assert len(set(values.values())) == 1, (start, depth, values)
            if depth <= python_depth:
                assert values["minimax"] == python_negamax(board, set(d.words), EN.letters, depth)


def test_alphabeta_equals_minimax_on_real_positions():
    e = russian_engine()
    for position in [from_start_word("сок", RU)] + selfplay_positions(e, "балда", 16, seed=2)[10::5]:
        for depth in (1, 2, 3):
            values = {name: e.search(position, depth, opts).value for name, opts in VARIANTS.items()}
            assert len(set(values.values())) == 1, (position.rows(RU), depth, values)
        minimax = e.search(position, 3, VARIANTS["minimax"])
        ordered = e.search(position, 3, VARIANTS["ordered"])
        assert ordered.nodes < minimax.nodes


def test_pruning_keeps_the_longest_word_and_all_words_in_the_endgame():
    e = russian_engine()
    board = from_start_word("балда", RU)
    pruned = e.search(board, 1, SearchOptions(prune=True))
    assert pruned.value == e.search(board, 1).value
    late = selfplay_positions(e, "балда", 30, seed=4)[-1]
    assert late.empty <= 6
    exact = e.search(late, 4, VARIANTS["ordered"])
    assert e.search(late, 4, SearchOptions(prune=True, endgame=6)).value == exact.value


def test_pass_when_no_word_fits():
    d = small_dictionary()
    e = Engine(d)
    zzz = np.array([-1, -1, -1, 25, 25, 25, -1, -1, -1], dtype=np.int8)  # no word of the list fits
    board = Board(3, zzz, ["zzz"])
    r = e.search(board, 3)
    assert r.move is None and r.value == 0 and e.moves(board) == []


def test_selfplay_is_deterministic_for_a_seed(run_cli, tmp_path):
    d = small_dictionary()
    words = tmp_path / "w.txt"
    words.write_text("\n".join(d.words) + "\n", encoding="utf-8")
    outs = []
    for _ in range(2):
        code, out, err = run_cli("balda", "play", "--start", "cat", "--depth-a", "3", "--depth-b", "1",
                                 "--seed", "7", "--dict", words, "--json")
        assert code == 0, err
        game = json.loads(out)
        for m in game["moves"]:
            m.pop("time_s")
            m.pop("cpu_time_s")
        outs.append(game)
    assert outs[0] == outs[1]
    game = outs[0]
    assert game["score"]["a"] == sum(len(m["word"]) for m in game["moves"] if m["player"] == "a" and not m["pass"])
    assert game["winner"] in ("a", "b", "draw")
    played = [m["word"] for m in game["moves"] if not m["pass"]]
    assert len(played) == len(set(played)) and "cat" not in played


def test_node_limit_stops_reproducibly_with_a_searched_move():
    e = russian_engine()
    board = selfplay_positions(e, "балда", 6, seed=2)[-1]
    exact = e.search(board, 3, SearchOptions())
    assert exact.complete
    enough = e.search(board, 3, SearchOptions(node_limit=exact.nodes))  # a budget that suffices changes nothing
    assert enough.complete and (enough.value, enough.nodes, enough.move) == (exact.value, exact.nodes, exact.move)
    limit = exact.nodes // 3
    stopped = [e.search(board, 3, SearchOptions(node_limit=limit)) for _ in range(2)]
    assert not stopped[0].complete and stopped[0].nodes == limit
    assert (stopped[0].move, stopped[0].value) == (stopped[1].move, stopped[1].value)
    assert stopped[0].value <= exact.value  # the best of the root moves searched to the end
    legal = {(m.cell, m.letter, m.word) for m in e.moves(board)}
    assert (stopped[0].move.cell, stopped[0].move.letter, stopped[0].move.word) in legal
