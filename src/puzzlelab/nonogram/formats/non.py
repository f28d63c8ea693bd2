"""Steve Simpson's `.non` format as webpbn exports it, with the extensions of mikix/nonogram-db.

Keys one per line (`width 5`, `height 10`, `rows`, `columns`, `goal "0110..."`, `color a #ff0000`);
after `rows`/`columns` come one clue line per row/column (`2,1`; colour blocks `3a,1b`; `0` or a
blank line is an empty line). Unknown keys are ignored, as the format asks. Several puzzles may be
bundled in one file separated by a line `====` (`.nonpack`); `file#N` picks the N-th.
"""

from __future__ import annotations

import html
import re

import numpy as np

from ...lab.errors import InputError, quote
from ..model import MAX_SIDE, Clue, Puzzle, check_puzzle, parse_hex
from ._text import numbered_lines, to_int

_CLUE_TOKEN = re.compile(r"^([0-9]+)([A-Za-z]?)\S*$")
_KEY = re.compile(r"^\s*([A-Za-z_]+)\b\s*(.*?)\s*$")


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def _clue(text: str, chars: dict[str, int], path, line: int) -> Clue:
    text = text.strip()
    if not text:
        return []
    out: Clue = []
    tokens = [t for t in re.split(r"[,\s]+", text) if t]
    if len(tokens) > MAX_SIDE:
        raise InputError(f"{len(tokens)} blocks in one line; a line has at most {MAX_SIDE} cells", path, line)
    for tok in tokens:
        m = _CLUE_TOKEN.match(tok)
        if not m:
            raise InputError(f"bad clue {quote(tok)}: expected a block length with an optional colour letter",
                             path, line)
        n, ch = to_int(m.group(1), path, line, "block length"), m.group(2)
        colour = 1
        if ch:
            if ch not in chars:
                chars[ch] = -1  # resolved after all colour keys are read
            colour = ch  # type: ignore[assignment]
        out.append((n, colour))
    if [b[0] for b in out] == [0]:
        return []
    if any(b[0] == 0 for b in out):
        raise InputError("block length 0 is only allowed alone, for an empty line", path, line)
    return out


def _parse_one(lines: list[tuple[int, str]], path, name: str) -> Puzzle:
    width = height = None
    rows: list[Clue] | None = None
    cols: list[Clue] | None = None
    goal_text = None
    goal_line = None
    colors: dict[str, str] = {}  # char -> hex
    used_chars: dict[str, int] = {}
    title = ""
    i = 0
    first_line = lines[0][0] if lines else 1
    while i < len(lines):
        ln, text = lines[i]
        i += 1
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        m = _KEY.match(text)
        if not m:
            continue  # unknown lines are ignored by the format's rules
        key, value = m.group(1).lower(), m.group(2)
        if key in ("width", "height"):
            v = to_int(value.split()[0] if value else "", path, ln, f"{key} (a positive integer)")
            if v <= 0:
                raise InputError(f"{key} must be positive", path, ln)
            if key == "width":
                width = v
            else:
                height = v
        elif key == "title":
            title = html.unescape(_unquote(value))
        elif key == "color":
            parts = value.split()
            if len(parts) < 2 or len(parts[0]) != 1:
                raise InputError("expected `color <letter> #rrggbb`", path, ln)
            hexed = parse_hex(parts[1])
            if hexed is None:
                raise InputError(f"bad colour {quote(parts[1])}: expected #rrggbb", path, ln)
            colors[parts[0]] = hexed
        elif key in ("rows", "columns"):
            count = height if key == "rows" else width
            if count is None:
                raise InputError(f"`{key}` comes before `{'height' if key == 'rows' else 'width'}`", path, ln)
            clues: list[Clue] = []
            while len(clues) < count:
                if i >= len(lines):
                    raise InputError(f"file ends after {len(clues)} of {count} {key} clues", path, ln)
                cl, ctext = lines[i]
                i += 1
                if _KEY.match(ctext) and not re.match(r"^\s*\d", ctext) and ctext.strip():
                    raise InputError(f"expected {count} {key} clues, found {len(clues)} before this line", path, cl)
                clues.append(_clue(ctext, used_chars, path, cl))
            if key == "rows":
                rows = clues
            else:
                cols = clues
        elif key == "goal":
            goal_text, goal_line = _unquote(value), ln
            if not goal_text and width and height:  # pbnsolve's variant: the image on the next lines
                while (i < len(lines) and len(goal_text) < width * height
                       and re.match(r"^\s*[0-9A-Za-z.]+\s*$", lines[i][1])):
                    goal_text += lines[i][1].strip()
                    i += 1
    if width is None or height is None or rows is None or cols is None:
        missing = [k for k, v in (("width", width), ("height", height), ("rows", rows), ("columns", cols)) if v is None]
        raise InputError(f"missing {', '.join(missing)} (required keys of the .non format)", path, first_line)
    # Palette: background, the default black (when a block or the goal uses it), then each colour
    # letter in order of definition, then letters used without a definition.
    default_used = any(isinstance(c, int) for cl in rows + cols for _, c in cl) or (
        goal_text is not None and "1" in goal_text)
    palette = ["#ffffff"] + (["#000000"] if default_used else [])
    index: dict[str, int] = {}
    default_hex = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45"]
    for ch in list(colors) + [c for c in used_chars if c not in colors]:
        index[ch] = len(palette)
        palette.append(colors.get(ch, default_hex[(len(palette) - 2) % len(default_hex)]))
    if len(palette) == 1:
        palette.append("#000000")

    def resolve(clue: Clue) -> Clue:
        return [(n, index[c] if isinstance(c, str) else c) for n, c in clue]

    rows = [resolve(c) for c in rows]
    cols = [resolve(c) for c in cols]
    goal = None
    if goal_text is not None:
        cells = [ch for ch in goal_text if not ch.isspace()]
        if len(cells) != width * height:
            raise InputError(f"goal has {len(cells)} cells, expected {width}x{height} = {width * height}",
                             path, goal_line)
        vals = []
        for ch in cells:
            if ch in "0.":
                vals.append(0)
            elif ch == "1" and default_used:
                vals.append(1)
            elif ch in index:
                vals.append(index[ch])
            else:
                raise InputError(f"goal uses an unknown colour {quote(ch)}", path, goal_line)
        goal = np.array(vals, dtype=np.int8).reshape(height, width)
    puzzle = Puzzle(name=name, rows=rows, cols=cols, palette=palette, goal=goal, format="non", note=title, title=title)
    return check_puzzle(puzzle, path, first_line)


def parse(text: str, path, stem: str) -> list[Puzzle]:
    lines = numbered_lines(text)
    chunks: list[list[tuple[int, str]]] = [[]]
    for ln, t in lines:
        if t.strip() == "====":
            chunks.append([])
        else:
            chunks[-1].append((ln, t))
    chunks = [c for c in chunks if any(t.strip() for _, t in c)]
    if not chunks:
        raise InputError("empty file", path, 1)
    if len(chunks) == 1:
        return [_parse_one(chunks[0], path, stem)]
    return [_parse_one(c, path, f"{stem}#{k + 1}") for k, c in enumerate(chunks)]


def write(p: Puzzle) -> str:
    """The puzzle as `.non` text (colour letters a, b, ... for colour puzzles)."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def ch(c: int) -> str:
        return "" if p.is_bw else letters[c - 1]

    title = html.escape(p.title or p.name, quote=True)  # the format's strings may hold HTML escapes
    out = [f'title "{title}"', f"width {p.width}", f"height {p.height}"]
    if not p.is_bw:
        out += [f"color {letters[c - 1]} {p.palette[c]}" for c in range(1, p.ncolors)]
    out.append("")
    for key, lines in (("rows", p.rows), ("columns", p.cols)):
        out.append(key)
        out += [",".join(f"{n}{ch(c)}" for n, c in clue) or "0" for clue in lines]
        out.append("")
    if p.goal is not None:
        cells = "".join("0" if v == 0 else (str(v) if p.is_bw else letters[v - 1]) for v in np.asarray(p.goal).ravel())
        out.append(f'goal "{cells}"')
    return "\n".join(out) + "\n"
