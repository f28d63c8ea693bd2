"""The 2x2x2 cube with the DBL corner fixed: `cube2:htm|qtm[:packed]` (half-turn or quarter-turn metric).

Fixing one corner leaves the turns of the three faces that do not touch it, U, R and F, and exactly
7! * 3^6 = 3,674,160 positions. A position is 7 corner bytes, one per slot (URF, UFL, ULB, UBR,
DFR, DLF, DRB): `3 * cubie + twist`. The corner arithmetic follows Kociemba's cubie-level
convention (a move permutes slots and adds twists mod 3).

A state is stored as its rank, `rank(permutation of the cubies) * 3^6 + the twists of the first
six slots in base 3` (the seventh twist follows: they sum to 0 mod 3), in 3 bytes, every integer
below 3,674,160 a position (dense sets, for the `gap` codecs); `:packed` stores the 7 corner
bytes. Every turn is undone by its inverse; quarter turns are odd permutations of the corners, so
the quarter-turn graph is bipartite.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from puzzlelab.lab.errors import InputError, quote
from puzzlelab.lab.jit import inline_kernel, kernel

from ..domain import NO_MOVE, Domain
from .ranking import rank_of, rank_tables, unrank_into

CORNERS = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"]
SLOTS = [0, 1, 2, 3, 4, 5, 7]  # DBL (6) never moves
MAX_SCRAMBLE = 10_000  # turns a scramble given to parse_state may have
FACES = "URF"
SUFFIX = ["", "2", "'"]
# Quarter turns clockwise: slot i receives the cubie from slot cp[i], with twist co[i] added.
QUARTER = {
    "U": ([3, 0, 1, 2, 4, 5, 6, 7], [0, 0, 0, 0, 0, 0, 0, 0]),
    "R": ([4, 1, 2, 0, 7, 5, 6, 3], [2, 0, 0, 1, 1, 0, 0, 2]),
    "F": ([1, 5, 2, 3, 0, 4, 6, 7], [1, 2, 0, 0, 2, 1, 0, 0]),
}


def _compose(a, b):
    """a followed by b, both as (cp, co) on the 8 slots."""
    cp = [a[0][b[0][i]] for i in range(8)]
    co = [(a[1][b[0][i]] + b[1][i]) % 3 for i in range(8)]
    return cp, co


def move_tables():
    """SRC[m, s]: slot whose cubie lands in slot s; TWIST[m, s]: twist added. m = 3 * face + power - 1."""
    src = np.zeros((9, 7), dtype=np.int64)
    twist = np.zeros((9, 7), dtype=np.int64)
    index = {slot: k for k, slot in enumerate(SLOTS)}
    for f, face in enumerate(FACES):
        q = QUARTER[face]
        cur = q
        for p in range(3):
            for k, slot in enumerate(SLOTS):
                src[3 * f + p, k] = index[cur[0][slot]]
                twist[3 * f + p, k] = cur[1][slot]
            cur = _compose(cur, q)
    return src, twist


SRC, TWIST = move_tables()
# NEXT[m, s, b]: the byte landing in slot s under move m when the source slot holds byte b
NEXT = np.zeros((9, 7, 21), dtype=np.uint8)
for _m in range(9):
    for _s in range(7):
        for _b in range(21):
            NEXT[_m, _s, _b] = _b - _b % 3 + (_b % 3 + TWIST[_m, _s]) % 3
HTM_MOVES = np.arange(9, dtype=np.uint8)
QTM_MOVES = np.array([0, 2, 3, 5, 6, 8], dtype=np.uint8)


TWISTS = 729  # 3^6: the twists of the first six slots
INVERSE = np.array([3 * (m // 3) + 2 - m % 3 for m in range(9)], dtype=np.uint8)  # U <-> U', U2 <-> U2
_NO_PARENTS = np.empty(0, dtype=np.int64)


class Turns(NamedTuple):
    """What the expansion kernel knows about the cube, and its scratch."""

    ranked: bool
    width: int
    moves: np.ndarray  # the move ids of the metric
    same_face: bool  # after a turn, skip every turn of that face (half-turn metric), else its inverse only
    src: np.ndarray
    nxt: np.ndarray
    weight: np.ndarray  # ranking tables of 7 cubies
    recip: np.ndarray
    above: np.ndarray
    cur: np.ndarray  # uint8 (7): scratch, the parent's corner bytes
    perm: np.ndarray  # uint8 (7): scratch


@inline_kernel
def _corners(t, row):
    """The corner bytes of state row `row` into t.cur."""
    if not t.ranked:
        for s in range(7):
            t.cur[s] = row[s]
        return
    r = np.uint64(0)
    for j in range(t.width - 1, -1, -1):
        r = (r << np.uint64(8)) | np.uint64(row[j])
    tw = r % np.uint64(TWISTS)
    unrank_into(r // np.uint64(TWISTS), 7, t.weight, t.recip, t.perm)
    total = 0
    for s in range(5, -1, -1):
        x = int(tw % np.uint64(3))
        tw //= np.uint64(3)
        total += x
        t.cur[s] = 3 * t.perm[s] + x
    t.cur[6] = 3 * t.perm[6] + (3 - total % 3) % 3


@inline_kernel
def _write_child(t, mv, out, m):
    """out[m] = the state of t.cur turned by move mv."""
    if not t.ranked:
        for s in range(7):
            out[m, s] = t.nxt[mv, s, t.cur[t.src[mv, s]]]
        return
    tw = np.uint64(0)
    for s in range(7):
        b = t.nxt[mv, s, t.cur[t.src[mv, s]]]
        t.perm[s] = b // 3
        if s < 6:
            tw = tw * np.uint64(3) + np.uint64(b % 3)
    r = rank_of(t.perm, 7, t.weight, t.above) * np.uint64(TWISTS) + tw
    for j in range(t.width):
        out[m, j] = np.uint8(r & np.uint64(255))
        r >>= np.uint64(8)


@kernel
def expand_moves_kernel(t, states, came_by, out, moves, parent):
    """Every turn of every state but those that cannot lead deeper (see Turns.same_face); returns the count."""
    m = 0
    for i in range(states.shape[0]):
        _corners(t, states[i])
        back = came_by[i]
        for k in range(t.moves.shape[0]):
            mv = t.moves[k]
            if back != NO_MOVE:
                if t.same_face and mv // 3 == back // 3:
                    continue
                if mv == INVERSE[back]:
                    continue
            _write_child(t, mv, out, m)
            moves[m] = mv
            if parent.shape[0] > 0:
                parent[m] = i
            m += 1
    return m


class Cube2(Domain):
    """2x2x2 cube, DBL fixed, in the half-turn or quarter-turn metric."""

    space_size = 3674160
    reversible = True
    inverse_moves = INVERSE

    def __init__(self, metric: str, packed: bool = False):
        self.metric = metric
        self.ranked = not packed
        self.name = f"cube2:{metric}" + (":packed" if packed else "")
        self.width = 3 if self.ranked else 7
        self.codec = "gap-zstd" if self.ranked else "rowfilter-zstd"
        self.bipartite = metric == "qtm"
        self.moves = HTM_MOVES if metric == "htm" else QTM_MOVES
        self.max_children = len(self.moves)
        weight, recip, above = rank_tables(7)
        self.turns = Turns(self.ranked, self.width, self.moves, metric == "htm", SRC, NEXT, weight, recip, above,
                           np.zeros(7, dtype=np.uint8), np.zeros(7, dtype=np.uint8))
        self.solved = np.arange(7, dtype=np.uint8) * 3
        self.start = self.row(self.solved)[None, :]

    def expand_moves(self, states, came_by, out, moves) -> int:
        return expand_moves_kernel(self.turns, states, came_by, out, moves, _NO_PARENTS)

    def expand(self, states, moves: np.ndarray | None = None):
        states = np.ascontiguousarray(states, dtype=np.uint8)
        turns = self.turns if moves is None else self.turns._replace(moves=moves, same_face=False)
        n = states.shape[0]
        out = np.empty((turns.moves.shape[0] * n, self.width), dtype=np.uint8)
        mv = np.empty(out.shape[0], dtype=np.uint8)
        parent = np.empty(out.shape[0], dtype=np.int64)
        m = expand_moves_kernel(turns, states, np.full(n, NO_MOVE, dtype=np.uint8), out, mv, parent)
        return out[:m], parent[:m], mv[:m]

    def row(self, corners) -> np.ndarray:
        """The state row of 7 corner bytes."""
        corners = np.asarray(corners, dtype=np.uint8)
        if not self.ranked:
            return corners.copy()
        perm = [int(b) // 3 for b in corners]
        r, used = 0, []
        for k, v in enumerate(perm):
            r += (v - sum(1 for u in used if u < v)) * [720, 120, 24, 6, 2, 1, 1][k]
            used.append(v)
        tw = 0
        for b in corners[:6]:
            tw = 3 * tw + int(b) % 3
        return np.frombuffer(int(r * TWISTS + tw).to_bytes(3, "little"), dtype=np.uint8).copy()

    def corners(self, row) -> np.ndarray:
        """The 7 corner bytes of a state row."""
        row = np.asarray(row, dtype=np.uint8)
        if not self.ranked:
            return row.copy()
        r = int.from_bytes(row.tobytes(), "little")
        pr, tw = divmod(r, TWISTS)
        pool, perm = list(range(7)), []
        for f in (720, 120, 24, 6, 2, 1, 1):
            perm.append(pool.pop(pr // f))
            pr %= f
        twists = [(tw // 3 ** (5 - s)) % 3 for s in range(6)]
        twists.append((-sum(twists)) % 3)
        return np.array([3 * p + x for p, x in zip(perm, twists, strict=True)], dtype=np.uint8)

    def format_move(self, move_id: int, parent_row=None) -> str:
        return FACES[int(move_id) // 3] + SUFFIX[int(move_id) % 3]

    def format_state(self, row) -> str:
        return " ".join(f"{CORNERS[SLOTS[int(b) // 3]]}{int(b) % 3}" for b in self.corners(row))

    def apply(self, row, move_ids) -> np.ndarray:
        cur = np.asarray(row, dtype=np.uint8)[None, :].copy()
        for mv in move_ids:
            # through the full table: the quarter-turn move set lacks the half turns
            cur = self.expand(cur, np.array([mv], dtype=np.uint8))[0]
        return cur[0]

    def parse_state(self, text: str) -> np.ndarray:
        """Either 7 corners as printed by format_state (`URF0 UFL0 ...`) or a scramble of U/R/F turns."""
        tokens = text.replace(",", " ").split()
        if not tokens:
            raise InputError(f"cannot read {self.name} state {quote(text)}: empty")
        if all(re.fullmatch(r"[URF][2']?", t) for t in tokens):
            if len(tokens) > MAX_SCRAMBLE:
                raise InputError(f"cannot read {self.name} scramble of {len(tokens):,} turns: at most "
                                 f"{MAX_SCRAMBLE:,} (any position is at most 14 quarter turns away)")
            moves = [3 * FACES.index(t[0]) + (SUFFIX.index(t[1:]) if len(t) > 1 else 0) for t in tokens]
            return self.apply(self.start[0], moves)
        if len(tokens) != 7:
            raise InputError(f"cannot read {self.name} state {quote(text)}: expected a scramble of U, R, F turns "
                             "(e.g. \"R U2 F'\") or 7 corners with twists "
                             "(e.g. \"URF0 UFL0 ULB0 UBR0 DFR0 DLF0 DRB0\")")
        row = np.zeros(7, dtype=np.uint8)
        names = [CORNERS[s] for s in SLOTS]
        for k, t in enumerate(tokens):
            m = re.fullmatch(r"([UDRLFB]{3})([012])", t.upper())
            if not m or m.group(1) not in names:
                raise InputError(f"cannot read {self.name} state {quote(text)}: {quote(t)} is not a corner name "
                                 f"({', '.join(names)}) followed by a twist 0-2")
            row[k] = 3 * names.index(m.group(1)) + int(m.group(2))
        if sorted(int(b) // 3 for b in row) != list(range(7)):
            raise InputError(f"cannot read {self.name} state {quote(text)}: each corner must appear exactly once")
        if sum(int(b) % 3 for b in row) % 3:
            raise InputError(f"{self.name} state {quote(text)} is not reachable: the twists must sum to a "
                             "multiple of 3")
        return self.row(row)


def make(arg: str) -> Cube2:
    metric, _, option = arg.strip().lower().partition(":")
    if metric not in ("htm", "qtm") or option not in ("", "packed"):
        raise InputError(f"cannot read domain {quote('cube2:' + arg)}: expected cube2:htm or cube2:qtm "
                         "(optionally :packed)")
    return Cube2(metric, packed=option == "packed")
