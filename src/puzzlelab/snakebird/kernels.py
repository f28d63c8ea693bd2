"""The Snakebird rules as numba kernels (shared/docs/snakebird-rules.md §3-§9).

A *decoded* state is four small arrays: `cells[s, j]` (cell of segment j of snake s, head first),
`slen[s]` (0 = the snake has left), `fruit[f]` (1 = still there) and `gpos[g]` (cell of gadget
slot g's first cell, 0 = destroyed). A *packed* state is the canonical bit string of §9.4 in
`nbytes` bytes, lowest bit first (byte 0 holds bits 0-7). `expand` turns a batch of packed
states into their canonical packed successors; everything else here is its building blocks.

Level constants travel as arrays (see `level.level_arrays`): `params` (sizes), `terrain`
(ASCII codes), `fruit_at` (fruit index per cell or -1), `gad_off`/`gad_n` (shapes per gadget
slot), `gad_class` (slots with identical shapes share a class), `tele` (teleporter pairs).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

# params indices
P_H, P_W, P_NS, P_NF, P_NG, P_SML, P_IB, P_LB, P_EXIT, P_NTP, P_BYTES = range(11)

C_WALL = ord(".")
C_WATER = ord("~")
C_SPIKES = ord("#")
C_EMPTY = ord(" ")

# Physics steps after which a move is declared invalid (a teleport/fall cycle; no real level has one).
MAX_PHYSICS_STEPS = 100_000


@njit(cache=True, inline="always")
def _delta(d, w):
    if d == 0:
        return -w
    if d == 1:
        return 1
    if d == 2:
        return w
    return -1


@njit(cache=True)
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
# packing (§9.4)


@njit(cache=True)
def _deposit(words, pos, value, nbits):
    if nbits == 0:
        return
    w = pos >> 6
    off = pos & 63
    v = np.uint64(value)
    words[w] |= v << np.uint64(off)
    if off + nbits > 64:
        words[w + 1] |= v >> np.uint64(64 - off)


@njit(cache=True)
def _extract(words, pos, nbits):
    if nbits == 0:
        return np.uint64(0)
    w = pos >> 6
    off = pos & 63
    v = words[w] >> np.uint64(off)
    if off + nbits > 64:
        v |= words[w + 1] << np.uint64(64 - off)
    if nbits < 64:
        v &= (np.uint64(1) << np.uint64(nbits)) - np.uint64(1)
    return v


@njit(cache=True)
def pack(params, cells, slen, fruit, gpos, words, out):
    """Write the (already canonical) decoded state into `out` (nbytes uint8). `words` is scratch."""
    w = params[P_W]
    ns = params[P_NS]
    nf = params[P_NF]
    ng = params[P_NG]
    sml = params[P_SML]
    ib = params[P_IB]
    lb = params[P_LB]
    nbytes = params[P_BYTES]
    for i in range(words.shape[0]):
        words[i] = 0
    tail_bits = 2 * (sml - 1)
    pos = 0
    for s in range(ns):
        L = slen[s]
        if L > 0:
            tail = np.uint64(0)
            # link j joins segment j+1 to segment j; the newest link (j = 0) goes in the lowest bits
            for j in range(L - 2, -1, -1):
                tail = (tail << np.uint64(2)) | np.uint64(_dir_of(cells[s, j] - cells[s, j + 1], w))
            _deposit(words, pos, tail, tail_bits)
            _deposit(words, pos + tail_bits, cells[s, 0], ib)
            _deposit(words, pos + tail_bits + ib, L, lb)
        pos += tail_bits + ib + lb
    for f in range(nf):
        if fruit[f]:
            _deposit(words, pos, 1, 1)
        pos += 1
    for g in range(ng):
        _deposit(words, pos, gpos[g], ib)
        pos += ib
    for b in range(nbytes):
        out[b] = np.uint8((words[b >> 3] >> np.uint64((b & 7) * 8)) & np.uint64(0xFF))


@njit(cache=True)
def unpack(params, state, words, cells, slen, fruit, gpos):
    """Decode a packed state into the decoded arrays."""
    w = params[P_W]
    ns = params[P_NS]
    nf = params[P_NF]
    ng = params[P_NG]
    sml = params[P_SML]
    ib = params[P_IB]
    lb = params[P_LB]
    nbytes = params[P_BYTES]
    for i in range(words.shape[0]):
        words[i] = 0
    for b in range(nbytes):
        words[b >> 3] |= np.uint64(state[b]) << np.uint64((b & 7) * 8)
    tail_bits = 2 * (sml - 1)
    pos = 0
    for s in range(ns):
        tail = _extract(words, pos, tail_bits)
        head = np.int64(_extract(words, pos + tail_bits, ib))
        L = np.int64(_extract(words, pos + tail_bits + ib, lb))
        slen[s] = L
        if L > 0:
            cells[s, 0] = head
            for j in range(1, L):
                d = np.int64((tail >> np.uint64(2 * (j - 1))) & np.uint64(3))
                cells[s, j] = cells[s, j - 1] - _delta(d, w)
        pos += tail_bits + ib + lb
    for f in range(nf):
        fruit[f] = np.uint8(_extract(words, pos, 1))
        pos += 1
    for g in range(ng):
        gpos[g] = np.int64(_extract(words, pos, ib))
        pos += ib


@njit(cache=True)
def _snake_less(cells, slen, a, b):
    """Canonical snake order: gone snakes first, then by head cell (heads of live snakes differ)."""
    la = slen[a]
    lb = slen[b]
    if la == 0 or lb == 0:
        return la == 0 and lb != 0
    return cells[a, 0] < cells[b, 0]


@njit(cache=True)
def canonicalize(params, gad_class, cells, slen, gpos, perm_s, perm_g):
    """Sort snakes (gone first, then by head) and, within each shape class, gadgets by position.

    `perm_s`/`perm_g` are permuted alongside (callers that track identities start them at 0..n-1).
    """
    ns = params[P_NS]
    ng = params[P_NG]
    sml = params[P_SML]
    # insertion sort of snakes (at most a handful)
    for i in range(1, ns):
        j = i
        while j > 0 and _snake_less(cells, slen, j, j - 1):
            for k in range(sml):
                t = cells[j, k]
                cells[j, k] = cells[j - 1, k]
                cells[j - 1, k] = t
            t = slen[j]
            slen[j] = slen[j - 1]
            slen[j - 1] = t
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
# occupancy: a stamped grid, so it never needs clearing (occ_gen[c] == gen means occ_obj[c] is valid)


@njit(cache=True)
def _build_occ(params, gad_off, gad_n, cells, slen, gpos, occ_obj, occ_gen, gen):
    ns = params[P_NS]
    ng = params[P_NG]
    for s in range(ns):
        for j in range(slen[s]):
            c = cells[s, j]
            occ_obj[c] = s
            occ_gen[c] = gen
    for g in range(ng):
        p = gpos[g]
        if p != 0:
            for j in range(gad_n[g]):
                c = p + gad_off[g, j]
                occ_obj[c] = ns + g
                occ_gen[c] = gen


@njit(cache=True, inline="always")
def _occ(occ_obj, occ_gen, gen, c):
    if occ_gen[c] == gen:
        return occ_obj[c]
    return -1


@njit(cache=True, inline="always")
def _fruit_here(fruit_at, fruit, c):
    f = fruit_at[c]
    return f >= 0 and fruit[f] != 0


@njit(cache=True)
def _translate(params, cells, slen, gpos, obj, delta):
    ns = params[P_NS]
    if obj < ns:
        for j in range(slen[obj]):
            cells[obj, j] += delta
    else:
        gpos[obj - ns] += delta


@njit(cache=True)
def _overlap(params, tele, gad_off, gad_n, cells, slen, gpos, out):
    """out[obj, half] = 1 when any cell of obj lies on that teleporter half (half = 2*pair + side)."""
    ns = params[P_NS]
    ng = params[P_NG]
    ntp = params[P_NTP]
    for o in range(ns + ng):
        for h in range(2 * ntp):
            out[o, h] = 0
    for p in range(ntp):
        for side in range(2):
            t = tele[p, side]
            h = 2 * p + side
            for s in range(ns):
                for j in range(slen[s]):
                    if cells[s, j] == t:
                        out[s, h] = 1
            for g in range(ng):
                q = gpos[g]
                if q != 0:
                    for j in range(gad_n[g]):
                        if q + gad_off[g, j] == t:
                            out[ns + g, h] = 1


@njit(cache=True)
def make_scratch(params):
    """Scratch buffers for apply_move: occupancy grid + stamp, push set, stack, overlap tables."""
    ns = params[P_NS]
    ng = params[P_NG]
    n = params[P_H] * params[P_W]
    nobj = ns + ng
    occ_obj = np.zeros(n, dtype=np.int32)
    occ_gen = np.zeros(n, dtype=np.int64)
    inset = np.zeros(nobj, dtype=np.uint8)
    stack = np.zeros(nobj, dtype=np.int32)
    halves = max(2 * params[P_NTP], 1)
    prev = np.zeros((nobj, halves), dtype=np.uint8)
    cur = np.zeros((nobj, halves), dtype=np.uint8)
    gen = np.zeros(1, dtype=np.int64)
    return occ_obj, occ_gen, inset, stack, prev, cur, gen


@njit(cache=True)
def apply_move(params, terrain, fruit_at, gad_off, gad_n, tele, cells, slen, fruit, gpos, k, d,
               occ_obj, occ_gen, inset, stack, prev, cur, gen):
    """Play snake k in direction d (0 U, 1 R, 2 D, 3 L) on the decoded state, in place, then run
    the physics. Returns False when the move is impossible or kills a snake (state then garbage)."""
    w = params[P_W]
    ns = params[P_NS]
    ng = params[P_NG]
    ntp = params[P_NTP]
    nobj = ns + ng
    L = slen[k]
    if L == 0:
        return False
    delta = _delta(d, w)
    t = cells[k, 0] + delta
    if ntp > 0:
        _overlap(params, tele, gad_off, gad_n, cells, slen, gpos, prev)

    f = fruit_at[t]
    if f >= 0 and fruit[f] != 0:
        # 1. eat: grow at the head, nothing else moves
        for j in range(L, 0, -1):
            cells[k, j] = cells[k, j - 1]
        cells[k, 0] = t
        slen[k] = L + 1
        fruit[f] = 0
    else:
        gen[0] += 1
        g0 = gen[0]
        _build_occ(params, gad_off, gad_n, cells, slen, gpos, occ_obj, occ_gen, g0)
        if terrain[t] == C_EMPTY and _occ(occ_obj, occ_gen, g0, t) < 0:
            # 2. step (the own tail cell counts as occupied)
            for j in range(L - 1, 0, -1):
                cells[k, j] = cells[k, j - 1]
            cells[k, 0] = t
        else:
            # 3. push, judged with the mover's last segment removed
            occ_gen[cells[k, L - 1]] = 0
            o = _occ(occ_obj, occ_gen, g0, t)
            if o < 0 or o == k:
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
                    for j in range(slen[x]):
                        n = cells[x, j] + delta
                        if terrain[n] != C_EMPTY or _fruit_here(fruit_at, fruit, n):
                            return False
                        y = _occ(occ_obj, occ_gen, g0, n)
                        if y >= 0 and inset[y] == 0:
                            if y == k:
                                return False
                            inset[y] = 1
                            stack[top] = y
                            top += 1
                else:
                    g = x - ns
                    for j in range(gad_n[g]):
                        n = gpos[g] + gad_off[g, j] + delta
                        if terrain[n] != C_EMPTY or _fruit_here(fruit_at, fruit, n):
                            return False
                        y = _occ(occ_obj, occ_gen, g0, n)
                        if y >= 0 and inset[y] == 0:
                            if y == k:
                                return False
                            inset[y] = 1
                            stack[top] = y
                            top += 1
            for j in range(L - 1, 0, -1):
                cells[k, j] = cells[k, j - 1]
            cells[k, 0] = t
            for x in range(nobj):
                if inset[x]:
                    _translate(params, cells, slen, gpos, x, delta)
    return physics(params, terrain, fruit_at, gad_off, gad_n, tele, cells, slen, fruit, gpos,
                   occ_obj, occ_gen, inset, prev, cur, gen)


@njit(cache=True)
def physics(params, terrain, fruit_at, gad_off, gad_n, tele, cells, slen, fruit, gpos,
            occ_obj, occ_gen, supported, prev, cur, gen):
    """§5: exits, edge-triggered teleports, support, falling; repeat until everything rests.
    `prev` holds the teleporter overlaps from before the move. False if a snake dies."""
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
            _overlap(params, tele, gad_off, gad_n, cells, slen, gpos, cur)
            arrivals = False
            for o in range(nobj):
                for h in range(2 * ntp):
                    if cur[o, h] != 0 and prev[o, h] == 0:
                        arrivals = True
            moved = False
            if arrivals:
                gen[0] += 1
                g0 = gen[0]
                _build_occ(params, gad_off, gad_n, cells, slen, gpos, occ_obj, occ_gen, g0)
                for p in range(ntp):
                    for side in range(2):
                        h = 2 * p + side
                        shift = tele[p, 1] - tele[p, 0]
                        if side == 1:
                            shift = -shift
                        for o in range(nobj):
                            if cur[o, h] == 0 or prev[o, h] != 0:
                                continue
                            ok = True
                            if o < ns:
                                for j in range(slen[o]):
                                    c = cells[o, j] + shift
                                    if (terrain[c] != C_EMPTY or _occ(occ_obj, occ_gen, g0, c) >= 0
                                            or _fruit_here(fruit_at, fruit, c)):
                                        ok = False
                                        break
                            else:
                                g = o - ns
                                for j in range(gad_n[g]):
                                    c = gpos[g] + gad_off[g, j] + shift
                                    if (terrain[c] != C_EMPTY or _occ(occ_obj, occ_gen, g0, c) >= 0
                                            or _fruit_here(fruit_at, fruit, c)):
                                        ok = False
                                        break
                            if ok:
                                _translate(params, cells, slen, gpos, o, shift)
                                moved = True
            if moved:
                _overlap(params, tele, gad_off, gad_n, cells, slen, gpos, prev)
                continue
            for o in range(nobj):
                for h in range(2 * ntp):
                    prev[o, h] = cur[o, h]
        # 3. support: grounded objects, then objects resting on supported objects
        gen[0] += 1
        g0 = gen[0]
        _build_occ(params, gad_off, gad_n, cells, slen, gpos, occ_obj, occ_gen, g0)
        all_ok = True
        for s in range(ns):
            sup = slen[s] == 0
            for j in range(slen[s]):
                b = cells[s, j] + w
                if terrain[b] == C_WALL or _fruit_here(fruit_at, fruit, b):
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
                    if terrain[b] == C_WALL or terrain[b] == C_SPIKES or _fruit_here(fruit_at, fruit, b):
                        sup = True
                        break
            supported[ns + g] = 1 if sup else 0
            if not sup:
                all_ok = False
        if all_ok:
            return True
        changed = True
        while changed:
            changed = False
            for o in range(nobj):
                if supported[o]:
                    continue
                sup = False
                if o < ns:
                    for j in range(slen[o]):
                        y = _occ(occ_obj, occ_gen, g0, cells[o, j] + w)
                        if y >= 0 and y != o and supported[y]:
                            sup = True
                            break
                else:
                    g = o - ns
                    for j in range(gad_n[g]):
                        y = _occ(occ_obj, occ_gen, g0, gpos[g] + gad_off[g, j] + w)
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
                _translate(params, cells, slen, gpos, o, w)
        for o in range(nobj):
            if supported[o] != 0:
                continue
            if o < ns:
                for j in range(slen[o]):
                    tc = terrain[cells[o, j]]
                    if tc == C_WATER or tc == C_SPIKES:
                        return False
            else:
                g = o - ns
                for j in range(gad_n[g]):
                    if terrain[gpos[g] + gad_off[g, j]] == C_WATER:
                        gpos[g] = 0
                        break
    return False


# ----------------------------------------------------------------------------------------------
# batch expansion


@njit(cache=True)
def _expand_block(params, terrain, fruit_at, gad_off, gad_n, gad_class, tele, states, lo, hi,
                  out, valid):
    ns = params[P_NS]
    nf = params[P_NF]
    ng = params[P_NG]
    sml = params[P_SML]
    nbytes = params[P_BYTES]
    nwords = (nbytes + 7) // 8 + 1
    words = np.zeros(nwords, dtype=np.uint64)
    cells0 = np.zeros((ns, sml + 1), dtype=np.int64)
    slen0 = np.zeros(ns, dtype=np.int64)
    fruit0 = np.zeros(max(nf, 1), dtype=np.uint8)
    gpos0 = np.zeros(max(ng, 1), dtype=np.int64)
    cells = np.zeros((ns, sml + 1), dtype=np.int64)
    slen = np.zeros(ns, dtype=np.int64)
    fruit = np.zeros(max(nf, 1), dtype=np.uint8)
    gpos = np.zeros(max(ng, 1), dtype=np.int64)
    perm_s = np.zeros(ns, dtype=np.int64)
    perm_g = np.zeros(max(ng, 1), dtype=np.int64)
    occ_obj, occ_gen, inset, stack, prev, cur, gen = make_scratch(params)
    nm = 4 * ns
    for i in range(lo, hi):
        unpack(params, states[i], words, cells0, slen0, fruit0, gpos0)
        for k in range(ns):
            for d in range(4):
                slot = i * nm + 4 * k + d
                valid[slot] = 0
                if slen0[k] == 0:
                    continue
                cells[:, :] = cells0
                slen[:] = slen0
                fruit[:] = fruit0
                gpos[:] = gpos0
                ok = apply_move(params, terrain, fruit_at, gad_off, gad_n, tele, cells, slen, fruit, gpos, k, d,
                                occ_obj, occ_gen, inset, stack, prev, cur, gen)
                if ok:
                    canonicalize(params, gad_class, cells, slen, gpos, perm_s, perm_g)
                    pack(params, cells, slen, fruit, gpos, words, out[slot])
                    valid[slot] = 1


@njit(cache=True, parallel=True)
def expand_all(params, terrain, fruit_at, gad_off, gad_n, gad_class, tele, states):
    """All successors of `states` (n x nbytes): (children, parent index, move = 4*snake + dir).

    Children come in parent order, then snake slot, then direction (U R D L), whatever the number
    of threads: each (state, move) owns a fixed slot, and slots are compacted in order.
    """
    n = states.shape[0]
    ns = params[P_NS]
    nbytes = params[P_BYTES]
    nm = 4 * ns
    out = np.empty((n * nm, nbytes), dtype=np.uint8)
    valid = np.empty(n * nm, dtype=np.uint8)
    block = 256
    nblocks = (n + block - 1) // block
    for b in prange(nblocks):
        lo = b * block
        hi = min(n, lo + block)
        _expand_block(params, terrain, fruit_at, gad_off, gad_n, gad_class, tele, states, lo, hi, out, valid)
    total = 0
    for i in range(n * nm):
        total += valid[i]
    children = np.empty((total, nbytes), dtype=np.uint8)
    parent = np.empty(total, dtype=np.int64)
    move = np.empty(total, dtype=np.uint8)
    j = 0
    for i in range(n * nm):
        if valid[i]:
            children[j, :] = out[i]
            parent[j] = i // nm
            move[j] = i % nm
            j += 1
    return children, parent, move


@njit(cache=True)
def goal_mask(params, states):
    """True for states where every snake has left (all snake fields zero)."""
    ns = params[P_NS]
    sml = params[P_SML]
    bits = ns * (2 * (sml - 1) + params[P_IB] + params[P_LB])
    n = states.shape[0]
    out = np.zeros(n, dtype=np.bool_)
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
    return out
