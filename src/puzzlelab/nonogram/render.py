"""Drawing solutions: text for the terminal (true colour on a terminal) and pictures for the report."""

from __future__ import annotations

import numpy as np

from .model import Puzzle

CHARS = ".#abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _rgb(hexcolor: str) -> tuple[int, int, int]:
    h = hexcolor.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def text(p: Puzzle, grid: np.ndarray, colour: bool = False) -> str:
    """The image as text: two characters per cell; ANSI true-colour blocks when `colour`."""
    lines = []
    for row in np.asarray(grid):
        if colour:
            parts = []
            for v in row.tolist():
                r, g, b = _rgb(p.palette[v])
                parts.append(f"\x1b[48;2;{r};{g};{b}m  ")
            lines.append("".join(parts) + "\x1b[0m")
        elif p.is_bw:
            lines.append("".join("██" if v else "· " for v in row.tolist()).rstrip())
        else:
            lines.append(" ".join(CHARS[v] for v in row.tolist()))
    return "\n".join(lines)


def legend(p: Puzzle) -> str:
    if p.is_bw:
        return ""
    return "colours: " + ", ".join(f"{CHARS[i]}={c}" for i, c in enumerate(p.palette))


def image(p: Puzzle, grid: np.ndarray) -> np.ndarray:
    """RGB array (rows, cols, 3) in the puzzle's real colours."""
    lut = np.array([_rgb(c) for c in p.palette], dtype=np.uint8)
    return lut[np.asarray(grid, dtype=np.int64)]


def gallery(items: list[tuple[str, Puzzle, np.ndarray]], path: str, title: str = "", columns: int = 4) -> None:
    """A figure of solved puzzles (caption = name and size), saved with stable bytes."""
    from ..lab import plots

    n = max(1, len(items))
    cols = min(columns, n)
    rows = (n + cols - 1) // cols
    fig, axes = plots.figure(width=3.0 * cols, height=3.2 * rows, nrows=rows, ncols=cols, squeeze=False)
    for ax in axes.ravel():
        ax.axis("off")
    for ax, (label, p, grid) in zip(axes.ravel(), items):
        ax.imshow(image(p, grid), interpolation="nearest")
        ax.set_title(f"{label}\n{p.width}x{p.height}, {p.ncolors} colours", fontsize=8)
    if not items:
        axes[0, 0].text(0.5, 0.5, "no solved puzzle to show", ha="center", va="center")
    if title:
        fig.suptitle(title)
    plots.save(fig, path)
