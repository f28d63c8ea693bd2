"""The parse steps' record of inputs they could not read: a `path,line,reason` CSV per parsed input
(a header alone when it was read), gathered into the report's "unreadable inputs" table, and the
marker an unreadable instance file carries so that later steps can say so instead of failing."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from .atomic import atomic_write
from .errors import InputError

COLUMNS = ["path", "line", "reason"]
MARKER = "unreadable: "  # an instance file whose first line is `<comment>unreadable: PATH:LINE: reason`


def row(err: InputError, label: str) -> list:
    """One `path,line,reason` row (the path as the configuration names it)."""
    return [label, "" if err.line is None else err.line, err.message]


def table(rows: list[list]) -> str:
    """The CSV text: the header, then the rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return out.getvalue()


def write(path: str | Path, err: InputError | None = None, label: str = "") -> None:
    """The list of one parsed input: a row for `err`, or the header alone."""
    atomic_write(path, table([] if err is None else [row(err, label)]))


def write_rows(path: str | Path, rows: list[list]) -> None:
    atomic_write(path, table(rows))


def describe(err: InputError, label: str) -> str:
    """`LABEL:LINE: reason` of an unreadable input (located as InputError locates it)."""
    return str(InputError(err.message, label, err.line))


def marker_of(path: str | Path, comment: str) -> str | None:
    """The reason recorded in an instance file the parse step marked unreadable, else None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            first = f.readline()
    except OSError:
        return None
    head = comment + MARKER
    return first[len(head):].rstrip("\n") if first.startswith(head) else None
