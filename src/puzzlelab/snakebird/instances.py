"""The parse step: a level file read, checked and normalised into the canonical instance file the
solve jobs read (LF line ends, no trailing empty lines). A level that cannot be read becomes an instance
carrying the reason (`; unreadable: PATH:LINE: reason`) and a `path,line,reason` row instead, so
one malformed corpus file does not stop a workflow."""

from __future__ import annotations

from pathlib import Path

from ..lab import unreadable as unreadable_list
from ..lab.atomic import atomic_write
from ..lab.errors import InputError
from ..lab.textio import read_text
from .level import parse_level

COMMENT = "; "


def canonical_text(text: str) -> str:
    """The level's text with LF line ends and its trailing empty lines removed (spaces inside a map
    row are cells: they stay, as `parse_level` reads them)."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n"


def parse(path: str | Path, out: str | Path, label: str | None = None, unreadable: str | Path | None = None) -> dict:
    """Write the canonical instance of level `path` to `out` and return its summary. With
    `unreadable`, a level that cannot be read gives a marked instance, a record saying why and a row
    in that CSV; without, the error."""
    label = str(path) if label is None else label
    try:
        text = read_text(path, what="level file")
        level = parse_level(text, path=str(path))
    except InputError as err:
        if unreadable is None:
            raise
        reason = unreadable_list.describe(err, label)
        atomic_write(out, f"{COMMENT}{unreadable_list.MARKER}{reason}\n")
        unreadable_list.write(unreadable, err, label)
        return {"level": Path(path).stem, "source": label, "unreadable": reason}
    atomic_write(out, canonical_text(text))
    if unreadable is not None:
        unreadable_list.write(unreadable)
    return {"level": level.name, "source": label, **level.summary()}


def unreadable_reason(path: str | Path) -> str | None:
    """The reason an instance file was marked unreadable by the parse step, else None."""
    return unreadable_list.marker_of(path, COMMENT)
