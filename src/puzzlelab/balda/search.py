"""Negamax game-tree search with alpha-beta, move ordering by word length and the article's
long-word pruning, over per-depth pages of moves (numba kernels).

The move stack holds pages: page p has the moves found after the p-th move of the line being
searched. With incremental search a node's move list is the union of all pages below it, read
through per-cell chains (`head[ply, cell]` -> newest entry at that cell, `m_next` -> older ones);
moves whose cell is filled or whose word is played are skipped on reading, so nothing is copied or
deleted and undo is free (the child's page is simply overwritten by the next sibling). Without
incremental search every node regenerates its full list into its own page (the baseline).

Values are score differences from the side to move over the searched horizon: a move is worth its
word length minus the value of the reply. A player without a move passes (a ply); two passes in a
row or a full board end the game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .movegen import generate_full, generate_new

NEG_INF = -(1 << 30)
# stats[] slots
NODES, GENERATIONS, FOUND = 0, 1, 2


@njit(cache=True)
def _new_page(ply, last_cell, top, board, nbr, info, term, sep, played, lengths,
              m_cell, m_letter, m_word, m_len, m_next, head, f_cell, f_letter, f_word, f_path,
              stamp, epoch, incremental, stats):
    """Build the page of node `ply` from index `top`; returns (first index of its list, new top)."""
    stats[GENERATIONS] += 1
    if incremental:
        for c in range(head.shape[1]):
            head[ply, c] = head[ply - 1, c]
        if last_cell < 0:  # a pass changes nothing
            return 0, top
        n = generate_new(board, nbr, last_cell, info, term, sep, played, f_cell, f_letter, f_word, f_path)
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
    n, e = generate_full(board, nbr, info, term, sep, played, stamp, epoch[0],
                         f_cell, f_letter, f_word, f_path, False)
    epoch[0] = e
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


@njit(cache=True)
def select_moves(lo, top, board, played, m_cell, m_len, m_word, ord_buf, o, maxlen, order, prune, slack):
    """Write the node's playable moves to ord_buf[o:], pruned and ordered; returns how many."""
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
        counts = np.zeros(66, dtype=np.int64)
        for i in range(k):
            counts[64 - m_len[ord_buf[o + i]]] += 1
        acc = 0
        for b in range(66):
            t = counts[b]
            counts[b] = acc
            acc += t
        tmp = ord_buf[o:o + k].copy()
        for i in range(k):
            j = tmp[i]
            b = 64 - m_len[j]
            ord_buf[o + counts[b]] = j
            counts[b] += 1
    return k


@njit(cache=True)
def negamax(depth, alpha, beta, n_empty, top,
            board, nbr, info, term, sep, played, lengths,
            m_cell, m_letter, m_word, m_len, m_next, head, ord_buf, maxlen,
            f_cell, f_letter, f_word, f_path, stamp, epoch,
            use_ab, order, prune, slack, endgame, incremental, stats, best_out,
            use_tt, root_hash, z_cell, z_word, z_pass, tt_key, tt_val, tt_depth, tt_flag, tt_move):
    """Value of the root for the side to move (an explicit-stack negamax; numba caches no recursion).

    The root's move list must already be on the stack (`top` entries, chained in head[0]);
    best_out[0] receives the stack index of the first best root move (-1: pass).
    With `use_tt` (alpha-beta only) a transposition table keyed by a Zobrist hash of the letters on the
    board, the played words and a pending pass stores values with their bound type and depth; a
    position's value depends on nothing else, so the root value stays exact. The table also keeps
    each node's best move, tried first when the node is met again (iterative deepening fills it).
    """
    plies = head.shape[0]
    p_depth = np.empty(plies, dtype=np.int64)
    p_alpha = np.empty(plies, dtype=np.int64)
    p_beta = np.empty(plies, dtype=np.int64)
    p_best = np.empty(plies, dtype=np.int64)
    p_k = np.empty(plies, dtype=np.int64)
    p_i = np.empty(plies, dtype=np.int64)
    p_o = np.empty(plies, dtype=np.int64)
    p_lo = np.empty(plies, dtype=np.int64)
    p_top = np.empty(plies, dtype=np.int64)
    p_last = np.empty(plies, dtype=np.int64)
    p_passes = np.empty(plies, dtype=np.int64)
    p_empty = np.empty(plies, dtype=np.int64)
    p_move = np.empty(plies, dtype=np.int64)
    p_hash = np.empty(plies, dtype=np.uint64)  # Zobrist hash of letters and played words (no pass bit)
    p_alpha0 = np.empty(plies, dtype=np.int64)
    p_store = np.zeros(plies, dtype=np.bool_)
    p_hint = np.full(plies, -1, dtype=np.int64)  # packed best move remembered for this node
    p_bestj = np.full(plies, -1, dtype=np.int64)  # stack index of the node's best move so far
    tt_mask = np.uint64(len(tt_key) - 1)
    use_tt = use_tt and use_ab
    best_out[0] = -1
    p_hash[0] = root_hash
    ply = 0
    p_depth[0] = depth
    p_alpha[0] = alpha
    p_beta[0] = beta
    p_last[0] = -1
    p_passes[0] = 0
    p_empty[0] = n_empty
    p_top[0] = top
    p_o[0] = 0
    p_lo[0] = 0
    ENTER, NEXT, RETURN = 0, 1, 2
    mode = ENTER
    value = 0
    while True:
        if mode == ENTER:
            stats[NODES] += 1
            p_store[ply] = False
            if p_depth[ply] == 0 or p_empty[ply] == 0:
                value = 0
                mode = RETURN
                continue
            if use_tt and ply > 0:
                key = p_hash[ply] ^ (z_pass if p_passes[ply] else np.uint64(0))
                slot = key & tt_mask
                p_alpha0[ply] = p_alpha[ply]
                p_hint[ply] = tt_move[slot] if tt_key[slot] == key else -1
                if tt_key[slot] == key and tt_depth[slot] >= p_depth[ply]:
                    v = np.int64(tt_val[slot])
                    f = tt_flag[slot]
                    if f == 1:
                        value = v
                        mode = RETURN
                        continue
                    if f == 2 and v > p_alpha[ply]:
                        p_alpha[ply] = v
                    elif f == 3 and v < p_beta[ply]:
                        p_beta[ply] = v
                    if p_alpha[ply] >= p_beta[ply]:
                        value = v
                        mode = RETURN
                        continue
                p_store[ply] = True
            if ply > 0:
                lo, t = _new_page(ply, p_last[ply], p_top[ply], board, nbr, info, term, sep, played,
                                  lengths, m_cell, m_letter, m_word, m_len, m_next, head, f_cell, f_letter, f_word,
                                  f_path, stamp, epoch, incremental, stats)
                p_lo[ply] = lo
                p_top[ply] = t
            do_prune = prune and p_empty[ply] > endgame
            k = select_moves(p_lo[ply], p_top[ply], board, played, m_cell, m_len, m_word, ord_buf, p_o[ply],
                             maxlen[ply], order, do_prune, slack)
            p_k[ply] = k
            p_best[ply] = NEG_INF
            p_bestj[ply] = -1
            p_i[ply] = 0
            if use_tt and ply > 0 and p_hint[ply] >= 0 and k > 1:  # the remembered best move first
                o = p_o[ply]
                for i in range(k):
                    j = ord_buf[o + i]
                    if (m_word[j] * 64 + m_cell[j]) * 64 + m_letter[j] == p_hint[ply]:
                        for t in range(i, 0, -1):
                            ord_buf[o + t] = ord_buf[o + t - 1]
                        ord_buf[o] = j
                        break
            if k == 0:
                if p_passes[ply] >= 1:  # two passes in a row: the game is over
                    value = 0
                    mode = RETURN
                    continue
                if ply + 1 >= plies:
                    raise RuntimeError("balda: search deeper than the ply stack")
                p_move[ply] = -1  # pass: the opponent moves on the same board
                c = ply + 1
                p_depth[c] = p_depth[ply] - 1
                p_alpha[c] = -p_beta[ply]
                p_beta[c] = -p_alpha[ply]
                p_last[c] = -1
                p_passes[c] = p_passes[ply] + 1
                p_hash[c] = p_hash[ply]
                p_empty[c] = p_empty[ply]
                p_top[c] = p_top[ply]
                p_o[c] = p_o[ply]
                ply = c
                continue
            mode = NEXT
            continue
        if mode == NEXT:
            i = p_i[ply]
            if i >= p_k[ply]:
                value = p_best[ply]
                mode = RETURN
                continue
            if ply + 1 >= plies:
                raise RuntimeError("balda: search deeper than the ply stack")
            j = ord_buf[p_o[ply] + i]
            cell = m_cell[j]
            board[cell] = m_letter[j]
            played[m_word[j]] = 1
            p_move[ply] = j
            c = ply + 1
            p_depth[c] = p_depth[ply] - 1
            # the move is worth len - child, so the window (alpha, beta) maps to (len - beta, len - alpha)
            p_alpha[c] = m_len[j] - p_beta[ply]
            p_beta[c] = m_len[j] - p_alpha[ply]
            p_last[c] = cell
            p_passes[c] = 0
            p_hash[c] = p_hash[ply] ^ z_cell[cell, m_letter[j]] ^ z_word[m_word[j]]
            p_empty[c] = p_empty[ply] - 1
            p_top[c] = p_top[ply]
            p_o[c] = p_o[ply] + p_k[ply]
            ply = c
            mode = ENTER
            continue
        # RETURN: `value` is the value of node `ply` for its side to move
        if p_store[ply]:
            p_store[ply] = False
            key = p_hash[ply] ^ (z_pass if p_passes[ply] else np.uint64(0))
            slot = key & tt_mask
            tt_key[slot] = key
            tt_val[slot] = value
            tt_depth[slot] = p_depth[ply]
            bj = p_bestj[ply] if p_move[ply] >= 0 else -1
            tt_move[slot] = (m_word[bj] * 64 + m_cell[bj]) * 64 + m_letter[bj] if bj >= 0 else -1
            if value <= p_alpha0[ply]:
                tt_flag[slot] = 3  # upper bound
            elif value >= p_beta[ply]:
                tt_flag[slot] = 2  # lower bound
            else:
                tt_flag[slot] = 1  # exact
        if ply == 0:
            return value
        ply -= 1
        j = p_move[ply]
        if j < 0:  # the child was a pass
            value = -value
            continue
        board[m_cell[j]] = -1
        played[m_word[j]] = 0
        v = m_len[j] - value
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
        p_i[ply] += 1
        mode = NEXT
