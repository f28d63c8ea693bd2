"""Mirek Olšák's `.g` format (colour), as exported by webpbn and read by pbnsolve.

Free text until a line `#d`, then colour declarations `x:y  name-or-#rrggbb` (`x` is the suffix used
in clues, `y` the character to draw; `0:` redefines the background, `1:` is the colour of blocks
without a suffix), ended by a line starting with `:`. Then one row clue per line (`3b 1y 5r`) until
a line starting with `:`, then the column clues until the next `:` or the end of the file. Without
`#d` the puzzle is black and white. Triangle colours (`a/b`) are not supported.
"""

from __future__ import annotations

import re

from ...lab.errors import InputError, quote
from ..model import MAX_SIDE, Clue, Puzzle, check_puzzle, color_from_name
from ._text import check_count, numbered_lines, to_int

_BLOCK = re.compile(r"^([0-9]+)(\S?)$")


def parse(text: str, path, stem: str) -> list[Puzzle]:
    lines = numbered_lines(text)
    while lines and not lines[-1][1].strip():  # trailing blank lines are not empty columns
        lines.pop()
    if not lines:
        raise InputError("empty file", path, 1)
    pos = 0
    palette = ["#ffffff", "#000000"]
    suffix: dict[str, int] = {}
    default = 1
    declared = False
    while pos < len(lines):  # preamble: until `#d` or the first `:`
        ln, t = lines[pos]
        if t.startswith(":"):
            break
        if t.strip().lower().startswith("#t"):
            raise InputError("triddlers (`#t`) are not supported", path, ln)
        pos += 1
        if t.strip().lower() == "#d" or t.lower().startswith("#d"):
            declared = True
            palette = ["#ffffff"]
            default = 0
            while pos < len(lines) and not lines[pos][1].lstrip().startswith(":"):
                cl, ct = lines[pos]
                pos += 1
                if not ct.strip():
                    continue
                m = re.match(r"^\s*(\S):(.)\s*(\S+)", ct)
                if not m:
                    raise InputError("bad colour declaration: expected `x:y  name` (e.g. `r:r  red`)", path, cl)
                key, desc = m.group(1), m.group(3)
                if "/" in desc or "\\" in desc:
                    raise InputError(f"triangle colour {quote(desc)} is not supported", path, cl)
                hexed = color_from_name(desc)
                if hexed is None:
                    raise InputError(f"unknown colour {quote(desc)}: use a colour name or #rrggbb", path, cl)
                if key == "0":
                    palette[0] = hexed
                    continue
                if key in suffix:
                    raise InputError(f"colour {quote(key)} is declared twice", path, cl)
                suffix[key] = len(palette)
                palette.append(hexed)
                if key == "1":
                    default = suffix[key]
            break
    if pos >= len(lines):
        raise InputError("no clues found: expected a line starting with `:` before the row clues", path, lines[-1][0])
    if not declared:
        suffix = {}
    pos += 1  # the `:` line
    sections: list[list[Clue]] = []
    starts: list[int] = []
    while len(sections) < 2:
        clues: list[Clue] = []
        starts.append(lines[pos][0] if pos < len(lines) else lines[-1][0])
        while pos < len(lines) and not lines[pos][1].lstrip().startswith(":"):
            ln, t = lines[pos]
            pos += 1
            clue: Clue = []
            tokens = t.split()
            if len(tokens) > MAX_SIDE:
                raise InputError(f"{len(tokens)} blocks in one line; a line has at most {MAX_SIDE} cells", path, ln)
            for tok in tokens:
                m = _BLOCK.match(tok)
                if not m:
                    raise InputError(f"bad block {quote(tok)}: expected a length with an optional colour suffix",
                                     path, ln)
                n, ch = to_int(m.group(1), path, ln, "block length"), m.group(2)
                if ch:
                    if ch not in suffix:
                        raise InputError(f"block {quote(tok)} uses colour {quote(ch)}, which is not declared", path, ln)
                    colour = suffix[ch]
                else:
                    if default == 0:
                        raise InputError(f"block {quote(tok)} has no colour suffix and no default colour (`1:`) "
                                         "is declared", path, ln)
                    colour = default
                if n == 0:
                    if len(t.split()) == 1:
                        continue
                    raise InputError("block length 0 is only allowed alone, for an empty line", path, ln)
                clue.append((n, colour))
            clues.append(clue)
            check_count("lines in a section", len(clues), path, ln)
        sections.append(clues)
        if pos >= len(lines) and len(sections) < 2:
            raise InputError("file ends after the row clues: expected `:` and the column clues", path, lines[-1][0])
        pos += 1
    # Drop colours that no clue uses (keeps palettes minimal and indices dense).
    used = sorted({c for sec in sections for clue in sec for _, c in clue})
    remap = {c: i + 1 for i, c in enumerate(used)}
    palette = [palette[0]] + [palette[c] for c in used]
    rows = [[(n, remap[c]) for n, c in clue] for clue in sections[0]]
    cols = [[(n, remap[c]) for n, c in clue] for clue in sections[1]]
    if len(palette) < 2:
        palette.append("#000000")
    return [check_puzzle(Puzzle(name=stem, rows=rows, cols=cols, palette=palette, format="g"), path, starts[0])]
