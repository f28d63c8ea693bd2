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

Every reader checks sizes (at most MAX_SIDE rows and columns), piece numbers (1..pieces of the
puzzle, when it is given) and rotations (0..3) before it allocates or stores anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..lab.errors import InputError, quote
from ..lab.textio import read_text

MAX_SIDE = 1024  # rows or columns of a board (docs/CONVENTIONS.md, stated maxima)
MAX_PIECES = MAX_SIDE * MAX_SIDE  # piece numbers a board may name when its puzzle is not known


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
    for p, r in zip(board.piece.ravel().tolist(), board.rot.ravel().tolist(), strict=True):
        cells.append(None if p < 0 else [p + 1, r])
    return {"rows": board.rows, "cols": board.cols, "cells": cells}


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _num(x) -> str:
    """A number read from a file, as a message shows it (very long ones shortened)."""
    text = str(x)
    return text if len(text) <= 24 else quote(text)


def _show_value(value) -> str:
    """A JSON value as a message quotes it (at most ~80 characters, however deeply nested)."""
    try:
        return quote(json.dumps(value))
    except (RecursionError, ValueError):
        return f"a deeply nested {type(value).__name__}"


def check_cell(piece, rot, n_pieces: int | None, where: str, path=None, line: int | None = None) -> None:
    """A placement as read from a file: piece 1..n_pieces (or MAX_PIECES), rotation 0..3."""
    if piece < 1:
        raise InputError(f"{where}: piece numbers start at 1, found {_num(piece)}", path, line)
    top = MAX_PIECES if n_pieces is None else n_pieces
    if piece > top:
        what = f"the puzzle has {n_pieces} pieces" if n_pieces is not None else f"at most {MAX_PIECES} can exist"
        raise InputError(f"{where}: piece {_num(piece)} is out of range ({what})", path, line)
    if not 0 <= rot <= 3:
        raise InputError(f"{where}: rotation {_num(rot)} is out of range (0..3 quarter turns)", path, line)


def check_size(rows, cols, path=None, line: int | None = None) -> None:
    """A board's size as read from a file: 1..MAX_SIDE rows and columns."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InputError(f"a board of {_num(rows)} rows and {_num(cols)} columns: each must be 1..{MAX_SIDE}",
                         path, line)


def board_from_json(obj, path="<json>", n_pieces: int | None = None) -> Board:
    """Parse the JSON form (or a search result holding it under "board")."""
    if isinstance(obj, dict) and "cells" not in obj and isinstance(obj.get("board"), dict):
        obj = obj["board"]
    if not isinstance(obj, dict) or not {"rows", "cols", "cells"} <= set(obj):
        raise InputError('a board is an object with "rows", "cols" and "cells"', path, None)
    rows, cols, cells = obj["rows"], obj["cols"], obj["cells"]
    if not (_is_int(rows) and _is_int(cols)):
        raise InputError('"rows" and "cols" must be positive integers', path, None)
    check_size(rows, cols, path)
    if not isinstance(cells, list) or len(cells) != rows * cols:
        got = len(cells) if isinstance(cells, list) else type(cells).__name__
        raise InputError(f'"cells" must list {rows * cols} cells (rows x cols), found {got}', path, None)
    board = empty_board(rows, cols)
    for i, cell in enumerate(cells):
        if cell is None:
            continue
        where = f"cell {i} (row {i // cols}, col {i % cols})"
        if not (isinstance(cell, list) and len(cell) == 2 and all(_is_int(x) for x in cell)):
            raise InputError(f"{where}: expected [piece, rot] or null, found {_show_value(cell)}", path, None)
        p, r = cell
        check_cell(p, r, n_pieces, where, path)
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


def _cell_token(tok: str, c: int, n_pieces: int | None, path, line: int) -> tuple[int, int] | None:
    """(piece, rot) of a `piece/rot` token (1-based piece), None for an empty cell."""
    if tok in (".", "-"):
        return None
    parts = tok.split("/")
    try:
        if len(parts) != 2:
            raise ValueError
        p, rot = int(parts[0]), int(parts[1])
    except ValueError:
        raise InputError(f"cell {c + 1}: expected piece/rot, found {quote(tok)}", path, line) from None
    check_cell(p, rot, n_pieces, f"cell {c + 1}", path, line)
    return p, rot


def _board_of_block(block: list[tuple[int, list[str]]], n_pieces: int | None, path) -> Board:
    """One board from its rows of tokens (line number, tokens)."""
    cols = len(block[0][1])
    check_size(len(block), cols, path, block[0][0])
    b = empty_board(len(block), cols)
    for r, (number, tokens) in enumerate(block):
        if len(tokens) != cols:
            raise InputError(f"row has {len(tokens)} cells, the first row of this board has {cols}", path, number)
        for c, tok in enumerate(tokens):
            cell = _cell_token(tok, c, n_pieces, path, number)
            if cell is not None:
                b.piece[r, c] = cell[0] - 1
                b.rot[r, c] = cell[1]
    return b


def parse_board_text(text: str, path="<text>", n_pieces: int | None = None) -> list[Board]:
    """Every board in a text layout file, in file order (names from BOARD headers, else board1...)."""
    boards: list[Board] = []
    block: list[tuple[int, list[str]]] = []
    header: tuple[str, dict] | None = None

    def flush():
        nonlocal block, header
        if not block:
            if header is not None:
                raise InputError(f"board {quote(header[0])} has no rows", path, None)
            return
        b = _board_of_block(block, n_pieces, path)
        b.name, b.meta = header if header is not None else (f"board{len(boards) + 1}", {})
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
        if len(block) >= MAX_SIDE:
            raise InputError(f"a board has at most {MAX_SIDE} rows", path, number)
        block.append((number, tokens))
    flush()
    if not boards:
        raise InputError("no board found", path, None)
    return boards


def _solution_numbers(tokens: list[str], path, line: int) -> list[int]:
    try:
        return [int(t) for t in tokens]
    except ValueError:
        raise InputError(f"a Brendan solution holds integers only, found {quote(' '.join(tokens))}", path,
                         line) from None


def parse_brendan_solution(text: str, path="<text>", n_pieces: int | None = None) -> Board:
    """Brendan's solution layout: 'W H', then 'x y rot' per piece (y counted from the bottom row)."""
    lines = [(n, raw.split("#", 1)[0].split()) for n, raw in enumerate(text.splitlines(), start=1)]
    lines = [(n, t) for n, t in lines if t]
    if not lines:
        raise InputError("empty solution file", path, 1)
    n0, head = lines[0]
    if len(head) != 2:
        raise InputError(f"expected the header 'W H', found {len(head)} fields", path, n0)
    cols, rows = _solution_numbers(head, path, n0)
    check_size(rows, cols, path, n0)
    if len(lines) - 1 > rows * cols:
        raise InputError(f"more pieces listed than the {rows * cols} cells of a {cols}x{rows} board", path,
                         lines[rows * cols + 1][0])
    board = empty_board(rows, cols)
    for i, (n, t) in enumerate(lines[1:]):
        if len(t) != 3:
            raise InputError(f"expected 'x y rot', found {len(t)} fields", path, n)
        if n_pieces is not None and i >= n_pieces:
            raise InputError(f"this line places piece {i + 1}, the puzzle has {n_pieces} pieces", path, n)
        x, y, rot = _solution_numbers(t, path, n)
        if not (0 <= x < cols and 0 <= y < rows):
            raise InputError(f"position ({_num(x)}, {_num(y)}) is outside the {cols}x{rows} board", path, n)
        if not 0 <= rot <= 3:
            raise InputError(f"rotation {_num(rot)} is out of range (0..3 quarter turns)", path, n)
        r = rows - 1 - y
        if board.piece[r, x] >= 0:
            raise InputError(f"position ({x}, {y}) is used twice", path, n)
        board.piece[r, x] = i
        board.rot[r, x] = rot
    return board


# --- files ------------------------------------------------------------------------------------

def _load_json(text: str, path) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON: {err.msg}", path, err.lineno) from None
    except (ValueError, RecursionError) as err:  # numbers of more than 4300 digits, nesting too deep
        raise InputError(f"invalid JSON: {quote(str(err))}", path, None) from None


def load_boards(path: str | Path, n_pieces: int | None = None) -> list[Board]:
    """All boards in a file: JSON (one board, or a search result), the text layout (one or more), or a
    Brendan solution file. `n_pieces`: the puzzle's piece count, to check piece numbers against."""
    p = Path(path)
    text = read_text(path, what="board file")
    stripped = text.lstrip()
    if stripped.startswith("{"):
        board = board_from_json(_load_json(text, path), str(path), n_pieces)
        board.name = p.stem
        return [board]
    first = next((line.split("#", 1)[0].split() for line in text.splitlines() if line.split("#", 1)[0].strip()), [])
    if len(first) == 2 and all(t.isdigit() for t in first):
        board = parse_brendan_solution(text, str(path), n_pieces)
        board.name = p.stem
        return [board]
    return parse_board_text(text, str(path), n_pieces)


def load_board(path: str | Path, name: str | None = None, n_pieces: int | None = None) -> Board:
    """One board from a file; `name` picks a board of a multi-board text file (default: the first)."""
    boards = load_boards(path, n_pieces)
    if name is None:
        return boards[0]
    for b in boards:
        if b.name == name:
            return b
    found = quote(", ".join(b.name for b in boards))
    raise InputError(f"no board named {quote(name)} (found: {found})", path, None)


def save_board(path: str | Path, board: Board) -> None:
    """Write a board atomically: canonical JSON, or the text layout when the name ends in .txt."""
    from ..lab import canonical
    from ..lab.atomic import atomic_write

    if str(path).endswith(".txt"):
        atomic_write(path, format_board_text(board, board.name or None))
    else:
        canonical.write_json(path, board_to_json(board))
