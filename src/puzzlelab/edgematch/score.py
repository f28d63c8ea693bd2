"""The one scorer: matched inner edges (480 max on 16x16), and the validity check of a board.

An inner edge is matched when both cells are filled and the two touching sides have the same,
non-grey colour (grey is the border; a grey side facing a neighbour never counts). Every command
and every search reports scores through `score_board` / the `score_kernel`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..lab.errors import InputError
from ..lab.jit import kernel
from .board import Board
from .hints import Hint
from .puzzle import Puzzle


@kernel
def score_kernel(piece, rot, rotated):
    """Matched inner edges of a board given as (R, C) piece (-1 empty) and rot arrays."""
    rows, cols = piece.shape
    total = 0
    for r in range(rows):
        for c in range(cols):
            p = piece[r, c]
            if p < 0:
                continue
            q = rot[r, c] & 3
            if c + 1 < cols and piece[r, c + 1] >= 0:
                a = rotated[p, q, 1]
                if a != 0 and a == rotated[piece[r, c + 1], rot[r, c + 1] & 3, 3]:
                    total += 1
            if r + 1 < rows and piece[r + 1, c] >= 0:
                a = rotated[p, q, 2]
                if a != 0 and a == rotated[piece[r + 1, c], rot[r + 1, c] & 3, 0]:
                    total += 1
    return total


def check_fits(puzzle: Puzzle, board: Board, path=None) -> None:
    """A board must have the puzzle's size and name only its pieces (else it does not belong to it)."""
    if (board.rows, board.cols) != (puzzle.rows, puzzle.cols):
        raise InputError(f"the board is {board.rows}x{board.cols}, the puzzle {puzzle.rows}x{puzzle.cols}", path,
                         None)
    bad = np.argwhere(board.piece >= puzzle.n_pieces)
    if len(bad):
        r, c = (int(x) for x in bad[0])
        raise InputError(f"cell (row {r}, col {c}) holds piece {board.piece[r, c] + 1}, the puzzle has only "
                         f"{puzzle.n_pieces} pieces", path, None)


def score_board(puzzle: Puzzle, board: Board) -> int:
    """Matched inner edges (rotations taken modulo 4; see `check_board` for validity)."""
    check_fits(puzzle, board)
    return int(score_kernel(board.piece, board.rot, puzzle.rotated))


def mismatch_edges(puzzle: Puzzle, board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Boolean maps of unmatched inner edges between two filled cells: horizontal (R, C-1), vertical (R-1, C)."""
    filled = board.piece >= 0
    colors = puzzle.rotated[np.where(filled, board.piece, 0), board.rot.astype(np.int64) & 3]  # (R, C, 4)
    right, left = colors[:, :-1, 1], colors[:, 1:, 3]
    down, up = colors[:-1, :, 2], colors[1:, :, 0]
    h = filled[:, :-1] & filled[:, 1:] & ~((right == left) & (right != 0))
    v = filled[:-1, :] & filled[1:, :] & ~((down == up) & (down != 0))
    return h, v


def mismatch_cells(puzzle: Puzzle, board: Board) -> np.ndarray:
    """(R, C) count of unmatched sides per cell (each unmatched inner edge counts in both its cells)."""
    h, v = mismatch_edges(puzzle, board)
    out = np.zeros((board.rows, board.cols), np.int32)
    out[:, :-1] += h
    out[:, 1:] += h
    out[:-1, :] += v
    out[1:, :] += v
    return out


@dataclass
class Check:
    """What `puzzlelab edgematch score` reports about a board."""

    score: int
    max_score: int
    valid: bool
    complete: bool
    placed: int
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"score": self.score, "max_score": self.max_score, "valid": self.valid, "complete": self.complete,
                "placed": self.placed, "problems": list(self.problems)}


def check_board(puzzle: Puzzle, board: Board, hints: list[Hint] = (), path=None) -> Check:
    """Score a board and check it: every piece at most once, rotations 0-3, hints respected."""
    check_fits(puzzle, board, path)
    problems = []
    placed = board.piece[board.piece >= 0]
    counts = np.bincount(placed, minlength=puzzle.n_pieces)
    for p in np.flatnonzero(counts > 1)[:10]:
        problems.append(f"piece {p + 1} is placed {counts[p]} times")
    bad_rot = np.argwhere((board.piece >= 0) & ((board.rot < 0) | (board.rot > 3)))
    for r, c in bad_rot[:10]:
        problems.append(f"cell (row {r}, col {c}) has rotation {board.rot[r, c]} (must be 0..3)")
    for h in hints:
        if board.piece[h.row, h.col] != h.piece or board.rot[h.row, h.col] != h.rot:
            got = "empty" if board.piece[h.row, h.col] < 0 else \
                f"{board.piece[h.row, h.col] + 1}/{board.rot[h.row, h.col]}"
            problems.append(f"hint {h.piece + 1}/{h.rot} at (row {h.row}, col {h.col}) not respected (found {got})")
    score = int(score_kernel(board.piece, board.rot, puzzle.rotated))
    return Check(score=score, max_score=puzzle.max_score, valid=not problems,
                 complete=bool(len(placed) == puzzle.n_cells), placed=int(len(placed)), problems=problems)
