"""PuzzleLab's canonical instance file (`.nonjson`): one JSON object per line and puzzle holding
exactly what the readers return (name, title, palette, clues as [length, colour] pairs, the goal
when known), so that the parse step's output reads back into the very same puzzles."""

from __future__ import annotations

import json

import numpy as np

from ...lab.errors import InputError, quote
from ..model import Puzzle, check_puzzle, parse_hex

KEYS = ("name", "title", "note", "palette", "rows", "cols", "goal")


def write(puzzles: list[Puzzle]) -> str:
    """The puzzles as JSON lines (keys in a fixed order, no spaces: the same puzzles give the same bytes)."""
    out = []
    for p in puzzles:
        record = {"name": p.name, "title": p.title, "note": p.note, "palette": list(p.palette),
                  "rows": [[[int(n), int(c)] for n, c in clue] for clue in p.rows],
                  "cols": [[[int(n), int(c)] for n, c in clue] for clue in p.cols],
                  "goal": None if p.goal is None else np.asarray(p.goal).tolist()}
        out.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    return "".join(line + "\n" for line in out)


def _clues(value, what: str, path, line: int) -> list[list[tuple[int, int]]]:
    if not isinstance(value, list):
        raise InputError(f"{what} must be a list of clues", path, line)
    clues = []
    for i, clue in enumerate(value):
        if not isinstance(clue, list) or not all(
                isinstance(b, list) and len(b) == 2 and all(type(x) is int for x in b) for b in clue):
            raise InputError(f"{what} {i + 1}: a clue is a list of [length, colour] pairs of integers", path, line)
        clues.append([(b[0], b[1]) for b in clue])
    return clues


def _one(record, path, line: int) -> Puzzle:
    if not isinstance(record, dict) or set(record) != set(KEYS):
        raise InputError(f"expected an object with exactly the keys {', '.join(KEYS)}", path, line)
    name, title, note, palette = record["name"], record["title"], record["note"], record["palette"]
    if not all(isinstance(v, str) for v in (name, title, note)) or not name:
        raise InputError("name, title and note must be strings (name not empty)", path, line)
    if not isinstance(palette, list) or not all(isinstance(c, str) and parse_hex(c) for c in palette):
        raise InputError("palette must be a list of colours (#rrggbb)", path, line)
    rows, cols = _clues(record["rows"], "row", path, line), _clues(record["cols"], "column", path, line)
    goal = record["goal"]
    if goal is not None:
        if not (isinstance(goal, list) and len(goal) == len(rows) and all(
                isinstance(r, list) and len(r) == len(cols) and all(type(v) is int for v in r) for r in goal)):
            raise InputError(f"goal must be {len(rows)} rows of {len(cols)} integers", path, line)
        if any(not 0 <= v < len(palette) for r in goal for v in r):
            raise InputError("goal image uses a colour that is not in the palette", path, line)
        goal = np.array(goal, dtype=np.int8) if goal else None
    p = Puzzle(name=name, rows=rows, cols=cols, palette=palette, goal=goal, format="instance", note=note, title=title)
    return check_puzzle(p, path, line)


def parse(text: str, path, stem: str) -> list[Puzzle]:
    puzzles = []
    for ln, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as err:
            raise InputError(f"not a JSON object: {err.msg} (got {quote(raw)})", path, ln) from None
        except (ValueError, RecursionError) as err:
            raise InputError(f"not a JSON object: {err}", path, ln) from None
        puzzles.append(_one(record, path, ln))
    return puzzles  # empty when the parse step could read none of a corpus's files
