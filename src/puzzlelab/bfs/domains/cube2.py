"""The 2x2x2 cube with the DBL corner fixed: `cube2:htm` (half-turn metric) or `cube2:qtm` (quarter turns).

Fixing one corner leaves the turns of the three faces that do not touch it, U, R and F, and exactly
7! * 3^6 = 3,674,160 positions. A state is 7 bytes, one per corner slot (URF, UFL, ULB, UBR, DFR,
DLF, DRB): `3 * cubie + twist`. The corner arithmetic follows Kociemba's cubie-level convention
(a move permutes slots and adds twists mod 3).
"""

from __future__ import annotations

import re

import numpy as np
from numba import njit

from puzzlelab.lab.errors import InputError, quote

from ..domain import Domain

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


@njit(cache=True)
def _expand(states, moves, src, nxt):
    n = states.shape[0]
    nm = moves.shape[0]
    children = np.empty((n * nm, 7), dtype=np.uint8)
    parent = np.empty(n * nm, dtype=np.int64)
    move = np.empty(n * nm, dtype=np.uint8)
    m = 0
    for i in range(n):
        for k in range(nm):
            mv = moves[k]
            for s in range(7):
                children[m, s] = nxt[mv, s, states[i, src[mv, s]]]
            parent[m] = i
            move[m] = mv
            m += 1
    return children, parent, move


class Cube2(Domain):
    """2x2x2 cube, DBL fixed, in the half-turn or quarter-turn metric."""

    width = 7
    space_size = 3674160

    def __init__(self, metric: str):
        self.metric = metric
        self.name = f"cube2:{metric}"
        self.moves = HTM_MOVES if metric == "htm" else QTM_MOVES
        self.max_children = len(self.moves)
        self.start = (np.arange(7, dtype=np.uint8) * 3)[None, :]

    def expand(self, states):
        return _expand(states, self.moves, SRC, NEXT)

    def format_move(self, move_id: int, parent_row=None) -> str:
        return FACES[int(move_id) // 3] + SUFFIX[int(move_id) % 3]

    def format_state(self, row) -> str:
        return " ".join(f"{CORNERS[SLOTS[int(b) // 3]]}{int(b) % 3}" for b in np.asarray(row))

    def apply(self, row, move_ids) -> np.ndarray:
        cur = np.asarray(row, dtype=np.uint8)[None, :].copy()
        for mv in move_ids:
            # through the full table: the QTM move set lacks the half turns
            cur = _expand(cur, np.array([mv], dtype=np.uint8), SRC, NEXT)[0]
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
        return row


def make(arg: str) -> Cube2:
    metric = arg.strip().lower()
    if metric not in ("htm", "qtm"):
        raise InputError(f"cannot read domain {quote('cube2:' + arg)}: expected cube2:htm or cube2:qtm")
    return Cube2(metric)
