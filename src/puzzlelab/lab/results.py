"""Split a command's result into the reproducible artifact and the volatile measurements.

Wall-clock times, rates, memory peaks and whether a search resumed a checkpoint differ from run
to run; they go to a separate timing file that is never hashed. A key is volatile when it is
listed in VOLATILE_KEYS, ends in `_time_s`/`_per_s`, or starts with `peak_rss`/`time_`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from . import canonical

VOLATILE_KEYS = {"time_s", "peak_rss_bytes", "wall_s", "cpu_s", "threads_used", "resumed_from_depth"}


def timing_path(artifact: str | Path) -> Path:
    """The timing file written beside an artifact: `X.json` -> `X.timing.json`, `X.csv` -> `X.timing.csv`."""
    p = Path(artifact)
    return p.with_name(p.stem + ".timing" + p.suffix)


def is_volatile(key: str) -> bool:
    return key in VOLATILE_KEYS or key.endswith(("_time_s", "_per_s")) or key.startswith(("peak_rss", "time_"))


def _holds_nothing(tree: Any) -> bool:
    """True for a volatile tree with no measurement anywhere in it (None, {}, lists of such)."""
    if isinstance(tree, list):
        return all(_holds_nothing(x) for x in tree)
    return tree is None or tree == {}


def split_volatile(obj: Any) -> tuple[Any, Any]:
    """Return (stable, volatile): the same nesting, volatile keys moved to the second tree.

    Lists keep their length in the volatile tree (entries without volatile keys become {}), so a
    timing can be matched to its row by index.
    """
    if isinstance(obj, dict):
        stable, volatile = {}, {}
        for key, value in obj.items():
            if is_volatile(str(key)):
                volatile[key] = value
                continue
            s, v = split_volatile(value)
            stable[key] = s
            if not _holds_nothing(v):
                volatile[key] = v
        return stable, volatile
    if isinstance(obj, list):
        pairs = [split_volatile(x) for x in obj]
        return [p[0] for p in pairs], [p[1] if p[1] is not None else {} for p in pairs]
    return obj, None


def emit(result: dict, *, as_json: bool, out: str | Path | None = None, timing: str | Path | None = None,
         text: str | None = None) -> None:
    """Deliver a command's result: artifact to --out, timings to --timing, JSON or text to stdout."""
    if out is not None or timing is not None:
        stable, volatile = split_volatile(result)
        if out is not None:
            canonical.write_json(out, stable)
        if timing is not None:
            canonical.write_json(timing, volatile or {})
    if as_json:
        sys.stdout.write(canonical.dumps(result, indent=1))
    elif text is not None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()
