"""Propagation, probing and backtracking over the grid of colour masks, as one resumable numba kernel.

State lives in numpy arrays so that `run` can stop after a work budget (line-solver cell steps)
and be called again: Python checks the clock between calls, which gives `--timeout` without
timers inside numba and a deterministic `--work-limit`.

- Propagation: a FIFO queue of dirty lines; a line is re-solved only after one of its cells changed
  (or, for the ablation, full sweeps over all lines until nothing changes).
- Probing: for each undecided cell and each colour it may take, assume it and propagate. A
  contradiction removes that colour; cells that end up narrower under every colour of the cell are
  narrowed. Passes repeat until one changes nothing; that pass also scores the branching candidates.
- Search: binary branching `x = c` / `x != c` with a trail for undo, so every puzzle ends as
  solved (counting up to `max_solutions`), contradictory, or out of budget.
"""

from __future__ import annotations

import numpy as np

from ..lab.bits import lowest_bit
from ..lab.jit import inline_kernel, kernel
from .bitline import MAX_CELLS, WORD_BITS, solve_colour_bits, solve_colour_pair, solve_words
from .linecache import lookup, pack, store
from .linesolve import LineWork, solve_line

# ctr slots
R_, C_, QHEAD, QLEN, TPOS, SOLVES, WORK, LIMIT, UNKNOWN, NSOL, MODE, DEPTH = range(12)
PROBE_CUR, PROBE_CHANGED, BEST_X, BEST_B, BEST_MIN, BEST_SUM, STAMP, ROOT, NODES, PROBES, BACKTRACKS = range(12, 23)
MAXSOL, FLAGS, BR_X, BR_B, MAXDEPTH, BITS, HITS, PASS = range(23, 31)
# adaptive probing: SPRINT nodes left without probing; WIN_N/WIN_FAIL probed nodes in the current window and how
# many of them learnt nothing before branching; FOUND: the current node's probing learnt something.
SPRINT, WIN_N, WIN_FAIL, FOUND, SPRINT_LEN, WINDOW, FAIL_PCT, SPRINTS, HAVE_ROOT, NCTR = range(31, 41)
# modes of the search state machine
M_PROP, M_NODE, M_ENTER, M_BACK = 0, 1, 2, 3
# run() results (STALLED: propagation alone stopped at the root; the caller may set up the line cache)
DONE, LIMIT_REACHED, INTERRUPTED, STALLED = 0, 1, 2, 3
# flags
F_PROBING, F_NAIVE, F_SWEEP, F_CACHE, F_BALANCED, F_WORDS, F_COLOUR_BITS = 1, 2, 4, 8, 16, 32, 64
# ROOT values: what propagation alone did at the root
ROOT_UNKNOWN, ROOT_SOLVED, ROOT_CONTRADICTION, ROOT_STALLED = 0, 1, 2, 3


@kernel
def _single(m):
    return m & (m - 1) == 0


@kernel
def _enqueue(q, inq, ctr, line):
    if inq[line] == 0:
        n = q.shape[0]
        t = ctr[QHEAD] + ctr[QLEN]  # < 2n: the queue never holds a line twice
        q[t - n if t >= n else t] = line
        ctr[QLEN] += 1
        inq[line] = 1


@kernel
def _clear_queue(q, inq, ctr):
    n = q.shape[0]
    while ctr[QLEN] > 0:
        inq[q[ctr[QHEAD]]] = 0
        ctr[QHEAD] = (ctr[QHEAD] + 1) % n
        ctr[QLEN] -= 1


@kernel
def _write(grid, tcell, told, ctr, idx, new):
    """Change one cell, remembering the old mask on the trail (except in the first propagation at the root,
    which nothing ever undoes: a big line-solvable puzzle then touches no trail pages at all)."""
    old = grid[idx]
    if ctr[ROOT] != ROOT_UNKNOWN:
        t = ctr[TPOS]
        tcell[t] = idx
        told[t] = old
        ctr[TPOS] = t + 1
    if not _single(old) and _single(new):
        ctr[UNKNOWN] -= 1
    grid[idx] = new


@kernel
def _set_cell(grid, q, inq, tcell, told, ctr, idx, new):
    """Change a cell by decision (branch, exclusion, probe) and mark its row and column dirty."""
    _write(grid, tcell, told, ctr, idx, new)
    ncols = ctr[C_]
    _enqueue(q, inq, ctr, idx // ncols)
    _enqueue(q, inq, ctr, ctr[R_] + idx % ncols)


@kernel
def _undo(grid, tcell, told, ctr, tp):
    t = ctr[TPOS]
    while t > tp:
        t -= 1
        idx = tcell[t]
        cur = grid[idx]
        old = told[t]
        if _single(cur) and not _single(old):
            ctr[UNKNOWN] += 1
        grid[idx] = old
    ctr[TPOS] = tp


@inline_kernel
def _load_words(src, start, stride, n, o, z):
    """A black-and-white line's cell masks (bit 0 white, bit 1 black; cell i at src[start + i * stride])
    as the word arrays of `bitline.solve_words`: o the cells that may be black, z those that may be white."""
    for w in range(n // WORD_BITS + 1):
        o[w] = 0
        z[w] = 0
    for i in range(n):
        c = src[start + i * stride]
        w = i // WORD_BITS
        b = i % WORD_BITS
        o[w] |= ((c >> 1) & 1) << b
        z[w] |= (c & 1) << b


@inline_kernel
def _word_cell(o, z, w, b):
    """The cell mask of bit b of word w."""
    return ((o[w] >> b) & 1) * 2 + ((z[w] >> b) & 1)


@inline_kernel
def _cache_on(ctr):
    """The line cache is consulted and filled from the first branch or probe on (see `_solve_one`)."""
    return (ctr[FLAGS] & F_CACHE) != 0 and ctr[ROOT] != ROOT_UNKNOWN


@kernel
def _solve_words(cells, n, blen, k, wtab, wtmp, out):
    """A black-and-white line (cell masks: bit 0 white, bit 1 black) through `bitline.solve_words`."""
    o = wtmp[5]
    z = wtmp[6]
    _load_words(cells, 0, 1, n, o, z)
    if not solve_words(o, z, n, blen, k, wtab, wtmp):
        return False
    for i in range(n):
        out[i] = _word_cell(o, z, i // WORD_BITS, i % WORD_BITS)
    return True


@kernel
def _solve_one(pz, ws, grid, ctr, tab, line, naive):
    """Solve line `line` from the grid into ws.out (through the line cache); returns (ok, n, start, stride)."""
    meta, blen, bcol, bslot, nslot, slotcol, blo, bhi = pz
    cells, out, P, S, nc, diff, key, win, wtab, wtmp = ws
    n = meta[line, 0]
    start = meta[line, 1]
    stride = meta[line, 2]
    k = meta[line, 3]
    b0 = meta[line, 4]
    b1 = b0 + k
    for i in range(n):
        cells[i] = grid[start + i * stride]
    ctr[SOLVES] += 1
    # Before the first fixpoint no line state can come back (each solve follows a change of the line),
    # so the cache could only cost there: it is consulted and filled from the first branch or probe on.
    use_cache = _cache_on(ctr)
    nw = 0
    h = np.int64(0)
    if use_cache:
        bits = ctr[BITS]
        nw, h = pack(cells, n, bits, key)
        hit = lookup(tab, line, h, key, nw, bits, n, out)
        if hit >= 0:
            ctr[HITS] += 1
            ctr[WORK] += n
            return hit == 1, n, start, stride
    ctr[WORK] += n * (k + 1)
    if ctr[FLAGS] & F_WORDS:  # black and white: the bit-parallel solver, the same answers
        ok = _solve_words(cells, n, blen[b0:b1], k, wtab, wtmp, out)
    elif ctr[FLAGS] & F_COLOUR_BITS and n <= MAX_CELLS:  # colours, one word per colour: the same answers
        ok = solve_colour_bits(cells, n, blen[b0:b1], bcol[b0:b1], bslot[b0:b1], k, slotcol[line], nslot[line],
                               wtab, out)
    elif ctr[FLAGS] & F_COLOUR_BITS and n < 2 * WORD_BITS:  # two words per colour
        ok = solve_colour_pair(cells, n, blen[b0:b1], bcol[b0:b1], bslot[b0:b1], k, slotcol[line], nslot[line],
                               wtab, out)
    else:
        ok = solve_line(cells, n, blen[b0:b1], bcol[b0:b1], bslot[b0:b1], blo[b0:b1], bhi[b0:b1], k,
                        slotcol[line], nslot[line], LineWork(P, S, nc, diff, win), out, naive)
    if use_cache:
        store(tab, line, h, key, nw, bits, n, ok, out)
    return ok, n, start, stride


@kernel
def _propagate_words(pz, ws, st, line):
    """Solve a black-and-white line from the grid through `solve_words`; write back the cells that changed
    (in cell order, as `propagate` does) and mark their crossing lines dirty. False on a contradiction."""
    meta, blen = pz[0], pz[1]
    wtab, wtmp = ws[8], ws[9]
    grid, q, inq, tcell, told, ctr = st[0], st[1], st[2], st[3], st[4], st[5]
    n = meta[line, 0]
    start = meta[line, 1]
    stride = meta[line, 2]
    k = meta[line, 3]
    ctr[SOLVES] += 1
    ctr[WORK] += n * (k + 1)
    nw = n // WORD_BITS + 1
    o = wtmp[5]
    z = wtmp[6]
    o0 = wtmp[7]
    z0 = wtmp[8]
    _load_words(grid, start, stride, n, o, z)
    for w in range(nw):
        o0[w] = o[w]
        z0[w] = z[w]
    b0 = meta[line, 4]
    if not solve_words(o, z, n, blen[b0:b0 + k], k, wtab, wtmp):
        return False
    nrows = ctr[R_]
    for w in range(nw):
        ch = (o0[w] ^ o[w]) | (z0[w] ^ z[w])
        while ch != 0:
            low = ch & -ch
            ch ^= low
            b = lowest_bit(low)
            i = w * WORD_BITS + b
            _write(grid, tcell, told, ctr, start + i * stride, _word_cell(o, z, w, b))
            _enqueue(q, inq, ctr, nrows + i if line < nrows else i)
    return True


@kernel
def propagate(pz, ws, st):
    """Solve dirty lines until the queue is empty. 1 = fixpoint, 0 = contradiction, 2 = out of budget."""
    grid, q, inq, tcell, told, ctr = st[0], st[1], st[2], st[3], st[4], st[5]
    cells, out = ws[0], ws[1]
    naive = (ctr[FLAGS] & F_NAIVE) != 0
    nlines = q.shape[0]
    nrows = ctr[R_]
    if ctr[FLAGS] & F_SWEEP:
        return _sweep(pz, ws, st)
    while ctr[QLEN] > 0:
        if ctr[WORK] >= ctr[LIMIT]:
            return 2
        line = q[ctr[QHEAD]]
        ctr[QHEAD] = 0 if ctr[QHEAD] + 1 == nlines else ctr[QHEAD] + 1
        ctr[QLEN] -= 1
        inq[line] = 0
        if ctr[FLAGS] & F_WORDS and not _cache_on(ctr):
            # black and white, no cache: straight between the grid and the line's words
            if not _propagate_words(pz, ws, st, line):
                _clear_queue(q, inq, ctr)
                return 0
            continue
        ok, n, start, stride = _solve_one(pz, ws, grid, ctr, st[14], line, naive)
        if not ok:
            _clear_queue(q, inq, ctr)
            return 0
        for i in range(n):
            if out[i] != cells[i]:
                idx = start + i * stride
                _write(grid, tcell, told, ctr, idx, out[i])
                cross = nrows + i if line < nrows else i  # the column / row through cell i
                _enqueue(q, inq, ctr, cross)
    return 1


@kernel
def _sweep(pz, ws, st):
    """The article's first version: solve every row and column, again and again, until nothing changes."""
    grid, q, inq, tcell, told, ctr = st[0], st[1], st[2], st[3], st[4], st[5]
    cells, out = ws[0], ws[1]
    naive = (ctr[FLAGS] & F_NAIVE) != 0
    _clear_queue(q, inq, ctr)
    nlines = q.shape[0]
    changed = True
    while changed:
        changed = False
        for line in range(nlines):
            if ctr[WORK] >= ctr[LIMIT]:
                _enqueue(q, inq, ctr, 0)  # remember that propagation is unfinished
                return 2
            ok, n, start, stride = _solve_one(pz, ws, grid, ctr, st[14], line, naive)
            if not ok:
                return 0
            for i in range(n):
                if out[i] != cells[i]:
                    _write(grid, tcell, told, ctr, start + i * stride, out[i])
                    changed = True
    return 1


@kernel
def _record_solution(grid, sols, ctr):
    k = ctr[NSOL]
    for idx in range(grid.shape[0]):
        m = grid[idx]
        c = 0
        while m > 1:
            m >>= 1
            c += 1
        sols[k, idx] = c
    ctr[NSOL] = k + 1


@kernel
def _cheap_branch(grid, ctr):
    """Branching cell without probing: the undecided cell with most decided neighbours."""
    nrows = ctr[R_]
    ncols = ctr[C_]
    best = -1
    best_score = -1
    for idx in range(grid.shape[0]):
        if _single(grid[idx]):
            continue
        r = idx // ncols
        c = idx % ncols
        score = 0
        if r == 0 or _single(grid[idx - ncols]):
            score += 1
        if r == nrows - 1 or _single(grid[idx + ncols]):
            score += 1
        if c == 0 or _single(grid[idx - 1]):
            score += 1
        if c == ncols - 1 or _single(grid[idx + 1]):
            score += 1
        if score > best_score:
            best_score = score
            best = idx
            if score == 4:
                break
    m = grid[best]
    bit = np.int64(1)
    while (bit << 1) <= m:
        bit <<= 1
    while m & bit == 0:
        bit >>= 1
    ctr[BR_X] = best
    ctr[BR_B] = bit


@kernel
def _neighbours_known(grid, ctr, idx):
    """Decided 4-neighbours of a cell, the border counting as decided."""
    nrows = ctr[R_]
    ncols = ctr[C_]
    r = idx // ncols
    c = idx % ncols
    score = 0
    if r == 0 or _single(grid[idx - ncols]):
        score += 1
    if r == nrows - 1 or _single(grid[idx + ncols]):
        score += 1
    if c == 0 or _single(grid[idx - 1]):
        score += 1
    if c == ncols - 1 or _single(grid[idx + 1]):
        score += 1
    return score


@kernel
def _probe_pass(pz, ws, st):
    """Probe undecided cells from the cursor on.

    A pass probes every undecided cell with at least two decided neighbours (every undecided cell
    when there is none), each colour it may take, skipping (cell, colour) pairs that an earlier
    probe of the same pass implied (their consequences are a subset: no contradiction, and at
    least as many cells left). The balanced rule skips such a pair only when that bound already
    rules the cell out as the branching cell, so it picks the cell a full pass would. Returns 1 when the node
    changed (a probe hit a contradiction, or all probes of a cell agree on some other cell):
    propagate, then continue; 2 when a pass changed nothing: BR_X/BR_B hold the probe that decided
    the most cells; 3 out of budget (resume at the cursor); 4 a probe completed the grid.
    """
    grid, q, inq, tcell, told, ctr = st[0], st[1], st[2], st[3], st[4], st[5]
    acc, stamp, nar_cell, nar_mask = st[10], st[11], st[12], st[13]
    pad, padstamp, padleft = st[15], st[16], st[18]
    ncell = grid.shape[0]
    if ctr[PROBE_CUR] == 0:
        ctr[BEST_X] = -1
        ctr[BEST_MIN] = np.int64(1) << 60  # fewest undecided cells left by a probe
        ctr[PASS] += 1
        # Fall back to every undecided cell when none has two decided neighbours.
        ctr[BEST_SUM] = 2
        found = False
        for idx in range(ncell):
            if not _single(grid[idx]) and _neighbours_known(grid, ctr, idx) >= 2:
                found = True
                break
        if not found:
            ctr[BEST_SUM] = 0
    need = ctr[BEST_SUM]
    balanced = (ctr[FLAGS] & F_BALANCED) != 0
    x = ctr[PROBE_CUR]
    while x < ncell:
        m = grid[x]
        if _single(m) or (need > 0 and _neighbours_known(grid, ctr, x) < need):
            x += 1
            ctr[PROBE_CUR] = x
            continue
        base = ctr[STAMP]
        nprobe = 0
        skipped = False
        worst = np.int64(-1)
        cell_best = np.int64(1) << 60
        cell_bit = np.int64(0)
        last_lo = np.int64(0)
        last_hi = np.int64(0)
        mm = m
        while mm != 0:
            bit = mm & -mm
            mm ^= bit
            pass_id = ctr[PASS]
            # implied by an earlier probe P: this probe leaves >= left(P) >= padleft[x] cells, so under
            # the balanced rule the cell cannot be the branching cell once that reaches the best so far
            if padstamp[x] == pass_id and pad[x] & bit and (not balanced or padleft[x] >= ctr[BEST_MIN]):
                skipped = True
                continue
            tp = ctr[TPOS]
            ctr[PROBES] += 1
            _set_cell(grid, q, inq, tcell, told, ctr, x, bit)
            r = propagate(pz, ws, st)
            if r == 2:
                _undo(grid, tcell, told, ctr, tp)
                _clear_queue(q, inq, ctr)
                ctr[PROBE_CUR] = x
                ctr[STAMP] = base + nprobe + 2
                return 3
            if r == 0:
                _undo(grid, tcell, told, ctr, tp)
                _set_cell(grid, q, inq, tcell, told, ctr, x, grid[x] & ~bit)
                ctr[PROBE_CUR] = x
                ctr[PROBE_CHANGED] = 1
                ctr[PASS] += 1  # the pad's implications may not hold in the narrower node
                ctr[STAMP] = base + nprobe + 2
                return 1
            if ctr[UNKNOWN] == 0:
                _undo(grid, tcell, told, ctr, tp)
                ctr[BR_X] = x
                ctr[BR_B] = bit
                ctr[PROBE_CUR] = 0
                ctr[STAMP] = base + nprobe + 2
                return 4
            left = ctr[UNKNOWN]
            hi = ctr[TPOS]
            for t in range(tp, hi):
                y = tcell[t]
                g = grid[y]
                if _single(g):
                    if padstamp[y] != pass_id:
                        padstamp[y] = pass_id
                        pad[y] = 0
                        padleft[y] = left
                    pad[y] |= g
                    if left < padleft[y]:
                        padleft[y] = left
                if nprobe == 0:
                    if stamp[y] != base + 1:
                        acc[y] = g
                        stamp[y] = base + 1
                elif stamp[y] == base + nprobe:
                    acc[y] |= g
                    stamp[y] = base + nprobe + 1
            _undo(grid, tcell, told, ctr, tp)
            last_lo = tp
            last_hi = hi
            nprobe += 1
            if balanced:
                if left > worst:
                    worst = left
                if left < cell_best:
                    cell_best = left
                    cell_bit = bit
            elif left < ctr[BEST_MIN]:
                ctr[BEST_MIN] = left
                ctr[BEST_X] = x
                ctr[BEST_B] = bit
        if balanced and nprobe > 0 and not skipped and worst < ctr[BEST_MIN]:
            ctr[BEST_MIN] = worst
            ctr[BEST_X] = x
            ctr[BEST_B] = cell_bit
        # Cells narrowed under every colour of x are narrowed now (the trail memory still holds them).
        nn = 0
        if not skipped and nprobe > 0:
            for t in range(last_lo, last_hi):
                y = tcell[t]
                if stamp[y] == base + nprobe and y != x:
                    stamp[y] = 0
                    if acc[y] != grid[y]:
                        nar_cell[nn] = y
                        nar_mask[nn] = acc[y] & grid[y]
                        nn += 1
        ctr[STAMP] = base + nprobe + 2
        if nn > 0:
            for t in range(nn):
                _set_cell(grid, q, inq, tcell, told, ctr, nar_cell[t], nar_mask[t])
            ctr[PROBE_CUR] = x + 1
            ctr[PROBE_CHANGED] = 1
            ctr[PASS] += 1
            return 1
        x += 1
        ctr[PROBE_CUR] = x
    # End of a pass.
    ctr[PROBE_CUR] = 0
    if ctr[PROBE_CHANGED]:
        ctr[PROBE_CHANGED] = 0
        return 1  # something changed during this pass: run a clean pass for valid scores
    if ctr[BEST_X] < 0:
        _cheap_branch(grid, ctr)
    else:
        ctr[BR_X] = ctr[BEST_X]
        ctr[BR_B] = ctr[BEST_B]
    return 2


@kernel
def run(pz, ws, st):
    """Advance the search until it ends (DONE), reaches MAXSOL solutions, or the work budget runs out."""
    grid, q, inq, tcell, told, ctr = st[0], st[1], st[2], st[3], st[4], st[5]
    fx, fb, ftp, sols = st[6], st[7], st[8], st[9]
    probing = (ctr[FLAGS] & F_PROBING) != 0
    while True:
        mode = ctr[MODE]
        if mode == M_PROP:
            r = propagate(pz, ws, st)
            if r == 2:
                return INTERRUPTED
            if ctr[ROOT] == ROOT_UNKNOWN:
                if r == 0:
                    ctr[ROOT] = ROOT_CONTRADICTION
                elif ctr[UNKNOWN] == 0:
                    ctr[ROOT] = ROOT_SOLVED
                else:
                    ctr[ROOT] = ROOT_STALLED
                    ctr[MODE] = M_NODE
                    return STALLED
            ctr[MODE] = M_NODE if r == 1 else M_BACK
            if r == 1 and ctr[UNKNOWN] > 0 and ctr[PROBE_CHANGED] == 0:
                ctr[PROBE_CUR] = 0
        elif mode == M_NODE:
            if ctr[UNKNOWN] == 0:
                _record_solution(grid, sols, ctr)
                if ctr[NSOL] >= ctr[MAXSOL]:
                    return LIMIT_REACHED
                ctr[MODE] = M_BACK
                continue
            if probing and ctr[SPRINT] == 0:
                r = _probe_pass(pz, ws, st)
                if r == 3:
                    return INTERRUPTED
                if r == 0:
                    ctr[MODE] = M_BACK
                    continue
                if r == 1:
                    ctr[FOUND] = 1
                    ctr[MODE] = M_PROP
                    continue
                # Probing ran dry at this node. When it keeps running dry, branch without it for a while:
                # probing pays on puzzles it cracks by contradictions, and only costs on the others.
                ctr[WIN_N] += 1
                if ctr[FOUND] == 0:
                    ctr[WIN_FAIL] += 1
                if ctr[WINDOW] > 0 and ctr[WIN_N] >= ctr[WINDOW]:
                    if ctr[WIN_FAIL] * 100 >= ctr[FAIL_PCT] * ctr[WIN_N]:
                        ctr[SPRINT] = ctr[SPRINT_LEN]
                        ctr[SPRINTS] += 1
                    ctr[WIN_N] = 0
                    ctr[WIN_FAIL] = 0
            else:
                if ctr[SPRINT] > 0:
                    ctr[SPRINT] -= 1
                _cheap_branch(grid, ctr)
            ctr[FOUND] = 0
            ctr[MODE] = M_ENTER
        elif mode == M_ENTER:
            d = ctr[DEPTH]
            if d == 0 and ctr[HAVE_ROOT] == 0:  # the state probing reached at the root, for the SAT back-end
                root = st[17]
                for i in range(grid.shape[0]):
                    root[i] = grid[i]
                ctr[HAVE_ROOT] = 1
            ctr[NODES] += 1
            fx[d] = ctr[BR_X]
            fb[d] = ctr[BR_B]
            ftp[d] = ctr[TPOS]
            ctr[DEPTH] = d + 1
            if d + 1 > ctr[MAXDEPTH]:
                ctr[MAXDEPTH] = d + 1
            ctr[PROBE_CUR] = 0
            ctr[PROBE_CHANGED] = 0
            _set_cell(grid, q, inq, tcell, told, ctr, ctr[BR_X], ctr[BR_B])
            ctr[MODE] = M_PROP
        else:  # M_BACK
            d = ctr[DEPTH]
            if d == 0:
                return DONE
            d -= 1
            ctr[DEPTH] = d
            ctr[BACKTRACKS] += 1
            _undo(grid, tcell, told, ctr, ftp[d])
            _clear_queue(q, inq, ctr)
            x = fx[d]
            ctr[PROBE_CUR] = 0
            ctr[PROBE_CHANGED] = 0
            _set_cell(grid, q, inq, tcell, told, ctr, x, grid[x] & ~fb[d])
            ctr[FOUND] = 0
            ctr[MODE] = M_PROP


@kernel
def fill_layout(nrows, ncols, counts, flat, meta, blen, bcol, bslot, blo, bhi, nslot, slotcol):
    """Fill the kernels' arrays from the clues (flat (length, colour) pairs, `counts` per line): per line its
    meta row (cells, first cell, stride, blocks, first block), per block (in clue order, lines one after
    the other) its length, colour, colour slot and window.

    Block j's window: it starts after blocks 0..j-1 at their tightest (a gap only between equal
    colours) and ends before blocks j+1.. at theirs. Slots: the distinct colours of the line.
    Returns the first line whose clue needs more cells than it has (its windows are empty), or -1.
    """
    bad = -1
    pos = 0
    for line in range(nrows + ncols):
        k = counts[line]
        if line < nrows:
            meta[line, 0] = ncols
            meta[line, 1] = line * ncols
            meta[line, 2] = 1
        else:
            meta[line, 0] = nrows
            meta[line, 1] = line - nrows
            meta[line, 2] = ncols
        meta[line, 3] = k
        meta[line, 4] = pos
        n = meta[line, 0]
        ns = 0
        for j in range(k):
            blen[pos + j] = flat[pos + j, 0]
            c = flat[pos + j, 1]
            bcol[pos + j] = c
            slot = -1
            for t in range(ns):
                if slotcol[line, t] == c:
                    slot = t
            if slot < 0:
                slot = ns
                slotcol[line, ns] = c
                ns += 1
            bslot[pos + j] = slot
        nslot[line] = ns
        x = 0
        for j in range(k):
            if j > 0 and bcol[pos + j - 1] == bcol[pos + j]:
                x += 1
            blo[pos + j] = x
            x += blen[pos + j]
        x = n
        for j in range(k - 1, -1, -1):
            if j < k - 1 and bcol[pos + j + 1] == bcol[pos + j]:
                x -= 1
            x -= blen[pos + j]
            bhi[pos + j] = x
        if k > 0 and bhi[pos] < blo[pos] and bad < 0:
            bad = line
        pos += k
    return bad
