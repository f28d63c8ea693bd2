"""Negamax game-tree search with alpha-beta, move ordering by word length and the article's
long-word pruning, over per-depth pages of moves (numba kernels).

The move stack holds pages: page p has the moves found after the p-th move of the line being
searched. With incremental search a node's move list is the union of all pages below it, read
through per-cell chains (`head[ply, cell]` -> newest entry at that cell, `next` -> older ones);
moves whose cell is filled or whose word is played are skipped on reading, so nothing is copied or
deleted and undo is free (the child's page is simply overwritten by the next sibling). Without
incremental search every node regenerates its full list into its own page (the baseline).

Values are score differences from the side to move over the searched horizon: a move is worth its
word length minus the value of the reply. A player without a move passes (a ply); two passes in a
row or a full board end the game.

State travels as named tuples (besides movegen's `Words`, `Position`, `Finds`): `Stack` (the move
pages), `Plies` (the explicit recursion stack), `Table` (Zobrist keys and the transposition table),
`options.SearchOptions` (what the search does) and `Root` (the root's depth, window and hash).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..lab.jit import inline_kernel, kernel
from .movegen import generate_full, generate_new

NEG_INF = -(1 << 30)
# stats[] slots
NODES, GENERATIONS, FOUND, STOPPED = 0, 1, 2, 3
ORDER_BUCKETS = 66  # word lengths 0..64, longest first


class Stack(NamedTuple):
    """The move pages of the line being searched, and the buffers that order a node's moves."""

    cell: np.ndarray  # int16 [cap]
    letter: np.ndarray  # int8 [cap]
    word: np.ndarray  # int32 [cap]
    length: np.ndarray  # int32 [cap]
    next: np.ndarray  # int32 [cap]: the older entry at the same cell, or -1
    head: np.ndarray  # int32 [plies, cells]: newest entry per cell seen from each ply
    order: np.ndarray  # int32 [cap]: the nodes' playable moves, ordered, one slice per ply
    maxlen: np.ndarray  # int32 [plies, cells]: longest playable word per cell (pruning)
    counts: np.ndarray  # int64 [ORDER_BUCKETS]: counting-sort buckets
    tmp: np.ndarray  # int32 [cap]: counting-sort scratch


class Plies(NamedTuple):
    """The explicit recursion stack of `negamax`, one entry per ply (numba caches no recursion)."""

    depth: np.ndarray  # int64 [plies] each
    alpha: np.ndarray
    beta: np.ndarray
    best: np.ndarray
    k: np.ndarray
    i: np.ndarray
    o: np.ndarray
    lo: np.ndarray
    top: np.ndarray
    last: np.ndarray
    passes: np.ndarray
    empty: np.ndarray
    move: np.ndarray
    alpha0: np.ndarray
    hint: np.ndarray  # packed best move remembered for this node
    bestj: np.ndarray  # stack index of the node's best move so far
    hash: np.ndarray  # uint64 [plies]: Zobrist hash of letters and played words (no pass bit)
    store: np.ndarray  # bool [plies]


class Table(NamedTuple):
    """Zobrist keys (letters on cells, played words, a pending pass) and the transposition table."""

    z_cell: np.ndarray  # uint64 [64, letters]
    z_word: np.ndarray  # uint64 [words]
    z_pass: np.uint64
    key: np.ndarray  # uint64 [slots] (a power of two)
    val: np.ndarray  # int32 [slots]
    depth: np.ndarray  # int8 [slots]
    flag: np.ndarray  # int8 [slots]: 1 exact, 2 lower bound, 3 upper bound
    move: np.ndarray  # int64 [slots]: packed best move, or -1


class Root(NamedTuple):
    """The searched position's depth, window, empty cells, stack top and Zobrist hash."""

    depth: int
    alpha: int
    beta: int
    empty: int
    top: int  # the root's moves are stack entries [0, top), chained in head[0]
    hash: np.uint64


def make_stack(cap: int, plies: int, cells: int) -> Stack:
    return Stack(np.empty(cap, dtype=np.int16), np.empty(cap, dtype=np.int8), np.empty(cap, dtype=np.int32),
                 np.empty(cap, dtype=np.int32), np.empty(cap, dtype=np.int32),
                 np.full((plies, cells), -1, dtype=np.int32), np.empty(cap, dtype=np.int32),
                 np.zeros((plies, cells), dtype=np.int32), np.zeros(ORDER_BUCKETS, dtype=np.int64),
                 np.empty(cap, dtype=np.int32))


def make_plies(plies: int) -> Plies:
    ints = [np.zeros(plies, dtype=np.int64) for _ in range(16)]
    return Plies(*ints, np.zeros(plies, dtype=np.uint64), np.zeros(plies, dtype=np.bool_))


@kernel
def new_page(ply, last_cell, top, words, pos, finds, stack, incremental, stats):
    """Build the page of node `ply` from index `top`; returns (first index of its list, new top)."""
    head = stack.head
    m_cell = stack.cell
    m_letter = stack.letter
    m_word = stack.word
    m_len = stack.length
    m_next = stack.next
    lengths = words.lengths
    f_cell = finds.cell
    f_letter = finds.letter
    f_word = finds.word
    stats[GENERATIONS] += 1
    if incremental:
        for c in range(head.shape[1]):
            head[ply, c] = head[ply - 1, c]
        if last_cell < 0:  # a pass changes nothing
            return 0, top
        n = generate_new(words, pos, finds, last_cell)
        if n < 0:
            raise RuntimeError("balda: find buffer too small")
        stats[FOUND] += n
        for i in range(n):
            c = f_cell[i]
            w = f_word[i]
            lt = f_letter[i]
            j = head[ply, c]
            dup = False
            while j >= 0:
                if m_word[j] == w and m_letter[j] == lt:
                    dup = True
                    break
                j = m_next[j]
            if dup:
                continue
            if top >= len(m_word):
                raise RuntimeError("balda: move stack too small")
            m_cell[top] = c
            m_letter[top] = lt
            m_word[top] = w
            m_len[top] = lengths[w]
            m_next[top] = head[ply, c]
            head[ply, c] = top
            top += 1
        return 0, top
    n = generate_full(words, pos, finds, False)
    if n < 0:
        raise RuntimeError("balda: find buffer too small")
    stats[FOUND] += n
    if top + n > len(m_word):
        raise RuntimeError("balda: move stack too small")
    start = top
    for i in range(n):
        m_cell[top] = f_cell[i]
        m_letter[top] = f_letter[i]
        m_word[top] = f_word[i]
        m_len[top] = lengths[f_word[i]]
        m_next[top] = -1
        top += 1
    return start, top


@kernel
def select_moves(lo, top, pos, stack, o, ply, order, prune, slack):
    """Write the node's playable moves to stack.order[o:], pruned and ordered; returns how many.

    Pruning keeps, per cell, the words at most `slack` letters shorter than the cell's longest
    (`stack.maxlen[ply]` is the scratch row of this node)."""
    board = pos.board
    played = pos.played
    m_cell = stack.cell
    m_len = stack.length
    m_word = stack.word
    ord_buf = stack.order
    maxlen = stack.maxlen[ply]
    k = 0
    if prune:
        for c in range(len(maxlen)):
            maxlen[c] = 0
        for j in range(lo, top):
            c = m_cell[j]
            if board[c] < 0 and played[m_word[j]] == 0 and m_len[j] > maxlen[c]:
                maxlen[c] = m_len[j]
    for j in range(lo, top):
        c = m_cell[j]
        if board[c] >= 0 or played[m_word[j]] != 0:
            continue
        if prune and m_len[j] < maxlen[c] - slack:
            continue
        if o + k >= len(ord_buf):
            raise RuntimeError("balda: order buffer too small")
        ord_buf[o + k] = j
        k += 1
    if order and k > 1:  # stable counting sort, longest words first
        counts = stack.counts
        tmp = stack.tmp
        for b in range(ORDER_BUCKETS):
            counts[b] = 0
        for i in range(k):
            counts[64 - m_len[ord_buf[o + i]]] += 1
        acc = 0
        for b in range(ORDER_BUCKETS):
            t = counts[b]
            counts[b] = acc
            acc += t
        for i in range(k):
            tmp[i] = ord_buf[o + i]
        for i in range(k):
            j = tmp[i]
            b = 64 - m_len[j]
            ord_buf[o + counts[b]] = j
            counts[b] += 1
    return k


@inline_kernel
def _probe(ply, plies, table):
    """Look node `ply` up in the transposition table: (1, value) when the stored bound settles it,
    else (0, 0) with the window narrowed by any stored bound and the node's remembered best move."""
    key = plies.hash[ply] ^ (table.z_pass if plies.passes[ply] else np.uint64(0))
    slot = key & np.uint64(len(table.key) - 1)
    plies.alpha0[ply] = plies.alpha[ply]
    plies.hint[ply] = table.move[slot] if table.key[slot] == key else -1
    if table.key[slot] == key and table.depth[slot] >= plies.depth[ply]:
        v = np.int64(table.val[slot])
        f = table.flag[slot]
        if f == 1:
            return 1, v
        if f == 2 and v > plies.alpha[ply]:
            plies.alpha[ply] = v
        elif f == 3 and v < plies.beta[ply]:
            plies.beta[ply] = v
        if plies.alpha[ply] >= plies.beta[ply]:
            return 1, v
    plies.store[ply] = True
    return 0, 0


@inline_kernel
def _store(ply, value, plies, table, stack):
    """Remember node `ply`'s value (with its bound type and depth) and best move in the table."""
    key = plies.hash[ply] ^ (table.z_pass if plies.passes[ply] else np.uint64(0))
    slot = key & np.uint64(len(table.key) - 1)
    table.key[slot] = key
    table.val[slot] = value
    table.depth[slot] = plies.depth[ply]
    bj = plies.bestj[ply] if plies.move[ply] >= 0 else -1
    table.move[slot] = (stack.word[bj] * 64 + stack.cell[bj]) * 64 + stack.letter[bj] if bj >= 0 else -1
    if value <= plies.alpha0[ply]:
        table.flag[slot] = 3  # upper bound
    elif value >= plies.beta[ply]:
        table.flag[slot] = 2  # lower bound
    else:
        table.flag[slot] = 1  # exact


@inline_kernel
def _hint_first(ply, k, plies, stack):
    """Move the node's remembered best move (if among its k moves) to the front, the others kept in order."""
    o = plies.o[ply]
    ord_buf = stack.order
    for i in range(k):
        j = ord_buf[o + i]
        if (stack.word[j] * 64 + stack.cell[j]) * 64 + stack.letter[j] == plies.hint[ply]:
            for t in range(i, 0, -1):
                ord_buf[o + t] = ord_buf[o + t - 1]
            ord_buf[o] = j
            return


@inline_kernel
def _push_pass(ply, plies):
    """Enter the pass below node `ply`: the opponent moves on the same board. Returns the child's ply."""
    c = ply + 1
    plies.move[ply] = -1
    plies.depth[c] = plies.depth[ply] - 1
    plies.alpha[c] = -plies.beta[ply]
    plies.beta[c] = -plies.alpha[ply]
    plies.last[c] = -1
    plies.passes[c] = plies.passes[ply] + 1
    plies.hash[c] = plies.hash[ply]
    plies.empty[c] = plies.empty[ply]
    plies.top[c] = plies.top[ply]
    plies.o[c] = plies.o[ply]
    return c


@inline_kernel
def _push_move(ply, j, pos, stack, plies, table):
    """Play stack entry j below node `ply` (letter on the board, word played). Returns the child's ply."""
    cell = stack.cell[j]
    length = stack.length[j]
    pos.board[cell] = stack.letter[j]
    pos.played[stack.word[j]] = 1
    plies.move[ply] = j
    c = ply + 1
    plies.depth[c] = plies.depth[ply] - 1
    # the move is worth len - child, so the window (alpha, beta) maps to (len - beta, len - alpha)
    plies.alpha[c] = length - plies.beta[ply]
    plies.beta[c] = length - plies.alpha[ply]
    plies.last[c] = cell
    plies.passes[c] = 0
    plies.hash[c] = plies.hash[ply] ^ table.z_cell[cell, stack.letter[j]] ^ table.z_word[stack.word[j]]
    plies.empty[c] = plies.empty[ply] - 1
    plies.top[c] = plies.top[ply]
    plies.o[c] = plies.o[ply] + plies.k[ply]
    return c


@kernel
def negamax(root, words, pos, finds, stack, plies, table, opts, stats, best_out):
    """Value of the root for the side to move (an explicit-stack negamax; numba caches no recursion).

    The root's move list must already be on the stack (`root.top` entries, chained in head[0]);
    best_out[0] receives the stack index of the first best root move (-1: pass).
    With `opts.tt` (alpha-beta only) a transposition table keyed by a Zobrist hash of the letters on the
    board, the played words and a pending pass stores values with their bound type and depth; a
    position's value depends on nothing else, so the root value stays exact. The table also keeps
    each node's best move, tried first when the node is met again.
    Once `opts.node_limit` nodes were entered the search stops (stats[STOPPED] = 1): the value and
    best_out then cover the root moves searched to the end (best_out[0] = -2 when there is none).
    """
    p_best = plies.best
    p_bestj = plies.bestj
    p_alpha = plies.alpha
    p_beta = plies.beta
    n_plies = stack.head.shape[0]
    for q in range(len(plies.store)):
        plies.store[q] = False
        plies.hint[q] = -1
        p_bestj[q] = -1
    use_ab = opts.alphabeta
    use_tt = opts.tt and use_ab
    best_out[0] = -1
    plies.hash[0] = root.hash
    plies.depth[0] = root.depth
    p_alpha[0] = root.alpha
    p_beta[0] = root.beta
    plies.last[0] = -1
    plies.passes[0] = 0
    plies.empty[0] = root.empty
    plies.top[0] = root.top
    plies.o[0] = 0
    plies.lo[0] = 0
    ENTER, NEXT, RETURN = 0, 1, 2
    ply = 0
    mode = ENTER
    value = 0
    while True:
        if mode == ENTER:
            if stats[NODES] >= opts.node_limit and ply > 0:
                stats[STOPPED] = 1
                if p_bestj[0] < 0:
                    best_out[0] = -2
                    return 0
                return p_best[0]
            stats[NODES] += 1
            plies.store[ply] = False
            if plies.depth[ply] == 0 or plies.empty[ply] == 0:
                value = 0
                mode = RETURN
                continue
            if use_tt and ply > 0:
                done, v = _probe(ply, plies, table)
                if done:
                    value = v
                    mode = RETURN
                    continue
            if ply > 0:
                lo, t = new_page(ply, plies.last[ply], plies.top[ply], words, pos, finds, stack, opts.incremental,
                                 stats)
                plies.lo[ply] = lo
                plies.top[ply] = t
            do_prune = opts.prune and plies.empty[ply] > opts.endgame
            k = select_moves(plies.lo[ply], plies.top[ply], pos, stack, plies.o[ply], ply, opts.order, do_prune,
                             opts.slack)
            plies.k[ply] = k
            p_best[ply] = NEG_INF
            p_bestj[ply] = -1
            plies.i[ply] = 0
            if use_tt and ply > 0 and plies.hint[ply] >= 0 and k > 1:
                _hint_first(ply, k, plies, stack)
            if k == 0:
                if plies.passes[ply] >= 1:  # two passes in a row: the game is over
                    value = 0
                    mode = RETURN
                    continue
                if ply + 1 >= n_plies:
                    raise RuntimeError("balda: search deeper than the ply stack")
                ply = _push_pass(ply, plies)
                continue
            mode = NEXT
            continue
        if mode == NEXT:
            i = plies.i[ply]
            if i >= plies.k[ply]:
                value = p_best[ply]
                mode = RETURN
                continue
            if ply + 1 >= n_plies:
                raise RuntimeError("balda: search deeper than the ply stack")
            ply = _push_move(ply, stack.order[plies.o[ply] + i], pos, stack, plies, table)
            mode = ENTER
            continue
        # RETURN: `value` is the value of node `ply` for its side to move
        if plies.store[ply]:
            plies.store[ply] = False
            _store(ply, value, plies, table, stack)
        if ply == 0:
            return value
        ply -= 1
        j = plies.move[ply]
        if j < 0:  # the child was a pass
            value = -value
            continue
        pos.board[stack.cell[j]] = -1
        pos.played[stack.word[j]] = 0
        v = stack.length[j] - value
        if v > p_best[ply]:
            p_best[ply] = v
            p_bestj[ply] = j
            if ply == 0:
                best_out[0] = j
        if use_ab:
            if p_best[ply] > p_alpha[ply]:
                p_alpha[ply] = p_best[ply]
            if p_alpha[ply] >= p_beta[ply]:
                value = p_best[ply]
                continue
        plies.i[ply] += 1
        mode = NEXT
