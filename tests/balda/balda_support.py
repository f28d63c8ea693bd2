"""Shared by the Balda tests: a small English list, an independent brute-force move counter and
Python negamax, and engines over the shared corpora's word lists."""

from __future__ import annotations

from functools import lru_cache

from conftest import corpus
from puzzlelab.balda.alphabet import alphabet
from puzzlelab.balda.board import Board, from_start_word, neighbours
from puzzlelab.balda.dictionary import Dictionary, normalise_lines, read_word_list
from puzzlelab.balda.engine import Engine, SearchOptions
from puzzlelab.balda.game import play_game

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

            def walk(v, text, seen, x=x, letter=letter):
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


def _corpus_engine(name: str, lang: str) -> Engine:
    wl = read_word_list(corpus("balda", name), lang)
    return Engine(Dictionary(wl.words, alphabet(lang), name))


@lru_cache(maxsize=2)
def russian_engine() -> Engine:
    return _corpus_engine("russian_nouns_harrix.txt", "ru")


@lru_cache(maxsize=2)
def english_engine() -> Engine:
    return _corpus_engine("english_nouns_wordnet30_common.txt", "en")


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
