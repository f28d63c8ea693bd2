"""Small helpers the text parsers share: reading a file, numbered lines, numbers and clues with their line.

Every number a reader takes from a file goes through `to_int`, which rejects anything that is not a
plain decimal number or is larger than the reader allows (by default the longest line a puzzle may
have), before Python turns it into an int: no 10,000-digit integers, no sizes past any sane puzzle.
"""

from __future__ import annotations

import re

from ...lab.errors import InputError, quote
from ...lab.textio import read_text as _read_text
from ..model import MAX_SIDE, Clue

_INT = re.compile(r"[0-9]+")


def read_text(path) -> str:
    """A puzzle file as text (UTF-8, with Latin-1 as a fallback for old files); failures are located."""
    return _read_text(path, what="nonogram file", latin1_fallback=True)


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, line without its end of line) for every line."""
    return [(i + 1, line.rstrip("\r")) for i, line in enumerate(text.split("\n"))]


def to_int(token: str, path, line: int | None, what: str = "number", maximum: int = MAX_SIDE) -> int:
    """A non-negative decimal number of at most `maximum`; anything else is an InputError at its line."""
    if not _INT.fullmatch(token):
        raise InputError(f"expected a {what}, found {quote(token)}", path, line)
    if len(token.lstrip("0")) > len(str(maximum)) or int(token) > maximum:
        raise InputError(f"{what} {quote(token)} is more than {maximum}, the most this reader allows", path, line)
    return int(token)


def int_clue(tokens: list[str], path, line: int | None) -> Clue:
    """Plain black-and-white clue: lengths; a single 0 (or nothing) is an empty line."""
    if len(tokens) > MAX_SIDE:
        raise InputError(f"{len(tokens)} blocks in one line; a line has at most {MAX_SIDE} cells", path, line)
    values = [to_int(t, path, line, "block length") for t in tokens]
    if values == [0]:
        return []
    if 0 in values:
        raise InputError("block length 0 is only allowed alone, for an empty line", path, line)
    return [(v, 1) for v in values]


def check_count(what: str, count: int, path, line: int | None, maximum: int = MAX_SIDE) -> None:
    """A count of rows or columns read from the number of lines a file has, within the stated maximum."""
    if count > maximum:
        raise InputError(f"{count} {what} is more than {maximum}, the most a nonogram may have", path, line)


def expect_count(what: str, got: int, want: int, path, line: int) -> None:
    if got != want:
        raise InputError(f"expected {want} {what}, found {got}", path, line)
