"""E2-like puzzles with a planted perfect solution, so the pipeline has full-size instances of its own.

Colour every edge of an N x N grid: outward sides grey (0); the edges running along the frame get
one of F frame colours (1..F); all other inner edges one of I inner colours (F+1..F+I). Each class
is coloured as evenly as possible (E2: 5 frame colours on 24 sides each, 17 inner colours on 48-50
sides each), shuffled by the seed, then repaired by colour swaps so that no two pieces are equal up
to rotation whenever the colour budget allows. The pieces are cut out, listed corners first, then
edge pieces, then interior pieces (each group shuffled), and written turned by a random number of
quarter turns; the solution board records where each piece goes and the turn that puts it back.
"""

from __future__ import annotations

import numpy as np

from ..lab.errors import InputError
from .board import Board
from .puzzle import Puzzle


def default_colors(size: int) -> tuple[int, int]:
    """(frame, inner) colours for an N x N puzzle: E2's 5 and 17 at N=16, Brendan-like 4 and 11 at N=10."""
    return max(1, round((size + 4) / 4)), max(2, size + 1)


def _balanced(n_edges: int, first: int, n_colors: int, rng: np.random.Generator) -> np.ndarray:
    colors = first + (np.arange(n_edges) % n_colors)
    return rng.permutation(colors).astype(np.int32)


def _pieces_from_grid(h: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """(n*n, 4) up/right/down/left colours of each cell of the solved grid, row-major."""
    sides = np.zeros((n, n, 4), np.int32)
    sides[1:, :, 0] = v  # up = vertical edge above
    sides[:, :-1, 1] = h
    sides[:-1, :, 2] = v
    sides[:, 1:, 3] = h
    return sides.reshape(n * n, 4)


def _canonical(sides: np.ndarray) -> np.ndarray:
    """A rotation-invariant code per piece (the smallest of its four turned forms)."""
    codes = []
    for r in range(4):
        t = np.roll(sides, r, axis=1).astype(np.int64)
        codes.append(((t[:, 0] * 256 + t[:, 1]) * 256 + t[:, 2]) * 256 + t[:, 3])
    return np.min(np.stack(codes), axis=0)


def _repair_duplicates(h, v, frame_h, frame_v, n, rng, max_rounds=20000) -> None:
    """Swap edge colours inside a class until no two pieces are equal up to rotation (best effort)."""
    inner_h, inner_v = ~frame_h, ~frame_v

    def edges_of(hmask, vmask):
        return [("h", idx) for idx in map(tuple, np.argwhere(hmask))] + \
            [("v", idx) for idx in map(tuple, np.argwhere(vmask))]

    classes = {True: edges_of(frame_h, frame_v), False: edges_of(inner_h, inner_v)}
    arrays = {"h": h, "v": v}
    frames = {"h": frame_h, "v": frame_v}
    for _ in range(max_rounds):
        codes = _canonical(_pieces_from_grid(h, v, n))
        _, first, counts = np.unique(codes, return_index=True, return_counts=True)
        dup_codes = set(np.unique(codes)[counts > 1].tolist())
        dups = [i for i, code in enumerate(codes.tolist()) if code in dup_codes and i not in set(first.tolist())]
        if not dups:
            return
        cell = int(dups[rng.integers(len(dups))])
        r, c = divmod(cell, n)
        touching = [("h", (r, c - 1)), ("h", (r, c)), ("v", (r - 1, c)), ("v", (r, c))]
        touching = [(k, ij) for k, ij in touching
                    if 0 <= ij[0] < arrays[k].shape[0] and 0 <= ij[1] < arrays[k].shape[1]]
        kind, ij = touching[rng.integers(len(touching))]
        pool = classes[bool(frames[kind][ij])]
        kind2, ij2 = pool[rng.integers(len(pool))]
        arrays[kind][ij], arrays[kind2][ij2] = arrays[kind2][ij2], arrays[kind][ij]


def generate(size: int, frame_colors: int | None = None, inner_colors: int | None = None,
             seed: int = 0) -> tuple[Puzzle, Board]:
    """An N x N E2-like puzzle (Brendan's format order) and its planted perfect solution."""
    if size < 3 or size > 64:
        raise InputError(f"--size must be between 3 and 64, not {size}")
    df, di = default_colors(size)
    f = df if frame_colors is None else frame_colors
    i = di if inner_colors is None else inner_colors
    if f < 1 or i < 1 or f + i > 255:
        raise InputError(f"need at least 1 frame and 1 inner colour, at most 255 in all (got {f} and {i})")
    n = size
    rng = np.random.default_rng(seed)
    # h[r, c] joins (r, c)-(r, c+1); v[r, c] joins (r, c)-(r+1, c).
    frame_h = np.zeros((n, n - 1), bool)
    frame_h[[0, n - 1], :] = True
    frame_v = np.zeros((n - 1, n), bool)
    frame_v[:, [0, n - 1]] = True
    h = np.zeros((n, n - 1), np.int32)
    v = np.zeros((n - 1, n), np.int32)
    n_frame = int(frame_h.sum() + frame_v.sum())
    n_inner = h.size + v.size - n_frame
    frame = _balanced(n_frame, 1, f, rng)
    inner = _balanced(n_inner, f + 1, i, rng)
    h[frame_h], v[frame_v] = frame[: frame_h.sum()], frame[frame_h.sum():]
    h[~frame_h], v[~frame_v] = inner[: (~frame_h).sum()], inner[(~frame_h).sum():]
    _repair_duplicates(h, v, frame_h, frame_v, n, rng)
    solved = _pieces_from_grid(h, v, n)
    grey = (solved == 0).sum(axis=1)
    order = np.concatenate([rng.permutation(np.flatnonzero(grey == k)) for k in (2, 1, 0)])
    turns = rng.integers(0, 4, size=n * n)
    edges = np.zeros((n * n, 4), np.int32)
    piece = np.zeros((n, n), np.int32)
    rot = np.zeros((n, n), np.int8)
    for index, cell in enumerate(order.tolist()):
        q = int(turns[index])
        edges[index] = [solved[cell, (s + q) % 4] for s in range(4)]  # turning it q clockwise restores it
        piece.flat[cell] = index
        rot.flat[cell] = q
    puzzle = Puzzle(rows=n, cols=n, edges=edges, name=f"e2like_{n}x{n}_f{f}_i{i}_s{seed}", fmt="brendan")
    return puzzle, Board(piece, rot, name="planted")
