"""The engine: a dictionary with its tries and work buffers, and the operations the CLI and the
experiments use — list moves (separator trie or forward-trie baseline) and search a position."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..lab.errors import InputError
from .board import Board, neighbours
from .dictionary import Dictionary
from .movegen import PATH_WIDTH, generate_forward, generate_full
from .search import GENERATIONS, NODES, negamax
from .trie import forward_trie, separator_trie

FIND_CAP = 1 << 17
STACK_CAP = 1 << 21
MAX_PLY = 64
TT_BITS = 20  # 1M entries, 14 MB


@dataclass(frozen=True)
class Move:
    cell: int
    letter: int
    word: int
    length: int
    path: tuple[int, ...] = ()


@dataclass(frozen=True)
class SearchOptions:
    """How `best` searches: alpha-beta or plain minimax, ordering, long-word pruning, incremental pages."""

    alphabeta: bool = True
    order: bool = True
    prune: bool = False
    slack: int = 0  # pruning keeps, per cell, the words at most this much shorter than its longest
    endgame: int = 6  # pruning stops when this many empty cells or fewer remain
    incremental: bool = True
    tt: bool = False  # transposition table (alpha-beta only)


@dataclass
class SearchResult:
    move: Move | None  # None: the side to move must pass
    value: int
    nodes: int
    generations: int
    time_s: float  # wall clock
    cpu_time_s: float  # CPU time of this thread (what the search cost on a shared machine)
    root_moves: int


class Engine:
    """One dictionary's tries, Zobrist keys, transposition table and reusable buffers (not thread-safe)."""

    def __init__(self, dictionary: Dictionary):
        self.dictionary = dictionary
        self.sep = dictionary.alphabet.size
        self.trie = separator_trie(dictionary.codes, dictionary.lengths, self.sep)
        self._forward = None
        self.lengths = dictionary.lengths.astype(np.int32)
        n_words = len(dictionary)
        self.stamp = np.zeros(n_words * self.sep, dtype=np.int32)
        self.epoch = np.zeros(1, dtype=np.int64)
        self.f_cell = np.empty(FIND_CAP, dtype=np.int16)
        self.f_letter = np.empty(FIND_CAP, dtype=np.int8)
        self.f_word = np.empty(FIND_CAP, dtype=np.int32)
        self.f_path = np.empty((FIND_CAP, PATH_WIDTH), dtype=np.int8)
        self.no_path = np.empty((1, PATH_WIDTH), dtype=np.int8)
        self._nbr: dict[int, np.ndarray] = {}
        self._stack = None
        # Zobrist keys (fixed seed: node counts are reproducible) and the transposition table
        rng = np.random.default_rng(20140101)
        self.z_cell = rng.integers(0, 2**63, size=(64, self.sep), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        self.z_word = rng.integers(0, 2**63, size=max(n_words, 1), dtype=np.uint64) * np.uint64(2)
        self.z_pass = np.uint64(rng.integers(0, 2**63, dtype=np.uint64))
        self.tt_key = np.zeros(1 << TT_BITS, dtype=np.uint64)
        self.tt_val = np.zeros(1 << TT_BITS, dtype=np.int32)
        self.tt_depth = np.zeros(1 << TT_BITS, dtype=np.int8)
        self.tt_flag = np.zeros(1 << TT_BITS, dtype=np.int8)
        self.tt_move = np.zeros(1 << TT_BITS, dtype=np.int64)

    @property
    def forward(self):
        if self._forward is None:
            self._forward = forward_trie(self.dictionary.codes, self.dictionary.lengths)
        return self._forward

    def nbr(self, size: int) -> np.ndarray:
        if size not in self._nbr:
            self._nbr[size] = neighbours(size)
        return self._nbr[size]

    def played_mask(self, words) -> np.ndarray:
        played = np.zeros(len(self.dictionary), dtype=np.uint8)
        for w in words:
            i = self.dictionary.index.get(w)
            if i is not None:
                played[i] = 1
        return played

    def _epoch_guard(self) -> None:
        if self.epoch[0] > (1 << 30):
            self.stamp[:] = 0
            self.epoch[0] = 0

    def generate(self, board: Board, played: np.ndarray | None = None, paths: bool = False) -> int:
        """Full separator-trie generation into the find buffers; returns the number of moves."""
        played = self.played_mask(board.played) if played is None else played
        self._epoch_guard()
        t = self.trie
        n, e = generate_full(board.cells, self.nbr(board.size), t.info, t.term, self.sep, played,
                             self.stamp, self.epoch[0], self.f_cell, self.f_letter, self.f_word,
                             self.f_path if paths else self.no_path, paths)
        self.epoch[0] = e
        if n < 0:
            raise RuntimeError("balda: find buffer too small")
        return n

    def moves(self, board: Board, paths: bool = True) -> list[Move]:
        """Every distinct (cell, letter, word) move, sorted by cell, letter, word; one path each."""
        n = self.generate(board, paths=paths)
        out = []
        for i in range(n):
            w = int(self.f_word[i])
            length = int(self.lengths[w])
            path = tuple(int(x) for x in self.f_path[i, :length]) if paths else ()
            out.append(Move(int(self.f_cell[i]), int(self.f_letter[i]), w, length, path))
        out.sort(key=lambda m: (m.cell, m.letter, m.word))
        return out

    def forward_moves(self, board: Board) -> list[tuple[int, int, int]]:
        """The baseline's (cell, letter, word) triples, sorted."""
        played = self.played_mask(board.played)
        t = self.forward
        n = generate_forward(board.cells, self.nbr(board.size), t.info, t.term, self.sep, played,
                             self.f_cell, self.f_letter, self.f_word)
        if n < 0:
            raise RuntimeError("balda: find buffer too small")
        return [(int(self.f_cell[i]), int(self.f_letter[i]), int(self.f_word[i])) for i in range(n)]

    # --- game-tree search ---------------------------------------------------------------------------

    def _stack_for(self, cells: int):
        if self._stack is None or self._stack["head"].shape[1] != cells:
            self._stack = {
                "m_cell": np.empty(STACK_CAP, dtype=np.int16),
                "m_letter": np.empty(STACK_CAP, dtype=np.int8),
                "m_word": np.empty(STACK_CAP, dtype=np.int32),
                "m_len": np.empty(STACK_CAP, dtype=np.int32),
                "m_next": np.empty(STACK_CAP, dtype=np.int32),
                "head": np.full((MAX_PLY + 2, cells), -1, dtype=np.int32),
                "ord": np.empty(STACK_CAP, dtype=np.int32),
                "maxlen": np.zeros((MAX_PLY + 2, cells), dtype=np.int32),
            }
        return self._stack

    def load_root(self, board: Board, played: np.ndarray, seed: int | None = None) -> int:
        """Put the root's moves on the stack as page 0 (optionally shuffled by `seed` to break ties)."""
        s = self._stack_for(board.size * board.size)
        n = self.generate(board, played)
        idx = np.arange(n)
        if seed is not None:
            idx = np.random.default_rng(seed).permutation(n)
        s["m_cell"][:n] = self.f_cell[idx]
        s["m_letter"][:n] = self.f_letter[idx]
        s["m_word"][:n] = self.f_word[idx]
        s["m_len"][:n] = self.lengths[self.f_word[idx]]
        head = s["head"]
        head[0, :] = -1
        nxt = s["m_next"]
        for j in range(n):
            c = int(s["m_cell"][j])
            nxt[j] = head[0, c]
            head[0, c] = j
        return n

    def search(self, board: Board, depth: int, options: SearchOptions = SearchOptions(),
               seed: int | None = None) -> SearchResult:
        if not 1 <= depth <= MAX_PLY - 2:
            raise InputError(f"search depth {depth} is not supported: use 1..{MAX_PLY - 2}")
        t0 = time.perf_counter()
        c0 = time.thread_time()
        played = self.played_mask(board.played)
        cells = board.cells.copy()
        n = self.load_root(Board(board.size, cells, board.played), played, seed)
        s = self._stack
        stats = np.zeros(4, dtype=np.int64)
        best = np.full(1, -1, dtype=np.int64)
        self._epoch_guard()
        root_hash = np.uint64(0)
        if options.tt:
            self.tt_key[:] = 0
            self.tt_flag[:] = 0
            for c in np.flatnonzero(cells >= 0):
                root_hash ^= self.z_cell[c, cells[c]]
            for w in np.flatnonzero(played):
                root_hash ^= self.z_word[w]
        t = self.trie
        # (iterative deepening to seed the table's best moves was tried: with longest-first ordering it
        # searched more nodes than it saved, so one pass at the full depth)
        for d in (depth,):
            value = negamax(d, -(1 << 30), 1 << 30, board.empty, n,
                            cells, self.nbr(board.size), t.info, t.term, self.sep, played, self.lengths,
                            s["m_cell"], s["m_letter"], s["m_word"], s["m_len"], s["m_next"], s["head"], s["ord"],
                            s["maxlen"], self.f_cell, self.f_letter, self.f_word, self.no_path, self.stamp,
                            self.epoch, options.alphabeta, options.order, options.prune, options.slack,
                            options.endgame, options.incremental, stats, best, options.tt, root_hash, self.z_cell,
                            self.z_word, self.z_pass, self.tt_key, self.tt_val, self.tt_depth, self.tt_flag,
                            self.tt_move)
        elapsed = time.perf_counter() - t0
        cpu = time.thread_time() - c0
        move = None
        if best[0] >= 0:
            j = int(best[0])
            cell, letter, word = int(s["m_cell"][j]), int(s["m_letter"][j]), int(s["m_word"][j])
            move = self.with_path(board, Move(cell, letter, word, int(self.lengths[word])))
        return SearchResult(move, int(value), int(stats[NODES]), int(stats[GENERATIONS]), elapsed, cpu, n)

    def with_path(self, board: Board, move: Move) -> Move:
        """The same move with the path the full generation reports for it."""
        for m in self.moves(board):
            if (m.cell, m.letter, m.word) == (move.cell, move.letter, move.word):
                return m
        raise AssertionError("a searched move is not in the move list")
