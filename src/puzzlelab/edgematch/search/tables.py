"""What every search shares: visiting orders over the cells, and the candidate tables.

Candidates: a cell's *type* is the set of its sides that face out of the board (interior, one of
four edges, one of four corners). A candidate for a cell is an orientation code ``pr = 4*piece + rot``
whose grey sides are exactly the outward ones ("legal against the border"); orientations of a
symmetric piece that look the same are listed once. Lists are CSR arrays: all candidates of a type,
and, per (type, side, colour), those showing that colour on that side, which is how the searches
find the placements that match a placed neighbour without scanning everything.

Orders (the cells visited one after another; hinted cells are pre-placed and skipped):

- ``row``: row by row from the top-left, each row left to right.
- ``spiral``: clockwise from the top-left corner, ring by ring towards the centre.
- ``border``: the frame first (clockwise from the top-left corner), then the interior row by row.
- ``comb``: the first ``spine`` rows row by row (default rows // 2), then the remaining rows as
  vertical teeth ``tooth`` columns wide (default 4), left to right; inside a tooth row by row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...lab.errors import InputError, quote
from ..board import Board
from ..hints import Hint
from ..puzzle import Puzzle

ORDERS = ("row", "spiral", "border", "comb")
OPPOSITE = (2, 3, 0, 1)
SIDE_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
PAIR_INDEX = np.full((4, 4), -1, np.int32)
for _i, (_a, _b) in enumerate(SIDE_PAIRS):
    PAIR_INDEX[_a, _b] = PAIR_INDEX[_b, _a] = _i
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)


def visiting_order(rows: int, cols: int, order: str, spine: int | None = None, tooth: int = 4) -> list[tuple[int, int]]:
    """All cells in the order a search fills them."""
    if order == "row":
        return [(r, c) for r in range(rows) for c in range(cols)]
    if order == "spiral":
        out, top, left, bottom, right = [], 0, 0, rows - 1, cols - 1
        while top <= bottom and left <= right:
            out += [(top, c) for c in range(left, right + 1)]
            out += [(r, right) for r in range(top + 1, bottom + 1)]
            if top < bottom:
                out += [(bottom, c) for c in range(right - 1, left - 1, -1)]
            if left < right:
                out += [(r, left) for r in range(bottom - 1, top, -1)]
            top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
        return out
    if order == "border":
        ring = visiting_order(rows, cols, "spiral")[: 2 * (rows + cols) - 4 if rows > 1 and cols > 1 else rows * cols]
        inner = [(r, c) for r in range(1, rows - 1) for c in range(1, cols - 1)]
        return ring + inner
    if order == "comb":
        h = rows // 2 if spine is None else spine
        if not 0 <= h <= rows or tooth < 1:
            raise InputError(f"comb spine must be 0..{rows} rows and teeth at least 1 column wide")
        out = [(r, c) for r in range(h) for c in range(cols)]
        for c0 in range(0, cols, tooth):
            out += [(r, c) for r in range(h, rows) for c in range(c0, min(cols, c0 + tooth))]
        return out
    raise InputError(f"unknown order {quote(order)} (expected one of {', '.join(ORDERS)})")


class Cands(NamedTuple):
    """The candidate lists of one puzzle (read-only kernel input; CSR arrays, see the module docstring)."""

    rotcol: np.ndarray  # (4n, 4) uint8: colour on each side of orientation pr
    fit_ptr: np.ndarray  # (T+1,) CSR over fit_pr
    fit_pr: np.ndarray  # int32 orientation codes per type
    side_ptr: np.ndarray  # (T, 4, n_colors+1) CSR over side_pr
    side_pr: np.ndarray
    pair_ptr: np.ndarray  # (T, 6, n_colors**2 + 1) CSR over pair_pr: colours on two sides (SIDE_PAIRS)
    pair_pr: np.ndarray
    nfit: np.ndarray  # (n, T) int32: distinct orientations of piece p fitting type t
    ncol: int  # colours, grey included


class Layout(NamedTuple):
    """Where each depth of a search sits on the board and which neighbours it meets (read-only kernel input)."""

    order: np.ndarray  # (D,) cells visited, hinted cells left out
    cell_type: np.ndarray  # (R*C,) int32 type id per cell
    nb_k: np.ndarray  # (D,) placed neighbours when depth d is filled
    nb_side: np.ndarray  # (D, 4) side of the cell facing that neighbour
    nb_depth: np.ndarray  # (D, 4) depth of the neighbour, -1 if it is a hint
    nb_fixcol: np.ndarray  # (D, 4) colour the hinted neighbour shows (when nb_depth == -1)
    nb_cell: np.ndarray  # (D, 4) neighbour cell
    open_k: np.ndarray  # (D,) sides facing cells still empty after depth d
    open_side: np.ndarray  # (D, 4)


@dataclass
class Tables:
    """Candidate tables and the per-depth neighbour layout of one (puzzle, order, hints)."""

    rows: int
    cols: int
    n_pieces: int
    n_colors: int
    cands: Cands
    layout: Layout
    depth_of: np.ndarray  # (R*C,) depth index of a cell in the order, -1 for hinted cells
    hint_piece: np.ndarray  # (R*C,) -1 or the hinted piece
    hint_rot: np.ndarray
    hint_used: np.ndarray  # (n,) bool
    base_score: int  # matched edges among the hints themselves
    max_score: int

    @property
    def order(self) -> np.ndarray:
        """The cells visited, hinted cells left out."""
        return self.layout.order


def _cell_masks(rows: int, cols: int) -> np.ndarray:
    """(R*C,) bit mask of the sides of each cell that face out of the board."""
    masks = np.zeros(rows * cols, np.int32)
    for r in range(rows):
        for c in range(cols):
            masks[r * cols + c] = (r == 0) | ((c == cols - 1) << 1) | ((r == rows - 1) << 2) | ((c == 0) << 3)
    return masks


def _fit_lists(puzzle: Puzzle, type_of_mask: dict) -> tuple[list[list[int]], np.ndarray]:
    """Per cell type, the distinct orientations whose grey sides are exactly that type's outward sides."""
    n = puzzle.n_pieces
    fit_lists: list[list[int]] = [[] for _ in range(len(type_of_mask))]
    nfit = np.zeros((n, len(type_of_mask)), np.int32)
    grey = puzzle.rotated == 0  # (n, 4, 4)
    for p in range(n):
        seen = set()
        for q in range(4):
            key = tuple(puzzle.rotated[p, q].tolist())
            if key in seen:
                continue
            seen.add(key)
            t = type_of_mask.get(sum(1 << s for s in range(4) if grey[p, q, s]))
            if t is not None:
                fit_lists[t].append(4 * p + q)
                nfit[p, t] += 1
    return fit_lists, nfit


def _side_lists(fit_lists: list[list[int]], rotcol: np.ndarray, ncol: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR of the candidates of each (type, side, colour)."""
    side_ptr = np.zeros((len(fit_lists), 4, ncol + 1), np.int64)
    side_chunks = []
    pos = 0
    for t, fits in enumerate(fit_lists):
        lst = np.array(fits, np.int64)
        for s in range(4):
            cols_s = rotcol[lst, s] if len(lst) else np.zeros(0, np.uint8)
            for colour in range(ncol):
                side_ptr[t, s, colour] = pos
                chunk = lst[cols_s == colour]
                side_chunks.append(chunk)
                pos += len(chunk)
            side_ptr[t, s, ncol] = pos
    side_pr = np.concatenate(side_chunks).astype(np.int32) if side_chunks else np.zeros(0, np.int32)
    return side_ptr, side_pr


def _pair_lists(fit_lists: list[list[int]], rotcol: np.ndarray, ncol: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR of the candidates of each (type, side pair, colour on the first side * ncol + colour on the second)."""
    pair_ptr = np.zeros((len(fit_lists), 6, ncol * ncol + 1), np.int64)
    pair_chunks = []
    pos = 0
    for t, fits in enumerate(fit_lists):
        lst = np.array(fits, np.int64)
        for pi, (a, b) in enumerate(SIDE_PAIRS):
            code = rotcol[lst, a].astype(np.int64) * ncol + rotcol[lst, b] if len(lst) else np.zeros(0, np.int64)
            srt = np.argsort(code, kind="stable")
            counts = np.bincount(code, minlength=ncol * ncol)
            pair_ptr[t, pi, 0] = pos
            pair_ptr[t, pi, 1:] = pos + np.cumsum(counts)
            pair_chunks.append(lst[srt])
            pos += len(lst)
    pair_pr = np.concatenate(pair_chunks).astype(np.int32) if pair_chunks else np.zeros(0, np.int32)
    return pair_ptr, pair_pr


def build_cands(puzzle: Puzzle) -> tuple[Cands, np.ndarray, dict]:
    """The candidate lists of a puzzle, with the cell types of its board: (cands, cell_type, type_of_mask)."""
    rows, cols, n = puzzle.rows, puzzle.cols, puzzle.n_pieces
    ncol = puzzle.n_colors
    rotcol = puzzle.rotated.reshape(n * 4, 4).astype(np.uint8)
    masks = _cell_masks(rows, cols)
    type_of_mask = {m: t for t, m in enumerate(sorted(set(masks.tolist())))}
    cell_type = np.array([type_of_mask[m] for m in masks.tolist()], np.int32)
    fit_lists, nfit = _fit_lists(puzzle, type_of_mask)
    fit_ptr = np.zeros(len(fit_lists) + 1, np.int64)
    for t, fits in enumerate(fit_lists):
        fit_ptr[t + 1] = fit_ptr[t] + len(fits)
    fit_pr = np.array([x for lst in fit_lists for x in lst], np.int32)
    side_ptr, side_pr = _side_lists(fit_lists, rotcol, ncol)
    pair_ptr, pair_pr = _pair_lists(fit_lists, rotcol, ncol)
    return Cands(rotcol, fit_ptr, fit_pr, side_ptr, side_pr, pair_ptr, pair_pr, nfit, ncol), cell_type, type_of_mask


def _hint_arrays(puzzle: Puzzle, hints: list[Hint], masks: np.ndarray):
    """(R*C,) hinted piece (-1: none) and turn per cell, and (n,) whether a piece is hinted."""
    cols = puzzle.cols
    grey = puzzle.rotated == 0
    hint_piece = np.full(puzzle.rows * cols, -1, np.int32)
    hint_rot = np.zeros(puzzle.rows * cols, np.int8)
    hint_used = np.zeros(puzzle.n_pieces, bool)
    for h in hints:
        want = masks[h.row * cols + h.col]
        got = sum(1 << s for s in range(4) if grey[h.piece, h.rot, s])
        if want != got:
            raise InputError(f"hint piece {h.piece + 1} turned {h.rot} does not fit cell (row {h.row}, col {h.col}): "
                             "its grey sides must face exactly the border")
        hint_piece[h.row * cols + h.col] = h.piece
        hint_rot[h.row * cols + h.col] = h.rot
        hint_used[h.piece] = True
    return hint_piece, hint_rot, hint_used


def _layout(puzzle: Puzzle, cells: list[int], cell_type: np.ndarray, hint_piece: np.ndarray,
            hint_rot: np.ndarray) -> tuple[Layout, np.ndarray]:
    """The neighbours each depth meets (placed before it, hinted, or still open), and each cell's depth."""
    rows, cols = puzzle.rows, puzzle.cols
    depth_of = np.full(rows * cols, -1, np.int32)
    for d, x in enumerate(cells):
        depth_of[x] = d
    D = len(cells)
    nb_k = np.zeros(D, np.int32)
    nb_side = np.zeros((D, 4), np.int32)
    nb_depth = np.full((D, 4), -1, np.int32)
    nb_fixcol = np.zeros((D, 4), np.int32)
    nb_cell = np.zeros((D, 4), np.int32)
    open_k = np.zeros(D, np.int32)
    open_side = np.zeros((D, 4), np.int32)
    for d, x in enumerate(cells):
        r, c = divmod(x, cols)
        for s in range(4):
            rr, cc = r + DR[s], c + DC[s]
            if not (0 <= rr < rows and 0 <= cc < cols):
                continue
            y = rr * cols + cc
            if hint_piece[y] >= 0:
                j = nb_k[d]
                nb_side[d, j], nb_depth[d, j], nb_cell[d, j] = s, -1, y
                nb_fixcol[d, j] = puzzle.rotated[hint_piece[y], hint_rot[y], OPPOSITE[s]]
                nb_k[d] += 1
            elif depth_of[y] < d:
                j = nb_k[d]
                nb_side[d, j], nb_depth[d, j], nb_cell[d, j] = s, depth_of[y], y
                nb_k[d] += 1
            else:
                open_side[d, open_k[d]] = s
                open_k[d] += 1
    layout = Layout(np.array(cells, np.int32), cell_type, nb_k, nb_side, nb_depth, nb_fixcol, nb_cell, open_k,
                    open_side)
    return layout, depth_of


def build_tables(puzzle: Puzzle, order: str = "row", hints: list[Hint] = (), spine: int | None = None,
                 tooth: int = 4) -> Tables:
    """The tables of a search of `puzzle` along `order` with `hints` pre-placed."""
    from ..score import score_kernel

    rows, cols = puzzle.rows, puzzle.cols
    cands, cell_type, _ = build_cands(puzzle)
    hint_piece, hint_rot, hint_used = _hint_arrays(puzzle, list(hints), _cell_masks(rows, cols))
    cells = [r * cols + c for r, c in visiting_order(rows, cols, order, spine, tooth)]
    cells = [x for x in cells if hint_piece[x] < 0]
    layout, depth_of = _layout(puzzle, cells, cell_type, hint_piece, hint_rot)
    base = int(score_kernel(hint_piece.reshape(rows, cols), hint_rot.reshape(rows, cols), puzzle.rotated))
    return Tables(rows, cols, puzzle.n_pieces, puzzle.n_colors, cands, layout, depth_of, hint_piece, hint_rot,
                  hint_used, base, puzzle.max_score)


def board_of(tables: Tables, prs: np.ndarray) -> Board:
    """The board of a search state: the hints, plus orientation codes `prs` along the visiting order."""
    piece = tables.hint_piece.copy()
    rot = tables.hint_rot.copy()
    for d, x in enumerate(tables.order.tolist()[: len(prs)]):
        piece[x] = int(prs[d]) >> 2
        rot[x] = int(prs[d]) & 3
    return Board(piece.reshape(tables.rows, tables.cols), rot.reshape(tables.rows, tables.cols))
