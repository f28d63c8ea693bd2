"""Small helpers the text parsers share: numbered lines and clue tokens with their line number."""

from __future__ import annotations

import re

from ...lab.errors import InputError
from ..model import Clue

_INT = re.compile(r"^\d+$")


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, line without its end of line) for every line."""
    return [(i + 1, line.rstrip("\r")) for i, line in enumerate(text.split("\n"))]


def read_text(path) -> str:
    """A puzzle file as text (UTF-8, with Latin-1 as a fallback for old files)."""
    with open(path, "rb") as fh:
        raw = fh.read()
    if b"\x00" in raw[:4096]:
        raise InputError("this is a binary file, not a nonogram description", path, 1)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def to_int(token: str, path, line: int, what: str = "number") -> int:
    if not _INT.match(token):
        raise InputError(f"expected a {what}, found {token!r}", path, line)
    return int(token)


def int_clue(tokens: list[str], path, line: int) -> Clue:
    """Plain black-and-white clue: lengths; a single 0 (or nothing) is an empty line."""
    values = [to_int(t, path, line, "block length") for t in tokens]
    if values == [0]:
        return []
    if 0 in values:
        raise InputError("block length 0 is only allowed alone, for an empty line", path, line)
    return [(v, 1) for v in values]


def expect_count(what: str, got: int, want: int, path, line: int) -> None:
    if got != want:
        raise InputError(f"expected {want} {what}, found {got}", path, line)
