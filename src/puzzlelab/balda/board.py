"""Balda boards: an N x N grid of letter codes (-1 = empty), built from a start word or read from a
file, checked (size, letters, one connected group), and the played words that go with it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from ..lab.errors import InputError, quote
from ..lab.textio import read_text
from .alphabet import Alphabet

MIN_SIZE, MAX_SIZE = 3, 8  # a path is a 64-bit cell mask
EMPTY = "."


@dataclass
class Board:
    size: int
    cells: np.ndarray  # int8 [size*size], letter code or -1
    played: list[str] = field(default_factory=list)  # words already used, the start word first

    @property
    def filled(self) -> int:
        return int((self.cells >= 0).sum())

    @property
    def empty(self) -> int:
        return self.size * self.size - self.filled

    def rows(self, alpha: Alphabet) -> list[str]:
        return ["".join(alpha.letters[c] if c >= 0 else EMPTY for c in self.cells[r * self.size:(r + 1) * self.size])
                for r in range(self.size)]

    def copy(self) -> Board:
        return Board(self.size, self.cells.copy(), list(self.played))


def neighbours(size: int) -> np.ndarray:
    """int32 [size*size, 4]: the orthogonal neighbours of each cell (up, left, right, down), -1 padded."""
    nb = np.full((size * size, 4), -1, dtype=np.int32)
    for r in range(size):
        for c in range(size):
            k = 0
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    nb[r * size + c, k] = rr * size + cc
                    k += 1
    return nb


def check_size(size: int, where: str | None = None, line: int | None = None) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InputError(f"board size {size} is not supported: use {MIN_SIZE}..{MAX_SIZE}", where, line)


def from_start_word(word: str, alpha: Alphabet, size: int | None = None) -> Board:
    """An empty board with the start word in the middle row (the board size defaults to its length)."""
    norm = alpha.normalise(word)
    size = len(norm) if size is None else size
    check_size(size)
    if len(norm) != size:
        raise InputError(f"start word {quote(word)} has {len(norm)} letters; a {size}x{size} board needs {size}")
    bad = [ch for ch in norm if ch not in alpha.letters]
    if bad:
        raise InputError(f"start word {quote(word)}: letter {quote(bad[0])} is not in the {alpha.lang} alphabet")
    cells = np.full(size * size, -1, dtype=np.int8)
    mid = size // 2
    cells[mid * size:(mid + 1) * size] = alpha.encode(norm)
    return Board(size, cells, [norm])


def connected(cells: np.ndarray, size: int) -> bool:
    """Do the filled cells form one orthogonally connected group?"""
    filled = np.flatnonzero(cells >= 0)
    if len(filled) == 0:
        return False
    nb = neighbours(size)
    seen = {int(filled[0])}
    todo = [int(filled[0])]
    while todo:
        v = todo.pop()
        for u in nb[v]:
            if u >= 0 and cells[u] >= 0 and int(u) not in seen:
                seen.add(int(u))
                todo.append(int(u))
    return len(seen) == len(filled)


def read_board(path: str | os.PathLike, alpha: Alphabet, size: int | None = None) -> Board:
    """A board file: N lines of N characters ('.' empty), then optionally a blank line and the words
    already played, one per line (the start word included)."""
    text = read_text(path, what="board file")
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]  # lines as editors count
    grid: list[tuple[int, str]] = []
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    while i < len(lines) and lines[i].strip():
        grid.append((i + 1, lines[i].strip()))
        i += 1
    if not grid:
        raise InputError("empty board file: expected N lines of N letters ('.' for an empty cell)", path, 1)
    n = len(grid)
    if size is not None and n != size:
        raise InputError(f"the board has {n} rows but --size is {size}", path, grid[-1][0])
    check_size(n, str(path), grid[-1][0])
    cells = np.full(n * n, -1, dtype=np.int8)
    for r, (lineno, row) in enumerate(grid):
        row = alpha.normalise(row)
        if len(row) != n:
            raise InputError(f"row has {len(row)} cells, expected {n} (an N x N board; '.' for empty)", path, lineno)
        for c, ch in enumerate(row):
            if ch == EMPTY:
                continue
            if ch not in alpha.letters:
                raise InputError(f"column {c + 1}: {quote(ch)} is not a letter of the {alpha.lang} alphabet "
                                 f"nor '{EMPTY}'", path, lineno)
            cells[r * n + c] = alpha.letters.index(ch)
    if not (cells >= 0).any():
        raise InputError("the board has no letter", path, grid[0][0])
    if not connected(cells, n):
        raise InputError("the letters are not one orthogonally connected group", path, grid[0][0])
    played: list[str] = []
    for lineno in range(i + 1, len(lines) + 1):
        word = alpha.normalise(lines[lineno - 1])
        if not word:
            continue
        if not alpha.is_word(word):
            raise InputError(f"played word {quote(word)} has letters outside the {alpha.lang} alphabet", path,
                             lineno)
        if word not in played:
            played.append(word)
    return Board(n, cells, played)
