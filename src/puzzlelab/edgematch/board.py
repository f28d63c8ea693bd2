"""Boards: which piece sits where, turned how; JSON and the record-board text layout.

In memory a board is two numpy arrays, `piece` (R, C) int32 with 0-based piece indices (-1 = empty)
and `rot` (R, C) int8 (clockwise quarter turns applied to the piece as written).

JSON (the format every command writes)::

    {"rows": R, "cols": C, "cells": [[piece, rot], ..., null, ...]}

`cells` is row-major from the top-left, `piece` is 1-based (line number of the piece in its
puzzle file, a header line not counted), `null` marks an empty cell. A search result (an object
with a "board" key) is accepted wherever a board is read.

Text layout (as `record_boards.txt`): optional header ``BOARD name key=value ...``, then one line per
row of ``piece/rot`` tokens (1-based pieces), ``.`` for an empty cell; boards are separated by
blank lines or headers, ``#`` starts a comment.

Brendan Owen's solution files are read too: ``W H``, then line i = ``x y rot`` for piece i, with x the
column from the left and y the row from the BOTTOM (both from 0).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..lab.errors import InputError


@dataclass(eq=False)
class Board:
    """A placement: `piece` (R, C) int32, 0-based, -1 = empty; `rot` (R, C) int8 quarter turns clockwise."""

    piece: np.ndarray
    rot: np.ndarray
    name: str = ""
    meta: dict = field(default_factory=dict)

    def __post_init__(self):
        self.piece = np.ascontiguousarray(self.piece, dtype=np.int32)
        self.rot = np.ascontiguousarray(self.rot, dtype=np.int8)
        if self.piece.shape != self.rot.shape or self.piece.ndim != 2:
            raise ValueError("piece and rot must be 2-D arrays of the same shape")

    @property
    def rows(self) -> int:
        return int(self.piece.shape[0])

    @property
    def cols(self) -> int:
        return int(self.piece.shape[1])

    @property
    def filled(self) -> int:
        return int((self.piece >= 0).sum())

    def copy(self) -> Board:
        return Board(self.piece.copy(), self.rot.copy(), self.name, dict(self.meta))

    def same_placement(self, other: Board) -> bool:
        return bool(np.array_equal(self.piece, other.piece) and np.array_equal(self.rot, other.rot))


def empty_board(rows: int, cols: int) -> Board:
    return Board(np.full((rows, cols), -1, np.int32), np.zeros((rows, cols), np.int8))


# --- JSON -------------------------------------------------------------------------------------

def board_to_json(board: Board) -> dict:
    """The JSON form: 1-based pieces, null for empty cells, row-major from the top-left."""
    cells = []
    for p, r in zip(board.piece.ravel().tolist(), board.rot.ravel().tolist(), strict=False):
        cells.append(None if p < 0 else [p + 1, r])
    return {"rows": board.rows, "cols": board.cols, "cells": cells}


def board_from_json(obj, path="<json>") -> Board:
    """Parse the JSON form (or a search result holding it under "board")."""
    if isinstance(obj, dict) and "cells" not in obj and isinstance(obj.get("board"), dict):
        obj = obj["board"]
    if not isinstance(obj, dict) or not {"rows", "cols", "cells"} <= set(obj):
        raise InputError('a board is an object with "rows", "cols" and "cells"', path, None)
    rows, cols, cells = obj["rows"], obj["cols"], obj["cells"]
    if not (isinstance(rows, int) and isinstance(cols, int)) or rows < 1 or cols < 1:
        raise InputError('"rows" and "cols" must be positive integers', path, None)
    if not isinstance(cells, list) or len(cells) != rows * cols:
        got = len(cells) if isinstance(cells, list) else type(cells).__name__
        raise InputError(f'"cells" must list {rows * cols} cells (rows x cols), found {got}', path, None)
    board = empty_board(rows, cols)
    for i, cell in enumerate(cells):
        if cell is None:
            continue
        ok = (isinstance(cell, list) and len(cell) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                 for x in cell))
        if not ok:
            raise InputError(f"cell {i} (row {i // cols}, col {i % cols}): expected [piece, rot] or null, "
                             f"found {json.dumps(cell)}", path, None)
        p, r = cell
        if p < 1:
            raise InputError(f"cell {i} (row {i // cols}, col {i % cols}): piece numbers start at 1, found {p}",
                             path, None)
        if not -128 <= r <= 127:
            raise InputError(f"cell {i} (row {i // cols}, col {i % cols}): rotation {r} is out of range", path, None)
        board.piece.flat[i] = p - 1
        board.rot.flat[i] = r
    return board


# --- text layout ------------------------------------------------------------------------------

def format_board_text(board: Board, name: str | None = None, **attrs) -> str:
    """The record-board layout: an optional BOARD header, then rows of piece/rot (1-based)."""
    lines = []
    if name is not None:
        extra = "".join(f" {k}={v}" for k, v in attrs.items())
        lines.append(f"BOARD {name}{extra}")
    for r in range(board.rows):
        lines.append(" ".join("." if board.piece[r, c] < 0 else f"{board.piece[r, c] + 1}/{board.rot[r, c]}"
                              for c in range(board.cols)))
    return "\n".join(lines) + "\n"


def parse_board_text(text: str, path="<text>") -> list[Board]:
    """Every board in a text layout file, in file order (names from BOARD headers, else board1...)."""
    boards: list[Board] = []
    block: list[tuple[int, list[str]]] = []
    header: tuple[str, dict] | None = None

    def flush():
        nonlocal block, header
        if not block:
            if header is not None:
                raise InputError(f"board {header[0]!r} has no rows", path, None)
            return
        cols = len(block[0][1])
        b = empty_board(len(block), cols)
        for r, (number, tokens) in enumerate(block):
            if len(tokens) != cols:
                raise InputError(f"row has {len(tokens)} cells, the first row of this board has {cols}", path, number)
            for c, tok in enumerate(tokens):
                if tok in (".", "-"):
                    continue
                parts = tok.split("/")
                try:
                    p, rot = int(parts[0]), int(parts[1])
                    if len(parts) != 2:
                        raise ValueError
                except (ValueError, IndexError):
                    raise InputError(f"cell {c + 1}: expected piece/rot, found {tok!r}", path, number) from None
                if p < 1:
                    raise InputError(f"cell {c + 1}: piece numbers start at 1, found {p}", path, number)
                if not -128 <= rot <= 127:
                    raise InputError(f"cell {c + 1}: rotation {rot} is out of range", path, number)
                b.piece[r, c] = p - 1
                b.rot[r, c] = rot
        name, meta = header if header is not None else (f"board{len(boards) + 1}", {})
        b.name, b.meta = name, meta
        boards.append(b)
        block, header = [], None

    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split("#", 1)[0].split()
        if not tokens:
            flush()
            continue
        if tokens[0] == "BOARD":
            flush()
            if len(tokens) < 2:
                raise InputError("BOARD header without a name", path, number)
            meta = {}
            for t in tokens[2:]:
                k, _, v = t.partition("=")
                meta[k] = v
            header = (tokens[1], meta)
            continue
        block.append((number, tokens))
    flush()
    if not boards:
        raise InputError("no board found", path, None)
    return boards


def parse_brendan_solution(text: str, path="<text>") -> Board:
    """Brendan's solution layout: 'W H', then 'x y rot' per piece (y counted from the bottom row)."""
    lines = [(n, raw.split("#", 1)[0].split()) for n, raw in enumerate(text.splitlines(), start=1)]
    lines = [(n, t) for n, t in lines if t]
    try:
        cols, rows = (int(t) for t in lines[0][1])
        numbers = [(n, [int(x) for x in t]) for n, t in lines[1:]]
    except ValueError:
        raise InputError("a Brendan solution holds integers only", path, None) from None
    board = empty_board(rows, cols)
    for i, (n, t) in enumerate(numbers):
        if len(t) != 3:
            raise InputError(f"expected 'x y rot', found {len(t)} fields", path, n)
        x, y, rot = t
        if not (0 <= x < cols and 0 <= y < rows):
            raise InputError(f"position ({x}, {y}) is outside the {cols}x{rows} board", path, n)
        r = rows - 1 - y
        if board.piece[r, x] >= 0:
            raise InputError(f"position ({x}, {y}) is used twice", path, n)
        board.piece[r, x] = i
        board.rot[r, x] = rot
    return board


# --- files ------------------------------------------------------------------------------------

def load_boards(path: str | Path) -> list[Board]:
    """All boards in a file: JSON (one board, or a search result), the text layout (one or more), or a
    Brendan solution file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError("not a text file", path, None) from None
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"invalid JSON: {err.msg}", path, err.lineno) from None
        board = board_from_json(obj, str(path))
        board.name = p.stem
        return [board]
    first = next((line.split("#", 1)[0].split() for line in text.splitlines() if line.split("#", 1)[0].strip()), [])
    if len(first) == 2 and all(t.isdigit() for t in first):
        board = parse_brendan_solution(text, str(path))
        board.name = p.stem
        return [board]
    return parse_board_text(text, str(path))


def load_board(path: str | Path, name: str | None = None) -> Board:
    """One board from a file; `name` picks a board of a multi-board text file (default: the first)."""
    boards = load_boards(path)
    if name is None:
        return boards[0]
    for b in boards:
        if b.name == name:
            return b
    raise InputError(f"no board named {name!r} (found: {', '.join(b.name for b in boards)})", path, None)


def save_board(path: str | Path, board: Board) -> None:
    """Write a board atomically: canonical JSON, or the text layout when the name ends in .txt."""
    from ..lab import canonical
    from ..lab.atomic import atomic_write

    if str(path).endswith(".txt"):
        atomic_write(path, format_board_text(board, board.name or None))
    else:
        canonical.write_json(path, board_to_json(board))
