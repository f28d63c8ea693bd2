"""Helpers of the band-solver tests: a brute-force optimum, scrambled boards, cleared bands."""

from __future__ import annotations

import itertools

import numpy as np

from puzzlelab.edgematch.board import Board, save_board
from puzzlelab.edgematch.generate import generate
from puzzlelab.edgematch.hints import e2_hint_cells, hints_from_board, write_hints
from puzzlelab.edgematch.mitm.band import Band
from puzzlelab.edgematch.puzzle import write_puzzle

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


# --- brute force: every permutation of the band's pieces, every turn of every piece ----------------

def brute_force(puzzle, board: Board, band: Band, hints=()) -> int:
    """Least band mismatches over all fillings (numpy over turns, Python over permutations)."""
    cells = band.cells()
    inside = set(cells)
    used = {int(board.piece[r, c]) for r in range(board.rows) for c in range(board.cols)
            if board.piece[r, c] >= 0 and (r, c) not in inside}
    free = [p for p in range(puzzle.n_pieces) if p not in used]
    hint_at = {(h.row, h.col): (h.piece, h.rot % 4) for h in hints if (h.row, h.col) in inside}
    k = len(cells)
    turns = np.array(list(itertools.product(range(4), repeat=k)), np.int64)  # (4^k, k)
    index = {cell: i for i, cell in enumerate(cells)}
    best = None
    for perm in itertools.permutations(free, k):
        ok = all(perm[index[cell]] == p for cell, (p, _) in hint_at.items())
        if not ok:
            continue
        pieces = np.array(perm, np.int64)
        colours = puzzle.rotated[pieces[None, :], turns]  # (4^k, k, 4)
        cost = np.zeros(len(turns), np.int64)
        for cell, (_p, rot) in hint_at.items():
            cost += np.where(turns[:, index[cell]] == rot, 0, 10**6)
        for i, (r, c) in enumerate(cells):
            for s, (dr, dc) in enumerate(STEPS):
                rr, cc = r + dr, c + dc
                mine = colours[:, i, s]
                if not (0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols):
                    cost += np.where(mine == 0, 0, 10**6)  # the border must be grey
                elif (rr, cc) in inside:
                    if s in (1, 2):  # count each band-band edge once
                        other = colours[:, index[(rr, cc)], (s + 2) % 4]
                        cost += ~((mine == other) & (mine != 0))
                else:
                    other = puzzle.rotated[board.piece[rr, cc], board.rot[rr, cc] % 4, (s + 2) % 4]
                    cost += ~((mine == other) & (mine != 0))
        low = int(cost.min())
        best = low if best is None else min(best, low)
    return best


def scrambled(size: int, seed: int) -> tuple:
    """A generated puzzle and a legal-looking but poor board: the planted solution with pieces swapped."""
    puzzle, solution = generate(size, seed=seed)
    rng = np.random.default_rng(seed + 100)
    board = solution.copy()
    kinds = puzzle.kind[board.piece]
    for kind in (0, 1):  # shuffle inner pieces among inner cells, edge pieces among edge cells
        cells = np.argwhere(kinds == kind)
        perm = rng.permutation(len(cells))
        pieces = [(board.piece[r, c], board.rot[r, c]) for r, c in cells]
        for (r, c), j in zip(cells, perm, strict=False):
            p, _ = pieces[j]
            board.piece[r, c] = p
            # the turn that puts the piece's grey side (if any) outwards, else a fixed one
            best = 0
            for rot in range(4):
                sides = puzzle.rotated[p, rot]
                out = [s for s, (dr, dc) in enumerate(STEPS)
                       if not (0 <= r + dr < size and 0 <= c + dc < size)]
                if all(sides[s] == 0 for s in out):
                    best = rot
                    break
            board.rot[r, c] = best
    return puzzle, board


def cleared(board: Board, band: Band) -> Board:
    b = board.copy()
    b.piece[band.r0:band.r1, band.c0:band.c1] = -1
    return b


def band_files(folder):
    """A 6x6 puzzle (p.txt), its planted solution with the bottom 2-row band cleared (b.json) and its
    E2-style hints (h.txt): what the CLI tests run on."""
    puzzle, solution = generate(6, seed=2)
    write_puzzle(folder / "p.txt", puzzle)
    save_board(folder / "b.json", cleared(solution, Band(4, 6, 0, 6)))
    write_hints(folder / "h.txt", hints_from_board(solution, e2_hint_cells(6, 6)))
    return folder
