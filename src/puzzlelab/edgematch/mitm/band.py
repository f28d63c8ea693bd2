"""The band problem: which cells are free, which pieces they may use, and the two halves to enumerate.

A band is the rectangle of rows R0..R1-1 (and columns C0..C1-1, the full width by default) of a
board whose other cells are fixed. The pieces available to the band are those not used outside it;
hinted cells inside the band keep their hint. The band is cut into an upper half (the top rows,
seen as they are) and a lower half (the bottom rows, seen turned 180 degrees), so both halves are
filled from their fixed outer side towards the middle seam by the same kernel, and the lower
half's seam row, read right to left, lines up with the upper half's.

Costs: an edge between two band cells, or between a band cell and a fixed cell, costs 1 when the
colours differ or are grey (colour 0 never matches inside the board). A side on the board's border
must be grey (a hard rule, as for every legal placement).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ...lab.errors import InputError, quote
from ..board import Board
from ..hints import Hint
from ..puzzle import Puzzle

# half-frame side -> board side, and the board step towards that side
_STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left

_RANGE = re.compile(r"^\s*(-?\d*)\s*:\s*(-?\d*)\s*$")


def parse_range(text: str, size: int, what: str) -> tuple[int, int]:
    """'A:B' as a Python slice of 0..size-1 (half-open; negative counts from the end; ends may be omitted).

    Unlike a Python slice, an empty or out-of-range selection is an error, not silently clipped.
    """
    m = _RANGE.match(str(text))
    if not m:
        raise InputError(f"{what} {quote(text)}: expected START:STOP (0-based, STOP excluded), e.g. 8:10 or -2:")
    if m.group(1) == "-" or m.group(2) == "-":
        raise InputError(f"{what} {quote(text)}: expected START:STOP with integers")
    try:
        a = int(m.group(1)) if m.group(1) else 0
        b = int(m.group(2)) if m.group(2) else size
    except ValueError:
        raise InputError(f"{what} {quote(text)}: expected START:STOP with integers") from None
    a0 = a + size if a < 0 else a
    b0 = b + size if b < 0 else b
    if not 0 <= a0 < size or not 0 < b0 <= size:
        raise InputError(f"{what} {quote(text)} is outside 0:{size} (the board has {size} {what.split()[0]}s)")
    if b0 <= a0:
        raise InputError(f"{what} {quote(text)} is empty: STOP must be greater than START (STOP is excluded)")
    return a0, b0


@dataclass(frozen=True)
class Band:
    """Rows r0..r1-1 and columns c0..c1-1 of the board (0-based, ends excluded)."""

    r0: int
    r1: int
    c0: int
    c1: int

    @property
    def rows(self) -> int:
        return self.r1 - self.r0

    @property
    def width(self) -> int:
        return self.c1 - self.c0

    def contains(self, r: int, c: int) -> bool:
        return self.r0 <= r < self.r1 and self.c0 <= c < self.c1

    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.r0, self.r1) for c in range(self.c0, self.c1)]

    def as_json(self) -> dict:
        return {"rows": [self.r0, self.r1], "cols": [self.c0, self.c1]}


def parse_band(rows_text: str, cols_text: str | None, puzzle: Puzzle) -> Band:
    r0, r1 = parse_range(rows_text, puzzle.rows, "row band")
    c0, c1 = (0, puzzle.cols) if cols_text is None else parse_range(cols_text, puzzle.cols, "column range")
    return Band(r0, r1, c0, c1)


@dataclass
class Half:
    """One half, as the kernel sees it: `rows` x `width` cells, cell t = column * rows + row.

    Candidates of cell t are cand_*[cand_ptr[t]:cand_ptr[t+1]]: colours (compacted) of the piece as
    seen in the half's frame, its bit in the band's piece set, its static cost (mismatches with fixed
    neighbours), and the board rotation that realises it.
    """

    rows: int
    width: int
    turned: bool  # seen turned 180 degrees (the lower half)
    seam: bool  # the half's bottom side is the middle seam (else it is fixed and costed in `static`)
    board_cells: list  # (r, c) on the board of each cell t
    cand_ptr: np.ndarray
    cand_bit: np.ndarray
    cand_u: np.ndarray
    cand_r: np.ndarray
    cand_d: np.ndarray
    cand_l: np.ndarray
    static: np.ndarray
    cand_piece: np.ndarray
    cand_rot: np.ndarray

    @property
    def n(self) -> int:
        return self.rows * self.width


@dataclass
class BandProblem:
    puzzle: Puzzle
    board: Board  # input board, rotations normalised to 0..3
    band: Band
    pieces: np.ndarray  # pieces available to the band (0-based, ascending); bit k = pieces[k]
    hints: list  # hints inside the band
    ncol: int  # compacted colours (0 = grey)
    upper: Half
    lower: Half | None
    incumbent: Board | None  # the input board when its band is complete

    @property
    def words(self) -> int:
        return max(1, (len(self.pieces) + 63) // 64)


def _validate(puzzle: Puzzle, board: Board, band: Band, hints: list[Hint], board_path) -> None:
    if (board.rows, board.cols) != (puzzle.rows, puzzle.cols):
        raise InputError(f"the board is {board.rows}x{board.cols} but the puzzle is {puzzle.rows}x{puzzle.cols}",
                         board_path, None)
    n = puzzle.n_pieces
    seen: dict[int, tuple[int, int]] = {}
    for r in range(board.rows):
        for c in range(board.cols):
            p = int(board.piece[r, c])
            if p >= n:
                raise InputError(f"cell ({r}, {c}) holds piece {p + 1}, but the puzzle has {n} pieces", board_path,
                                 None)
            if p < 0:
                if not band.contains(r, c):
                    raise InputError(f"cell ({r}, {c}) is empty but lies outside the band rows {band.r0}:{band.r1}"
                                     f" cols {band.c0}:{band.c1}: every cell outside the band must be fixed",
                                     board_path, None)
                continue
            if p in seen:
                r2, c2 = seen[p]
                raise InputError(f"piece {p + 1} is used twice: at ({r2}, {c2}) and at ({r}, {c})", board_path, None)
            seen[p] = (r, c)
    for h in hints:
        if not band.contains(h.row, h.col):
            continue
        where = seen.get(h.piece)
        if where is not None and not band.contains(*where):
            raise InputError(f"hint piece {h.piece + 1} belongs at ({h.row}, {h.col}) inside the band but the board "
                             f"uses it at {where}, outside the band", board_path, None)


def _neighbour(puzzle: Puzzle, board: Board, band: Band, r: int, c: int, side: int):
    """('border'|'fixed'|'band', colour facing (r, c)) for the board side `side` of cell (r, c)."""
    dr, dc = _STEP[side]
    rr, cc = r + dr, c + dc
    if not (0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols):
        return "border", 0
    if band.contains(rr, cc):
        return "band", -1
    p = int(board.piece[rr, cc])
    return "fixed", int(puzzle.rotated[p, int(board.rot[rr, cc]) % 4, (side + 2) % 4])


def _mis(a: int, b: int) -> int:
    return 0 if (a == b and a != 0) else 1


def _build_half(puzzle: Puzzle, board: Board, band: Band, top: int, rows: int, turned: bool, seam: bool,
                bit_of: dict, hint_at: dict, cmap: np.ndarray) -> Half:
    """Candidates of every cell of one half (`top` = its first board row, `turned` = seen turned 180)."""
    width = band.width
    hinted = {p for p, _ in hint_at.values()}
    free_pieces = [p for p in bit_of if p not in hinted]
    cells = []
    ptr = [0]
    bits, us, rs, ds, ls, static, pcs, rts = [], [], [], [], [], [], [], []
    for j in range(width):
        for i in range(rows):
            if turned:
                r, c = top + rows - 1 - i, band.c1 - 1 - j
            else:
                r, c = top + i, band.c0 + j
            cells.append((r, c))
            env = []  # per half side: None (a band cell) or (kind, colour facing this cell)
            for s in range(4):
                kind, colour = _neighbour(puzzle, board, band, r, c, (s + 2) % 4 if turned else s)
                env.append(None if kind == "band" else (kind, colour))
            if (r, c) in hint_at:
                p, rho = hint_at[(r, c)]
                options = [(p, rho)]
            else:
                options = [(p, rho) for p in free_pieces for rho in range(4)]
            seen_sides: set = set()
            for p, rho in options:
                sides = tuple(int(x) for x in puzzle.rotated[p, (rho + 2) % 4 if turned else rho])
                if (p, sides) in seen_sides:
                    continue  # a symmetric piece: the same colours give the same filling
                seen_sides.add((p, sides))
                cost = 0
                legal = True
                for s in range(4):
                    if env[s] is None:
                        continue
                    kind, colour = env[s]
                    if kind == "border":
                        legal = legal and sides[s] == 0
                    else:
                        cost += _mis(sides[s], colour)
                if not legal:
                    if (r, c) not in hint_at:
                        continue
                    cost = 255  # a hint that cannot face the border: the band has no legal filling
                bits.append(bit_of[p])
                us.append(cmap[sides[0]])
                rs.append(cmap[sides[1]])
                ds.append(cmap[sides[2]])
                ls.append(cmap[sides[3]])
                static.append(min(cost, 255))
                pcs.append(p)
                rts.append(rho)
            ptr.append(len(bits))
    return Half(
        rows=rows, width=width, turned=turned, seam=seam, board_cells=cells,
        cand_ptr=np.array(ptr, np.int64), cand_bit=np.array(bits, np.int64),
        cand_u=np.array(us, np.int64), cand_r=np.array(rs, np.int64), cand_d=np.array(ds, np.int64),
        cand_l=np.array(ls, np.int64), static=np.array(static, np.uint8),
        cand_piece=np.array(pcs, np.int64), cand_rot=np.array(rts, np.int64),
    )


def _colour_map(puzzle: Puzzle, pieces: np.ndarray) -> tuple[list[int], np.ndarray]:
    """Colour compaction: grey stays 0, the band pieces' other colours become 1..k (in increasing order);
    a colour no band piece shows maps to 0 too (it can match nothing in the band)."""
    colours = sorted({int(x) for x in puzzle.edges[pieces].ravel()} | {0})
    cmap = np.zeros(max(int(puzzle.edges.max()) + 1, 1), np.int64)
    for k, col in enumerate(colours):
        cmap[col] = k
    return colours, cmap


def whole(problem: BandProblem) -> tuple[Half, list[list[tuple[int, int]]]]:
    """The whole band as one half seen as it is (cell t = column * rows + row), with, per cell, the
    (board side, compacted colour) of each fixed neighbour: what the SAT back-end (`sat.py`) encodes."""
    puzzle, board, band = problem.puzzle, problem.board, problem.band
    bit_of = {int(p): k for k, p in enumerate(problem.pieces)}
    hint_at = {(h.row, h.col): (h.piece, h.rot % 4) for h in problem.hints}
    _, cmap = _colour_map(puzzle, problem.pieces)
    half = _build_half(puzzle, board, band, band.r0, band.rows, False, False, bit_of, hint_at, cmap)
    fixed = []
    for r, c in half.board_cells:
        sides = []
        for s in range(4):
            kind, colour = _neighbour(puzzle, board, band, r, c, s)
            if kind == "fixed":
                sides.append((s, int(cmap[colour])))
        fixed.append(sides)
    return half, fixed


def build(puzzle: Puzzle, board: Board, band: Band, hints: list[Hint] = (), split: int | None = None,
          board_path=None) -> BandProblem:
    """Check the inputs and set up the two halves (`split` = rows of the upper half, default rows // 2)."""
    board = Board(board.piece.copy(), (board.rot.astype(np.int64) % 4).astype(np.int8), board.name, dict(board.meta))
    hints = list(hints)
    _validate(puzzle, board, band, hints, board_path)
    used_outside = {int(board.piece[r, c]) for r in range(board.rows) for c in range(board.cols)
                    if board.piece[r, c] >= 0 and not band.contains(r, c)}
    pieces = np.array(sorted(set(range(puzzle.n_pieces)) - used_outside), np.int64)
    ncells = band.rows * band.width
    if len(pieces) < ncells:
        raise InputError(f"the band has {ncells} cells but only {len(pieces)} pieces are not used outside it",
                         board_path, None)
    band_hints = [h for h in hints if band.contains(h.row, h.col)]
    hint_at = {(h.row, h.col): (h.piece, h.rot % 4) for h in band_hints}
    bit_of = {int(p): k for k, p in enumerate(pieces)}
    colours, cmap = _colour_map(puzzle, pieces)
    rows = band.rows
    if split is None:
        split = max(rows // 2, 1)
    if rows > 1 and not 1 <= split < rows:
        raise InputError(f"--split {split}: the upper half takes 1..{rows - 1} of the band's {rows} rows")
    if rows == 1:
        split = 1
    upper = _build_half(puzzle, board, band, band.r0, split, False, split < rows, bit_of, hint_at, cmap)
    lower = None
    if split < rows:
        lower = _build_half(puzzle, board, band, band.r0 + split, rows - split, True, True, bit_of, hint_at, cmap)
    complete = all(board.piece[r, c] >= 0 for r, c in band.cells())
    return BandProblem(puzzle=puzzle, board=board, band=band, pieces=pieces, hints=band_hints,
                       ncol=len(colours), upper=upper, lower=lower, incumbent=board if complete else None)
