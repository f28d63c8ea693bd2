"""webpbn's XML format (pbn-0.3.dtd), black-and-white and colour; one file may hold many puzzles.

`<puzzle defaultcolor="black" backgroundcolor="white">` with `<color name char>RRGGBB</color>`,
`<clues type="rows|columns"><line><count color="red">3</count>...</line>` and optionally the goal as
`<solution type="goal"><image>|..X*|...</image>`. Parsed with expat so that errors carry line numbers.
"""

from __future__ import annotations

import xml.parsers.expat
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from ...lab.errors import InputError, quote
from ..model import MAX_COLORS, MAX_SIDE, Clue, Puzzle, check_puzzle, color_from_name, parse_hex
from ._text import check_count, to_int


@dataclass
class _Node:
    tag: str
    attrs: dict
    line: int
    children: list = field(default_factory=list)
    text: str = ""

    def find_all(self, tag: str) -> list[_Node]:
        return [c for c in self.children if c.tag == tag]

    def find(self, tag: str) -> _Node | None:
        for c in self.children:
            if c.tag == tag:
                return c
        return None


def _tree(text: str, path) -> _Node:
    parser = xml.parsers.expat.ParserCreate()
    root = _Node("#document", {}, 1)
    stack = [root]

    def start(tag, attrs):
        node = _Node(tag, dict(attrs), parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(tag):
        stack.pop()

    def chars(data):
        stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text.encode("utf-8"), True)
    except xml.parsers.expat.ExpatError as err:
        raise InputError(f"not well-formed XML: {xml.parsers.expat.ErrorString(err.code)}", path, err.lineno) from None
    return root


def _puzzle(node: _Node, path, name: str) -> Puzzle:
    default_name = node.attrs.get("defaultcolor", "black")
    background_name = node.attrs.get("backgroundcolor", "white")
    declared: dict[str, tuple[str, str, int]] = {}  # name -> (hex, char, line)
    for c in node.find_all("color"):
        cname = c.attrs.get("name")
        if not cname:
            raise InputError("<color> without a name", path, c.line)
        hexed = parse_hex(c.text) or color_from_name(c.text or cname)
        if hexed is None:
            raise InputError(f"colour {quote(cname)}: cannot read {quote(c.text.strip())} as RRGGBB", path, c.line)
        declared[cname] = (hexed, c.attrs.get("char", ""), c.line)
        if len(declared) > MAX_COLORS + 2:
            raise InputError(f"more than {MAX_COLORS} colours declared", path, c.line)
    for builtin, hexed in (("white", "#ffffff"), ("black", "#000000")):
        declared.setdefault(builtin, (hexed, "." if builtin == "white" else "X", node.line))
    if background_name not in declared:
        raise InputError(f"backgroundcolor {quote(background_name)} is not declared", path, node.line)
    if default_name not in declared:
        raise InputError(f"defaultcolor {quote(default_name)} is not declared", path, node.line)
    # Palette: background first, then the default colour, then the others in order of declaration.
    order = [background_name] + [n for n in [default_name] + list(declared) if n != background_name]
    order = list(dict.fromkeys(order))
    index = {n: i for i, n in enumerate(order)}
    used = set()

    clues: dict[str, list[Clue]] = {}
    for cl in node.find_all("clues"):
        kind = cl.attrs.get("type")
        if kind not in ("rows", "columns"):
            raise InputError(f"<clues type={quote(kind or '')}>: expected rows or columns", path, cl.line)
        lines: list[Clue] = []
        for ln in cl.find_all("line"):
            clue: Clue = []
            counts = ln.find_all("count")
            if len(counts) > MAX_SIDE:
                raise InputError(f"{len(counts)} blocks in one line; a line has at most {MAX_SIDE} cells",
                                 path, ln.line)
            for cnt in counts:
                cname = cnt.attrs.get("color", default_name)
                if cname not in index:
                    raise InputError(f"count uses colour {quote(cname)}, which is not declared", path, cnt.line)
                n = to_int(cnt.text.strip(), path, cnt.line, "block length")
                if n == 0:
                    raise InputError("count 0: a block has at least one cell", path, cnt.line)
                if index[cname] == 0:
                    raise InputError(f"count in the background colour {quote(cname)}", path, cnt.line)
                clue.append((n, index[cname]))
                used.add(cname)
            lines.append(clue)
            check_count(f"lines in <clues type={kind}>", len(lines), path, ln.line)
        clues[kind] = lines
    for kind in ("rows", "columns"):
        if kind not in clues:
            raise InputError(f"puzzle has no <clues type=\"{kind}\">", path, node.line)
    # Keep only colours that are used (webpbn declares white/black even for pure colour puzzles).
    keep = [order[0]] + [n for n in order[1:] if n in used]
    if len(keep) == 1:
        keep.append(default_name)
    remap = {index[n]: i for i, n in enumerate(keep)}
    palette = [declared[n][0] for n in keep]
    rows = [[(n, remap[c]) for n, c in clue] for clue in clues["rows"]]
    cols = [[(n, remap[c]) for n, c in clue] for clue in clues["columns"]]

    goal = None
    for sol in node.find_all("solution"):
        if sol.attrs.get("type", "goal") != "goal":
            continue
        img = sol.find("image")
        if img is None:
            continue
        by_char = {declared[n][1]: remap[index[n]] for n in order if declared[n][1] and index[n] in remap}
        by_char.setdefault(declared[background_name][1] or ".", 0)
        grid = []
        for k, raw in enumerate(x.strip() for x in img.text.strip().splitlines()):
            row = raw.strip("|")
            vals = []
            for ch in row:
                if ch not in by_char:
                    raise InputError(f"goal image uses an unknown colour character {quote(ch)}", path,
                                     img.line + k + 1)
                vals.append(by_char[ch])
            grid.append(vals)
        if len({len(r) for r in grid}) != 1:
            raise InputError("goal image rows have different lengths", path, img.line)
        goal = np.array(grid, dtype=np.int8)
    title = node.find("title")
    note = node.find("note")
    p = Puzzle(name=name, rows=rows, cols=cols, palette=palette, goal=goal, format="xml",
               note=" / ".join(x.text.strip() for x in (title, note) if x is not None),
               title=title.text.strip() if title is not None else "")
    return check_puzzle(p, path, node.line)


def parse(text: str, path, stem: str) -> list[Puzzle]:
    root = _tree(text, path)
    top = root.children[0] if root.children else None
    if top is None:
        raise InputError("no XML element found", path, 1)
    puzzles = [top] if top.tag == "puzzle" else top.find_all("puzzle")
    if not puzzles:
        raise InputError(f"<{top.tag}> holds no <puzzle>", path, top.line)
    if len(puzzles) == 1:
        return [_puzzle(puzzles[0], path, stem)]
    return [_puzzle(node, path, f"{stem}#{k + 1}") for k, node in enumerate(puzzles)]


def write(p: Puzzle) -> str:
    """The puzzle as webpbn XML (what pbnsolve reads natively, colour included)."""
    names = ["white", "black"] if p.is_bw else ["white"] + [f"c{i}" for i in range(1, p.ncolors)]
    chars = ".X" + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[: max(0, p.ncolors - 2)]
    out = ['<?xml version="1.0"?>', "<puzzleset>",
           f"<puzzle type=\"grid\" defaultcolor={quoteattr(names[1])} backgroundcolor=\"white\">",
           f"<title>{escape(p.title or p.name)}</title>"]
    for i in range(p.ncolors):
        out.append(f"<color name={quoteattr(names[i])} char={quoteattr(chars[i])}>"
                   f"{escape(p.palette[i].lstrip('#').upper())}</color>")
    for kind, lines in (("columns", p.cols), ("rows", p.rows)):
        out.append(f'<clues type="{kind}">')
        for clue in lines:
            counts = "".join(f"<count color={quoteattr(names[c])}>{n}</count>" for n, c in clue)
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    if p.goal is not None:
        out.append('<solution type="goal"><image>')
        out += ["|" + escape("".join(chars[v] for v in row)) + "|" for row in np.asarray(p.goal).tolist()]
        out.append("</image></solution>")
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
