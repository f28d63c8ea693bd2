"""Izaron's `.pzl` format (the article's own solver), colour and black-and-white variants.

Colour: the number of colours C, C lines `#rrggbb`, then `R C` (rows, columns), then R row lines and
C column lines `k len r g b len r g b ...` (k blocks; `0` = empty). The background white is implicit
(palette index 0); a listed `#ffffff` is a separate foreground colour, as in the original program.
Black-and-white variant: `R C`, then lines `k len len ...`. Blank lines are ignored.
"""

from __future__ import annotations

from ...lab.errors import InputError
from ..model import BW_PALETTE, MAX_COLORS, MAX_SIDE, Clue, Puzzle, check_puzzle, parse_hex
from ._text import numbered_lines, to_int


def _clue_line(tokens: list[str], ln: int, path, colour_of: dict | None) -> Clue:
    if len(tokens) > 1 + 4 * MAX_SIDE:
        raise InputError(f"{len(tokens)} numbers in one line; a line has at most {MAX_SIDE} cells", path, ln)
    nums = [to_int(t, path, ln) for t in tokens]
    k = nums[0]
    per = 1 if colour_of is None else 4
    if len(nums) != 1 + per * k:
        raise InputError(f"line says {k} blocks, so it needs {1 + per * k} numbers; it has {len(nums)}", path, ln)
    out: Clue = []
    for b in range(k):
        n = nums[1 + per * b]
        if n <= 0:
            raise InputError(f"block {b + 1} has length {n}; lengths must be positive", path, ln)
        colour = 1
        if colour_of is not None:
            r, g, bl = nums[2 + per * b: 5 + per * b]
            if max(r, g, bl) > 255:
                raise InputError(f"colour ({r} {g} {bl}) is not an RGB triple", path, ln)
            key = f"#{r:02x}{g:02x}{bl:02x}"
            if key not in colour_of:
                raise InputError(f"block colour {key} is not in the palette at the top of the file", path, ln)
            colour = colour_of[key]
        out.append((n, colour))
    return out


def parse(text: str, path, stem: str) -> list[Puzzle]:
    lines = [(ln, t.split()) for ln, t in numbered_lines(text) if t.strip()]
    if not lines:
        raise InputError("empty file", path, 1)
    pos = 0
    ln, toks = lines[pos]
    colour_of = None
    palette = list(BW_PALETTE)
    if len(toks) == 1:  # colour variant
        count = to_int(toks[0], path, ln, "number of colours", maximum=MAX_COLORS)
        if count < 1:
            raise InputError("the palette needs at least one colour", path, ln)
        palette = ["#ffffff"]
        colour_of = {}
        for k in range(count):
            pos += 1
            if pos >= len(lines):
                raise InputError(f"file ends inside the palette ({k} of {count} colours)", path, ln)
            cl, ct = lines[pos]
            hexed = parse_hex(ct[0]) if len(ct) == 1 and ct[0].startswith("#") else None
            if hexed is None:
                raise InputError(f"expected a colour #rrggbb (palette entry {k + 1} of {count})", path, cl)
            if hexed in colour_of:
                raise InputError(f"colour {hexed} is listed twice", path, cl)
            colour_of[hexed] = len(palette)
            palette.append(hexed)
        pos += 1
    elif len(toks) != 2:
        raise InputError("expected the number of colours, or `rows columns` for the black-and-white variant", path, ln)
    if pos >= len(lines):
        raise InputError("file ends before the size line `rows columns`", path, ln)
    ln, toks = lines[pos]
    if len(toks) != 2:
        raise InputError("expected the size line `rows columns`", path, ln)
    height, width = to_int(toks[0], path, ln, "row count"), to_int(toks[1], path, ln, "column count")
    pos += 1
    clues: list[Clue] = []
    for k in range(height + width):
        if pos + k >= len(lines):
            raise InputError(f"file ends after {k} of {height + width} clue lines ({height} rows + {width} columns)",
                             path, lines[-1][0])
        cl, ct = lines[pos + k]
        clues.append(_clue_line(ct, cl, path, colour_of))
    if pos + height + width < len(lines):
        raise InputError(f"unexpected data after the {height} row and {width} column clues", path,
                         lines[pos + height + width][0])
    p = Puzzle(name=stem, rows=clues[:height], cols=clues[height:], palette=palette, format="pzl")
    return [check_puzzle(p, path, 1)]
