"""Search on black-and-white puzzles of at most 62x62 cells, every line a pair of bit masks (`bitline`).

A board is one int64 array: for every row and every column, the cells that may still be black (`o`)
and those that may still be white (`z`); a cell is decided when only one of its bits is left, and
its row and its column always agree. Copying a board is 2 (rows + columns) words, so probing and
backtracking work on whole boards, as LalaFrogKK, the tournament champion, does (Wu et al., "An
efficient approach to solving nonograms", IEEE TCIAIG 2013):

- propagation solves dirty lines until none is left (dirty sets are bit masks of rows and columns);
- probing tries every undecided cell both ways on a copy of the board and propagates: a
  contradiction decides the cell, cells that both tries decide alike are decided, and passes repeat
  until one changes nothing. A probe whose lines have not changed since it ran would give the same
  answer, so it is skipped (every line has a version stamp, every probe remembers the lines it read);
- branching takes the cell whose two probes decide most cells, min(gain) + 1.85 ln(1 + |difference|)
  (in integer thousandths), white first, each child being that probe's propagated board.

The kernel is resumable: `run` returns after its work budget with the state in arrays, so that Python
can check the clock (`--timeout`) and budgets stay reproducible (`--work-limit`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..lab.bits import lowest_bit, popcount
from ..lab.clock import ticks
from ..lab.jit import inline_kernel, kernel
from .bitline import solve_bits

# ctr slots
R_, C_, WORK, LIMIT, DEPTH, MODE, NSOL, MAXSOL, CLOCK, UNKNOWN, SOLVES, PROBES, NODES, BACKTRACKS = range(14)
MAXDEPTH, ROOT, HAVE_ROOT, NCTR = range(14, 18)
# modes
M_START, M_NODE, M_BACK = 0, 1, 2
# run() results
DONE, LIMIT_REACHED, INTERRUPTED = 0, 1, 2
# ROOT: what propagation alone did
ROOT_UNKNOWN, ROOT_SOLVED, ROOT_CONTRADICTION, ROOT_STALLED = 0, 1, 2, 3

LOG_SCALE = 1850  # 1.85 ln(1 + d), in thousandths of a cell


_LOG = np.zeros(0, np.int64)  # the longest table made so far: entry d depends on d only


def log_table(ncell: int) -> np.ndarray:
    """The branching score's log term for 0..ncell unknown cells (a view never written; shared by every puzzle,
    so a corpus pays for it once instead of once per puzzle)."""
    global _LOG
    if len(_LOG) <= ncell:
        grown = np.array([int(round(LOG_SCALE * math.log1p(d))) for d in range(len(_LOG), 2 * ncell + 1)],
                         dtype=np.int64)
        _LOG = np.concatenate([_LOG, grown])
    return _LOG[: ncell + 1]


class Tables(NamedTuple):
    """The puzzle: block lengths per line (rows, then columns) and where each line sits in a board."""

    blen: np.ndarray  # (lines, max blocks + 1)
    nblk: np.ndarray  # (lines,)
    logt: np.ndarray  # (cells + 1,) the branching score's log term


class Work(NamedTuple):
    board: np.ndarray  # the current board: o of rows, z of rows, o of columns, z of columns
    try1: np.ndarray  # a probe's board (black)
    try0: np.ndarray  # a probe's board (white)
    pend: np.ndarray  # (depth + 1, board) the second child of each open branch
    pendf: np.ndarray  # (depth + 1,) 1 while that second child is still to be searched
    root: np.ndarray  # the board after probing at the root (for the SAT back-end)
    tab: np.ndarray  # (4, blocks + 1) line solver scratch
    lver: np.ndarray  # (lines,) clock of each line's last change on the current board
    ptime: np.ndarray  # (cells,) clock of each cell's last probe (-1: never)
    pread: np.ndarray  # (cells, 2) rows / columns that probe read
    gain: np.ndarray  # (cells, 2) cells the black / white probe decided
    read: np.ndarray  # (2,) rows / columns read by the propagation in progress
    sols: np.ndarray  # (solutions, cells) int8


@kernel
def fill_lengths(counts, flat, starts, blen, nrows, ncols):
    """Block lengths per line from the flat clue arrays; returns the first line they cannot fit, or -1."""
    bad = -1
    for line in range(counts.shape[0]):
        k = counts[line]
        need = k - 1 if k > 0 else 0
        for j in range(k):
            blen[line, j] = flat[starts[line] + j, 0]
            need += blen[line, j]
        n = ncols if line < nrows else nrows
        if need > n and bad < 0:
            bad = line
    return bad


@kernel
def _propagate(b, drows, dcols, tb, wk, ctr, main):
    """Solve dirty lines of board b to a fixpoint. Returns (ok, cells decided); main: stamp changed lines."""
    R = ctr[R_]
    C = ctr[C_]
    one = np.int64(1)
    decided = 0
    while drows != 0 or dcols != 0:
        if drows != 0:
            low = drows & -drows
            drows ^= low
            r = lowest_bit(low)
            wk.read[0] |= low
            ctr[SOLVES] += 1
            ctr[WORK] += C * (tb.nblk[r] + 1)
            o = b[r]
            z = b[R + r]
            ok, o2, z2 = solve_bits(o, z, C, tb.blen[r], tb.nblk[r], wk.tab)
            if not ok:
                return False, decided
            if o2 != o or z2 != z:
                b[r] = o2
                b[R + r] = z2
                if main:
                    ctr[CLOCK] += 1
                    wk.lver[r] = ctr[CLOCK]
                gone_o = o ^ o2  # cells that can no longer be black: white now
                gone_z = z ^ z2  # cells that can no longer be white: black now
                decided += popcount(gone_o | gone_z)
                ch = gone_o | gone_z
                while ch != 0:
                    bit = ch & -ch
                    ch ^= bit
                    c = lowest_bit(bit)
                    if gone_o & bit:
                        b[2 * R + c] &= ~(one << r)
                    else:
                        b[2 * R + C + c] &= ~(one << r)
                    if main:
                        ctr[CLOCK] += 1
                        wk.lver[R + c] = ctr[CLOCK]
                    dcols |= one << c
        else:
            low = dcols & -dcols
            dcols ^= low
            c = lowest_bit(low)
            wk.read[1] |= low
            line = R + c
            ctr[SOLVES] += 1
            ctr[WORK] += R * (tb.nblk[line] + 1)
            o = b[2 * R + c]
            z = b[2 * R + C + c]
            ok, o2, z2 = solve_bits(o, z, R, tb.blen[line], tb.nblk[line], wk.tab)
            if not ok:
                return False, decided
            if o2 != o or z2 != z:
                b[2 * R + c] = o2
                b[2 * R + C + c] = z2
                if main:
                    ctr[CLOCK] += 1
                    wk.lver[line] = ctr[CLOCK]
                gone_o = o ^ o2
                gone_z = z ^ z2
                decided += popcount(gone_o | gone_z)
                ch = gone_o | gone_z
                while ch != 0:
                    bit = ch & -ch
                    ch ^= bit
                    r = lowest_bit(bit)
                    if gone_o & bit:
                        b[r] &= ~(one << c)
                    else:
                        b[R + r] &= ~(one << c)
                    if main:
                        ctr[CLOCK] += 1
                        wk.lver[r] = ctr[CLOCK]
                    drows |= one << r
    return True, decided


@inline_kernel
def _unknown(b, R):
    n = 0
    for r in range(R):
        n += popcount(b[r] & b[R + r])
    return n


@kernel
def _adopt(b, new, ctr, wk):
    """Make `new` the current board, stamping every line that differs."""
    R = ctr[R_]
    C = ctr[C_]
    for line in range(R + C):
        if line < R:
            io, iz = line, R + line
        else:
            io, iz = 2 * R + line - R, 2 * R + C + line - R
        if b[io] != new[io] or b[iz] != new[iz]:
            ctr[CLOCK] += 1
            wk.lver[line] = ctr[CLOCK]
            b[io] = new[io]
            b[iz] = new[iz]


@inline_kernel
def _set_cell(b, R, C, r, c, black):
    one = np.int64(1)
    if black:
        b[R + r] &= ~(one << c)
        b[2 * R + C + c] &= ~(one << r)
    else:
        b[r] &= ~(one << c)
        b[2 * R + c] &= ~(one << r)


@kernel
def _probe(src, dst, r, c, black, tb, wk, ctr):
    """Copy src to dst, decide cell (r, c), propagate. Returns (ok, cells decided)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]
    R = ctr[R_]
    C = ctr[C_]
    _set_cell(dst, R, C, r, c, black)
    one = np.int64(1)
    ok, decided = _propagate(dst, one << r, one << c, tb, wk, ctr, False)
    return ok, decided + 1


@kernel
def _stale(x, wk, ctr):
    """The cell's last probe read a line that has changed since (or it was never probed)."""
    t = wk.ptime[x]
    if t < 0:
        return True
    rows = wk.pread[x, 0]
    while rows != 0:
        bit = rows & -rows
        rows ^= bit
        if wk.lver[lowest_bit(bit)] > t:
            return True
    R = ctr[R_]
    cols = wk.pread[x, 1]
    while cols != 0:
        bit = cols & -cols
        cols ^= bit
        if wk.lver[R + lowest_bit(bit)] > t:
            return True
    return False


@kernel
def _probe_node(tb, wk, ctr):
    """Probe every undecided cell of the current board until a pass changes nothing.

    Returns 0 contradiction, 1 solved (no undecided cell), 2 branch on the returned cell,
    3 out of budget (the board keeps what was learnt; probing this node again resumes cheaply).
    """
    R = ctr[R_]
    C = ctr[C_]
    b = wk.board
    while True:
        changed = False
        for x in range(R * C):
            r = x // C
            c = x % C
            one = np.int64(1)
            if (b[r] & b[R + r]) >> c & 1 == 0:
                continue
            if not _stale(x, wk, ctr):
                continue
            if ctr[WORK] >= ctr[LIMIT]:
                return 3, -1
            ctr[PROBES] += 1
            ctr[CLOCK] += 1
            wk.ptime[x] = ctr[CLOCK]
            wk.read[0] = 0
            wk.read[1] = 0
            ok1, g1 = _probe(b, wk.try1, r, c, True, tb, wk, ctr)
            ok0, g0 = _probe(b, wk.try0, r, c, False, tb, wk, ctr)
            wk.pread[x, 0] = wk.read[0]
            wk.pread[x, 1] = wk.read[1]
            wk.gain[x, 0] = g1
            wk.gain[x, 1] = g0
            if not ok1 and not ok0:
                return 0, -1
            if not ok1:
                _adopt(b, wk.try0, ctr, wk)
                changed = True
            elif not ok0:
                _adopt(b, wk.try1, ctr, wk)
                changed = True
            else:
                # Cells both probes decide alike: o and z of every line are the union of the two tries.
                drows = np.int64(0)
                dcols = np.int64(0)
                for i in range(2 * (R + C)):
                    m = wk.try1[i] | wk.try0[i]
                    wk.try1[i] = m
                    if m != b[i]:
                        if i < 2 * R:
                            drows |= one << (i % R)
                        else:
                            dcols |= one << ((i - 2 * R) % C)
                if drows != 0 or dcols != 0:
                    _adopt(b, wk.try1, ctr, wk)
                    changed = True
                    ok, _ = _propagate(b, drows, dcols, tb, wk, ctr, True)
                    if not ok:
                        return 0, -1
            if _unknown(b, R) == 0:
                return 1, -1
        if not changed:
            break
    if _unknown(b, R) == 0:
        return 1, -1
    best = -1
    best_score = np.int64(-1)
    for x in range(R * C):
        r = x // C
        c = x % C
        if (b[r] & b[R + r]) >> c & 1 == 0:
            continue
        g1 = wk.gain[x, 0]
        g0 = wk.gain[x, 1]
        d = g1 - g0 if g1 > g0 else g0 - g1
        score = 1000 * min(g1, g0) + tb.logt[d]
        if score > best_score:
            best_score = score
            best = x
    return 2, best


@kernel
def _record(b, wk, ctr):
    R = ctr[R_]
    C = ctr[C_]
    k = ctr[NSOL]
    for r in range(R):
        o = b[r]
        for c in range(C):
            wk.sols[k, r * C + c] = (o >> c) & 1
    ctr[NSOL] = k + 1


@kernel
def run(tb, wk, ctr):
    """Advance the search until it ends (DONE), has MAXSOL solutions, or reaches the work limit."""
    R = ctr[R_]
    C = ctr[C_]
    one = np.int64(1)
    while True:
        mode = ctr[MODE]
        if mode == M_START:  # propagation alone, from every line
            allr = (one << R) - 1
            allc = (one << C) - 1
            ok, _ = _propagate(wk.board, allr, allc, tb, wk, ctr, True)
            if not ok:
                ctr[ROOT] = ROOT_CONTRADICTION
                return DONE
            if _unknown(wk.board, R) == 0:
                ctr[ROOT] = ROOT_SOLVED
                _record(wk.board, wk, ctr)
                return DONE
            ctr[ROOT] = ROOT_STALLED
            ctr[MODE] = M_NODE
        elif mode == M_NODE:
            res, x = _probe_node(tb, wk, ctr)
            if res == 3:
                return INTERRUPTED
            if res == 0:
                ctr[MODE] = M_BACK
                continue
            if ctr[DEPTH] == 0 and ctr[HAVE_ROOT] == 0:
                for i in range(wk.board.shape[0]):
                    wk.root[i] = wk.board[i]
                ctr[HAVE_ROOT] = 1
            if res == 1:
                _record(wk.board, wk, ctr)
                if ctr[NSOL] >= ctr[MAXSOL]:
                    return LIMIT_REACHED
                ctr[MODE] = M_BACK
                continue
            # Branch: white first, the black try waits on the stack (both are propagated probe boards).
            d = ctr[DEPTH]
            r = x // C
            c = x % C
            ok1, _ = _probe(wk.board, wk.pend[d], r, c, True, tb, wk, ctr)
            ok0, _ = _probe(wk.board, wk.try0, r, c, False, tb, wk, ctr)
            if not ok0 and not ok1:  # cannot happen after a clean probing pass; never branch on it
                ctr[MODE] = M_BACK
                continue
            if not ok0 or not ok1:
                _adopt(wk.board, wk.try0 if ok0 else wk.pend[d], ctr, wk)
                continue
            wk.pendf[d] = 1
            ctr[NODES] += 1
            ctr[DEPTH] = d + 1
            if d + 1 > ctr[MAXDEPTH]:
                ctr[MAXDEPTH] = d + 1
            _adopt(wk.board, wk.try0, ctr, wk)
        else:  # M_BACK: the nearest open branch's second child, or the end of the search
            d = ctr[DEPTH]
            while d > 0 and wk.pendf[d - 1] == 0:
                d -= 1
            if d == 0:
                return DONE
            wk.pendf[d - 1] = 0
            ctr[DEPTH] = d
            ctr[BACKTRACKS] += 1
            _adopt(wk.board, wk.pend[d - 1], ctr, wk)
            ctr[MODE] = M_NODE


# solve_batch() codes besides run()'s: the clues cannot fit their lines (no picture), or not reached
OVERFULL, UNTRIED = -2, -1


class Batch(NamedTuple):
    """Many puzzles in flat arrays (the batch path: one kernel call solves them one after another).

    Inputs: blocks per line of every puzzle (rows, then columns) and their lengths, the first line and
    first block of each puzzle, its (rows, columns) and the work it may spend. Outputs: run()'s code
    (or OVERFULL), the counters, the solutions (at sol0[i], MAXSOL x cells each) and the cycle-counter
    ticks each puzzle took.
    """

    counts: np.ndarray  # (lines of all puzzles,)
    lens: np.ndarray  # (blocks of all puzzles,)
    line0: np.ndarray  # (puzzles + 1,)
    block0: np.ndarray  # (puzzles + 1,)
    dims: np.ndarray  # (puzzles, 2)
    limit: np.ndarray  # (puzzles,)
    code: np.ndarray  # (puzzles,) out
    ctr: np.ndarray  # (puzzles, NCTR) out
    sols: np.ndarray  # (sum of MAXSOL x cells,) int8, out
    sol0: np.ndarray  # (puzzles + 1,)
    ticks: np.ndarray  # (puzzles,) out


class Scratch(NamedTuple):
    """Flat buffers as large as the batch's largest puzzle needs; each puzzle's Tables and Work are views of them."""

    blen: np.ndarray
    board: np.ndarray
    try1: np.ndarray
    try0: np.ndarray
    pend: np.ndarray
    pendf: np.ndarray
    root: np.ndarray
    tab: np.ndarray
    lver: np.ndarray
    ptime: np.ndarray
    pread: np.ndarray
    gain: np.ndarray
    read: np.ndarray


def scratch(max_lines: int, max_blocks: int, max_cells: int) -> Scratch:
    """Buffers for puzzles of up to these many lines, blocks in a line and cells."""
    nb = 2 * max_lines
    z = np.zeros
    return Scratch(z(max_lines * (max_blocks + 1), np.int64), z(nb, np.int64), z(nb, np.int64), z(nb, np.int64),
                   z((max_cells + 1) * nb, np.int64), z(max_cells + 1, np.int64), z(nb, np.int64),
                   z(4 * (max_blocks + 2), np.int64), z(max_lines, np.int64), z(max_cells, np.int64),
                   z(2 * max_cells, np.int64), z(2 * max_cells, np.int64), z(2, np.int64))


@kernel
def solve_batch(bt, sc, logt, maxsol, start):
    """The first `run` call of every puzzle from `start` on, from a fresh state, up to its work limit.
    Returns the first puzzle that is not finished by then (its state is left in `sc` for the caller to
    take over), or the number of puzzles."""
    one = np.int64(1)
    for i in range(start, bt.dims.shape[0]):
        t0 = ticks()
        R = bt.dims[i, 0]
        C = bt.dims[i, 1]
        nl = R + C
        nb = 2 * nl
        ncell = R * C
        l0 = bt.line0[i]
        maxk = 1
        for line in range(nl):
            maxk = max(maxk, bt.counts[l0 + line])
        blen = sc.blen[: nl * (maxk + 1)].reshape(nl, maxk + 1)
        pos = bt.block0[i]
        bad = False
        for line in range(nl):
            k = bt.counts[l0 + line]
            need = k - 1 if k > 0 else 0
            for j in range(maxk + 1):
                blen[line, j] = 0
            for j in range(k):
                blen[line, j] = bt.lens[pos]
                need += bt.lens[pos]
                pos += 1
            if need > (C if line < R else R):
                bad = True
        c = bt.ctr[i]
        for s in range(c.shape[0]):
            c[s] = 0
        if bad:
            bt.code[i] = OVERFULL
            bt.ticks[i] = ticks() - t0
            continue
        tb = Tables(blen, bt.counts[l0: l0 + nl], logt[: ncell + 1])
        board = sc.board[:nb]
        for r in range(2 * R):
            board[r] = (one << C) - 1
        for x in range(2 * R, nb):
            board[x] = (one << R) - 1
        pendf = sc.pendf[: ncell + 1]
        pendf[:] = 0
        lver = sc.lver[:nl]
        lver[:] = 0
        ptime = sc.ptime[:ncell]
        ptime[:] = -1
        pread = sc.pread[: 2 * ncell].reshape(ncell, 2)
        pread[:] = 0
        gain = sc.gain[: 2 * ncell].reshape(ncell, 2)
        gain[:] = 0
        sc.read[:] = 0
        sols = bt.sols[bt.sol0[i]: bt.sol0[i + 1]].reshape(maxsol, ncell)
        sols[:] = 0
        wk = Work(board, sc.try1[:nb], sc.try0[:nb], sc.pend[: (ncell + 1) * nb].reshape(ncell + 1, nb), pendf,
                  sc.root[:nb], sc.tab[: 4 * (maxk + 2)].reshape(4, maxk + 2), lver, ptime, pread, gain, sc.read,
                  sols)
        c[R_] = R
        c[C_] = C
        c[MAXSOL] = maxsol
        c[LIMIT] = bt.limit[i]
        bt.code[i] = run(tb, wk, c)
        bt.ticks[i] = ticks() - t0
        if bt.code[i] == INTERRUPTED:
            return i
    return bt.dims.shape[0]
