"""Reading a user's input file as text, with every failure located and said in one line.

One reader for every parser: missing files, directories, symlink loops, files over a size limit,
binary files and invalid UTF-8 (the line of the first bad byte) all become an `InputError`.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import InputError

MAX_INPUT_BYTES = 256 << 20  # no puzzle, level or word list of ours comes near this


def read_bytes(path: str | os.PathLike, *, what: str = "input file", max_bytes: int = MAX_INPUT_BYTES) -> bytes:
    """The file's bytes; file-system problems and oversize files are InputErrors at `path`."""
    p = Path(path)
    try:
        if p.is_dir():
            raise InputError(f"is a directory, not a {what}", p)
        size = p.stat().st_size
        if size > max_bytes:
            raise InputError(f"{size} bytes is more than the {max_bytes} bytes a {what} may have", p)
        with open(p, "rb") as fh:
            return fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"no such {what}", p) from None
    except PermissionError:
        raise InputError(f"permission denied reading this {what}", p) from None
    except OSError as err:  # symlink loops, names too long, I/O errors
        raise InputError(f"cannot read this {what}: {err.strerror or err}", p) from None


def decode_utf8(raw: bytes, path: str | os.PathLike, *, what: str = "input file") -> str:
    """UTF-8 text (a leading BOM dropped); a bad byte is reported at its line and column."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(f"not UTF-8 text: byte 0x{raw[err.start]:02x} at column {column} "
                         f"(a {what} must be UTF-8)", path, line) from None


def read_text(path: str | os.PathLike, *, what: str = "input file", max_bytes: int = MAX_INPUT_BYTES,
              latin1_fallback: bool = False, allow_nul: bool = False) -> str:
    """A text input file as str; every failure is an InputError with the path (and line).

    `latin1_fallback` decodes files that are not UTF-8 as Latin-1 (old puzzle collections);
    otherwise invalid UTF-8 is an error at the line of the first bad byte.
    """
    raw = read_bytes(path, what=what, max_bytes=max_bytes)
    if not allow_nul:
        nul = raw.find(b"\x00")
        if nul >= 0:
            raise InputError(f"this is a binary file, not a {what} (NUL byte)", path, raw.count(b"\n", 0, nul) + 1)
    if latin1_fallback:
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return raw.decode("latin-1")
    return decode_utf8(raw, path, what=what)
