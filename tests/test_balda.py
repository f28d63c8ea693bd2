"""Balda: dictionaries, boards, move generation against an independent brute-force counter,
alpha-beta against plain minimax (and an independent Python negamax), self-play determinism, CLI errors."""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest

from conftest import corpus
from puzzlelab.balda.alphabet import alphabet
from puzzlelab.balda.board import Board, from_start_word, neighbours, read_board
from puzzlelab.balda.dictionary import Dictionary, normalise_lines, opencorpora_nouns, read_word_list
from puzzlelab.balda.engine import Engine, SearchOptions
from puzzlelab.balda.game import play_game
from puzzlelab.lab.errors import InputError

EN = alphabet("en")
RU = alphabet("ru")

# A small English list for the tests that need no corpus (3x3 and 4x4 boards).
SMALL_WORDS = sorted(set("""
cat act tac at ta a cats scat cast acts arc car cart rat art tar star rats arts tsar bat tab bats stab
tabs bar bra brat crab cab scab oat oats taco coat coats boat boats boa cot cots tot toast coast roast
rot sort orc torc roc cob cobs bob sob orb orbs bro brow row tow crow crows owl cow bow bows sow
""".split()))


def small_dictionary() -> Dictionary:
    wl = normalise_lines(SMALL_WORDS, EN)
    return Dictionary(wl.words, EN, "small")


# --- an independent brute-force move counter ------------------------------------------------------

def brute_moves(board: Board, words: set[str], letters: str) -> set[tuple[int, str, str]]:
    """Every (cell, letter, word): put each letter on each empty cell next to a letter, then follow
    every simple path from every cell, pruned by word prefixes, keeping the words through that cell."""
    n = board.size
    prefixes = prefix_set(frozenset(words))
    grid = [letters[c] if c >= 0 else None for c in board.cells]
    played = set(board.played)

    def adj(v):
        r, c = divmod(v, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n:
                yield rr * n + cc

    found = set()
    for x in range(n * n):
        if grid[x] is not None or not any(grid[u] is not None for u in adj(x)):
            continue
        for letter in letters:
            grid[x] = letter

            def walk(v, text, seen):
                if text not in prefixes:
                    return
                if x in seen and text in words and text not in played:
                    found.add((x, letter, text))
                for u in adj(v):
                    if u not in seen and grid[u] is not None:
                        walk(u, text + grid[u], seen | {u})

            for s in range(n * n):
                if grid[s] is not None:
                    walk(s, grid[s], {s})
            grid[x] = None
    return found


@lru_cache(maxsize=4)
def prefix_set(words: frozenset) -> frozenset:
    return frozenset(w[:i] for w in words for i in range(1, len(w) + 1))


def triples(engine: Engine, moves) -> set[tuple[int, str, str]]:
    d = engine.dictionary
    return {(m.cell, d.alphabet.letters[m.letter], d.words[m.word]) for m in moves}


def check_paths(engine: Engine, board: Board, moves) -> None:
    """Each path: distinct cells, orthogonal steps, through the move's cell, spells the word."""
    d = engine.dictionary
    nb = neighbours(board.size)
    for m in moves:
        word = d.words[m.word]
        assert len(m.path) == len(word) and len(set(m.path)) == len(m.path)
        assert m.cell in m.path
        for a, b in zip(m.path, m.path[1:]):
            assert b in nb[a]
        spelled = "".join(d.alphabet.letters[m.letter] if p == m.cell else d.alphabet.letters[board.cells[p]]
                          for p in m.path)
        assert spelled == word
        assert all(board.cells[p] >= 0 for p in m.path if p != m.cell)


def child_of(board: Board, move, dictionary) -> Board:
    b = board.copy()
    b.cells[move.cell] = move.letter
    b.played.append(dictionary.words[move.word])
    return b


def selfplay_positions(engine: Engine, start: str, plies: int, seed: int) -> list[Board]:
    positions = []
    board = from_start_word(start, engine.dictionary.alphabet)
    play_game(engine, board, (1, 1), (SearchOptions(), SearchOptions()), seed=seed, positions=positions)
    return [p for p, _ in positions[:plies]]


# --- dictionaries ----------------------------------------------------------------------------------

def test_normalise_folds_yo_drops_short_multiword_foreign_and_duplicates():
    wl = normalise_lines(["Ёлка", "елка", "агар-агар", "я", "кот", "", "house", "  Кот "], RU)
    assert wl.words == ["елка", "кот"]
    assert wl.stats == {"entries": 7, "duplicates": 2, "dropped_short": 1, "dropped_multiword": 1,
                        "dropped_other_letters": 1, "words": 2}


def test_word_list_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "digits.txt"
    bad.write_text("кот\nслон\nкот2\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_word_list(bad)
    assert str(err.value).startswith(f"{bad}:3: unexpected character '2'")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("кот\n".encode() + "caf\xe9\n".encode("latin-1"))
    with pytest.raises(InputError) as err:
        read_word_list(latin1)
    assert str(err.value).startswith(f"{latin1}:2: not UTF-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="no usable word"):
        read_word_list(empty)
    english = tmp_path / "en.txt"
    english.write_text("cat\ndog\nмышь\n", encoding="utf-8")
    with pytest.raises(InputError, match="--lang en"):
        read_word_list(english, "ru")
    assert read_word_list(english).words == ["cat", "dog"]  # the alphabet is guessed


def test_opencorpora_nouns_keep_common_nouns_and_drop_names():
    """A slice of the lexicon (lemmas starting with 'сан'): the grammeme filter at work."""
    wl = opencorpora_nouns(prefix="сан")
    words = set(wl.words)
    assert {"сани", "санаторий", "сантехник", "санки"} <= words  # сани, санки: pluralia tantum
    assert "саня" not in words  # a first name (Name)
    assert "санкт-петербург" not in words and "санкт" not in words  # place name, not а–я only
    assert all(set(w) <= set(RU.letters) and len(w) >= 2 for w in words)
    assert wl.words == sorted(words)


# --- boards ----------------------------------------------------------------------------------------

def test_start_word_in_middle_row():
    b = from_start_word("балда", RU)
    assert b.rows(RU) == [".....", ".....", "балда", ".....", "....."]
    assert b.played == ["балда"] and b.empty == 20
    b6 = from_start_word("ёжикам", RU)
    assert b6.rows(RU)[3] == "ежикам" and b6.played == ["ежикам"]


@pytest.mark.parametrize("text, message", [
    ("...\ncat\n..\n", ":3: row has 2 cells, expected 3"),
    ("...\nc1t\n...\n", ":2: column 2: '1' is not a letter"),
    ("c..\n...\n..t\n", ":1: the letters are not one orthogonally connected group"),
    ("...\n...\n...\n", ":1: the board has no letter"),
    ("..\n..\n", "board size 2 is not supported"),
])
def test_bad_boards(tmp_path, text, message):
    path = tmp_path / "board.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_board(path, EN)
    assert message in str(err.value) and str(err.value).startswith(str(path))


def test_board_file_with_played_words(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("...\ncat\n.s.\n\ncat\ncats\n", encoding="utf-8")
    b = read_board(path, EN)
    assert b.size == 3 and b.played == ["cat", "cats"] and b.filled == 4


# --- move generation -------------------------------------------------------------------------------

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


def _corpus_engine(name: str, lang: str) -> Engine:
    wl = read_word_list(corpus("balda", name), lang)
    return Engine(Dictionary(wl.words, alphabet(lang), name))


@lru_cache(maxsize=2)
def russian_engine() -> Engine:
    return _corpus_engine("russian_nouns_harrix.txt", "ru")


@lru_cache(maxsize=2)
def english_engine() -> Engine:
    return _corpus_engine("english_nouns_wordnet30_common.txt", "en")


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
    from puzzlelab.balda.bench import incremental_moves

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


# --- game-tree search ------------------------------------------------------------------------------

def python_negamax(board: Board, words: set[str], letters: str, depth: int, passes: int = 0) -> int:
    """Plain negamax over the brute-force move list (independent of the engine)."""
    if depth == 0 or board.empty == 0:
        return 0
    moves = brute_moves(board, words, letters)
    if not moves:
        return 0 if passes else -python_negamax(board, words, letters, depth - 1, passes + 1)
    best = -10**9
    for cell, letter, word in moves:
        child = board.copy()
        child.cells[cell] = letters.index(letter)
        child.played.append(word)
        best = max(best, len(word) - python_negamax(child, words, letters, depth - 1, 0))
    return best


VARIANTS = {
    "minimax": SearchOptions(alphabeta=False, order=False),
    "alphabeta": SearchOptions(order=False),
    "ordered": SearchOptions(),
    "ordered_full_regen": SearchOptions(incremental=False),
    "ordered_tt": SearchOptions(tt=True),
}


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


# --- command line ----------------------------------------------------------------------------------

def test_cli_moves_json_keys_and_counts(run_cli, tmp_path):
    d = small_dictionary()
    words = tmp_path / "w.txt"
    words.write_text("\n".join(d.words) + "\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--start", "cat", "--dict", words, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == {"count", "moves"}
    assert result["count"] == len(result["moves"]) == len(brute_moves(from_start_word("cat", EN), set(d.words),
                                                                      EN.letters))
    assert all(set(m) == {"cell", "letter", "word", "path"} for m in result["moves"])
    code, out, err = run_cli("balda", "best", "--start", "cat", "--dict", words, "--depth", "1", "--json")
    assert code == 0, err
    best = json.loads(out)
    assert best["value"] == max(len(m["word"]) for m in result["moves"]) == len(best["move"]["word"])


def test_cli_errors_exit_2_with_location(run_cli, tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("cat\nca t2\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--start", "cat", "--dict", words)
    assert code == 2 and err.startswith(f"{words}:2: unexpected character '2'") and "Traceback" not in err
    good = tmp_path / "g.txt"
    good.write_text("cat\ncats\n", encoding="utf-8")
    board = tmp_path / "b.txt"
    board.write_text("....\ncat.\n....\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--board", board, "--dict", good)
    assert code == 2 and err.startswith(f"{board}:1: row has 4 cells, expected 3")
    code, out, err = run_cli("balda", "moves", "--start", "dogs", "--size", "5", "--dict", good)
    assert code == 2 and "a 5x5 board needs 5" in err
    code, out, err = run_cli("balda", "moves", "--start", "cat", "--dict", tmp_path / "missing.txt")
    assert code == 2 and "no such word list" in err


def test_cli_dictionary_build_and_stats(run_cli, tmp_path):
    words = tmp_path / "nouns.txt"
    code, out, err = run_cli("balda", "dictionary", "--prefix", "сан", "--prefix", "кот", "--words", words, "--json")
    assert code == 0, err
    built = json.loads(out)
    listed = words.read_text(encoding="utf-8").split()
    assert built["stats"]["words"] == len(listed) and listed == sorted(listed)
    assert {"сани", "кот", "котенок"} <= set(listed) and "саня" not in listed
    assert sum(built["lengths"].values()) == len(listed)
    other = tmp_path / "other.txt"
    other.write_text("кот\nкотёнок\nслон\nсан-марино\n", encoding="utf-8")
    code, out, err = run_cli("balda", "dict-stats", f"builtin={words}", f"other={other}", "--json")
    assert code == 0, err
    lists = json.loads(out)["lists"]
    assert lists[1]["stats"]["words"] == 3 and lists[1]["stats"]["dropped_multiword"] == 1
    assert lists[1]["common_with_first"] == 2  # кот, котенок


def test_board_file_played_words_are_not_moves(run_cli, tmp_path):
    d = small_dictionary()
    words = tmp_path / "w.txt"
    words.write_text("\n".join(d.words) + "\n", encoding="utf-8")
    board = tmp_path / "b.txt"
    board.write_text("...\ncat\n...\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--board", board, "--dict", words, "--json")
    assert code == 0, err
    before = {m["word"] for m in json.loads(out)["moves"]}
    assert "cat" in before or "cats" in before
    board.write_text("...\ncat\n...\n\ncat\ncats\nact\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--board", board, "--dict", words, "--json")
    after = {m["word"] for m in json.loads(out)["moves"]}
    assert after == before - {"cat", "cats", "act"}
