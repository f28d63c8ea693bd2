"""The puzzle as every parser returns it: clues per line, a palette, and an optional goal image.

Colours are palette indices: 0 is the background (white), 1.. are block colours (black = 1 for
black-and-white puzzles). A clue is a list of (length, colour) blocks; an empty list is an empty line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..lab.errors import InputError

Clue = list[tuple[int, int]]

BW_PALETTE = ["#ffffff", "#000000"]
MAX_COLORS = 62  # colour masks are 64-bit words; bit i = palette index i
MAX_SIDE = 10_000  # cells per side of any puzzle we read (docs/CONVENTIONS.md, "Bad input")


@dataclass
class Puzzle:
    name: str
    rows: list[Clue]
    cols: list[Clue]
    palette: list[str] = field(default_factory=lambda: list(BW_PALETTE))
    goal: np.ndarray | None = None  # (rows, cols) palette indices, when the file gives the answer
    source: str = ""
    format: str = ""
    note: str = ""  # free text from the file (e.g. its stated uniqueness)
    title: str = ""  # the puzzle's own title, when the file gives one (writers fall back to `name`)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def ncolors(self) -> int:
        """Palette size including the background."""
        return len(self.palette)

    @property
    def is_bw(self) -> bool:
        return self.ncolors == 2

    def size(self) -> str:
        return f"{self.width}x{self.height}"


def check_puzzle(p: Puzzle, path: str, line: int | None = None) -> Puzzle:
    """Structural checks every format shares: sizes, lengths and colours in range.

    Clues that cannot fit their line are not an input error: no picture satisfies them, and the
    solver says `contradiction` before any kernel runs (see `overfull_line`).
    """
    if p.height == 0 or p.width == 0:
        raise InputError(f"puzzle has {p.height} rows and {p.width} columns; both must be at least 1", path, line)
    if max(p.height, p.width) > MAX_SIDE:
        raise InputError(f"puzzle has {p.height} rows and {p.width} columns; at most {MAX_SIDE} of each are supported",
                         path, line)
    if not 2 <= p.ncolors <= MAX_COLORS:
        raise InputError(f"puzzle has {p.ncolors} colours (with the background); at most {MAX_COLORS} are supported",
                         path, line)
    for kind, lines in (("row", p.rows), ("column", p.cols)):
        for i, clue in enumerate(lines):
            for length, colour in clue:
                if not 0 < length <= MAX_SIDE:
                    raise InputError(f"{kind} {i + 1}: block length {length} must be from 1 to {MAX_SIDE}", path, line)
                if not 1 <= colour < p.ncolors:
                    raise InputError(f"{kind} {i + 1}: colour {colour} is not in the palette", path, line)
    if p.goal is not None:
        g = np.asarray(p.goal)
        if g.shape != (p.height, p.width):
            raise InputError(f"goal image is {g.shape[1] if g.ndim == 2 else '?'}x{g.shape[0]}, "
                             f"clues say {p.width}x{p.height}", path, line)
        if g.size and (g.min() < 0 or g.max() >= p.ncolors):
            raise InputError("goal image uses a colour that is not in the palette", path, line)
    return p


def line_need(clue: Clue) -> int:
    """Cells the clue needs at least: its blocks, and one gap between neighbours of the same colour."""
    return sum(n for n, _ in clue) + sum(1 for a, b in zip(clue, clue[1:]) if a[1] == b[1])


def overfull_line(p: Puzzle) -> str | None:
    """'row 3: the clues need 12 cells, the row has 10' for the first line no placement fits, else None."""
    for kind, lines, n in (("row", p.rows, p.width), ("column", p.cols, p.height)):
        for i, clue in enumerate(lines):
            if len(clue) > n or line_need(clue) > n:
                return f"{kind} {i + 1}: the clues need {line_need(clue)} cells, the {kind} has {n}"
    return None


def runs(line: np.ndarray) -> Clue:
    """The clue of a solved line: maximal runs of equal non-background colour."""
    out: Clue = []
    prev = 0
    for v in line.tolist():
        if v != 0 and v == prev:
            out[-1] = (out[-1][0] + 1, v)
        elif v != 0:
            out.append((1, v))
        prev = v
    return out


def clues_of(grid: np.ndarray) -> tuple[list[Clue], list[Clue]]:
    """Row and column clues of an image (used by the generator and by checks)."""
    g = np.asarray(grid)
    return [runs(g[r]) for r in range(g.shape[0])], [runs(g[:, c]) for c in range(g.shape[1])]


def satisfies(p: Puzzle, grid: np.ndarray) -> bool:
    """True when the image has exactly the puzzle's clues."""
    g = np.asarray(grid)
    if g.shape != (p.height, p.width):
        return False
    rows, cols = clues_of(g)
    return rows == [list(c) for c in p.rows] and cols == [list(c) for c in p.cols]


def parse_hex(text: str) -> str | None:
    """'#A0b1c2' / 'a0b1c2' / '#abc' -> '#a0b1c2'; None when it is not a hex colour."""
    t = text.strip().lstrip("#").lower()
    if len(t) == 3 and all(ch in "0123456789abcdef" for ch in t):
        t = "".join(ch * 2 for ch in t)
    if len(t) == 6 and all(ch in "0123456789abcdef" for ch in t):
        return "#" + t
    return None


def color_from_name(text: str) -> str | None:
    """A colour given as '#rrggbb', 'rrggbb', an SVG/X11 name or 'r,g,b'; None when unknown."""
    t = text.strip().strip("()").strip()
    if "," in t:
        parts = [x.strip() for x in t.split(",")]
        if len(parts) == 3 and all(x.isdigit() and int(x) <= 255 for x in parts):
            return "#" + "".join(f"{int(x):02x}" for x in parts)
        return None
    hexed = parse_hex(t) if (t.startswith("#") or len(t) in (3, 6)) else None
    if hexed:
        return hexed
    from matplotlib import colors as mcolors  # the CSS4/SVG colour names

    name = t.lower().replace(" ", "")
    if name in mcolors.CSS4_COLORS:
        return mcolors.CSS4_COLORS[name].lower()
    return None
