"""Reading nonograms in every supported format: detection by extension or content, `name#index`.

`load(spec)` returns the puzzles of a file (or the one that `path#N` / `path#id` picks); `--format`
forces a reader. Every reader raises `InputError(message, path, line)` on malformed input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ...lab.errors import InputError, quote
from ..model import Puzzle
from . import instance, non, olsak, pbnxml, plain, puzzlekit, pynogram, pzl
from ._text import read_text

Reader = Callable[[str, object, str], list[Puzzle]]

# name -> (reader, file extensions, description)
FORMATS: dict[str, tuple[Reader, tuple[str, ...], str]] = {
    "non": (non.parse, (".non", ".nonpack"), "webpbn/Simpson .non (b/w and colour; `====` bundles)"),
    "xml": (pbnxml.parse, (".xml", ".pbn"), "webpbn XML (b/w and colour, many puzzles per file)"),
    "pzl": (pzl.parse, (".pzl",), "Izaron's .pzl (colour, or the b/w variant)"),
    "nin": (plain.parse_nin, (".nin",), "Jakub Wilk's .nin (b/w)"),
    "g": (olsak.parse, (".g",), "Olšák's .g (colour)"),
    "mk": (plain.parse_mk, (".mk",), "Olšák's .mk (b/w)"),
    "keen": (plain.parse_keen, (), "Kyle Keen's text format v2 (b/w; .txt)"),
    "pynogram": (pynogram.parse, (), "pynogram's text format (colour; .txt with [clues])"),
    "toml": (pynogram.parse_toml, (".toml",), "nonogrid's TOML variant of the pynogram format"),
    "puzzlekit": (puzzlekit.parse, (".json",), "puzzlekit JSON collection (many puzzles)"),
    "tournament": (plain.parse_tournament, (), "25x25 tournament sets (TAAI/ICGA/TCGA; many puzzles)"),
    "spoj": (plain.parse_spoj, (), "SPOJ JCROSS input (b/w; many puzzles; lines end in 0)"),
    "instance": (instance.parse, (".nonjson",), "PuzzleLab's canonical instances (JSON lines; `nonogram parse`)"),
}


def sniff(text: str, path: str) -> str:
    """Guess the format from the extension, then from the content."""
    ext = Path(path).suffix.lower()
    for name, (_, exts, _) in FORMATS.items():
        if ext in exts:
            return name
    head = text.lstrip("\ufeff")
    stripped = [t.strip() for t in head.split("\n") if t.strip()]
    first = stripped[0] if stripped else ""
    if head.lstrip().startswith("<"):
        return "xml"
    if head.lstrip().startswith("{"):
        return "puzzlekit"
    if first.startswith("$"):
        return "tournament"
    if re.search(r"^\s*\[clues\]", head, re.MULTILINE):
        return "toml" if '"""' in head or re.search(r"^\s*defs\s*=", head, re.MULTILINE) else "pynogram"
    if re.search(r"^#d\s*$", head, re.MULTILINE | re.IGNORECASE):
        return "g"
    if re.search(r"^\s*(width|height)\s+\d+", head, re.MULTILINE) and re.search(r"^\s*rows\s*$", head, re.MULTILINE):
        return "non"
    if re.fullmatch(r"\d+", first) and len(stripped) > 1 and stripped[1].startswith("#"):
        return "pzl"
    if re.fullmatch(r"\d+", first) and len(stripped) > 2 and all(t.split()[-1] == "0" for t in stripped[2:6]):
        return "spoj"
    if re.fullmatch(r"\d+\s+\d+", first):
        if "#" in stripped:
            return "mk"
        if re.search(r"\S\s*\n\s*\n\s*\S", head):  # one blank line between rows and columns
            return "keen"
        return "nin"
    if (stripped and all(re.fullmatch(r"[\d\s,]*", t) for t in stripped)) or Path(path).suffix.lower() == ".txt":
        return "keen"  # its reader says which line is wrong
    raise InputError("cannot tell the format of this file; name it with --format "
                     f"({', '.join(FORMATS)})", path, 1)


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def split_spec(spec: str) -> tuple[str, str | None]:
    """'file.json#12' -> ('file.json', '12'); a path that exists as given is never split."""
    if "#" not in spec or _exists(spec):
        return spec, None
    path, _, sel = spec.rpartition("#")
    return path, sel


AUTO = "auto"  # --format auto: by extension/content, as when no format is given


def check_format(fmt: str | None) -> str | None:
    """The format to read with (None: by extension/content); an unknown --format is the user's error."""
    if fmt is None or fmt == AUTO:
        return None
    if fmt not in FORMATS:
        raise InputError(f"unknown format {quote(fmt)}; choose one of {AUTO}, {', '.join(FORMATS)}")
    return fmt


def load(spec: str, fmt: str | None = None) -> list[Puzzle]:
    """The puzzles in `spec` (a path, or `path#N` / `path#id` for one puzzle of a collection)."""
    path, sel = split_spec(str(spec))
    fmt = check_format(fmt)
    p = Path(path)
    text = read_text(p)
    if fmt is None:
        fmt = sniff(text, path)
    if not text.strip() and fmt != "instance":  # an instance file may hold no puzzle
        raise InputError("empty file", path, 1)
    reader = FORMATS[fmt][0]
    puzzles = reader(text, path, p.stem)
    for pz in puzzles:
        pz.source = path if len(puzzles) == 1 else f"{path}#{pz.name.rpartition('#')[2]}"
        pz.format = fmt
    if sel is None:
        return puzzles
    return [select(puzzles, sel, path)]


def select(puzzles: list[Puzzle], sel: str, path: str) -> Puzzle:
    for pz in puzzles:
        if "#" in pz.name and pz.name.rpartition("#")[2] == sel:
            return pz
    if re.fullmatch(r"[0-9]{1,9}", sel) and 1 <= int(sel) <= len(puzzles):
        return puzzles[int(sel) - 1]
    raise InputError(f"no puzzle {quote('#' + sel)}: the file holds {len(puzzles)} (use #1..#{len(puzzles)} or an id)",
                     path)


def load_one(spec: str, fmt: str | None = None) -> Puzzle:
    puzzles = load(spec, fmt)
    if len(puzzles) != 1:
        path = split_spec(spec)[0]
        raise InputError(f"the file holds {len(puzzles)} puzzles; pick one with {path}#N (1..{len(puzzles)})", path)
    return puzzles[0]
