"""Timing the three word searches on one position (numba loops, so call overhead is not measured).

For a position reached by a move, the same move list is obtained three ways:
- forward: the baseline forward trie searched from every cell, duplicates removed by sorting;
- separator: the separator trie searched from every empty cell next to a letter;
- incremental: the parent's list (page 0) plus a new page of the words through the new letter,
  read back through the per-cell chains, skipping filled cells and played words.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from .board import Board
from .engine import Engine, Move
from .movegen import generate_forward, generate_full
from .search import _new_page, select_moves


@njit(cache=True)
def repeat_separator(reps, board, nbr, info, term, sep, played, stamp, epoch,
                     f_cell, f_letter, f_word, f_path):
    n = 0
    for _ in range(reps):
        n, e = generate_full(board, nbr, info, term, sep, played, stamp, epoch[0],
                             f_cell, f_letter, f_word, f_path, False)
        epoch[0] = e
    return n


@njit(cache=True)
def repeat_forward(reps, board, nbr, info, term, sep, played, f_cell, f_letter, f_word):
    n = 0
    for _ in range(reps):
        n = generate_forward(board, nbr, info, term, sep, played, f_cell, f_letter, f_word)
    return n


@njit(cache=True)
def repeat_incremental(reps, last_cell, top, board, nbr, info, term, sep, played, lengths,
                       m_cell, m_letter, m_word, m_len, m_next, head, ord_buf, maxlen,
                       f_cell, f_letter, f_word, f_path, stamp, epoch, stats):
    """Page 1 built after the move to `last_cell` and the node's list read back, `reps` times."""
    k = 0
    for _ in range(reps):
        lo, t = _new_page(1, last_cell, top, board, nbr, info, term, sep, played, lengths,
                          m_cell, m_letter, m_word, m_len, m_next, head, f_cell, f_letter, f_word, f_path,
                          stamp, epoch, True, stats)
        k = select_moves(lo, t, board, played, m_cell, m_len, m_word, ord_buf, 0, maxlen[1], False, False, 0)
    return k


def _prepare_child(engine: Engine, parent: Board, move: Move):
    """Load the parent's moves as page 0, then make `move`; returns (child cells, played, top)."""
    played = engine.played_mask(parent.played)
    top = engine.load_root(parent, played)
    cells = parent.cells.copy()
    cells[move.cell] = move.letter
    played[move.word] = 1
    return cells, played, top


def incremental_moves(engine: Engine, parent: Board, move: Move) -> list[tuple[int, int, int]]:
    """The child's (cell, letter, word) list as the incremental search sees it (sorted)."""
    cells, played, top = _prepare_child(engine, parent, move)
    s = engine._stack
    t = engine.trie
    stats = np.zeros(4, dtype=np.int64)
    k = repeat_incremental(1, move.cell, top, cells, engine.nbr(parent.size), t.info, t.term,
                           engine.sep, played, engine.lengths, s["m_cell"], s["m_letter"], s["m_word"], s["m_len"],
                           s["m_next"], s["head"], s["ord"], s["maxlen"], engine.f_cell, engine.f_letter,
                           engine.f_word, engine.no_path, engine.stamp, engine.epoch, stats)
    idx = s["ord"][:k]
    return sorted(zip(s["m_cell"][idx].tolist(), s["m_letter"][idx].tolist(), s["m_word"][idx].tolist()))


def _best_of(fn, reps: int, rounds: int) -> float:
    """CPU seconds of this thread per call: `rounds` timings of `reps` calls each, the minimum kept.

    Thread CPU time rather than wall time: the machines that run the pipeline are shared, and waiting
    for a core is not the search's cost (cache contention from neighbours still shows)."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.thread_time()
        fn(reps)
        best = min(best, (time.thread_time() - t0) / reps)
    return best


def time_position(engine: Engine, parent: Board, move: Move, reps: int = 20, rounds: int = 3) -> dict:
    """Counts (forward, separator, incremental — they must agree) and seconds per search."""
    child = parent.copy()
    child.cells[move.cell] = move.letter
    child.played.append(engine.dictionary.words[move.word])
    nbr = engine.nbr(parent.size)
    played_child = engine.played_mask(child.played)
    t, f = engine.trie, engine.forward
    args_sep = (child.cells, nbr, t.info, t.term, engine.sep, played_child, engine.stamp,
                engine.epoch, engine.f_cell, engine.f_letter, engine.f_word, engine.no_path)
    n_sep = repeat_separator(1, *args_sep)
    sep_time = _best_of(lambda r: repeat_separator(r, *args_sep), reps, rounds)
    args_fwd = (child.cells, nbr, f.info, f.term, engine.sep, played_child,
                engine.f_cell, engine.f_letter, engine.f_word)
    n_fwd = repeat_forward(1, *args_fwd)
    fwd_time = _best_of(lambda r: repeat_forward(r, *args_fwd), reps, rounds)
    cells, played, top = _prepare_child(engine, parent, move)
    s = engine._stack
    stats = np.zeros(4, dtype=np.int64)
    args_inc = (move.cell, top, cells, nbr, t.info, t.term, engine.sep, played, engine.lengths,
                s["m_cell"], s["m_letter"], s["m_word"], s["m_len"], s["m_next"], s["head"], s["ord"], s["maxlen"],
                engine.f_cell, engine.f_letter, engine.f_word, engine.no_path, engine.stamp, engine.epoch, stats)
    n_inc = repeat_incremental(1, *args_inc)
    new_words = int(stats[2])
    inc_time = _best_of(lambda r: repeat_incremental(r, *args_inc), reps, rounds)
    return {"filled": child.filled, "moves_forward": n_fwd, "moves_separator": n_sep, "moves_incremental": n_inc,
            "parent_moves": top, "new_finds": new_words,
            "forward_time_s": fwd_time, "separator_time_s": sep_time, "incremental_time_s": inc_time}
