"""The Snakebird rules as numba kernels (shared/docs/snakebird-rules.md §3-§9).

A *decoded* state is four small arrays: `cells[s, j]` (cell of segment j of snake s, head first),
`slen[s]` (0 = the snake has left), `fruit[f]` (1 = still there) and `gpos[g]` (cell of gadget
slot g's first cell, 0 = destroyed). A *packed* state is the canonical bit string of §9.4 in
`nbytes` bytes, lowest bit first (byte 0 holds bits 0-7). `expand_range` turns packed states into
their canonical packed successors; everything else here is its building blocks.

Level constants travel as one tuple `lv` (see `level_tuple`): `params` (sizes), `flags` (terrain
properties per cell, the F_* bits), `fruit_at` (fruit index per cell or -1), `gad_off`/`gad_n`
(shapes per gadget slot), `gad_class` (slots with identical shapes share a class), `tele`
(teleporter pairs). Scratch memory travels as one tuple `wk` (see `make_work`): the kernels never
allocate, so they run without numba's reference counting (each array passed or sliced would
otherwise cost an atomic increment and decrement, which also made two threads slower than one)
and release the GIL, so callers can expand slices of a batch on several threads.

Occupancy grids are *stamped*: `grid[c] = stamp * 64 + object`, valid only while `grid[c] >> 6`
equals the current stamp, so a grid is never cleared (objects are numbered 0..63: snakes, then
gadgets).
"""

from __future__ import annotations

import numpy as np

from ..lab.jit import inline_kernel as _inline
from ..lab.jit import kernel as _kernel

# params indices
P_H, P_W, P_NS, P_NF, P_NG, P_SML, P_IB, P_LB, P_EXIT, P_NTP, P_BYTES = range(11)

C_WALL = ord(".")
C_WATER = ord("~")
C_SPIKES = ord("#")
C_EMPTY = ord(" ")

# terrain flags per cell
F_EMPTY = 1  # objects may enter (the stored terrain is a space)
F_HOLD_SNAKE = 2  # ground: holds snakes up
F_HOLD_GADGET = 4  # ground or spikes: holds gadgets up
F_KILL_SNAKE = 8  # water or spikes: a snake falling in dies
F_KILL_GADGET = 16  # water: a gadget falling in is destroyed

# Physics steps after which a move is declared invalid (a teleport/fall cycle; no real level has one).
MAX_PHYSICS_STEPS = 100_000

# work tuple indices (make_work)
W_CELLS0, W_SLEN0, W_FRUIT0, W_GPOS0, W_CELLS, W_SLEN, W_FRUIT, W_GPOS, W_GRID, W_STAMP, W_SUP, W_STACK = range(12)


def terrain_flags(terrain: np.ndarray) -> np.ndarray:
    """The F_* bits of every cell from its terrain character code."""
    t = np.asarray(terrain)
    flags = np.zeros(t.shape[0], dtype=np.uint8)
    flags[t == C_EMPTY] |= F_EMPTY
    flags[t == C_WALL] |= F_HOLD_SNAKE | F_HOLD_GADGET
    flags[t == C_SPIKES] |= F_HOLD_GADGET | F_KILL_SNAKE
    flags[t == C_WATER] |= F_KILL_SNAKE | F_KILL_GADGET
    return flags


def make_work(params: np.ndarray) -> tuple:
    """Scratch buffers for one thread: the parent and child decoded states, a stamped grid, sets."""
    ns, nf, ng, sml = (int(params[i]) for i in (P_NS, P_NF, P_NG, P_SML))
    nobj = ns + ng
    return (np.zeros((ns, sml + 1), dtype=np.int64), np.zeros(ns, dtype=np.int64),
            np.zeros(max(nf, 1), dtype=np.uint8), np.zeros(max(ng, 1), dtype=np.int64),
            np.zeros((ns, sml + 1), dtype=np.int64), np.zeros(ns, dtype=np.int64),
            np.zeros(max(nf, 1), dtype=np.uint8), np.zeros(max(ng, 1), dtype=np.int64),
            np.zeros(int(params[P_H]) * int(params[P_W]), dtype=np.int64), np.zeros(1, dtype=np.int64),
            np.zeros(max(nobj, 1), dtype=np.uint8), np.zeros(max(nobj, 1), dtype=np.int64))


@_inline
def _delta(d, w):
    if d == 0:
        return -w
    if d == 1:
        return 1
    if d == 2:
        return w
    return -1


@_inline
def _dir_of(diff, w):
    """Direction code of a cell difference (one of -W, +1, +W, -1)."""
    if diff == -w:
        return 0
    if diff == 1:
        return 1
    if diff == w:
        return 2
    return 3


# ----------------------------------------------------------------------------------------------
# packing (§9.4): at most 128 bits, held in two words while packing


@_inline
def _put(lo, hi, pos, value, nbits):
    v = np.uint64(value)
    if nbits == 0:
        return lo, hi
    if pos >= 64:
        hi |= v << np.uint64(pos - 64)
    else:
        lo |= v << np.uint64(pos)
        if pos + nbits > 64:
            hi |= v >> np.uint64(64 - pos)
    return lo, hi


@_inline
def _get(lo, hi, pos, nbits):
    if nbits == 0:
        return np.uint64(0)
    if pos >= 64:
        v = hi >> np.uint64(pos - 64)
    else:
        v = lo >> np.uint64(pos)
        if pos + nbits > 64:
            v |= hi << np.uint64(64 - pos)
    if nbits < 64:
        v &= (np.uint64(1) << np.uint64(nbits)) - np.uint64(1)
    return v


@_kernel
def pack(params, cells, slen, fruit, gpos, out):
    """Write the (already canonical) decoded state into `out` (nbytes uint8)."""
    w = params[P_W]
    ns = params[P_NS]
    nf = params[P_NF]
    ng = params[P_NG]
    ib = params[P_IB]
    lb = params[P_LB]
    nbytes = params[P_BYTES]
    tail_bits = 2 * (params[P_SML] - 1)
    lo = np.uint64(0)
    hi = np.uint64(0)
    pos = 0
    for s in range(ns):
        L = slen[s]
        if L > 0:
            tail = np.uint64(0)
            # link j joins segment j+1 to segment j; the newest link (j = 0) goes in the lowest bits
            for j in range(L - 2, -1, -1):
                tail = (tail << np.uint64(2)) | np.uint64(_dir_of(cells[s, j] - cells[s, j + 1], w))
            lo, hi = _put(lo, hi, pos, tail, tail_bits)
            lo, hi = _put(lo, hi, pos + tail_bits, cells[s, 0], ib)
            lo, hi = _put(lo, hi, pos + tail_bits + ib, L, lb)
        pos += tail_bits + ib + lb
    for f in range(nf):
        if fruit[f]:
            lo, hi = _put(lo, hi, pos, 1, 1)
        pos += 1
    for g in range(ng):
        lo, hi = _put(lo, hi, pos, gpos[g], ib)
        pos += ib
    for b in range(min(nbytes, 8)):
        out[b] = np.uint8((lo >> np.uint64(8 * b)) & np.uint64(0xFF))
    for b in range(8, nbytes):
        out[b] = np.uint8((hi >> np.uint64(8 * (b - 8))) & np.uint64(0xFF))


@_kernel
def unpack(params, state, cells, slen, fruit, gpos):
    """Decode a packed state into the decoded arrays."""
    w = params[P_W]
    ns = params[P_NS]
    nf = params[P_NF]
    ng = params[P_NG]
    ib = params[P_IB]
    lb = params[P_LB]
    nbytes = params[P_BYTES]
    tail_bits = 2 * (params[P_SML] - 1)
    lo = np.uint64(0)
    hi = np.uint64(0)
    for b in range(min(nbytes, 8)):
        lo |= np.uint64(state[b]) << np.uint64(8 * b)
    for b in range(8, nbytes):
        hi |= np.uint64(state[b]) << np.uint64(8 * (b - 8))
    pos = 0
    for s in range(ns):
        tail = _get(lo, hi, pos, tail_bits)
        L = np.int64(_get(lo, hi, pos + tail_bits + ib, lb))
        slen[s] = L
        if L > 0:
            c = np.int64(_get(lo, hi, pos + tail_bits, ib))
            cells[s, 0] = c
            for j in range(1, L):
                c -= _delta(np.int64(tail & np.uint64(3)), w)
                tail >>= np.uint64(2)
                cells[s, j] = c
        pos += tail_bits + ib + lb
    for f in range(nf):
        fruit[f] = np.uint8(_get(lo, hi, pos, 1))
        pos += 1
    for g in range(ng):
        gpos[g] = np.int64(_get(lo, hi, pos, ib))
        pos += ib


@_kernel
def canonicalize(params, gad_class, cells, slen, gpos, perm_s, perm_g):
    """Sort snakes (gone first, then by head) and, within each shape class, gadgets by position.

    `perm_s`/`perm_g` are permuted alongside (callers that track identities start them at 0..n-1).
    """
    ns = params[P_NS]
    ng = params[P_NG]
    width = cells.shape[1]
    for i in range(1, ns):
        j = i
        while j > 0:
            a = slen[j]
            b = slen[j - 1]
            # gone snakes first, then by head cell (heads of live snakes differ)
            if not ((a == 0 and b != 0) or (a != 0 and b != 0 and cells[j, 0] < cells[j - 1, 0])):
                break
            for k in range(width):
                t = cells[j, k]
                cells[j, k] = cells[j - 1, k]
                cells[j - 1, k] = t
            slen[j] = b
            slen[j - 1] = a
            t = perm_s[j]
            perm_s[j] = perm_s[j - 1]
            perm_s[j - 1] = t
            j -= 1
    for i in range(1, ng):
        j = i
        while j > 0 and gad_class[j] == gad_class[j - 1] and gpos[j] < gpos[j - 1]:
            t = gpos[j]
            gpos[j] = gpos[j - 1]
            gpos[j - 1] = t
            t = perm_g[j]
            perm_g[j] = perm_g[j - 1]
            perm_g[j - 1] = t
            j -= 1


# ----------------------------------------------------------------------------------------------
# occupancy


@_inline
def _occ(grid, stamp, c):
    """Object at cell c in the grid of this stamp, or -1."""
    v = grid[c]
    if (v >> 6) == stamp:
        return v & 63
    return -1


@_kernel
def _build_grid(lv, cells, slen, gpos, grid, stamp_box):
    """Stamp every object's cells into the grid; returns the new stamp."""
    params, flags, fruit_at, gad_off, gad_n, gad_class, tele = lv
    ns = params[P_NS]
    ng = params[P_NG]
    stamp_box[0] += 1
    stamp = stamp_box[0]
    base = stamp << 6
    for s in range(ns):
        for j in range(slen[s]):
            grid[cells[s, j]] = base + s
    for g in range(ng):
        p = gpos[g]
        if p != 0:
            for j in range(gad_n[g]):
                grid[p + gad_off[g, j]] = base + ns + g
    return stamp


@_inline
def _fruit_here(fruit_at, fruit, c):
    f = fruit_at[c]
    return f >= 0 and fruit[f] != 0


@_inline
def _translate(ns, cells, slen, gpos, obj, delta):
    if obj < ns:
        for j in range(slen[obj]):
            cells[obj, j] += delta
    else:
        gpos[obj - ns] += delta


@_kernel
def overlap_mask(lv, cells, slen, gpos):
    """Bit (half * nobj + obj) set when any cell of obj lies on that teleporter half (half = 2*pair + side)."""
    params, flags, fruit_at, gad_off, gad_n, gad_class, tele = lv
    ns = params[P_NS]
    ng = params[P_NG]
    ntp = params[P_NTP]
    nobj = ns + ng
    mask = np.int64(0)
    for p in range(ntp):
        for side in range(2):
            t = tele[p, side]
            h = 2 * p + side
            for s in range(ns):
                for j in range(slen[s]):
                    if cells[s, j] == t:
                        mask |= np.int64(1) << np.int64(h * nobj + s)
            for g in range(ng):
                q = gpos[g]
                if q != 0:
                    for j in range(gad_n[g]):
                        if q + gad_off[g, j] == t:
                            mask |= np.int64(1) << np.int64(h * nobj + ns + g)
    return mask


# ----------------------------------------------------------------------------------------------
# physics (§5)


@_kernel
def physics(lv, cells, slen, fruit, gpos, prev, grid, stamp_box, supported):
    """§5: exits, edge-triggered teleports, support, falling; repeat until everything rests.
    `prev` is the teleporter overlap mask from before the move. False if a snake dies."""
    params, flags, fruit_at, gad_off, gad_n, gad_class, tele = lv
    w = params[P_W]
    ns = params[P_NS]
    nf = params[P_NF]
    ng = params[P_NG]
    ntp = params[P_NTP]
    exit_cell = params[P_EXIT]
    nobj = ns + ng
    for _step in range(MAX_PHYSICS_STEPS):
        # 1. exits (only once every fruit is eaten; only the head counts)
        left = 0
        for f in range(nf):
            left += fruit[f]
        if left == 0:
            for s in range(ns):
                if slen[s] > 0 and cells[s, 0] == exit_cell:
                    slen[s] = 0
        # 2. teleports: new arrivals on a half, relative to the previous check
        if ntp > 0:
            cur = overlap_mask(lv, cells, slen, gpos)
            arrivals = cur & ~prev
            if arrivals != 0:
                stamp = _build_grid(lv, cells, slen, gpos, grid, stamp_box)  # one snapshot for the step
                moved = False
                for p in range(ntp):
                    for side in range(2):
                        h = 2 * p + side
                        shift = tele[p, 1] - tele[p, 0]
                        if side == 1:
                            shift = -shift
                        for o in range(nobj):
                            if (arrivals >> np.int64(h * nobj + o)) & 1 == 0:
                                continue
                            ok = True
                            if o < ns:
                                for j in range(slen[o]):
                                    c = cells[o, j] + shift
                                    if (flags[c] & F_EMPTY) == 0 or _occ(grid, stamp, c) >= 0 \
                                            or _fruit_here(fruit_at, fruit, c):
                                        ok = False
                                        break
                            else:
                                g = o - ns
                                for j in range(gad_n[g]):
                                    c = gpos[g] + gad_off[g, j] + shift
                                    if (flags[c] & F_EMPTY) == 0 or _occ(grid, stamp, c) >= 0 \
                                            or _fruit_here(fruit_at, fruit, c):
                                        ok = False
                                        break
                            if ok:
                                _translate(ns, cells, slen, gpos, o, shift)
                                moved = True
                if moved:
                    prev = overlap_mask(lv, cells, slen, gpos)
                    continue
            prev = cur
        # 3. support: grounded objects (terrain or fruit below), then objects resting on supported ones
        all_ok = True
        for s in range(ns):
            sup = slen[s] == 0
            for j in range(slen[s]):
                b = cells[s, j] + w
                if (flags[b] & F_HOLD_SNAKE) != 0 or _fruit_here(fruit_at, fruit, b):
                    sup = True
                    break
            supported[s] = 1 if sup else 0
            if not sup:
                all_ok = False
        for g in range(ng):
            q = gpos[g]
            sup = q == 0
            if not sup:
                for j in range(gad_n[g]):
                    b = q + gad_off[g, j] + w
                    if (flags[b] & F_HOLD_GADGET) != 0 or _fruit_here(fruit_at, fruit, b):
                        sup = True
                        break
            supported[ns + g] = 1 if sup else 0
            if not sup:
                all_ok = False
        if all_ok:
            return True
        stamp = _build_grid(lv, cells, slen, gpos, grid, stamp_box)
        changed = True
        while changed:
            changed = False
            for o in range(nobj):
                if supported[o]:
                    continue
                sup = False
                if o < ns:
                    for j in range(slen[o]):
                        y = _occ(grid, stamp, cells[o, j] + w)
                        if y >= 0 and y != o and supported[y]:
                            sup = True
                            break
                else:
                    g = o - ns
                    for j in range(gad_n[g]):
                        y = _occ(grid, stamp, gpos[g] + gad_off[g, j] + w)
                        if y >= 0 and y != o and supported[y]:
                            sup = True
                            break
                if sup:
                    supported[o] = 1
                    changed = True
        falling = False
        for o in range(nobj):
            if supported[o] == 0:
                falling = True
        if not falling:
            return True
        # 4. fall one row together; snakes on hazards die (move invalid), gadgets in water vanish
        for o in range(nobj):
            if supported[o] == 0:
                _translate(ns, cells, slen, gpos, o, w)
        for o in range(nobj):
            if supported[o] != 0:
                continue
            if o < ns:
                for j in range(slen[o]):
                    if (flags[cells[o, j]] & F_KILL_SNAKE) != 0:
                        return False
            else:
                g = o - ns
                for j in range(gad_n[g]):
                    if (flags[gpos[g] + gad_off[g, j]] & F_KILL_GADGET) != 0:
                        gpos[g] = 0
                        break
    return False


# ----------------------------------------------------------------------------------------------
# one move (§4)


@_inline
def _push_onto(n, k, tail, flags, fruit_at, fruit0, grid0, stamp0, inset, stack, top):
    """A pushed object's cell moving onto n: -1 when blocked (not empty, fruit, the mover itself), else
    the stack top after queueing the object found there (the mover's tail cell counts as free)."""
    if (flags[n] & F_EMPTY) == 0 or _fruit_here(fruit_at, fruit0, n):
        return -1
    y = _occ(grid0, stamp0, n)
    if y >= 0 and n != tail and inset[y] == 0:
        if y == k:
            return -1
        inset[y] = 1
        stack[top] = y
        top += 1
    return top


@_kernel
def try_move(lv, wk, k, d, grid0, stamp0, tele0):
    """Play snake k in direction d (0 U, 1 R, 2 D, 3 L) from the parent in wk[W_*0] into the child
    arrays wk[W_CELLS..W_GPOS], then run the physics. `grid0`/`stamp0` is the parent's occupancy
    and `tele0` its teleporter overlap. False when the move is impossible or kills a snake."""
    params, flags, fruit_at, gad_off, gad_n, gad_class, tele = lv
    cells0 = wk[W_CELLS0]
    slen0 = wk[W_SLEN0]
    fruit0 = wk[W_FRUIT0]
    gpos0 = wk[W_GPOS0]
    cells = wk[W_CELLS]
    slen = wk[W_SLEN]
    fruit = wk[W_FRUIT]
    gpos = wk[W_GPOS]
    inset = wk[W_SUP]
    stack = wk[W_STACK]
    w = params[P_W]
    ns = params[P_NS]
    nf = params[P_NF]
    ng = params[P_NG]
    nobj = ns + ng
    L = slen0[k]
    if L == 0:
        return False
    delta = _delta(d, w)
    t = cells0[k, 0] + delta
    f = fruit_at[t]
    eat = f >= 0 and fruit0[f] != 0
    step = False
    pushed = False
    if not eat:
        o = _occ(grid0, stamp0, t)
        if (flags[t] & F_EMPTY) != 0 and o < 0:
            step = True  # the own tail cell counts as occupied
        else:
            # push, judged with the mover's last segment removed
            tail = cells0[k, L - 1]
            if o < 0 or o == k or t == tail:
                return False
            for i in range(nobj):
                inset[i] = 0
            inset[o] = 1
            stack[0] = o
            top = 1
            while top > 0:
                top -= 1
                x = stack[top]
                if x < ns:
                    for j in range(slen0[x]):
                        top = _push_onto(cells0[x, j] + delta, k, tail, flags, fruit_at, fruit0, grid0, stamp0,
                                         inset, stack, top)
                        if top < 0:
                            return False
                else:
                    g = x - ns
                    for j in range(gad_n[g]):
                        top = _push_onto(gpos0[g] + gad_off[g, j] + delta, k, tail, flags, fruit_at, fruit0, grid0,
                                         stamp0, inset, stack, top)
                        if top < 0:
                            return False
            pushed = True
    # the move is possible: copy the parent and apply it
    for s in range(ns):
        slen[s] = slen0[s]
        for j in range(slen0[s]):
            cells[s, j] = cells0[s, j]
    for i in range(nf):
        fruit[i] = fruit0[i]
    for g in range(ng):
        gpos[g] = gpos0[g]
    if eat:
        # grow at the head, nothing else moves
        for j in range(L, 0, -1):
            cells[k, j] = cells[k, j - 1]
        cells[k, 0] = t
        slen[k] = L + 1
        fruit[f] = 0
    else:
        for j in range(L - 1, 0, -1):
            cells[k, j] = cells[k, j - 1]
        cells[k, 0] = t
        if pushed:
            for x in range(nobj):
                if inset[x]:
                    _translate(ns, cells, slen, gpos, x, delta)
    return physics(lv, cells, slen, fruit, gpos, tele0, wk[W_GRID], wk[W_STAMP], wk[W_SUP])


@_kernel
def prepare(lv, wk, grid0):
    """Stamp the occupancy of the parent in wk[W_*0] into grid0; returns (stamp, teleporter overlap)."""
    params = lv[0]
    stamp = _build_grid(lv, wk[W_CELLS0], wk[W_SLEN0], wk[W_GPOS0], grid0, wk[W_STAMP])
    tele0 = np.int64(0)
    if params[P_NTP] > 0:
        tele0 = overlap_mask(lv, wk[W_CELLS0], wk[W_SLEN0], wk[W_GPOS0])
    return stamp, tele0


# ----------------------------------------------------------------------------------------------
# batch expansion


@_kernel
def expand_range(lv, wk, grid0, perm_s, perm_g, states, lo, hi, out, parent, move, phash, tags):
    """Successors of states[lo:hi] written compactly from out[0] (canonical packed children); with
    a non-empty `parent`, also the parent row and the move (4 * snake slot + direction, U R D L) of
    each; with a non-empty `tags`, tags[j] = phash[parent row]. Returns the number written.

    `grid0` is the parent's occupancy grid (kept apart from the physics grid in wk)."""
    params, flags, fruit_at, gad_off, gad_n, gad_class, tele = lv
    ns = params[P_NS]
    cells0 = wk[W_CELLS0]
    slen0 = wk[W_SLEN0]
    gpos0 = wk[W_GPOS0]
    cells = wk[W_CELLS]
    slen = wk[W_SLEN]
    gpos = wk[W_GPOS]
    fruit = wk[W_FRUIT]
    with_parent = parent.shape[0] > 0
    with_tags = tags.shape[0] > 0
    n = 0
    for i in range(lo, hi):
        unpack(params, states[i], cells0, slen0, wk[W_FRUIT0], gpos0)
        stamp0, tele0 = prepare(lv, wk, grid0)
        for k in range(ns):
            if slen0[k] == 0:
                continue
            for d in range(4):
                if try_move(lv, wk, k, d, grid0, stamp0, tele0):
                    canonicalize(params, gad_class, cells, slen, gpos, perm_s, perm_g)
                    pack(params, cells, slen, fruit, gpos, out[n])
                    if with_parent:
                        parent[n] = i
                        move[n] = np.uint8(4 * k + d)
                    if with_tags:
                        tags[n] = phash[i]
                    n += 1
    return n


@_kernel
def goal_mask(params, states, out):
    """out[i] = True for states where every snake has left (all snake fields zero)."""
    ns = params[P_NS]
    sml = params[P_SML]
    bits = ns * (2 * (sml - 1) + params[P_IB] + params[P_LB])
    n = states.shape[0]
    full = bits // 8
    rest = bits % 8
    for i in range(n):
        ok = True
        for b in range(full):
            if states[i, b] != 0:
                ok = False
                break
        if ok and rest:
            if states[i, full] & ((1 << rest) - 1):
                ok = False
        out[i] = ok
