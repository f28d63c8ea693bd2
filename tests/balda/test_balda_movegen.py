"""Balda move generation against an independent brute-force counter; incremental = full lists; the trie."""

from __future__ import annotations

import pytest
from balda_support import (
    EN,
    RU,
    brute_moves,
    check_paths,
    child_of,
    english_engine,
    russian_engine,
    selfplay_positions,
    small_dictionary,
    triples,
)

from puzzlelab.balda.board import from_start_word
from puzzlelab.balda.engine import Engine


def test_small_moves_match_brute_force_with_valid_paths():
    d = small_dictionary()
    e = Engine(d)
    words = set(d.words)
    for start in ("cat", "rob", "tab"):
        board = from_start_word(start, EN)
        for position in [board] + selfplay_positions(e, start, 4, seed=3):
            moves = e.moves(position)
            assert triples(e, moves) == brute_moves(position, words, EN.letters)
            check_paths(e, position, moves)
            assert sorted((m.cell, m.letter, m.word) for m in moves) == e.forward_moves(position)


@pytest.mark.parametrize("lang, start", [("ru", "балда"), ("ru", "парус"), ("ru", "корова"), ("ru", "самолет"),
                                         ("en", "table"), ("en", "garden")])
def test_real_start_words_match_brute_force(lang, start):
    e = russian_engine() if lang == "ru" else english_engine()
    d = e.dictionary
    board = from_start_word(start, d.alphabet)
    expected = brute_moves(board, set(d.words), d.alphabet.letters)
    moves = e.moves(board)
    assert len(moves) == len(expected) > 0
    assert triples(e, moves) == expected
    check_paths(e, board, moves)
    # the best first move at depth 1 is a longest word of the brute-force list
    longest = max(len(w) for _, _, w in expected)
    best = e.search(board, 1)
    assert best.value == longest and best.move.length == longest
    assert (best.move.cell, d.alphabet.letters[best.move.letter], d.words[best.move.word]) in expected


def test_known_first_move_count_balda():
    """'балда' on 5x5 with the Harrix list: the exhaustive counter's figure, pinned."""
    e = russian_engine()
    assert len(e.moves(from_start_word("балда", RU))) == 144


def test_midgame_positions_match_brute_force_and_incremental():
    from puzzlelab.balda.experiments import incremental_moves

    e = russian_engine()
    d = e.dictionary
    positions = selfplay_positions(e, "ручка", 12, seed=5)
    for position in positions[3::4]:
        moves = e.moves(position)
        assert triples(e, moves) == brute_moves(position, set(d.words), d.alphabet.letters)
    # incremental pages = full regeneration, after every move of the game
    for position in positions:
        moves = e.moves(position, paths=False)
        if not moves:
            continue
        move = max(moves, key=lambda m: (m.length, -m.cell))
        child = child_of(position, move, d)
        assert incremental_moves(e, position, move) == sorted(
            (m.cell, m.letter, m.word) for m in e.moves(child, paths=False))


def test_trie_spells_every_word_each_way():
    from puzzlelab.balda.trie import child

    d = small_dictionary()
    e = Engine(d)
    t = e.trie
    for i, w in enumerate(d.words):
        codes = list(EN.encode(w))
        for k in range(len(w)):
            node = 0
            for s in codes[k:] + [e.sep] + codes[:k][::-1]:
                node = child(t.info, node, s)
                assert node >= 0
            assert t.term[node] == i
    assert child(t.info, 0, EN.letters.index("z")) == -1
