"""A level's start position as a picture: one coloured cell per map cell (matplotlib through `lab.plots`)."""

from __future__ import annotations

import math

import numpy as np

from .level import Level

# cell codes, in the order of COLOURS
EMPTY, GROUND, WATER, SPIKES, FRUIT, EXIT, TELEPORTER, GADGET = range(8)
SNAKE = {"R": (8, 9), "G": (10, 11), "B": (12, 13)}  # (body, head)
COLOURS = ["#ffffff", "#8d6e4a", "#4f8fd6", "#9e9e9e", "#e53935", "#ffd600", "#8e24aa", "#fb8c00",
           "#ef9a9a", "#b71c1c", "#a5d6a7", "#1b5e20", "#90caf9", "#0d47a1"]
_TERRAIN = {".": GROUND, "~": WATER, "#": SPIKES}


def cell_codes(level: Level) -> np.ndarray:
    """(height, width) array of the codes above for the level's start position."""
    codes = np.array([_TERRAIN.get(ch, EMPTY) for ch in level.terrain], dtype=np.int64)
    for c in level.fruit:
        codes[c] = FRUIT
    codes[level.exit] = EXIT
    for pair in level.teleporters:
        codes[list(pair)] = TELEPORTER
    for cells in level.gadgets:
        codes[cells] = GADGET
    for letter, body in zip(level.snake_letters, level.snakes):
        codes[body] = SNAKE[letter][0]
        codes[body[0]] = SNAKE[letter][1]
    return codes.reshape(level.height, level.width)


def draw_levels(panels: list[tuple[Level, str]], svg: str, columns: int = 4) -> None:
    """One panel per (level, title): the start positions of every level, in the given order."""
    from matplotlib.colors import BoundaryNorm, ListedColormap

    from ..lab.plots import figure, save

    n = max(len(panels), 1)
    cols = min(columns, n)
    rows = math.ceil(n / cols)
    fig, axes = figure(3.2 * cols, 2.4 * rows, nrows=rows, ncols=cols, squeeze=False)
    cmap = ListedColormap(COLOURS)
    norm = BoundaryNorm(np.arange(len(COLOURS) + 1) - 0.5, len(COLOURS))
    for i, ax in enumerate(axes.flat):
        ax.set_axis_off()
        if i < len(panels):
            level, title = panels[i]
            ax.imshow(cell_codes(level), cmap=cmap, norm=norm, interpolation="nearest")
            ax.set_title(title, fontsize=8)
    if not panels:
        axes.flat[0].text(0.5, 0.5, "no level solved", ha="center", va="center")
    fig.suptitle("Snakebird levels solved: start positions (snakes R, G, B with dark heads; fruit red, "
                 "exit yellow, gadgets orange, teleporters purple)", fontsize=9)
    save(fig, svg)
