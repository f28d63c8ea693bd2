"""The project's own corpus: seeded random images turned into puzzles (b/w and colour, any size).

Style `noise`: each cell is filled with probability `density`, in one of `colors` block colours chosen
uniformly. Style `blocks`: the same on a coarse grid of `scale`x`scale` squares (picture-like, long
runs; mostly unique and line-solvable).
The same (size, density, colours, count, seed) always gives the same bytes. Puzzles are written
as a `.nonpack` bundle (Simpson `.non` with colour letters and the goal), one `====` per puzzle.
"""

from __future__ import annotations

import numpy as np

from ..lab.errors import InputError, quote
from .formats import non
from .model import BW_PALETTE, Puzzle, clues_of

# Distinct, printable colours for generated colour puzzles (index 1 = black, as in b/w).
PALETTE = ["#000000", "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45"]


def parse_size(text: str) -> tuple[int, int]:
    """'30x20' -> (width 30, height 20); '25' -> (25, 25)."""
    parts = str(text).lower().split("x")
    try:
        dims = [int(x) for x in parts]
    except ValueError:
        raise InputError(f"size {quote(text)}: expected WIDTHxHEIGHT, e.g. 30x20") from None
    if len(dims) == 1:
        dims = dims * 2
    if len(dims) != 2 or min(dims) < 1 or max(dims) > 1000:
        raise InputError(f"size {quote(text)}: expected WIDTHxHEIGHT with sides from 1 to 1000")
    return dims[0], dims[1]


def random_image(width: int, height: int, density: float, colors: int, rng: np.random.Generator,
                 style: str = "noise", scale: int = 4) -> np.ndarray:
    if style == "blocks":
        h, w = -(-height // scale), -(-width // scale)
        coarse = random_image(w, h, density, colors, rng)
        return np.kron(coarse, np.ones((scale, scale), dtype=np.int8))[:height, :width].astype(np.int8)
    filled = rng.random((height, width)) < density
    shade = rng.integers(1, colors + 1, size=(height, width))
    return np.where(filled, shade, 0).astype(np.int8)


def generate(width: int, height: int, density: float, colors: int, count: int, seed: int,
             prefix: str = "gen", style: str = "noise", scale: int = 4) -> list[Puzzle]:
    if not 0.0 <= density <= 1.0:
        raise InputError(f"density {density} must be between 0 and 1")
    if not 1 <= colors <= len(PALETTE):
        raise InputError(f"colors {colors} must be from 1 (black and white) to {len(PALETTE)}")
    if count < 1:
        raise InputError("count must be at least 1")
    if style not in ("noise", "blocks") or scale < 1:
        raise InputError(f"style {quote(style)} / scale {scale}: expected noise or blocks, scale >= 1")
    rng = np.random.Generator(np.random.PCG64(seed))
    palette = list(BW_PALETTE) if colors == 1 else ["#ffffff"] + PALETTE[:colors]
    out = []
    for i in range(count):
        img = random_image(width, height, density, colors, rng, style, scale)
        rows, cols = clues_of(img)
        kind = "" if style == "noise" else f"-blocks{scale}"
        name = f"{prefix}-{width}x{height}-d{density:g}-c{colors}{kind}#{i + 1}"
        out.append(Puzzle(name=name, rows=rows, cols=cols, palette=palette, goal=img, format="non"))
    return out


def to_text(puzzles: list[Puzzle]) -> str:
    return "====\n".join(non.write(p) for p in puzzles)
