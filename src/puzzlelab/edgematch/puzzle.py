"""Edge-matching puzzles (Eternity II and friends): the piece set, its two text formats, rotations.

Internal conventions (stable; the meet-in-the-middle solver builds on them):

- sides are indexed UP=0, RIGHT=1, DOWN=2, LEFT=3 (clockwise from the top);
- `Puzzle.edges[p]` is piece p (0-based) *as written in its file*, in that internal order;
- colour 0 is the grey border;
- `rot` = number of clockwise quarter turns applied to the piece as written, so that
  `Puzzle.rotated[p, rot, side] == edges[p, (side - rot) % 4]`.

Formats (auto-detected, or forced with `fmt`):

- ``e2pieces``: one piece per line, ``bottom left top right`` (Wortmann's e2pieces.txt), no header;
  the board size is inferred from the border pieces (square when the count is a square).
- ``brendan``: first line ``W H`` (columns, rows), then one piece per line ``up right down left``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..lab.errors import InputError, quote
from ..lab.textio import read_text

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
SIDE_NAMES = ("up", "right", "down", "left")
FORMATS = ("e2pieces", "brendan")
MAX_COLOR = 255  # kernels keep colours in one byte
MAX_PIECES = 4096  # pieces of a puzzle (the searches keep 4 * piece + rotation in 16 bits)

# File order -> internal order (up, right, down, left).
_E2PIECES_TO_INTERNAL = (2, 3, 0, 1)  # file is bottom, left, top, right


def rotate_sides(sides, rot: int) -> tuple[int, ...]:
    """The (up, right, down, left) colours of a piece turned `rot` quarter turns clockwise."""
    return tuple(int(sides[(s - rot) % 4]) for s in range(4))


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A rows x cols edge-matching puzzle: `edges` (n, 4) int32 in up/right/down/left order, as written."""

    rows: int
    cols: int
    edges: np.ndarray
    name: str = ""
    fmt: str = "brendan"
    rotated: np.ndarray = field(init=False, repr=False)
    kind: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        edges = np.ascontiguousarray(self.edges, dtype=np.int32)
        if edges.ndim != 2 or edges.shape[1] != 4:
            raise ValueError("edges must have shape (n_pieces, 4)")
        object.__setattr__(self, "edges", edges)
        idx = (np.arange(4)[None, :] - np.arange(4)[:, None]) % 4  # idx[rot, side] = (side - rot) % 4
        object.__setattr__(self, "rotated", np.ascontiguousarray(edges[:, idx]))
        object.__setattr__(self, "kind", (edges == 0).sum(axis=1).astype(np.int8))

    @property
    def n_pieces(self) -> int:
        return int(self.edges.shape[0])

    @property
    def n_cells(self) -> int:
        return self.rows * self.cols

    @property
    def n_colors(self) -> int:
        """Number of colour values used, grey included (colours are 0..n_colors-1)."""
        return int(self.edges.max()) + 1 if self.edges.size else 1

    @property
    def max_score(self) -> int:
        """Number of inner edges: 480 on 16x16."""
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    def sides(self, piece: int, rot: int) -> tuple[int, int, int, int]:
        """Colours (up, right, down, left) of 0-based `piece` turned `rot` quarter turns clockwise."""
        return tuple(int(x) for x in self.rotated[piece, rot % 4])  # type: ignore[return-value]


def _ints(tokens: list[str], path, line: int) -> list[int]:
    out = []
    for tok in tokens:
        try:
            value = int(tok)
        except ValueError:
            raise InputError(f"expected integers, found {quote(tok)}", path, line) from None
        if value < 0 or value > MAX_COLOR:
            raise InputError(f"colour {value} is out of range 0..{MAX_COLOR}", path, line)
        out.append(value)
    return out


def _content_lines(text: str) -> list[tuple[int, list[str]]]:
    """(line number, tokens) of non-blank lines; '#' starts a comment."""
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split("#", 1)[0].split()
        if tokens:
            rows.append((number, tokens))
    return rows


def detect_format(text: str, path="<text>") -> str:
    """'brendan' when the first line holds two numbers (W H), 'e2pieces' when it holds four."""
    lines = _content_lines(text)
    if not lines:
        raise InputError("empty puzzle file", path, 1)
    number, tokens = lines[0]
    if len(tokens) == 2:
        return "brendan"
    if len(tokens) == 4:
        return "e2pieces"
    raise InputError(f"cannot tell the format: the first line has {len(tokens)} fields "
                     "(expected 'W H' for Brendan's format or 4 colours for e2pieces)", path, number)


def _infer_size(kinds: np.ndarray, path) -> tuple[int, int]:
    """Board size of a header-less file from its piece counts: square if possible, else from the border."""
    n = len(kinds)
    side = math.isqrt(n)
    n_edge = int((kinds == 1).sum())
    if side * side == n and n_edge == max(0, 4 * (side - 2)):
        return side, side
    total = n_edge // 2 + 4  # rows + cols, from 2(rows-2) + 2(cols-2) edge pieces
    disc = total * total - 4 * n
    if n_edge % 2 == 0 and disc >= 0 and math.isqrt(disc) ** 2 == disc:
        r = (total - math.isqrt(disc)) // 2
        c = total - r
        if r >= 2 and r * c == n:
            return r, c
    raise InputError(f"cannot infer the board size from {n} pieces with {n_edge} edge pieces", path, None)


def _check_pieces(edges: np.ndarray, rows: int, cols: int, lines: list[int], path) -> None:
    """Border sanity: grey sides adjacent on corners, as many corners and edge pieces as the board has."""
    kinds = (edges == 0).sum(axis=1)
    for i, e in enumerate(edges):
        g = [s for s in range(4) if e[s] == 0]
        if len(g) > 2 or (len(g) == 2 and (g[1] - g[0]) % 2 == 0):
            raise InputError(f"piece {i + 1} has grey sides {', '.join(SIDE_NAMES[s] for s in g)}: "
                             "a piece can have one grey side (edge) or two adjacent ones (corner)", path, lines[i])
    if rows >= 2 and cols >= 2:
        want_corners, want_edges = 4, 2 * (rows - 2) + 2 * (cols - 2)
        got_corners, got_edges = int((kinds == 2).sum()), int((kinds == 1).sum())
        if (got_corners, got_edges) != (want_corners, want_edges):
            raise InputError(f"a {rows}x{cols} board needs {want_corners} corner and {want_edges} edge pieces; "
                             f"this file has {got_corners} and {got_edges}", path, None)


def parse_puzzle(text: str, path="<text>", fmt: str | None = None) -> Puzzle:
    """Read a puzzle from text in either format (auto-detected unless `fmt` is given)."""
    fmt = fmt or detect_format(text, path)
    if fmt not in FORMATS:
        raise InputError(f"unknown puzzle format {quote(fmt)} (expected one of {', '.join(FORMATS)})")
    lines = _content_lines(text)
    if not lines:
        raise InputError("empty puzzle file", path, 1)
    if fmt == "brendan":
        number, tokens = lines[0]
        if len(tokens) != 2:
            raise InputError(f"expected the header 'W H', found {len(tokens)} fields", path, number)
        try:
            cols, rows = (int(t) for t in tokens)
        except ValueError:
            raise InputError(f"expected the header 'W H' with two integers, found {quote(' '.join(tokens))}", path,
                             number) from None
        if rows < 1 or cols < 1 or rows * cols > MAX_PIECES:
            raise InputError(f"board size {cols}x{rows} is out of range", path, number)
        body = lines[1:]
        order = (0, 1, 2, 3)
    else:
        body = lines
        rows = cols = 0
        order = _E2PIECES_TO_INTERNAL
    if len(body) > MAX_PIECES:
        raise InputError(f"more than {MAX_PIECES} pieces", path, body[MAX_PIECES][0])
    edges = np.zeros((len(body), 4), dtype=np.int32)
    for i, (number, tokens) in enumerate(body):
        if len(tokens) != 4:
            raise InputError(f"a piece has 4 colours, this line has {len(tokens)} fields", path, number)
        values = _ints(tokens, path, number)
        edges[i] = [values[k] for k in order]
    numbers = [number for number, _ in body]
    if fmt == "brendan" and len(body) != rows * cols:
        where = body[rows * cols][0] if len(body) > rows * cols else (body[-1][0] + 1 if body else lines[0][0] + 1)
        raise InputError(f"a {cols}x{rows} puzzle needs {rows * cols} pieces, the file has {len(body)}", path, where)
    if fmt == "e2pieces":
        rows, cols = _infer_size((edges == 0).sum(axis=1), path)
    _check_pieces(edges, rows, cols, numbers, path)
    return Puzzle(rows=rows, cols=cols, edges=edges, name=_stated_name(text) or Path(str(path)).stem, fmt=fmt)


NAME_LINE = "# puzzle: "  # first line of a canonical instance (`edgematch parse --puzzle-out`): the puzzle's name


def _stated_name(text: str) -> str:
    """The name a canonical instance states on its first line (a comment to every reader), else ""."""
    first = text.split("\n", 1)[0].rstrip("\r")
    return first[len(NAME_LINE):].strip() if first.startswith(NAME_LINE) else ""


def load_puzzle(path: str | Path, fmt: str | None = None) -> Puzzle:
    """Load a puzzle file (e2pieces or Brendan's format, auto-detected unless `fmt` is given)."""
    return parse_puzzle(read_text(path, what="puzzle file"), str(path), fmt)


def format_brendan(puzzle: Puzzle) -> str:
    """Brendan Owen's text format: 'W H', then 'up right down left' per piece."""
    lines = [f"{puzzle.cols} {puzzle.rows}"]
    lines += [" ".join(str(int(x)) for x in e) for e in puzzle.edges]
    return "\n".join(lines) + "\n"


def format_e2pieces(puzzle: Puzzle) -> str:
    """Wortmann's e2pieces format: 'bottom left top right' per piece, no header."""
    back = [2, 3, 0, 1]  # file column k holds internal side back[k]
    return "".join(" ".join(str(int(e[k])) for k in back) + "\n" for e in puzzle.edges)


def write_puzzle(path: str | Path, puzzle: Puzzle, fmt: str = "brendan", named: bool = False) -> None:
    """Write a puzzle atomically in the given format; `named`: first a line stating its name, so that a
    canonical instance reads back as the puzzle it was made from, name included."""
    from ..lab.atomic import atomic_write

    text = format_brendan(puzzle) if fmt == "brendan" else format_e2pieces(puzzle)
    atomic_write(path, (f"{NAME_LINE}{puzzle.name}\n" if named else "") + text)
