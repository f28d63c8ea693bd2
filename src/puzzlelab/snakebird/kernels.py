"""The Snakebird rules as numba kernels (docs/snakebird.md §1-§8): `expand_range` turns packed states
into their canonical packed successors; the rest are its building blocks.

Tables, scratch memory and outputs are the named tuples of `layout.py`. The kernels never allocate,
so they run without numba's reference counting and release the GIL (callers expand slices of a
batch on several threads).

**The occupancy grid.** `Work.occ[c]` tells in one byte what is at cell c: `FREE` (empty terrain,
nothing on it), an object `o + 1` (snakes are objects 0..ns-1, gadget slots ns..ns+ng-1), `FRUIT`,
or a terrain code (`WALL`, `SPIKES`, `WATER`). It always shows the position being worked on: a
parent is stamped in once (`load_parent`), each move changes it as objects move, and afterwards
`restore_parent` puts the parent back (two cells for a plain step, every object after a push, a
fall, an exit or a teleport). So every rule below is a few byte lookups.

**Shortcuts, each exact.** A plain step skips the physics when nothing can change (`_step_rests`);
a fall passes at once the rows where nothing but the fall happens (`physics`, step 4).

One teleporter pair at most (the level parser enforces it): with one pair, two objects can never
teleport in the same physics step (each would land on the other's half), so an object's teleport is
checked against the grid as it stands, which is the step's snapshot.
"""

from __future__ import annotations

import numpy as np

from ..lab.jit import inline_kernel as _inline
from ..lab.jit import kernel as _kernel
from .layout import FREE, FRUIT, SPIKES, WALL, WATER

# Physics steps after which a move is declared invalid (a teleport/fall cycle; no real level has one).
MAX_PHYSICS_STEPS = 100_000

# outcomes of `play_move` (typed, so that numba gives every branch's outcome one type)
INVALID = np.int64(0)
PLAIN = np.int64(1)  # only the mover's head and tail cells changed in the grid
MOVED = np.int64(2)  # a push, a fall, an exit or a teleport changed more


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


@_inline
def _low_bits(n):
    """A mask of the n lowest bits (0 <= n <= 64)."""
    if n >= 64:
        return ~np.uint64(0)
    return (np.uint64(1) << np.uint64(n)) - np.uint64(1)


# ----------------------------------------------------------------------------------------------
# packing (§8): at most 128 bits, held in two words while packing


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
        v &= _low_bits(nbits)
    return v


@_inline
def pack(tb, cells, slen, shape, fruit, gpos, out):
    """Write the (already canonical) decoded state into `out` (nbytes uint8)."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    pos = 0
    step = tb.tail_bits + tb.ib + tb.lb
    for s in range(tb.ns):
        if slen[s] > 0:
            lo, hi = _put(lo, hi, pos, shape[s], tb.tail_bits)
            lo, hi = _put(lo, hi, pos + tb.tail_bits, cells[s, 0], tb.ib)
            lo, hi = _put(lo, hi, pos + tb.tail_bits + tb.ib, slen[s], tb.lb)
        pos += step
    for f in range(tb.nf):
        if fruit[f]:
            lo, hi = _put(lo, hi, pos, 1, 1)
        pos += 1
    for g in range(tb.ng):
        lo, hi = _put(lo, hi, pos, gpos[g], tb.ib)
        pos += tb.ib
    for b in range(min(tb.nbytes, 8)):
        out[b] = np.uint8((lo >> np.uint64(8 * b)) & np.uint64(0xFF))
    for b in range(8, tb.nbytes):
        out[b] = np.uint8((hi >> np.uint64(8 * (b - 8))) & np.uint64(0xFF))


@_inline
def unpack(tb, state, cells, slen, shape, fruit, gpos):
    """Decode a packed state into the decoded arrays."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    for b in range(min(tb.nbytes, 8)):
        lo |= np.uint64(state[b]) << np.uint64(8 * b)
    for b in range(8, tb.nbytes):
        hi |= np.uint64(state[b]) << np.uint64(8 * (b - 8))
    w = tb.w
    pos = 0
    for s in range(tb.ns):
        tail = _get(lo, hi, pos, tb.tail_bits)
        n = np.int64(_get(lo, hi, pos + tb.tail_bits + tb.ib, tb.lb))
        slen[s] = n
        shape[s] = tail
        if n > 0:
            c = np.int64(_get(lo, hi, pos + tb.tail_bits, tb.ib))
            cells[s, 0] = c
            for j in range(1, n):
                c -= _delta(np.int64(tail & np.uint64(3)), w)
                tail >>= np.uint64(2)
                cells[s, j] = c
        pos += tb.tail_bits + tb.ib + tb.lb
    for f in range(tb.nf):
        fruit[f] = np.uint8(_get(lo, hi, pos, 1))
        pos += 1
    for g in range(tb.ng):
        gpos[g] = np.int64(_get(lo, hi, pos, tb.ib))
        pos += tb.ib


@_kernel
def shapes_of(tb, cells, slen, shape):
    """shape[s] from the cells of each snake (for states built from a level file, not unpacked)."""
    for s in range(tb.ns):
        bits = np.uint64(0)
        for j in range(slen[s] - 2, -1, -1):  # link j joins segment j+1 to segment j
            bits = (bits << np.uint64(2)) | np.uint64(_dir_of(cells[s, j] - cells[s, j + 1], tb.w))
        shape[s] = bits if slen[s] > 0 else np.uint64(0)


@_inline
def canonicalize(tb, cells, slen, shape, gpos, perm_s, perm_g):
    """§7: snakes sorted (gone first, then by head cell), gadgets by position within each shape class.

    `perm_s`/`perm_g` are permuted alongside (callers that track identities start them at 0..n-1)."""
    for i in range(1, tb.ns):
        j = i
        while j > 0:
            a = slen[j]
            b = slen[j - 1]
            # gone snakes first, then by head cell (heads of live snakes differ)
            if not ((a == 0 and b != 0) or (a != 0 and b != 0 and cells[j, 0] < cells[j - 1, 0])):
                break
            for x in range(max(a, b)):
                c = cells[j, x]
                cells[j, x] = cells[j - 1, x]
                cells[j - 1, x] = c
            slen[j] = b
            slen[j - 1] = a
            bits = shape[j]
            shape[j] = shape[j - 1]
            shape[j - 1] = bits
            p = perm_s[j]
            perm_s[j] = perm_s[j - 1]
            perm_s[j - 1] = p
            j -= 1
    for i in range(1, tb.ng):
        j = i
        while j > 0 and tb.gad_class[j] == tb.gad_class[j - 1] and gpos[j] < gpos[j - 1]:
            t = gpos[j]
            gpos[j] = gpos[j - 1]
            gpos[j - 1] = t
            t = perm_g[j]
            perm_g[j] = perm_g[j - 1]
            perm_g[j - 1] = t
            j -= 1


# ----------------------------------------------------------------------------------------------
# the occupancy grid


@_inline
def _stamp(tb, occ, cells, slen, gpos, o, code):
    """Write `code` on every cell of object o (code = o + 1 to place it, or a cell's base to lift it)."""
    if o < tb.ns:
        for j in range(slen[o]):
            c = cells[o, j]
            occ[c] = tb.base[c] if code < 0 else code
    else:
        g = o - tb.ns
        p = gpos[g]
        if p != 0:
            for j in range(tb.gad_n[g]):
                c = p + tb.gad_off[g, j]
                occ[c] = tb.base[c] if code < 0 else code


@_inline
def _place(tb, occ, cells, slen, gpos, o):
    _stamp(tb, occ, cells, slen, gpos, o, o + 1)


@_inline
def _lift(tb, occ, cells, slen, gpos, o):
    _stamp(tb, occ, cells, slen, gpos, o, -1)


@_inline
def _lift_all(tb, occ, cells, slen, gpos, mask):
    """Lift every object whose bit is set in `mask`."""
    for o in range(tb.ns + tb.ng):
        if (mask >> o) & 1:
            _stamp(tb, occ, cells, slen, gpos, o, -1)


@_inline
def _place_all(tb, occ, cells, slen, gpos, mask):
    """Place every object whose bit is set in `mask`."""
    for o in range(tb.ns + tb.ng):
        if (mask >> o) & 1:
            _stamp(tb, occ, cells, slen, gpos, o, o + 1)


@_inline
def _translate(tb, cells, slen, gpos, o, delta):
    if o < tb.ns:
        for j in range(slen[o]):
            cells[o, j] += delta
    else:
        gpos[o - tb.ns] += delta


@_inline
def _on_half(occ, half):
    """The object on a teleporter half, or -1."""
    v = occ[half]
    if v >= 1 and v < FRUIT:
        return np.int64(v) - 1
    return np.int64(-1)


@_inline
def load_parent(tb, wk):
    """Stamp the parent in wk.cells0... into wk.occ (which holds only terrain, or an earlier parent that
    `restore_parent` already lifted... see `unload_parent`). Returns the fruit still on the map."""
    occ = wk.occ
    left = 0
    for f in range(tb.nf):
        if wk.fruit0[f]:
            occ[tb.fruit_cell[f]] = FRUIT
            left += 1
        else:
            occ[tb.fruit_cell[f]] = FREE
    _place_all(tb, occ, wk.cells0, wk.slen0, wk.gpos0, _all(tb))
    return left


@_inline
def unload_parent(tb, wk):
    """Lift the parent's objects off wk.occ (fruit cells are rewritten by the next `load_parent`)."""
    _lift_all(tb, wk.occ, wk.cells0, wk.slen0, wk.gpos0, _all(tb))


@_inline
def restore_parent(tb, wk, k, outcome, head, tail, ate):
    """Put wk.occ back to the parent after playing snake k (see `play_move`'s outcome)."""
    occ = wk.occ
    if outcome == PLAIN:
        occ[head] = FRUIT if ate else FREE
        occ[tail] = k + 1
        return
    _lift_all(tb, occ, wk.cells, wk.slen, wk.gpos, _all(tb))
    if ate:
        occ[head] = FRUIT
    _place_all(tb, occ, wk.cells0, wk.slen0, wk.gpos0, _all(tb))


# ----------------------------------------------------------------------------------------------
# physics (§4, §5)


@_inline
def _teleport(tb, wk, o, shift):
    """Move object o by `shift` if every destination cell is free (§5); True if it moved."""
    occ = wk.occ
    ncells = occ.shape[0]
    if o < tb.ns:
        for j in range(wk.slen[o]):
            c = wk.cells[o, j] + shift
            if c < 0 or c >= ncells or occ[c] != FREE:  # a long body may reach past the map
                return False
    else:
        g = o - tb.ns
        for j in range(tb.gad_n[g]):
            c = wk.gpos[g] + tb.gad_off[g, j] + shift
            if c < 0 or c >= ncells or occ[c] != FREE:
                return False
    _lift(tb, occ, wk.cells, wk.slen, wk.gpos, o)
    _translate(tb, wk.cells, wk.slen, wk.gpos, o, shift)
    _place(tb, occ, wk.cells, wk.slen, wk.gpos, o)
    return True


@_inline
def _grounded(tb, occ, cells, slen, gpos, o):
    """Object o rests on terrain or fruit (spikes hold gadgets, not snakes), or has left the map."""
    w = tb.w
    if o < tb.ns:
        for j in range(slen[o]):
            v = occ[cells[o, j] + w]
            if v == WALL or v == FRUIT:
                return True
        return slen[o] == 0
    g = o - tb.ns
    p = gpos[g]
    if p == 0:
        return True
    for j in range(tb.gad_n[g]):
        v = occ[p + tb.gad_off[g, j] + w]
        if v == WALL or v == SPIKES or v == FRUIT:
            return True
    return False


@_inline
def _spread(tb, occ, cells, slen, gpos, stack, top, held, skip):
    """Grow the bit mask `held` of supported objects (those on stack[:top] still to visit) by every
    object resting on one of them, directly or through others; object `skip` never joins."""
    w = tb.w
    ns = tb.ns
    while top > 0:
        top -= 1
        o = stack[top]
        if o < ns:
            n = slen[o]
        else:
            n = tb.gad_n[o - ns] if gpos[o - ns] != 0 else 0
        for j in range(n):
            c = cells[o, j] if o < ns else gpos[o - ns] + tb.gad_off[o - ns, j]
            v = occ[c - w]
            if v >= 1 and v < FRUIT:
                y = np.int64(v) - 1
                bit = np.int64(1) << y
                if y != skip and (held & bit) == 0:
                    held |= bit
                    stack[top] = y
                    top += 1
    return held


@_inline
def _held(tb, occ, cells, slen, gpos, stack, skip):
    """§4 step 3: the bit mask of supported objects when object `skip` (-1: none) is taken away."""
    held = np.int64(0)
    top = 0
    for o in range(tb.ns + tb.ng):
        if o != skip and _grounded(tb, occ, cells, slen, gpos, o):
            held |= np.int64(1) << o
            stack[top] = o
            top += 1
    return _spread(tb, occ, cells, slen, gpos, stack, top, held, skip)


@_inline
def _all(tb):
    return (np.int64(1) << (tb.ns + tb.ng)) - 1


@_inline
def _step_rests(tb, wk, k, held_k):
    """After a plain step of snake k, does everything rest without physics? `held_k` holds the objects
    supported in the parent without k (they still are: nothing under them changed); so everything rests
    when k stands on ground or on one of them and the objects k carries, with k, complete the set."""
    occ = wk.occ
    w = tb.w
    up = _grounded(tb, occ, wk.cells, wk.slen, wk.gpos, k)
    if not up:
        for j in range(wk.slen[k]):
            v = occ[wk.cells[k, j] + w]
            if v >= 1 and v < FRUIT and v != k + 1 and (held_k >> (np.int64(v) - 1)) & 1:
                up = True
                break
    if not up:
        return False
    held = held_k | (np.int64(1) << k)
    if held == _all(tb):
        return True
    wk.stack[0] = k
    return _spread(tb, occ, wk.cells, wk.slen, wk.gpos, wk.stack, 1, held, -1) == _all(tb)


@_inline
def _clear_below(tb, wk, held, shift, left):
    """Every cell of the falling objects (those not in `held`, lifted off the grid), moved down by
    `shift`, is free, no teleporter half and, while the exit is open, no exit under a snake's head."""
    occ = wk.occ
    for o in range(tb.ns + tb.ng):
        if (held >> o) & 1:
            continue
        if o < tb.ns:
            for j in range(wk.slen[o]):
                c = wk.cells[o, j] + shift
                if occ[c] != FREE or c == tb.tele_a or c == tb.tele_b or (j == 0 and left == 0 and c == tb.exit):
                    return False
        else:
            g = o - tb.ns
            for j in range(tb.gad_n[g]):
                c = wk.gpos[g] + tb.gad_off[g, j] + shift
                if occ[c] != FREE or c == tb.tele_a or c == tb.tele_b:
                    return False
    return True


@_inline
def physics(tb, wk, left, prev_a, prev_b):
    """§4 on the child in wk: exits, edge-triggered teleports, support, falling, until everything rests.
    `left` counts the fruit still on the map; prev_a/prev_b are the objects on the teleporter halves
    before the move (-1 for none). Returns INVALID when a snake dies, else MOVED or PLAIN (nothing
    moved besides the move itself)."""
    occ = wk.occ
    w = tb.w
    ns = tb.ns
    nobj = ns + tb.ng
    moved = False
    for _step in range(MAX_PHYSICS_STEPS):
        # 1. exits (once every fruit is eaten; only the head counts)
        if left == 0:
            for s in range(ns):
                if wk.slen[s] > 0 and wk.cells[s, 0] == tb.exit:
                    _lift(tb, occ, wk.cells, wk.slen, wk.gpos, s)
                    wk.slen[s] = 0
                    wk.shape[s] = np.uint64(0)
                    moved = True
        # 2. teleports: an object newly on a half moves by the pair's offset (half A first, then B)
        if tb.tele_a != 0:
            cur_a = _on_half(occ, tb.tele_a)
            cur_b = _on_half(occ, tb.tele_b)
            jumped = False
            if cur_a >= 0 and cur_a != prev_a:
                jumped = _teleport(tb, wk, cur_a, tb.tele_b - tb.tele_a)
            if cur_b >= 0 and cur_b != prev_b and not jumped:
                jumped = _teleport(tb, wk, cur_b, tb.tele_a - tb.tele_b)
            if jumped:
                moved = True
                prev_a = _on_half(occ, tb.tele_a)
                prev_b = _on_half(occ, tb.tele_b)
                continue
            prev_a = cur_a
            prev_b = cur_b
        # 3. support
        held = _held(tb, occ, wk.cells, wk.slen, wk.gpos, wk.stack, -1)
        if held == _all(tb):
            return MOVED if moved else PLAIN
        # 4. everything unsupported falls one row; snakes landing on hazards die, gadgets in water vanish.
        # While the rows below the falling objects hold only free cells (no teleporter half, no open exit
        # under a head), each row is a step where nothing but the fall happens and the same objects keep
        # falling: those rows are passed in one go, and the loop goes on from the last of them.
        moved = True
        falling = _all(tb) & ~held
        _lift_all(tb, occ, wk.cells, wk.slen, wk.gpos, falling)
        rows = 0
        while _clear_below(tb, wk, held, (rows + 1) * w, left):
            rows += 1
        for o in range(nobj):
            if (falling >> o) & 1:
                _translate(tb, wk.cells, wk.slen, wk.gpos, o, max(rows, 1) * w)
        _place_all(tb, occ, wk.cells, wk.slen, wk.gpos, falling)
        if rows > 0:
            if tb.tele_a != 0:  # as checked on the last row passed: no falling object on a half
                prev_a = _on_half(occ, tb.tele_a)
                prev_b = _on_half(occ, tb.tele_b)
            continue
        for o in range(nobj):
            if (held >> o) & 1:
                continue
            if o < ns:
                for j in range(wk.slen[o]):
                    c = wk.cells[o, j]
                    if tb.base[c] == WATER or tb.base[c] == SPIKES:
                        return INVALID
            else:
                g = o - ns
                for j in range(tb.gad_n[g]):
                    if tb.base[wk.gpos[g] + tb.gad_off[g, j]] == WATER:
                        _lift(tb, occ, wk.cells, wk.slen, wk.gpos, o)
                        wk.gpos[g] = 0
                        break
    return INVALID


# ----------------------------------------------------------------------------------------------
# one move (§3)


@_inline
def _push_set(tb, wk, k, delta, first):
    """§3 (c): the objects pushed when snake k moves by delta into object `first` (the grid has the mover's
    tail lifted), as a bit mask; 0 when the push fails."""
    occ = wk.occ
    ns = tb.ns
    inset = np.int64(1) << first
    wk.stack[0] = first
    top = 1
    while top > 0:
        top -= 1
        x = wk.stack[top]
        n = wk.slen0[x] if x < ns else tb.gad_n[x - ns]
        for j in range(n):
            c = (wk.cells0[x, j] if x < ns else wk.gpos0[x - ns] + tb.gad_off[x - ns, j]) + delta
            v = occ[c]
            if v == FREE:
                continue
            if v >= FRUIT:  # fruit or terrain blocks the push
                return np.int64(0)
            y = np.int64(v) - 1
            if y == k:  # the mover would push itself
                return np.int64(0)
            bit = np.int64(1) << y
            if (inset & bit) == 0:
                inset |= bit
                wk.stack[top] = y
                top += 1
    return inset


@_inline
def _copy_parent(tb, wk):
    for s in range(tb.ns):
        n = wk.slen0[s]
        wk.slen[s] = n
        wk.shape[s] = wk.shape0[s]
        for j in range(n):
            wk.cells[s, j] = wk.cells0[s, j]
    for f in range(tb.nf):
        wk.fruit[f] = wk.fruit0[f]
    for g in range(tb.ng):
        wk.gpos[g] = wk.gpos0[g]


@_inline
def play_move(tb, wk, k, d, left, prev_a, prev_b, held_k):
    """Play snake k in direction d (0 U, 1 R, 2 D, 3 L) from the parent in wk (loaded into wk.occ) into
    the child arrays, then the physics. Returns (outcome, head cell, tail cell, ate): INVALID when the move
    is impossible or kills a snake; PLAIN/MOVED as in `physics`. wk.occ must then be restored
    (`restore_parent`) unless the outcome is INVALID before anything changed (head < 0).

    `held_k` >= 0 (see `_step_rests`) lets a plain step skip the physics when it provably changes nothing:
    the head lands on no teleporter and not on an open exit, and everything still rests."""
    occ = wk.occ
    n = wk.slen0[k]
    if n == 0:
        return INVALID, -1, -1, False
    delta = _delta(d, tb.w)
    t = wk.cells0[k, 0] + delta
    tail = wk.cells0[k, n - 1]
    v = occ[t]
    ate = v == FRUIT
    pushed = np.int64(0)
    if not ate and v != FREE:  # push, judged with the mover's tail lifted; never into terrain or itself
        if v >= FRUIT or v == k + 1:
            return INVALID, -1, -1, False
        occ[tail] = FREE
        pushed = _push_set(tb, wk, k, delta, np.int64(v) - 1)
        occ[tail] = k + 1
        if pushed == 0:
            return INVALID, -1, -1, False
    _copy_parent(tb, wk)
    if ate:  # grow at the head, nothing else moves
        for j in range(n, 0, -1):
            wk.cells[k, j] = wk.cells[k, j - 1]
        wk.slen[k] = n + 1
        wk.shape[k] = ((wk.shape[k] << np.uint64(2)) | np.uint64(d)) & _low_bits(2 * n)
        wk.fruit[tb.fruit_at[t]] = 0
        left -= 1
    else:
        for j in range(n - 1, 0, -1):
            wk.cells[k, j] = wk.cells[k, j - 1]
        wk.shape[k] = ((wk.shape[k] << np.uint64(2)) | np.uint64(d)) & _low_bits(2 * (n - 1))
        occ[tail] = FREE
        if pushed != 0:
            _lift_all(tb, occ, wk.cells0, wk.slen0, wk.gpos0, pushed)
            for o in range(tb.ns + tb.ng):
                if (pushed >> o) & 1:
                    _translate(tb, wk.cells, wk.slen, wk.gpos, o, delta)
            _place_all(tb, occ, wk.cells, wk.slen, wk.gpos, pushed)
    wk.cells[k, 0] = t
    occ[t] = k + 1
    if pushed == 0 and not ate and held_k >= 0 and t != tb.tele_a and t != tb.tele_b \
            and (left != 0 or t != tb.exit) and _step_rests(tb, wk, k, held_k):
        return PLAIN, t, tail, ate
    outcome = physics(tb, wk, left, prev_a, prev_b)
    if pushed != 0 and outcome == PLAIN:
        outcome = MOVED
    return outcome, t, tail, ate


# ----------------------------------------------------------------------------------------------
# batch expansion


@_inline
def _quiet(tb, wk, left):
    """No snake of the parent waits on an open exit (true of every parent but perhaps a start state), so
    only the mover can trigger an exit."""
    if left != 0:
        return True
    for s in range(tb.ns):
        if wk.slen0[s] > 0 and wk.cells0[s, 0] == tb.exit:
            return False
    return True


@_inline
def _can_step(tb, wk, k):
    """Snake k has a free cell beside its head (a plain step, worth the `_held` of its moves)."""
    h = wk.cells0[k, 0]
    w = tb.w
    return wk.occ[h - w] == FREE or wk.occ[h + 1] == FREE or wk.occ[h + w] == FREE or wk.occ[h - 1] == FREE


@_kernel
def expand_range(tb, wk, states, lo, hi, phash, ch, at):
    """Successors of states[lo:hi] written compactly into the `layout.Children` arrays from row `at`:
    canonical packed rows, and for each non-empty output array the parent row, the move (4 * snake
    slot + direction, U R D L), phash[parent row] and the slot permutation. Returns the number written.
    Children come in parent order, then snake slot, then direction."""
    with_parent = ch.parent.shape[0] > 0
    with_move = ch.move.shape[0] > 0
    with_tags = ch.tags.shape[0] > 0
    with_perms = ch.perms.shape[0] > 0
    m = at
    for i in range(lo, hi):
        unpack(tb, states[i], wk.cells0, wk.slen0, wk.shape0, wk.fruit0, wk.gpos0)
        left = load_parent(tb, wk)
        prev_a = _on_half(wk.occ, tb.tele_a) if tb.tele_a != 0 else -1
        prev_b = _on_half(wk.occ, tb.tele_b) if tb.tele_a != 0 else -1
        quiet = _quiet(tb, wk, left)
        for k in range(tb.ns):
            if wk.slen0[k] == 0:
                continue
            held_k = np.int64(-1)
            if quiet and _can_step(tb, wk, k):
                held_k = _held(tb, wk.occ, wk.cells0, wk.slen0, wk.gpos0, wk.stack, k)
            for d in range(4):
                outcome, head, tail, ate = play_move(tb, wk, k, d, left, prev_a, prev_b, held_k)
                if head < 0:
                    continue
                if outcome != INVALID:
                    if with_perms:
                        for s in range(tb.ns):
                            wk.perm_s[s] = s
                        for g in range(tb.ng):
                            wk.perm_g[g] = g
                    canonicalize(tb, wk.cells, wk.slen, wk.shape, wk.gpos, wk.perm_s, wk.perm_g)
                    pack(tb, wk.cells, wk.slen, wk.shape, wk.fruit, wk.gpos, ch.rows[m])
                    if with_parent:
                        ch.parent[m] = i
                    if with_move:
                        ch.move[m] = np.uint8(4 * k + d)
                    if with_tags:
                        ch.tags[m] = phash[i]
                    if with_perms:
                        for s in range(tb.ns):
                            ch.perms[m, s] = wk.perm_s[s]
                        for g in range(tb.ng):
                            ch.perms[m, tb.ns + g] = wk.perm_g[g]
                    m += 1
                restore_parent(tb, wk, k, outcome, head, tail, ate)
        unload_parent(tb, wk)
    return m - at


@_kernel
def goal_mask(tb, states, out):
    """out[i] = True for states where every snake has left (all snake fields zero)."""
    bits = tb.ns * (tb.tail_bits + tb.ib + tb.lb)
    full = bits // 8
    rest = bits % 8
    for i in range(states.shape[0]):
        ok = True
        for b in range(full):
            if states[i, b] != 0:
                ok = False
                break
        if ok and rest:
            if states[i, full] & ((1 << rest) - 1):
                ok = False
        out[i] = ok
