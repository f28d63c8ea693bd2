"""Tie-break preferences of the beam's lottery: PRIOR (pieces frequent at a cell in strong boards) and
LODESTONE (pieces that serve scarce demands).

Both give every (depth, orientation) a rank, lower preferred; the beam then orders exactly tied
children (and children within the tie window) by rank first and by their seeded lottery key
within a rank. Without a preference the lottery alone decides, as before.

- PRIOR: rank = boards - (boards in the corpus that hold this piece at this cell, any rotation).
- LODESTONE: the demand a placement serves is the colours it shows to the neighbours already placed
  when its cell is filled; rank = how many orientations of the cell's type show those same colours
  (capped at 255). A rare fit is taken while its demand is on the board; a common one can wait.
"""

from __future__ import annotations

import numpy as np

from ...lab.errors import InputError
from ..puzzle import Puzzle
from .tables import Tables

TIE_BREAKS = ("lottery", "prior", "lodestone")
RANK_SHIFT = np.uint64(56)  # the rank sits in the top byte of the lottery key


def prior_ranks(puzzle: Puzzle, tables: Tables, boards_file: str) -> np.ndarray:
    """(D, 4n) ranks from the boards of `boards_file` (record-board text layout, boards of this puzzle)."""
    from ..board import load_boards
    from ..score import check_fits

    boards = load_boards(boards_file, puzzle.n_pieces)
    counts = np.zeros((puzzle.n_cells, puzzle.n_pieces), np.int64)
    for b in boards:
        check_fits(puzzle, b, boards_file)
        filled = np.flatnonzero(b.piece.ravel() >= 0)
        counts[filled, b.piece.ravel()[filled]] += 1
    n = min(len(boards), 255)
    order = tables.order
    pieces = np.arange(4 * puzzle.n_pieces) >> 2
    return (n - np.minimum(counts[order][:, pieces], n)).astype(np.uint64)


def lodestone_ranks(tables: Tables) -> np.ndarray:
    """(D, 4n) ranks: orientations of the cell's type showing the same colours to the placed neighbours."""
    lay, c = tables.layout, tables.cands
    n_orient = c.rotcol.shape[0]
    out = np.full((len(lay.order), n_orient), 255, np.uint64)
    rotcol = c.rotcol.astype(np.int64)
    for d in range(len(lay.order)):
        t = int(lay.cell_type[lay.order[d]])
        legal = c.fit_pr[c.fit_ptr[t]:c.fit_ptr[t + 1]]
        code = np.zeros(len(legal), np.int64)
        for s in lay.nb_side[d, :lay.nb_k[d]]:
            code = code * 256 + rotcol[legal, int(s)]
        _, inverse, supply = np.unique(code, return_inverse=True, return_counts=True)
        out[d, legal] = np.minimum(supply[inverse], 255).astype(np.uint64)
    return out


def tie_table(puzzle: Puzzle, tables: Tables, tie_break: str, prior_boards: str | None) -> np.ndarray:
    """The ranks shifted into the top byte of the lottery key; a (1, 1) table means: the lottery alone."""
    prior_boards = None if prior_boards in (None, "", "none") else prior_boards
    if tie_break not in TIE_BREAKS:
        raise InputError(f"--tie-break must be one of {', '.join(TIE_BREAKS)}, not {tie_break!r}")
    if tie_break == "lottery":
        if prior_boards:
            raise InputError("--prior-boards applies to --tie-break prior")
        return np.zeros((1, 1), np.uint64)
    if tie_break == "prior":
        if not prior_boards:
            raise InputError("--tie-break prior needs --prior-boards FILE (e.g. the record boards of the shared "
                             "corpus, e2/record_boards.txt)")
        ranks = prior_ranks(puzzle, tables, prior_boards)
    else:
        if prior_boards:
            raise InputError("--prior-boards applies to --tie-break prior")
        ranks = lodestone_ranks(tables)
    return np.ascontiguousarray(ranks << RANK_SHIFT)
