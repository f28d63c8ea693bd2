"""Word search on the board (numba kernels).

A *find* is (empty cell, letter, word id, path). `grow` is the one depth-first search over the
separator trie: it starts at one cell with a known letter, grows the word forward from it, crosses
the separator and grows the rest backwards from the start cell; at most one empty cell may join the
path (its letters are the trie children there). Three callers:

- `generate_full`: every empty cell next to a letter, every letter — the whole move list.
- `generate_new`: the words that pass through one newly filled cell (the incremental search).
- `generate_forward`: the baseline — the same search over a plain forward trie (no separator, so
  only the forward phase) from every filled cell and every empty cell next to one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import lowest_bit
from .trie import child

MAX_FRAMES = 72  # path cells (<= 64) + separator + slack
PATH_WIDTH = 64


@njit(cache=True)
def grow(board, nbr, start, letters, start_empty, info, term, sep, played,
         f_cell, f_letter, f_word, f_path, record_paths, n, frames, fr_bits):
    """`_grow_letter` for every letter of the bit mask `letters` at `start` (one call, so the cost of
    passing the arrays is paid once per cell, not once per letter). Returns the new n or -1."""
    fr_node = frames[0]
    fr_cell = frames[1]
    fr_ext = frames[2]
    fr_phase = frames[3]
    fr_it = frames[4]
    fr_empty = frames[5]
    m = letters
    while m != 0:
        letter = np.int64(lowest_bit(m))
        m &= m - np.uint64(1)
        n = _grow_letter(board, nbr, start, letter, start if start_empty else -1, info, term, sep,
                         played, f_cell, f_letter, f_word, f_path, record_paths, n,
                         fr_node, fr_cell, fr_ext, fr_phase, fr_it, fr_empty, fr_bits)
        if n < 0:
            return -1
    return n


@njit(cache=True, inline="always")
def _grow_letter(board, nbr, start, letter, ecell0, info, term, sep, played,
                 f_cell, f_letter, f_word, f_path, record_paths, n,
                 fr_node, fr_cell, fr_ext, fr_phase, fr_it, fr_empty, fr_bits):
    """Append the finds of words through `start` (holding `letter`) to the f_* buffers from index n.

    `ecell0` is `start` when the start cell is the empty one (its letter is being tried), else -1;
    then one empty neighbour may still join the path. Played words are skipped. Returns the new n.
    """
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


@njit(cache=True)
def frontier(board, nbr):
    """Empty cells with a filled orthogonal neighbour, in cell order."""
    out = np.empty(len(board), dtype=np.int64)
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
    return out[:k]


@njit(cache=True)
def generate_full(board, nbr, info, term, sep, played, stamp, epoch0,
                  f_cell, f_letter, f_word, f_path, record_paths):
    """Every distinct (cell, letter, word) move of the position (first path found for each).

    `stamp[word * sep + letter]` remembers the cell run (epoch) that found it, so duplicates (the same
    word through the same cell by another path) are dropped without sorting. Returns (count, epoch),
    count -1 when the buffers are too small.
    """
    n = 0
    epoch = epoch0
    cells = frontier(board, nbr)
    root = info[0, 0]
    frames = np.empty((6, MAX_FRAMES), dtype=np.int64)
    fr_bits = np.zeros(MAX_FRAMES, dtype=np.uint64)
    letters = root & ((np.uint64(1) << np.uint64(sep)) - np.uint64(1))
    for x in cells:
        epoch += 1
        m = grow(board, nbr, x, letters, True, info, term, sep, played,
                 f_cell, f_letter, f_word, f_path, record_paths, n, frames, fr_bits)
        if m < 0:
            return -1, epoch
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
                    f_path[k, :] = f_path[i, :]
            k += 1
        n = k
    return n, epoch


@njit(cache=True)
def generate_new(board, nbr, cell, info, term, sep, played, f_cell, f_letter, f_word, f_path):
    """The finds through the newly filled `cell` (may repeat a triple; the caller deduplicates)."""
    frames = np.empty((6, MAX_FRAMES), dtype=np.int64)
    fr_bits = np.zeros(MAX_FRAMES, dtype=np.uint64)
    letters = np.uint64(1) << np.uint64(board[cell])
    return grow(board, nbr, cell, letters, False, info, term, sep, played,
                f_cell, f_letter, f_word, f_path, False, 0, frames, fr_bits)


@njit(cache=True)
def generate_forward(board, nbr, info, term, alphabet_size, played, f_cell, f_letter, f_word):
    """Baseline: forward-trie search from every filled cell and every empty cell next to one, then
    duplicates removed by sorting. Returns the number of distinct moves (sorted by cell, letter, word),
    or -1 when the buffers are too small."""
    n = 0
    root = info[0, 0]
    cells = frontier(board, nbr)
    no_path = np.empty((1, PATH_WIDTH), dtype=np.int8)
    frames = np.empty((6, MAX_FRAMES), dtype=np.int64)
    fr_bits = np.zeros(MAX_FRAMES, dtype=np.uint64)
    is_front = np.zeros(len(board), dtype=np.bool_)
    for x in cells:
        is_front[x] = True
    letters = root & ((np.uint64(1) << np.uint64(alphabet_size)) - np.uint64(1))
    for s in range(len(board)):
        # `grow` on a trie without separator: only the forward phase, words start at `s`
        if board[s] >= 0:
            n = grow(board, nbr, s, np.uint64(1) << np.uint64(board[s]), False, info, term, alphabet_size, played,
                     f_cell, f_letter, f_word, no_path, False, n, frames, fr_bits)
        elif is_front[s]:
            n = grow(board, nbr, s, letters, True, info, term, alphabet_size, played,
                     f_cell, f_letter, f_word, no_path, False, n, frames, fr_bits)
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
