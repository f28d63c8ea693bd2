"""The engine: a dictionary with its tries and work buffers, and the operations the CLI and the
experiments use — list moves (separator trie or forward-trie baseline) and search a position."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..lab.errors import InputError
from .board import Board, neighbours
from .dictionary import Dictionary
from .movegen import Position, Words, generate_forward, generate_full, make_finds
from .options import MAX_DEPTH, SearchOptions, check_depth
from .search import GENERATIONS, NODES, STOPPED, Root, Table, make_plies, make_stack, negamax
from .trie import forward_trie, separator_trie

__all__ = ["Engine", "Move", "SearchOptions", "SearchResult"]

FIND_CAP = 1 << 17
STACK_CAP = 1 << 21
MAX_PLY = MAX_DEPTH + 2
TT_BITS = 20  # 1M entries, 14 MB
DEFAULT_OPTIONS = SearchOptions()


@dataclass(frozen=True)
class Move:
    cell: int
    letter: int
    word: int
    length: int
    path: tuple[int, ...] = ()


@dataclass
class SearchResult:
    move: Move | None  # None: the side to move must pass
    value: int
    nodes: int
    generations: int
    time_s: float  # wall clock
    cpu_time_s: float  # CPU time of this thread (what the search cost on a shared machine)
    root_moves: int
    complete: bool = True  # False: stopped by the node limit (the move is the best of those searched)


def _too_many_finds() -> InputError:
    return InputError(f"the position has more word finds than the {FIND_CAP:,} the move generator holds "
                      "(a smaller word list or board)")


class Engine:
    """One dictionary's tries, Zobrist keys, transposition table and reusable buffers (not thread-safe)."""

    def __init__(self, dictionary: Dictionary):
        self.dictionary = dictionary
        self.sep = dictionary.alphabet.size
        self.trie = separator_trie(dictionary.codes, dictionary.lengths, self.sep)
        self._forward = None
        self.lengths = dictionary.lengths.astype(np.int32)
        self.words = Words(self.trie.info, self.trie.term, self.sep, self.lengths)
        n_words = len(dictionary)
        self.finds = make_finds(FIND_CAP, n_words, self.sep)
        self.finds_no_path = self.finds._replace(path=np.empty((1, self.finds.path.shape[1]), dtype=np.int8))
        self._nbr: dict[int, np.ndarray] = {}
        self._stack = None
        self.plies = make_plies(MAX_PLY + 2)
        # Zobrist keys (fixed seed: node counts are reproducible) and the transposition table
        rng = np.random.default_rng(20140101)
        z_cell = rng.integers(0, 2**63, size=(64, self.sep), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        z_word = rng.integers(0, 2**63, size=max(n_words, 1), dtype=np.uint64) * np.uint64(2)
        z_pass = np.uint64(rng.integers(0, 2**63, dtype=np.uint64))
        slots = 1 << TT_BITS
        self.table = Table(z_cell, z_word, z_pass, np.zeros(slots, dtype=np.uint64), np.zeros(slots, dtype=np.int32),
                           np.zeros(slots, dtype=np.int8), np.zeros(slots, dtype=np.int8),
                           np.zeros(slots, dtype=np.int64))

    @property
    def forward(self) -> Words:
        """The forward trie (the baseline's), as the word search reads it."""
        if self._forward is None:
            t = forward_trie(self.dictionary.codes, self.dictionary.lengths)
            self._forward = Words(t.info, t.term, self.sep, self.lengths)
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

    def position(self, board: Board, played: np.ndarray | None = None, cells: np.ndarray | None = None) -> Position:
        """The kernels' view of `board` (its own cells unless `cells` is given; its played words unless
        `played` is)."""
        return Position(board.cells if cells is None else cells, self.nbr(board.size),
                        self.played_mask(board.played) if played is None else played)

    def epoch_guard(self) -> None:
        """Restart the duplicate stamps before the epoch counter could overflow them."""
        if self.finds.epoch[0] > (1 << 30):
            self.finds.stamp[:] = 0
            self.finds.epoch[0] = 0

    def generate(self, board: Board, played: np.ndarray | None = None, paths: bool = False) -> int:
        """Full separator-trie generation into the find buffers; returns the number of moves."""
        self.epoch_guard()
        n = generate_full(self.words, self.position(board, played), self.finds if paths else self.finds_no_path,
                          paths)
        if n < 0:
            raise _too_many_finds()
        return n

    def moves(self, board: Board, paths: bool = True) -> list[Move]:
        """Every distinct (cell, letter, word) move, sorted by cell, letter, word; one path each."""
        n = self.generate(board, paths=paths)
        f = self.finds
        out = []
        for i in range(n):
            w = int(f.word[i])
            length = int(self.lengths[w])
            path = tuple(int(x) for x in f.path[i, :length]) if paths else ()
            out.append(Move(int(f.cell[i]), int(f.letter[i]), w, length, path))
        out.sort(key=lambda m: (m.cell, m.letter, m.word))
        return out

    def forward_moves(self, board: Board) -> list[tuple[int, int, int]]:
        """The baseline's (cell, letter, word) triples, sorted."""
        n = generate_forward(self.forward, self.position(board), self.finds_no_path)
        if n < 0:
            raise _too_many_finds()
        f = self.finds
        return [(int(f.cell[i]), int(f.letter[i]), int(f.word[i])) for i in range(n)]

    # --- game-tree search ---------------------------------------------------------------------------

    def stack(self, cells: int):
        """The move stack for boards of `cells` cells (kept between searches)."""
        if self._stack is None or self._stack.head.shape[1] != cells:
            self._stack = make_stack(STACK_CAP, MAX_PLY + 2, cells)
        return self._stack

    def load_root(self, board: Board, played: np.ndarray, seed: int | None = None) -> int:
        """Put the root's moves on the stack as page 0 (optionally shuffled by `seed` to break ties)."""
        s = self.stack(board.size * board.size)
        n = self.generate(board, played)
        f = self.finds
        idx = np.arange(n)
        if seed is not None:
            idx = np.random.default_rng(seed).permutation(n)
        s.cell[:n] = f.cell[idx]
        s.letter[:n] = f.letter[idx]
        s.word[:n] = f.word[idx]
        s.length[:n] = self.lengths[f.word[idx]]
        head = s.head
        head[0, :] = -1
        nxt = s.next
        for j in range(n):
            c = int(s.cell[j])
            nxt[j] = head[0, c]
            head[0, c] = j
        return n

    def search(self, board: Board, depth: int, options: SearchOptions = DEFAULT_OPTIONS,
               seed: int | None = None) -> SearchResult:
        """The best move of `board` by a `depth`-ply search (ties broken by shuffling the root moves
        with `seed`; none: the move-list order)."""
        check_depth(depth)
        t0 = time.perf_counter()
        c0 = time.thread_time()
        played = self.played_mask(board.played)
        cells = board.cells.copy()
        n = self.load_root(Board(board.size, cells, board.played), played, seed)
        s = self._stack
        stats = np.zeros(4, dtype=np.int64)
        best = np.full(1, -1, dtype=np.int64)
        self.epoch_guard()
        root_hash = np.uint64(0)
        table = self.table
        if options.tt:
            table.key[:] = 0
            table.flag[:] = 0
            for c in np.flatnonzero(cells >= 0):
                root_hash ^= table.z_cell[c, cells[c]]
            for w in np.flatnonzero(played):
                root_hash ^= table.z_word[w]
        # (iterative deepening to seed the table's best moves was tried: with longest-first ordering it
        # searched more nodes than it saved, so one pass at the full depth)
        root = Root(depth, -(1 << 30), 1 << 30, board.empty, n, root_hash)
        try:
            value = negamax(root, self.words, self.position(board, played, cells), self.finds_no_path, s,
                            self.plies, table, options, stats, best)
        except RuntimeError as err:  # a buffer of the search is full (a kernel checks before every write)
            raise InputError(f"this search does not fit its buffers ({err}): search less deep, or give "
                             "--node-limit") from None
        elapsed = time.perf_counter() - t0
        cpu = time.thread_time() - c0
        move = None
        complete = not stats[STOPPED]
        if best[0] == -2:  # stopped before any root move was searched to the end: the first in order
            best[0] = s.order[0] if n else -1
            value = int(s.length[best[0]]) if n else 0
        if best[0] >= 0:
            j = int(best[0])
            cell, letter, word = int(s.cell[j]), int(s.letter[j]), int(s.word[j])
            move = self.with_path(board, Move(cell, letter, word, int(self.lengths[word])))
        return SearchResult(move, int(value), int(stats[NODES]), int(stats[GENERATIONS]), elapsed, cpu, n, complete)

    def with_path(self, board: Board, move: Move) -> Move:
        """The same move with the path the full generation reports for it."""
        for m in self.moves(board):
            if (m.cell, m.letter, m.word) == (move.cell, move.letter, move.word):
                return m
        raise AssertionError("a searched move is not in the move list")
