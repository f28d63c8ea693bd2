"""Word search on the board (numba kernels).

A *find* is (empty cell, letter, word id, path). `grow` is the one depth-first search over the
separator trie: it starts at one cell with a known letter, grows the word forward from it, crosses
the separator and grows the rest backwards from the start cell; at most one empty cell may join the
path (its letters are the trie children there). Three callers:

- `generate_full`: every empty cell next to a letter, every letter — the whole move list.
- `generate_new`: the words that pass through one newly filled cell (the incremental search).
- `generate_forward`: the baseline — the same search over a plain forward trie (no separator, so
  only the forward phase) from every filled cell and every empty cell next to one.

The kernels take their state as three named tuples: `Words` (a trie, read only), `Position` (the
board and the played words) and `Finds` (the find buffers and the search's scratch frames).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..lab.bits import lowest_bit
from ..lab.jit import allocating_kernel, inline_kernel, kernel
from .trie import child

MAX_FRAMES = 72  # path cells (<= 64) + separator + slack
PATH_WIDTH = 64
MAX_CELLS = 64  # 8 x 8: a path is a 64-bit cell mask


class Words(NamedTuple):
    """A trie as the word search reads it, with the dictionary's word lengths."""

    info: np.ndarray  # uint64 [nodes, 2]: (bit mask of child symbols, id of the first child)
    term: np.ndarray  # int32 [nodes]: word id ending here, or -1
    sep: int  # the separator symbol, the alphabet size (absent from a forward trie)
    lengths: np.ndarray  # int32 [words]


class Position(NamedTuple):
    """The board the kernels search (moves are written into it and taken back)."""

    board: np.ndarray  # int8 [cells]: letter code or -1 (empty)
    nbr: np.ndarray  # int32 [cells, 4]: orthogonal neighbours, -1 padded
    played: np.ndarray  # uint8 [words]: 1 = already played


class Finds(NamedTuple):
    """What the word search writes: the finds, the duplicate stamps and its scratch frames."""

    cell: np.ndarray  # int16 [cap]
    letter: np.ndarray  # int8 [cap]
    word: np.ndarray  # int32 [cap]
    path: np.ndarray  # int8 [cap, PATH_WIDTH] (or [1, PATH_WIDTH] when paths are not recorded)
    stamp: np.ndarray  # int32 [words * sep]: the cell run (epoch) that last found (word, letter)
    epoch: np.ndarray  # int64 [1]: the current epoch
    front: np.ndarray  # int64 [MAX_CELLS]: the frontier cells of the current position
    fr_node: np.ndarray  # int64 [MAX_FRAMES]: the search's frames, one per path cell
    fr_cell: np.ndarray
    fr_ext: np.ndarray
    fr_phase: np.ndarray
    fr_it: np.ndarray
    fr_empty: np.ndarray
    fr_bits: np.ndarray  # uint64 [MAX_FRAMES]


def make_finds(cap: int, n_words: int, sep: int, paths: bool = True) -> Finds:
    """Find buffers for `cap` finds over a dictionary of `n_words` words."""
    frame = [np.zeros(MAX_FRAMES, dtype=np.int64) for _ in range(6)]
    return Finds(np.empty(cap, dtype=np.int16), np.empty(cap, dtype=np.int8), np.empty(cap, dtype=np.int32),
                 np.empty((cap if paths else 1, PATH_WIDTH), dtype=np.int8),
                 np.zeros(n_words * sep, dtype=np.int32), np.zeros(1, dtype=np.int64),
                 np.zeros(MAX_CELLS, dtype=np.int64), *frame, np.zeros(MAX_FRAMES, dtype=np.uint64))


@kernel
def grow(words, pos, finds, start, letters, start_empty, record_paths, n):
    """`_grow_letter` for every letter of the bit mask `letters` at `start` (one call, so the cost of
    passing the state is paid once per cell, not once per letter). Returns the new n or -1."""
    m = letters
    while m != 0:
        letter = np.int64(lowest_bit(m))
        m &= m - np.uint64(1)
        n = _grow_letter(words, pos, finds, start, letter, start if start_empty else -1, record_paths, n)
        if n < 0:
            return -1
    return n


@inline_kernel
def _grow_letter(words, pos, finds, start, letter, ecell0, record_paths, n):
    """Append the finds of words through `start` (holding `letter`) to the find buffers from index n.

    `ecell0` is `start` when the start cell is the empty one (its letter is being tried), else -1;
    then one empty neighbour may still join the path. Played words are skipped. Returns the new n.
    """
    info = words.info
    term = words.term
    sep = words.sep
    board = pos.board
    nbr = pos.nbr
    played = pos.played
    f_cell = finds.cell
    f_letter = finds.letter
    f_word = finds.word
    f_path = finds.path
    fr_node = finds.fr_node
    fr_cell = finds.fr_cell
    fr_ext = finds.fr_ext
    fr_phase = finds.fr_phase
    fr_it = finds.fr_it
    fr_empty = finds.fr_empty
    fr_bits = finds.fr_bits
    cap = len(f_word)
    node0 = child(info, 0, letter)
    if node0 < 0:
        return n
    sepbit = np.uint64(1) << np.uint64(sep)
    ecell = ecell0
    eletter = letter if ecell0 >= 0 else -1
    visited = np.uint64(1) << np.uint64(start)
    d = 0
    sep_at = -1
    fr_node[0] = node0
    fr_cell[0] = start
    fr_ext[0] = start
    fr_phase[0] = 0
    fr_it[0] = -1
    fr_bits[0] = 0
    fr_empty[0] = 1 if ecell0 >= 0 else 0
    while d >= 0:
        node = fr_node[d]
        cn = -1
        if fr_it[d] == -1:  # forward frame: first try to cross the separator
            fr_it[d] = 0
            cn = child(info, node, sep)
            cell = -1  # the separator frame adds no cell; the word goes on backwards from `start`
            is_empty = False
        if cn >= 0:
            pass
        elif fr_bits[d] != 0:  # the next letter for the empty neighbour being tried
            b = fr_bits[d]
            s = np.int64(lowest_bit(b))
            fr_bits[d] = b & (b - np.uint64(1))
            cell = nbr[fr_ext[d], fr_it[d] - 1]
            cn = child(info, node, s)
            ecell = cell
            eletter = s
            is_empty = True
        else:
            if fr_it[d] >= 4:
                if fr_empty[d]:
                    ecell = -1
                    eletter = -1
                if fr_cell[d] >= 0:
                    visited &= ~(np.uint64(1) << np.uint64(fr_cell[d]))
                d -= 1
                continue
            cell = nbr[fr_ext[d], fr_it[d]]
            fr_it[d] += 1
            if cell < 0 or (visited >> np.uint64(cell)) & np.uint64(1):
                continue
            v = board[cell]
            if v < 0:
                if ecell < 0:
                    fr_bits[d] = info[node, 0] & ~sepbit
                continue
            cn = child(info, node, v)
            if cn < 0:
                continue
            is_empty = False
        # push the frame reached at trie node cn: a cell, or the separator (cell -1)
        d += 1
        fr_node[d] = cn
        fr_cell[d] = cell
        fr_bits[d] = 0
        fr_empty[d] = 1 if is_empty else 0
        if cell < 0:
            sep_at = d
            fr_ext[d] = start
            fr_phase[d] = 1
        else:
            fr_ext[d] = cell
            fr_phase[d] = fr_phase[d - 1]
            visited |= np.uint64(1) << np.uint64(cell)
        fr_it[d] = -1 if fr_phase[d] == 0 else 0
        w = term[cn]
        if w >= 0 and ecell >= 0 and played[w] == 0:
            if n >= cap:
                return -1
            f_cell[n] = ecell
            f_letter[n] = eletter
            f_word[n] = w
            if record_paths:  # backward cells (newest first), then the forward ones from `start`
                k = 0
                if fr_phase[d] == 1:
                    for i in range(d, sep_at, -1):
                        f_path[n, k] = fr_cell[i]
                        k += 1
                for i in range(sep_at if fr_phase[d] == 1 else d + 1):
                    f_path[n, k] = fr_cell[i]
                    k += 1
                for i in range(k, PATH_WIDTH):
                    f_path[n, i] = -1
            n += 1
    return n


@kernel
def frontier(pos, out):
    """Write the empty cells with a filled orthogonal neighbour to `out`, in cell order; returns how many."""
    board = pos.board
    nbr = pos.nbr
    k = 0
    for x in range(len(board)):
        if board[x] >= 0:
            continue
        for j in range(4):
            u = nbr[x, j]
            if u >= 0 and board[u] >= 0:
                out[k] = x
                k += 1
                break
    return k


@kernel
def generate_full(words, pos, finds, record_paths):
    """Every distinct (cell, letter, word) move of the position (first path found for each).

    `stamp[word * sep + letter]` remembers the cell run (epoch) that found it, so duplicates (the same
    word through the same cell by another path) are dropped without sorting; `finds.epoch[0]` advances
    by one per cell. Returns the count, -1 when the buffers are too small.
    """
    sep = words.sep
    stamp = finds.stamp
    f_cell = finds.cell
    f_letter = finds.letter
    f_word = finds.word
    f_path = finds.path
    n = 0
    epoch = finds.epoch[0]
    count = frontier(pos, finds.front)
    letters = words.info[0, 0] & ((np.uint64(1) << np.uint64(sep)) - np.uint64(1))
    for q in range(count):
        x = finds.front[q]
        epoch += 1
        m = grow(words, pos, finds, x, letters, True, record_paths, n)
        if m < 0:
            finds.epoch[0] = epoch
            return -1
        k = n
        for i in range(n, m):  # keep the first find of each word with each letter at this cell
            key = f_word[i] * sep + f_letter[i]
            if stamp[key] == epoch:
                continue
            stamp[key] = epoch
            if k != i:
                f_cell[k] = f_cell[i]
                f_letter[k] = f_letter[i]
                f_word[k] = f_word[i]
                if record_paths:
                    for t in range(PATH_WIDTH):
                        f_path[k, t] = f_path[i, t]
            k += 1
        n = k
    finds.epoch[0] = epoch
    return n


@kernel
def generate_new(words, pos, finds, cell):
    """The finds through the newly filled `cell` (may repeat a triple; the caller deduplicates)."""
    letters = np.uint64(1) << np.uint64(pos.board[cell])
    return grow(words, pos, finds, cell, letters, False, False, 0)


@allocating_kernel
def generate_forward(words, pos, finds):
    """Baseline: forward-trie search from every filled cell and every empty cell next to one, then
    duplicates removed by sorting. Returns the number of distinct moves (sorted by cell, letter, word),
    or -1 when the buffers are too small. `words.sep` is the alphabet size (no separator in this trie)."""
    board = pos.board
    alphabet_size = words.sep
    f_cell = finds.cell
    f_letter = finds.letter
    f_word = finds.word
    n = 0
    count = frontier(pos, finds.front)
    is_front = np.zeros(len(board), dtype=np.bool_)
    for q in range(count):
        is_front[finds.front[q]] = True
    letters = words.info[0, 0] & ((np.uint64(1) << np.uint64(alphabet_size)) - np.uint64(1))
    for s in range(len(board)):
        # `grow` on a trie without separator: only the forward phase, words start at `s`
        if board[s] >= 0:
            n = grow(words, pos, finds, s, np.uint64(1) << np.uint64(board[s]), False, False, n)
        elif is_front[s]:
            n = grow(words, pos, finds, s, letters, True, False, n)
        if n < 0:
            return -1
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = (np.int64(f_cell[i]) * alphabet_size + f_letter[i]) * (1 << 32) + f_word[i]
    keys.sort()
    k = 0
    for i in range(n):
        if i > 0 and keys[i] == keys[i - 1]:
            continue
        f_word[k] = keys[i] & 0xFFFFFFFF
        rest = keys[i] >> 32
        f_letter[k] = rest % alphabet_size
        f_cell[k] = rest // alphabet_size
        k += 1
    return k
