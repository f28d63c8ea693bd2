"""Canonical JSON: sorted keys, fixed float format, UTF-8, one trailing newline.

Two runs that compute the same values write the same bytes, so artifacts can be compared by sha256.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from .atomic import atomic_write

FLOAT_DIGITS = 10  # significant digits kept for floats in artifacts


def normalise(obj: Any) -> Any:
    """Turn numpy scalars/arrays, tuples, paths and floats into plain, stable JSON values."""
    if isinstance(obj, dict):
        return {str(k): normalise(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [normalise(v) for v in obj]
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        if not math.isfinite(obj):
            return None
        return float(f"{obj:.{FLOAT_DIGITS}g}")
    if isinstance(obj, Path):
        return str(obj)
    tolist = getattr(obj, "tolist", None)  # numpy scalars and arrays
    if tolist is not None:
        return normalise(tolist())
    raise TypeError(f"cannot write {type(obj).__name__} as canonical JSON")


def dumps(obj: Any, indent: int | None = None) -> str:
    """Canonical JSON text (compact by default) ending in a newline."""
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(normalise(obj), sort_keys=True, ensure_ascii=False, indent=indent, separators=separators) + "\n"


def write_json(path: str | Path, obj: Any, indent: int | None = 1) -> None:
    """Write canonical JSON atomically."""
    atomic_write(path, dumps(obj, indent=indent))


def read_json(path: str | Path) -> Any:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
