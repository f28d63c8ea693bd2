"""Sliding-tile puzzles R x C (8-puzzle, 15-puzzle, 2x5...): `sliding:RxC[:center|:edge]`.

A state lists the tile in each cell, row by row, 0 for the blank; boards of up to 16 cells pack two
cells to a byte (the 15-puzzle is 8 bytes), larger ones take a byte per cell. The start is the
solved position (tiles 1, 2, ... in reading order) with the blank in the top-left corner, in the
centre cell ((R-1)//2, (C-1)//2) with `:center`, or in the middle of the top edge (0, (C-1)//2) with
`:edge`. Moves are named by the direction the blank travels: U, D, L, R.
"""

from __future__ import annotations

import math
import re

import numpy as np
from numba import njit

from puzzlelab.lab.errors import InputError, quote

from ..domain import Domain
from .nibbles import pack, unpack, unpack_row

MOVE_NAMES = "UDLR"
_SPEC = re.compile(r"^(\d+)x(\d+)(?::(center|edge|corner))?$")


@njit(cache=True)
def _expand(states, rows, cols, nib):
    n = states.shape[0]
    width = states.shape[1]
    ncell = rows * cols
    children = np.empty((n * 4, width), dtype=np.uint8)
    parent = np.empty(n * 4, dtype=np.int64)
    move = np.empty(n * 4, dtype=np.uint8)
    cells = np.empty(ncell, dtype=np.uint8)
    m = 0
    for i in range(n):
        if nib:
            unpack_row(states[i], cells, ncell)
        else:
            for c in range(ncell):
                cells[c] = states[i, c]
        blank = 0
        for c in range(ncell):
            if cells[c] == 0:
                blank = c
                break
        r = blank // cols
        c = blank % cols
        for d in range(4):
            if d == 0:
                if r == 0:
                    continue
                other = blank - cols
            elif d == 1:
                if r == rows - 1:
                    continue
                other = blank + cols
            elif d == 2:
                if c == 0:
                    continue
                other = blank - 1
            else:
                if c == cols - 1:
                    continue
                other = blank + 1
            if nib:
                # swap the two nibbles in place on a copy of the packed row
                for j in range(width):
                    children[m, j] = states[i, j]
                t = cells[other]
                bb = blank >> 1
                ob = other >> 1
                if blank & 1:
                    children[m, bb] = (children[m, bb] & 0x0F) | (t << 4)
                else:
                    children[m, bb] = (children[m, bb] & 0xF0) | t
                if other & 1:
                    children[m, ob] = children[m, ob] & 0x0F
                else:
                    children[m, ob] = children[m, ob] & 0xF0
            else:
                for j in range(width):
                    children[m, j] = states[i, j]
                children[m, blank] = cells[other]
                children[m, other] = 0
            parent[m] = i
            move[m] = d
            m += 1
    return children[:m], parent[:m], move[:m]


class Sliding(Domain):
    """The R x C sliding-tile puzzle."""

    def __init__(self, rows: int, cols: int, blank: str, name: str):
        self.rows, self.cols, self.blank = rows, cols, blank
        self.name = name
        self.ncell = rows * cols
        self.nibbles = self.ncell <= 16
        self.width = (self.ncell + 1) // 2 if self.nibbles else self.ncell
        self.max_children = 4
        self.space_size = math.factorial(self.ncell) // 2
        br, bc = {"corner": (0, 0), "center": ((rows - 1) // 2, (cols - 1) // 2), "edge": (0, (cols - 1) // 2)}[blank]
        self.blank_cell = br * cols + bc
        tiles = list(range(1, self.ncell))
        tiles.insert(self.blank_cell, 0)
        self.start_cells = tiles
        self.start = self.pack(tiles)[None, :]

    def expand(self, states):
        return _expand(states, self.rows, self.cols, self.nibbles)

    def pack(self, cells) -> np.ndarray:
        if self.nibbles:
            return pack(cells, self.width)
        return np.asarray(cells, dtype=np.uint8)

    def cells(self, row) -> list[int]:
        return unpack(row, self.ncell) if self.nibbles else [int(x) for x in np.asarray(row)]

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
        raise InputError(f"cannot read domain {quote(spec)}: expected sliding:RxC[:center|:edge], e.g. sliding:3x3")
    if len(m.group(1)) > 4 or len(m.group(2)) > 4:
        raise InputError(f"domain {quote(spec)}: need 2 <= R, C and R*C <= 64")
    rows, cols = int(m.group(1)), int(m.group(2))
    if rows < 2 or cols < 2 or rows * cols > 64:
        raise InputError(f"domain {quote(spec)}: need 2 <= R, C and R*C <= 64")
    blank = m.group(3) or "corner"
    name = f"sliding:{rows}x{cols}" + ("" if blank == "corner" else f":{blank}")
    return Sliding(rows, cols, blank, name)
