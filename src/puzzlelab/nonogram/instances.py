"""The parse step: every puzzle file of a corpus read, checked and written into one canonical
instance file (`formats.instance`, in the order `bench` reads them) that the solve and reference
jobs read; a file that cannot be read becomes a `path,line,reason` row instead, so one malformed
corpus file does not stop a workflow."""

from __future__ import annotations

from pathlib import Path

from ..lab import unreadable as unreadable_list
from ..lab.atomic import atomic_write
from .experiments import each_file
from .formats import instance


def parse(paths: list[str], out: str | Path, unreadable: str | Path | None = None, fmt: str | None = None,
          limit: int | None = None) -> dict:
    """Write the canonical instances of `paths` (files or folders) to `out`; the first `limit` files
    and puzzles only, counted as `bench --limit` counts them. Without `unreadable`, the first
    unreadable file is the error."""
    puzzles, bad, seen = [], [], 0
    for spec, got, err in each_file(paths, fmt):
        if limit is not None and seen >= limit:
            break
        if err is not None:
            if unreadable is None:
                raise err
            bad.append(unreadable_list.row(err, err.path or spec))
            seen += 1
            continue
        take = got if limit is None else got[: limit - seen]
        puzzles += take
        seen += len(take)
    atomic_write(out, instance.write(puzzles))
    if unreadable is not None:
        unreadable_list.write_rows(unreadable, bad)
    return {"puzzles": len(puzzles), "unreadable": len(bad), "out": str(out)}
