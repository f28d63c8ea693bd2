"""Board pictures: each cell as four triangles in its edge colours, unmatched edges marked in red."""

from __future__ import annotations

import numpy as np

from .board import Board
from .puzzle import Puzzle
from .score import mismatch_edges


def palette(n_colors: int) -> np.ndarray:
    """RGB per colour: grey for the border, then well-separated hues (stable for a given count)."""
    import matplotlib

    base = [matplotlib.colormaps["tab20"](k) for k in range(20) if k not in (14, 15)]  # tab20 without its greys
    base += [matplotlib.colormaps["tab20b"](k) for k in range(20)]
    out = np.zeros((max(n_colors, 1), 3))
    out[0] = (0.55, 0.55, 0.55)
    for c in range(1, n_colors):
        out[c] = base[(c - 1) % len(base)][:3]
    return out


def draw_on(ax, puzzle: Puzzle, board: Board, title: str | None = None, numbers: bool = False) -> None:
    """Draw a board on a matplotlib axis."""
    from matplotlib.collections import LineCollection, PolyCollection

    rows, cols = board.rows, board.cols
    ax.grid(False)
    colours = palette(puzzle.n_colors)
    polys, faces = [], []
    for r in range(rows):
        for c in range(cols):
            p = board.piece[r, c]
            x0, y0 = c, rows - 1 - r  # y upwards in the picture
            centre = (x0 + 0.5, y0 + 0.5)
            corners = [(x0, y0 + 1), (x0 + 1, y0 + 1), (x0 + 1, y0), (x0, y0)]  # TL, TR, BR, BL
            for side in range(4):
                a, b = corners[side], corners[(side + 1) % 4]
                polys.append([a, b, centre])
                faces.append(colours[puzzle.rotated[p, board.rot[r, c] & 3, side]] if p >= 0 else (1, 1, 1))
    ax.add_collection(PolyCollection(polys, facecolors=faces, edgecolors=(0.15, 0.15, 0.15), linewidths=0.3))
    h, v = mismatch_edges(puzzle, board)
    segments = [[(c + 1, rows - 1 - r), (c + 1, rows - r)] for r, c in np.argwhere(h)]
    segments += [[(c, rows - 1 - r), (c + 1, rows - 1 - r)] for r, c in np.argwhere(v)]
    if segments:
        ax.add_collection(LineCollection(segments, colors="red", linewidths=2.5))
    if numbers:
        for r in range(rows):
            for c in range(cols):
                if board.piece[r, c] >= 0:
                    ax.text(c + 0.5, rows - 0.5 - r, str(board.piece[r, c] + 1), ha="center", va="center",
                            fontsize=5, color="black")
    ax.set_xlim(0, cols)
    ax.set_ylim(0, rows)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=9)


def draw_board(puzzle: Puzzle, board: Board, path: str, title: str | None = None, numbers: bool = False) -> None:
    """Write a PNG or SVG (by suffix) of the board; stable bytes through lab.plots."""
    from ..lab import plots

    size = max(3.0, min(12.0, 0.45 * max(board.rows, board.cols)))
    fig, ax = plots.figure(size, size * board.rows / board.cols + (0.4 if title else 0))
    draw_on(ax, puzzle, board, title, numbers)
    plots.save(fig, path)


def draw_boards(items: list[tuple[Puzzle, Board, str]], path: str) -> None:
    """Several boards side by side in one picture (PNG or SVG by suffix)."""
    from ..lab import plots

    n = max(1, len(items))
    fig, axes = plots.figure(6.0 * n, 6.4, ncols=n, squeeze=False)
    for ax, (puzzle, board, title) in zip(axes[0], items, strict=False):
        draw_on(ax, puzzle, board, title)
    plots.save(fig, path)
