"""Sliding-tile puzzles R x C (8-puzzle, 15-puzzle, 2x5...): `sliding:RxC[:center|:edge][:packed]`.

A board lists the tile in each cell, row by row, 0 for the blank. The start is the solved position
(tiles 1, 2, ... in reading order) with the blank in the top-left corner, in the centre cell
((R-1)//2, (C-1)//2) with `:center`, or in the middle of the top edge (0, (C-1)//2) with `:edge`.
Moves are named by the direction the blank travels: U, D, L, R.

A state is stored as the lexicographic rank of its board (read from the last cell to the first;
`ranking.py`): 6 bytes for the 15-puzzle, dense where the search has been, which the `gap` codecs
turn into a few bits per state. `:packed` (and boards of more than 20 cells, whose ranks pass 64
bits) stores the tiles instead: two cells a byte up to 16 cells, a byte per cell above.

Every move can be undone (the graph is undirected) and every move changes the parity of the
blank's position (it is bipartite), so the engine can search with frontier layers only.
`expand_moves` never undoes the move a state was reached by.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

from puzzlelab.lab.errors import InputError, quote
from puzzlelab.lab.jit import inline_kernel, kernel

from ..domain import NO_MOVE, Domain
from .nibbles import pack, unpack
from .ranking import LANES_N, MAX_N, _digit, rank_of, rank_tables, rank_width, unrank_into

MOVE_NAMES = "UDLR"
INVERSE = np.array([1, 0, 3, 2], dtype=np.uint8)  # U <-> D, L <-> R
_SPEC = re.compile(r"^(\d+)x(\d+)(?::(center|edge|corner))?(?::(packed|ranked))?$")
BYTES, NIBBLES, RANKED = 0, 1, 2  # state encodings
_NO_PARENTS = np.empty(0, dtype=np.int64)


def neighbours(rows: int, cols: int) -> np.ndarray:
    """table[4 * cell + d]: the cell the blank reaches from `cell` by move d (U, D, L, R), -1 off the board."""
    table = np.full(4 * rows * cols, -1, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                table[4 * cell + d] = cell + dr * cols + dc
    return table


class Board(NamedTuple):
    """What the expansion kernel knows about the puzzle, and its scratch."""

    rows: int
    cols: int
    ncell: int
    width: int
    encoding: int  # BYTES, NIBBLES or RANKED
    weight: np.ndarray  # ranking tables (see ranking.py)
    recip: np.ndarray
    above: np.ndarray
    sig: np.ndarray  # uint8 (ncell): scratch, the board from the last cell to the first
    digit: np.ndarray  # uint64 (ncell): scratch, the Lehmer digits of sig
    neighbour: np.ndarray  # int64 (4 * ncell): the cell the blank moves to from cell c by move d, or -1


@inline_kernel
def _read(b, row):
    """The board of one state into b.sig (sig[k] = tile in cell ncell-1-k); returns the blank's cell."""
    n = b.ncell
    if b.encoding == RANKED:
        r = np.uint64(0)
        for j in range(b.width - 1, -1, -1):
            r = (r << np.uint64(8)) | np.uint64(row[j])
        unrank_into(r, n, b.weight, b.recip, b.sig)
    elif b.encoding == NIBBLES:
        for c in range(n):
            v = row[c >> 1]
            b.sig[n - 1 - c] = (v >> 4) if (c & 1) else (v & 15)
    else:
        for c in range(n):
            b.sig[n - 1 - c] = row[c]
    for k in range(n):
        if b.sig[k] == 0:
            return n - 1 - k
    return 0


@inline_kernel
def _write(b, out, m):
    """Encode b.sig as state row out[m]."""
    n = b.ncell
    if b.encoding == RANKED:
        r = rank_of(b.sig, n, b.weight, b.above)
        for j in range(b.width):
            out[m, j] = np.uint8(r & np.uint64(255))
            r >>= np.uint64(8)
    elif b.encoding == NIBBLES:
        for j in range(b.width):
            out[m, j] = 0
        for c in range(n):
            out[m, c >> 1] |= np.uint8(b.sig[n - 1 - c] << (4 * (c & 1)))
    else:
        for c in range(n):
            out[m, c] = b.sig[n - 1 - c]


@inline_kernel
def _read_ranked(b, r):
    """b.sig and b.digit (the Lehmer digits) of rank r, for up to 16 cells; returns the blank's position."""
    n = b.ncell
    pool = np.uint64(0xFEDCBA9876543210)  # unused values in increasing order, 4 bits each
    prev = np.uint64(0)
    blank = n - 1
    for k in range(n - 1):
        q = _digit(r, b.weight[k], b.recip[k])
        c = q - np.uint64(n - k) * prev
        prev = q
        b.digit[k] = c
        s = np.uint64(4) * c
        v = (pool >> s) & np.uint64(15)
        b.sig[k] = v
        blank = k if v == 0 else blank
        low = (np.uint64(1) << s) - np.uint64(1)
        pool = (pool & low) | ((pool >> np.uint64(4)) & ~low)
    b.sig[n - 1] = pool & np.uint64(15)
    b.digit[n - 1] = 0
    return blank


@inline_kernel
def _child_rank(b, r, kb, ko):
    """The rank of the board with the blank (position kb) and the tile at position ko swapped.

    From the parent's Lehmer digits: only the digits at kb, ko and between them change."""
    t = b.sig[ko]
    lo = kb if kb < ko else ko
    hi = ko if kb < ko else kb
    less = np.uint64(0)
    below = np.uint64(0)  # sum of the weights of the positions between holding a tile below t
    for m in range(lo + 1, hi):
        x = np.uint64(1) if b.sig[m] < t else np.uint64(0)
        less += x
        below += x * b.weight[m]
    cko = b.digit[ko]
    if kb < ko:
        return r + (less + np.uint64(1) + cko) * b.weight[kb] - cko * b.weight[ko] + below
    return r - cko * b.weight[ko] + (cko - less - np.uint64(1)) * b.weight[kb] - below


@kernel
def _expand_ranked(b, states, came_by, out, moves, parent):
    """expand_moves_kernel for ranked boards of up to 16 cells: each child's rank from its parent's digits."""
    n = b.ncell
    m = 0
    for i in range(states.shape[0]):
        r = np.uint64(0)
        for j in range(b.width - 1, -1, -1):
            r = (r << np.uint64(8)) | np.uint64(states[i, j])
        kb = _read_ranked(b, r)
        blank = n - 1 - kb
        back = INVERSE[came_by[i]] if came_by[i] < 4 else NO_MOVE
        for d in range(4):
            other = b.neighbour[4 * blank + d]
            if other < 0 or d == back:
                continue
            child = _child_rank(b, r, kb, n - 1 - other)
            for j in range(b.width):
                out[m, j] = np.uint8(child & np.uint64(255))
                child >>= np.uint64(8)
            moves[m] = d
            if parent.shape[0] > 0:
                parent[m] = i
            m += 1
    return m


@kernel
def expand_packed_kernel(b, values, came_by, out):
    """expand_moves for ranked boards of up to 16 cells, parents given as ranks, children written as
    rank << 8 | move."""
    n = b.ncell
    m = 0
    for i in range(values.shape[0]):
        r = values[i]
        kb = _read_ranked(b, r)
        blank = n - 1 - kb
        back = INVERSE[came_by[i]] if came_by[i] < 4 else NO_MOVE
        for d in range(4):
            other = b.neighbour[4 * blank + d]
            if other < 0 or d == back:
                continue
            out[m] = (_child_rank(b, r, kb, n - 1 - other) << np.uint64(8)) | np.uint64(d)
            m += 1
    return m


@kernel
def expand_moves_kernel(b, states, came_by, out, moves, parent):
    """Children of every state except the one that undoes came_by[i]; returns their number.

    parent[j] receives the row of child j's parent when `parent` is not empty."""
    if b.encoding == RANKED and b.ncell <= LANES_N:
        return _expand_ranked(b, states, came_by, out, moves, parent)
    n = b.ncell
    m = 0
    for i in range(states.shape[0]):
        blank = _read(b, states[i])
        r = blank // b.cols
        c = blank % b.cols
        back = INVERSE[came_by[i]] if came_by[i] < 4 else NO_MOVE
        for d in range(4):
            if d == back:
                continue
            if d == 0:
                if r == 0:
                    continue
                other = blank - b.cols
            elif d == 1:
                if r == b.rows - 1:
                    continue
                other = blank + b.cols
            elif d == 2:
                if c == 0:
                    continue
                other = blank - 1
            else:
                if c == b.cols - 1:
                    continue
                other = blank + 1
            kb = n - 1 - blank
            ko = n - 1 - other
            b.sig[kb] = b.sig[ko]
            b.sig[ko] = 0
            _write(b, out, m)
            b.sig[ko] = b.sig[kb]
            b.sig[kb] = 0
            moves[m] = d
            if parent.shape[0] > 0:
                parent[m] = i
            m += 1
    return m


class Sliding(Domain):
    """The R x C sliding-tile puzzle."""

    reversible = True
    bipartite = True
    inverse_moves = INVERSE
    codec = "gap-zstd"  # ranks: dense integers (set to rowfilter-zstd for :packed boards)
    expand_packed = None  # set for ranked boards of up to 16 cells

    def __init__(self, rows: int, cols: int, blank: str, name: str, packed: bool = False):
        self.rows, self.cols, self.blank = rows, cols, blank
        self.name = name
        self.ncell = rows * cols
        if not packed and self.ncell <= MAX_N:
            self.encoding, self.width = RANKED, rank_width(self.ncell)
        elif self.ncell <= 16:
            self.encoding, self.width, self.codec = NIBBLES, (self.ncell + 1) // 2, "rowfilter-zstd"
        else:
            self.encoding, self.width, self.codec = BYTES, self.ncell, "rowfilter-zstd"
        self.max_children = 4
        self.space_size = math.factorial(self.ncell) // 2
        br, bc = {"corner": (0, 0), "center": ((rows - 1) // 2, (cols - 1) // 2), "edge": (0, (cols - 1) // 2)}[blank]
        self.blank_cell = br * cols + bc
        tiles = list(range(1, self.ncell))
        tiles.insert(self.blank_cell, 0)
        self.start_cells = tiles
        weight, recip, above = rank_tables(min(self.ncell, MAX_N))
        self.board = Board(rows, cols, self.ncell, self.width, self.encoding, weight, recip, above,
                           np.zeros(self.ncell, dtype=np.uint8), np.zeros(self.ncell, dtype=np.uint64),
                           neighbours(rows, cols))
        self.start = self.pack(tiles)[None, :]
        if self.encoding == RANKED and self.ncell <= LANES_N:
            self.expand_packed = self._expand_packed

    def _expand_packed(self, values, came_by, out) -> int:
        return expand_packed_kernel(self.board, values, came_by, out)

    def expand_moves(self, states, came_by, out, moves) -> int:
        return expand_moves_kernel(self.board, states, came_by, out, moves, _NO_PARENTS)

    def expand(self, states):
        states = np.ascontiguousarray(states, dtype=np.uint8)
        n = states.shape[0]
        out = np.empty((4 * n, self.width), dtype=np.uint8)
        moves = np.empty(4 * n, dtype=np.uint8)
        parent = np.empty(4 * n, dtype=np.int64)
        m = expand_moves_kernel(self.board, states, np.full(n, NO_MOVE, dtype=np.uint8), out, moves, parent)
        return out[:m], parent[:m], moves[:m]

    def pack(self, cells) -> np.ndarray:
        """The state row of a board (tiles in reading order)."""
        if self.encoding == RANKED:
            sig = [int(t) for t in reversed(list(cells))]
            r, used = 0, []
            for k, v in enumerate(sig):
                r += (v - sum(1 for u in used if u < v)) * math.factorial(self.ncell - 1 - k)
                used.append(v)
            return np.frombuffer(int(r).to_bytes(self.width, "little"), dtype=np.uint8).copy()
        if self.encoding == NIBBLES:
            return pack(cells, self.width)
        return np.asarray(cells, dtype=np.uint8)

    def cells(self, row) -> list[int]:
        """The board of a state row (tiles in reading order)."""
        row = np.asarray(row, dtype=np.uint8)
        if self.encoding == RANKED:
            r = int.from_bytes(row.tobytes(), "little")
            pool, sig = list(range(self.ncell)), []
            for k in range(self.ncell):
                f = math.factorial(self.ncell - 1 - k)
                sig.append(pool.pop(r // f))
                r %= f
            return sig[::-1]
        if self.encoding == NIBBLES:
            return unpack(row, self.ncell)
        return [int(x) for x in row]

    def format_state(self, row) -> str:
        return ",".join(str(t) for t in self.cells(row))

    def format_board(self, row) -> str:
        cells = self.cells(row)
        w = len(str(self.ncell - 1))
        lines = []
        for r in range(self.rows):
            row = cells[r * self.cols:(r + 1) * self.cols]
            lines.append(" ".join(("." if t == 0 else str(t)).rjust(w) for t in row))
        return "\n".join(lines)

    def parse_state(self, text: str) -> np.ndarray:
        tokens = [t for t in re.split(r"[\s,;/]+", text.strip()) if t]
        if len(tokens) != self.ncell:
            raise InputError(f"cannot read {self.name} state {quote(text)}: expected {self.ncell} tiles "
                             f"(0..{self.ncell - 1}, 0 or _ for the blank), got {len(tokens)}")
        cells = []
        for t in tokens:
            if t in ("_", ".", "b", "B"):
                cells.append(0)
                continue
            try:
                cells.append(int(t))
            except ValueError:
                raise InputError(f"cannot read {self.name} state {quote(text)}: {quote(t)} is not a tile "
                                 "number") from None
        if sorted(cells) != list(range(self.ncell)):
            raise InputError(f"cannot read {self.name} state {quote(text)}: the tiles must be 0..{self.ncell - 1}, "
                             "each exactly once (0 is the blank)")
        if not self.reachable(cells):
            raise InputError(f"{self.name} state {quote(text)} is not reachable from the start: its permutation "
                             "parity does not match the blank's distance (half of all boards are unsolvable)")
        return self.pack(cells)

    def reachable(self, cells) -> bool:
        """Same component as the start: permutation parity equals the blank's taxicab-distance parity."""
        pos_in_start = {t: i for i, t in enumerate(self.start_cells)}
        perm = [pos_in_start[t] for t in cells]
        seen = [False] * len(perm)
        transpositions = 0
        for i in range(len(perm)):
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = perm[j]
                length += 1
            transpositions += max(0, length - 1)
        b = cells.index(0)
        dist = abs(b // self.cols - self.blank_cell // self.cols) + abs(b % self.cols - self.blank_cell % self.cols)
        return transpositions % 2 == dist % 2

    def format_move(self, move_id: int, parent_row=None) -> str:
        return MOVE_NAMES[int(move_id)]


def make(arg: str) -> Sliding:
    spec = f"sliding:{arg}"
    m = _SPEC.match(arg.strip())
    if not m:
        raise InputError(f"cannot read domain {quote(spec)}: expected sliding:RxC[:center|:edge][:packed], "
                         "e.g. sliding:3x3")
    if len(m.group(1)) > 4 or len(m.group(2)) > 4:
        raise InputError(f"domain {quote(spec)}: need 2 <= R, C and R*C <= 64")
    rows, cols = int(m.group(1)), int(m.group(2))
    if rows < 2 or cols < 2 or rows * cols > 64:
        raise InputError(f"domain {quote(spec)}: need 2 <= R, C and R*C <= 64")
    blank = m.group(3) or "corner"
    packed = m.group(4) == "packed"
    name = f"sliding:{rows}x{cols}" + ("" if blank == "corner" else f":{blank}") + (":packed" if packed else "")
    return Sliding(rows, cols, blank, name, packed)
