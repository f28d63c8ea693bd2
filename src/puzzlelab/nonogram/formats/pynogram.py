"""tsionyx's formats: pynogram's INI-like text (`.txt`) and nonogrid's TOML variant (`.toml`).

`[clues]` holds `columns =` and `rows =`, whose values list one clue per item, items separated by
commas and/or new lines (quotes allowed, `#`/`;` start comments, `0` is an empty line). `[colors]`
defines `name = (desc) char` where desc is an SVG colour name, `(r, g, b)` or `RRGGBB`; a block `2g`
has colour `g`, a bare `2` is black.
"""

from __future__ import annotations

import re

from ...lab.errors import InputError, quote
from ..model import MAX_COLORS, MAX_SIDE, Clue, Puzzle, check_puzzle, color_from_name
from ._text import numbered_lines, to_int

_BLOCK = re.compile(r"^([0-9]+)([A-Za-z_][\w-]*)?$")


def _strip_comment(t: str) -> str:
    out, quote = [], None
    for ch in t:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "#;":
            break
        out.append(ch)
    return "".join(out)


def _items(value_lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Split a value into (line, item) at commas and line ends; blank items are skipped."""
    items = []
    for ln, t in value_lines:
        t = _strip_comment(t)
        for part in re.split(r",", t):
            part = part.strip().strip("'\"").strip()
            if part:
                items.append((ln, part))
    return items


def _clues(items: list[tuple[int, str]], colours: dict[str, int], path) -> list[Clue]:
    out = []
    if len(items) > MAX_SIDE:
        raise InputError(f"more than {MAX_SIDE} clues for one side; a side has at most {MAX_SIDE} cells", path,
                         items[MAX_SIDE][0])
    for ln, item in items:
        clue: Clue = []
        toks = item.split()
        if len(toks) > MAX_SIDE:
            raise InputError(f"{len(toks)} blocks in one line; a line has at most {MAX_SIDE} cells", path, ln)
        for tok in toks:
            m = _BLOCK.match(tok)
            if not m:
                raise InputError(f"bad block {quote(tok)}: expected a length with an optional colour name (e.g. 2g)",
                                 path, ln)
            n, name = to_int(m.group(1), path, ln, "block length"), m.group(2)
            if n == 0:
                if len(toks) == 1:
                    continue
                raise InputError("block length 0 is only allowed alone, for an empty line", path, ln)
            if name is None:
                colour = colours.setdefault("black", len(colours) + 1) if "black" not in colours else colours["black"]
            else:
                if name not in colours:
                    raise InputError(f"block {quote(tok)} uses colour {quote(name)}, which [colors] does not define",
                                     path, ln)
                colour = colours[name]
            clue.append((n, colour))
        out.append(clue)
    return out


def _colour_defs(items: list[tuple[int, str]], path) -> tuple[dict[str, int], list[str]]:
    index: dict[str, int] = {}
    palette = ["#ffffff"]
    for ln, item in items:
        m = re.match(r"^\s*([\w-]+)\s*=\s*(\([^)]*\)|\S+)\s*(\S)?\s*$", item)
        if not m:
            raise InputError(f"bad colour definition {quote(item)}: expected `name = (desc) char`", path, ln)
        name, desc = m.group(1), m.group(2)
        hexed = color_from_name(desc)
        if hexed is None:
            raise InputError(f"colour {quote(name)}: cannot read {quote(desc)} (SVG name, (r, g, b) or RRGGBB)",
                             path, ln)
        if name not in index and len(index) >= MAX_COLORS:
            raise InputError(f"more than {MAX_COLORS} colours defined", path, ln)
        index[name] = len(palette)
        palette.append(hexed)
    return index, palette


def _build(sections: dict[str, dict[str, list[tuple[int, str]]]], path, stem: str, fmt: str, first: int) -> Puzzle:
    clues = sections.get("clues")
    if clues is None:
        raise InputError("no [clues] section", path, first)
    for key in ("columns", "rows"):
        if key not in clues:
            raise InputError(f"[clues] has no `{key} =`", path, first)
    colour_items = sections.get("colors", {}).get("defs", [])
    if not colour_items:
        colour_items = [(v[0][0], f"{k} = {v[0][1]}") for k, v in sections.get("colors", {}).items() if v]
    index, palette = _colour_defs(colour_items, path)
    colours = dict(index)
    cols = _clues(_items(clues["columns"]), colours, path)
    rows = _clues(_items(clues["rows"]), colours, path)
    if "black" in colours and "black" not in index:
        palette.append("#000000")
    # Keep used colours only, in order of definition.
    used = sorted({c for line in rows + cols for _, c in line})
    remap = {c: i + 1 for i, c in enumerate(used)}
    palette = [palette[0]] + [palette[c] for c in used]
    if len(palette) < 2:
        palette.append("#000000")
    rows = [[(n, remap[c]) for n, c in line] for line in rows]
    cols = [[(n, remap[c]) for n, c in line] for line in cols]
    return check_puzzle(Puzzle(name=stem, rows=rows, cols=cols, palette=palette, format=fmt), path, first)


def parse(text: str, path, stem: str) -> list[Puzzle]:
    """pynogram's INI-like text."""
    sections: dict[str, dict[str, list[tuple[int, str]]]] = {}
    current: dict[str, list[tuple[int, str]]] | None = None
    key = None
    first = 1
    for ln, raw in numbered_lines(text):
        stripped = raw.strip()
        if not stripped or stripped[0] in "#;":
            continue
        m = re.match(r"^\[([^\]]+)\]\s*(?:[#;].*)?$", stripped)
        if m and not raw[0].isspace():
            current = sections.setdefault(m.group(1).strip().lower(), {})
            key = None
            first = ln
            continue
        if current is None:
            raise InputError("text before the first [section]", path, ln)
        kv = re.match(r"^([\w-]+)\s*[=:]\s*(.*)$", raw) if not raw[0].isspace() else None
        if current is sections.get("colors"):
            kv = kv or re.match(r"^\s*([\w-]+)\s*=\s*(.*)$", raw)
            if not kv:
                raise InputError(f"bad colour definition {quote(stripped)}: expected `name = (desc) char`", path, ln)
            current.setdefault("defs", []).append((ln, f"{kv.group(1)} = {_strip_comment(kv.group(2))}"))
            key = None
            continue
        if kv:
            key = kv.group(1).lower()
            current[key] = [(ln, kv.group(2))]
            continue
        if key is None:
            raise InputError(f"unexpected line {quote(stripped)}: expected `key = value`", path, ln)
        current[key].append((ln, raw))
    return [_build(sections, path, stem, "pynogram", first)]


def parse_toml(text: str, path, stem: str) -> list[Puzzle]:
    """nonogrid's TOML variant: the same values as TOML strings (`columns = \"\"\"...\"\"\"`)."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"line ([0-9]{1,9})", str(err))
        raise InputError(f"not valid TOML: {err}", path, int(m.group(1)) if m else None) from None
    except (ValueError, RecursionError) as err:  # a number too long to convert, nesting too deep
        raise InputError(f"not valid TOML: {err}", path) from None
    lines = text.split("\n")

    def line_of(key: str) -> int:
        for k, t in enumerate(lines):
            if re.match(rf"^\s*{re.escape(key)}\s*=", t):
                return k + 1
        return 1

    sections: dict[str, dict[str, list[tuple[int, str]]]] = {}
    if "clues" not in data:
        raise InputError("no [clues] table", path, 1)
    clues = data["clues"]
    colors = data.get("colors", {})
    if not isinstance(clues, dict):
        raise InputError("`clues` must be a table with `columns` and `rows`", path, line_of("clues"))
    if not isinstance(colors, dict) or not isinstance(colors.get("defs", []), list):
        raise InputError("`colors` must be a table with a list `defs`", path, line_of("colors"))
    sections["clues"] = {}
    for key in ("columns", "rows"):
        if key in clues:
            value = clues[key]
            if isinstance(value, list):
                value = "\n".join(str(v) for v in value)
            base = line_of(key)
            sections["clues"][key] = [(base + k, t) for k, t in enumerate(str(value).split("\n"))]
    defs = colors.get("defs", [])
    sections["colors"] = {"defs": [(line_of("defs"), str(d)) for d in defs]}
    return [_build(sections, path, stem, "toml", line_of("columns"))]
