"""Hints: pieces fixed at given cells (the Eternity II start piece and clue pieces, or a hints file).

A hint is (row, col, piece, rot) with 0-based row/col from the top-left, 0-based `piece` in memory
and `rot` in the puzzle's rotation convention. A hints file has one hint per line,
``ROW COL PIECE ROT`` (row and column from 0, PIECE 1-based as in the puzzle file), ``#`` comments;
the first hint is the *start* hint, the rest are clues. `--hints none|start|all` picks none, the
first, or all of them. A file with no hint (comments only) stands for a puzzle without hints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..lab.errors import InputError, quote
from ..lab.textio import read_text
from .board import Board
from .puzzle import Puzzle

HINT_MODES = ("none", "start", "all")


@dataclass(frozen=True)
class Hint:
    row: int
    col: int
    piece: int  # 0-based
    rot: int


# The official set in e2pieces.txt numbering (Wortmann): start piece 139 at I8 with rotation 2, then
# the four clue pieces; `colors` are the (up, right, down, left) colours once turned, used to recognise the set.
OFFICIAL_HINTS = (
    (Hint(8, 7, 138, 2), (8, 9, 9, 12)),
    (Hint(2, 2, 207, 3), (22, 11, 12, 13)),
    (Hint(2, 13, 254, 3), (22, 18, 22, 20)),
    (Hint(13, 2, 180, 3), (20, 9, 21, 12)),
    (Hint(13, 13, 248, 0), (16, 21, 15, 17)),
)


def is_official(puzzle: Puzzle) -> bool:
    """True for the official 16x16 Eternity II set in the e2pieces.txt numbering and colours."""
    if (puzzle.rows, puzzle.cols, puzzle.n_pieces) != (16, 16, 256):
        return False
    return all(puzzle.sides(h.piece, h.rot) == colors for h, colors in OFFICIAL_HINTS)


def official_hints() -> list[Hint]:
    return [h for h, _ in OFFICIAL_HINTS]


def e2_hint_cells(rows: int, cols: int) -> list[tuple[int, int]]:
    """Eternity II's hint layout scaled to a board: start cell (rows//2, cols//2 - 1), then the clue cells
    (2, 2), (2, cols-3), (rows-3, 2), (rows-3, cols-3); interior cells only, no repeats."""
    cells = [(rows // 2, cols // 2 - 1), (2, 2), (2, cols - 3), (rows - 3, 2), (rows - 3, cols - 3)]
    out: list[tuple[int, int]] = []
    for r, c in cells:
        if 0 < r < rows - 1 and 0 < c < cols - 1 and (r, c) not in out:
            out.append((r, c))
    return out


def hints_from_board(board: Board, cells: list[tuple[int, int]]) -> list[Hint]:
    """Hints that pin the board's pieces at the given cells (e.g. a planted solution)."""
    return [Hint(r, c, int(board.piece[r, c]), int(board.rot[r, c])) for r, c in cells if board.piece[r, c] >= 0]


def format_hints(hints: list[Hint]) -> str:
    lines = ["# row col piece rot  (row/col from 0, piece from 1; first line = start hint)"]
    lines += [f"{h.row} {h.col} {h.piece + 1} {h.rot}" for h in hints]
    return "\n".join(lines) + "\n"


def write_hints(path: str | Path, hints: list[Hint]) -> None:
    from ..lab.atomic import atomic_write

    atomic_write(path, format_hints(hints))


def _hint_numbers(tokens: list[str], raw: str, path, line: int) -> tuple[int, int, int, int]:
    if len(tokens) != 4:
        raise InputError(f"a hint is 'ROW COL PIECE ROT', this line has {len(tokens)} fields", path, line)
    try:
        r, c, p, rot = (int(t) for t in tokens)
    except ValueError:
        raise InputError(f"a hint is four integers 'ROW COL PIECE ROT', found {quote(raw.strip())}", path,
                         line) from None
    return r, c, p, rot


def load_hints(path: str | Path, puzzle: Puzzle | None = None) -> list[Hint]:
    """The hints of a hints file, in file order (none for a file of comments only).

    Every number is checked at its line: rotation 0..3, piece from 1, and, when the puzzle is given,
    the cell on its board, the piece among its pieces and its grey sides facing the border."""
    hints = []
    for number, raw in enumerate(read_text(path, what="hints file").splitlines(), start=1):
        tokens = raw.split("#", 1)[0].split()
        if not tokens:
            continue
        r, c, p, rot = _hint_numbers(tokens, raw, path, number)
        if p < 1:
            raise InputError(f"piece numbers start at 1, found {_num(p)}", path, number)
        if not 0 <= rot <= 3:
            raise InputError(f"rotation must be 0..3, found {_num(rot)}", path, number)
        hint = Hint(r, c, p - 1, rot)
        if puzzle is not None:
            check_hint_fits(puzzle, hint, path, number)
        hints.append((number, hint))
    cells, pieces = set(), set()
    for number, h in hints:
        if (h.row, h.col) in cells:
            raise InputError(f"two hints for cell ({h.row}, {h.col})", path, number)
        if h.piece in pieces:
            raise InputError(f"piece {h.piece + 1} is hinted twice", path, number)
        cells.add((h.row, h.col))
        pieces.add(h.piece)
    return [h for _, h in hints]


def _num(x: int) -> str:
    text = str(x)
    return text if len(text) <= 24 else quote(text)


def check_hint_fits(puzzle: Puzzle, h: Hint, path=None, line: int | None = None) -> None:
    """A hint must name a cell of the board and a piece of the puzzle, its grey sides facing the border."""
    if not (0 <= h.row < puzzle.rows and 0 <= h.col < puzzle.cols):
        raise InputError(f"hint cell ({_num(h.row)}, {_num(h.col)}) is outside the {puzzle.rows}x{puzzle.cols} board",
                         path, line)
    if not 0 <= h.piece < puzzle.n_pieces:
        raise InputError(f"hint piece {_num(h.piece + 1)} does not exist (the puzzle has {puzzle.n_pieces})", path,
                         line)
    outward = {s for s, out in enumerate((h.row == 0, h.col == puzzle.cols - 1, h.row == puzzle.rows - 1,
                                          h.col == 0)) if out}
    if {s for s in range(4) if puzzle.rotated[h.piece, h.rot, s] == 0} != outward:
        raise InputError(f"hint piece {h.piece + 1} turned {h.rot} does not fit cell ({h.row}, {h.col}): its grey "
                         "sides must face exactly the border", path, line)


def check_hints_fit(puzzle: Puzzle, hints: list[Hint], path=None) -> None:
    """Hints must name cells of the board and pieces of the puzzle."""
    for h in hints:
        check_hint_fits(puzzle, h, path)


def resolve_hints(puzzle: Puzzle, mode: str, hints_file: str | Path | None = None) -> list[Hint]:
    """The hints to enforce: none, the start hint, or all; from the file, else the official set's own."""
    if mode not in HINT_MODES:
        raise InputError(f"--hints must be one of {', '.join(HINT_MODES)}, not {quote(mode)}")
    if mode == "none":
        return []
    if hints_file is not None:
        hints = load_hints(hints_file, puzzle)
        if not hints:
            raise InputError(f"--hints {mode}: the hints file holds no hint", hints_file)
    elif is_official(puzzle):
        hints = official_hints()
    else:
        raise InputError(f"--hints {mode} needs --hints-file for this puzzle: built-in hints exist only for the "
                         "official Eternity II set (e2pieces.txt numbering)")
    return hints[:1] if mode == "start" else hints


def hint_arrays(puzzle: Puzzle, hints: list[Hint]) -> tuple[np.ndarray, np.ndarray]:
    """Hints as (R, C) piece/rot arrays (-1 where no hint), the layout kernels use."""
    piece = np.full((puzzle.rows, puzzle.cols), -1, np.int32)
    rot = np.zeros((puzzle.rows, puzzle.cols), np.int8)
    for h in hints:
        piece[h.row, h.col] = h.piece
        rot[h.row, h.col] = h.rot
    return piece, rot
